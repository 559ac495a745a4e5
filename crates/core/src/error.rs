//! The one error type of the core. Each variant has a stable code; the
//! adapters (REST, Tauri) map [`ErrorKind`] to their own status in one place.

use serde::{Deserialize, Serialize};
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
    pub code: String,
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
    pub job: Option<crate::jobs::JobId>,
    /// The REST call that fixes it, where there is one: the sentence speaks the operator's
    /// words, this names the call for scripts' authors (REST answers only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

impl ErrorBody {
    /// A body with only a sentence and a code.
    pub fn new(error: impl Into<String>, code: impl Into<String>) -> Self {
        ErrorBody {
            error: error.into(),
            code: code.into(),
            details: Vec::new(),
            ucs_code: None,
            fingerprint: None,
            status: None,
            job: None,
            hint: None,
        }
    }
}

/// Log that `action` (`networks::create`) was refused or failed, with the error's code and
/// sentence (which name the record and never a secret): every door calls it, so a refused save,
/// a manager's refused login or write reaches the log however it was asked for.
pub fn log_refusal(action: &str, e: &Error) {
    if e.kind().http_status() >= 500 {
        tracing::error!(action, code = e.code(), error = %e, "an action failed");
    } else {
        tracing::warn!(action, code = e.code(), error = %e, "an action was refused");
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
        }
    }
}

/// Every failure the core reports.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Input that breaks a rule; `details` lists every problem found.
    #[error("{message}")]
    Invalid {
        code: &'static str,
        message: String,
        details: Vec<Problem>,
    },
    /// A named thing that does not exist.
    #[error("{message}")]
    NotFound { code: &'static str, message: String },
    /// A clash with stored state (in use, duplicate, already running).
    #[error("{message}")]
    Conflict {
        code: &'static str,
        message: String,
        details: Vec<Problem>,
    },
    /// Valid on its own but impossible as a whole.
    #[error("{message}")]
    Unprocessable {
        code: &'static str,
        message: String,
        details: Vec<Problem>,
    },
    /// A caller without the credential a call needs (a host's install token).
    #[error("{message}")]
    Unauthorized { code: &'static str, message: String },
    /// Another web server (one an ISO is fetched from) failed or could not be reached.
    #[error("{message}")]
    Remote { code: &'static str, message: String },
    /// A capability that a later issue builds.
    #[error("{what} is not implemented yet")]
    NotImplemented { what: String },
    /// The database failed.
    #[error("the database failed: {0}")]
    Store(#[from] sqlx::Error),
    /// Migrations could not be applied.
    #[error("the database schema could not be updated: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// The data key or an encrypted value could not be used.
    #[error("{0}")]
    Secret(String),
    /// A stored record no longer reads back (edited by hand or damaged).
    #[error("a stored record is damaged: {0}")]
    Corrupt(String),
    /// The UCS manager or IMC failed, refused, or could not be reached.
    #[error("{0}")]
    Ucs(#[from] bootsmith_ucs::Error),
    /// A Redfish BMC failed, refused, or could not be reached (boxed: its errors carry the
    /// BMC's own words, and every `Result` of the core would grow with them).
    #[error("{0}")]
    Redfish(Box<bootsmith_redfish::Error>),
    /// Building install media failed.
    #[error("{0}")]
    Media(#[from] bootsmith_media::Error),
    /// A file operation failed.
    #[error("{context}: {source}")]
    Io {
        context: String,
        #[source]
        source: std::io::Error,
    },
}

impl From<bootsmith_redfish::Error> for Error {
    fn from(e: bootsmith_redfish::Error) -> Self {
        Error::Redfish(Box::new(e))
    }
}

impl Error {
    /// Ok when `details` is empty, else [`Error::invalid`]: how a check that collects every
    /// problem of its input ends.
    pub fn invalid_if_any(code: &'static str, what: &str, details: Vec<Problem>) -> Result<()> {
        if details.is_empty() {
            Ok(())
        } else {
            Err(Error::invalid(code, what, details))
        }
    }

    /// Invalid input with one problem, in `field`.
    pub fn invalid_field(
        code: &'static str,
        what: &str,
        field: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Error::invalid(code, what, vec![Problem::field(field, message)])
    }

    /// Invalid input with one problem per entry of `details`; the sentence joins them.
    pub fn invalid(code: &'static str, what: &str, details: Vec<Problem>) -> Self {
        let list: Vec<String> = details.iter().map(ToString::to_string).collect();
        Error::Invalid {
            code,
            message: format!("{what}: {}", list.join("; ")),
            details,
        }
    }

    /// Invalid input described by one sentence.
    pub fn bad(code: &'static str, message: impl Into<String>) -> Self {
        Error::Invalid {
            code,
            message: message.into(),
            details: Vec::new(),
        }
    }

    /// A missing resource.
    pub fn not_found(code: &'static str, message: impl Into<String>) -> Self {
        Error::NotFound {
            code,
            message: message.into(),
        }
    }

    /// A conflict with stored state.
    pub fn conflict(code: &'static str, message: impl Into<String>) -> Self {
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
            "invalid_body",
            format!("the body does not have the expected shape: {reason}"),
        )
    }

    /// What a group's manager cannot do, with why (422 `not_supported`).
    pub fn not_supported_here(group: &crate::managers::ManagedGroup, why: &str) -> Self {
        Error::Unprocessable {
            code: "not_supported",
            message: format!(
                "Server group '{}' ({}): {why}",
                group.name,
                group.kind.title()
            ),
            details: Vec::new(),
        }
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
        if self.is_disk_full() {
            return ErrorKind::InsufficientStorage;
        }
        match self {
            Error::Invalid { .. } => ErrorKind::Invalid,
            Error::NotFound { .. } => ErrorKind::NotFound,
            Error::Unauthorized { .. } => ErrorKind::Unauthorized,
            Error::Conflict { .. } => ErrorKind::Conflict,
            Error::Unprocessable { .. } => ErrorKind::Unprocessable,
            Error::NotImplemented { .. } => ErrorKind::NotImplemented,
            Error::Remote { .. } => ErrorKind::Upstream,
            Error::Media(
                bootsmith_media::Error::Template { .. }
                | bootsmith_media::Error::Invalid(_)
                | bootsmith_media::Error::NotIso { .. },
            ) => ErrorKind::Unprocessable,
            Error::Media(_) => ErrorKind::Internal,
            Error::Ucs(e) => match e {
                bootsmith_ucs::Error::LoginFailed { .. } => ErrorKind::UpstreamAuth,
                bootsmith_ucs::Error::Timeout { .. } => ErrorKind::UpstreamTimeout,
                bootsmith_ucs::Error::Untrusted { .. } => ErrorKind::Unprocessable,
                bootsmith_ucs::Error::Invalid(_) => ErrorKind::Invalid,
                _ => ErrorKind::Upstream,
            },
            Error::Redfish(e) => match &**e {
                bootsmith_redfish::Error::Unauthorized { .. } => ErrorKind::UpstreamAuth,
                bootsmith_redfish::Error::Timeout { .. } => ErrorKind::UpstreamTimeout,
                bootsmith_redfish::Error::Tls { .. }
                | bootsmith_redfish::Error::NotSupported { .. } => ErrorKind::Unprocessable,
                bootsmith_redfish::Error::Invalid(_) => ErrorKind::Invalid,
                _ => ErrorKind::Upstream,
            },
            Error::Store(_)
            | Error::Migrate(_)
            | Error::Secret(_)
            | Error::Corrupt(_)
            | Error::Io { .. } => ErrorKind::Internal,
        }
    }

    /// The stable machine-readable code.
    pub fn code(&self) -> &'static str {
        if self.is_disk_full() {
            return "disk_full";
        }
        match self {
            Error::Invalid { code, .. }
            | Error::NotFound { code, .. }
            | Error::Unauthorized { code, .. }
            | Error::Conflict { code, .. }
            | Error::Unprocessable { code, .. }
            | Error::Remote { code, .. } => code,
            Error::NotImplemented { .. } => "not_implemented",
            Error::Store(_) | Error::Migrate(_) => "storage_error",
            Error::Secret(_) => "secret_error",
            Error::Corrupt(_) => "corrupt_record",
            Error::Media(bootsmith_media::Error::Template { .. }) => "template_error",
            Error::Media(bootsmith_media::Error::TooLarge { .. }) => "answer_files_too_large",
            Error::Media(bootsmith_media::Error::Invalid(_)) => "invalid_media_request",
            Error::Media(bootsmith_media::Error::NotIso { .. }) => "not_an_iso",
            Error::Media(bootsmith_media::Error::Io { .. }) => "io_error",
            Error::Media(bootsmith_media::Error::Tool { .. }) => "media_tool_failed",
            Error::Ucs(e) => match e {
                bootsmith_ucs::Error::LoginFailed { .. } => "ucs_login_failed",
                bootsmith_ucs::Error::Timeout { .. } => "ucs_timeout",
                bootsmith_ucs::Error::Unreachable { .. } | bootsmith_ucs::Error::Http { .. } => {
                    "ucs_unreachable"
                }
                bootsmith_ucs::Error::Untrusted { .. } => "untrusted_certificate",
                bootsmith_ucs::Error::FingerprintMismatch { .. } => "certificate_changed",
                bootsmith_ucs::Error::Protocol { .. } => "ucs_protocol_error",
                bootsmith_ucs::Error::Api { .. } => "ucs_error",
                bootsmith_ucs::Error::Invalid(_) => "invalid_ucs_request",
            },
            Error::Redfish(e) => match &**e {
                bootsmith_redfish::Error::Unauthorized { .. } => "bmc_login_failed",
                bootsmith_redfish::Error::Timeout { .. } => "bmc_timeout",
                bootsmith_redfish::Error::Unreachable { .. } => "bmc_unreachable",
                bootsmith_redfish::Error::Tls { pinned: None, .. } => "untrusted_certificate",
                bootsmith_redfish::Error::Tls { .. } => "certificate_changed",
                bootsmith_redfish::Error::NotSupported { .. } => "not_supported",
                bootsmith_redfish::Error::Refused { .. } => "bmc_error",
                bootsmith_redfish::Error::Protocol { .. } => "bmc_protocol_error",
                bootsmith_redfish::Error::Invalid(_) => "invalid_bmc_request",
            },
            Error::Io { .. } => "io_error",
        }
    }

    /// A write failed for want of space: the operator has to free some, which a 500 would not say.
    fn is_disk_full(&self) -> bool {
        let source = match self {
            Error::Io { source, .. } | Error::Media(bootsmith_media::Error::Io { source, .. }) => {
                source
            }
            _ => return false,
        };
        matches!(
            source.kind(),
            std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded
        )
    }

    /// The UCS error code, when the manager sent one.
    pub fn ucs_code(&self) -> Option<&str> {
        match self {
            Error::Ucs(e) => e.ucs_code(),
            _ => None,
        }
    }

    /// The certificate fingerprint to accept, when the manager's certificate is not trusted.
    pub fn fingerprint(&self) -> Option<&str> {
        match self {
            Error::Ucs(bootsmith_ucs::Error::Untrusted { fingerprint, .. }) => Some(fingerprint),
            Error::Redfish(e) => match &**e {
                bootsmith_redfish::Error::Tls {
                    fingerprint,
                    pinned: None,
                    ..
                } => Some(fingerprint),
                _ => None,
            },
            _ => None,
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

/// What a JSON input must be at its top level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// A JSON object (a record, or a body with named parts).
    Object,
    /// A JSON array (a list of names).
    List,
    /// A JSON array of objects (a whole list of records, e.g. the hosts).
    Records,
}

fn json_kind(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "a list",
        serde_json::Value::Object(_) => "an object",
    }
}

/// For a nested record field (`servers`, `credentials`, …): an object, or null for "absent".
/// serde alone would read a record from a list by position, so `{"servers": [null, null]}`
/// would pass as "no selection" — and mean every server.
pub(crate) fn object<'de, D, T>(d: D) -> std::result::Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::de::DeserializeOwned,
{
    use serde::de::Error as _;
    match <serde_json::Value as serde::Deserialize>::deserialize(d)? {
        serde_json::Value::Null => Ok(None),
        v @ serde_json::Value::Object(_) => serde_json::from_value(v)
            .map(Some)
            .map_err(D::Error::custom),
        other => Err(D::Error::custom(format!(
            "expected an object, found {}",
            json_kind(&other)
        ))),
    }
}

/// For a nested list of records: a list of objects, or null for "absent".
pub(crate) fn objects<'de, D, T>(d: D) -> std::result::Result<Option<Vec<T>>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::de::DeserializeOwned,
{
    use serde::de::Error as _;
    match <serde_json::Value as serde::Deserialize>::deserialize(d)? {
        serde_json::Value::Null => Ok(None),
        serde_json::Value::Array(items) => items
            .into_iter()
            .enumerate()
            .map(|(i, v)| {
                if v.is_object() {
                    serde_json::from_value(v).map_err(D::Error::custom)
                } else {
                    Err(D::Error::custom(format!(
                        "item {} is {}, expected an object",
                        i + 1,
                        json_kind(&v)
                    )))
                }
            })
            .collect::<std::result::Result<Vec<T>, _>>()
            .map(Some),
        other => Err(D::Error::custom(format!(
            "expected a list of objects, found {}",
            json_kind(&other)
        ))),
    }
}

/// Read JSON input as `T`, the one way both front doors do: a value of the wrong shape or
/// type is `invalid_body` with serde's reason, never a front door's own message. `expected`
/// describes the wanted input for the sentence.
pub fn from_json<T: serde::de::DeserializeOwned>(
    value: serde_json::Value,
    shape: Shape,
    expected: &str,
) -> Result<T> {
    // serde would read a struct from an array positionally; inputs are objects where they say so.
    let shape_ok = match shape {
        Shape::Object => value.is_object(),
        Shape::List => value.is_array(),
        Shape::Records => value.is_array(),
    };
    if !shape_ok {
        return Err(Error::invalid_body(format!("expected {expected}")));
    }
    if let (Shape::Records, serde_json::Value::Array(items)) = (shape, &value) {
        if let Some((i, v)) = items.iter().enumerate().find(|(_, v)| !v.is_object()) {
            return Err(Error::invalid_body(format!(
                "item {} is {}; expected {expected}",
                i + 1,
                json_kind(v)
            )));
        }
    }
    serde_json::from_value(value).map_err(Error::invalid_body)
}

/// Result alias of the core.
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
            assert_eq!((e.kind().http_status(), e.code()), (507, "disk_full"));
        }
        let other = Error::io(
            "writing /svc/x.iso",
            std::io::Error::from(std::io::ErrorKind::PermissionDenied),
        );
        assert_eq!(
            (other.kind().http_status(), other.code()),
            (500, "io_error")
        );
    }
}
