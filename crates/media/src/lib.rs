//! Install media: ISO inspection and extraction, boot ISOs, the per-host
//! answer-file image and the answer-file templates.

pub mod boot;
pub mod disk_scripts;
pub mod error;
pub mod extract;
pub mod fat;
pub mod install_disk;
pub mod iso;
pub mod rhvh;
pub mod templates;
#[cfg(feature = "testing")]
pub mod testing;
pub mod tool;
pub mod work;

pub use error::{Error, Result};
