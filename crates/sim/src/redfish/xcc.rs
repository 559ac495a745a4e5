//! Lenovo XClarity Controller 2, built in code from Lenovo's published REST API pages (no
//! public full capture exists, redfish.md §5).
//!
//! Sources (`shared/reference/redfish.md` §2 row ★8 and §1.1):
//! * VirtualMedia under `Systems/1/VirtualMedia` (XCC2/3), slots `EXT1..EXT4`, with NO
//!   Insert/Eject actions: insert by PATCH `{Image, Inserted, WriteProtected[,
//!   TransferProtocolType]}`, eject by PATCH `{Image: null, Inserted: false}`, `Allow: GET,
//!   PATCH` (pubs.lenovo.com `xcc-restapi` `insert_eject_virtual_media_patch`; bmclib
//!   `providers/lenovo/virtual_media.go`; gofish PR #530; sushy 9e5a103).
//! * Every PATCH without `If-Match` is 428 PreconditionHeaderMissing; a stale one 412
//!   (gofish#171; ansible/ansible PR #56150).
//! * ETag header on every GET, changing with every change.

use std::sync::Arc;

use serde_json::json;

use super::persona::Quirks;
use super::synthetic::{build, Slot, Spec};
use super::tree::{cached_built, Docs};

fn tree() -> Docs {
    let slot = |id| Slot {
        id,
        name: id,
        media_types: &["CD", "DVD", "USBStick"],
        actions: false,
        extra: json!({ "TransferProtocolType": null }),
    };
    build(&Spec {
        vendor: "Lenovo",
        product: "ThinkSystem SR650 V2",
        redfish_version: "1.15.0",
        system_id: "1",
        manager_id: "1",
        manufacturer: "Lenovo",
        model: "7Z73CTO1WW",
        serial: "J3019ABC",
        bios_version: "AFE124B-1.20",
        manager_firmware: "AFBT28U 3.10",
        manager_type: "XCC2",
        vmedia_on_system: true,
        slots: vec![slot("EXT1"), slot("EXT2"), slot("EXT3"), slot("EXT4")],
        boot_targets: &[
            "None",
            "Pxe",
            "Cd",
            "Usb",
            "Hdd",
            "BiosSetup",
            "Diags",
            "UefiTarget",
        ],
        reset_types: &[
            "On",
            "ForceOff",
            "GracefulShutdown",
            "GracefulRestart",
            "ForceRestart",
            "Nmi",
            "ForceOn",
            "PushPowerButton",
        ],
        storage_id: "RAID_Slot1",
        drives: ["Disk.0", "Disk.1"],
        volume_id: "Volume0",
        secure_erase: true,
    })
}

pub(crate) fn load() -> (Arc<Docs>, Quirks) {
    let mut q = Quirks::standard(
        "/redfish/v1/Systems/1",
        "/redfish/v1/Systems/1/VirtualMedia",
    );
    q.base = "Base.1.15";
    q.patch_insert = true;
    q.patch_needs_if_match = true;
    q.slot_allow = "GET, PATCH";
    q.volume_delete = true;
    q.secure_erase = true;
    (cached_built("xcc", tree), q)
}
