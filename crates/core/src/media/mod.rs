//! Install media in svc: the OS catalog, ISOs brought into svc and mapped to OSes, the
//! per-host images made from them (the images job over its rooms: answer files, install
//! trees, boot ISOs, single-device media, all named by the svc layout), the one rule of what
//! svc serves and how it is written, and whether servers can reach it.

pub mod answers;
pub mod boot_isos;
pub mod images;
pub(crate) mod inputs;
pub mod iso_import;
pub mod isos;
pub mod layout;
pub mod reach;
pub mod single_device;
pub mod svc;
pub mod trees;
