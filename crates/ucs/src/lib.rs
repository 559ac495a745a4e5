//! Client for the Cisco UCS Manager, UCS Central and standalone IMC XML API: sessions,
//! typed queries and batched configuration over reqwest (rustls) and quick-xml.

pub mod changes;
pub mod disks;
pub mod endpoint;
pub mod error;
pub mod fsm;
pub mod imc_media;
pub mod mounts;
pub mod nics;
pub mod policies;
pub mod power;
pub mod san;
pub mod servers;
pub use bootsmith_tls as tls;
pub mod xml;

pub use changes::{Action, Change, Wanted};
pub use disks::{LocalDisk, VirtualDrive};
pub use endpoint::{Dme, Endpoint, Kind, LoginInfo, Target};
pub use error::{Error, Result};
pub use fsm::FsmStage;
pub use mounts::ActualMount;
pub use nics::HostNic;
pub use power::PowerAction;
pub use san::SanLun;
pub use servers::{CentralDomain, ComputeServer, ServerKind, Template};
pub use tls::Trust;
