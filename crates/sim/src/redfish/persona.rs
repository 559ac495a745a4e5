//! The vendors a Redfish simulator can play, and the switches that make the shared handlers
//! behave as each vendor does. Each persona's file (`ilo.rs`, `idrac.rs`, …) builds or loads
//! its resource tree and sets these switches, citing where each behaviour is documented
//! (`shared/reference/redfish.md` §2 and `shared/redfish/README.md`).

use std::path::Path;
use std::sync::Arc;

use axum::http::StatusCode;

use super::tree::Docs;
use super::{cimc, idrac, idrac_legacy, ilo, supermicro, xcc};

/// A BMC vendor and firmware generation the simulator plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Persona {
    /// HPE iLO 5, ProLiant DL360 Gen10 Plus (real capture `DL360`).
    Ilo5,
    /// HPE iLO 7, ProLiant Compute DL380a Gen12 (real capture `DL380a_Gen12`).
    Ilo7,
    /// Dell iDRAC 9, firmware 6.00 or later (VirtualMedia under the System).
    Idrac9,
    /// Dell iDRAC 9 before 6.00 (firmware 4.40.00.00; iDRAC 8 alike): VirtualMedia under the
    /// Manager, `Cd` boots the physical drive, the virtual CD boots once only after Dell's OEM
    /// ImportSystemConfiguration job.
    Idrac9Legacy,
    /// Supermicro X12 (one `CD1` slot, `UsbCd` boot target).
    Supermicro,
    /// Lenovo XClarity Controller 2 (PATCH-only virtual media, `If-Match` required).
    Xcc,
    /// Cisco IMC 4.x standalone (C-series).
    Cimc,
}

impl Persona {
    /// Every persona.
    pub const ALL: [Persona; 7] = [
        Persona::Ilo5,
        Persona::Ilo7,
        Persona::Idrac9,
        Persona::Idrac9Legacy,
        Persona::Supermicro,
        Persona::Xcc,
        Persona::Cimc,
    ];

    /// The name the CLI takes: `ilo5`, `ilo7`, `idrac9`, `idrac9-legacy`, `supermicro`, `xcc`, `cimc`.
    pub fn name(self) -> &'static str {
        match self {
            Persona::Ilo5 => "ilo5",
            Persona::Ilo7 => "ilo7",
            Persona::Idrac9 => "idrac9",
            Persona::Idrac9Legacy => "idrac9-legacy",
            Persona::Supermicro => "supermicro",
            Persona::Xcc => "xcc",
            Persona::Cimc => "cimc",
        }
    }

    /// The persona a CLI name stands for.
    pub fn from_name(name: &str) -> Option<Persona> {
        Persona::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The captured mockup directory under the mockups root (iLO personas only).
    pub fn mockup(self) -> Option<&'static str> {
        match self {
            Persona::Ilo5 => Some("DL360"),
            Persona::Ilo7 => Some("DL380a_Gen12"),
            _ => None,
        }
    }

    /// The persona's starting documents (shared) and its switches.
    pub(crate) fn load(self, mockups: &Path) -> std::io::Result<(Arc<Docs>, Quirks)> {
        Ok(match self {
            Persona::Ilo5 | Persona::Ilo7 => ilo::load(self, mockups)?,
            Persona::Idrac9 => idrac::load(),
            Persona::Idrac9Legacy => idrac_legacy::load(),
            Persona::Supermicro => supermicro::load(),
            Persona::Xcc => xcc::load(),
            Persona::Cimc => cimc::load(),
        })
    }
}

/// How a persona answers a successful action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ActionOk {
    /// 204 No Content.
    NoContent,
    /// 200 with an `iLO.x.ExtendedInfo` error object carrying `Base…Success`, as an iLO does.
    HpeExtendedInfo,
}

/// The switches the shared handlers consult. Each persona file says why each is set.
#[derive(Debug, Clone)]
pub(crate) struct Quirks {
    /// The one ComputerSystem (`/redfish/v1/Systems/…`).
    pub system: String,
    /// The VirtualMedia collection (under the System or the Manager).
    pub vmedia: String,
    /// The prefix of Base registry MessageIds (`Base.1.17`).
    pub base: &'static str,
    /// Session creation answers with a `Location` header.
    pub session_location: bool,
    /// Most sessions open at once; one more is refused with 503 `SessionLimitExceeded`.
    pub max_sessions: Option<usize>,
    /// The status an EjectMedia without a JSON body gets (None: accepted).
    pub eject_needs_body: Option<StatusCode>,
    /// InsertMedia refuses `Inserted`/`WriteProtected` in its body (PropertyUnknown).
    pub insert_rejects_flags: bool,
    /// InsertMedia refuses `Inserted`/`WriteProtected` false, and any `TransferMethod` but Stream.
    pub insert_only_true: bool,
    /// InsertMedia fails while the slot's `Image` is still set.
    pub insert_needs_empty: bool,
    /// Eject leaves `ImageName` as it was.
    pub keeps_image_name: bool,
    /// An image URL must end in `.iso` or `.img` (RAC0720 otherwise).
    pub dell_extensions: bool,
    /// Action POSTs carrying `If-Match` get 412.
    pub action_if_match_412: bool,
    /// Eject takes effect only after the simulator's eject lag; an insert meanwhile gets 500.
    pub eject_lag: bool,
    /// No Insert/Eject actions: media are inserted and ejected by PATCH on the slot.
    pub patch_insert: bool,
    /// Every PATCH must carry `If-Match` (428 otherwise).
    pub patch_needs_if_match: bool,
    /// Every Boot PATCH must carry `BootSourceOverrideEnabled` and `BootSourceOverrideMode`.
    pub full_boot_triple: bool,
    /// The boot target that boots the virtual CD; another CD-like target boots the physical one
    /// (`""`: none does, as on iDRAC < 6.00).
    pub vmedia_boot_target: &'static str,
    /// Dell's OEM ImportSystemConfiguration and its jobs set the virtual-media boot (iDRAC < 6).
    pub dell_oem_boot: bool,
    /// Slots take a PATCH of `Oem.Hpe.BootOnNextServerReset`, which boots them once.
    pub hpe_boot_on_next_reset: bool,
    /// MessageId of the 400 answering On while On or ForceOff while Off (None: a no-op).
    pub redundant_power: Option<&'static str>,
    /// How a successful action is answered.
    pub action_ok: ActionOk,
    /// ETags are weak (`W/"…"`) and also written into the body's `@odata.etag`.
    pub weak_etag: bool,
    /// `Allow` header of a VirtualMedia slot.
    pub slot_allow: &'static str,
    /// Volumes can be deleted.
    pub volume_delete: bool,
    /// Drives have `Drive.SecureErase`.
    pub secure_erase: bool,
    /// An ejected slot's `Image`: `""` (iLO, as captured) or null.
    pub empty_image: serde_json::Value,
}

impl Quirks {
    /// Standard behaviour everywhere: personas change what their vendor does differently.
    pub fn standard(system: &str, vmedia: &str) -> Quirks {
        Quirks {
            system: system.to_owned(),
            vmedia: vmedia.to_owned(),
            base: "Base.1.17",
            session_location: true,
            max_sessions: None,
            eject_needs_body: None,
            insert_rejects_flags: false,
            insert_only_true: false,
            insert_needs_empty: false,
            keeps_image_name: false,
            dell_extensions: false,
            action_if_match_412: false,
            eject_lag: false,
            patch_insert: false,
            patch_needs_if_match: false,
            full_boot_triple: false,
            vmedia_boot_target: "Cd",
            dell_oem_boot: false,
            hpe_boot_on_next_reset: false,
            redundant_power: None,
            action_ok: ActionOk::NoContent,
            weak_etag: false,
            slot_allow: "GET",
            volume_delete: false,
            secure_erase: false,
            empty_image: serde_json::Value::Null,
        }
    }
}
