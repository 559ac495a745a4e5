//! Who the BMC is: vendor, model, manager firmware, Redfish version, and the ids of its
//! systems and managers. `identify` also puts the matching vendor quirks in force.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::client::Client;
use crate::error::Result;
use crate::quirks::Quirks;

/// BMC vendor families the quirks know about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Vendor {
    /// Dell iDRAC.
    Dell,
    /// HPE iLO.
    Hpe,
    /// Lenovo XCC.
    Lenovo,
    /// Supermicro.
    Supermicro,
    /// Cisco CIMC / UCS.
    Cisco,
    /// AMI MegaRAC.
    Ami,
    /// ASRock Rack.
    Asrockrack,
    /// Huawei iBMC.
    Huawei,
    /// Gigabyte.
    Gigabyte,
    /// Anything else (sushy-tools, OpenBMC, …).
    #[default]
    Other,
}

impl Vendor {
    /// The family a vendor or manufacturer name belongs to.
    pub fn from_name(name: &str) -> Vendor {
        let n = name.to_ascii_lowercase();
        let table = [
            ("dell", Vendor::Dell),
            ("hpe", Vendor::Hpe),
            ("hewlett", Vendor::Hpe),
            ("lenovo", Vendor::Lenovo),
            ("supermicro", Vendor::Supermicro),
            ("cisco", Vendor::Cisco),
            ("asrock", Vendor::Asrockrack),
            ("ami", Vendor::Ami),
            ("huawei", Vendor::Huawei),
            ("gigabyte", Vendor::Gigabyte),
        ];
        table
            .iter()
            .find(|(k, _)| {
                // "ami" must be a word of its own, not part of e.g. "dynamics".
                if *k == "ami" {
                    n.split(|c: char| !c.is_ascii_alphanumeric())
                        .any(|w| w == "ami")
                } else {
                    n.contains(k)
                }
            })
            .map(|(_, v)| *v)
            .unwrap_or(Vendor::Other)
    }
}

/// What a BMC says about itself.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    /// Vendor family (for quirks).
    pub vendor: Vendor,
    /// The vendor as the BMC names it (service root `Vendor`, else the System's Manufacturer).
    pub vendor_name: String,
    /// Product (service root `Product`), when given.
    pub product: Option<String>,
    /// Model of the first System.
    pub model: Option<String>,
    /// Firmware of the first Manager (`FirmwareVersion`).
    pub firmware: Option<String>,
    /// `RedfishVersion` of the service root.
    pub redfish_version: Option<String>,
    /// System resource paths.
    pub systems: Vec<String>,
    /// Manager resource paths.
    pub managers: Vec<String>,
}

/// The `@odata.id`s of a collection's members.
pub(crate) fn members(collection: &Value) -> Vec<String> {
    odata_ids(collection.get("Members"))
}

/// The `@odata.id`s of an array of links (`[{"@odata.id": …}, …]`); none when absent.
pub(crate) fn odata_ids(links: Option<&Value>) -> Vec<String> {
    links
        .and_then(Value::as_array)
        .map(|m| {
            m.iter()
                .filter_map(|x| x.get("@odata.id").and_then(Value::as_str))
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// `@odata.id` of a link property (`{"@odata.id": …}`) under `key`.
pub(crate) fn link(v: &Value, key: &str) -> Option<String> {
    v.get(key)?.get("@odata.id")?.as_str().map(str::to_owned)
}

pub(crate) fn text(v: &Value, key: &str) -> Option<String> {
    v.get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
}

/// Read the service root, systems and managers; put the matching quirks in force on `client`.
pub async fn identify(client: &Client) -> Result<Identity> {
    let root = client.service_root().await?;
    let systems = match link(&root, "Systems") {
        Some(p) => members(&client.get(&p).await?),
        None => vec![],
    };
    let managers = match link(&root, "Managers") {
        Some(p) => members(&client.get(&p).await?),
        None => vec![],
    };
    let system = match systems.first() {
        Some(p) => Some(client.get(p).await?),
        None => None,
    };
    let manager = match managers.first() {
        Some(p) => Some(client.get(p).await?),
        None => None,
    };
    let manufacturer = system.as_ref().and_then(|s| text(s, "Manufacturer"));
    let vendor_name = text(&root, "Vendor")
        .or(manufacturer.clone())
        .or_else(|| {
            // Older firmware has no Vendor; the Oem key of the root names it.
            root.get("Oem")
                .and_then(Value::as_object)
                .and_then(|o| o.keys().next().cloned())
        })
        .unwrap_or_default();
    let mut vendor = Vendor::from_name(&vendor_name);
    if vendor == Vendor::Other {
        if let Some(m) = &manufacturer {
            vendor = Vendor::from_name(m);
        }
    }
    let id = Identity {
        vendor,
        vendor_name,
        product: text(&root, "Product"),
        model: system.as_ref().and_then(|s| text(s, "Model")),
        firmware: manager.as_ref().and_then(|m| text(m, "FirmwareVersion")),
        redfish_version: text(&root, "RedfishVersion"),
        systems,
        managers,
    };
    let quirks = Quirks::for_identity(&id);
    tracing::info!(address = client.address(), vendor = ?id.vendor, firmware = ?id.firmware, quirks = ?quirks.ids(), "identified");
    client.set_quirks(quirks);
    Ok(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vendor_names() {
        assert_eq!(Vendor::from_name("Dell Inc."), Vendor::Dell);
        assert_eq!(Vendor::from_name("HPE"), Vendor::Hpe);
        assert_eq!(Vendor::from_name("Supermicro"), Vendor::Supermicro);
        assert_eq!(Vendor::from_name("Cisco Systems Inc"), Vendor::Cisco);
        assert_eq!(Vendor::from_name("AMI"), Vendor::Ami);
        assert_eq!(Vendor::from_name("Dynamics"), Vendor::Other);
        assert_eq!(Vendor::from_name("Sushy Emulator"), Vendor::Other);
    }
}
