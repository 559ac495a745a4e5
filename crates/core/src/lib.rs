//! Bootsmith core: the services, one function per action, over the store (`bootsmith-store`)
//! and the managers' clients; values and vocabulary are the model's (`bootsmith-model`). The
//! REST API and the desktop app are thin doors over this crate.
//!
//! Grouped by area: `records/` (what the operator keeps), `media/` (svc, ISOs, images),
//! `managers/` (the seam every manager kind's driver sits behind), `deploy/` (the deploy in
//! stages), `jobs/` (background work), `lifecycle/` (each host's install, media to installed),
//! `callbacks` (the installers' reports), `host_views` (the hosts as the doors show them),
//! `compute/` (a group's servers); `app` holds the
//! handles and `startup` opens them.

pub mod app;
pub mod auth;
pub mod bodies;
pub mod callbacks;
pub mod compute;
pub mod deploy;
pub mod error;
pub mod host_views;
pub mod install_logs;
pub mod jobs;
pub mod kubam;
pub mod lifecycle;
pub mod logs;
pub mod managers;
pub mod media;
pub mod overview;
pub mod packs;
pub mod records;
pub mod secrets;
pub mod startup;

#[cfg(any(test, feature = "testing"))]
pub mod testing;

pub use app::{App, Config};
pub use error::{Error, ErrorKind, Problem, Result};
