//! What the media tests share to build installer ISOs with xorriso: the crate's `testing`
//! module, which other crates' tests use through the `testing` feature.

// Each test file uses its part of it.
#[allow(dead_code)]
#[path = "../../src/testing.rs"]
mod testing;
#[allow(unused_imports)]
pub use testing::{bios_and_uefi, pack_iso};
