//! What happens on the hardware after a write: power changes, association,
//! disk actions and virtual-media mounts complete after a delay, with FSM
//! stages moving one by one from in-progress to success, as on a real domain.
//! Profiles instantiated from a template take the template's policies and its
//! pool requirement; a pool requirement picks a free server of the pool (or
//! fails the profile with `insufficient-resources`), as UCS Manager does.
//!
//! Virtual media are mounted as the managers do it: on UCS Manager when a
//! profile whose vMedia policy has mount entries is associated with a server, or
//! an associated profile gets another policy (or its policy's entries change):
//! the server's actual mount entries show `mounting`, then `mounted` or
//! `mount-failed` once [`crate::fetch`] has read each image's URL; on an IMC
//! when a mapping is made (`In Progress`, then `OK` or `ERROR: …`).
//!
//! Behind UCS Central the same happens to the servers of its registered
//! domains: their FSMs move in each domain's own tree, a deployed global
//! profile gets its requirement and per-domain instance, and changes for a
//! domain Central cannot reach wait until it can.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use crate::config::Change;
use crate::domain::{
    put_instance, requirement_dn, set_domain, split_central_dn, Kind, UNASSOCIATED,
};
use crate::fetch::{self, Mount};
use crate::tree::{split_dn, Obj, Tree};
use crate::{Shared, State};

/// Start the side effects of committed changes.
pub(crate) fn spawn(shared: &Arc<Shared>, changes: &[Change]) {
    {
        let mut st = shared.state.lock().expect("sim state lock");
        for ch in changes {
            if ch.class == "lsServer" && ch.status != "deleted" {
                derive_profile(&mut st.tree, &ch.dn, shared.kind);
            }
        }
    }
    // Explicit bindings claim their servers before pools hand out the free ones.
    let (pooled, direct): (Vec<&Change>, Vec<&Change>) =
        changes.iter().partition(|ch| pool_request(ch).is_some());
    for ch in direct.into_iter().chain(pooled) {
        let work: Option<Effect> = {
            let st = shared.state.lock().expect("sim state lock");
            plan(&st, shared.kind, ch)
        };
        if let Some(effect) = work {
            start(shared, effect);
        }
    }
    let remounts = {
        let st = shared.state.lock().expect("sim state lock");
        remounts(&st.tree, changes)
    };
    for effect in remounts {
        start(shared, effect);
    }
}

/// Associated profiles whose images change with this write: another vMedia policy named, a
/// template bound or unbound (its policy comes or goes), or the entries of the policy in
/// force edited. (A profile being bound to a server in the same write mounts when its
/// association ends.)
fn remounts(tree: &Tree, changes: &[Change]) -> Vec<Effect> {
    let mut policies = BTreeSet::new();
    let mut profiles = BTreeSet::new();
    for ch in changes {
        match ch.class.as_str() {
            "lsServer"
                if ch.status == "modified"
                    && (ch.set.contains_key("vmediaPolicyName")
                        || ch.set.contains_key("srcTemplName")) =>
            {
                profiles.insert(ch.dn.clone());
            }
            "cimcvmediaMountConfigPolicy" => {
                policies.insert(ch.dn.clone());
            }
            "cimcvmediaConfigMountEntry" => {
                policies.insert(split_dn(&ch.dn).0.to_owned());
            }
            _ => {}
        }
    }
    if !policies.is_empty() {
        profiles.extend(
            tree.of_class("lsServer")
                .filter(|(_, o)| policies.contains(o.get("operVmediaPolicyName")))
                .map(|(d, _)| d.to_owned()),
        );
    }
    profiles
        .into_iter()
        .filter(|sp| {
            !changes
                .iter()
                .any(|ch| ch.class == "lsBinding" && split_dn(&ch.dn).0 == sp)
        })
        .filter_map(|sp| {
            let p = tree.get(&sp)?;
            let server = p.get("pnDn");
            (p.get("assocState") == "associated" && !server.is_empty()).then(|| Effect::Remount {
                server: server.to_owned(),
                sp: sp.clone(),
            })
        })
        .collect()
}

/// Begin an effect and let it finish after the delay, or hold it while its domain is out of reach.
fn start(shared: &Arc<Shared>, effect: Effect) {
    let begun = {
        let mut st = shared.state.lock().expect("sim state lock");
        if let Some(remote) = effect.domain().and_then(|d| st.remote.get_mut(&d)) {
            if !remote.reachable {
                remote.deferred.push(effect);
                return;
            }
        }
        effect.begin(&mut st)
    };
    let shared = shared.clone();
    // The delay is spread over the FSM's middle stages, so watchers see them pass.
    let advances = effect.fsm_advances();
    let tick = shared.effect_delay / (advances + 1);
    tokio::spawn(async move {
        for _ in 0..advances {
            tokio::time::sleep(tick).await;
            let mut st = shared.state.lock().expect("sim state lock");
            if let Some(server) = effect.server() {
                advance_fsm(&mut st, server);
            }
        }
        tokio::time::sleep(tick).await;
        let mut mounts = {
            let mut st = shared.state.lock().expect("sim state lock");
            effect.finish(&mut st)
        };
        mounts.extend(begun);
        fetch::mount(&shared, mounts);
    });
}

/// Run what waited for domain `id`, now reachable again, in order; each is checked against
/// the configuration of this moment, which may have moved on while the domain was away.
pub(crate) fn resume(shared: &Arc<Shared>, id: u32) {
    let held = {
        let mut st = shared.state.lock().expect("sim state lock");
        st.remote
            .get_mut(&id)
            .map(|r| std::mem::take(&mut r.deferred))
            .unwrap_or_default()
    };
    for effect in held {
        let still = {
            let st = shared.state.lock().expect("sim state lock");
            recheck(&st.tree, effect)
        };
        if let Some(effect) = still {
            start(shared, effect);
        }
    }
}

/// A held effect as it stands now: a binding whose profile is gone or now bound elsewhere is
/// dropped, one whose server another profile took meanwhile fails.
fn recheck(tree: &Tree, effect: Effect) -> Option<Effect> {
    match effect {
        Effect::Associate { server, sp } => {
            tree.get(&sp)?;
            if tree
                .get(&format!("{sp}/pn"))
                .is_some_and(|b| b.get("pnDn") != server)
            {
                return None;
            }
            if held_by_other(tree, &server, &sp) {
                return Some(Effect::Unassignable {
                    sp,
                    qualifier: "compute-unavailable",
                });
            }
            Some(Effect::Associate { server, sp })
        }
        other => Some(other),
    }
}

/// True when another profile has (or is getting) the server.
fn held_by_other(tree: &Tree, server: &str, sp: &str) -> bool {
    tree.get(server).is_some_and(|o| {
        let owner = o.get("assignedToDn");
        if owner.is_empty() {
            o.get("availability") == "unavailable"
        } else {
            owner != sp
        }
    })
}

/// False for a server of a UCS domain Central cannot reach now.
fn in_reach(st: &State, server: &str) -> bool {
    split_central_dn(server)
        .and_then(|(d, _)| st.remote.get(&d))
        .is_none_or(|r| r.reachable)
}

/// The profile a change asks a server from a pool for: an instance created from a template,
/// or a pool requirement added to an instance.
fn pool_request(ch: &Change) -> Option<&str> {
    match (ch.class.as_str(), ch.status) {
        ("lsServer", "created") if ch.set.get("srcTemplName").is_some_and(|t| !t.is_empty()) => {
            Some(ch.dn.as_str())
        }
        ("lsRequirement", "created" | "modified") => Some(split_dn(&ch.dn).0),
        _ => None,
    }
}

/// The org dns from `org` up to org-root, nearest first (UCSM resolves names that way).
fn org_chain(org: &str) -> Vec<&str> {
    let mut chain = vec![org];
    let mut cur = org;
    while let Some((parent, _)) = cur.rsplit_once('/') {
        chain.push(parent);
        cur = parent;
    }
    chain
}

/// Find `<org>/<prefix><name>` in the profile's org or above.
fn resolve_named(tree: &Tree, org: &str, prefix: &str, name: &str) -> Option<String> {
    org_chain(org)
        .into_iter()
        .map(|o| format!("{o}/{prefix}{name}"))
        .find(|dn| tree.get(dn).is_some())
}

/// The template an instance was made from, if it exists.
pub(crate) fn template_of(tree: &Tree, sp: &str) -> Option<String> {
    let p = tree.get(sp)?;
    let name = p.get("srcTemplName");
    if name.is_empty() || p.get("type") != "instance" {
        return None;
    }
    resolve_named(tree, split_dn(sp).0, "ls-", name).filter(|t| {
        tree.get(t)
            .is_some_and(|o| o.get("type").ends_with("-template"))
    })
}

/// What UCSM works out for a profile: the template it is bound to, the policies in force
/// (the template's where it names one, else the profile's own, else the org's `default`),
/// and the children it makes itself (power state, the template's pool requirement, and in
/// UCS Central the operation object).
fn derive_profile(tree: &mut Tree, sp: &str, kind: Kind) {
    let Some(p) = tree.get(sp) else { return };
    let org = split_dn(sp).0.to_owned();
    let template = template_of(tree, sp);
    let from_template = |prop: &str| {
        template
            .as_ref()
            .and_then(|t| tree.get(t))
            .map(|t| t.get(prop).to_owned())
            .filter(|v| !v.is_empty())
    };
    let mut set = vec![("operSrcTemplName", template.clone().unwrap_or_default())];
    for (prop, oper, prefix) in [
        ("bootPolicyName", "operBootPolicyName", "boot-policy-"),
        (
            "vmediaPolicyName",
            "operVmediaPolicyName",
            "mnt-cfg-policy-",
        ),
    ] {
        let name = from_template(prop).unwrap_or_else(|| p.get(prop).to_owned());
        let name = if name.is_empty() { "default" } else { &name };
        let dn = resolve_named(tree, &org, prefix, name)
            .unwrap_or_else(|| format!("org-root/{prefix}default"));
        set.push((oper, dn));
    }
    // An instance of a template with a pool requirement gets the requirement too.
    let req = template
        .as_ref()
        .and_then(|t| tree.get(&format!("{t}/pn-req")))
        .map(|r| r.get("name").to_owned());
    let p = tree.get_mut(sp).expect("looked up above");
    for (k, v) in set {
        p.set(k, v);
    }
    // Every profile has its desired power state; UCSM makes it, `up` until told otherwise.
    if tree.get(&format!("{sp}/power")).is_none() {
        tree.put(
            format!("{sp}/power"),
            Obj::new("lsPower", &[("state", "up")]),
        );
    }
    // Central's operation object is implicit too: clients Set it, never create it.
    if kind == Kind::Ucsc && tree.get(&format!("{sp}/remote-oper")).is_none() {
        tree.put(
            format!("{sp}/remote-oper"),
            Obj::new("lsServerOperation", &[("state", "up")]),
        );
    }
    if let Some(pool) = req {
        if tree.get(&format!("{sp}/pn-req")).is_none() {
            tree.put(
                format!("{sp}/pn-req"),
                Obj::new(
                    "lsRequirement",
                    &[("name", &pool), ("pnDn", ""), ("operState", "unused")],
                ),
            );
        }
    }
}

/// The first free server of the pool a profile's requirement names (in UCS Central, of a
/// domain it can reach: a pool member names its domain as `systemId`).
fn free_pool_member(st: &State, sp: &str) -> Result<String, &'static str> {
    let tree = &st.tree;
    let pool = tree
        .get(&format!("{sp}/pn-req"))
        .map(|r| r.get("name"))
        .filter(|n| !n.is_empty())
        .ok_or("not-applicable")?;
    let pool_dn = resolve_named(tree, split_dn(sp).0, "compute-pool-", pool)
        .ok_or("insufficient-resources")?;
    let free = tree
        .children(&pool_dn)
        .filter_map(|(_, m)| match m.class.as_str() {
            "computePooledSlot" => Some(format!(
                "{}/chassis-{}/blade-{}",
                system_dn(m.get("systemId")),
                m.get("chassisId"),
                m.get("slotId")
            )),
            "computePooledRackUnit" => Some(format!(
                "{}/rack-unit-{}",
                system_dn(m.get("systemId")),
                m.get("id")
            )),
            _ => None,
        })
        .filter(|s| in_reach(st, s))
        .find(|s| {
            tree.get(s).is_some_and(|o| {
                o.get("association") == "none"
                    && o.get("assignedToDn").is_empty()
                    && o.get("availability") == "available"
            })
        })
        .ok_or("insufficient-resources");
    free
}

/// Where a pool member's server lives: UCSM's `sys`, or a domain under Central's `compute`.
fn system_dn(system_id: &str) -> String {
    if system_id.is_empty() {
        "sys".to_owned()
    } else {
        format!("compute/sys-{system_id}")
    }
}

/// A pending hardware change.
#[derive(Debug)]
pub(crate) enum Effect {
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
    /// An IMC mapping made.
    Mount {
        dn: String,
    },
    /// The images of an associated profile changed: its server mounts them again.
    Remount {
        server: String,
        sp: String,
    },
    /// A pool requirement no free server can meet.
    Unassignable {
        sp: String,
        qualifier: &'static str,
    },
}

fn plan(st: &State, kind: Kind, ch: &Change) -> Option<Effect> {
    let tree = &st.tree;
    if let Some(sp) = pool_request(ch) {
        let p = tree.get(sp)?;
        // A profile bound to a server, or already on one, asks no pool.
        if p.get("type") != "instance"
            || tree.get(&format!("{sp}/pn")).is_some()
            || bound_server(tree, sp).is_some()
        {
            return None;
        }
        return match free_pool_member(st, sp) {
            Ok(server) => Some(Effect::Associate {
                server,
                sp: sp.to_owned(),
            }),
            Err("not-applicable") => None,
            Err(why) => Some(Effect::Unassignable {
                sp: sp.to_owned(),
                qualifier: why,
            }),
        };
    }
    match (ch.class.as_str(), ch.status) {
        // A profile's desired power, or (Central) an operation on a profile or its instance.
        ("lsPower" | "lsServerOperation", "created" | "modified") => {
            let state = ch.set.get("state")?;
            let server = target_server(tree, split_dn(&ch.dn).0)?;
            power_effect(server, state)
        }
        ("computeBlade" | "computeRackUnit", "modified") => {
            let admin = ch.set.get("adminPower")?;
            power_effect(ch.dn.clone(), admin)
        }
        // Central: a server's own operation object (it has no profile to power through).
        ("computePhysicalOperation", "created" | "modified") => {
            let admin = ch.set.get("adminPower")?;
            power_effect(split_dn(&ch.dn).0.to_owned(), admin)
        }
        ("lsBinding", "created" | "modified") => {
            let server = ch.set.get("pnDn")?.clone();
            tree.get(&server)?;
            let sp = split_dn(&ch.dn).0.to_owned();
            // Central refuses to deploy a profile to a server another one holds.
            if kind == Kind::Ucsc && held_by_other(tree, &server, &sp) {
                return Some(Effect::Unassignable {
                    sp,
                    qualifier: "compute-unavailable",
                });
            }
            Some(Effect::Associate { server, sp })
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
        // UCSM's actions set diskState; the IMC's (`make-…`) set pdState, in its own words.
        ("storageLocalDisk", "modified") => {
            let (prop, state) = match ch.set.get("adminAction").map(String::as_str) {
                Some("unconfigured-good") => ("diskState", "unconfigured-good"),
                Some("make-unconfigured-good") => ("pdState", "Unconfigured Good"),
                Some("jbod") => ("diskState", "jbod"),
                Some("make-jbod") => ("pdState", "JBOD"),
                _ => return None,
            };
            Some(Effect::Disk {
                dn: ch.dn.clone(),
                prop,
                state,
            })
        }
        // Central changes a disk through its operation object.
        ("storageLocalDiskOperation", "created" | "modified") => {
            let state = match ch.set.get("lc").map(String::as_str) {
                Some("unconfigured-good") => "unconfigured-good",
                Some("jbod") => "jbod",
                _ => return None,
            };
            Some(Effect::Disk {
                dn: split_dn(&ch.dn).0.to_owned(),
                prop: "diskState",
                state,
            })
        }
        ("commVMediaMap", "created" | "modified") => Some(Effect::Mount { dn: ch.dn.clone() }),
        _ => None,
    }
}

/// The server an operation on `owner` acts on: an SP's server, or a Central instance's.
fn target_server(tree: &Tree, owner: &str) -> Option<String> {
    match tree.get(owner) {
        Some(o) if o.class == "computeInstance" => {
            Some(o.get("physDn").to_owned()).filter(|d| !d.is_empty())
        }
        _ => bound_server(tree, owner),
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
    /// The server whose FSM this effect drives.
    fn server(&self) -> Option<&str> {
        match self {
            Effect::Power { server, .. }
            | Effect::Associate { server, .. }
            | Effect::Disassociate { server, .. } => Some(server),
            _ => None,
        }
    }

    /// The UCS domain (behind Central) whose hardware this effect changes.
    fn domain(&self) -> Option<u32> {
        let dn = match self {
            Effect::Power { server, .. }
            | Effect::Associate { server, .. }
            | Effect::Disassociate { server, .. }
            | Effect::Remount { server, .. } => server,
            Effect::Disk { dn, .. } => dn,
            Effect::Mount { .. } | Effect::Unassignable { .. } => return None,
        };
        split_central_dn(dn).map(|(d, _)| d)
    }

    /// How many middle FSM stages pass before the effect finishes.
    fn fsm_advances(&self) -> u32 {
        match self {
            Effect::Associate { .. } => ASSOCIATE.len() as u32 - 3,
            _ => 0,
        }
    }

    /// Start the change; the images it has the server mount at once, to fetch once the
    /// change has had its time.
    fn begin(&self, st: &mut State) -> Vec<Mount> {
        let tree = &mut st.tree;
        match self {
            Effect::Power { server, op, .. } => {
                start_fsm(st, server, op, &["Begin", "Execute", "Success"])
            }
            Effect::Associate { server, sp } => {
                // A profile moved to another server leaves the one it had.
                let old: Vec<String> = tree
                    .of_class("computeBlade")
                    .chain(tree.of_class("computeRackUnit"))
                    .filter(|(d, o)| o.get("assignedToDn") == sp && d != server)
                    .map(|(d, _)| d.to_owned())
                    .collect();
                for d in &old {
                    tree.update(d, UNASSOCIATED);
                }
                tree.update(
                    server,
                    &[
                        ("association", "establishing"),
                        ("assignedToDn", sp),
                        ("availability", "unavailable"),
                    ],
                );
                tree.update(
                    sp,
                    &[
                        ("assocState", "associating"),
                        ("configState", "applying"),
                        ("configQualifier", ""),
                        ("pnDn", server),
                    ],
                );
                tree.update(
                    &format!("{sp}/pn-req"),
                    &[("pnDn", server), ("operState", "used")],
                );
                if split_central_dn(server).is_some() {
                    set_domain(tree, sp, server);
                    put_instance(tree, sp, server, "associating");
                }
                // The CIMCs let go of what they had mounted; the server mounts anew once associated.
                for d in old.iter().chain([server]) {
                    unmount(st, d);
                }
                start_fsm(st, server, "Associate", ASSOCIATE);
            }
            Effect::Disassociate { server, .. } => {
                tree.update(server, &[("association", "removing")]);
                start_fsm(
                    st,
                    server,
                    "Disassociate",
                    &["Begin", "Shutdown", "Success"],
                );
            }
            Effect::Disk { .. } => {}
            // The CIMC is told the new images at once: they show `mounting` from now on.
            Effect::Remount { server, sp } => return mount_policy(st, server, sp),
            Effect::Mount { dn } => {
                tree.update(dn, &[("mappingStatus", "In Progress")]);
            }
            Effect::Unassignable { sp, qualifier } => {
                tree.update(
                    sp,
                    &[
                        ("assocState", "unassociated"),
                        ("configState", "failed-to-apply"),
                        ("configQualifier", *qualifier),
                        ("operState", "config-failure"),
                    ],
                );
                for dn in [format!("{sp}/pn-req"), format!("{sp}/pn")] {
                    tree.update(&dn, &[("operState", "failed-to-apply")]);
                }
            }
        }
        Vec::new()
    }

    /// End the change; the images it has the server mount, to fetch.
    fn finish(&self, st: &mut State) -> Vec<Mount> {
        let tree = &mut st.tree;
        match self {
            Effect::Power {
                server,
                final_power,
                ..
            } => {
                tree.update(server, &[("operPower", *final_power)]);
                finish_fsm(st, server);
            }
            Effect::Associate { server, sp } => {
                tree.update(
                    server,
                    &[
                        ("association", "associated"),
                        ("operState", "ok"),
                        ("operPower", "on"),
                    ],
                );
                tree.update(
                    sp,
                    &[
                        ("assocState", "associated"),
                        ("configState", "applied"),
                        ("operState", "ok"),
                    ],
                );
                if split_central_dn(server).is_some() && tree.get(sp).is_some() {
                    put_instance(tree, sp, server, "associated");
                }
                finish_fsm(st, server);
                return mount_policy(st, server, sp);
            }
            Effect::Disassociate { server, sp } => {
                tree.update(server, UNASSOCIATED);
                tree.update(sp, &[("assocState", "unassociated"), ("pnDn", "")]);
                // Central forgets the profile's deployment to the domain.
                if split_central_dn(server).is_some() {
                    tree.remove_subtree(&requirement_dn(sp));
                }
                finish_fsm(st, server);
                unmount(st, server);
            }
            Effect::Remount { .. } => {}
            Effect::Disk { dn, prop, state } => {
                if let Some(d) = tree.get_mut(dn) {
                    d.set(prop, *state);
                    if d.attrs.contains_key("adminAction") && *prop == "diskState" {
                        d.set("adminAction", "unspecified");
                    }
                }
            }
            Effect::Mount { dn } => {
                let Some(map) = tree.get(dn) else {
                    return Vec::new();
                };
                // An IMC reads `www` shares over HTTP; NFS and CIFS are not simulated.
                let url = (map.get("map") == "www")
                    .then(|| format!("{}{}", map.get("remoteShare"), map.get("remoteFile")));
                return vec![new_mount(st, None, dn.clone(), url)];
            }
            Effect::Unassignable { .. } => {}
        }
        Vec::new()
    }
}

/// Number a mount of the object `dn` (in domain `domain`'s own tree, behind UCS Central):
/// it replaces any still running for that object.
fn new_mount(st: &mut State, domain: Option<u32>, dn: String, url: Option<String>) -> Mount {
    st.mounts += 1;
    let seq = st.mounts;
    st.mount_seq.insert((domain, dn.clone()), seq);
    Mount {
        domain,
        dn,
        url,
        seq,
    }
}

/// Where a server's actual mounts are listed (in the tree [`fsm_home`] gives).
fn mount_list(server: &str) -> String {
    format!("{server}/mgmt/actual-mount-list")
}

/// The server's CIMC mounts what the profile's vMedia policy lists: one actual mount entry
/// per entry of the policy, `mounting` until its image is fetched. A file name taken from the
/// profile (`imageNameVariable` `service-profile-name`) is the profile's name with `.iso`
/// for a CD and `.img` for an HDD.
fn mount_policy(st: &mut State, server: &str, sp: &str) -> Vec<Mount> {
    let Some(profile) = st.tree.get(sp) else {
        return Vec::new();
    };
    let policy = profile.get("operVmediaPolicyName").to_owned();
    let sp_name = profile.get("name").to_owned();
    let sp_name = if sp_name.is_empty() {
        split_dn(sp).1.trim_start_matches("ls-").to_owned()
    } else {
        sp_name
    };
    let entries: Vec<Obj> = st
        .tree
        .children(&policy)
        .filter(|(_, o)| o.class == "cimcvmediaConfigMountEntry")
        .map(|(_, o)| o.clone())
        .collect();
    unmount(st, server);
    if entries.is_empty() {
        return Vec::new();
    }
    let domain = split_central_dn(server)
        .map(|(d, _)| d)
        .filter(|d| st.remote.contains_key(d));
    let (tree, local) = fsm_home(st, server);
    let mgmt = format!("{local}/mgmt");
    if tree.get(&mgmt).is_none() {
        tree.put(mgmt.clone(), Obj::new("mgmtController", &[("id", "1")]));
    }
    let list = mount_list(&local);
    tree.put(list.clone(), Obj::new("cimcvmediaActualMountList", &[]));
    let mut planned = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        let file = if e.get("imageNameVariable") == "service-profile-name" {
            let ext = if e.get("deviceType") == "hdd" {
                "img"
            } else {
                "iso"
            };
            format!("{sp_name}.{ext}")
        } else {
            e.get("imageFileName").to_owned()
        };
        let id = (i + 1).to_string();
        let dn = format!("{list}/actual-mount-entry-{id}");
        let mut entry = Obj::new(
            "cimcvmediaActualMountEntry",
            &[
                ("virtualDiskId", &id),
                ("operMountStatus", "mounting"),
                ("errorType", "none"),
                ("imageFileName", &file),
            ],
        );
        for prop in [
            "mappingName",
            "deviceType",
            "mountProtocol",
            "remoteIpAddress",
            "remotePort",
            "imagePath",
            "imageNameVariable",
            "authOption",
            "remapOnEject",
        ] {
            if !e.get(prop).is_empty() {
                entry.set(prop, e.get(prop));
            }
        }
        let url = fetch::entry_url(
            e.get("mountProtocol"),
            e.get("remoteIpAddress"),
            e.get("remotePort"),
            e.get("imagePath"),
            &file,
        );
        tree.put(dn.clone(), entry);
        planned.push((dn, url));
    }
    planned
        .into_iter()
        .map(|(dn, url)| new_mount(st, domain, dn, url))
        .collect()
}

/// The server's CIMC lets go of its images: no actual mounts any more, no fetch reports.
fn unmount(st: &mut State, server: &str) {
    let domain = split_central_dn(server)
        .map(|(d, _)| d)
        .filter(|d| st.remote.contains_key(d));
    let (tree, local) = fsm_home(st, server);
    let list = mount_list(&local);
    tree.remove_subtree(&list);
    st.mount_seq
        .retain(|(d, dn), _| !(*d == domain && dn.starts_with(&format!("{list}/"))));
}

/// The stages of an association, as UCSM names them after the operation.
const ASSOCIATE: &[&str] = &["Begin", "PnuOSIdent", "ConfigPnuOS", "PowerOn", "Success"];

/// Where a server's FSM lives: with the server, or (behind UCS Central, whose model has no
/// server FSMs) in its domain's own tree; and the server's dn there.
fn fsm_home<'a>(st: &'a mut State, server: &str) -> (&'a mut Tree, String) {
    match split_central_dn(server) {
        Some((d, local)) if st.remote.contains_key(&d) => {
            (&mut st.remote.get_mut(&d).expect("checked").tree, local)
        }
        _ => (&mut st.tree, server.to_owned()),
    }
}

/// Mark the running stage done and start the next (the last one is left to `finish_fsm`).
fn advance_fsm(st: &mut State, server: &str) {
    let (tree, server) = fsm_home(st, server);
    let server = server.as_str();
    let fsm = format!("{server}/fsm");
    let mut stages: Vec<(u32, String)> = tree
        .children(&fsm)
        .map(|(d, o)| (o.get("order").parse().unwrap_or(u32::MAX), d.to_owned()))
        .collect();
    stages.sort();
    let Some(i) = stages.iter().position(|(_, d)| {
        tree.get(d)
            .is_some_and(|o| o.get("stageStatus") == "inProgress")
    }) else {
        return;
    };
    if i + 2 >= stages.len() {
        return;
    }
    let now = stamp();
    let (next, descr) = tree
        .get(&stages[i + 1].1)
        .map(|o| (o.get("name").to_owned(), o.get("descr").to_owned()))
        .unwrap_or_default();
    if let Some(st) = tree.get_mut(&stages[i].1) {
        st.set("stageStatus", "success");
        st.set("lastUpdateTime", now.clone());
    }
    if let Some(st) = tree.get_mut(&stages[i + 1].1) {
        st.set("stageStatus", "inProgress");
        st.set("lastUpdateTime", now);
    }
    let progress = (100 * (i + 1) / stages.len()).to_string();
    if let Some(f) = tree.get_mut(&fsm) {
        f.set("progress", progress.clone());
    }
    if let Some(s) = tree.get_mut(server) {
        s.set("fsmStatus", next);
        s.set("fsmProgr", progress);
        s.set("fsmStageDescr", descr);
    }
}

/// Replace the server's FSM with a new operation: first stage done, second running, rest pending.
fn start_fsm(st: &mut State, server: &str, op: &str, steps: &[&str]) {
    let (tree, server) = fsm_home(st, server);
    let server = server.as_str();
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
        let step = steps.get(1).unwrap_or(&"Begin");
        s.set("fsmStatus", format!("{op}{step}"));
        s.set("fsmProgr", "10");
        s.set("fsmStageDescr", describe(op, step));
    }
}

fn finish_fsm(st: &mut State, server: &str) {
    let (tree, server) = fsm_home(st, server);
    let server = server.as_str();
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
        s.set("fsmProgr", "100");
        s.set("fsmStageDescr", "");
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
