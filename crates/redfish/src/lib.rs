//! DMTF Redfish client for baseboard management controllers: transport and sessions
//! ([`Client`]), identity, inventory, power, virtual media, one-time boot and disks, with
//! vendor quirks kept as data (`quirks.json`). Requests are built apart from the transport
//! ([`request`]) so payload rules are testable without a BMC.

#![warn(missing_docs)]

pub mod boot;
pub mod client;
pub mod dell;
pub mod disks;
pub mod error;
pub mod identity;
pub mod nics;
pub mod power;
pub mod quirks;
pub mod request;
pub mod session;
pub mod systems;
pub use bootsmith_tls as tls;
pub mod vmedia;

pub use boot::{
    boot_cleared, boot_once_cd, boot_once_held, clear_boot_override, ensure_boot_once_cd,
    BootOutcome,
};
pub use client::{Client, Config, Reply};
pub use disks::{reset_disks, storage, DiskReset, Drive, Storage, Volume};
pub use error::{Error, Result};
pub use identity::{identify, Identity, Vendor};
pub use nics::{ethernet_interfaces, EthernetInterface};
pub use power::{choose_reset_type, reset, wait_power, PowerAction, PowerState};
pub use quirks::{Effect, Quirks, Rule};
pub use request::{IfMatch, Method, Request};
pub use session::AuthMode;
pub use systems::{system, systems, systems_at, System};
pub use tls::Trust;
pub use vmedia::{
    choose_slots, eject, insert, mount, slots, InsertOutcome, InsertRung, MediaKind, Mounted, Slot,
    SlotChoice,
};
