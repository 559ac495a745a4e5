//! The System: the Boot override PATCH (checked against the System's own AllowableValues),
//! `ComputerSystem.Reset` (checked likewise), power that changes after a delay, and what the
//! host boots at each power-on, which clears a `Once` override (ComputerSystem v1_27_0 `Boot`:
//! "If set to `Once`, the value is reset to `Disabled` after the `BootSourceOverrideTarget`
//! actions have completed successfully") and HPE's `BootOnNextServerReset`.

use std::sync::Arc;

use axum::http::StatusCode;
use axum::response::Response;
use serde_json::Value;

use super::errors::error;
use super::persona::Quirks;
use super::routes::action_ok;
use super::state::{BootRecord, Shared, State};

fn bad(q: &Quirks, id: &str, msg: &str) -> Response {
    error(StatusCode::BAD_REQUEST, &format!("{}.{id}", q.base), msg)
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// `PATCH /redfish/v1/Systems/<id>`.
pub(crate) fn patch_system(sh: &Shared, st: &mut State, body: Value) -> Response {
    let q = &sh.q;
    let Some(obj) = body.as_object() else {
        return bad(
            q,
            "MalformedJSON",
            "The request body must be a JSON object.",
        );
    };
    const WRITABLE: [&str; 5] = [
        "Boot",
        "AssetTag",
        "IndicatorLED",
        "LocationIndicatorActive",
        "HostName",
    ];
    if let Some(k) = obj.keys().find(|k| !WRITABLE.contains(&k.as_str())) {
        return bad(
            q,
            "PropertyNotWritable",
            &format!("The property {k} is a read only property and cannot be assigned a value."),
        );
    }
    let sys = st.tree.get(&q.system).cloned().unwrap_or_default();
    if let Some(boot) = obj.get("Boot") {
        let Some(b) = boot.as_object() else {
            return bad(q, "PropertyValueTypeError", "Boot must be an object.");
        };
        let allowed = strings(&sys["Boot"]["BootSourceOverrideTarget@Redfish.AllowableValues"]);
        let checks: [(&str, Vec<String>); 3] = [
            ("BootSourceOverrideTarget", allowed),
            (
                "BootSourceOverrideEnabled",
                vec!["Disabled".into(), "Once".into(), "Continuous".into()],
            ),
            (
                "BootSourceOverrideMode",
                vec!["UEFI".into(), "Legacy".into()],
            ),
        ];
        for (k, values) in &checks {
            if let Some(v) = b.get(*k) {
                if !v.as_str().is_some_and(|s| values.iter().any(|a| a == s)) {
                    return bad(
                        q,
                        "PropertyValueNotInList",
                        &format!("The value {v} for the property {k} is not in the list of acceptable values."),
                    );
                }
            }
        }
        if q.full_boot_triple {
            // Supermicro reverts what is not sent (DMTF/Redfishtool PR #106).
            for k in ["BootSourceOverrideEnabled", "BootSourceOverrideMode"] {
                if !b.contains_key(k) {
                    return bad(
                        q,
                        "PropertyMissing",
                        &format!("The property {k} is a required property and must be included in the request."),
                    );
                }
            }
        }
        const KNOWN: [&str; 5] = [
            "BootSourceOverrideTarget",
            "BootSourceOverrideEnabled",
            "BootSourceOverrideMode",
            "UefiTargetBootSourceOverride",
            "BootNext",
        ];
        if let Some(k) = b.keys().find(|k| !KNOWN.contains(&k.as_str())) {
            return bad(
                q,
                "PropertyUnknown",
                &format!("The property Boot/{k} is not in the list of valid properties for the resource."),
            );
        }
    }
    let d = st.tree.get_mut(&q.system).expect("system exists");
    for (k, v) in obj {
        if k == "Boot" {
            for (bk, bv) in v.as_object().expect("checked") {
                d["Boot"][bk] = bv.clone();
            }
        } else {
            d[k] = v.clone();
        }
    }
    action_ok(q)
}

/// What a reset does to the power.
#[derive(Clone, Copy)]
enum Move {
    On,
    Off,
    Restart,
    Nothing,
}

/// `POST …/Actions/ComputerSystem.Reset`.
pub(crate) fn reset(sh: &Arc<Shared>, st: &mut State, body: Option<Value>) -> Response {
    let q = &sh.q;
    let Some(rt) = body.as_ref().and_then(|b| b["ResetType"].as_str()) else {
        return bad(
            q,
            "ActionParameterMissing",
            "The action ComputerSystem.Reset requires the parameter ResetType to be present in the request body.",
        );
    };
    let sys = st.tree.get(&q.system).cloned().unwrap_or_default();
    let allowed =
        strings(&sys["Actions"]["#ComputerSystem.Reset"]["ResetType@Redfish.AllowableValues"]);
    if !allowed.iter().any(|a| a == rt) {
        return bad(
            q,
            "ActionParameterNotSupported",
            &format!("Invalid ResetType: {rt} is not one of {allowed:?}."),
        );
    }
    let on = matches!(sys["PowerState"].as_str(), Some("On" | "PoweringOn"));
    let mv = match (rt, on) {
        ("On" | "ForceOn", true) | ("ForceOff" | "GracefulShutdown", false) => {
            if let Some(id) = q.redundant_power {
                // iLO: the emulator's commit #14 mirrors the real MessageId.
                return error(
                    StatusCode::BAD_REQUEST,
                    id,
                    "The operation was not successful due to the current power state (for example, attempting to turn the power off when it is already off).",
                );
            }
            Move::Nothing
        }
        ("On" | "ForceOn", false) => Move::On,
        ("ForceOff" | "GracefulShutdown", true) => Move::Off,
        ("PushPowerButton", true) => Move::Off,
        ("PushPowerButton", false) => Move::On,
        ("ForceRestart" | "GracefulRestart" | "PowerCycle", true) => Move::Restart,
        ("ForceRestart" | "GracefulRestart" | "PowerCycle", false) => Move::On,
        _ => Move::Nothing, // Nmi
    };
    transition(sh, st, mv);
    action_ok(q)
}

fn set_power(st: &mut State, q: &Quirks, power: &str, post: &str) {
    let d = st.tree.get_mut(&q.system).expect("system exists");
    d["PowerState"] = power.into();
    if d["Oem"]["Hpe"].get("PostState").is_some() {
        d["Oem"]["Hpe"]["PostState"] = post.into();
    }
}

/// Show the in-between power state now and the final one after the power delay.
fn transition(sh: &Arc<Shared>, st: &mut State, mv: Move) {
    let (now, then) = match mv {
        Move::Nothing => return,
        Move::On => (("PoweringOn", "InPost"), ("On", "FinishedPost")),
        Move::Off => (("PoweringOff", "InPost"), ("Off", "PowerOff")),
        Move::Restart => (("Off", "PowerOff"), ("On", "FinishedPost")),
    };
    let seq = st.next();
    st.power_seq = seq;
    set_power(st, &sh.q, now.0, now.1);
    let sh = sh.clone();
    tokio::spawn(async move {
        tokio::time::sleep(sh.power_delay).await;
        let mut st = sh.lock();
        if st.power_seq != seq {
            return; // overtaken by a later reset
        }
        set_power(&mut st, &sh.q, then.0, then.1);
        if then.0 == "On" {
            boot(&sh.q, &mut st);
        }
    });
}

/// The host starts: decide what it boots, record it, and spend one-time overrides.
pub(crate) fn boot(q: &Quirks, st: &mut State) {
    let sys = st.tree.get(&q.system).cloned().unwrap_or_default();
    let target = sys["Boot"]["BootSourceOverrideTarget"]
        .as_str()
        .unwrap_or("None")
        .to_owned();
    let enabled = sys["Boot"]["BootSourceOverrideEnabled"]
        .as_str()
        .unwrap_or("Disabled")
        .to_owned();
    let slots: Vec<(String, Value)> = st
        .tree
        .get(&q.vmedia)
        .map(strings_of_members)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|p| st.tree.get(&p).cloned().map(|d| (p, d)))
        .collect();
    let cd_capable = |d: &Value| {
        d["MediaTypes"]
            .as_array()
            .is_some_and(|m| m.iter().any(|t| t == "CD" || t == "DVD"))
    };
    let inserted_image = |d: &Value| {
        d["Inserted"]
            .as_bool()
            .unwrap_or(false)
            .then(|| d["Image"].as_str().map(str::to_owned))
            .flatten()
            .filter(|s| !s.is_empty())
    };
    // Dell < 6.00: the boot set by the OEM import comes first (once, when BootOnce).
    if let Some(b) = st.dell_boot.clone() {
        let wanted = if b.device == "VFDD" { "USBStick" } else { "CD" };
        let image = slots
            .iter()
            .filter(|(_, d)| {
                d["MediaTypes"]
                    .as_array()
                    .is_some_and(|m| m.iter().any(|t| t == wanted))
            })
            .find_map(|(_, d)| inserted_image(d));
        if b.once {
            st.dell_boot = None;
        }
        st.boots.push(BootRecord {
            target: b.device.clone(),
            enabled: if b.once { "Once" } else { "Continuous" }.into(),
            image,
        });
        return;
    }
    // HPE: a slot flagged BootOnNextServerReset boots first, once.
    if q.hpe_boot_on_next_reset {
        if let Some((p, d)) = slots
            .iter()
            .find(|(_, d)| d["Oem"]["Hpe"]["BootOnNextServerReset"] == true)
        {
            let image = inserted_image(d);
            st.tree.get_mut(p).expect("slot")["Oem"]["Hpe"]["BootOnNextServerReset"] = false.into();
            st.boots.push(BootRecord {
                target: "BootOnNextServerReset".into(),
                enabled: enabled.clone(),
                image,
            });
            return;
        }
    }
    let overridden = enabled == "Once" || enabled == "Continuous";
    let image = if overridden && target == q.vmedia_boot_target {
        // Prefer an ISO in a CD-capable slot (iDRAC's slots all list CD and USBStick).
        let cds: Vec<String> = slots
            .iter()
            .filter(|(_, d)| cd_capable(d))
            .filter_map(|(_, d)| inserted_image(d))
            .collect();
        cds.iter()
            .find(|i| i.to_ascii_lowercase().ends_with(".iso"))
            .or(cds.first())
            .cloned()
    } else {
        None
    };
    st.boots.push(BootRecord {
        target: if overridden { target } else { "None".into() },
        enabled: enabled.clone(),
        image,
    });
    if enabled == "Once" {
        st.tree.get_mut(&q.system).expect("system")["Boot"]["BootSourceOverrideEnabled"] =
            "Disabled".into();
    }
}

/// The `@odata.id`s of a collection's members.
pub(crate) fn strings_of_members(coll: &Value) -> Vec<String> {
    coll["Members"]
        .as_array()
        .map(|m| {
            m.iter()
                .filter_map(|x| x["@odata.id"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}
