//! Bootsmith core: domain types and their validation, the SQLite store,
//! secrets, the OS catalog and one service function per action. The REST API
//! and the desktop app are thin adapters over this crate.
//!
//! Grouped by area: `records/` (what the operator keeps), `media/` (svc, ISOs, images),
//! `managers/` (the seam every manager kind's driver sits behind), `deploy/` (the deploy in
//! stages), `jobs/` (background work), `lifecycle/` (each host's install, media to installed), `store/` (all SQL), and `compute` (a group's servers).

pub mod app;
pub mod auth;
pub mod bodies;
pub mod callbacks;
pub mod compute;
pub mod deploy;
pub mod error;
pub mod jobs;
pub mod kubam;
pub mod lifecycle;
pub mod logs;
pub mod managers;
pub mod media;
pub mod overview;
pub mod records;
pub mod secrets;
pub mod startup;

#[cfg(any(test, feature = "testing"))]
pub mod testing;

pub use app::{App, Config};
// The model's modules keep their paths in the core while its files move.
pub use bootsmith_model::{schema, selector, types, validate};
pub use bootsmith_store as store;
// The records and media modules keep their short paths (`bootsmith_core::hosts`, …).
pub use error::{Error, ErrorKind, Problem, Result};
pub use media::{catalog, images, iso_import, isos, svc};
pub use records::{aci, hosts, keys, networks, server_groups, settings};
