//! Errors of install-media building.

use std::path::PathBuf;

/// Everything building media can fail with.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A template does not parse or does not render; names the file and, where known, the line.
    #[error("template {file}: {message}")]
    Template { file: String, message: String },
    /// A file operation failed (disk full, permissions, …).
    #[error("{context} ({}): {source}", path.display())]
    Io {
        context: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The answer files do not fit the image.
    #[error("the answer files ({size} bytes) do not fit a {capacity}-byte image")]
    TooLarge { size: u64, capacity: u64 },
    /// A file that is not a readable ISO 9660 image.
    #[error("{}: not a usable ISO image: {reason}", path.display())]
    NotIso { path: PathBuf, reason: String },
    /// An external tool (xorriso) is missing or failed; says which and why.
    #[error("{tool} {message}")]
    Tool { tool: &'static str, message: String },
    /// Input the builder refuses.
    #[error("{0}")]
    Invalid(String),
}

impl Error {
    pub(crate) fn io(
        context: &'static str,
        path: &std::path::Path,
        source: std::io::Error,
    ) -> Error {
        Error::Io {
            context,
            path: path.to_owned(),
            source,
        }
    }
}

/// Result of media building.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// The kind and code of each media failure: a template or request the operator can fix is
/// 422, a full disk 507, the rest is ours (500).
impl bootsmith_model::error::Classified for Error {
    fn kind(&self) -> bootsmith_model::ErrorKind {
        use bootsmith_model::ErrorKind;
        match self {
            Error::Io { source, .. } if bootsmith_model::error::is_disk_full(source) => {
                ErrorKind::InsufficientStorage
            }
            Error::Template { .. } | Error::Invalid(_) | Error::NotIso { .. } => {
                ErrorKind::Unprocessable
            }
            _ => ErrorKind::Internal,
        }
    }

    fn code(&self) -> bootsmith_model::ErrorCode {
        match self {
            Error::Io { source, .. } if bootsmith_model::error::is_disk_full(source) => {
                bootsmith_model::ErrorCode::DiskFull
            }
            Error::Template { .. } => bootsmith_model::ErrorCode::TemplateError,
            Error::TooLarge { .. } => bootsmith_model::ErrorCode::AnswerFilesTooLarge,
            Error::Invalid(_) => bootsmith_model::ErrorCode::InvalidMediaRequest,
            Error::NotIso { .. } => bootsmith_model::ErrorCode::NotAnIso,
            Error::Io { .. } => bootsmith_model::ErrorCode::IoError,
            Error::Tool { .. } => bootsmith_model::ErrorCode::MediaToolFailed,
        }
    }
}
