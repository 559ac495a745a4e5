//! The store's failures. The services see them as the model's [`bootsmith_model::Error`]
//! (through [`Classified`]): every one is ours to fix, a 500, but for a full disk.

use bootsmith_model::error::{is_disk_full, Classified};
use bootsmith_model::ErrorKind;

/// Every failure of the store.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The database failed.
    #[error("the database failed: {0}")]
    Db(#[from] sqlx::Error),
    /// Migrations could not be applied.
    #[error("the database schema could not be updated: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A stored record no longer reads back (edited by hand or damaged).
    #[error("a stored record is damaged: {0}")]
    Corrupt(String),
    /// A file beside the database (a copy before migrating) could not be written.
    #[error("{context}: {source}")]
    Io {
        context: String,
        #[source]
        source: std::io::Error,
    },
}

impl Error {
    /// Wrap an I/O error with what we were doing.
    pub fn io(context: impl Into<String>, source: std::io::Error) -> Self {
        Error::Io {
            context: context.into(),
            source,
        }
    }
}

impl Classified for Error {
    fn kind(&self) -> ErrorKind {
        match self {
            Error::Io { source, .. } if is_disk_full(source) => ErrorKind::InsufficientStorage,
            _ => ErrorKind::Internal,
        }
    }

    fn code(&self) -> bootsmith_model::ErrorCode {
        match self {
            Error::Io { source, .. } if is_disk_full(source) => {
                bootsmith_model::ErrorCode::DiskFull
            }
            Error::Db(_) | Error::Migrate(_) => bootsmith_model::ErrorCode::StorageError,
            Error::Corrupt(_) => bootsmith_model::ErrorCode::CorruptRecord,
            Error::Io { .. } => bootsmith_model::ErrorCode::IoError,
        }
    }
}

/// Result alias of the store.
pub type Result<T, E = Error> = std::result::Result<T, E>;
