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
