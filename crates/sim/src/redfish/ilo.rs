//! HPE iLO 5 (ProLiant DL360 Gen10 Plus) and iLO 7 (ProLiant Compute DL380a Gen12): the REAL
//! captured trees from `HewlettPackard/ilo-redfish-emulator` (`shared/redfish/ilo/mockups`),
//! served as captured, with the state a real iLO keeps laid over them.
//!
//! Sources (`shared/reference/redfish.md` §2 rows ★5 and ★6, `shared/redfish/README.md`):
//! * VirtualMedia only under `Managers/1`: slot `1` Floppy/USBStick, slot `2` CD/DVD; the
//!   DL360 capture's slot 1 starts inserted with HPE's lab URL (the mockups themselves).
//! * EjectMedia without a JSON body is 415 (sushy commit 9bd1d6b, row ★5).
//! * The one-time boot for the CD may be `Oem.Hpe.BootOnNextServerReset: true`, a separate
//!   PATCH on slot 2 (row ★5; python-ilorest-library `mount_virtual_media_iso.py`).
//! * Reset checks ResetType against AllowableValues (400 "Invalid ResetType"), and On while On
//!   or ForceOff while Off is 400 `iLO.2.25.InvalidOperationForSystemState` (README, emulator
//!   commit 578997c "Reject redundant ComputerSystem.Reset power actions (#14)"; row ★6).
//! * Sessions: the body credentials alone create one, answered 201 with `X-Auth-Token` and
//!   `Location` (README: "A real iLO accepts the body alone"; redfish.md §1.1).
//! * ETags are weak, `W/"…"`, and also in the body's `@odata.etag` (the captures).
//! * Actions answer 200 (README: the emulator's 200 "Media ejected successfully").

use std::path::Path;
use std::sync::Arc;

use axum::http::StatusCode;

use super::persona::{ActionOk, Persona, Quirks};
use super::tree::{cached_mockup, Docs};

pub(crate) fn load(p: Persona, mockups: &Path) -> std::io::Result<(Arc<Docs>, Quirks)> {
    let dir = mockups.join(p.mockup().expect("iLO personas have a mockup"));
    let docs = cached_mockup(&dir)?;
    let mut q = Quirks::standard(
        "/redfish/v1/Systems/1",
        "/redfish/v1/Managers/1/VirtualMedia",
    );
    q.base = "Base.1.4";
    q.eject_needs_body = Some(StatusCode::UNSUPPORTED_MEDIA_TYPE);
    q.hpe_boot_on_next_reset = true;
    q.redundant_power = Some("iLO.2.25.InvalidOperationForSystemState");
    q.action_ok = ActionOk::HpeExtendedInfo;
    q.weak_etag = true;
    q.slot_allow = "GET, PATCH";
    // The DL380a Gen12 capture has a volume; SR/NS controllers take DELETE on volumes.
    q.volume_delete = true;
    q.empty_image = serde_json::Value::String(String::new());
    Ok((docs, q))
}
