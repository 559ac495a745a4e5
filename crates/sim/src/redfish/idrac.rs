//! Dell iDRAC 9, firmware 6.00 or later, built in code (no public full capture of ≥ 6.x).
//!
//! Sources (`shared/reference/redfish.md` §2):
//! * System `System.Embedded.1`, Manager `iDRAC.Embedded.1`; VirtualMedia moved to
//!   `Systems/System.Embedded.1/VirtualMedia/{1,2}`, each `CD,DVD,USBStick` (row ★2:
//!   dell/iDRAC-Redfish-Scripting#265 and #324; bmclib fixture `dell/virtualmedia_1.json`).
//! * An image URL must end in `.iso` (CD) or `.img` (removable disk), else RAC0720 "Unable to
//!   locate the ISO or IMG image file" (row ★3: dell/terraform-provider-redfish PR #84;
//!   dell/iDRAC-Redfish-Scripting#225).
//! * Eject is asynchronous: the slot still reports `Inserted` for a while, and an insert then is
//!   a 500 (SYS518-like busy); an action POST carrying `If-Match` is 412 (row ★4: ironic
//!   `redfish/boot.py` `_test_retry`, 1069c0f1e; sushy 2b760a6; ironcore-dev/metal-operator#1015).
//! * EjectMedia without a body is 400 (redfish.md §1.3: sushy commit 219d93a).
//! * `BootSourceOverrideTarget=Cd` boots the virtual CD on ≥ 6.00 (row ★1 is < 6.00 only).

use std::sync::Arc;

use axum::http::StatusCode;
use serde_json::json;

use super::persona::Quirks;
use super::synthetic::{build, Slot, Spec};
use super::tree::{cached_built, Docs};

const SYSTEM: &str = "/redfish/v1/Systems/System.Embedded.1";

fn tree() -> Docs {
    let slot = |id| Slot {
        id,
        name: "Virtual Media",
        media_types: &["CD", "DVD", "USBStick"],
        actions: true,
        extra: json!({ "TransferProtocolType": null, "TransferMethod": "Stream" }),
    };
    build(&Spec {
        vendor: "Dell",
        product: "Integrated Dell Remote Access Controller",
        redfish_version: "1.17.0",
        system_id: "System.Embedded.1",
        manager_id: "iDRAC.Embedded.1",
        manufacturer: "Dell Inc.",
        model: "PowerEdge R650",
        serial: "CNIVC0012X0042",
        bios_version: "1.13.2",
        manager_firmware: "6.10.30.00",
        manager_type: "14G Monolithic",
        vmedia_on_system: true,
        slots: vec![slot("1"), slot("2")],
        boot_targets: &[
            "None",
            "Pxe",
            "Floppy",
            "Cd",
            "Hdd",
            "BiosSetup",
            "Utilities",
            "UefiTarget",
            "SDCard",
            "UefiHttp",
        ],
        reset_types: &[
            "On",
            "ForceOff",
            "ForceRestart",
            "GracefulRestart",
            "GracefulShutdown",
            "PushPowerButton",
            "Nmi",
            "PowerCycle",
        ],
        storage_id: "RAID.Integrated.1-1",
        drives: [
            "Disk.Bay.0:Enclosure.Internal.0-1:RAID.Integrated.1-1",
            "Disk.Bay.1:Enclosure.Internal.0-1:RAID.Integrated.1-1",
        ],
        volume_id: "Disk.Virtual.0:RAID.Integrated.1-1",
        secure_erase: true,
    })
}

pub(crate) fn load() -> (Arc<Docs>, Quirks) {
    let mut q = Quirks::standard(SYSTEM, &format!("{SYSTEM}/VirtualMedia"));
    q.base = "Base.1.12";
    q.dell_extensions = true;
    q.action_if_match_412 = true;
    q.eject_lag = true;
    q.eject_needs_body = Some(StatusCode::BAD_REQUEST);
    q.volume_delete = true;
    q.secure_erase = true;
    (cached_built("idrac9", tree), q)
}
