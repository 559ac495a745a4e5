//! Disks: Storage controllers with their Drives and Volumes, and resetting them (deleting
//! volumes where the BMC allows DELETE, secure-erasing drives where it advertises the action).

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::client::Client;
use crate::error::Result;
use crate::identity::{link, members, odata_ids, text};
use crate::request::Request;
use crate::systems::System;

/// One physical drive.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Drive {
    /// Resource path.
    pub path: String,
    /// `Id`.
    pub id: String,
    /// `Name`.
    pub name: Option<String>,
    /// `CapacityBytes`.
    pub capacity_bytes: Option<u64>,
    /// `MediaType` (HDD, SSD).
    pub media_type: Option<String>,
    /// `Protocol` (SAS, SATA, NVMe; USB, FC, iSCSI for what is not a local disk).
    pub protocol: Option<String>,
    /// `Manufacturer`.
    pub manufacturer: Option<String>,
    /// `Model`.
    pub model: Option<String>,
    /// `SerialNumber`.
    pub serial: Option<String>,
    /// The world-wide name: the first of `Identifiers` in NAA, EUI or FC_WWN format.
    pub wwn: Option<String>,
    /// `RotationSpeedRPM`: 0 for solid state.
    pub rotation_rpm: Option<u64>,
    /// `Status.Health`/`Status.State`, e.g. `OK/Enabled`.
    pub status: Option<String>,
    /// `#Drive.SecureErase` target, when advertised.
    pub secure_erase: Option<String>,
}

/// One logical volume.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Volume {
    /// Resource path.
    pub path: String,
    /// `Id`.
    pub id: String,
    /// `Name`.
    pub name: Option<String>,
    /// `CapacityBytes`.
    pub capacity_bytes: Option<u64>,
    /// `RAIDType` (or the older `VolumeType`).
    pub raid: Option<String>,
    /// The paths of its member drives (`Links.Drives`).
    pub drives: Vec<String>,
    /// `Status.Health`/`Status.State`, e.g. `OK/Enabled`.
    pub status: Option<String>,
    /// The `Allow` header lists DELETE.
    pub delete_allowed: bool,
}

/// One Storage resource (a controller or subsystem).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Storage {
    /// Resource path.
    pub path: String,
    /// `Id`.
    pub id: String,
    /// `Name`.
    pub name: Option<String>,
    /// Drives.
    pub drives: Vec<Drive>,
    /// Volumes.
    pub volumes: Vec<Volume>,
}

fn status(v: &Value) -> Option<String> {
    let s = v.get("Status")?;
    let parts: Vec<String> = [text(s, "Health"), text(s, "State")]
        .into_iter()
        .flatten()
        .collect();
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// Read the system's Storage, Drives and Volumes (empty when it has no Storage link).
pub async fn storage(client: &Client, system: &System) -> Result<Vec<Storage>> {
    let Some(coll) = &system.storage else {
        return Ok(vec![]);
    };
    let mut out = Vec::new();
    for p in members(&client.get(coll).await?) {
        let v = client.get(&p).await?;
        let mut st = Storage {
            path: p.clone(),
            id: text(&v, "Id").unwrap_or_default(),
            name: text(&v, "Name"),
            ..Storage::default()
        };
        let drive_links = odata_ids(v.get("Drives"));
        for d in drive_links {
            let dv = client.get(&d).await?;
            st.drives.push(Drive {
                path: d.clone(),
                id: text(&dv, "Id").unwrap_or_default(),
                name: text(&dv, "Name"),
                capacity_bytes: dv.get("CapacityBytes").and_then(Value::as_u64),
                media_type: text(&dv, "MediaType"),
                protocol: text(&dv, "Protocol"),
                manufacturer: text(&dv, "Manufacturer"),
                model: text(&dv, "Model"),
                serial: text(&dv, "SerialNumber"),
                wwn: wwn(&dv),
                rotation_rpm: dv
                    .get("RotationSpeedRPM")
                    .and_then(|r| r.as_u64().or_else(|| r.as_f64().map(|f| f as u64))),
                status: status(&dv),
                secure_erase: dv
                    .get("Actions")
                    .and_then(|a| a.get("#Drive.SecureErase"))
                    .and_then(|a| text(a, "target")),
            });
        }
        if let Some(vols) = link(&v, "Volumes") {
            for vp in members(&client.get(&vols).await?) {
                let r = client.get_reply(&vp).await?;
                st.volumes.push(Volume {
                    path: vp.clone(),
                    id: text(&r.body, "Id").unwrap_or_default(),
                    name: text(&r.body, "Name"),
                    capacity_bytes: r.body.get("CapacityBytes").and_then(Value::as_u64),
                    raid: text(&r.body, "RAIDType").or_else(|| text(&r.body, "VolumeType")),
                    drives: odata_ids(r.body.get("Links").and_then(|l| l.get("Drives"))),
                    status: status(&r.body),
                    delete_allowed: r.allow().iter().any(|m| m == "DELETE"),
                });
            }
        }
        out.push(st);
    }
    Ok(out)
}

/// A drive's world-wide name from its `Identifiers` (DMTF Drive schema): the durable names in
/// the formats that are one (NAA, EUI-64, FC_WWN), the first that is there.
fn wwn(drive: &Value) -> Option<String> {
    let ids = drive.get("Identifiers")?.as_array()?;
    ["NAA", "EUI", "FC_WWN"].iter().find_map(|format| {
        ids.iter()
            .filter(|i| i.get("DurableNameFormat").and_then(Value::as_str) == Some(format))
            .find_map(|i| text(i, "DurableName"))
    })
}

impl Drive {
    /// Spinning or not: `MediaType` says it, else a non-zero `RotationSpeedRPM`.
    pub fn rotational(&self) -> Option<bool> {
        match self.media_type.as_deref() {
            // SMR: shingled magnetic recording, a spinning disk.
            Some("HDD" | "SMR") => Some(true),
            Some("SSD") => Some(false),
            _ => self.rotation_rpm.map(|r| r > 0),
        }
    }
}

/// What a disk reset did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiskReset {
    /// Volumes deleted (paths).
    pub volumes_deleted: Vec<String>,
    /// Drives secure-erased (paths).
    pub drives_erased: Vec<String>,
}

/// Delete every deletable volume and secure-erase every drive that advertises it; a BMC that
/// offers neither for disks it has is [`crate::Error::NotSupported`].
pub async fn reset_disks(client: &Client, system: &System) -> Result<DiskReset> {
    let all = storage(client, system).await?;
    let mut done = DiskReset::default();
    let mut disks = 0;
    for st in &all {
        disks += st.drives.len() + st.volumes.len();
        for v in st.volumes.iter().filter(|v| v.delete_allowed) {
            client.execute(Request::delete(&v.path)).await?;
            done.volumes_deleted.push(v.path.clone());
        }
        for d in &st.drives {
            if let Some(t) = &d.secure_erase {
                client.execute(Request::action(t, json!({}))).await?;
                done.drives_erased.push(d.path.clone());
            }
        }
    }
    if disks > 0 && done.volumes_deleted.is_empty() && done.drives_erased.is_empty() {
        return Err(client.not_supported(
            "resetting disks (no volume allows DELETE and no drive offers Drive.SecureErase)",
        ));
    }
    Ok(done)
}
