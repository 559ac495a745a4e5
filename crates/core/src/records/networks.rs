//! Network groups: shared network settings installed into hosts.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::app::App;
use crate::error::{Error, Result};
use crate::records::{self, require_id, Kind, Lookup, Prefer};
use crate::store::{self, networks::NetworkRow, Conn, Named};
use crate::types::{HostOrIp, IpAddress, Name, Netmask, ProxyUrl, VlanId};
use crate::validate::Check;

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
}

/// Body of `POST`/`PUT /api/v2/networks`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct NetworkInput {
    /// Required for PUT.
    pub id: Option<String>,
    /// Name.
    #[schema(schema_with = crate::schema::name, required = true)]
    pub name: Option<String>,
    /// Netmask.
    #[schema(schema_with = crate::schema::netmask, required = true)]
    pub netmask: Option<String>,
    /// Gateway address.
    #[schema(schema_with = crate::schema::ip, required = true)]
    pub gateway: Option<String>,
    /// DNS server address.
    #[schema(schema_with = crate::schema::ip, required = true)]
    pub nameserver: Option<String>,
    /// NTP server address or name.
    #[schema(schema_with = crate::schema::host_or_ip, required = true)]
    pub ntpserver: Option<String>,
    /// Optional proxy URL.
    #[schema(schema_with = crate::schema::proxy)]
    pub proxy: Option<String>,
    /// Optional VLAN id.
    #[schema(schema_with = crate::schema::vlan_id)]
    pub vlan: Option<String>,
}

/// Body of `DELETE /api/v2/networks`: `id` or `name`.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct NetworkRef {
    /// Group id.
    pub id: Option<String>,
    /// Group name.
    pub name: Option<String>,
}

/// Check a submitted network group (create, update and the KUBAM import share these rules).
pub(crate) fn check(input: &NetworkInput, id: Uuid) -> Result<NetworkGroup> {
    let mut c = Check::default();
    let name = c.required("name", &input.name, Name::parse);
    let netmask = c.required("netmask", &input.netmask, Netmask::parse);
    let gateway = c.required("gateway", &input.gateway, IpAddress::parse);
    let nameserver = c.required("nameserver", &input.nameserver, IpAddress::parse);
    let ntpserver = c.required("ntpserver", &input.ntpserver, HostOrIp::parse);
    let proxy = c.optional("proxy", &input.proxy, ProxyUrl::parse);
    let vlan = c.optional("vlan", &input.vlan, VlanId::parse);
    c.finish(
        "invalid_network",
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
    })
}

/// How network groups are named in messages and codes.
pub(crate) const KIND: Kind = Kind {
    what: "network group",
    not_found: "network_not_found",
    invalid: "invalid_network",
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
    let net = check(&input, Uuid::new_v4())?;
    insert(&mut *app.store().writer().acquire().await?, &net).await?;
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
    let outcome = store::update(app.store().writer(), &net.to_row()).await?;
    records::written(&KIND, outcome, net.name.as_str(), id)?;
    tracing::info!(network = %net.name, "network group updated");
    Ok(net)
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
        "network_in_use",
        &net,
    )
    .await?;
    tracing::info!(network = %net.name, "network group deleted");
    Ok(net)
}
