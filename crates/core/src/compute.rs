//! What a server group's manager reports and does for its servers:
//! inventory, templates, power, disks and FSM progress. Each action is one
//! function; servers are picked with the seed's selector (none = all). The
//! manager is reached through its driver (`crate::managers`), which is asked
//! only for what it declares it can do.

use crate::error::ErrorCode;
use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::app::App;
use crate::error::{Error, Result};
use crate::managers::{Capability, Disk, Manager, PowerAction, Server};
use crate::selector::SelectorInput;
use crate::server_groups::{self, ServerGroup};
use crate::types::NodeId;

/// How long a disk reset may take before we answer with the state as it is.
pub const DISK_RESET_WAIT: Duration = Duration::from_secs(60);

/// A server as listed for a group (seed §2.3), with its selection.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ServerRecord {
    /// The profile's association as the manager words it: an open set, examples: `none`,
    /// `associated`, `associating`, `failed`; empty where the manager has no profiles.
    pub association: String,
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
    pub num_cores: String,
    /// CPU sockets.
    pub num_cpus: String,
    /// The power state as the manager words it (a Redfish `PowerState` in lower case): an open
    /// set, examples: `on`, `off`, `poweringon`, `test`, `degraded`; empty when not reported.
    pub oper_power: String,
    /// Memory, MB.
    pub ram: String,
    /// Memory speed.
    pub ram_speed: String,
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

/// A service-profile template's kind, as UCS names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum TemplateType {
    /// Profiles made from it are copies, not bound to later changes.
    InitialTemplate,
    /// Profiles made from it follow its changes.
    UpdatingTemplate,
}

impl TemplateType {
    /// The kind UCS writes in an `lsServer`'s `type`, if it is a template's.
    pub fn parse(ucs_type: &str) -> Option<TemplateType> {
        match ucs_type {
            "initial-template" => Some(TemplateType::InitialTemplate),
            "updating-template" => Some(TemplateType::UpdatingTemplate),
            _ => None,
        }
    }
}

/// What a server of an unreachable domain reports in place of its state.
pub const UNREACHABLE: &str = "unreachable";

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

/// `"<id>: <state>"` per selected server.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct PowerStatus {
    /// Blades.
    pub blades: Vec<String>,
    /// Rack servers.
    pub rack_servers: Vec<String>,
}

/// A selector body: `{"servers": {...}, "force": false}`, optional.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct SelectorBody {
    /// Which servers; when left out, the group's selected servers (every server of its manager
    /// when it has none selected). An empty selection is refused.
    #[serde(default, deserialize_with = "bootsmith_model::bodies::object")]
    #[schema(schema_with = crate::schema::some_servers)]
    pub servers: Option<SelectorInput>,
    /// Act on servers that run a service profile Bootsmith did not create: without it, powering
    /// them off or restarting them, and resetting their disks, is refused (`server_in_use`).
    #[serde(default)]
    pub force: bool,
}

/// Body of the reference path `GET /api/v2/fsm`: the group is named in the body.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct GroupSelectorBody {
    /// Server group name.
    #[schema(required = true, nullable = false, min_length = 1)]
    pub server_group: Option<String>,
    /// Which servers; all when left out (an empty selection is refused).
    #[serde(default, deserialize_with = "bootsmith_model::bodies::object")]
    #[schema(schema_with = crate::schema::some_servers)]
    pub servers: Option<SelectorInput>,
}

/// One local disk.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DiskRecord {
    /// Disk id on its controller.
    pub id: String,
    /// DN.
    pub dn: String,
    /// The disk's state as the manager words it: an open set, examples: `online`, `jbod`,
    /// `unconfigured-good`.
    pub state: String,
    /// Model.
    pub model: String,
    /// Size as the manager reports it.
    pub size: String,
}

/// Disks per server id.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct Disks {
    /// By blade id.
    pub blades: BTreeMap<String, Vec<DiskRecord>>,
    /// By rack server id.
    pub rack_servers: BTreeMap<String, Vec<DiskRecord>>,
    /// Servers of a domain their central manager cannot reach now: their disks are as it
    /// last knew them, and nothing was sent to them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unreachable: Vec<String>,
}

/// One FSM stage (seed §2.8), with the server it belongs to.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct StageRecord {
    /// Description.
    pub descr: String,
    /// Last change, `YYYY-MM-DDTHH:MM:SS.mmm`.
    pub last_update_time: String,
    /// Stage name.
    pub name: String,
    /// Position.
    pub order: String,
    /// Retries.
    pub retry: String,
    /// The stage's status as the manager words it: an open set, examples: `success`,
    /// `inProgress`, `skip`, `fail`.
    pub stage_status: String,
    /// The server's id (`1/3`, `2`).
    pub server: String,
}

/// Stages of one server.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct ServerStages {
    /// Sorted by order.
    pub stages: Vec<StageRecord>,
}

/// Stages grouped per server.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct StagesByServer {
    /// By blade id.
    pub blades: BTreeMap<String, ServerStages>,
    /// By rack server id.
    pub rack_servers: BTreeMap<String, ServerStages>,
}

/// FSM progress of the selected servers: all stages, and the same per server.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct FsmReport {
    /// Every stage, sorted by server then order.
    pub stages: Vec<StageRecord>,
    /// The same, per server.
    pub servers: StagesByServer,
    /// Servers of a domain their central manager cannot reach now (no stages can be read).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unreachable: Vec<String>,
}

/// Ids of the servers among `picked` whose domain cannot be reached.
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
    if crate::managers::driver(g.kind).is_some_and(|d| !d.capabilities.contains(&what)) {
        return Ok(None);
    }
    let m = app.managers().connect(app.cipher(), &g.managed(), what)?;
    Ok(Some((g, m)))
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
fn in_pool(pool: &crate::selector::ServerSelector, s: &Server) -> bool {
    match &s.id {
        NodeId::Blade(b) => pool.blades.contains(b),
        NodeId::Rack(r) => pool.rack_servers.contains(r),
    }
}

/// The service profiles deploys of any group created: a server running another one runs
/// someone else's workload.
async fn ours(app: &App) -> Result<HashSet<String>> {
    Ok(
        crate::store::deployed_objects::all_dns(app.store().reader())
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
                .map(|sp| in_use_line(s.is_blade(), &s.id.to_string(), sp, &s.oper_power))
        })
        .collect();
    refuse_in_use(group, &busy, doing, force, "")
}

/// How a refusal names a server in use: `blade 1/1 (profile org-root/ls-db, power on)`.
pub(crate) fn in_use_line(blade: bool, id: &str, profile: &str, power: &str) -> String {
    let kind = if blade { "blade" } else { "rack server" };
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
                kind: if s.is_blade() {
                    ServerType::Blade
                } else {
                    ServerType::Rack
                },
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

/// Where a server's KVM console opens (`GET /api/v2/servers/<group>/console?server=<id>`).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ConsoleLink {
    /// Server group name.
    pub server_group: String,
    /// The server's id (`1/3`, `2`).
    pub server: String,
    /// The page to open in a browser: UCS Manager's KVM launcher, the IMC's or the BMC's web
    /// interface. It carries no credential: the page asks the person to sign in.
    pub url: String,
    /// What the page is and what to do on it.
    pub note: String,
}

/// Query of the console call.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(default)]
pub struct ConsoleQuery {
    /// The server's id in the group (`1/3` for a blade, `2` for a rack server).
    #[param(required = true, schema_with = crate::schema::server_id)]
    pub server: Option<String>,
}

/// The page of the group's manager where `server`'s KVM console opens.
pub async fn console(app: &App, group: &str, query: ConsoleQuery) -> Result<ConsoleLink> {
    let Some(wanted) = query
        .server
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
    else {
        return Err(Error::invalid_field(
            ErrorCode::MissingServer,
            "Which server's console?",
            "server",
            "is required: the server's id in the group, like 1/3 for a blade or 2 for a rack server",
        ));
    };
    let id = NodeId::parse(wanted).map_err(|m| {
        Error::invalid_field(
            ErrorCode::InvalidServer,
            "Which server's console?",
            "server",
            m,
        )
    })?;
    let (g, m) = connect(app, group, Capability::Inventory).await?;
    let servers = m.servers().await?;
    let Some(server) = servers.iter().find(|s| s.id == id) else {
        return Err(Error::not_found(
            ErrorCode::ServerNotFound,
            format!("Server group '{}' has no server {id}", g.name),
        ));
    };
    let Some(page) = m.console(server) else {
        return Err(Error::Unprocessable {
            code: ErrorCode::NotSupported,
            message: format!(
                "Server group '{}' is a {} (type {}), which has no console page Bootsmith can open; open the console from the domain's own UCS Manager",
                g.name,
                g.kind.title(),
                g.kind.as_str()
            ),
            details: Vec::new(),
        });
    };
    Ok(ConsoleLink {
        server_group: g.name.to_string(),
        server: server.id.to_string(),
        url: page.url,
        note: page.note,
    })
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

/// `"<id>: <state>"` lines; a server whose domain its central manager cannot reach says
/// `unreachable` rather than a state that may be stale.
fn status_of(servers: &[&Server]) -> PowerStatus {
    let mut st = PowerStatus::default();
    for s in servers {
        let state = if s.reachable() {
            s.oper_power.as_str()
        } else {
            UNREACHABLE
        };
        let line = format!("{}: {state}", s.id);
        if s.is_blade() {
            st.blades.push(line);
        } else {
            st.rack_servers.push(line);
        }
    }
    st
}

/// Power state of the selected servers (all when none are named).
pub async fn power_status(
    app: &App,
    group: &str,
    which: Option<SelectorBody>,
) -> Result<PowerStatus> {
    let (g, m) = connect(app, group, Capability::Inventory).await?;
    let servers = m.servers().await?;
    Ok(status_of(&select(&g, &servers, which)?))
}

/// Apply a power action (`on`, `off`, `hardreset`, `softreset`) to the selected servers in one
/// transaction; answers with their power state read right after (it changes over the next seconds).
pub async fn power(
    app: &App,
    group: &str,
    action: &str,
    which: Option<SelectorBody>,
) -> Result<PowerStatus> {
    let act = PowerAction::parse(action).ok_or_else(|| {
        Error::bad(
            ErrorCode::UnknownPowerAction,
            format!("'{action}' is not a power action; use one of on, off, hardreset, softreset"),
        )
    })?;
    let (g, m) = connect(app, group, Capability::Power).await?;
    let servers = m.servers().await?;
    let force = which.as_ref().is_some_and(|w| w.force);
    let picked = select(&g, &servers, which)?;
    if picked.is_empty() {
        return Err(Error::bad(
            ErrorCode::NoServers,
            format!("Server group '{group}' has no servers to power {action}"),
        ));
    }
    refuse_unreachable(group, &picked, &format!("power servers {action}"))?;
    if act != PowerAction::On {
        let doing = format!("power {action}");
        refuse_foreign(group, &picked, &ours(app).await?, &doing, force)?;
    }
    m.set_power(&picked, act).await?;
    tracing::info!(group, action, servers = picked.len(), "power action sent");
    let dns: Vec<&str> = picked.iter().map(|s| s.dn.as_str()).collect();
    let after = m.servers().await?;
    let now: Vec<&Server> = after
        .iter()
        .filter(|s| dns.contains(&s.dn.as_str()))
        .collect();
    Ok(status_of(&now))
}

fn disks_of(servers: &[&Server], disks: &[Disk]) -> Disks {
    let mut out = Disks::default();
    for s in servers {
        let list: Vec<DiskRecord> = disks
            .iter()
            .filter(|d| d.server_dn == s.dn)
            .map(|d| DiskRecord {
                id: d.id.clone(),
                dn: d.dn.clone(),
                state: d.state.clone(),
                model: d.model.clone(),
                size: d.size.clone(),
            })
            .collect();
        let map = if s.is_blade() {
            &mut out.blades
        } else {
            &mut out.rack_servers
        };
        map.insert(s.id.to_string(), list);
    }
    out.unreachable = unreachable_ids(servers);
    out
}

/// Local disks of the selected servers.
pub async fn disks(app: &App, group: &str, which: Option<SelectorBody>) -> Result<Disks> {
    let (g, m) = connect(app, group, Capability::Disks).await?;
    let servers = m.servers().await?;
    let picked = select(&g, &servers, which)?;
    Ok(disks_of(&picked, &m.disks().await?))
}

/// Reset every disk of the selected servers to unconfigured-good, wait until the manager reports
/// it (up to [`DISK_RESET_WAIT`]), and answer with the disks' state then.
pub async fn reset_disks(app: &App, group: &str, which: Option<SelectorBody>) -> Result<Disks> {
    let (g, m) = connect(app, group, Capability::DiskReset).await?;
    let servers = m.servers().await?;
    let force = which.as_ref().is_some_and(|w| w.force);
    let picked = select(&g, &servers, which)?;
    refuse_unreachable(group, &picked, "reset the disks of its servers")?;
    refuse_foreign(
        group,
        &picked,
        &ours(app).await?,
        "reset the disks of",
        force,
    )?;
    let all = m.disks().await?;
    let targets: Vec<&Disk> = all
        .iter()
        .filter(|d| picked.iter().any(|s| s.dn == d.server_dn) && !d.is_unconfigured_good())
        .collect();
    if !targets.is_empty() {
        m.reset_disks(&targets).await?;
        tracing::info!(group, disks = targets.len(), "disk reset sent");
    }
    let dns: Vec<String> = targets.iter().map(|d| d.dn.clone()).collect();
    let deadline = Instant::now() + DISK_RESET_WAIT;
    loop {
        let now = m.disks().await?;
        let done = now
            .iter()
            .filter(|d| dns.contains(&d.dn))
            .all(Disk::is_unconfigured_good);
        if done || Instant::now() >= deadline {
            if !done {
                tracing::warn!(
                    group,
                    "disk reset still in progress after {} s",
                    DISK_RESET_WAIT.as_secs()
                );
            }
            return Ok(disks_of(&picked, &now));
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
}

/// FSM stages of the selected servers, sorted by server and order, also grouped per server
/// (a manager without FSM lists each selected server with no stages).
pub async fn fsm(app: &App, group: &str, which: Option<SelectorBody>) -> Result<FsmReport> {
    let (g, m, progress) = match connect_to_list(app, group, Capability::Progress).await? {
        Some((g, m)) => (g, m, true),
        None => {
            let (g, m) = connect(app, group, Capability::Inventory).await?;
            (g, m, false)
        }
    };
    let servers = m.servers().await?;
    let picked = select(&g, &servers, which)?;
    let stages = if progress {
        let readable: Vec<&Server> = picked.iter().copied().filter(|s| s.reachable()).collect();
        m.stages(&readable).await?
    } else {
        Vec::new()
    };
    let mut report = FsmReport {
        unreachable: unreachable_ids(&picked),
        ..FsmReport::default()
    };
    for s in &picked {
        let id = s.id.to_string();
        let mine: Vec<StageRecord> = stages
            .iter()
            .filter(|st| st.server_dn == s.dn)
            .map(|st| StageRecord {
                descr: st.descr.clone(),
                last_update_time: st.last_update_time.clone(),
                name: st.name.clone(),
                order: st.order.clone(),
                retry: st.retry.clone(),
                stage_status: st.stage_status.clone(),
                server: id.clone(),
            })
            .collect();
        report.stages.extend(mine.iter().cloned());
        let map = if s.is_blade() {
            &mut report.servers.blades
        } else {
            &mut report.servers.rack_servers
        };
        map.insert(id, ServerStages { stages: mine });
    }
    Ok(report)
}

/// [`fsm`] for the reference path `/api/v2/fsm`, where the group is named in the body.
pub async fn fsm_named_in_body(app: &App, body: GroupSelectorBody) -> Result<FsmReport> {
    let Some(group) = body.server_group.filter(|g| !g.is_empty()) else {
        return Err(Error::bad(
            ErrorCode::MissingServerGroup,
            "Say which server group's progress to read: {\"server_group\": \"<name>\"}",
        ));
    };
    fsm(
        app,
        &group,
        Some(SelectorBody {
            force: false,
            servers: body.servers,
        }),
    )
    .await
}
