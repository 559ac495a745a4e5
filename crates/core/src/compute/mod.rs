//! What a server group's manager reports and does for its servers:
//! inventory, templates, power, disks, NICs, FSM progress, the console page and which servers the
//! group selects. Each action is one function; servers are picked with the seed's selector
//! (none = all). The manager is reached through its driver (`crate::managers`), which is
//! asked only for what it declares it can do. This file holds the inventory and templates and
//! what every action shares: connecting, picking servers, refusing someone else's.

use std::collections::HashSet;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::app::App;
use crate::error::{Error, ErrorCode, Result};
use crate::managers::{Association, Capability, Manager, PowerState, Reported, Server};
use crate::records::server_groups::{self, ServerGroup};
use bootsmith_model::selector::SelectorInput;
use bootsmith_model::types::NodeId;

mod console;
mod disks;
mod fsm;
mod nics;
mod power;
pub mod selection;

pub use console::{console, ConsoleLink, ConsoleQuery};
pub use disks::{disks, reset_disks, DiskRecord, Disks, DISK_RESET_WAIT};
pub use fsm::{
    fsm, fsm_named_in_body, FsmReport, GroupSelectorBody, ServerStages, StageRecord, StagesByServer,
};
pub use nics::{nics, NicRecord, Nics};
pub use power::{power, power_status, PowerReading, PowerStatus, ServerPower};
// The drivers read template kinds, so the type lives with them; the API names it here.
pub use crate::managers::TemplateType;

/// A server as listed for a group (seed §2.3), with its selection.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ServerRecord {
    /// The profile's association as the manager words it: an open set, examples: `none`,
    /// `associated`, `associating`, `failed`; empty where the manager has no profiles.
    #[serde(serialize_with = "wire::word")]
    #[schema(value_type = String)]
    pub association: Option<Association>,
    /// Chassis number (blades).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chassis_id: Option<String>,
    /// Distinguished name.
    pub dn: String,
    /// User label.
    pub label: String,
    /// Model.
    pub model: String,
    /// Cores.
    #[serde(serialize_with = "wire::text")]
    #[schema(value_type = String)]
    pub num_cores: Reported<u32>,
    /// CPU sockets.
    #[serde(serialize_with = "wire::text")]
    #[schema(value_type = String)]
    pub num_cpus: Reported<u32>,
    /// The power state as the manager words it (a Redfish `PowerState` in lower case): an open
    /// set, examples: `on`, `off`, `poweringon`, `test`, `degraded`; empty when not reported.
    #[serde(serialize_with = "wire::word")]
    #[schema(value_type = String)]
    pub oper_power: Option<PowerState>,
    /// Memory, MB.
    #[serde(serialize_with = "wire::text")]
    #[schema(value_type = String)]
    pub ram: Reported<u64>,
    /// Memory speed.
    #[serde(serialize_with = "wire::text")]
    #[schema(value_type = String)]
    pub ram_speed: Reported<u32>,
    /// DN of its service profile, or empty.
    pub service_profile: String,
    /// The service profile it runs when Bootsmith did not create it: powering it off or
    /// restarting it, resetting its disks or selecting it into a group then needs `force`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub in_use_by: Option<String>,
    /// Slot (blades).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slot: Option<String>,
    /// Rack unit number (rack servers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rack_id: Option<String>,
    /// A blade in a chassis or a rack server.
    #[serde(rename = "type")]
    pub kind: ServerType,
    /// Serial number.
    pub serial: String,
    /// The system's UUID, where its manager reports one (Redfish), to match it to the asset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uuid: Option<String>,
    /// The id the selectors use: `1/3` or `2`.
    pub id: String,
    /// Selected in the group's server pool.
    pub selected: bool,
    /// The UCS domain it is in (UCS Central groups).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub domain_id: Option<String>,
    /// That domain's name (UCS Central groups).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub domain_name: Option<String>,
    /// False when UCS Central cannot reach the domain now: what it shows of the server is the
    /// last it knew, and power, disk and progress requests for it are not sent (UCS Central groups).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub domain_reachable: Option<bool>,
    /// The domain's registration state as UCS Central words it: an open set, examples:
    /// `registered`, `lost-visibility`, `lost-connectivity` (UCS Central groups).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub domain_state: Option<String>,
    /// When UCS Central last read the domain, `YYYY-MM-DDTHH:MM:SS.mmm` UTC, where it says: for
    /// a lost domain, how old what is shown of the server is (UCS Central groups).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub domain_last_read: Option<String>,
    /// Why the server is shown as it was last read and not acted on, in a sentence for the
    /// window (servers of a domain UCS Central cannot reach now).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stale_note: Option<String>,
    /// The BMC it is behind: vendor, firmware, Redfish version and the vendor rules in force
    /// (Redfish groups).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bmc: Option<crate::managers::BmcInfo>,
}

/// The seed's wire for [`ServerRecord`]'s typed fields, in one place: each is a string, the
/// number or word as the manager gave it, empty where it gave none.
mod wire {
    use std::fmt::Display;

    use serde::Serializer;

    /// A number, or the manager's text in its place ([`Reported`](crate::managers::Reported)).
    pub(super) fn text<T: Display, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(v)
    }

    /// The manager's word, empty where it gave none.
    pub(super) fn word<T: Display, S: Serializer>(v: &Option<T>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(v) => s.collect_str(v),
            None => s.serialize_str(""),
        }
    }
}

/// A service-profile template.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TemplateRecord {
    /// The template's DN (`org-root/ls-ESX-Template`), as KUBAM's clients compare it with a
    /// host's `service_profile_template`.
    pub name: String,
    /// The same DN.
    pub dn: String,
    /// The short name for display (`ESX-Template`); a host may give it when it is unambiguous.
    pub short_name: String,
    /// Which kind of template: profiles made from an updating template follow its changes.
    #[serde(rename = "type")]
    pub kind: TemplateType,
}

/// Whether a server is a blade in a chassis or a rack server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ServerType {
    /// A blade (`<chassis>/<slot>`).
    Blade,
    /// A rack server (a number).
    Rack,
}

impl ServerType {
    /// The kind of the server `id` names.
    pub fn of(id: &NodeId) -> ServerType {
        match id {
            NodeId::Blade(_) => ServerType::Blade,
            NodeId::Rack(_) => ServerType::Rack,
        }
    }
}

/// What to do when an action is refused for servers of a lost domain.
const LOST_THEN: &str = "Leave those servers out of the selection to act on the others, or try again once the manager reads their domain again";

/// Refuse (409 `domain_unreachable`) to `doing` when any of `picked` is in a domain its
/// central manager cannot reach: such a manager accepts the request and carries it out
/// whenever the domain is back. The whole request is refused, so an action happens on every
/// server the operator chose or on none.
fn refuse_unreachable(group: &str, picked: &[&Server], doing: &str) -> Result<()> {
    let lost: Vec<(String, &crate::managers::ServerDomain)> = picked
        .iter()
        .filter(|s| !s.reachable())
        .filter_map(|s| Some((s.words(), s.domain.as_ref()?)))
        .collect();
    if lost.is_empty() {
        return Ok(());
    }
    Err(crate::managers::domain_unreachable(
        group, doing, &lost, LOST_THEN,
    ))
}

/// A selector body: `{"servers": {...}, "force": false}`, optional.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct SelectorBody {
    /// Which servers; when left out, the group's selected servers (every server of its manager
    /// when it has none selected). An empty selection is refused.
    #[serde(default, deserialize_with = "bootsmith_model::bodies::object")]
    #[schema(schema_with = bootsmith_model::schema::some_servers)]
    pub servers: Option<SelectorInput>,
    /// Act on servers that run a service profile Bootsmith did not create: without it, powering
    /// them off or restarting them, and resetting their disks, is refused (`server_in_use`).
    #[serde(default)]
    pub force: bool,
}

/// Ids of the servers among `picked` whose domain cannot be reached.
/// What a manager lists of each of `servers` (its disks, its NICs), by server id: an item is a
/// server's when `on` names its DN; `record` is how it is answered.
struct ByServer<R> {
    blades: std::collections::BTreeMap<String, Vec<R>>,
    rack_servers: std::collections::BTreeMap<String, Vec<R>>,
    /// Servers of a domain their central manager cannot reach now.
    unreachable: Vec<String>,
}

fn by_server<T, R>(
    servers: &[&Server],
    items: &[T],
    on: impl Fn(&T) -> &str,
    record: impl Fn(&T) -> R,
) -> ByServer<R> {
    let mut out = ByServer {
        blades: Default::default(),
        rack_servers: Default::default(),
        unreachable: unreachable_ids(servers),
    };
    for s in servers {
        let list = items
            .iter()
            .filter(|i| on(i) == s.dn)
            .map(&record)
            .collect();
        let map = if s.is_blade() {
            &mut out.blades
        } else {
            &mut out.rack_servers
        };
        map.insert(s.id.to_string(), list);
    }
    out
}

fn unreachable_ids(picked: &[&Server]) -> Vec<String> {
    picked
        .iter()
        .filter(|s| !s.reachable())
        .map(|s| s.id.to_string())
        .collect()
}

async fn connect(
    app: &App,
    group: &str,
    action: Capability,
) -> Result<(ServerGroup, Arc<dyn Manager>)> {
    let g = server_groups::get(app, group).await?;
    let m = app.managers().connect(app.cipher(), &g.managed(), action)?;
    Ok((g, m))
}

/// [`connect`] for a listing: a manager that has no such things (an IMC has no templates or
/// FSM stages) truthfully has none to list, so `None` stands for an empty answer.
async fn connect_to_list(
    app: &App,
    group: &str,
    what: Capability,
) -> Result<Option<(ServerGroup, Arc<dyn Manager>)>> {
    let g = server_groups::get(app, group).await?;
    let m = app
        .managers()
        .connect_to_list(app.cipher(), &g.managed(), what)?;
    Ok(m.map(|m| (g, m)))
}

/// Pick the selected servers. No selector means the group's selected servers (the seed's "all
/// servers of the group"), or every server of its manager when the group has none selected.
/// An explicitly empty one is refused: a script whose filter matched nothing must not power
/// off the whole group. Unknown ids are a 404 naming them.
fn select<'a>(
    group: &ServerGroup,
    servers: &'a [Server],
    which: Option<SelectorBody>,
) -> Result<Vec<&'a Server>> {
    let Some(sel) = which.and_then(|b| b.servers) else {
        let pool = &group.server_pool;
        return Ok(servers
            .iter()
            .filter(|s| pool.is_empty() || in_pool(pool, s))
            .collect());
    };
    let sel = sel.check("servers").map_err(|p| {
        Error::invalid(
            ErrorCode::InvalidSelection,
            "The server selection is invalid",
            p,
        )
    })?;
    if sel.is_empty() {
        return Err(Error::bad(
            ErrorCode::EmptySelection,
            format!(
                "The selection names no server of '{}'; name the servers, or leave out \"servers\" (or the whole body) to mean every server of the group",
                group.name
            ),
        ));
    }
    crate::managers::numbering(group.kind).check(group.name.as_str(), &sel)?;
    let domains: Vec<u32> = servers
        .iter()
        .filter_map(|s| s.domain.as_ref().map(|d| d.id))
        .collect();
    let unknown = sel
        .blades
        .iter()
        .filter_map(|b| b.domain)
        .chain(sel.rack_servers.iter().filter_map(|r| r.domain))
        .find(|d| !domains.contains(d));
    if let Some(d) = unknown {
        return Err(Error::not_found(
            ErrorCode::DomainNotFound,
            format!(
                "No UCS domain {d} is registered with server group '{}'; its domains are {}",
                group.name,
                list_or_none(&domains)
            ),
        ));
    }
    let mut picked = Vec::new();
    let mut missing = Vec::new();
    for b in &sel.blades {
        match servers
            .iter()
            .find(|s| matches!(&s.id, NodeId::Blade(x) if x == b))
        {
            Some(s) => picked.push(s),
            None => missing.push(format!("blade {b}")),
        }
    }
    for r in &sel.rack_servers {
        match servers
            .iter()
            .find(|s| matches!(&s.id, NodeId::Rack(x) if x == r))
        {
            Some(s) => picked.push(s),
            None => missing.push(format!("rack server {r}")),
        }
    }
    if !missing.is_empty() {
        return Err(Error::not_found(
            ErrorCode::ServerNotFound,
            format!(
                "Server group '{}' has no {}",
                group.name,
                missing.join(", ")
            ),
        ));
    }
    Ok(picked)
}

/// True when the group's selection `pool` names `s`.
fn in_pool(pool: &bootsmith_model::selector::ServerSelector, s: &Server) -> bool {
    match &s.id {
        NodeId::Blade(b) => pool.blades.contains(b),
        NodeId::Rack(r) => pool.rack_servers.contains(r),
    }
}

/// The service profiles deploys of any group created: a server running another one runs
/// someone else's workload.
async fn ours(app: &App) -> Result<HashSet<String>> {
    Ok(
        bootsmith_store::deployed_objects::all_dns(app.store().reader())
            .await?
            .into_iter()
            .collect(),
    )
}

/// The profile `s` runs when Bootsmith did not create it.
fn foreign<'a>(s: &'a Server, ours: &HashSet<String>) -> Option<&'a str> {
    let sp = s.service_profile.as_str();
    (!sp.is_empty() && !ours.contains(sp)).then_some(sp)
}

/// Refuse (409 `server_in_use`) to `doing` servers of `picked` that run a profile Bootsmith did
/// not create, naming each with its profile and power state, unless `force`.
fn refuse_foreign(
    group: &str,
    picked: &[&Server],
    ours: &HashSet<String>,
    doing: &str,
    force: bool,
) -> Result<()> {
    let busy: Vec<String> = picked
        .iter()
        .filter_map(|s| {
            foreign(s, ours)
                .map(|sp| in_use_line(s.is_blade(), &s.id.to_string(), sp, s.oper_power.as_ref()))
        })
        .collect();
    refuse_in_use(group, &busy, doing, force, "")
}

/// How a refusal names a server in use: `blade 1/1 (profile org-root/ls-db, power on)`.
pub(crate) fn in_use_line(
    blade: bool,
    id: &str,
    profile: &str,
    power: Option<&PowerState>,
) -> String {
    let kind = if blade { "blade" } else { "rack server" };
    let power = PowerState::word_of(power);
    format!("{kind} {id} (profile {profile}, power {power})")
}

/// 409 `server_in_use` when `busy` (lines of [`in_use_line`]) is not empty and not `force`:
/// Server group 'g' will not `doing` them, with how to go ahead anyway and `note`.
pub(crate) fn refuse_in_use(
    group: &str,
    busy: &[String],
    doing: &str,
    force: bool,
    note: &str,
) -> Result<()> {
    if force || busy.is_empty() {
        return Ok(());
    }
    let (runs, them) = if busy.len() == 1 {
        ("it runs", "it")
    } else {
        ("each runs", "them")
    };
    Err(Error::conflict(
        ErrorCode::ServerInUse,
        format!(
            "Server group '{group}' will not {doing} {}: {runs} a service profile Bootsmith did not create; send force: true to {doing} {them} anyway{note}",
            busy.join(", "),
        ),
    ))
}

/// `1001, 1002` (de-duplicated), or `none`.
fn list_or_none(ids: &[u32]) -> String {
    let mut ids = ids.to_vec();
    ids.sort_unstable();
    ids.dedup();
    if ids.is_empty() {
        return "none".into();
    }
    ids.iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every server of the group's manager, with the group's selection marked.
pub async fn inventory(app: &App, group: &str) -> Result<Vec<ServerRecord>> {
    let (g, m) = connect(app, group, Capability::Inventory).await?;
    let servers = m.servers().await?;
    let ours = ours(app).await?;
    Ok(servers
        .iter()
        .map(|s| {
            let (chassis_id, slot, rack_id, selected) = match &s.id {
                NodeId::Blade(b) => (
                    Some(b.chassis.to_string()),
                    Some(b.slot.to_string()),
                    None,
                    g.server_pool.blades.contains(b),
                ),
                NodeId::Rack(r) => (
                    None,
                    None,
                    Some(r.id.to_string()),
                    g.server_pool.rack_servers.contains(r),
                ),
            };
            ServerRecord {
                association: s.association.clone(),
                chassis_id,
                dn: s.dn.clone(),
                label: s.label.clone(),
                model: s.model.clone(),
                num_cores: s.num_cores.clone(),
                num_cpus: s.num_cpus.clone(),
                oper_power: s.oper_power.clone(),
                ram: s.ram.clone(),
                ram_speed: s.ram_speed.clone(),
                service_profile: s.service_profile.clone(),
                in_use_by: foreign(s, &ours).map(str::to_owned),
                slot,
                rack_id,
                kind: ServerType::of(&s.id),
                serial: s.serial.clone(),
                uuid: s.uuid.clone(),
                id: s.id.to_string(),
                selected,
                domain_id: s.domain.as_ref().map(|d| d.id.to_string()),
                domain_name: s.domain.as_ref().map(|d| d.name.clone()),
                domain_reachable: s.domain.as_ref().map(|d| d.reachable),
                domain_state: s.domain.as_ref().map(|d| d.state.clone()),
                domain_last_read: s.domain.as_ref().and_then(|d| d.last_read.clone()),
                stale_note: s.domain.as_ref().filter(|d| !d.reachable).map(|d| {
                    format!(
                        "UCS Central cannot reach domain {} now: this is the server as it was last read; power, disks and deploy wait until the domain is read again",
                        d.words()
                    )
                }),
                bmc: s.bmc.clone(),
            }
        })
        .collect())
}

/// The group's service-profile templates (none where the manager has none).
pub async fn templates(app: &App, group: &str) -> Result<Vec<TemplateRecord>> {
    let Some((_, m)) = connect_to_list(app, group, Capability::Templates).await? else {
        return Ok(Vec::new());
    };
    Ok(m.templates()
        .await?
        .into_iter()
        .map(|t| TemplateRecord {
            name: t.dn.clone(),
            dn: t.dn,
            short_name: t.name,
            kind: t.kind,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn record(
        power: Option<PowerState>,
        association: Option<Association>,
        ram_speed: Reported<u32>,
    ) -> ServerRecord {
        ServerRecord {
            association,
            chassis_id: Some("1".into()),
            dn: "sys/chassis-1/blade-3".into(),
            label: String::new(),
            model: "UCSB-B200-M5".into(),
            num_cores: Reported::Number(20),
            num_cpus: Reported::Number(2),
            oper_power: power,
            ram: Reported::Number(131072),
            ram_speed,
            service_profile: String::new(),
            in_use_by: None,
            slot: Some("3".into()),
            rack_id: None,
            kind: ServerType::Blade,
            serial: "FCH1".into(),
            uuid: None,
            id: "1/3".into(),
            selected: false,
            domain_id: None,
            domain_name: None,
            domain_reachable: None,
            domain_state: None,
            domain_last_read: None,
            stale_note: None,
            bmc: None,
        }
    }

    /// The typed fields as the wire has them.
    fn wire(r: &ServerRecord) -> Value {
        let v = serde_json::to_value(r).unwrap();
        let fields = [
            "num_cpus",
            "num_cores",
            "ram",
            "ram_speed",
            "oper_power",
            "association",
        ];
        fields
            .into_iter()
            .map(|f| (f.to_owned(), v[f].clone()))
            .collect()
    }

    #[test]
    fn a_server_record_says_numbers_and_words_as_the_seeds_strings() {
        let r = record(
            Some(PowerState::On),
            Some(Association::Associated),
            Reported::Number(2666),
        );
        assert_eq!(
            wire(&r),
            json!({"num_cpus": "2", "num_cores": "20", "ram": "131072", "ram_speed": "2666",
                "oper_power": "on", "association": "associated"})
        );
        let unassociated = record(
            Some(PowerState::Off),
            Some(Association::Unassociated),
            Reported::Number(2666),
        );
        assert_eq!(wire(&unassociated)["association"], "none");
    }

    #[test]
    fn what_a_manager_gave_in_place_of_a_value_is_said_as_today() {
        let r = record(
            Some(PowerState::Other("poweringon".into())),
            Some(Association::Other("associating".into())),
            Reported::Text("unspecified".into()),
        );
        let w = wire(&r);
        assert_eq!(
            (&w["oper_power"], &w["association"], &w["ram_speed"]),
            (
                &json!("poweringon"),
                &json!("associating"),
                &json!("unspecified")
            )
        );
        // Nothing reported (a Redfish BMC: no profiles, no speed, no power) is empty, not null.
        let bare = record(None, None, Reported::none());
        let w = wire(&bare);
        assert_eq!(
            (&w["oper_power"], &w["association"], &w["ram_speed"]),
            (&json!(""), &json!(""), &json!(""))
        );
    }
}
