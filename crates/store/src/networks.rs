//! The `network_groups` table: shared network settings, named for the hosts that use them.

use super::{Named, NamedRow, Query};

/// A network group's columns, as stored (values checked by the core's `networks` before writing).
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
    /// Subnet in CIDR form.
    pub subnet: Option<String>,
    /// MTU in bytes.
    pub mtu: Option<i64>,
    /// The bond, as JSON.
    pub bond: Option<String>,
    /// The static routes, as a JSON list (NULL for none).
    pub routes: Option<String>,
    /// IPv6 default gateway.
    pub ipv6_gateway: Option<String>,
    /// The template parameters of the group's hosts, as JSON (secrets encrypted).
    pub params: Option<String>,
}

// A rename reaches the group's hosts through `ON UPDATE CASCADE`.
impl NamedRow for NetworkRow {
    const TABLE: Named = Named::NetworkGroups;
    const COLUMNS: &'static str =
        "id, name, netmask, gateway, nameserver, ntpserver, proxy, vlan, subnet, mtu, bond, routes, ipv6_gateway, params";

    fn bind<'q>(&'q self, q: Query<'q>) -> Query<'q> {
        q.bind(&self.id)
            .bind(&self.name)
            .bind(&self.netmask)
            .bind(&self.gateway)
            .bind(&self.nameserver)
            .bind(&self.ntpserver)
            .bind(&self.proxy)
            .bind(&self.vlan)
            .bind(&self.subnet)
            .bind(self.mtu)
            .bind(&self.bond)
            .bind(&self.routes)
            .bind(&self.ipv6_gateway)
            .bind(&self.params)
    }
}
