//! Network groups: shared network settings installed into hosts.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::app::App;
use crate::error::{Error, ErrorCode, Problem, Result};
use crate::records::{self, require_id, Kind, Lookup, Prefer};
use bootsmith_model::types::{HostOrIp, IpAddress, Name, Netmask, ProxyUrl, Subnet, VlanId};
use bootsmith_model::validate::Check;
use bootsmith_store::{self as store, networks::NetworkRow, Conn, Named};

/// A network group as stored and returned.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct NetworkGroup {
    /// Id assigned by the service.
    pub id: Uuid,
    /// Unique name hosts refer to.
    #[schema(value_type = String)]
    pub name: Name,
    /// Netmask (dotted or prefix length).
    #[schema(value_type = String)]
    pub netmask: Netmask,
    /// Default gateway.
    #[schema(value_type = String)]
    pub gateway: IpAddress,
    /// DNS server.
    #[schema(value_type = String)]
    pub nameserver: IpAddress,
    /// NTP server (address or name).
    #[schema(value_type = String)]
    pub ntpserver: HostOrIp,
    /// HTTP proxy for post-install steps.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>)]
    pub proxy: Option<ProxyUrl>,
    /// VLAN id for ESXi management when the NIC has no native VLAN.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>)]
    pub vlan: Option<VlanId>,
    /// The subnet its hosts' addresses and its gateway lie in (CIDR), when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>)]
    pub subnet: Option<Subnet>,
}

/// Body of `POST`/`PUT /api/v2/networks`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct NetworkInput {
    /// Required for PUT.
    pub id: Option<String>,
    /// Name.
    #[schema(schema_with = bootsmith_model::schema::name, required = true)]
    pub name: Option<String>,
    /// Netmask; required unless `subnet` is given, which implies it.
    #[schema(schema_with = bootsmith_model::schema::netmask)]
    pub netmask: Option<String>,
    /// Gateway address.
    #[schema(schema_with = bootsmith_model::schema::ip, required = true)]
    pub gateway: Option<String>,
    /// DNS server address.
    #[schema(schema_with = bootsmith_model::schema::ip, required = true)]
    pub nameserver: Option<String>,
    /// NTP server address or name.
    #[schema(schema_with = bootsmith_model::schema::host_or_ip, required = true)]
    pub ntpserver: Option<String>,
    /// Optional proxy URL.
    #[schema(schema_with = bootsmith_model::schema::proxy)]
    pub proxy: Option<String>,
    /// Optional VLAN id.
    #[schema(schema_with = bootsmith_model::schema::vlan_id)]
    pub vlan: Option<String>,
    /// Optional subnet (CIDR, like 192.0.2.0/24): host addresses and the gateway must lie in it.
    #[serde(default)]
    #[schema(schema_with = bootsmith_model::schema::subnet)]
    pub subnet: Option<String>,
}

/// Body of `DELETE /api/v2/networks`: the group's `id` or its `name`, at least one (an empty
/// one counts as left out); when both are sent, the id decides.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct NetworkRef {
    /// Group id.
    #[schema(format = Uuid)]
    pub id: Option<String>,
    /// Group name.
    pub name: Option<String>,
}

/// Check a submitted network group (create, update and the KUBAM import share these rules).
pub(crate) fn check(input: &NetworkInput, id: Uuid) -> Result<NetworkGroup> {
    let mut c = Check::default();
    let name = c.required("name", &input.name, Name::parse);
    let subnet = c.optional("subnet", &input.subnet, Subnet::parse);
    // A subnet says its netmask: asking for both only invites them to disagree.
    let implied = subnet
        .flatten()
        .filter(|_| input.netmask.as_deref().is_none_or(|m| m.trim().is_empty()));
    let netmask = match implied {
        Some(net) => Some(net.netmask()),
        None => c.required("netmask", &input.netmask, Netmask::parse),
    };
    let gateway = c.required("gateway", &input.gateway, IpAddress::parse);
    let nameserver = c.required("nameserver", &input.nameserver, IpAddress::parse);
    let ntpserver = c.required("ntpserver", &input.ntpserver, HostOrIp::parse);
    let proxy = c.optional("proxy", &input.proxy, ProxyUrl::parse);
    let vlan = c.optional("vlan", &input.vlan, VlanId::parse);
    if let Some(Some(net)) = subnet {
        if let Some(gw) = &gateway {
            if !net.contains(&gw.0) {
                c.fail(
                    "gateway",
                    format!("the gateway {gw} is not in the subnet {net}"),
                );
            }
        }
        if let Some(mask) = &netmask {
            if mask.prefix_len() != net.prefix_len() {
                c.fail(
                    "subnet",
                    format!(
                        "the subnet {net} is a /{} but the netmask {mask} is a /{}; make them agree",
                        net.prefix_len(),
                        mask.prefix_len()
                    ),
                );
            }
        }
    }
    c.finish(
        ErrorCode::InvalidNetwork,
        &records::invalid_what("network group", &input.name),
    )?;
    Ok(NetworkGroup {
        id,
        name: name.expect("checked"),
        netmask: netmask.expect("checked"),
        gateway: gateway.expect("checked"),
        nameserver: nameserver.expect("checked"),
        ntpserver: ntpserver.expect("checked"),
        proxy: proxy.expect("checked"),
        vlan: vlan.expect("checked"),
        subnet: subnet.expect("checked"),
    })
}

/// How network groups are named in messages and codes.
pub(crate) const KIND: Kind = Kind {
    what: "network group",
    not_found: ErrorCode::NetworkNotFound,
    invalid: ErrorCode::InvalidNetwork,
    prefer: Prefer::Id,
    names_ignore_case: false,
};

records::with_id!(NetworkGroup);

impl NetworkGroup {
    fn from_row(r: NetworkRow) -> Result<Self> {
        let corrupt = |what: &str| Error::Corrupt(format!("network group {}: {what}", r.name));
        Ok(NetworkGroup {
            id: Uuid::parse_str(&r.id).map_err(|_| corrupt("id"))?,
            gateway: IpAddress::parse(&r.gateway).map_err(|_| corrupt("gateway"))?,
            nameserver: IpAddress::parse(&r.nameserver).map_err(|_| corrupt("nameserver"))?,
            netmask: Netmask::from_stored(r.netmask),
            ntpserver: HostOrIp::from_stored(r.ntpserver),
            proxy: r.proxy.map(ProxyUrl::from_stored),
            vlan: r.vlan.map(VlanId::from_stored),
            subnet: r
                .subnet
                .as_deref()
                .map(Subnet::parse)
                .transpose()
                .map_err(|_| corrupt("subnet"))?,
            name: Name::from_stored(r.name),
        })
    }

    fn to_row(&self) -> NetworkRow {
        NetworkRow {
            id: self.id.to_string(),
            name: self.name.to_string(),
            netmask: self.netmask.to_string(),
            gateway: self.gateway.to_string(),
            nameserver: self.nameserver.to_string(),
            ntpserver: self.ntpserver.to_string(),
            proxy: self.proxy.as_ref().map(ToString::to_string),
            vlan: self.vlan.as_ref().map(ToString::to_string),
            subnet: self.subnet.as_ref().map(ToString::to_string),
        }
    }
}

/// Every network group, ordered by name.
pub async fn list(app: &App) -> Result<Vec<NetworkGroup>> {
    store::list::<NetworkRow>(app.store().reader())
        .await?
        .into_iter()
        .map(NetworkGroup::from_row)
        .collect()
}

/// One network group by name, or `network_not_found`.
pub async fn get(app: &App, name: &str) -> Result<NetworkGroup> {
    records::resolve(&KIND, list(app).await?, Lookup::Name(name))
}

/// Create a network group.
pub async fn create(app: &App, input: NetworkInput) -> Result<NetworkGroup> {
    records::no_id_on_create(&KIND, input.id.as_deref())?;
    let net = check(&input, Uuid::new_v4())?;
    insert(&mut *app.store().writing().await?, &net).await?;
    tracing::info!(network = %net.name, "network group created");
    Ok(net)
}

/// Store a checked network group: the one insert of create and the KUBAM import.
pub(crate) async fn insert(conn: &mut Conn, net: &NetworkGroup) -> Result<()> {
    let outcome = store::insert(conn, &net.to_row()).await?;
    records::written(&KIND, outcome, net.name.as_str(), net.id)
}

/// Update the network group with `id`; a rename follows through to its hosts.
pub async fn update(app: &App, input: NetworkInput) -> Result<NetworkGroup> {
    let id = require_id(input.id.as_deref())?;
    let net = check(&input, id)?;
    let mut tx = app.store().begin().await?;
    hosts_outside(&mut tx, &net, id).await?;
    let outcome = store::update(&mut *tx, &net.to_row()).await?;
    records::written(&KIND, outcome, net.name.as_str(), id)?;
    tx.commit().await?;
    tracing::info!(network = %net.name, "network group updated");
    Ok(net)
}

/// Refuse a subnet that leaves out addresses of hosts already in the group (found by its
/// stored name, which a rename in the same update has not changed yet).
async fn hosts_outside(conn: &mut Conn, net: &NetworkGroup, id: Uuid) -> Result<()> {
    let Some(subnet) = net.subnet else {
        return Ok(());
    };
    let stored = store::list::<NetworkRow>(&mut *conn).await?;
    let Some(old) = stored.iter().find(|r| r.id == id.to_string()) else {
        return Ok(());
    };
    let problems: Vec<Problem> = crate::records::hosts::list_in(conn)
        .await?
        .iter()
        .filter(|h| h.network_group.as_str() == old.name && !subnet.contains(&h.ip.0))
        .map(|h| {
            Problem::field(
                "subnet",
                format!(
                    "host {} has the address {}, which is not in {subnet}",
                    h.name, h.ip
                ),
            )
        })
        .collect();
    if problems.is_empty() {
        return Ok(());
    }
    let lines: Vec<String> = problems.iter().map(|p| p.message.clone()).collect();
    Err(Error::Unprocessable {
        code: ErrorCode::HostsOutsideSubnet,
        message: format!(
            "Network group {} cannot take the subnet {subnet}: {}; change those hosts on the Hosts screen first, or choose a subnet that holds them",
            net.name,
            lines.join("; ")
        ),
        details: problems,
    })
}

/// Delete a network group by `id` or `name`; refused while hosts use it.
pub async fn delete(app: &App, input: NetworkRef) -> Result<NetworkGroup> {
    let lookup = records::which(
        &KIND,
        input.id.as_deref().filter(|s| !s.is_empty()),
        input.name.as_deref(),
    )?;
    let net = records::resolve(&KIND, list(app).await?, lookup)?;
    records::delete_unless_used(
        app.store(),
        &KIND,
        Named::NetworkGroups,
        ErrorCode::NetworkInUse,
        &net,
    )
    .await?;
    tracing::info!(network = %net.name, "network group deleted");
    Ok(net)
}
