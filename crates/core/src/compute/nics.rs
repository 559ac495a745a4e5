//! Host NICs: each selected server's network interfaces with their MACs, in the order its
//! manager lists them, so an operator can name a host's `macs` from what the server has.

use std::collections::BTreeMap;

use serde::Serialize;
use utoipa::ToSchema;

use crate::app::App;
use crate::error::Result;
use crate::managers::{Capability, HostNic, Server};

use super::{by_server, connect, select, SelectorBody};

/// One network interface of a server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct NicRecord {
    /// The manager's name of it: a UCS vNIC (`eth0`), a Redfish interface id
    /// (`NIC.Integrated.1-1-1`).
    pub name: String,
    /// Its MAC, lower case with colons, as hosts' `macs` take it.
    pub mac: String,
    /// Whether its link is up, where the manager says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link_up: Option<bool>,
}

/// NICs per server id.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct Nics {
    /// By blade id.
    pub blades: BTreeMap<String, Vec<NicRecord>>,
    /// By rack server id.
    pub rack_servers: BTreeMap<String, Vec<NicRecord>>,
    /// Servers of a domain their central manager cannot reach now: their NICs are as it last
    /// knew them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unreachable: Vec<String>,
}

fn nics_of(servers: &[&Server], nics: &[HostNic]) -> Nics {
    let by = by_server(
        servers,
        nics,
        |n| &n.server_dn,
        |n| NicRecord {
            name: n.name.clone(),
            mac: n.mac.clone(),
            link_up: n.link_up,
        },
    );
    Nics {
        blades: by.blades,
        rack_servers: by.rack_servers,
        unreachable: by.unreachable,
    }
}

/// NICs of the selected servers. On UCS a server has the MACs of the service profile
/// associated with it, so a server without one lists none.
pub async fn nics(app: &App, group: &str, which: Option<SelectorBody>) -> Result<Nics> {
    let (g, m) = connect(app, group, Capability::Inventory).await?;
    let (servers, nics) = tokio::try_join!(m.servers(), m.host_nics())?;
    let picked = select(&g, &servers, which)?;
    Ok(nics_of(&picked, &nics))
}
