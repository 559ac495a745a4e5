//! The `network_groups` table: shared network settings, named for the hosts that use them.

use sqlx::Executor;

use super::{written, Db, Written};
use crate::error::Result;

/// A network group's columns, as stored (values checked by `crate::networks` before writing).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct NetworkRow {
    /// UUID, as text.
    pub id: String,
    /// Unique name hosts refer to.
    pub name: String,
    /// Netmask, dotted or prefix length.
    pub netmask: String,
    /// Default gateway address.
    pub gateway: String,
    /// DNS server address.
    pub nameserver: String,
    /// NTP server, address or name.
    pub ntpserver: String,
    /// HTTP proxy URL.
    pub proxy: Option<String>,
    /// VLAN id.
    pub vlan: Option<String>,
}

/// Every network group, ordered by name.
pub async fn list<'c>(db: impl Executor<'c, Database = Db>) -> Result<Vec<NetworkRow>> {
    Ok(sqlx::query_as(
        "SELECT id, name, netmask, gateway, nameserver, ntpserver, proxy, vlan FROM network_groups ORDER BY name",
    )
    .fetch_all(db)
    .await?)
}

/// Store a new network group; [`Written::NameTaken`] when its name is.
pub async fn insert<'c>(db: impl Executor<'c, Database = Db>, n: &NetworkRow) -> Result<Written> {
    written(
        bound("INSERT INTO network_groups (id, name, netmask, gateway, nameserver, ntpserver, proxy, vlan) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)", n)
        .execute(db)
        .await,
    )
}

/// Overwrite the group with `n.id` (a rename reaches its hosts through `ON UPDATE CASCADE`);
/// [`Written::Missing`] when there is none, [`Written::NameTaken`] when the new name is taken.
pub async fn update<'c>(db: impl Executor<'c, Database = Db>, n: &NetworkRow) -> Result<Written> {
    written(
        bound("UPDATE network_groups SET name = $2, netmask = $3, gateway = $4, nameserver = $5, ntpserver = $6, proxy = $7, vlan = $8 WHERE id = $1", n)
        .execute(db)
        .await,
    )
}

/// The statement with the row's columns bound in the order both the insert and the update
/// number them (`$1` is the id).
fn bound<'q>(
    sql: &'q str,
    n: &'q NetworkRow,
) -> sqlx::query::Query<'q, Db, <Db as sqlx::Database>::Arguments<'q>> {
    sqlx::query(sql)
        .bind(&n.id)
        .bind(&n.name)
        .bind(&n.netmask)
        .bind(&n.gateway)
        .bind(&n.nameserver)
        .bind(&n.ntpserver)
        .bind(&n.proxy)
        .bind(&n.vlan)
}
