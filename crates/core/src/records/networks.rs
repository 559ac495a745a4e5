//! Network groups: shared network settings installed into hosts.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::app::App;
use crate::error::{Error, ErrorCode, Problem, Result};
use crate::records::params;
use crate::records::{self, require_id, Kind, Lookup, Prefer};
use crate::secrets::Cipher;
use bootsmith_model::network::{self, Bond, Ipv4Link, Ipv6Gateway, Mtu, Route};
use bootsmith_model::params::{ParamSchema, Params};
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
    /// MTU of its hosts' interfaces, when not the NIC's own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mtu: Option<Mtu>,
    /// The bond its hosts make of the NICs they name (two or more `macs`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bond: Option<Bond>,
    /// Static routes, besides the default one through `gateway`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(required = false)]
    pub routes: Vec<Route>,
    /// IPv6 default gateway, for hosts with an `ipv6` address.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ipv6_gateway: Option<Ipv6Gateway>,
    /// Template parameters of its hosts, under their server groups' and their own.
    #[serde(skip_serializing_if = "Params::is_empty")]
    #[schema(value_type = Option<std::collections::BTreeMap<String, ParamSchema>>)]
    pub params: Params,
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
    /// Optional MTU of the hosts' interfaces in bytes, 576 to 9216; left out: the NIC's own.
    #[serde(default)]
    #[schema(value_type = Option<Mtu>)]
    pub mtu: Option<serde_json::Value>,
    /// Optional bond of the hosts' NICs (`{"mode": "802.3ad", "lacp_rate": "fast"}`); left
    /// out: no bond.
    #[serde(default)]
    #[schema(value_type = Option<Bond>)]
    pub bond: Option<serde_json::Value>,
    /// Optional static routes (`[{"to": "10.0.0.0/8", "via": "192.0.2.1"}]`), at most 64; an
    /// IPv4 router must lie in the group's subnet (its gateway's network under its netmask).
    #[serde(default)]
    #[schema(value_type = Option<Vec<Route>>, max_items = 64)]
    pub routes: Option<serde_json::Value>,
    /// Optional IPv6 default gateway (a link-local one like fe80::1 is taken).
    #[serde(default)]
    #[schema(value_type = Option<Ipv6Gateway>)]
    pub ipv6_gateway: Option<String>,
    /// Template parameters of its hosts (`{"timezone": "UTC"}`, a secret as
    /// `{"key": {"value": "…", "secret": true}}`), under their server groups' and their own.
    #[serde(default)]
    #[schema(value_type = Option<std::collections::BTreeMap<String, ParamSchema>>)]
    pub params: Option<serde_json::Value>,
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

/// Check a submitted network group (create, update and the KUBAM import share these rules);
/// `before` is its stored parameters, whose secrets a masked one sent back keeps.
pub(crate) fn check(
    input: &NetworkInput,
    id: Uuid,
    cipher: &Cipher,
    before: &Params,
) -> Result<NetworkGroup> {
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
    let mtu = network::mtu(&mut c, "mtu", input.mtu.as_ref());
    let bond = network::bond(&mut c, "bond", input.bond.as_ref());
    // A route's IPv4 router must be on the hosts' subnet; while the fields that say which
    // subnet have problems of their own, the routers are not held to a guess.
    let link = match (&gateway, &netmask, subnet) {
        (Some(gw), Some(mask), Some(net)) => Ipv4Link::of(gw, mask, net),
        _ => Ipv4Link::Unknown,
    };
    let routes = network::routes(&mut c, "routes", input.routes.as_ref(), &link);
    let ipv6_gateway = c.optional("ipv6_gateway", &input.ipv6_gateway, Ipv6Gateway::parse);
    let params = params::keep(&mut c, cipher, "params", input.params.as_ref(), before);
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
        mtu: mtu.expect("checked"),
        bond: bond.expect("checked"),
        routes: routes.expect("checked"),
        ipv6_gateway: ipv6_gateway.expect("checked"),
        params: params.expect("checked"),
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
            mtu: r
                .mtu
                .map(|m| Mtu::parse(&m.into()))
                .transpose()
                .map_err(|_| corrupt("mtu"))?,
            bond: stored_json(r.bond.as_deref()).map_err(|e| corrupt(&format!("bond: {e}")))?,
            routes: stored_json(r.routes.as_deref())
                .map_err(|e| corrupt(&format!("routes: {e}")))?
                .unwrap_or_default(),
            ipv6_gateway: r
                .ipv6_gateway
                .as_deref()
                .map(Ipv6Gateway::parse)
                .transpose()
                .map_err(|_| corrupt("ipv6_gateway"))?,
            params: params::stored(r.params.as_deref(), &format!("network group {}", r.name))?,
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
            mtu: self.mtu.map(|m| i64::from(m.get())),
            bond: self.bond.as_ref().map(to_json),
            routes: (!self.routes.is_empty()).then(|| to_json(&self.routes)),
            ipv6_gateway: self.ipv6_gateway.as_ref().map(ToString::to_string),
            params: self.params.to_stored(),
        }
    }
}

/// A value as its column holds it: JSON text.
pub(crate) fn to_json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("words, numbers and addresses serialize")
}

/// A value read back from its JSON column (none for NULL); the reason when it no longer reads.
pub(crate) fn stored_json<T: serde::de::DeserializeOwned>(
    text: Option<&str>,
) -> std::result::Result<Option<T>, String> {
    text.map(serde_json::from_str::<T>)
        .transpose()
        .map_err(|e| e.to_string())
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
    let net = check(&input, Uuid::new_v4(), app.cipher(), &Params::default())?;
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
    let before = list(app)
        .await?
        .into_iter()
        .find(|n| n.id == id)
        .map(|n| n.params)
        .unwrap_or_default();
    let net = check(&input, id, app.cipher(), &before)?;
    let mut tx = app.store().begin().await?;
    hosts_outside(&mut tx, &net, id).await?;
    let outcome = store::update(&mut *tx, &net.to_row()).await?;
    records::written(&KIND, outcome, net.name.as_str(), id)?;
    tx.commit().await?;
    tracing::info!(network = %net.name, "network group updated");
    Ok(net)
}

/// Refuse a subnet that leaves out addresses of hosts already in the group, and an IPv6
/// gateway their IPv6 addresses cannot reach (the group found by its stored name, which a
/// rename in the same update has not changed yet).
async fn hosts_outside(conn: &mut Conn, net: &NetworkGroup, id: Uuid) -> Result<()> {
    if net.subnet.is_none() && net.ipv6_gateway.is_none() {
        return Ok(());
    }
    let stored = store::list::<NetworkRow>(&mut *conn).await?;
    let Some(old) = stored.iter().find(|r| r.id == id.to_string()) else {
        return Ok(());
    };
    let hosts = crate::records::hosts::list_in(conn).await?;
    let members = hosts
        .iter()
        .filter(|h| h.network_group.as_str() == old.name);
    let mut problems = Vec::new();
    for h in members {
        if let Some(subnet) = net.subnet.filter(|s| !s.contains(&h.ip.0)) {
            problems.push(Problem::field(
                "subnet",
                format!(
                    "host {} has the address {}, which is not in {subnet}",
                    h.name, h.ip
                ),
            ));
        }
        if let (Some(gw), Some(v6)) = (&net.ipv6_gateway, &h.ipv6) {
            if let Some(why) = network::gateway_misfit(v6, gw, net.name.as_str()) {
                problems.push(Problem::field(
                    "ipv6_gateway",
                    format!("host {} (ipv6 {v6}): {why}", h.name),
                ));
            }
        }
    }
    if problems.is_empty() {
        return Ok(());
    }
    let lines: Vec<String> = problems.iter().map(|p| p.message.clone()).collect();
    let (what, instead) = match (net.subnet, &net.ipv6_gateway) {
        (Some(s), None) => (format!("the subnet {s}"), "a subnet that holds them"),
        (None, Some(g)) => (
            format!("the IPv6 gateway {g}"),
            "an IPv6 gateway in their prefix (or a link-local one)",
        ),
        (Some(s), Some(g)) => (
            format!("the subnet {s} and the IPv6 gateway {g}"),
            "a subnet and an IPv6 gateway that fit them",
        ),
        (None, None) => unreachable!("returned above"),
    };
    Err(Error::Unprocessable {
        code: ErrorCode::HostsOutsideSubnet,
        message: format!(
            "Network group {} cannot take {what}: {}; change those hosts on the Hosts screen first, or choose {instead}",
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
