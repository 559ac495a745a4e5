//! Dell iDRAC 9 before 6.00 (firmware `4.40.00.00`; iDRAC 8 behaves the same for what is
//! played here), built in code: no public full capture.
//!
//! Sources (`shared/reference/redfish.md` §1.4 and §2):
//! * System `System.Embedded.1`, Manager `iDRAC.Embedded.1`; VirtualMedia under the Manager,
//!   `Managers/iDRAC.Embedded.1/VirtualMedia/CD` (`CD,DVD`) and `…/RemovableDisk` (`USBStick`)
//!   (§2 "Second device per vendor": Dell iDRAC < 6; row ★2 says the move to the System came
//!   with 6.00.02).
//! * The standard `BootSourceOverrideTarget=Cd` PATCH is accepted but boots the *physical*
//!   drive, not the virtual CD (row ★1). The one-time boot from virtual media is Dell's OEM
//!   `POST /redfish/v1/Managers/iDRAC.Embedded.1/Actions/Oem/EID_674_Manager.ImportSystemConfiguration`
//!   with `{"ShareParameters":{"Target":"ALL"},"ImportBuffer":"<SystemConfiguration>…
//!   ServerBoot.1#BootOnce=Enabled, ServerBoot.1#FirstBootDevice=VCD-DVD…"}`, with no
//!   whitespace in the XML (sushy `sushy/oem/dell/resources/manager/manager.py`
//!   `set_virtual_boot_device`; ironic `drivers/modules/drac/boot.py`;
//!   dell/iDRAC-Redfish-Scripting#90 and #116).
//! * The import is a job: 202 with `Location: /redfish/v1/Managers/iDRAC.Embedded.1/Jobs/JID_…`;
//!   the job answers 200 with `JobState: Running` for a couple of polls, then `Completed` (the
//!   next power-on boots the virtual CD once) or `Failed` with a message. Whitespace between XML
//!   elements, a missing `FirstBootDevice` or an unknown device fail the job. A second import
//!   while one runs is refused with MessageId `RAC0679` (sushy `constants.py`
//!   `IDRAC_JOB_RUNNING`). The messages are Dell-like, written here, not captured.
//! * As on every iDRAC: `.iso`/`.img` URLs only (★3), 412 for an action carrying `If-Match`, the
//!   asynchronous eject and EjectMedia needing a body (★4).

use std::sync::Arc;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

use super::errors::{error, json_response, missing};
use super::persona::Quirks;
use super::state::{DellBoot, DellJob, Shared, State};
use super::synthetic::{build, Slot, Spec};
use super::tree::{cached_built, Docs};

const SYSTEM: &str = "/redfish/v1/Systems/System.Embedded.1";
/// The Manager.
pub(crate) const MANAGER: &str = "/redfish/v1/Managers/iDRAC.Embedded.1";
/// Where import jobs live.
pub(crate) const JOBS: &str = "/redfish/v1/Managers/iDRAC.Embedded.1/Jobs";
/// The OEM action's path.
pub(crate) const IMPORT: &str =
    "/redfish/v1/Managers/iDRAC.Embedded.1/Actions/Oem/EID_674_Manager.ImportSystemConfiguration";
/// Polls a job reads Running before it ends.
const JOB_POLLS: u32 = 2;

fn tree() -> Docs {
    let mut d = build(&Spec {
        vendor: "Dell",
        product: "Integrated Dell Remote Access Controller",
        redfish_version: "1.11.0",
        system_id: "System.Embedded.1",
        manager_id: "iDRAC.Embedded.1",
        manufacturer: "Dell Inc.",
        model: "PowerEdge R640",
        serial: "CNIVC0011X0040",
        bios_version: "2.10.2",
        manager_firmware: "4.40.00.00",
        manager_type: "14G Monolithic",
        vmedia_on_system: false,
        slots: vec![
            Slot {
                id: "CD",
                name: "Virtual CD",
                media_types: &["CD", "DVD"],
                actions: true,
                extra: json!({ "TransferProtocolType": null, "TransferMethod": "Stream" }),
            },
            Slot {
                id: "RemovableDisk",
                name: "Virtual Removable Disk",
                media_types: &["USBStick"],
                actions: true,
                extra: json!({ "TransferProtocolType": null, "TransferMethod": "Stream" }),
            },
        ],
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
        ],
        reset_types: &[
            "On",
            "ForceOff",
            "ForceRestart",
            "GracefulShutdown",
            "PushPowerButton",
            "Nmi",
        ],
        storage_id: "RAID.Integrated.1-1",
        drives: [
            "Disk.Bay.0:Enclosure.Internal.0-1:RAID.Integrated.1-1",
            "Disk.Bay.1:Enclosure.Internal.0-1:RAID.Integrated.1-1",
        ],
        volume_id: "Disk.Virtual.0:RAID.Integrated.1-1",
        secure_erase: false,
    });
    let m = d.get_mut(MANAGER).expect("manager built");
    m["Actions"] = json!({ "Oem": {
        "#OemManager.v1_1_0#OemManager.ImportSystemConfiguration": {
            "target": IMPORT,
            "ShareParameters": { "Target@Redfish.AllowableValues":
                ["ALL", "IDRAC", "BIOS", "NIC", "RAID"] },
            "ShutdownType@Redfish.AllowableValues": ["Graceful", "Forced", "NoReboot"],
        } } });
    m["Links"]["Oem"] = json!({ "Dell": { "Jobs": { "@odata.id": JOBS } } });
    d.insert(
        JOBS.into(),
        json!({ "@odata.id": JOBS, "@odata.type": "#DellJobCollection.DellJobCollection",
                "Name": "JobQueue", "Members": [], "Members@odata.count": 0 }),
    );
    d
}

pub(crate) fn load() -> (Arc<Docs>, Quirks) {
    let mut q = Quirks::standard(SYSTEM, &format!("{MANAGER}/VirtualMedia"));
    q.base = "Base.1.8";
    q.dell_extensions = true;
    q.action_if_match_412 = true;
    q.eject_lag = true;
    q.eject_needs_body = Some(StatusCode::BAD_REQUEST);
    q.volume_delete = true;
    // No standard target boots the virtual CD: `Cd` boots the physical drive.
    q.vmedia_boot_target = "";
    q.dell_oem_boot = true;
    (cached_built("idrac9-legacy", tree), q)
}

fn bad(q: &Quirks, id: &str, msg: &str) -> Response {
    error(StatusCode::BAD_REQUEST, &format!("{}.{id}", q.base), msg)
}

/// The value of `<Attribute Name="name">value</Attribute>` in an SCP buffer.
fn attribute<'a>(xml: &'a str, name: &str) -> Option<&'a str> {
    let open = format!("<Attribute Name=\"{name}\">");
    let start = xml.find(&open)? + open.len();
    let len = xml[start..].find("</Attribute>")?;
    Some(&xml[start..start + len])
}

/// Why iDRAC would fail this profile, or the boot it sets.
pub(crate) fn check_profile(xml: &str) -> Result<DellBoot, String> {
    let ws_between = xml
        .char_indices()
        .filter(|(_, c)| c.is_whitespace())
        .any(|(i, c)| {
            c != ' ' || xml[..i].ends_with(['>', ' ']) || xml[i + 1..].starts_with(['<', ' '])
        });
    if ws_between || xml.trim() != xml {
        return Err("Unable to import the Server Configuration Profile: the ImportBuffer has whitespace between or around its XML elements, which this iDRAC does not accept.".into());
    }
    if !xml.starts_with("<SystemConfiguration") || !xml.ends_with("</SystemConfiguration>") {
        return Err(
            "Unable to import the Server Configuration Profile: the ImportBuffer is not a SystemConfiguration document.".into(),
        );
    }
    if !xml.contains("<Component FQDD=\"iDRAC.Embedded.1\">") {
        return Err("Unable to import the Server Configuration Profile: no component iDRAC.Embedded.1 in the ImportBuffer.".into());
    }
    let Some(device) = attribute(xml, "ServerBoot.1#FirstBootDevice") else {
        return Err("Unable to apply the configuration: ServerBoot.1#FirstBootDevice is missing, so there is no device to boot once.".into());
    };
    if !["VCD-DVD", "VFDD"].contains(&device) {
        return Err(format!("Unable to apply the configuration: {device} is not a valid value for ServerBoot.1#FirstBootDevice."));
    }
    let once = match attribute(xml, "ServerBoot.1#BootOnce") {
        Some("Enabled") | None => true,
        Some("Disabled") => false,
        Some(v) => {
            return Err(format!(
                "Unable to apply the configuration: {v} is not a valid value for ServerBoot.1#BootOnce."
            ))
        }
    };
    Ok(DellBoot {
        device: device.to_owned(),
        once,
    })
}

/// `POST …/Actions/Oem/EID_674_Manager.ImportSystemConfiguration`: a job, 202 + Location.
pub(crate) fn import(sh: &Shared, st: &mut State, body: Option<Value>) -> Response {
    let q = &sh.q;
    let Some(b) = body.filter(Value::is_object) else {
        return bad(
            q,
            "ActionParameterMissing",
            "The action ImportSystemConfiguration requires the parameters ShareParameters and ImportBuffer.",
        );
    };
    let target = b["ShareParameters"]["Target"].as_str().unwrap_or("");
    if !target
        .split(',')
        .any(|t| matches!(t.trim(), "ALL" | "IDRAC"))
    {
        return bad(
            q,
            "ActionParameterValueNotInList",
            &format!("The value '{target}' for ShareParameters/Target is not valid for an iDRAC ServerBoot import (ALL or IDRAC)."),
        );
    }
    let Some(xml) = b["ImportBuffer"].as_str() else {
        return bad(
            q,
            "ActionParameterMissing",
            "The action ImportSystemConfiguration requires the parameter ImportBuffer (this simulator takes no network share).",
        );
    };
    if st.dell_jobs.values().any(|j| j.polls_left > 0) {
        return error(
            StatusCode::BAD_REQUEST,
            "IDRAC.2.1.RAC0679",
            "A configuration job is already running. Wait for it to complete and retry the operation.",
        );
    }
    let n = st.next();
    let id = format!("JID_{:012}", 600_000_000_000u64 + n);
    st.dell_jobs.insert(
        id.clone(),
        DellJob {
            polls_left: JOB_POLLS,
            outcome: check_profile(xml),
            ended: None,
        },
    );
    let loc = format!("{JOBS}/{id}");
    if let Some(coll) = st.tree.get_mut(JOBS) {
        if let Some(m) = coll["Members"].as_array_mut() {
            m.push(json!({ "@odata.id": loc }));
            coll["Members@odata.count"] = m.len().into();
        }
    }
    let mut r = StatusCode::ACCEPTED.into_response();
    r.headers_mut().insert(
        header::LOCATION,
        HeaderValue::from_str(&loc).expect("ascii"),
    );
    r
}

/// `GET …/Jobs/JID_…`: Running for a few polls, then the job's end (applied once).
pub(crate) fn job(sh: &Shared, st: &mut State, path: &str) -> Response {
    let id = path.rsplit('/').next().unwrap_or_default().to_owned();
    let Some(j) = st.dell_jobs.get_mut(&id) else {
        return missing(sh.q.base, path);
    };
    let doc = |state: &str, pct: u32, msg: &str| {
        json!({
            "@odata.id": path, "@odata.type": "#DellJob.v1_0_2.DellJob", "Id": id,
            "Name": "Import Configuration", "JobType": "ImportConfiguration",
            "JobState": state, "PercentComplete": pct, "Message": msg,
        })
    };
    if j.polls_left > 0 {
        j.polls_left -= 1;
        if j.polls_left > 0 {
            return json_response(
                StatusCode::OK,
                &doc(
                    "Running",
                    50,
                    "Applying the Server Configuration Profile changes.",
                ),
            );
        }
        let outcome = j.outcome.clone();
        j.ended = Some(outcome.clone().map(|_| ()));
        if let Ok(b) = outcome {
            st.dell_boot = Some(b);
        }
    }
    let j = st.dell_jobs.get(&id).expect("present");
    match j.ended.as_ref().expect("ended") {
        Ok(()) => json_response(
            StatusCode::OK,
            &doc(
                "Completed",
                100,
                "Successfully imported and applied the Server Configuration Profile.",
            ),
        ),
        Err(m) => json_response(StatusCode::OK, &doc("Failed", 100, m)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "<SystemConfiguration><Component FQDD=\"iDRAC.Embedded.1\"><Attribute Name=\"ServerBoot.1#BootOnce\">Enabled</Attribute><Attribute Name=\"ServerBoot.1#FirstBootDevice\">VCD-DVD</Attribute></Component></SystemConfiguration>";

    #[test]
    fn profiles() {
        assert_eq!(
            check_profile(GOOD),
            Ok(DellBoot {
                device: "VCD-DVD".into(),
                once: true
            })
        );
        let spaced = GOOD.replace("><", ">\n  <");
        assert!(check_profile(&spaced).unwrap_err().contains("whitespace"));
        let padded = GOOD.replace(">VCD-DVD<", "> VCD-DVD <");
        assert!(check_profile(&padded).unwrap_err().contains("whitespace"));
        let no_dev = GOOD.replace(
            "<Attribute Name=\"ServerBoot.1#FirstBootDevice\">VCD-DVD</Attribute>",
            "",
        );
        assert!(check_profile(&no_dev)
            .unwrap_err()
            .contains("FirstBootDevice is missing"));
        assert!(check_profile(&GOOD.replace("VCD-DVD", "PXE")).is_err());
    }
}
