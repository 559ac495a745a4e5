//! The one error type of every floor. Each failure has a stable code and an [`ErrorKind`];
//! the doors (REST, Tauri) map the kind to their own status in one place. A failure of another
//! crate (the database, a manager's client, the media tools) arrives through [`Classified`],
//! which that crate implements for its own errors: it knows their codes, the model does not.

use serde::{Deserialize, Serialize};

pub use crate::code::ErrorCode;
use utoipa::ToSchema;

/// One problem found while validating input, tied to a field (and a row for lists).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Problem {
    /// Index of the row in a submitted list, when the input is a list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    /// Name of the row (e.g. the host name), when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Field the problem is about.
    pub field: String,
    /// Human sentence.
    pub message: String,
}

impl Problem {
    /// A problem about one field of a single record.
    pub fn field(field: impl Into<String>, message: impl Into<String>) -> Self {
        Problem {
            index: None,
            name: None,
            field: field.into(),
            message: message.into(),
        }
    }

    /// Tie the problem to row `index` (named `name` when known) of a list.
    pub fn at(mut self, index: usize, name: Option<&str>) -> Self {
        self.index = Some(index);
        self.name = name.map(str::to_owned);
        self
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (&self.index, &self.name) {
            (Some(i), Some(n)) => {
                write!(f, "row {} ({n}): {}: {}", i + 1, self.field, self.message)
            }
            (Some(i), None) => write!(f, "row {}: {}: {}", i + 1, self.field, self.message),
            _ => write!(f, "{}: {}", self.field, self.message),
        }
    }
}

/// The one error body: what the REST API answers, what a window command rejects with and
/// what a failed job keeps, so a failure reads the same through every door.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ErrorBody {
    /// A sentence for a person.
    pub error: String,
    /// Stable code for programs.
    pub code: ErrorCode,
    /// Per-field problems, when the input had several.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<Problem>,
    /// The UCS error code, when the manager refused a call.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ucs_code: Option<String>,
    /// The certificate fingerprint to accept (send it back as `fingerprint`), when the
    /// manager's certificate is not trusted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<String>,
    /// The HTTP status the failure maps to, where no HTTP answer carries it (a job's failure).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// The job that failed, when the answer waited for one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>, format = Uuid)]
    pub job: Option<crate::job::JobId>,
    /// The REST call that fixes it, where there is one: the sentence speaks the operator's
    /// words, this names the call for scripts' authors (REST answers only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

impl ErrorBody {
    /// A body with only a sentence and a code.
    pub fn new(error: impl Into<String>, code: ErrorCode) -> Self {
        ErrorBody {
            error: error.into(),
            code,
            details: Vec::new(),
            ucs_code: None,
            fingerprint: None,
            status: None,
            job: None,
            hint: None,
        }
    }
}

impl From<&Error> for ErrorBody {
    fn from(e: &Error) -> Self {
        ErrorBody {
            details: e.details().to_vec(),
            ucs_code: e.ucs_code().map(str::to_owned),
            fingerprint: e.fingerprint().map(str::to_owned),
            ..ErrorBody::new(e.to_string(), e.code())
        }
    }
}

/// How an error should be reported to a caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The input is malformed or breaks a rule (HTTP 400).
    Invalid,
    /// A named resource does not exist (HTTP 404).
    NotFound,
    /// The request clashes with the current state (HTTP 409).
    Conflict,
    /// Well-formed but semantically impossible (HTTP 422).
    Unprocessable,
    /// The capability is not built yet (HTTP 501).
    NotImplemented,
    /// Our own fault: storage, secrets, I/O (HTTP 500).
    Internal,
    /// The caller lacks the right credential, such as a host's install token (HTTP 401).
    Unauthorized,
    /// The manager refused our login (HTTP 401).
    UpstreamAuth,
    /// The manager failed or could not be reached (HTTP 502).
    Upstream,
    /// The manager did not answer in time (HTTP 504).
    UpstreamTimeout,
    /// The disk (or quota) we write to is full (HTTP 507).
    InsufficientStorage,
    /// A body over a size cap the call has (HTTP 413).
    TooLarge,
}

impl ErrorKind {
    /// The HTTP status of this kind of error. The REST API and the errors stored
    /// in job results both use this, so a failure reads the same either way.
    pub fn http_status(self) -> u16 {
        match self {
            ErrorKind::Invalid => 400,
            ErrorKind::Unauthorized | ErrorKind::UpstreamAuth => 401,
            ErrorKind::NotFound => 404,
            ErrorKind::Conflict => 409,
            ErrorKind::Unprocessable => 422,
            ErrorKind::Internal => 500,
            ErrorKind::NotImplemented => 501,
            ErrorKind::Upstream => 502,
            ErrorKind::UpstreamTimeout => 504,
            ErrorKind::InsufficientStorage => 507,
            ErrorKind::TooLarge => 413,
        }
    }
}

/// Every failure the core reports.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Input that breaks a rule; `details` lists every problem found.
    #[error("{message}")]
    Invalid {
        code: ErrorCode,
        message: String,
        details: Vec<Problem>,
    },
    /// A named thing that does not exist.
    #[error("{message}")]
    NotFound { code: ErrorCode, message: String },
    /// A clash with stored state (in use, duplicate, already running).
    #[error("{message}")]
    Conflict {
        code: ErrorCode,
        message: String,
        details: Vec<Problem>,
    },
    /// Valid on its own but impossible as a whole.
    #[error("{message}")]
    Unprocessable {
        code: ErrorCode,
        message: String,
        details: Vec<Problem>,
    },
    /// A caller without the credential a call needs (a host's install token).
    #[error("{message}")]
    Unauthorized { code: ErrorCode, message: String },
    /// Another web server (one an ISO is fetched from) failed or could not be reached.
    #[error("{message}")]
    Remote { code: ErrorCode, message: String },
    /// A body over the size cap of its call; the sentence says the cap.
    #[error("{message}")]
    TooLarge { code: ErrorCode, message: String },
    /// A capability that a later issue builds.
    #[error("{what} is not implemented yet")]
    NotImplemented { what: String },
    /// The data key or an encrypted value could not be used.
    #[error("{0}")]
    Secret(String),
    /// A stored record no longer reads back (edited by hand or damaged).
    #[error("a stored record is damaged: {0}")]
    Corrupt(String),
    /// A file operation failed.
    #[error("{context}: {source}")]
    Io {
        context: String,
        #[source]
        source: std::io::Error,
    },
    /// Another crate's failure (the database, a manager, the media tools), with the kind and
    /// code that crate gave it (see [`Classified`]); it reads as that failure, sources and all.
    #[error(transparent)]
    Other(Box<Failure>),
}

/// Another crate's failure, with the kind and code that crate gave it.
#[derive(Debug)]
pub struct Failure {
    kind: ErrorKind,
    code: ErrorCode,
    ucs_code: Option<String>,
    fingerprint: Option<String>,
    inner: Box<dyn std::error::Error + Send + Sync>,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.inner.fmt(f)
    }
}

impl std::error::Error for Failure {
    // The inner error's own source, not the inner error: its sentence is already this one's,
    // and a printed chain would say it twice.
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.inner.source()
    }
}

/// An error of another crate that knows how to report itself: the kind (so the status) and
/// the stable code of each of its failures. Implemented by the crate that owns the error, so
/// `?` turns it into an [`Error`] anywhere above.
pub trait Classified: std::error::Error + Send + Sync + 'static {
    /// The class of the failure, for its status.
    fn kind(&self) -> ErrorKind;
    /// The stable machine-readable code.
    fn code(&self) -> ErrorCode;
    /// The UCS error code, when a UCS manager sent one.
    fn ucs_code(&self) -> Option<&str> {
        None
    }
    /// The certificate fingerprint to accept, when a manager's certificate is not trusted.
    fn fingerprint(&self) -> Option<&str> {
        None
    }
}

impl<E: Classified> From<E> for Error {
    fn from(e: E) -> Self {
        Error::Other(Box::new(Failure {
            kind: e.kind(),
            code: e.code(),
            ucs_code: e.ucs_code().map(str::to_owned),
            fingerprint: e.fingerprint().map(str::to_owned),
            inner: Box::new(e),
        }))
    }
}

/// A full disk (or quota): the operator has to free space, which a 500 would not say. Every
/// crate that writes files reports it the same way.
pub fn is_disk_full(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded
    )
}

impl Error {
    /// Ok when `details` is empty, else [`Error::invalid`]: how a check that collects every
    /// problem of its input ends.
    pub fn invalid_if_any(code: ErrorCode, what: &str, details: Vec<Problem>) -> Result<()> {
        if details.is_empty() {
            Ok(())
        } else {
            Err(Error::invalid(code, what, details))
        }
    }

    /// Invalid input with one problem, in `field`.
    pub fn invalid_field(
        code: ErrorCode,
        what: &str,
        field: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Error::invalid(code, what, vec![Problem::field(field, message)])
    }

    /// Invalid input with one problem per entry of `details`; the sentence joins them.
    pub fn invalid(code: ErrorCode, what: &str, details: Vec<Problem>) -> Self {
        let list: Vec<String> = details.iter().map(ToString::to_string).collect();
        Error::Invalid {
            code,
            message: format!("{what}: {}", list.join("; ")),
            details,
        }
    }

    /// Invalid input described by one sentence.
    pub fn bad(code: ErrorCode, message: impl Into<String>) -> Self {
        Error::Invalid {
            code,
            message: message.into(),
            details: Vec::new(),
        }
    }

    /// A missing resource.
    pub fn not_found(code: ErrorCode, message: impl Into<String>) -> Self {
        Error::NotFound {
            code,
            message: message.into(),
        }
    }

    /// A conflict with stored state.
    pub fn conflict(code: ErrorCode, message: impl Into<String>) -> Self {
        Error::Conflict {
            code,
            message: message.into(),
            details: Vec::new(),
        }
    }

    /// A body (or a window command's argument) whose JSON has the wrong shape or types;
    /// worded the same for the REST API and the window.
    pub fn invalid_body(reason: impl std::fmt::Display) -> Self {
        Error::bad(
            ErrorCode::InvalidBody,
            format!("the body does not have the expected shape: {reason}"),
        )
    }

    /// A capability not built yet.
    pub fn not_implemented(what: impl Into<String>) -> Self {
        Error::NotImplemented { what: what.into() }
    }

    /// Wrap an I/O error with what we were doing.
    pub fn io(context: impl Into<String>, source: std::io::Error) -> Self {
        Error::Io {
            context: context.into(),
            source,
        }
    }

    /// The class of error, for mapping to a status.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::Io { source, .. } if is_disk_full(source) => ErrorKind::InsufficientStorage,
            Error::Invalid { .. } => ErrorKind::Invalid,
            Error::NotFound { .. } => ErrorKind::NotFound,
            Error::Unauthorized { .. } => ErrorKind::Unauthorized,
            Error::Conflict { .. } => ErrorKind::Conflict,
            Error::Unprocessable { .. } => ErrorKind::Unprocessable,
            Error::TooLarge { .. } => ErrorKind::TooLarge,
            Error::NotImplemented { .. } => ErrorKind::NotImplemented,
            Error::Remote { .. } => ErrorKind::Upstream,
            Error::Other(f) => f.kind,
            Error::Secret(_) | Error::Corrupt(_) | Error::Io { .. } => ErrorKind::Internal,
        }
    }

    /// The stable machine-readable code.
    pub fn code(&self) -> ErrorCode {
        match self {
            Error::Io { source, .. } if is_disk_full(source) => ErrorCode::DiskFull,
            Error::Invalid { code, .. }
            | Error::NotFound { code, .. }
            | Error::Unauthorized { code, .. }
            | Error::Conflict { code, .. }
            | Error::Unprocessable { code, .. }
            | Error::TooLarge { code, .. }
            | Error::Remote { code, .. } => *code,
            Error::Other(f) => f.code,
            Error::NotImplemented { .. } => ErrorCode::NotImplemented,
            Error::Secret(_) => ErrorCode::SecretError,
            Error::Corrupt(_) => ErrorCode::CorruptRecord,
            Error::Io { .. } => ErrorCode::IoError,
        }
    }

    /// The UCS error code, when the manager sent one.
    pub fn ucs_code(&self) -> Option<&str> {
        match self {
            Error::Other(f) => f.ucs_code.as_deref(),
            _ => None,
        }
    }

    /// The certificate fingerprint to accept, when the manager's certificate is not trusted.
    pub fn fingerprint(&self) -> Option<&str> {
        match self {
            Error::Other(f) => f.fingerprint.as_deref(),
            _ => None,
        }
    }

    /// The other crate's error inside, when it is a `T`: for the few callers that act on one
    /// manager's answer (a UCS object that already exists, a Redfish refusal).
    pub fn downcast_ref<T: std::error::Error + 'static>(&self) -> Option<&T> {
        match self {
            Error::Other(f) => f.inner.downcast_ref::<T>(),
            _ => None,
        }
    }

    /// The other crate's error inside, taken out when it is a `T` (else the error as it was).
    pub fn downcast<T: std::error::Error + Send + Sync + 'static>(
        self,
    ) -> std::result::Result<T, Self> {
        match self {
            Error::Other(mut f) => match f.inner.downcast::<T>() {
                Ok(t) => Ok(*t),
                Err(inner) => {
                    f.inner = inner;
                    Err(Error::Other(f))
                }
            },
            other => Err(other),
        }
    }

    /// Per-field problems, when the error has them.
    pub fn details(&self) -> &[Problem] {
        match self {
            Error::Invalid { details, .. }
            | Error::Conflict { details, .. }
            | Error::Unprocessable { details, .. } => details,
            _ => &[],
        }
    }
}

/// Result alias of every floor.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_disk_is_507_disk_full_not_an_internal_error() {
        for kind in [
            std::io::ErrorKind::StorageFull,
            std::io::ErrorKind::QuotaExceeded,
        ] {
            let e = Error::io("writing /svc/x.iso", std::io::Error::from(kind));
            assert_eq!(
                (e.kind().http_status(), e.code().as_str()),
                (507, "disk_full")
            );
        }
        let other = Error::io(
            "writing /svc/x.iso",
            std::io::Error::from(std::io::ErrorKind::PermissionDenied),
        );
        assert_eq!(
            (other.kind().http_status(), other.code().as_str()),
            (500, "io_error")
        );
    }

    /// Another crate's failure: "the database failed", over its driver's own error.
    #[derive(Debug)]
    struct Outer(std::io::Error);

    impl std::fmt::Display for Outer {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "the database failed: {}", self.0)
        }
    }

    impl std::error::Error for Outer {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.0)
        }
    }

    impl Classified for Outer {
        fn kind(&self) -> ErrorKind {
            ErrorKind::Internal
        }
        fn code(&self) -> ErrorCode {
            ErrorCode::StorageError
        }
    }

    #[test]
    fn another_crates_failure_reads_as_itself_and_its_chain_says_each_sentence_once() {
        let e = Error::from(Outer(std::io::Error::other("disk I/O error")));
        assert_eq!(e.to_string(), "the database failed: disk I/O error");
        assert_eq!(
            (e.kind(), e.code()),
            (ErrorKind::Internal, ErrorCode::StorageError)
        );
        let mut chain = vec![e.to_string()];
        let mut next = std::error::Error::source(&e);
        while let Some(s) = next {
            chain.push(s.to_string());
            next = s.source();
        }
        assert_eq!(
            chain,
            ["the database failed: disk I/O error", "disk I/O error"],
            "what `{{e:#}}` prints, one sentence per link"
        );
        assert!(e.downcast_ref::<Outer>().is_some());
        let back = e.downcast::<std::fmt::Error>().unwrap_err();
        assert_eq!(
            back.code(),
            ErrorCode::StorageError,
            "a failed downcast gives it back whole"
        );
    }
}
