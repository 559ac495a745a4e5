//! Bootsmith's values and vocabulary, the floor every other crate stands on: the validated
//! types (`types`), the error and its codes (`error`), how JSON input is read (`bodies`),
//! the install disk's hint and the rule that picks a disk (`install_disk`), a host's network
//! beyond its address (`network`: MTU, bond, routes, IPv6, MACs), the per-host template
//! parameters (`params`), ids and states of
//! jobs (`job`), the stages of an install (`stage`), the kinds of manager (`group_kind`),
//! server selections (`selector`), the OS catalog (`catalog`), moments (`time`) and the
//! OpenAPI schema helpers (`schema`). It does no I/O and runs nothing: no database, no async
//! runtime, no HTTP.

pub mod bodies;
pub mod catalog;
pub mod code;
pub mod error;
pub mod group_kind;
pub mod install_disk;
pub mod job;
pub mod network;
pub mod params;
pub mod power;
pub mod schema;
pub mod selector;
pub mod stage;
pub mod time;
pub mod types;
pub mod validate;

pub use code::ErrorCode;
pub use error::{Error, ErrorKind, Problem, Result};
