//! Network groups: shared network settings installed into hosts.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::app::App;
use crate::error::{Error, Problem, Result};
use crate::server_groups::{require_id, unique_name};
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
    c.finish("invalid_network", "The network group is invalid")?;
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

type Row = (
    String,
    String,
    String,
    String,
    String,
    String,
    Option<String>,
    Option<String>,
);

/// Every network group, ordered by name.
pub async fn list(app: &App) -> Result<Vec<NetworkGroup>> {
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT id, name, netmask, gateway, nameserver, ntpserver, proxy, vlan FROM network_groups ORDER BY name",
    )
    .fetch_all(app.store().reader())
    .await?;
    rows.into_iter()
        .map(
            |(id, name, netmask, gateway, nameserver, ntpserver, proxy, vlan)| {
                let corrupt = |what: &str| Error::Corrupt(format!("network group {name}: {what}"));
                Ok(NetworkGroup {
                    id: Uuid::parse_str(&id).map_err(|_| corrupt("id"))?,
                    netmask: Netmask::from_stored(netmask),
                    gateway: IpAddress::parse(&gateway).map_err(|_| corrupt("gateway"))?,
                    nameserver: IpAddress::parse(&nameserver).map_err(|_| corrupt("nameserver"))?,
                    ntpserver: HostOrIp::from_stored(ntpserver),
                    proxy: proxy.map(ProxyUrl::from_stored),
                    vlan: vlan.map(VlanId::from_stored),
                    name: Name::from_stored(name),
                })
            },
        )
        .collect()
}

/// One network group by name, or `network_not_found`.
pub async fn get(app: &App, name: &str) -> Result<NetworkGroup> {
    list(app)
        .await?
        .into_iter()
        .find(|n| n.name.as_str() == name)
        .ok_or_else(|| {
            Error::not_found(
                "network_not_found",
                format!("There is no network group named '{name}'"),
            )
        })
}

/// Create a network group.
pub async fn create(app: &App, input: NetworkInput) -> Result<NetworkGroup> {
    let net = check(&input, Uuid::new_v4())?;
    insert(&mut *app.store().writer().acquire().await?, &net).await?;
    tracing::info!(network = %net.name, "network group created");
    Ok(net)
}

/// Store a checked network group: the one insert of create and the KUBAM import.
pub(crate) async fn insert(conn: &mut sqlx::SqliteConnection, net: &NetworkGroup) -> Result<()> {
    let res = bind_all(sqlx::query(
        "INSERT INTO network_groups (name, netmask, gateway, nameserver, ntpserver, proxy, vlan, id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    ), net)
    .execute(conn)
    .await;
    unique_name(res, &net.name)
}

/// Update the network group with `id`; a rename follows through to its hosts.
pub async fn update(app: &App, input: NetworkInput) -> Result<NetworkGroup> {
    let id = require_id(input.id.as_deref())?;
    let net = check(&input, id)?;
    let res = bind_all(sqlx::query(
        "UPDATE network_groups SET name = ?, netmask = ?, gateway = ?, nameserver = ?, ntpserver = ?, proxy = ?, vlan = ? WHERE id = ?",
    ), &net)
    .execute(app.store().writer())
    .await;
    if res.as_ref().is_ok_and(|r| r.rows_affected() == 0) {
        return Err(Error::not_found(
            "network_not_found",
            format!("There is no network group with id {id}"),
        ));
    }
    unique_name(res, &net.name)?;
    tracing::info!(network = %net.name, "network group updated");
    Ok(net)
}

fn bind_all<'q>(
    q: sqlx::query::Query<'q, sqlx::Sqlite, sqlx::sqlite::SqliteArguments<'q>>,
    n: &'q NetworkGroup,
) -> sqlx::query::Query<'q, sqlx::Sqlite, sqlx::sqlite::SqliteArguments<'q>> {
    q.bind(n.name.as_str())
        .bind(n.netmask.as_str())
        .bind(n.gateway.to_string())
        .bind(n.nameserver.to_string())
        .bind(n.ntpserver.as_str())
        .bind(n.proxy.as_ref().map(|p| p.as_str()))
        .bind(n.vlan.as_ref().map(|v| v.as_str()))
        .bind(n.id.to_string())
}

/// Delete a network group by `id` or `name`; refused while hosts use it.
pub async fn delete(app: &App, input: NetworkRef) -> Result<NetworkGroup> {
    let all = list(app).await?;
    let net = match (
        input.id.as_deref().filter(|s| !s.is_empty()),
        input.name.as_deref().filter(|s| !s.is_empty()),
    ) {
        (Some(id), _) => {
            let id = require_id(Some(id))?;
            all.into_iter().find(|n| n.id == id).ok_or_else(|| {
                Error::not_found(
                    "network_not_found",
                    format!("There is no network group with id {id}"),
                )
            })?
        }
        (None, Some(name)) => all
            .into_iter()
            .find(|n| n.name.as_str() == name)
            .ok_or_else(|| {
                Error::not_found(
                    "network_not_found",
                    format!("There is no network group named '{name}'"),
                )
            })?,
        (None, None) => {
            return Err(Error::invalid(
                "invalid_network",
                "Say which network group to delete",
                vec![Problem::field("id", "give the id or the name")],
            ))
        }
    };
    let mut tx = app.store().writer().begin().await?;
    let users: Vec<String> =
        sqlx::query_scalar("SELECT name FROM hosts WHERE network_group = ? ORDER BY position")
            .bind(net.name.as_str())
            .fetch_all(&mut *tx)
            .await?;
    if !users.is_empty() {
        return Err(Error::conflict(
            "network_in_use",
            format!(
                "Network group '{}' is used by hosts {}; move or delete them first",
                net.name,
                users.join(", ")
            ),
        ));
    }
    sqlx::query("DELETE FROM network_groups WHERE id = ?")
        .bind(net.id.to_string())
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    tracing::info!(network = %net.name, "network group deleted");
    Ok(net)
}
