//! Cisco IMC 4.x standalone (C-series), built in code from the CIMC 4.1(3d) C220 M5SX dump in
//! datacenter/iserver.
//!
//! Sources (`shared/reference/redfish.md` §2 row ★9 and §1.1):
//! * The System's id is its serial (`WZP22490ZCU`), the Manager is `CIMC`, VirtualMedia
//!   `Managers/CIMC/VirtualMedia/0` (CD,DVD) and `/1` (Floppy,USBStick, "Virtual HDD")
//!   (iserver `doc/redfish-tests-cisco-ucsc-c220-m5sx/UriManagers.md`).
//! * `Inserted` and `WriteProtected` may only be true, `TransferMethod` only Stream (same dump).
//! * Session creation answers 201 WITHOUT `Location`; the URI is only in the body's `@odata.id`
//!   (openstack/sushy commit 43ed6a6 "Handle session-uri in body").
//! * At most 4 concurrent sessions (redfish.md §1.1 and row ★9).
//! * ResetType AllowableValues `On, ForceOff, GracefulShutdown, ForceRestart, Nmi, PowerCycle`:
//!   no GracefulRestart, no ForceOn (iserver `Action.md`).

use std::sync::Arc;

use serde_json::json;

use super::persona::Quirks;
use super::synthetic::{build, Slot, Spec};
use super::tree::{cached_built, Docs};

/// The System's id: the server's serial number.
pub const SERIAL: &str = "WZP22490ZCU";

fn tree() -> Docs {
    build(&Spec {
        vendor: "Cisco Systems Inc.",
        product: "UCS C220 M5SX",
        redfish_version: "1.2.0",
        system_id: SERIAL,
        manager_id: "CIMC",
        manufacturer: "Cisco Systems Inc",
        model: "UCSC-C220-M5SX",
        serial: SERIAL,
        bios_version: "C220M5.4.1.3c.0.0711200933",
        manager_firmware: "4.1(3d)",
        manager_type: "CIMC",
        vmedia_on_system: false,
        slots: vec![
            Slot {
                id: "0",
                name: "CIMC-Mapped vDVD",
                media_types: &["CD", "DVD"],
                actions: true,
                extra: json!({ "Actions": { "#VirtualMedia.InsertMedia": {
                    "TransferProtocolType@Redfish.AllowableValues": ["CIFS", "HTTP", "HTTPS", "NFS"],
                    "TransferMethod@Redfish.AllowableValues": ["Stream"],
                    "Inserted@Redfish.AllowableValues": ["true"],
                    "WriteProtected@Redfish.AllowableValues": ["true"] } } }),
            },
            Slot {
                id: "1",
                name: "CIMC-Mapped vHDD",
                media_types: &["Floppy", "USBStick"],
                actions: true,
                extra: json!({ "Description": "Virtual HDD", "Actions": { "#VirtualMedia.InsertMedia": {
                    "TransferProtocolType@Redfish.AllowableValues": ["CIFS", "HTTP", "HTTPS", "NFS"],
                    "TransferMethod@Redfish.AllowableValues": ["Stream"],
                    "Inserted@Redfish.AllowableValues": ["true"],
                    "WriteProtected@Redfish.AllowableValues": ["true"] } } }),
            },
        ],
        boot_targets: &["None", "Pxe", "Floppy", "Cd", "Hdd", "BiosSetup", "Diags"],
        reset_types: &[
            "On",
            "ForceOff",
            "GracefulShutdown",
            "ForceRestart",
            "Nmi",
            "PowerCycle",
        ],
        storage_id: "MRAID",
        drives: ["1", "2"],
        volume_id: "0",
        secure_erase: false,
    })
}

pub(crate) fn load() -> (Arc<Docs>, Quirks) {
    let sys = format!("/redfish/v1/Systems/{SERIAL}");
    let mut q = Quirks::standard(&sys, "/redfish/v1/Managers/CIMC/VirtualMedia");
    q.base = "Base.1.4";
    q.session_location = false;
    q.max_sessions = Some(4);
    q.insert_only_true = true;
    q.volume_delete = true;
    (cached_built("cimc", tree), q)
}
