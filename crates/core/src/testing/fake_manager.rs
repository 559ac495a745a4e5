//! An in-memory [`Manager`]: the deploy and compute rules tested in milliseconds, with
//! every write it was asked for kept, so a test can say exactly which servers were touched.
//!
//! It keeps the contract the core relies on from the real drivers:
//! - a second plan of the same spec finds every object unchanged;
//! - a later deploy deletes what earlier runs recorded and it no longer wants, and never an
//!   object nobody recorded;
//! - a host whose write fails is reported failed on the job while the other hosts are still
//!   written, then the run fails naming it (as the Redfish driver does);
//! - hosts naming no server share a pool of the group's selected servers;
//! - a run is checked by the group's real driver before it starts (no copy of its rules);
//! - a profile written bound to a server makes that server run it;
//! - a central manager's lost domain shows its servers as last read;
//! - a refused login fails every call.
//!
//! It is one fake for every kind: the group's `type` still decides its capabilities, so a
//! `ucsm` group behind it is refused what UCS Manager cannot do.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;

use async_trait::async_trait;

use crate::error::{Error, ErrorCode, Result};
use crate::jobs::{JobCtx, JobStep, StepState};
use crate::managers::{
    Association, Connection, DeploySpec, Disk, HostProgress, Identity, Manager, MediaProgress,
    MediaState, ObjectAction, Plan, PlannedObject, PowerAction, PowerState, Recorded, Reported,
    Server, ServerDomain, Stage, Template, Unmounted, What,
};
use crate::records::hosts::Host;
use crate::secrets::SecretString;
use bootsmith_model::types::NodeId;

/// One write the fake was asked for, in the order it came.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FakeWrite {
    /// A power action on the server with this id (`1/3`, `2`).
    Power {
        /// The server's id.
        server: String,
        /// What was asked.
        action: PowerAction,
    },
    /// A disk reset of the server with this id.
    DiskReset {
        /// The server's id.
        server: String,
        /// The disk's id on its controller.
        disk: String,
    },
    /// An object created, modified or deleted by a run, an undeploy or an unmount.
    Object {
        /// Its name.
        dn: String,
        /// What was done to it (never `Unchanged`: leaving alone is no write).
        action: ObjectAction,
    },
}

/// An object the fake holds: what the core would see as a manager object.
#[derive(Debug, Clone)]
struct Object {
    class: String,
    /// `property: value` lines; a difference is a `modify`.
    props: Vec<String>,
    host: Option<String>,
    /// The server it is bound to: a profile associates with it, and the server runs it.
    server: Option<String>,
    what: String,
}

/// What the manager holds and was asked: one lock, so a call sees one moment.
#[derive(Debug, Default)]
struct State {
    servers: Vec<Server>,
    templates: Vec<Template>,
    disks: Vec<Disk>,
    objects: BTreeMap<String, Object>,
    writes: Vec<FakeWrite>,
    login_fails: bool,
    failing_hosts: BTreeSet<String>,
}

impl State {
    /// The profile `dn` now runs on server `id` (on none): the server it ran on before
    /// runs nothing.
    fn bind(&mut self, dn: &str, id: Option<&str>) {
        for s in &mut self.servers {
            if s.service_profile == dn {
                s.service_profile.clear();
                s.association = Some(Association::Unassociated);
            }
            if id == Some(s.id.to_string().as_str()) {
                s.service_profile = dn.into();
                s.association = Some(Association::Associated);
            }
        }
    }
}

/// A manager in memory: servers, disks, templates and the objects runs wrote to it. Build
/// one with [`FakeManager::new`] and the server methods, put it behind a group with
/// `Managers::insert_for_tests`, then read [`FakeManager::writes`].
#[derive(Debug)]
pub struct FakeManager {
    state: Mutex<State>,
    /// True while runs wait before writing (so a test can act while a run is under way).
    held: tokio::sync::watch::Sender<bool>,
}

impl Default for FakeManager {
    fn default() -> FakeManager {
        FakeManager {
            state: Mutex::default(),
            held: tokio::sync::watch::Sender::new(false),
        }
    }
}

impl FakeManager {
    /// A manager with no servers.
    pub fn new() -> FakeManager {
        FakeManager::default()
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().expect("fake manager lock")
    }

    /// Add a server (`1/3` a blade, `2` a rack server; `1009/1/3` and `1009/2` in domain
    /// 1009 of a central manager, which reaches it), powered off, with no profile.
    pub fn server(self, id: &str) -> FakeManager {
        let node = NodeId::parse(id).unwrap_or_else(|e| panic!("server id {id}: {e}"));
        let (dn, domain) = match &node {
            NodeId::Blade(b) => (format!("chassis-{}/blade-{}", b.chassis, b.slot), b.domain),
            NodeId::Rack(r) => (format!("rack-unit-{}", r.id), r.domain),
        };
        let dn = match domain {
            Some(d) => format!("compute/sys-{d}/{dn}"),
            None => format!("sys/{dn}"),
        };
        let domain = domain.map(|id| ServerDomain {
            id,
            name: format!("ucs-{id}"),
            reachable: true,
            state: "registered".into(),
            last_read: Some("2026-01-01T10:00:00.000".into()),
        });
        self.state().servers.push(Server {
            id: node,
            dn,
            model: "FAKE-1".into(),
            serial: format!("FAKE{}", id.replace('/', "")),
            uuid: None,
            num_cpus: Reported::Number(2),
            num_cores: Reported::Number(16),
            ram: Reported::Number(65536),
            ram_speed: Reported::Number(2400),
            oper_power: Some(PowerState::Off),
            association: Some(Association::Unassociated),
            service_profile: String::new(),
            label: String::new(),
            domain,
            bmc: None,
        });
        // The trait promises blades first by chassis and slot, then rack servers.
        self.state().servers.sort_by_key(|s| match &s.id {
            NodeId::Blade(b) => (0, b.domain, b.chassis, b.slot),
            NodeId::Rack(r) => (1, r.domain, r.id, 0),
        });
        self
    }

    /// Set server `id`'s power as the manager words it (`on`, `off`).
    pub fn powered(self, id: &str, power: &str) -> FakeManager {
        self.with_server(id, |s| s.oper_power = PowerState::from_word(power));
        self
    }

    /// Make server `id` run the profile `dn` (one Bootsmith did not create, unless a deploy
    /// recorded it).
    pub fn running(self, id: &str, dn: &str) -> FakeManager {
        self.with_server(id, |s| {
            s.service_profile = dn.into();
            s.association = Some(Association::Associated);
        });
        self
    }

    /// The central manager has lost domain `id`: its servers are shown as last read.
    pub fn lost_domain(self, id: u32) -> FakeManager {
        for s in &mut self.state().servers {
            if let Some(d) = s.domain.as_mut().filter(|d| d.id == id) {
                d.reachable = false;
                d.state = "lost-visibility".into();
            }
        }
        self
    }

    /// Hold an object someone else made (its properties are not what a deploy wants).
    pub fn existing(self, dn: &str, class: &str) -> FakeManager {
        self.state().objects.insert(
            dn.into(),
            Object {
                class: class.into(),
                props: vec!["made by someone else".into()],
                host: None,
                server: None,
                what: format!("{class} someone else made"),
            },
        );
        self
    }

    /// Give server `id` a local disk `disk` in `state` (`online`, `unconfigured-good`, …).
    pub fn disk(self, id: &str, disk: &str, state: &str) -> FakeManager {
        let server_dn = self.with_server(id, |s| s.dn.clone());
        self.state().disks.push(Disk {
            dn: format!("{server_dn}/disk-{disk}"),
            server_dn,
            id: disk.into(),
            state: state.into(),
            model: "FAKE-SSD".into(),
            size: "480000".into(),
            facts: bootsmith_model::install_disk::DiskFacts {
                size_bytes: Some(480_000 << 20),
                model: Some("FAKE-SSD".into()),
                serial: Some(format!("FAKE{}", disk)),
                ..bootsmith_model::install_disk::DiskFacts::local(disk)
            },
        });
        self
    }

    /// Add a service-profile template `name` under org-root.
    pub fn template(self, name: &str, kind: crate::compute::TemplateType) -> FakeManager {
        self.state().templates.push(Template {
            dn: format!("org-root/ls-{name}"),
            name: name.into(),
            kind,
        });
        self
    }

    fn with_server<R>(&self, id: &str, f: impl FnOnce(&mut Server) -> R) -> R {
        let mut st = self.state();
        let s = st
            .servers
            .iter_mut()
            .find(|s| s.id.to_string() == id)
            .unwrap_or_else(|| panic!("the fake has no server {id}; add it first"));
        f(s)
    }

    /// From now on, every call fails as a refused login does (or, with false, works again).
    pub fn set_login_fails(&self, fails: bool) {
        self.state().login_fails = fails;
    }

    /// From now on, a run's writes for host `name` fail (its manager or BMC refuses them).
    pub fn fail_writes_for(&self, name: &str) {
        self.state().failing_hosts.insert(name.into());
    }

    /// From now on, runs wait before they write, until [`FakeManager::release_runs`].
    pub fn hold_runs(&self) {
        self.held.send_replace(true);
    }

    /// Let held runs write.
    pub fn release_runs(&self) {
        self.held.send_replace(false);
    }

    /// Every write so far, in order.
    pub fn writes(&self) -> Vec<FakeWrite> {
        self.state().writes.clone()
    }

    /// The ids of the servers power actions were sent to, with the action, in order.
    pub fn power_writes(&self) -> Vec<(String, PowerAction)> {
        self.writes()
            .into_iter()
            .filter_map(|w| match w {
                FakeWrite::Power { server, action } => Some((server, action)),
                _ => None,
            })
            .collect()
    }

    /// The objects runs created, modified or deleted, in order.
    pub fn object_writes(&self) -> Vec<(String, ObjectAction)> {
        self.writes()
            .into_iter()
            .filter_map(|w| match w {
                FakeWrite::Object { dn, action } => Some((dn, action)),
                _ => None,
            })
            .collect()
    }

    /// Server `id` as the manager reports it now.
    pub fn server_now(&self, id: &str) -> Server {
        self.with_server(id, |s| s.clone())
    }

    /// The names of the objects the manager holds now.
    pub fn object_names(&self) -> Vec<String> {
        self.state().objects.keys().cloned().collect()
    }

    fn login(&self) -> Result<()> {
        if self.state().login_fails {
            return Err(bootsmith_ucs::Error::LoginFailed {
                address: "fake".into(),
                code: "552".into(),
                descr: "Authorization required".into(),
            }
            .into());
        }
        Ok(())
    }

    /// Every object a run wants, shared ones first, then each host's in the spec's order.
    fn wanted(spec: &DeploySpec, what: What) -> Vec<(String, Object)> {
        let org = spec.org.as_str();
        let mut out = Vec::new();
        if what == What::Deploy && needs_pool(spec) {
            let pool = &spec.group.server_pool;
            let members = pool
                .blades
                .iter()
                .map(|b| format!("member: blade {b}"))
                .chain(
                    pool.rack_servers
                        .iter()
                        .map(|r| format!("member: rack server {r}")),
                );
            out.push((
                format!("{org}/compute-pool-{}", spec.svc_name),
                Object {
                    class: "computePool".into(),
                    props: members.collect(),
                    host: None,
                    server: None,
                    what: format!("server pool {}", spec.svc_name),
                },
            ));
        }
        if what == What::Deploy {
            out.push((
                format!("{org}/boot-policy-{}", spec.svc_name),
                Object {
                    class: "lsbootPolicy".into(),
                    props: vec!["order: local disk, then CIMC virtual media".into()],
                    host: None,
                    server: None,
                    what: format!("boot policy {}", spec.svc_name),
                },
            ));
        }
        for h in &spec.hosts {
            let name = h.name.to_string();
            out.push((
                format!("{org}/mnt-cfg-policy-{name}"),
                Object {
                    class: "cimcvmediaMountConfigPolicy".into(),
                    props: media_urls(spec, h),
                    host: Some(name.clone()),
                    server: None,
                    what: format!("virtual-media policy of {name}"),
                },
            ));
            if what == What::Deploy {
                let template = h
                    .service_profile_template
                    .as_ref()
                    .map_or_else(|| spec.svc_name.clone(), ToString::to_string);
                let server = h.server.as_ref().map(ToString::to_string);
                let mut props = vec![format!("template: {template}")];
                props.extend(server.iter().map(|s| format!("server: {s}")));
                out.push((
                    format!("{org}/ls-{name}"),
                    Object {
                        class: "lsServer".into(),
                        props,
                        host: Some(name.clone()),
                        server,
                        what: format!("profile {name} from template {template}"),
                    },
                ));
            }
        }
        out
    }

    /// The plan of `spec` against what the fake holds now.
    fn diff(&self, spec: &DeploySpec, what: What, recorded: &[Recorded]) -> Plan {
        let st = self.state();
        let wanted = FakeManager::wanted(spec, what);
        let mut plan = Plan::default();
        for (dn, want) in &wanted {
            let (action, changed) = match st.objects.get(dn) {
                None => (ObjectAction::Create, want.props.clone()),
                Some(have) if have.props == want.props => (ObjectAction::Unchanged, Vec::new()),
                Some(have) => (
                    ObjectAction::Modify,
                    want.props
                        .iter()
                        .filter(|p| !have.props.contains(p))
                        .cloned()
                        .collect(),
                ),
            };
            plan.objects.push(planned(dn, want, action, changed));
        }
        // Only a deploy owns the profiles and policies: what it no longer wants goes, and
        // only what a run recorded (never an object someone else made).
        if what == What::Deploy {
            for r in recorded {
                if wanted.iter().any(|(dn, _)| *dn == r.dn) {
                    continue;
                }
                if let Some(have) = st.objects.get(&r.dn) {
                    plan.objects
                        .push(planned(&r.dn, have, ObjectAction::Delete, Vec::new()));
                }
            }
        }
        plan
    }

    /// Carry out `objects` of the plan, recording each write.
    fn write(&self, spec: &DeploySpec, what: What, objects: &[PlannedObject]) {
        let wanted = FakeManager::wanted(spec, what);
        let mut st = self.state();
        for o in objects {
            match o.action {
                ObjectAction::Unchanged => continue,
                ObjectAction::Delete => {
                    st.objects.remove(&o.dn);
                    st.bind(&o.dn, None);
                }
                ObjectAction::Create | ObjectAction::Modify => {
                    let (_, obj) = wanted
                        .iter()
                        .find(|(dn, _)| *dn == o.dn)
                        .expect("a planned object is wanted");
                    st.objects.insert(o.dn.clone(), obj.clone());
                    st.bind(&o.dn, obj.server.as_deref());
                }
            }
            st.writes.push(FakeWrite::Object {
                dn: o.dn.clone(),
                action: o.action,
            });
        }
    }

    fn server_of(&self, host: &Host) -> Option<Server> {
        let id = host.server.as_ref()?;
        self.state().servers.iter().find(|s| s.id == *id).cloned()
    }
}

/// Some host gets its server from the group's pool: it names neither a server nor a template.
fn needs_pool(spec: &DeploySpec) -> bool {
    spec.hosts
        .iter()
        .any(|h| h.service_profile_template.is_none() && h.server.is_none())
}

fn planned(dn: &str, o: &Object, action: ObjectAction, changed: Vec<String>) -> PlannedObject {
    PlannedObject {
        dn: dn.into(),
        class: o.class.clone(),
        action,
        changed,
        host: o.host.clone(),
        what: o.what.clone(),
    }
}

/// The URLs `h`'s server mounts: its single-device ISO alone, else its boot media and answer
/// disk.
fn media_urls(spec: &DeploySpec, h: &Host) -> Vec<String> {
    if let Some(one) = spec.single_device.get(h.name.as_str()) {
        return vec![format!("mount: {one}")];
    }
    let media = spec.media_of(h.name.as_str());
    std::iter::once(&media.boot)
        .chain(&media.answer)
        .map(|f| format!("mount: {}", spec.url(f)))
        .collect()
}

#[async_trait]
impl Manager for FakeManager {
    async fn identify(&self) -> Result<Identity> {
        self.login()?;
        Ok(Identity {
            version: "fake 1.0".into(),
        })
    }

    async fn servers(&self) -> Result<Vec<Server>> {
        self.login()?;
        Ok(self.state().servers.clone())
    }

    async fn templates(&self) -> Result<Vec<Template>> {
        self.login()?;
        Ok(self.state().templates.clone())
    }

    async fn set_power(&self, servers: &[&Server], action: PowerAction) -> Result<()> {
        self.login()?;
        let mut st = self.state();
        for s in servers {
            st.writes.push(FakeWrite::Power {
                server: s.id.to_string(),
                action,
            });
            if let Some(mine) = st.servers.iter_mut().find(|m| m.dn == s.dn) {
                mine.oper_power = Some(match action {
                    PowerAction::Off => PowerState::Off,
                    _ => PowerState::On,
                });
            }
        }
        Ok(())
    }

    async fn disks(&self) -> Result<Vec<Disk>> {
        self.login()?;
        Ok(self.state().disks.clone())
    }

    /// The disks are reset at once (a real manager takes its time; the core waits either way).
    async fn reset_disks(&self, disks: &[&Disk]) -> Result<()> {
        self.login()?;
        let mut st = self.state();
        for d in disks {
            let server = st
                .servers
                .iter()
                .find(|s| s.dn == d.server_dn)
                .map(|s| s.id.to_string())
                .unwrap_or_default();
            st.writes.push(FakeWrite::DiskReset {
                server,
                disk: d.id.clone(),
            });
            if let Some(mine) = st.disks.iter_mut().find(|m| m.dn == d.dn) {
                mine.state = "unconfigured-good".into();
            }
        }
        Ok(())
    }

    async fn stages(&self, _servers: &[&Server]) -> Result<Vec<Stage>> {
        self.login()?;
        Ok(Vec::new())
    }

    /// The group's real driver refuses what it would: its check reads the spec alone, and
    /// connecting sends nothing until a request (so the rules are its own, not a copy).
    fn check(&self, spec: &DeploySpec, what: What) -> Result<()> {
        let Some(driver) = crate::managers::driver(spec.group.kind) else {
            return Err(spec.group.kind.not_supported_yet(&spec.group.name));
        };
        let real = (driver.connect)(&Connection {
            address: spec.group.address.clone(),
            user: spec.group.user.clone(),
            password: SecretString::new("unused"),
            insecure: true,
            fingerprint: None,
            more: Vec::new(),
        })?;
        real.check(spec, what)
    }

    async fn plan(&self, spec: &DeploySpec, what: What, recorded: &[Recorded]) -> Result<Plan> {
        self.login()?;
        Ok(self.diff(spec, what, recorded))
    }

    /// Writes what the group shares, then host by host; a failing host gets a failed
    /// `virtual-media` step and the others are still written, then the run fails naming it.
    async fn apply(
        &self,
        spec: &DeploySpec,
        what: What,
        recorded: &[Recorded],
        job: &JobCtx,
    ) -> Result<Plan> {
        self.login()?;
        // The sender lives as long as self, so the wait ends only on release.
        let _ = self.held.subscribe().wait_for(|held| !*held).await;
        let plan = self.diff(spec, what, recorded);
        let failing = self.state().failing_hosts.clone();
        let (_refused, good): (Vec<PlannedObject>, Vec<PlannedObject>) = plan
            .objects
            .into_iter()
            .partition(|o| o.host.as_ref().is_some_and(|h| failing.contains(h)));
        self.write(spec, what, &good);
        let mut failed = Vec::new();
        for h in &spec.hosts {
            let name = h.name.as_str();
            if failing.contains(name) {
                let why = format!("host {name}: the fake manager refused its writes");
                job.step(
                    Some(name),
                    JobStep::VirtualMedia,
                    StepState::Failed,
                    Some(&why),
                );
                failed.push(why);
            } else {
                job.step(Some(name), JobStep::VirtualMedia, StepState::Done, None);
            }
        }
        if !failed.is_empty() {
            return Err(Error::Unprocessable {
                code: ErrorCode::BmcError,
                message: failed.join("; "),
                details: Vec::new(),
            });
        }
        Ok(Plan {
            objects: good,
            warnings: plan.warnings,
        })
    }

    async fn plan_removal(&self, recorded: &[Recorded]) -> Result<Plan> {
        self.login()?;
        let st = self.state();
        let objects = recorded
            .iter()
            .filter_map(|r| {
                let o = st.objects.get(&r.dn)?;
                Some(planned(&r.dn, o, ObjectAction::Delete, Vec::new()))
            })
            .collect();
        Ok(Plan {
            objects,
            warnings: Vec::new(),
        })
    }

    async fn remove(&self, recorded: &[Recorded]) -> Result<Plan> {
        let plan = self.plan_removal(recorded).await?;
        let mut st = self.state();
        for o in &plan.objects {
            st.objects.remove(&o.dn);
            st.bind(&o.dn, None);
            st.writes.push(FakeWrite::Object {
                dn: o.dn.clone(),
                action: ObjectAction::Delete,
            });
        }
        Ok(plan)
    }

    async fn host_servers(&self, spec: &DeploySpec) -> Result<Vec<Option<Server>>> {
        self.login()?;
        Ok(spec.hosts.iter().map(|h| self.server_of(h)).collect())
    }

    /// Every host with a server is associated at once, its media mounted.
    async fn follow(&self, spec: &DeploySpec, job: &JobCtx) -> Result<Vec<HostProgress>> {
        self.login()?;
        let mut out = Vec::new();
        for h in &spec.hosts {
            let name = h.name.to_string();
            let server = self.server_of(h);
            let (association, media) = match &server {
                Some(_) => (
                    "associated",
                    Some(MediaProgress {
                        state: MediaState::Mounted,
                        urls: media_urls(spec, h),
                        error: None,
                    }),
                ),
                None => ("associating", None),
            };
            job.step(
                Some(&name),
                JobStep::Association,
                if server.is_some() {
                    StepState::Done
                } else {
                    StepState::Started
                },
                Some(association),
            );
            out.push(HostProgress {
                host: name,
                association: association.into(),
                server: server
                    .as_ref()
                    .map(|s| s.id.to_string())
                    .unwrap_or_default(),
                power: PowerState::word_of(server.and_then(|s| s.oper_power).as_ref()).to_owned(),
                media,
            });
        }
        Ok(out)
    }

    async fn unmount(&self, spec: &DeploySpec, host: &Host) -> Result<Unmounted> {
        self.login()?;
        let dn = format!("{}/mnt-cfg-policy-{}", spec.org.as_str(), host.name);
        let mut st = self.state();
        let n = usize::from(st.objects.remove(&dn).is_some());
        if n == 1 {
            st.writes.push(FakeWrite::Object {
                dn,
                action: ObjectAction::Delete,
            });
        }
        Ok(Unmounted::Objects(n))
    }

    async fn logout(&self) {}
}
