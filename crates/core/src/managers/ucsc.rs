//! The UCS Central driver: one manager over several UCS domains. Central keeps service
//! profiles, templates, pools and policies globally, in UCS Manager's object model, so a
//! deploy is UCS Manager's ([`super::ucsm::Profiles`]) with servers named by domain:
//! `compute/sys-<domain>/chassis-<c>/blade-<s>`, ids `<domain>/<chassis>/<slot>` and
//! `<domain>/<rack>`, pool members that name their domain. What differs lives here: the
//! inventory carries each server's domain and whether Central reaches it, and FSM stages are
//! read from each server's domain through Central (Central keeps none of its own).

use bootsmith_ucs::{CentralDomain, Endpoint};
use futures::future::join_all;

use super::model::*;
use super::ucs::{compute_server, server, stage, UcsDriver};
use super::ucsm::{Profiles, PROFILE_CAPABILITIES};
use super::{Driver, GroupKind, Numbering};
use crate::error::Result;
use bootsmith_model::types::NodeId;

/// UCS Central: everything UCS Manager can do, across its domains.
pub(super) const DRIVER: Driver = Driver {
    kind: GroupKind::Ucsc,
    numbering: Numbering::Central,
    capabilities: PROFILE_CAPABILITIES,
    connect: UcsDriver::<Ucsc>::connect,
};

/// The UCS Central dialect.
type Ucsc = Profiles<true>;

/// Every server of every registered domain, each with its domain: two requests (the
/// servers, and the domains with their registration state), sent together.
pub(super) async fn servers(ep: &Endpoint) -> Result<Vec<Server>> {
    let (servers, domains) = tokio::join!(ep.servers(), ep.central_domains());
    let (servers, domains) = (servers?, domains?);
    Ok(servers
        .iter()
        .map(|s| server(s, s.domain.map(|id| domain_of(id, &domains))))
        .collect())
}

/// Domain `id` as Central reports it; one no longer registered is one Central cannot reach.
fn domain_of(id: u32, domains: &[CentralDomain]) -> ServerDomain {
    match domains.iter().find(|d| d.id == id) {
        Some(d) => ServerDomain {
            id,
            name: d.name.clone(),
            reachable: d.reachable,
            state: d.state.clone(),
            last_read: d.last_read.clone(),
        },
        None => ServerDomain {
            id,
            name: String::new(),
            reachable: false,
            state: "unregistered".into(),
            last_read: None,
        },
    }
}

/// A server a host or the group's selection names, as operators name it, with its domain.
/// Under Central a host's two-part id is `<domain>/<rack>`.
fn named(n: &NodeId) -> Option<(u32, String)> {
    match n {
        NodeId::Blade(b) => match b.domain {
            Some(d) => Some((d, format!("blade {n}"))),
            None => Some((b.chassis, format!("rack server {}/{}", b.chassis, b.slot))),
        },
        NodeId::Rack(r) => Some((r.domain?, format!("rack server {n}"))),
    }
}

/// Refuse (409 `domain_unreachable`) a run that would bind a host to, or (a deploy) pool, a
/// server of a domain Central cannot reach now, or (a media run) point the profile of a host
/// bound to one at new media. Central would accept the objects and apply them to the domain
/// whenever it comes back (an install nobody is watching), so the whole run is refused before
/// anything is written, naming the servers and the hosts.
pub(super) async fn refuse_lost_domains(
    ep: &Endpoint,
    spec: &DeploySpec,
    what: What,
) -> Result<()> {
    let mut touched: Vec<(u32, String)> = spec
        .hosts
        .iter()
        .filter_map(|h| {
            let (d, words) = named(h.server.as_ref()?)?;
            Some((d, format!("{words} (host {})", h.name)))
        })
        .collect();
    let pooled = spec
        .hosts
        .iter()
        .any(|h| h.service_profile_template.is_none() && h.server.is_none());
    if what == What::Deploy && pooled {
        let pool = &spec.group.server_pool;
        let ids = pool
            .blades
            .iter()
            .map(|b| NodeId::Blade(*b))
            .chain(pool.rack_servers.iter().map(|r| NodeId::Rack(*r)));
        touched.extend(
            ids.filter_map(|n| named(&n))
                .map(|(d, w)| (d, format!("{w} (selected for the pool)"))),
        );
    }
    if touched.is_empty() {
        return Ok(());
    }
    let domains = ep.central_domains().await?;
    let known: Vec<ServerDomain> = domains.iter().map(|d| domain_of(d.id, &domains)).collect();
    let lost: Vec<(String, &ServerDomain)> = touched
        .into_iter()
        .filter_map(|(id, words)| {
            let d = known.iter().find(|d| d.id == id && !d.reachable)?;
            Some((words, d))
        })
        .collect();
    if lost.is_empty() {
        return Ok(());
    }
    Err(domain_unreachable(
        spec.group.name.as_str(),
        match what {
            What::Deploy => "deploy",
            What::Media => "set up install media",
        },
        &lost,
        "Bind those hosts to servers of a domain it reaches, or leave those servers out of the group's selection, or deploy again once the manager reads the domain again",
    ))
}

/// Refuse (409 `domain_unreachable`) removing a group's deploy while a service profile it
/// made runs on a server of a domain Central cannot reach now: Central would accept the
/// removal and take the profile off that server whenever the domain comes back (a server
/// that loses its identity, unwatched), so nothing is sent, naming the servers and profiles.
pub(super) async fn refuse_lost_removal(
    ep: &Endpoint,
    group: &str,
    recorded: &[Recorded],
) -> Result<()> {
    let profiles: Vec<&str> = recorded
        .iter()
        .filter(|r| r.class == "lsServer")
        .map(|r| r.dn.as_str())
        .collect();
    if profiles.is_empty() {
        return Ok(());
    }
    let servers = servers(ep).await?;
    let lost: Vec<(String, &ServerDomain)> = servers
        .iter()
        .filter(|s| !s.reachable() && profiles.contains(&s.service_profile.as_str()))
        .filter_map(|s| {
            let words = format!("{} (service profile {})", s.words(), s.service_profile);
            Some((words, s.domain.as_ref()?))
        })
        .collect();
    if lost.is_empty() {
        return Ok(());
    }
    Err(domain_unreachable(
        group,
        "remove what its deploys created",
        &lost,
        "Remove it once the manager reads the domain again",
    ))
}

/// FSM stages of the servers, each read from its domain through Central: one request per
/// server, as many at a time as the connection allows.
pub(super) async fn stages(ep: &Endpoint, servers: &[&Server]) -> Result<Vec<Stage>> {
    let reads = servers.iter().map(|s| {
        let cs = compute_server(s);
        async move { ep.central_fsm_stages(&cs).await }
    });
    let mut out = Vec::new();
    for stages in join_all(reads).await {
        out.extend(stages?.into_iter().map(stage));
    }
    Ok(out)
}
