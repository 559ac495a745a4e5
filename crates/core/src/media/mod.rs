//! Install media in svc: the OS catalog, ISOs brought into svc and mapped to OSes, the
//! per-host images made from them, the one rule of what svc serves and how it is written, and
//! whether servers can reach it.

pub use bootsmith_model::catalog;
pub mod images;
pub mod iso_import;
pub mod isos;
pub mod reach;
pub mod svc;
