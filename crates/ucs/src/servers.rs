//! Compute servers (blades and rack units) and service-profile templates.

use crate::endpoint::{out_configs, Endpoint, Kind};
use crate::error::{Error, Result};
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
    /// Distinguished name (`sys/chassis-1/blade-3`, `sys/rack-unit-2`; on UCS Central
    /// `compute/sys-1009/chassis-1/blade-3`).
    pub dn: String,
    /// The UCS domain it is in (UCS Central only).
    pub domain: Option<u32>,
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
            domain: domain_of(m.get("dn")),
            chassis_id: if is_blade { num("chassisId") } else { None },
            slot: if is_blade { num("slotId") } else { None },
            rack_id: match (is_blade, kind) {
                (true, _) => None,
                (false, Kind::Imc) => num("serverId").or_else(|| rack_from_dn(m.get("dn"))),
                (false, Kind::Ucsm | Kind::Ucsc) => num("id").or_else(|| rack_from_dn(m.get("dn"))),
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

/// The domain of a UCS Central DN: `compute/sys-1009/…` → 1009.
pub fn domain_of(dn: &str) -> Option<u32> {
    dn.strip_prefix("compute/sys-")?
        .split('/')
        .next()?
        .parse()
        .ok()
}

fn rack_from_dn(dn: &str) -> Option<u32> {
    dn.rsplit('/')
        .next()?
        .strip_prefix("rack-unit-")?
        .parse()
        .ok()
}

/// A UCS domain registered with a UCS Central.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CentralDomain {
    /// Central's id for it (`1009`), the first part of its servers' ids.
    pub id: u32,
    /// Its name.
    pub name: String,
    /// Its management address.
    pub address: String,
    /// Central reaches it (its registration is neither lost-visibility nor lost-connectivity).
    pub reachable: bool,
    /// The registration state as Central reports it (`registered`, `lost-visibility`, …).
    pub state: String,
    /// When Central last read the domain (`extpolClient.lastPollTs`, UCS's
    /// `YYYY-MM-DDTHH:MM:SS.mmm`): for a lost domain, how old what it shows of it is. None
    /// when Central does not say (`never`, or no registration record).
    pub last_read: Option<String>,
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
            Kind::Ucsm | Kind::Ucsc => &["computeBlade", "computeRackUnit"],
            Kind::Imc => &["computeRackUnit"],
        };
        let mos = self.resolve_classes(classes).await?;
        let mut servers: Vec<ComputeServer> = mos
            .iter()
            .map(|m| ComputeServer::from_mo(self.kind(), m))
            .collect();
        servers.sort_by_key(|s| {
            (
                s.kind == ServerKind::Rack,
                s.domain,
                s.chassis_id,
                s.slot,
                s.rack_id,
            )
        });
        Ok(servers)
    }

    /// The UCS domains registered with a UCS Central, in one request: each domain's
    /// `computeSystem` with its registration (`extpolClient`), which says whether Central
    /// still reaches it.
    pub async fn central_domains(&self) -> Result<Vec<CentralDomain>> {
        let mos = self
            .resolve_classes(&["computeSystem", "extpolClient"])
            .await?;
        let registration = |id: &str| {
            mos.iter()
                .find(|m| m.class == "extpolClient" && m.get("id") == id)
        };
        let mut domains: Vec<CentralDomain> = mos
            .iter()
            .filter(|m| m.class == "computeSystem")
            .filter_map(|m| {
                let id = m.get("id");
                let reg = registration(id);
                let state = reg.map_or("", |r| r.get("operState"));
                Some(CentralDomain {
                    id: id.parse().ok()?,
                    name: m.get("name").to_owned(),
                    address: m.get("address").to_owned(),
                    // Without a registration record Central cannot say; the domain's own
                    // requests will tell.
                    reachable: reg.is_none_or(|r| {
                        r.get("operState") != "lost-visibility"
                            && r.get("connectionState") != "lost-connectivity"
                    }),
                    state: state.to_owned(),
                    last_read: reg
                        .map(|r| r.get("lastPollTs"))
                        .filter(|t| !t.is_empty() && *t != "never")
                        .map(str::to_owned),
                })
            })
            .collect();
        domains.sort_by_key(|d| d.id);
        Ok(domains)
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
        Ok(out_configs(&reply).to_vec())
    }

    /// `configResolveClasses`: several classes in one request.
    pub async fn resolve_classes(&self, classes: &[&str]) -> Result<Vec<Mo>> {
        if let [one] = classes {
            return self.resolve_class(one, None).await;
        }
        let ids = classes.iter().fold(Mo::new("inIds"), |m, c| {
            m.child(Mo::new("classId").with("value", *c))
        });
        let reply = self.call_list("configResolveClasses", ids).await?;
        Ok(out_configs(&reply).to_vec())
    }

    /// Write objects (each with its `dn`), in the order given.
    ///
    /// UCS Manager and UCS Central take them all in one `configConfMos`: one all-or-nothing
    /// transaction.
    /// A standalone IMC gets one `configConfMo` per object, one after the other (the way
    /// imcsdk's `add_mo`/`set_mo`/`remove_mo` write), and has no transaction spanning
    /// requests: the first failure stops the sequence, the objects before it stay applied,
    /// and the error names the object that failed. So order parents before children, and
    /// after a failure plan again rather than resend the same list.
    pub async fn configure(&self, objects: Vec<Mo>) -> Result<Vec<Mo>> {
        if objects.is_empty() {
            return Ok(Vec::new());
        }
        match self.kind() {
            Kind::Ucsm | Kind::Ucsc => self.configure_together(objects).await,
            Kind::Imc => self.configure_one_by_one(objects).await,
        }
    }

    async fn configure_together(&self, objects: Vec<Mo>) -> Result<Vec<Mo>> {
        let pairs = objects.into_iter().fold(Mo::new("inConfigs"), |m, o| {
            let key = o.get("dn").to_owned();
            m.child(Mo::new("pair").with("key", key).child(o))
        });
        let reply = self.call_list("configConfMos", pairs).await?;
        Ok(out_configs(&reply)
            .iter()
            .filter_map(|p| p.children.first().cloned())
            .collect())
    }

    async fn configure_one_by_one(&self, objects: Vec<Mo>) -> Result<Vec<Mo>> {
        let total = objects.len();
        let mut written = Vec::with_capacity(total);
        for (done, o) in objects.into_iter().enumerate() {
            let dn = o.get("dn").to_owned();
            let request = Mo::new("configConfMo")
                .with("dn", dn.as_str())
                .with("inHierarchical", "false")
                .child(Mo::new("inConfig").child(o));
            let reply = self
                .call(request)
                .await
                .map_err(|e| failed_at(e, &dn, done, total))?;
            written.extend(
                reply
                    .find("outConfig")
                    .map(|c| c.children.clone())
                    .unwrap_or_default(),
            );
        }
        Ok(written)
    }
}

/// Say which object of a one-by-one write failed and how many before it are applied: the
/// IMC keeps those, so the caller needs to know the sequence stopped half-way.
fn failed_at(e: Error, dn: &str, done: usize, total: usize) -> Error {
    let place = format!(
        "object {} of {total}, {dn}; the {done} before it stay applied",
        done + 1
    );
    tracing::warn!(object = dn, done, total, error = %e, "IMC write stopped");
    match e {
        Error::Api {
            method,
            code,
            descr,
        } => Error::Api {
            method: format!("{method} ({place})"),
            code,
            descr,
        },
        Error::Protocol { address, reason } => Error::Protocol {
            address,
            reason: format!("{reason} ({place})"),
        },
        Error::Unreachable { address, reason } => Error::Unreachable {
            address,
            reason: format!("{reason} ({place}; it may or may not have been applied)"),
        },
        // Timeouts and HTTP statuses carry no free text; the log above names the object.
        other => other,
    }
}
