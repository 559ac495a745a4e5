//! Install media: the per-host answer-file image and the answer-file templates.
//! (ISO inspection, extraction and boot ISOs are still to come.)

pub mod error;
pub mod extract;
pub mod fat;
pub mod iso;
pub mod templates;

pub use error::{Error, Result};
