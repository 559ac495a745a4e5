//! Compute servers (blades and rack units) and service-profile templates.

use crate::endpoint::{Endpoint, Kind};
use crate::error::Result;
use crate::xml::Mo;

/// Blade or rack server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServerKind {
    /// A blade in a chassis.
    Blade,
    /// A rack unit.
    Rack,
}

/// One server as the manager reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComputeServer {
    /// Blade or rack.
    pub kind: ServerKind,
    /// Distinguished name (`sys/chassis-1/blade-3`, `sys/rack-unit-2`).
    pub dn: String,
    /// Chassis number (blades).
    pub chassis_id: Option<u32>,
    /// Slot number (blades).
    pub slot: Option<u32>,
    /// Rack unit number (rack servers).
    pub rack_id: Option<u32>,
    /// Model.
    pub model: String,
    /// Serial number.
    pub serial: String,
    /// CPU sockets.
    pub num_cpus: String,
    /// Cores.
    pub num_cores: String,
    /// Memory, MB.
    pub ram: String,
    /// Memory speed, MHz.
    pub ram_speed: String,
    /// `on`, `off`, …
    pub oper_power: String,
    /// `none`, `associated`, … (empty on a standalone IMC).
    pub association: String,
    /// DN of the service profile assigned to it, or empty.
    pub service_profile: String,
    /// User label.
    pub label: String,
}

impl ComputeServer {
    fn from_mo(kind: Kind, m: &Mo) -> ComputeServer {
        let num = |k: &str| m.get(k).parse::<u32>().ok();
        let is_blade = m.class == "computeBlade";
        ComputeServer {
            kind: if is_blade {
                ServerKind::Blade
            } else {
                ServerKind::Rack
            },
            dn: m.get("dn").to_owned(),
            chassis_id: if is_blade { num("chassisId") } else { None },
            slot: if is_blade { num("slotId") } else { None },
            rack_id: match (is_blade, kind) {
                (true, _) => None,
                (false, Kind::Imc) => num("serverId").or_else(|| rack_from_dn(m.get("dn"))),
                (false, Kind::Ucsm) => num("id").or_else(|| rack_from_dn(m.get("dn"))),
            },
            model: m.get("model").to_owned(),
            serial: m.get("serial").to_owned(),
            num_cpus: m.get("numOfCpus").to_owned(),
            num_cores: m.get("numOfCores").to_owned(),
            ram: m.get("totalMemory").to_owned(),
            ram_speed: m.get("memorySpeed").to_owned(),
            oper_power: m.get("operPower").to_owned(),
            association: m.get("association").to_owned(),
            service_profile: m.get("assignedToDn").to_owned(),
            label: m.get("usrLbl").to_owned(),
        }
    }
}

fn rack_from_dn(dn: &str) -> Option<u32> {
    dn.rsplit('/')
        .next()?
        .strip_prefix("rack-unit-")?
        .parse()
        .ok()
}

/// A service-profile template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    /// Template name.
    pub name: String,
    /// Its DN (`org-root/ls-<name>`).
    pub dn: String,
    /// `initial-template` or `updating-template`.
    pub kind: String,
}

impl Endpoint {
    /// Every blade and rack server, in one request.
    pub async fn servers(&self) -> Result<Vec<ComputeServer>> {
        let classes: &[&str] = match self.kind() {
            Kind::Ucsm => &["computeBlade", "computeRackUnit"],
            Kind::Imc => &["computeRackUnit"],
        };
        let mos = self.resolve_classes(classes).await?;
        let mut servers: Vec<ComputeServer> = mos
            .iter()
            .map(|m| ComputeServer::from_mo(self.kind(), m))
            .collect();
        servers.sort_by_key(|s| (s.kind == ServerKind::Rack, s.chassis_id, s.slot, s.rack_id));
        Ok(servers)
    }

    /// Service-profile templates (none on a standalone IMC).
    pub async fn templates(&self) -> Result<Vec<Template>> {
        if self.kind() == Kind::Imc {
            return Ok(Vec::new());
        }
        let filter = Mo::new("or")
            .child(
                Mo::new("eq")
                    .with("class", "lsServer")
                    .with("property", "type")
                    .with("value", "initial-template"),
            )
            .child(
                Mo::new("eq")
                    .with("class", "lsServer")
                    .with("property", "type")
                    .with("value", "updating-template"),
            );
        let mos = self.resolve_class("lsServer", Some(filter)).await?;
        let mut t: Vec<Template> = mos
            .iter()
            .map(|m| Template {
                name: m.get("name").to_owned(),
                dn: m.get("dn").to_owned(),
                kind: m.get("type").to_owned(),
            })
            .collect();
        t.sort_by(|a, b| a.dn.cmp(&b.dn));
        Ok(t)
    }

    /// `configResolveClass` with an optional filter; the objects found.
    pub async fn resolve_class(&self, class: &str, filter: Option<Mo>) -> Result<Vec<Mo>> {
        let mut req = Mo::new("configResolveClass")
            .with("classId", class)
            .with("inHierarchical", "false");
        if let Some(f) = filter {
            req = req.child(Mo::new("inFilter").child(f));
        }
        let reply = self.call(req).await?;
        Ok(reply
            .find("outConfigs")
            .map(|o| o.children.clone())
            .unwrap_or_default())
    }

    /// `configResolveClasses`: several classes in one request.
    pub async fn resolve_classes(&self, classes: &[&str]) -> Result<Vec<Mo>> {
        if let [one] = classes {
            return self.resolve_class(one, None).await;
        }
        let ids = classes.iter().fold(Mo::new("inIds"), |m, c| {
            m.child(Mo::new("classId").with("value", *c))
        });
        let reply = self
            .call(
                Mo::new("configResolveClasses")
                    .with("inHierarchical", "false")
                    .child(ids),
            )
            .await?;
        Ok(reply
            .find("outConfigs")
            .map(|o| o.children.clone())
            .unwrap_or_default())
    }

    /// `configConfMos`: write objects (each with its `dn`) in one all-or-nothing transaction.
    pub async fn configure(&self, objects: Vec<Mo>) -> Result<Vec<Mo>> {
        if objects.is_empty() {
            return Ok(Vec::new());
        }
        let pairs = objects.into_iter().fold(Mo::new("inConfigs"), |m, o| {
            let key = o.get("dn").to_owned();
            m.child(Mo::new("pair").with("key", key).child(o))
        });
        let reply = self
            .call(
                Mo::new("configConfMos")
                    .with("inHierarchical", "false")
                    .child(pairs),
            )
            .await?;
        Ok(reply
            .find("outConfigs")
            .map(|o| {
                o.children
                    .iter()
                    .filter_map(|p| p.children.first().cloned())
                    .collect()
            })
            .unwrap_or_default())
    }
}
