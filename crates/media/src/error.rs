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

    fn code(&self) -> &'static str {
        match self {
            Error::Io { source, .. } if bootsmith_model::error::is_disk_full(source) => "disk_full",
            Error::Template { .. } => "template_error",
            Error::TooLarge { .. } => "answer_files_too_large",
            Error::Invalid(_) => "invalid_media_request",
            Error::NotIso { .. } => "not_an_iso",
            Error::Io { .. } => "io_error",
            Error::Tool { .. } => "media_tool_failed",
        }
    }
}
