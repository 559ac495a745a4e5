//! What happens on the hardware after a write: power changes, association,
//! disk actions and virtual-media mounts complete after a delay, with FSM
//! stages moving from in-progress to success, as on a real domain.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use crate::config::Change;
use crate::tree::{split_dn, Obj, Tree};
use crate::Shared;

/// Start the side effects of committed changes.
pub(crate) fn spawn(shared: &Arc<Shared>, changes: &[Change]) {
    for ch in changes {
        let work: Option<Effect> = {
            let st = shared.state.lock().expect("sim state lock");
            plan(&st.tree, ch)
        };
        if let Some(effect) = work {
            let shared = shared.clone();
            let delay = shared.effect_delay;
            {
                let mut st = shared.state.lock().expect("sim state lock");
                effect.begin(&mut st.tree);
            }
            tokio::spawn(async move {
                tokio::time::sleep(delay).await;
                let mut st = shared.state.lock().expect("sim state lock");
                effect.finish(&mut st.tree);
            });
        }
    }
}

/// A pending hardware change.
#[derive(Debug)]
enum Effect {
    Power {
        server: String,
        op: &'static str,
        final_power: &'static str,
    },
    Associate {
        server: String,
        sp: String,
    },
    Disassociate {
        server: String,
        sp: String,
    },
    Disk {
        dn: String,
        prop: &'static str,
        state: &'static str,
    },
    Mount {
        dn: String,
    },
}

fn plan(tree: &Tree, ch: &Change) -> Option<Effect> {
    match (ch.class.as_str(), ch.status) {
        ("lsPower", "created" | "modified") => {
            let state = ch.set.get("state")?;
            let sp = split_dn(&ch.dn).0;
            let server = bound_server(tree, sp)?;
            power_effect(server, state)
        }
        ("computeBlade" | "computeRackUnit", "modified") => {
            let admin = ch.set.get("adminPower")?;
            power_effect(ch.dn.clone(), admin)
        }
        ("lsBinding", "created" | "modified") => {
            let server = ch.set.get("pnDn")?.clone();
            tree.get(&server)?;
            Some(Effect::Associate {
                server,
                sp: split_dn(&ch.dn).0.to_owned(),
            })
        }
        ("lsBinding", "deleted") | ("lsServer", "deleted") => {
            let sp = if ch.class == "lsBinding" {
                split_dn(&ch.dn).0
            } else {
                ch.dn.as_str()
            };
            let server = tree
                .of_class("computeBlade")
                .chain(tree.of_class("computeRackUnit"))
                .find(|(_, o)| o.get("assignedToDn") == sp)
                .map(|(d, _)| d.to_owned())?;
            Some(Effect::Disassociate {
                server,
                sp: sp.to_owned(),
            })
        }
        ("storageLocalDisk", "modified") => match ch.set.get("adminAction").map(String::as_str) {
            Some("unconfigured-good") => Some(Effect::Disk {
                dn: ch.dn.clone(),
                prop: "diskState",
                state: "unconfigured-good",
            }),
            Some("make-unconfigured-good") => Some(Effect::Disk {
                dn: ch.dn.clone(),
                prop: "pdState",
                state: "Unconfigured Good",
            }),
            Some("jbod") => Some(Effect::Disk {
                dn: ch.dn.clone(),
                prop: "diskState",
                state: "jbod",
            }),
            Some("make-jbod") => Some(Effect::Disk {
                dn: ch.dn.clone(),
                prop: "pdState",
                state: "JBOD",
            }),
            _ => None,
        },
        ("commVMediaMap", "created" | "modified") => Some(Effect::Mount { dn: ch.dn.clone() }),
        _ => None,
    }
}

/// The server an SP is associated with (or being associated with).
fn bound_server(tree: &Tree, sp: &str) -> Option<String> {
    let pn = tree
        .get(&format!("{sp}/pn"))
        .map(|b| b.get("pnDn").to_owned())
        .filter(|d| !d.is_empty());
    pn.or_else(|| {
        tree.of_class("computeBlade")
            .chain(tree.of_class("computeRackUnit"))
            .find(|(_, o)| o.get("assignedToDn") == sp)
            .map(|(d, _)| d.to_owned())
    })
}

fn power_effect(server: String, value: &str) -> Option<Effect> {
    let (op, final_power) = match value {
        "up" | "admin-up" => ("Turnup", "on"),
        "down" | "admin-down" => ("HardShutdown", "off"),
        "soft-shut-down" | "soft-shut-down-only" => ("SoftShutdown", "off"),
        "cycle-immediate" | "cycle-wait" => ("Powercycle", "on"),
        "hard-reset-immediate" | "hard-reset-wait" => ("Hardreset", "on"),
        _ => return None,
    };
    Some(Effect::Power {
        server,
        op,
        final_power,
    })
}

impl Effect {
    fn begin(&self, tree: &mut Tree) {
        match self {
            Effect::Power { server, op, .. } => {
                start_fsm(tree, server, op, &["Begin", "Execute", "Success"])
            }
            Effect::Associate { server, sp } => {
                if let Some(s) = tree.get_mut(server) {
                    s.set("association", "establishing");
                    s.set("assignedToDn", sp.clone());
                    s.set("availability", "unavailable");
                }
                if let Some(p) = tree.get_mut(sp) {
                    p.set("assocState", "associating");
                    p.set("pnDn", server.clone());
                }
                start_fsm(
                    tree,
                    server,
                    "Associate",
                    &["Begin", "PnuOSIdent", "ConfigPnuOS", "PowerOn", "Success"],
                );
            }
            Effect::Disassociate { server, .. } => {
                if let Some(s) = tree.get_mut(server) {
                    s.set("association", "removing");
                }
                start_fsm(
                    tree,
                    server,
                    "Disassociate",
                    &["Begin", "Shutdown", "Success"],
                );
            }
            Effect::Disk { .. } => {}
            Effect::Mount { dn } => {
                if let Some(m) = tree.get_mut(dn) {
                    m.set("mappingStatus", "In Progress");
                }
            }
        }
    }

    fn finish(&self, tree: &mut Tree) {
        match self {
            Effect::Power {
                server,
                final_power,
                ..
            } => {
                if let Some(s) = tree.get_mut(server) {
                    s.set("operPower", *final_power);
                }
                finish_fsm(tree, server);
            }
            Effect::Associate { server, sp } => {
                if let Some(s) = tree.get_mut(server) {
                    s.set("association", "associated");
                    s.set("operState", "ok");
                    s.set("operPower", "on");
                }
                if let Some(p) = tree.get_mut(sp) {
                    p.set("assocState", "associated");
                }
                finish_fsm(tree, server);
            }
            Effect::Disassociate { server, sp } => {
                if let Some(s) = tree.get_mut(server) {
                    s.set("association", "none");
                    s.set("assignedToDn", "");
                    s.set("availability", "available");
                    s.set("operState", "unassociated");
                    s.set("operPower", "off");
                }
                if let Some(p) = tree.get_mut(sp) {
                    p.set("assocState", "unassociated");
                    p.set("pnDn", "");
                }
                finish_fsm(tree, server);
            }
            Effect::Disk { dn, prop, state } => {
                if let Some(d) = tree.get_mut(dn) {
                    d.set(prop, *state);
                    if d.attrs.contains_key("adminAction") && *prop == "diskState" {
                        d.set("adminAction", "unspecified");
                    }
                }
            }
            Effect::Mount { dn } => {
                if let Some(m) = tree.get_mut(dn) {
                    m.set("mappingStatus", "OK");
                }
            }
        }
    }
}

/// Replace the server's FSM with a new operation: first stage done, second running, rest pending.
fn start_fsm(tree: &mut Tree, server: &str, op: &str, steps: &[&str]) {
    let fsm = format!("{server}/fsm");
    let Some(stage_class) = tree.get(&fsm).map(|f| format!("{}Stage", f.class)) else {
        return; // IMC rack servers have no FSM objects
    };
    let old: Vec<String> = tree.children(&fsm).map(|(d, _)| d.to_owned()).collect();
    for d in old {
        tree.remove_subtree(&d);
    }
    let now = stamp();
    for (i, step) in steps.iter().enumerate() {
        let name = format!("{op}{step}");
        let status = match i {
            0 => "success",
            1 => "inProgress",
            _ => "pending",
        };
        tree.put(
            format!("{fsm}/stage-{name}"),
            Obj::new(
                &stage_class,
                &[
                    ("name", &name),
                    ("order", &(i + 1).to_string()),
                    ("retry", "0"),
                    ("stageStatus", status),
                    ("descr", &describe(op, step)),
                    ("lastUpdateTime", &now),
                ],
            ),
        );
    }
    if let Some(f) = tree.get_mut(&fsm) {
        f.set("currentFsm", op);
        f.set("progress", "10");
    }
    if let Some(s) = tree.get_mut(server) {
        s.set(
            "fsmStatus",
            format!("{op}{}", steps.get(1).unwrap_or(&"Begin")),
        );
    }
}

fn finish_fsm(tree: &mut Tree, server: &str) {
    let fsm = format!("{server}/fsm");
    let now = stamp();
    let stages: Vec<String> = tree.children(&fsm).map(|(d, _)| d.to_owned()).collect();
    for d in stages {
        if let Some(st) = tree.get_mut(&d) {
            st.set("stageStatus", "success");
            st.set("lastUpdateTime", now.clone());
        }
    }
    if let Some(f) = tree.get_mut(&fsm) {
        f.set("progress", "100");
        f.set("completionTime", now);
    }
    if let Some(s) = tree.get_mut(server) {
        s.set("fsmStatus", "nop");
    }
}

fn describe(op: &str, step: &str) -> String {
    format!("{op}: {step} on the server")
}

/// Now as UCSM writes time stamps: `YYYY-MM-DDTHH:MM:SS.mmm`, UTC, no zone.
pub(crate) fn stamp() -> String {
    let d = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or(Duration::ZERO);
    let secs = d.as_secs();
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, day) = civil_from_days(days as i64);
    format!(
        "{y:04}-{m:02}-{day:02}T{:02}:{:02}:{:02}.{:03}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        d.subsec_millis()
    )
}

/// Days since 1970-01-01 → (year, month, day) in the proleptic Gregorian calendar.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    #[test]
    fn civil_dates() {
        assert_eq!(super::civil_from_days(0), (1970, 1, 1));
        assert_eq!(super::civil_from_days(20_819), (2027, 1, 1));
        assert_eq!(super::civil_from_days(11_016), (2000, 2, 29));
    }
}
