//! Supermicro X12, built in code from the documented payloads.
//!
//! Sources (`shared/reference/redfish.md` §2 row ★7):
//! * One slot, `Managers/1/VirtualMedia/CD1`.
//! * InsertMedia with `Inserted` or `WriteProtected` is 400 "property Inserted is not valid"
//!   (PropertyUnknown): send `{Image}` only (sushy `virtual_media.py` janders NOTE;
//!   community.general#6969 and PR #7470).
//! * Insert fails while `Image` is still set, and `ImageName` is never cleared, so
//!   `ConnectedVia == NotConnected` is the real "empty" (community.general Supermicro
//!   workaround; bmclib `providers/lenovo/virtual_media.go` `occupied()`).
//! * Virtual media boot only with target `UsbCd`; `Cd` is accepted but boots the physical drive
//!   (sushy f7c873f, `BootSource.USB_CD`).
//! * A Boot PATCH must always carry `BootSourceOverrideEnabled` and `BootSourceOverrideMode`
//!   (DMTF/Redfishtool PR #106: Supermicro "revert[s] to default value if it is not explicitly
//!   passed"; sushy 595ffbc).

use std::sync::Arc;

use serde_json::json;

use super::persona::Quirks;
use super::synthetic::{build, Slot, Spec};
use super::tree::{cached_built, Docs};

fn tree() -> Docs {
    build(&Spec {
        vendor: "Supermicro",
        product: "SYS-120U-TNR",
        redfish_version: "1.11.0",
        system_id: "1",
        manager_id: "1",
        manufacturer: "Supermicro",
        model: "SYS-120U-TNR",
        serial: "S428759X1A12345",
        bios_version: "1.4",
        manager_firmware: "01.01.12",
        manager_type: "X12DPU-6",
        vmedia_on_system: false,
        slots: vec![Slot {
            id: "CD1",
            name: "Virtual Removable Media",
            media_types: &["CD", "DVD"],
            actions: true,
            extra: json!({ "TransferProtocolType": null }),
        }],
        boot_targets: &[
            "None",
            "Pxe",
            "Floppy",
            "Cd",
            "Usb",
            "Hdd",
            "BiosSetup",
            "UsbCd",
            "UefiBootNext",
            "UefiHttp",
        ],
        reset_types: &[
            "On",
            "ForceOff",
            "GracefulShutdown",
            "GracefulRestart",
            "ForceRestart",
            "Nmi",
            "ForceOn",
        ],
        storage_id: "HA-RAID",
        drives: ["Disk.Bay.0", "Disk.Bay.1"],
        volume_id: "0",
        secure_erase: false,
    })
}

pub(crate) fn load() -> (Arc<Docs>, Quirks) {
    let mut q = Quirks::standard(
        "/redfish/v1/Systems/1",
        "/redfish/v1/Managers/1/VirtualMedia",
    );
    q.base = "Base.1.10";
    q.insert_rejects_flags = true;
    q.insert_needs_empty = true;
    q.keeps_image_name = true;
    q.full_boot_triple = true;
    q.vmedia_boot_target = "UsbCd";
    (cached_built("supermicro", tree), q)
}
