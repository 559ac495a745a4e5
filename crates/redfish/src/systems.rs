//! Inventory of ComputerSystems: hardware summary, power state, boot settings, reset
//! types and the links the other modules follow (VirtualMedia, managers, storage).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::client::Client;
use crate::error::Result;
use crate::identity::{link, members, odata_ids, text};

/// `ProcessorSummary` of a system.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Processors {
    /// Number of processors (sockets).
    pub count: Option<u64>,
    /// Total cores, when the BMC says (ComputerSystem v1_14+).
    pub cores: Option<u64>,
    /// Processor model.
    pub model: Option<String>,
}

/// The `Boot` object of a system.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Boot {
    /// `BootSourceOverrideEnabled` (Once, Continuous, Disabled).
    pub enabled: Option<String>,
    /// `BootSourceOverrideTarget`.
    pub target: Option<String>,
    /// `BootSourceOverrideMode` (UEFI, Legacy); absent on some firmware (HPE Gen9).
    pub mode: Option<String>,
    /// `BootSourceOverrideTarget@Redfish.AllowableValues` (empty when not advertised).
    pub allowed_targets: Vec<String>,
    /// `BootSourceOverrideMode@Redfish.AllowableValues`.
    pub allowed_modes: Vec<String>,
}

/// One ComputerSystem.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct System {
    /// Resource path (`@odata.id`).
    pub path: String,
    /// `Id`.
    pub id: String,
    /// Manufacturer.
    pub manufacturer: Option<String>,
    /// Model.
    pub model: Option<String>,
    /// Serial number.
    pub serial: Option<String>,
    /// SKU.
    pub sku: Option<String>,
    /// UUID.
    pub uuid: Option<String>,
    /// `PowerState` as reported (On, Off, PoweringOn, …).
    pub power_state: Option<String>,
    /// Processor summary.
    pub processors: Processors,
    /// `MemorySummary.TotalSystemMemoryGiB`.
    pub memory_gib: Option<f64>,
    /// `BiosVersion`.
    pub bios_version: Option<String>,
    /// Boot override settings.
    pub boot: Boot,
    /// `Actions.#ComputerSystem.Reset.target`.
    pub reset_target: Option<String>,
    /// `ResetType@Redfish.AllowableValues` (empty when not advertised).
    pub reset_types: Vec<String>,
    /// Link to the System's VirtualMedia collection (ComputerSystem v1_13+).
    pub virtual_media: Option<String>,
    /// `Links.ManagedBy` manager paths.
    pub managed_by: Vec<String>,
    /// `Links.Chassis` paths (where a system without a serial number of its own has it).
    #[serde(default)]
    pub chassis: Vec<String>,
    /// Link to the Storage collection.
    pub storage: Option<String>,
    /// Link to the host's EthernetInterfaces collection.
    pub ethernet: Option<String>,
    /// `@Redfish.Settings.SettingsObject` (iDRAC 10 keeps Boot there).
    pub settings_object: Option<String>,
    /// The ETag of the read (header or `@odata.etag`).
    pub etag: Option<String>,
}

pub(crate) fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// The paths of the links `Links.<name>` of a resource.
fn links(v: &Value, name: &str) -> Vec<String> {
    odata_ids(v.get("Links").and_then(|l| l.get(name)))
}

impl System {
    /// A system from its JSON (`path` is used when the body has no `@odata.id`).
    pub fn from_json(path: &str, v: &Value) -> System {
        let boot = v.get("Boot").cloned().unwrap_or(Value::Null);
        let reset = v
            .get("Actions")
            .and_then(|a| a.get("#ComputerSystem.Reset"))
            .cloned()
            .unwrap_or(Value::Null);
        let procs = v.get("ProcessorSummary").cloned().unwrap_or(Value::Null);
        System {
            path: text(v, "@odata.id").unwrap_or_else(|| path.to_owned()),
            id: text(v, "Id").unwrap_or_default(),
            manufacturer: text(v, "Manufacturer"),
            model: text(v, "Model"),
            serial: text(v, "SerialNumber"),
            sku: text(v, "SKU"),
            uuid: text(v, "UUID"),
            power_state: text(v, "PowerState"),
            processors: Processors {
                count: procs.get("Count").and_then(Value::as_u64),
                cores: procs.get("CoreCount").and_then(Value::as_u64),
                model: text(&procs, "Model"),
            },
            memory_gib: v
                .get("MemorySummary")
                .and_then(|m| m.get("TotalSystemMemoryGiB"))
                .and_then(Value::as_f64),
            bios_version: text(v, "BiosVersion"),
            boot: Boot {
                enabled: text(&boot, "BootSourceOverrideEnabled"),
                target: text(&boot, "BootSourceOverrideTarget"),
                mode: text(&boot, "BootSourceOverrideMode"),
                allowed_targets: strings(
                    boot.get("BootSourceOverrideTarget@Redfish.AllowableValues"),
                ),
                allowed_modes: strings(boot.get("BootSourceOverrideMode@Redfish.AllowableValues")),
            },
            reset_target: text(&reset, "target"),
            reset_types: strings(reset.get("ResetType@Redfish.AllowableValues")),
            virtual_media: link(v, "VirtualMedia"),
            managed_by: links(v, "ManagedBy"),
            chassis: links(v, "Chassis"),
            storage: link(v, "Storage"),
            ethernet: link(v, "EthernetInterfaces"),
            settings_object: v
                .get("@Redfish.Settings")
                .and_then(|s| link(s, "SettingsObject")),
            etag: text(v, "@odata.etag"),
        }
    }
}

/// Read one system (its ETag is remembered for later PATCHes).
pub async fn system(client: &Client, path: &str) -> Result<System> {
    let reply = client.get_reply(path).await?;
    let mut s = System::from_json(path, &reply.body);
    s.etag = reply.etag();
    Ok(s)
}

/// Read every system of the BMC.
pub async fn systems(client: &Client) -> Result<Vec<System>> {
    let root = client.service_root().await?;
    let Some(coll) = link(&root, "Systems") else {
        return Ok(vec![]);
    };
    systems_at(client, &members(&client.get(&coll).await?)).await
}

/// Read the systems at `paths`: the members of the Systems collection as read before (e.g.
/// [`crate::Identity::systems`]), without reading the service root and the collection again.
/// A system without a serial number of its own takes its chassis's (sushy-tools' system has
/// none; its chassis has), so that it can be matched to the asset.
pub async fn systems_at(client: &Client, paths: &[String]) -> Result<Vec<System>> {
    let mut out = Vec::with_capacity(paths.len());
    for p in paths {
        let mut s = system(client, p).await?;
        if s.serial.is_none() {
            if let Some(c) = s.chassis.first() {
                // A chassis that cannot be read leaves the serial unknown, not the system.
                s.serial = client
                    .get(c)
                    .await
                    .ok()
                    .and_then(|v| text(&v, "SerialNumber"));
            }
        }
        out.push(s);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_system_is_read() {
        let v = json!({"@odata.id": "/redfish/v1/Systems/1", "Id": "1", "Manufacturer": "HPE",
            "PowerState": "On", "ProcessorSummary": {"Count": 2, "Model": "Xeon"},
            "MemorySummary": {"TotalSystemMemoryGiB": 256.0},
            "Boot": {"BootSourceOverrideTarget": "None", "BootSourceOverrideTarget@Redfish.AllowableValues": ["None", "Cd"]},
            "Actions": {"#ComputerSystem.Reset": {"target": "/redfish/v1/Systems/1/Actions/ComputerSystem.Reset",
                "ResetType@Redfish.AllowableValues": ["On", "ForceOff"]}},
            "Links": {"ManagedBy": [{"@odata.id": "/redfish/v1/Managers/1"}]},
            "@Redfish.Settings": {"SettingsObject": {"@odata.id": "/redfish/v1/Systems/1/Settings"}},
            "@odata.etag": "W/\"DBFAAF9C\""});
        let s = System::from_json("/x", &v);
        assert_eq!(s.path, "/redfish/v1/Systems/1");
        assert_eq!(s.processors.count, Some(2));
        assert_eq!(s.processors.cores, None);
        assert_eq!(s.memory_gib, Some(256.0));
        assert_eq!(s.boot.allowed_targets, vec!["None", "Cd"]);
        assert_eq!(s.reset_types, vec!["On", "ForceOff"]);
        assert_eq!(s.managed_by, vec!["/redfish/v1/Managers/1"]);
        assert_eq!(
            s.settings_object.as_deref(),
            Some("/redfish/v1/Systems/1/Settings")
        );
        assert_eq!(s.virtual_media, None);
    }
}
