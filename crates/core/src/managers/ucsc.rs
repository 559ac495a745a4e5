//! The UCS Central driver: one manager over several UCS domains. Central keeps service
//! profiles, templates, pools and policies globally, in UCS Manager's object model, so a
//! deploy is UCS Manager's ([`super::ucsm::Profiles`]) with servers named by domain:
//! `compute/sys-<domain>/chassis-<c>/blade-<s>`, ids `<domain>/<chassis>/<slot>` and
//! `<domain>/<rack>`, pool members that name their domain. What differs lives here: the
//! inventory carries each server's domain and whether Central reaches it, and FSM stages are
//! read from each server's domain through Central (Central keeps none of its own).

use bootsmith_ucs::Endpoint;
use futures::future::join_all;

use super::model::*;
use super::ucs::{compute_server, server, stage, UcsDriver};
use super::ucsm::{Profiles, PROFILE_CAPABILITIES};
use super::{Driver, GroupKind, Numbering};
use crate::error::Result;

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
        .map(|s| {
            let domain = s.domain.map(|id| {
                match domains.iter().find(|d| d.id == id) {
                    Some(d) => ServerDomain {
                        id,
                        name: d.name.clone(),
                        reachable: d.reachable,
                        state: d.state.clone(),
                    },
                    // Inventory of a domain no longer registered: Central cannot reach it.
                    None => ServerDomain {
                        id,
                        name: String::new(),
                        reachable: false,
                        state: "unregistered".into(),
                    },
                }
            });
            server(s, domain)
        })
        .collect())
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
