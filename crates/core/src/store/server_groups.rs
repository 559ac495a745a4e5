//! The `server_groups` table (a manager and its login data) and `server_group_servers` (the
//! servers selected in each group for deployment).

use sqlx::Executor;

use super::{written, Conn, Db, Written};
use crate::error::Result;

/// A server group's columns, as stored (values checked by `crate::server_groups` first).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct GroupRow {
    /// UUID, as text.
    pub id: String,
    /// Unique name hosts refer to.
    pub name: String,
    /// `ucsm`, `imc` or `ucsc`.
    pub kind: String,
    /// Manager address.
    pub address: String,
    /// Login user.
    pub username: String,
    /// Encrypted password, or `""` when none is known yet.
    pub password_enc: String,
    /// UCS VLAN name.
    pub vlan: Option<String>,
    /// Skip certificate verification.
    pub insecure: bool,
    /// Pinned certificate fingerprint.
    pub fingerprint: Option<String>,
    /// Free text.
    pub description: Option<String>,
    /// UCS org DN of deploys.
    pub org: Option<String>,
}

/// One selected server of a group.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Pick {
    /// The group's id.
    pub group_id: String,
    /// `blade` or `rack`.
    pub kind: String,
    /// Its id in the manager (`1/3`, `2`).
    pub server: String,
}

/// Every server group, ordered by name.
pub async fn list<'c>(db: impl Executor<'c, Database = Db>) -> Result<Vec<GroupRow>> {
    Ok(sqlx::query_as(
        "SELECT id, name, kind, address, username, password_enc, vlan, insecure, fingerprint, description, org FROM server_groups ORDER BY name",
    )
    .fetch_all(db)
    .await?)
}

/// The selected servers of every group, in selection order.
pub async fn picks<'c>(db: impl Executor<'c, Database = Db>) -> Result<Vec<Pick>> {
    Ok(
        sqlx::query_as("SELECT group_id, kind, server FROM server_group_servers ORDER BY position")
            .fetch_all(db)
            .await?,
    )
}

/// Store a new group; [`Written::NameTaken`] when its name is.
pub async fn insert<'c>(db: impl Executor<'c, Database = Db>, g: &GroupRow) -> Result<Written> {
    written(
        bound("INSERT INTO server_groups (id, name, kind, address, username, password_enc, vlan, insecure, fingerprint, description, org) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)", g)
        .execute(db)
        .await,
    )
}

/// Overwrite the group with `g.id` (a rename reaches its hosts through `ON UPDATE CASCADE`);
/// [`Written::Missing`] when there is none, [`Written::NameTaken`] when the new name is taken.
pub async fn update<'c>(db: impl Executor<'c, Database = Db>, g: &GroupRow) -> Result<Written> {
    written(
        bound("UPDATE server_groups SET name = $2, kind = $3, address = $4, username = $5, password_enc = $6, vlan = $7, insecure = $8, fingerprint = $9, description = $10, org = $11 WHERE id = $1", g)
        .execute(db)
        .await,
    )
}

/// Replace the selection of the group with `id` by `servers`: `(kind, server)` in order.
pub async fn select(conn: &mut Conn, id: &str, servers: &[(&str, String)]) -> Result<()> {
    sqlx::query("DELETE FROM server_group_servers WHERE group_id = $1")
        .bind(id)
        .execute(&mut *conn)
        .await?;
    for (i, (kind, server)) in servers.iter().enumerate() {
        sqlx::query(
            "INSERT INTO server_group_servers (group_id, kind, server, position) VALUES ($1, $2, $3, $4)",
        )
        .bind(id)
        .bind(kind)
        .bind(server)
        .bind(i as i64)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// The statement with the row's columns bound in the order both the insert and the update
/// number them (`$1` is the id).
fn bound<'q>(
    sql: &'q str,
    g: &'q GroupRow,
) -> sqlx::query::Query<'q, Db, <Db as sqlx::Database>::Arguments<'q>> {
    sqlx::query(sql)
        .bind(&g.id)
        .bind(&g.name)
        .bind(&g.kind)
        .bind(&g.address)
        .bind(&g.username)
        .bind(&g.password_enc)
        .bind(&g.vlan)
        .bind(g.insecure)
        .bind(&g.fingerprint)
        .bind(&g.description)
        .bind(&g.org)
}
