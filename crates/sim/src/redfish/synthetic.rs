//! Resource trees built in code for the vendors without a public capture (iDRAC, Supermicro,
//! XCC, CIMC): the service root, one System with its Storage (a controller, two drives, a
//! volume), one Manager, the session service and the VirtualMedia slots, shaped by a [`Spec`]
//! each persona file fills from its vendor's documented payloads.

use serde_json::{json, Value};

use super::tree::Docs;

/// One VirtualMedia slot.
pub(crate) struct Slot {
    pub id: &'static str,
    pub name: &'static str,
    pub media_types: &'static [&'static str],
    /// Has the standard Insert/Eject actions (XCC's slots have none).
    pub actions: bool,
    /// Extra members merged into the slot (vendor fields).
    pub extra: Value,
}

/// What a built tree holds.
pub(crate) struct Spec {
    pub vendor: &'static str,
    pub product: &'static str,
    pub redfish_version: &'static str,
    pub system_id: &'static str,
    pub manager_id: &'static str,
    pub manufacturer: &'static str,
    pub model: &'static str,
    pub serial: &'static str,
    pub bios_version: &'static str,
    pub manager_firmware: &'static str,
    pub manager_type: &'static str,
    /// VirtualMedia under the System (else under the Manager).
    pub vmedia_on_system: bool,
    pub slots: Vec<Slot>,
    pub boot_targets: &'static [&'static str],
    pub reset_types: &'static [&'static str],
    pub storage_id: &'static str,
    pub drives: [&'static str; 2],
    pub volume_id: &'static str,
    pub secure_erase: bool,
}

fn link(p: &str) -> Value {
    json!({ "@odata.id": p })
}

fn collection(path: &str, ty: &str, name: &str, members: &[String]) -> Value {
    json!({
        "@odata.id": path,
        "@odata.type": format!("#{ty}.{ty}"),
        "Name": name,
        "Members": members.iter().map(|m| link(m)).collect::<Vec<_>>(),
        "Members@odata.count": members.len(),
    })
}

/// Merge `extra`'s members into `doc` (objects merged recursively).
pub(crate) fn merge(doc: &mut Value, extra: &Value) {
    match (doc, extra) {
        (Value::Object(d), Value::Object(e)) => {
            for (k, v) in e {
                match d.get_mut(k) {
                    Some(slot) if slot.is_object() && v.is_object() => merge(slot, v),
                    _ => {
                        d.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (d, e) => *d = e.clone(),
    }
}

/// The tree a spec describes.
pub(crate) fn build(s: &Spec) -> Docs {
    let mut d = Docs::new();
    let root = "/redfish/v1";
    let sys = format!("{root}/Systems/{}", s.system_id);
    let mgr = format!("{root}/Managers/{}", s.manager_id);
    let chassis = format!("{root}/Chassis/1");
    let vm = if s.vmedia_on_system {
        format!("{sys}/VirtualMedia")
    } else {
        format!("{mgr}/VirtualMedia")
    };
    d.insert(
        root.into(),
        json!({
            "@odata.id": root,
            "@odata.type": "#ServiceRoot.v1_11_0.ServiceRoot",
            "Id": "RootService",
            "Name": "Root Service",
            "RedfishVersion": s.redfish_version,
            "Vendor": s.vendor,
            "Product": s.product,
            "UUID": "00000000-0000-4000-8000-000000000001",
            "Systems": link(&format!("{root}/Systems")),
            "Managers": link(&format!("{root}/Managers")),
            "Chassis": link(&format!("{root}/Chassis")),
            "SessionService": link(&format!("{root}/SessionService")),
            "Links": { "Sessions": link(&format!("{root}/SessionService/Sessions")) },
        }),
    );
    d.insert(
        format!("{root}/Systems"),
        collection(
            &format!("{root}/Systems"),
            "ComputerSystemCollection",
            "Computer System Collection",
            std::slice::from_ref(&sys),
        ),
    );
    d.insert(
        format!("{root}/Managers"),
        collection(
            &format!("{root}/Managers"),
            "ManagerCollection",
            "Manager Collection",
            std::slice::from_ref(&mgr),
        ),
    );
    d.insert(
        format!("{root}/Chassis"),
        collection(
            &format!("{root}/Chassis"),
            "ChassisCollection",
            "Chassis Collection",
            std::slice::from_ref(&chassis),
        ),
    );
    d.insert(
        chassis.clone(),
        json!({
            "@odata.id": chassis, "@odata.type": "#Chassis.v1_14_0.Chassis", "Id": "1",
            "Name": "Chassis", "ChassisType": "RackMount", "Manufacturer": s.manufacturer,
            "Model": s.model, "SerialNumber": s.serial,
            "Links": { "ComputerSystems": [link(&sys)], "ManagedBy": [link(&mgr)] },
        }),
    );
    d.insert(
        format!("{root}/SessionService"),
        json!({
            "@odata.id": format!("{root}/SessionService"),
            "@odata.type": "#SessionService.v1_1_8.SessionService",
            "Id": "SessionService", "Name": "Session Service", "ServiceEnabled": true,
            "SessionTimeout": 1800,
            "Sessions": link(&format!("{root}/SessionService/Sessions")),
        }),
    );
    let mut system = json!({
        "@odata.id": sys, "@odata.type": "#ComputerSystem.v1_13_0.ComputerSystem",
        "Id": s.system_id, "Name": "System", "SystemType": "Physical",
        "Manufacturer": s.manufacturer, "Model": s.model, "SerialNumber": s.serial,
        "BiosVersion": s.bios_version, "PowerState": "Off",
        "UUID": "00000000-0000-4000-8000-000000000002",
        "Status": { "State": "Enabled", "Health": "OK" },
        "ProcessorSummary": { "Count": 2, "Model": "Intel(R) Xeon(R) Gold 6330 CPU @ 2.00GHz",
                              "Status": { "HealthRollup": "OK" } },
        "MemorySummary": { "TotalSystemMemoryGiB": 256, "Status": { "HealthRollup": "OK" } },
        "Boot": {
            "BootSourceOverrideEnabled": "Disabled",
            "BootSourceOverrideTarget": "None",
            "BootSourceOverrideMode": "UEFI",
            "BootSourceOverrideTarget@Redfish.AllowableValues": s.boot_targets,
        },
        "Storage": link(&format!("{sys}/Storage")),
        "EthernetInterfaces": link(&format!("{sys}/EthernetInterfaces")),
        "Links": { "ManagedBy": [link(&mgr)], "Chassis": [link(&chassis)] },
        "Actions": { "#ComputerSystem.Reset": {
            "target": format!("{sys}/Actions/ComputerSystem.Reset"),
            "ResetType@Redfish.AllowableValues": s.reset_types,
        } },
    });
    if s.vmedia_on_system {
        system["VirtualMedia"] = link(&vm);
    }
    d.insert(sys.clone(), system);
    // Two host NICs with known MACs, the first with its link up: what a host's network is
    // matched to by MAC.
    let nics_path = format!("{sys}/EthernetInterfaces");
    let nics: Vec<String> = ["NIC.1", "NIC.2"]
        .iter()
        .map(|id| format!("{nics_path}/{id}"))
        .collect();
    d.insert(
        nics_path.clone(),
        collection(
            &nics_path,
            "EthernetInterfaceCollection",
            "Ethernet Network Interface Collection",
            &nics,
        ),
    );
    for (n, p) in nics.iter().enumerate() {
        d.insert(
            p.clone(),
            json!({
                "@odata.id": p, "@odata.type": "#EthernetInterface.v1_6_0.EthernetInterface",
                "Id": format!("NIC.{}", n + 1), "Name": format!("Host NIC {}", n + 1),
                "MACAddress": format!("B8:CE:F6:5A:10:{:02X}", n + 1),
                "PermanentMACAddress": format!("B8:CE:F6:5A:10:{:02X}", n + 1),
                "LinkStatus": if n == 0 { "LinkUp" } else { "LinkDown" },
                "InterfaceEnabled": true, "SpeedMbps": 25000,
                "Status": { "State": "Enabled", "Health": "OK" },
            }),
        );
    }
    let mut manager = json!({
        "@odata.id": mgr, "@odata.type": "#Manager.v1_10_0.Manager", "Id": s.manager_id,
        "Name": "Manager", "ManagerType": "BMC", "Model": s.manager_type,
        "FirmwareVersion": s.manager_firmware,
        "Status": { "State": "Enabled", "Health": "OK" },
        "Links": { "ManagerForServers": [link(&sys)] },
    });
    if !s.vmedia_on_system {
        manager["VirtualMedia"] = link(&vm);
    }
    d.insert(mgr.clone(), manager);
    let slot_paths: Vec<String> = s.slots.iter().map(|sl| format!("{vm}/{}", sl.id)).collect();
    d.insert(
        vm.clone(),
        collection(
            &vm,
            "VirtualMediaCollection",
            "Virtual Media Services",
            &slot_paths,
        ),
    );
    for (sl, p) in s.slots.iter().zip(&slot_paths) {
        let mut slot = json!({
            "@odata.id": p, "@odata.type": "#VirtualMedia.v1_3_0.VirtualMedia",
            "Id": sl.id, "Name": sl.name, "MediaTypes": sl.media_types,
            "Image": null, "ImageName": "", "Inserted": false, "WriteProtected": true,
            "ConnectedVia": "NotConnected",
        });
        if sl.actions {
            slot["Actions"] = json!({
                "#VirtualMedia.InsertMedia": {
                    "target": format!("{p}/Actions/VirtualMedia.InsertMedia") },
                "#VirtualMedia.EjectMedia": {
                    "target": format!("{p}/Actions/VirtualMedia.EjectMedia") },
            });
        }
        merge(&mut slot, &sl.extra);
        d.insert(p.clone(), slot);
    }
    // Storage: one controller, two drives, one volume over both.
    let st_coll = format!("{sys}/Storage");
    let st = format!("{st_coll}/{}", s.storage_id);
    let drives: Vec<String> = s
        .drives
        .iter()
        .map(|id| format!("{st}/Drives/{id}"))
        .collect();
    let vols = format!("{st}/Volumes");
    let vol = format!("{vols}/{}", s.volume_id);
    d.insert(
        st_coll.clone(),
        collection(
            &st_coll,
            "StorageCollection",
            "Storage Collection",
            std::slice::from_ref(&st),
        ),
    );
    d.insert(
        st.clone(),
        json!({
            "@odata.id": st, "@odata.type": "#Storage.v1_9_0.Storage", "Id": s.storage_id,
            "Name": "RAID Controller", "Status": { "State": "Enabled", "Health": "OK" },
            "Drives": drives.iter().map(|p| link(p)).collect::<Vec<_>>(),
            "Drives@odata.count": drives.len(),
            "Volumes": link(&vols),
        }),
    );
    // An install-sized SSD and a data HDD with distinct serials and WWNs, so install-disk
    // hints and the default rule (the smallest local disk) have a choice to make.
    for (n, (id, p)) in s.drives.iter().zip(&drives).enumerate() {
        let (media, protocol, bytes, maker, model, rpm) = if n == 0 {
            (
                "SSD",
                "SATA",
                480_103_981_056u64,
                "Micron",
                "MTFDDAK480TDS",
                0,
            )
        } else {
            (
                "HDD",
                "SAS",
                1_000_204_886_016u64,
                "Seagate",
                "ST1000NX0423",
                7200,
            )
        };
        let mut drive = json!({
            "@odata.id": p, "@odata.type": "#Drive.v1_9_0.Drive", "Id": id,
            "Name": format!("Disk {id}"), "MediaType": media, "Protocol": protocol,
            "CapacityBytes": bytes, "Manufacturer": maker, "Model": model,
            "RotationSpeedRPM": rpm,
            "SerialNumber": format!("{}{:04}", &maker[..2].to_uppercase(), 4242 + n),
            "Identifiers": [{ "DurableNameFormat": "NAA",
                              "DurableName": format!("5000C500A1B2C3{:02X}", 0xD0 + n) }],
            "Status": { "State": "Enabled", "Health": "OK" },
        });
        if s.secure_erase {
            drive["Actions"] = json!({ "#Drive.SecureErase": {
                "target": format!("{p}/Actions/Drive.SecureErase") } });
        }
        d.insert(p.clone(), drive);
    }
    d.insert(
        vols.clone(),
        collection(
            &vols,
            "VolumeCollection",
            "Volume Collection",
            std::slice::from_ref(&vol),
        ),
    );
    d.insert(
        vol.clone(),
        json!({
            "@odata.id": vol, "@odata.type": "#Volume.v1_6_0.Volume", "Id": s.volume_id,
            "Name": "Virtual Disk 0", "RAIDType": "RAID1", "CapacityBytes": 959_656_755_200u64,
            "Status": { "State": "Enabled", "Health": "OK" },
            "Links": { "Drives": drives.iter().map(|p| link(p)).collect::<Vec<_>>() },
        }),
    );
    d
}
