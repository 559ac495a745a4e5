//! The `aci_instances` table: APIC fabric controllers and their login data.

use sqlx::Executor;

use super::{written, Db, Written};
use crate::error::Result;

/// An ACI instance's columns, as stored (values checked by `crate::aci` first).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AciRow {
    /// UUID, as text.
    pub id: String,
    /// Unique name.
    pub name: String,
    /// APIC address.
    pub address: String,
    /// Login user.
    pub username: String,
    /// Encrypted password, or `""` when none is known yet.
    pub password_enc: String,
    /// Tenant.
    pub tenant_name: String,
    /// VRF.
    pub vrf_name: String,
    /// Bridge domain.
    pub bridge_domain: String,
}

/// Every ACI instance, ordered by name.
pub async fn list<'c>(db: impl Executor<'c, Database = Db>) -> Result<Vec<AciRow>> {
    Ok(sqlx::query_as(
        "SELECT id, name, address, username, password_enc, tenant_name, vrf_name, bridge_domain FROM aci_instances ORDER BY name",
    )
    .fetch_all(db)
    .await?)
}

/// Store a new instance; [`Written::NameTaken`] when its name is.
pub async fn insert<'c>(db: impl Executor<'c, Database = Db>, a: &AciRow) -> Result<Written> {
    written(
        bound("INSERT INTO aci_instances (id, name, address, username, password_enc, tenant_name, vrf_name, bridge_domain) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)", a)
        .execute(db)
        .await,
    )
}

/// Overwrite the instance with `a.id`; [`Written::Missing`] when there is none,
/// [`Written::NameTaken`] when the new name is taken.
pub async fn update<'c>(db: impl Executor<'c, Database = Db>, a: &AciRow) -> Result<Written> {
    written(
        bound("UPDATE aci_instances SET name = $2, address = $3, username = $4, password_enc = $5, tenant_name = $6, vrf_name = $7, bridge_domain = $8 WHERE id = $1", a)
        .execute(db)
        .await,
    )
}

/// The statement with the row's columns bound in the order both the insert and the update
/// number them (`$1` is the id).
fn bound<'q>(
    sql: &'q str,
    a: &'q AciRow,
) -> sqlx::query::Query<'q, Db, <Db as sqlx::Database>::Arguments<'q>> {
    sqlx::query(sql)
        .bind(&a.id)
        .bind(&a.name)
        .bind(&a.address)
        .bind(&a.username)
        .bind(&a.password_enc)
        .bind(&a.tenant_name)
        .bind(&a.vrf_name)
        .bind(&a.bridge_domain)
}
