//! Bootsmith core: domain types and their validation, the SQLite store,
//! secrets, the OS catalog and one service function per action. The REST API
//! and the desktop app are thin adapters over this crate.

pub mod aci;
pub mod app;
pub mod auth;
pub mod bodies;
pub mod catalog;
pub mod compute;
pub mod deploy;
pub mod error;
pub mod hosts;
pub mod images;
pub mod iso_import;
pub mod isos;
pub mod jobs;
pub mod keys;
pub mod kubam;
pub mod logs;
pub mod managers;
pub mod networks;
pub mod overview;
mod records;
pub mod schema;
pub mod secrets;
pub mod selector;
pub mod server_groups;
pub mod settings;
pub mod store;
pub mod svc;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
pub mod types;
mod validate;

pub use app::{App, Config};
pub use error::{Error, ErrorKind, Problem, Result};
