//! The host's NICs (a System's `EthernetInterfaces`) with their MACs and link: what a host's
//! network is matched to when its answer file names NICs by MAC.

use serde_json::Value;

use crate::client::Client;
use crate::error::Result;
use crate::identity::{members, text};
use crate::systems::System;

/// One host NIC.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EthernetInterface {
    /// Resource path.
    pub path: String,
    /// `Id` (`NIC.Integrated.1-1-1`).
    pub id: String,
    /// `MACAddress` (else `PermanentMACAddress`), upper case.
    pub mac: Option<String>,
    /// `LinkStatus` is `LinkUp`; none where the BMC does not say.
    pub link_up: Option<bool>,
    /// `InterfaceEnabled`.
    pub enabled: Option<bool>,
}

/// Read the system's host NICs, in the BMC's order (empty when it has no EthernetInterfaces
/// link).
pub async fn ethernet_interfaces(
    client: &Client,
    system: &System,
) -> Result<Vec<EthernetInterface>> {
    let Some(coll) = &system.ethernet else {
        return Ok(vec![]);
    };
    let mut out = Vec::new();
    for p in members(&client.get(coll).await?) {
        let v = client.get(&p).await?;
        out.push(EthernetInterface {
            path: p.clone(),
            id: text(&v, "Id").unwrap_or_default(),
            mac: text(&v, "MACAddress")
                .filter(|m| !m.is_empty())
                .or_else(|| text(&v, "PermanentMACAddress"))
                .map(|m| m.to_ascii_uppercase()),
            link_up: text(&v, "LinkStatus").map(|s| s == "LinkUp"),
            enabled: v.get("InterfaceEnabled").and_then(Value::as_bool),
        });
    }
    Ok(out)
}
