//! Hosts: what to install where. The list is replaced as a whole, in one
//! transaction, after every row and every cross-row rule has been checked.

use std::collections::{BTreeMap, HashMap};

use crate::app::App;
use crate::error::{Error, ErrorCode, Problem, Result};
use crate::managers::{Capability, GroupKind, Numbering, Template};
use crate::records::networks::{stored_json, to_json};
use crate::records::{self, install_disk, params, Kind, Prefer, Record};
use bootsmith_model::network::{self, Ipv6Gateway, Ipv6Interface, MacAddress};
use bootsmith_model::params::Params;
use bootsmith_model::types::{HostName, IpAddress, Name, NodeId, Subnet, TemplateDn};
use bootsmith_model::validate::Check;
use bootsmith_store::{
    self as store, hosts::HostRow, networks::NetworkRow, server_groups::GroupRow, Conn, Named,
};

pub use crate::records::host_record::{Host, HostInput, HostRef};

/// How hosts are named in messages and codes.
pub(crate) const KIND: Kind = Kind {
    what: "host",
    not_found: ErrorCode::HostNotFound,
    invalid: ErrorCode::InvalidHost,
    prefer: Prefer::Name,
    names_ignore_case: true,
};

impl Record for Host {
    fn id(&self) -> Option<uuid::Uuid> {
        None
    }
    fn name(&self) -> &str {
        self.name.as_str()
    }
}

impl Host {
    fn from_row(r: HostRow) -> Result<Self> {
        Ok(Host {
            ip: IpAddress::parse(&r.ip)
                .map_err(|_| Error::Corrupt(format!("host {}: ip", r.name)))?,
            server: r
                .server
                .map(|s| NodeId::parse(&s))
                .transpose()
                .map_err(|_| Error::Corrupt(format!("host {}: server", r.name)))?,
            install_disk: install_disk::from_stored(r.install_disk.as_deref())
                .map_err(|e| Error::Corrupt(format!("host {}: install_disk: {e}", r.name)))?,
            macs: stored_json::<Vec<MacAddress>>(r.macs.as_deref())
                .map_err(|e| Error::Corrupt(format!("host {}: macs: {e}", r.name)))?
                .unwrap_or_default(),
            ipv6: r
                .ipv6
                .as_deref()
                .map(Ipv6Interface::parse)
                .transpose()
                .map_err(|e| Error::Corrupt(format!("host {}: ipv6: {e}", r.name)))?,
            params: params::stored(r.params.as_deref(), &format!("host {}", r.name))?,
            name: HostName::from_stored(r.name),
            os: r.os,
            role: r.role,
            network_group: Name::from_stored(r.network_group),
            server_group: r.server_group.map(Name::from_stored),
            service_profile_template: r.service_profile_template.map(TemplateDn::from_stored),
        })
    }

    fn to_row(&self) -> HostRow {
        HostRow {
            name: self.name.to_string(),
            ip: self.ip.to_string(),
            os: self.os.clone(),
            role: self.role.clone(),
            network_group: self.network_group.to_string(),
            server_group: self.server_group.as_ref().map(ToString::to_string),
            service_profile_template: self
                .service_profile_template
                .as_ref()
                .map(ToString::to_string),
            server: self.server.map(|s| s.to_string()),
            install_disk: install_disk::to_stored(self.install_disk.as_ref()),
            macs: (!self.macs.is_empty()).then(|| to_json(&self.macs)),
            ipv6: self.ipv6.map(|v| v.to_string()),
            params: self.params.to_stored(),
        }
    }
}

/// Every host in the order it was submitted.
pub async fn list(app: &App) -> Result<Vec<Host>> {
    list_in(&mut *app.store().reading().await?).await
}

/// The host named `name` (case-insensitive); 404 when there is none.
pub async fn get(app: &App, name: &str) -> Result<Host> {
    let lookup = records::which(&KIND, None, Some(name))?;
    records::resolve(&KIND, list(app).await?, lookup)
}

/// Every host as `conn` sees it (the KUBAM import reads inside its transaction).
pub(crate) async fn list_in(conn: &mut Conn) -> Result<Vec<Host>> {
    store::hosts::list(conn)
        .await?
        .into_iter()
        .map(Host::from_row)
        .collect()
}

/// Names of the stored groups a host may refer to.
struct Known {
    networks: Vec<String>,
    /// The subnet and gateway of each network group that names a subnet.
    subnets: HashMap<String, (Subnet, IpAddress)>,
    /// The IPv6 gateway of each network group that names one.
    ipv6_gateways: HashMap<String, Ipv6Gateway>,
    /// Each group's name and how its manager numbers servers.
    server_groups: Vec<(String, Numbering)>,
    /// Each stored host's parameters by its name in lower case: a secret sent back masked
    /// keeps the value stored under the same name.
    params_before: HashMap<String, Params>,
}

fn check_row(app: &App, known: &Known, input: &HostInput) -> (Option<Host>, Vec<Problem>) {
    let catalog = app.catalog();
    let mut c = Check::default();
    let name = c.required("name", &input.name, HostName::parse);
    let ip = c.required("ip", &input.ip, IpAddress::parse);
    let os = c.required("os", &input.os, |os| {
        catalog
            .get(os)
            .map(|o| o.id.clone())
            .ok_or_else(|| format!("'{os}' is not an OS of the catalog"))
    });
    let role = c.required("role", &input.role, |role| {
        if !catalog.roles().iter().any(|r| r == role) {
            return Err(format!(
                "'{role}' is not a role; use one of {}",
                catalog.roles().join(", ")
            ));
        }
        match os.as_deref().and_then(|o| catalog.get(o)) {
            Some(entry) if !entry.roles.iter().any(|r| r == role) => Err(format!(
                "{} hosts cannot have role '{role}'; allowed: {}",
                entry.id,
                entry.roles.join(", ")
            )),
            _ => Ok(role.to_owned()),
        }
    });
    let network_group = c.required(
        "network_group",
        &input.network_group,
        |n| match Name::parse(n) {
            Ok(name) if known.networks.iter().any(|k| k == n) => Ok(name),
            Ok(_) => Err(format!("there is no network group named '{n}'")),
            Err(m) => Err(m),
        },
    );
    let server_group = c.optional("server_group", &input.server_group, |g| {
        match Name::parse(g) {
            Ok(name) if known.server_groups.iter().any(|(k, _)| k == g) => Ok(name),
            Ok(_) => Err(format!("there is no server group named '{g}'")),
            Err(m) => Err(m),
        }
    });
    let template = c.optional(
        "service_profile_template",
        &input.service_profile_template,
        TemplateDn::parse,
    );
    let numbering = input.server_group.as_deref().and_then(|g| {
        known
            .server_groups
            .iter()
            .find(|(k, _)| k == g)
            .map(|(_, n)| *n)
    });
    let server = c.optional("server", &input.server, |v| {
        let n = NodeId::parse(v)?;
        // A two-part id is a blade of one domain, or a rack server of a central manager's
        // domain; a blade with a domain, or a bare rack number, fits only one of the two.
        let wrong = match (&n, numbering) {
            (NodeId::Blade(b), Some(Numbering::Domain)) => b.domain.is_some(),
            (NodeId::Rack(_), Some(Numbering::Central)) => true,
            _ => false,
        };
        match numbering.filter(|_| wrong) {
            Some(num) => Err(format!(
                "'{v}' is not a server of that server group: use {} for a blade or {} for a rack server",
                num.blade_form(),
                num.rack_form()
            )),
            None => Ok(n),
        }
    });
    let install_disk = bootsmith_model::install_disk::optional(
        &mut c,
        "install_disk",
        input.install_disk.as_ref(),
    );
    // Two or more MACs on a network without a bond are taken: the plan warns of them, as a
    // bond may be added to the group after its hosts.
    let macs = network::macs(&mut c, "macs", input.macs.as_ref());
    let ipv6 = c.optional("ipv6", &input.ipv6, Ipv6Interface::parse);
    let before = input
        .name
        .as_deref()
        .and_then(|n| known.params_before.get(&n.trim().to_ascii_lowercase()));
    let params = params::keep(
        &mut c,
        app.cipher(),
        "params",
        input.params.as_ref(),
        before.unwrap_or(&Params::default()),
    );
    if let (Some(Some(v6)), Some(group)) = (&ipv6, &network_group) {
        if let Some(gw) = known.ipv6_gateways.get(group.as_str()) {
            if let Some(why) = network::gateway_misfit(v6, gw, group.as_str()) {
                c.fail("ipv6", why);
            }
        }
    }
    if matches!(server_group, Some(None)) {
        if matches!(server, Some(Some(_))) {
            c.fail("server", "binding to a server needs a server_group");
        }
        if matches!(template, Some(Some(_))) {
            c.fail(
                "service_profile_template",
                "a template needs a server_group",
            );
        }
    }
    // A host only when every field checked out.
    let complete = || {
        Some(Host {
            name: name?,
            ip: ip?,
            os: os?,
            role: role?,
            network_group: network_group?,
            server_group: server_group?,
            service_profile_template: template?,
            server: server?,
            install_disk: install_disk?,
            macs: macs?,
            ipv6: ipv6?,
            params: params?,
        })
    };
    let host = c.problems.is_empty().then(complete).flatten();
    (host, c.problems)
}

/// The rules of a host list, applied one row at a time against the rows registered before it:
/// the submitted list of `POST /api/v2/hosts` and the hosts a KUBAM import adds to the stored
/// ones go through the same checks.
pub(crate) struct HostRules<'a> {
    app: &'a App,
    known: Known,
    // Each value names who took it first ("row 3", "host kube01"), for the message.
    names: HashMap<String, String>,
    ips: HashMap<IpAddress, String>,
    ipv6s: HashMap<std::net::Ipv6Addr, String>,
    // Each MAC names its host by name too: the 409 of a reused NIC says whose it is.
    macs: HashMap<MacAddress, String>,
    nodes: HashMap<(String, NodeId), String>,
    os_of_group: HashMap<String, (String, String)>,
}

impl<'a> HostRules<'a> {
    /// Rules over the groups stored in (or written so far by the transaction of) `conn`.
    pub(crate) async fn load(app: &'a App, conn: &mut Conn) -> Result<Self> {
        Ok(HostRules {
            app,
            known: Known {
                networks: Named::NetworkGroups.names(&mut *conn).await?,
                subnets: store::list::<NetworkRow>(&mut *conn)
                    .await?
                    .into_iter()
                    .filter_map(|n| {
                        let subnet = Subnet::parse(n.subnet.as_deref()?).ok()?;
                        let gateway = IpAddress::parse(&n.gateway).ok()?;
                        Some((n.name, (subnet, gateway)))
                    })
                    .collect(),
                ipv6_gateways: store::list::<NetworkRow>(&mut *conn)
                    .await?
                    .into_iter()
                    .filter_map(|n| {
                        let gw = Ipv6Gateway::parse(n.ipv6_gateway.as_deref()?).ok()?;
                        Some((n.name, gw))
                    })
                    .collect(),
                server_groups: store::list::<GroupRow>(&mut *conn)
                    .await?
                    .into_iter()
                    .map(|g| {
                        let kind = GroupKind::parse(&g.kind).unwrap_or(GroupKind::Ucsm);
                        (g.name, crate::managers::numbering(kind))
                    })
                    .collect(),
                params_before: store::hosts::list(&mut *conn)
                    .await?
                    .into_iter()
                    .filter_map(|h| {
                        let p = Params::from_stored(h.params.as_deref()).ok()?;
                        Some((h.name.to_ascii_lowercase(), p))
                    })
                    .collect(),
            },
            names: HashMap::new(),
            ips: HashMap::new(),
            ipv6s: HashMap::new(),
            macs: HashMap::new(),
            nodes: HashMap::new(),
            os_of_group: HashMap::new(),
        })
    }

    /// The row's own problems and its clashes with the registered rows; the host when it has none.
    pub(crate) fn check(&self, row: &HostInput) -> (Option<Host>, Vec<Problem>) {
        let (host, mut problems) = check_row(self.app, &self.known, row);
        // Duplicates are checked on each field alone, so a row with other problems still gets them reported.
        if let Some(name) = row.name.as_deref().and_then(|n| HostName::parse(n).ok()) {
            if let Some(first) = self.names.get(&name.as_str().to_ascii_lowercase()) {
                problems.push(Problem::field(
                    "name",
                    format!("the name {name} is also used by {first}"),
                ));
            }
        }
        if let Some(ip) = row.ip.as_deref().and_then(|v| IpAddress::parse(v).ok()) {
            if let Some(first) = self.ips.get(&ip) {
                problems.push(Problem::field(
                    "ip",
                    format!("the address {ip} is also used by {first}"),
                ));
            }
        }
        if let Some(v6) = row_ipv6(row) {
            if let Some(first) = self.ipv6s.get(&v6.addr()) {
                problems.push(Problem::field(
                    "ipv6",
                    format!("the address {} is also used by {first}", v6.addr()),
                ));
            }
        }
        if let Some(key) = node_key(row) {
            if let Some(first) = self.nodes.get(&key) {
                problems.push(Problem::field(
                    "server",
                    format!("server {} of {} is also used by {first}", key.1, key.0),
                ));
            }
        }
        let host = host.filter(|_| problems.is_empty());
        (host, problems)
    }

    /// The row's MACs that another host's NICs have, each at its place (`macs[1]`): a NIC is
    /// one host's, so these are a conflict (409 `mac_in_use`) rather than a typo.
    pub(crate) fn macs_in_use(&self, row: &HostInput) -> Vec<Problem> {
        row_macs(row)
            .into_iter()
            .filter_map(|(i, mac)| {
                let other = self.macs.get(&mac)?;
                Some(Problem::field(
                    format!("macs[{i}]"),
                    format!(
                        "{mac} is a NIC of {other}; a NIC belongs to one host: take it off {other} first, or check the MAC"
                    ),
                ))
            })
            .collect()
    }

    /// Why `host`'s address does not fit its network group: outside the group's subnet, or
    /// the group's gateway.
    pub(crate) fn off_subnet(&self, host: &Host) -> Option<String> {
        self.off_subnet_of(&host.ip, host.network_group.as_str())
    }

    /// The same for a row that may have other problems: a wrong name must not hide that its
    /// address is outside the subnet until the next save.
    fn off_subnet_of_row(&self, row: &HostInput) -> Option<String> {
        let ip = row
            .ip
            .as_deref()
            .and_then(|v| IpAddress::parse(v.trim()).ok())?;
        self.off_subnet_of(&ip, row.network_group.as_deref()?.trim())
    }

    fn off_subnet_of(&self, ip: &IpAddress, group: &str) -> Option<String> {
        let (subnet, gateway) = self.known.subnets.get(group)?;
        if !subnet.contains(&ip.0) {
            Some(format!("{ip} is not in network {group}'s subnet {subnet}"))
        } else if ip == gateway {
            Some(format!("{ip} is the gateway of network {group}"))
        } else {
            None
        }
    }

    /// The row's server group and OS, when both are sound (for the one-OS rule).
    fn group_and_os<'r>(&self, row: &'r HostInput) -> Option<(&'r str, &'r str)> {
        let group = row.server_group.as_deref()?.trim();
        let os = row.os.as_deref()?.trim();
        let known = self.known.server_groups.iter().any(|(g, _)| g == group);
        (known && self.app.catalog().get(os).is_some()).then_some((group, os))
    }

    /// Why `host` cannot join its server group: the group installs another OS (seed §8).
    pub(crate) fn os_clash(&self, host: &Host) -> Option<String> {
        let group = host.server_group.as_ref()?;
        let (os, first) = self.os_of_group.get(group.as_str())?;
        (*os != host.os).then(|| {
            format!(
                "server group {group} installs {os} ({first}); each server group installs one OS only"
            )
        })
    }

    /// Count the row's name, address and server as taken by `who` (and its OS for its group).
    pub(crate) fn register(&mut self, who: &str, row: &HostInput, host: Option<&Host>) {
        if let Some(name) = row.name.as_deref().and_then(|n| HostName::parse(n).ok()) {
            self.names
                .entry(name.as_str().to_ascii_lowercase())
                .or_insert_with(|| who.to_owned());
        }
        if let Some(ip) = row.ip.as_deref().and_then(|v| IpAddress::parse(v).ok()) {
            self.ips.entry(ip).or_insert_with(|| who.to_owned());
        }
        if let Some(v6) = row_ipv6(row) {
            self.ipv6s
                .entry(v6.addr())
                .or_insert_with(|| who.to_owned());
        }
        let named = match row
            .name
            .as_deref()
            .and_then(|n| HostName::parse(n.trim()).ok())
        {
            Some(n) if !who.starts_with("host ") => format!("host {n} ({who})"),
            _ => who.to_owned(),
        };
        for (_, mac) in row_macs(row) {
            self.macs.entry(mac).or_insert_with(|| named.clone());
        }
        if let Some(key) = node_key(row) {
            self.nodes.entry(key).or_insert_with(|| who.to_owned());
        }
        if let Some(h) = host {
            if let Some(g) = &h.server_group {
                self.os_of_group
                    .entry(g.as_str().to_owned())
                    .or_insert_with(|| (h.os.clone(), who.to_owned()));
            }
        }
    }
}

/// The row's IPv6 address, when it reads as one.
fn row_ipv6(row: &HostInput) -> Option<Ipv6Interface> {
    row.ipv6
        .as_deref()
        .and_then(|v| Ipv6Interface::parse(v).ok())
}

/// The MACs of a row that read as MACs, each with its place in the list (a row with other
/// problems still has its sound MACs held against the others').
fn row_macs(row: &HostInput) -> Vec<(usize, MacAddress)> {
    let Some(serde_json::Value::Array(items)) = &row.macs else {
        return Vec::new();
    };
    items
        .iter()
        .enumerate()
        .filter_map(|(i, v)| Some((i, MacAddress::parse(v.as_str()?).ok()?)))
        .collect()
}

/// The (group, server) a row binds to, when it names both.
fn node_key(row: &HostInput) -> Option<(String, NodeId)> {
    let node = row.server.as_deref().and_then(|v| NodeId::parse(v).ok())?;
    let group = row.server_group.as_deref().filter(|g| !g.is_empty())?;
    Some((group.to_owned(), node))
}

/// Check a whole submitted list against the catalog, itself and the stored groups.
pub(crate) async fn check_list(
    app: &App,
    conn: &mut Conn,
    rows: &[HostInput],
) -> Result<Vec<Host>> {
    check_list_after(app, conn, rows, Vec::new()).await
}

/// [`check_list`], after the problems `found` before it (a template's short name that could
/// not be resolved), which stand in for the row's own check of their field. Every problem of
/// every row comes back at once: a sheet of a hundred hosts is not fixed one save at a time.
/// A list with only addresses outside their subnet, or only mixed OSes in a server group,
/// keeps its own 422 code; with anything else they join the 400's list.
async fn check_list_after(
    app: &App,
    conn: &mut Conn,
    rows: &[HostInput],
    found: Vec<Problem>,
) -> Result<Vec<Host>> {
    let mut rules = HostRules::load(app, conn).await?;
    let mut problems = found;
    let mut off = Vec::new();
    let mut taken = Vec::new();
    let mut hosts = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let (host, row_problems) = rules.check(row);
        let earlier: Vec<String> = problems
            .iter()
            .filter(|p| p.index == Some(i))
            .map(|p| p.field.clone())
            .collect();
        problems.extend(
            row_problems
                .into_iter()
                .filter(|p| !earlier.contains(&p.field))
                .map(|p| p.at(i, row.name.as_deref())),
        );
        if let Some(why) = rules.off_subnet_of_row(row) {
            off.push(Problem::field("ip", why).at(i, row.name.as_deref()));
        }
        taken.extend(
            rules
                .macs_in_use(row)
                .into_iter()
                .map(|p| p.at(i, row.name.as_deref())),
        );
        rules.register(&format!("row {}", i + 1), row, host.as_ref());
        hosts.push(host);
    }
    let members: Vec<Member> = rows
        .iter()
        .enumerate()
        .filter_map(|(index, row)| {
            let (group, os) = rules.group_and_os(row)?;
            let name = row.name.as_deref().map(str::trim).unwrap_or_default();
            Some(Member {
                index,
                name,
                group,
                os,
            })
        })
        .collect();
    let mixed = mixed_os(&members);
    match (problems.is_empty(), off.is_empty(), &mixed) {
        (true, true, None) if !taken.is_empty() => {
            let lines: Vec<String> = taken
                .iter()
                .map(|p| format!("host {}: {}", p.name.as_deref().unwrap_or("?"), p.message))
                .collect();
            return Err(Error::Conflict {
                code: ErrorCode::MacInUse,
                message: format!("Some MACs are given to two hosts: {}", lines.join("; ")),
                details: taken,
            });
        }
        (true, true, None) => {}
        (true, false, None) => {
            let lines: Vec<String> = off
                .iter()
                .map(|p| format!("host {}: {}", p.name.as_deref().unwrap_or("?"), p.message))
                .collect();
            return Err(Error::Unprocessable {
                code: ErrorCode::IpOutsideSubnet,
                message: format!(
                    "Some host addresses do not fit their network group: {}; change the address, or the group's subnet on the Networks screen",
                    lines.join("; ")
                ),
                details: off,
            });
        }
        (true, true, Some((message, details))) => {
            return Err(Error::Unprocessable {
                code: ErrorCode::MixedOsInServerGroup,
                message: message.clone(),
                details: details.clone(),
            });
        }
        _ => {
            problems.extend(off);
            problems.extend(taken);
            problems.extend(mixed.map(|(_, d)| d).unwrap_or_default());
            problems.sort_by_key(|p| p.index.unwrap_or(usize::MAX));
            return Err(Error::invalid(
                ErrorCode::InvalidHosts,
                "The host list is invalid",
                problems,
            ));
        }
    }
    Ok(hosts
        .into_iter()
        .map(|h| h.expect("no problems means every row parsed"))
        .collect())
}

/// A row with a sound server group and OS.
struct Member<'r> {
    index: usize,
    name: &'r str,
    group: &'r str,
    os: &'r str,
}

/// Seed §8: one server group installs one OS. The sentence names every OS of a mixed group
/// with its hosts; the problems sit on the rows whose OS is not the one most of the group's
/// rows have, so fixing them is what the sheet points at.
fn mixed_os(members: &[Member]) -> Option<(String, Vec<Problem>)> {
    let mut by_group: BTreeMap<&str, Vec<(&str, Vec<&Member>)>> = BTreeMap::new();
    for m in members {
        let oses = by_group.entry(m.group).or_default();
        match oses.iter_mut().find(|(os, _)| *os == m.os) {
            Some((_, list)) => list.push(m),
            None => oses.push((m.os, vec![m])),
        }
    }
    let mut lines = Vec::new();
    let mut details = Vec::new();
    for (group, oses) in by_group.iter().filter(|(_, oses)| oses.len() > 1) {
        let parts: Vec<String> = oses
            .iter()
            .map(|(os, list)| {
                let names: Vec<&str> = list.iter().map(|m| m.name).collect();
                format!("{os} ({})", names.join(", "))
            })
            .collect();
        lines.push(format!(
            "server group {group} would install {}",
            parts.join(" and ")
        ));
        // Most rows win; on a tie, the OS seen first.
        let (main, _) = oses
            .iter()
            .enumerate()
            .max_by_key(|(i, (_, list))| (list.len(), std::cmp::Reverse(*i)))
            .map(|(_, o)| o)?;
        for (os, list) in oses.iter().filter(|(os, _)| os != main) {
            for m in list {
                details.push(
                    Problem::field(
                        "os",
                        format!(
                            "server group {group} installs {main} on its other hosts, not {os}; each server group installs one OS only"
                        ),
                    )
                    .at(m.index, Some(m.name).filter(|n| !n.is_empty())),
                );
            }
        }
    }
    if lines.is_empty() {
        return None;
    }
    details.sort_by_key(|p| p.index);
    Some((
        format!(
            "Each server group installs one OS only: {}",
            lines.join("; ")
        ),
        details,
    ))
}

/// Replace the whole host list; an invalid list changes nothing. An empty list is refused:
/// a script whose list came out empty must not wipe every host (KUBAM refused it too).
pub async fn replace(app: &App, mut rows: Vec<HostInput>) -> Result<Vec<Host>> {
    if rows.is_empty() {
        return Err(Error::bad(
            ErrorCode::EmptyHostList,
            "An empty host list would remove every host; remove hosts one at a time, by name",
        ));
    }
    // Before the write transaction: resolving asks the managers over the network.
    let unresolved = resolve_short_templates(app, &mut rows).await;
    let mut tx = app.store().begin().await?;
    let hosts = check_list_after(app, &mut tx, &rows, unresolved).await?;
    let stored: Vec<HostRow> = hosts.iter().map(Host::to_row).collect();
    store::hosts::replace(&mut tx, &stored).await?;
    tx.commit().await?;
    tracing::info!(count = hosts.len(), "host list replaced");
    Ok(hosts)
}

/// Store checked hosts after the stored ones (the KUBAM import adds hosts so).
pub(crate) async fn append(conn: &mut Conn, hosts: &[Host]) -> Result<()> {
    let rows: Vec<HostRow> = hosts.iter().map(Host::to_row).collect();
    Ok(store::hosts::append(conn, &rows).await?)
}

/// Turn a template's short name (`ESX-Template`, KUBAM's UI and people write it so) into its
/// DN, asking the host's server group's manager; a name found in several orgs, or in none, is
/// a problem naming the choices, and so is a manager that cannot be asked. The problems join
/// the list's other ones.
async fn resolve_short_templates(app: &App, rows: &mut [HostInput]) -> Vec<Problem> {
    let mut by_group: BTreeMap<String, std::result::Result<Vec<Template>, String>> =
        BTreeMap::new();
    let mut problems = Vec::new();
    for (i, row) in rows.iter_mut().enumerate() {
        let Some(short) = row
            .service_profile_template
            .as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty() && !t.contains('/'))
            .map(str::to_owned)
        else {
            continue;
        };
        // Without a group the row's own check says a template needs one.
        let Some(group) = row.server_group.clone().filter(|g| !g.trim().is_empty()) else {
            continue;
        };
        if !by_group.contains_key(&group) {
            let answer = group_templates(app, &group)
                .await
                .map_err(|e| e.to_string());
            by_group.insert(group.clone(), answer);
        }
        let mut fail = |m: String| {
            problems.push(Problem::field("service_profile_template", m).at(i, row.name.as_deref()))
        };
        match &by_group[&group] {
            Err(e) => fail(format!(
                "'{short}' is a short name, and the templates of {group} could not be read to find it ({e}); give its path, like org-root/ls-{short}"
            )),
            Ok(list) => {
                let found: Vec<&str> = list
                    .iter()
                    .filter(|t| t.name == short)
                    .map(|t| t.dn.as_str())
                    .collect();
                match found[..] {
                    [dn] => row.service_profile_template = Some(dn.to_owned()),
                    [] => fail(format!("server group {group} has no template named '{short}'")),
                    _ => fail(format!(
                        "'{short}' names several templates of {group} ({}); give the one you mean",
                        found.join(", ")
                    )),
                }
            }
        }
    }
    problems
}

/// The templates of group `group`, asked of its manager (none where it keeps none).
async fn group_templates(app: &App, group: &str) -> Result<Vec<Template>> {
    let g = crate::records::server_groups::get(app, group).await?;
    let listed =
        app.managers()
            .connect_to_list(app.cipher(), &g.managed(), Capability::Templates)?;
    match listed {
        Some(m) => m.templates().await,
        None => Ok(Vec::new()),
    }
}

/// Delete one host by name.
pub async fn delete(app: &App, input: HostRef) -> Result<Host> {
    let lookup = records::which(&KIND, None, input.name.as_deref())?;
    let hosts = list(app).await?;
    if hosts.is_empty() {
        return Err(Error::not_found(
            ErrorCode::NoHosts,
            "There are no hosts to delete",
        ));
    }
    let host = records::resolve(&KIND, hosts, lookup)?;
    store::hosts::delete(app.store().writer(), host.name.as_str()).await?;
    tracing::info!(host = %host.name, "host deleted");
    Ok(host)
}
