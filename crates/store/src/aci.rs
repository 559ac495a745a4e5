//! The `aci_instances` table: APIC fabric controllers and their login data.

use super::{Named, NamedRow, Query};

/// An ACI instance's columns, as stored (values checked by the core's `aci` first).
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

impl NamedRow for AciRow {
    const TABLE: Named = Named::AciInstances;
    const COLUMNS: &'static str =
        "id, name, address, username, password_enc, tenant_name, vrf_name, bridge_domain";

    fn bind<'q>(&'q self, q: Query<'q>) -> Query<'q> {
        q.bind(&self.id)
            .bind(&self.name)
            .bind(&self.address)
            .bind(&self.username)
            .bind(&self.password_enc)
            .bind(&self.tenant_name)
            .bind(&self.vrf_name)
            .bind(&self.bridge_domain)
    }
}
