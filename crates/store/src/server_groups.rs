//! The `server_groups` table (a manager and its login data) and `server_group_servers` (the
//! servers selected in each group for deployment).

use sqlx::Executor;

use super::{Conn, Db, Named, NamedRow, Query};
use crate::error::Result;

/// A server group's columns, as stored (values checked by the core's `server_groups` first).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct GroupRow {
    /// UUID, as text.
    pub id: String,
    /// Unique name hosts refer to.
    pub name: String,
    /// `ucsm`, `imc`, `ucsc` or `redfish`.
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
    /// A Redfish group's further BMCs (after the one in the login columns), as JSON.
    pub bmcs: Option<String>,
    /// The install disk's hint for the group's hosts, as JSON.
    pub install_disk: Option<String>,
    /// The template parameters of the group's hosts, as JSON (secrets encrypted).
    pub params: Option<String>,
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

/// The selected servers of every group, in selection order.
pub async fn picks<'c>(db: impl Executor<'c, Database = Db>) -> Result<Vec<Pick>> {
    Ok(
        sqlx::query_as("SELECT group_id, kind, server FROM server_group_servers ORDER BY position")
            .fetch_all(db)
            .await?,
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

// A rename reaches the group's hosts through `ON UPDATE CASCADE`.
impl NamedRow for GroupRow {
    const TABLE: Named = Named::ServerGroups;
    const COLUMNS: &'static str = "id, name, kind, address, username, password_enc, vlan, insecure, fingerprint, description, org, bmcs, install_disk, params";

    fn bind<'q>(&'q self, q: Query<'q>) -> Query<'q> {
        q.bind(&self.id)
            .bind(&self.name)
            .bind(&self.kind)
            .bind(&self.address)
            .bind(&self.username)
            .bind(&self.password_enc)
            .bind(&self.vlan)
            .bind(self.insecure)
            .bind(&self.fingerprint)
            .bind(&self.description)
            .bind(&self.org)
            .bind(&self.bmcs)
            .bind(&self.install_disk)
            .bind(&self.params)
    }
}
