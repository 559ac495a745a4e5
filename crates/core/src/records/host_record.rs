//! A host as stored and returned, as sent, and as named for a delete: values only, so the
//! drivers' deploy spec can carry hosts without reaching the services that keep them.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use bootsmith_model::install_disk::InstallDiskHint;
use bootsmith_model::network::{Ipv6Interface, MacAddress};
use bootsmith_model::params::{ParamSchema, Params};
use bootsmith_model::types::{HostName, IpAddress, Name, NodeId, TemplateDn};

/// A host as stored and returned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct Host {
    /// Host name = service-profile name.
    #[schema(value_type = String)]
    pub name: HostName,
    /// Address of the host.
    #[schema(value_type = String)]
    pub ip: IpAddress,
    /// OS id from the catalog.
    pub os: String,
    /// Role allowed for the OS.
    pub role: String,
    /// Name of its network group.
    #[schema(value_type = String)]
    pub network_group: Name,
    /// Name of its server group, if deployed by Bootsmith.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>)]
    pub server_group: Option<Name>,
    /// Service-profile template DN (`org-root/ls-<name>`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>)]
    pub service_profile_template: Option<TemplateDn>,
    /// Node the profile is bound to (`1/3`, or a rack number).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>)]
    pub server: Option<NodeId>,
    /// The disk to install on (else its server group's, else the default disk).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub install_disk: Option<InstallDiskHint>,
    /// The MACs of the NICs it installs over: one NIC, or the bond of its network group.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(required = false)]
    pub macs: Vec<MacAddress>,
    /// Static IPv6 address with its prefix.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ipv6: Option<Ipv6Interface>,
    /// Its template parameters (`params.<key>`), over its groups' and the defaults; secrets
    /// read `{"value": "********", "secret": true}`.
    #[serde(skip_serializing_if = "Params::is_empty")]
    #[schema(value_type = Option<std::collections::BTreeMap<String, ParamSchema>>)]
    pub params: Params,
}

/// One host as sent.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct HostInput {
    /// Host name.
    #[schema(schema_with = bootsmith_model::schema::host_name, required = true)]
    pub name: Option<String>,
    /// Address.
    #[schema(schema_with = bootsmith_model::schema::ip, required = true)]
    pub ip: Option<String>,
    /// OS id from the catalog (`GET /api/v1/catalog`).
    #[schema(required = true, nullable = false, min_length = 1)]
    pub os: Option<String>,
    /// A role the catalog allows for the OS.
    #[schema(required = true, nullable = false, min_length = 1)]
    pub role: Option<String>,
    /// Name of an existing network group.
    #[schema(schema_with = bootsmith_model::schema::reference, required = true)]
    pub network_group: Option<String>,
    /// Name of an existing server group.
    #[schema(schema_with = bootsmith_model::schema::optional_reference)]
    pub server_group: Option<String>,
    /// Service-profile template DN (`org-root/ls-<name>` or `org-root/org-<sub>/ls-<name>`).
    pub service_profile_template: Option<String>,
    /// The server to bind to, in the server group (which it needs).
    #[schema(schema_with = bootsmith_model::schema::node)]
    pub server: Option<String>,
    /// The disk to install on, as Ironic's root-device hints (`{"serial": "…"}`,
    /// `{"size_gb": {"min": 400}}`); null or left out: the server group's, else the default
    /// disk (the smallest local one of at least 16 GiB).
    #[schema(value_type = Option<InstallDiskHint>)]
    pub install_disk: Option<serde_json::Value>,
    /// The MACs of the NICs to install over, at most 8, none used by another host: one names
    /// the NIC, two or more make the bond of its network group. Read as aa:bb:cc:dd:ee:ff,
    /// AA-BB-CC-DD-EE-FF or aabb.ccdd.eeff.
    #[serde(default)]
    #[schema(value_type = Option<Vec<MacAddress>>, max_items = 8)]
    pub macs: Option<serde_json::Value>,
    /// Static IPv6 address with its prefix (`2001:db8::10/64`); its network group's
    /// `ipv6_gateway`, unless link-local, must lie in that prefix.
    #[serde(default)]
    #[schema(value_type = Option<Ipv6Interface>)]
    pub ipv6: Option<String>,
    /// Template parameters, `{"timezone": "Europe/Berlin"}`, a secret as
    /// `{"key": {"value": "…", "secret": true}}` (sent back as read, `********`, it keeps the
    /// stored value); keys `[a-z][a-z0-9_]*`, values strings. They win over the server
    /// group's, the network group's and the defaults.
    #[serde(default)]
    #[schema(value_type = Option<std::collections::BTreeMap<String, ParamSchema>>)]
    pub params: Option<serde_json::Value>,
}

impl From<&Host> for HostInput {
    fn from(h: &Host) -> Self {
        HostInput {
            name: Some(h.name.to_string()),
            ip: Some(h.ip.to_string()),
            os: Some(h.os.clone()),
            role: Some(h.role.clone()),
            network_group: Some(h.network_group.to_string()),
            server_group: h.server_group.as_ref().map(ToString::to_string),
            service_profile_template: h.service_profile_template.as_ref().map(ToString::to_string),
            server: h.server.map(|s| s.to_string()),
            install_disk: h.install_disk.as_ref().map(InstallDiskHint::to_json),
            macs: (!h.macs.is_empty()).then(|| serde_json::json!(h.macs)),
            ipv6: h.ipv6.map(|v| v.to_string()),
            params: (!h.params.is_empty()).then(|| h.params.to_json()),
        }
    }
}

/// Body of `DELETE /api/v2/hosts`.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct HostRef {
    /// Host name.
    #[schema(required = true, nullable = false, min_length = 1)]
    pub name: Option<String>,
}
