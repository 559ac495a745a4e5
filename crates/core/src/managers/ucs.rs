//! What UCS Manager, UCS Central and a standalone IMC speak alike: the same XML API (`bootsmith_ucs`),
//! the same server, disk and FSM classes, and deploys planned as the difference between the
//! objects wanted and those on the manager. A [`Flavor`] says what differs: which objects
//! a run wants, which server is a host's, how a write is sent and following association.

mod disks;

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use bootsmith_ucs::{
    Action, Change, ComputeServer, Endpoint, Kind, LocalDisk, ServerKind, Target, Trust, Wanted,
};

use super::model::*;
use super::{ConsolePage, Manager, Unmounted, REQUEST_TIMEOUT};
use crate::error::{Error, Result};
use crate::jobs::{JobCtx, JobStep, StepState};
use crate::records::hosts::Host;
use bootsmith_model::types::{BladeId, NodeId, RackId};

/// Where one image a server's controller was given got to.
pub(super) enum Mounted {
    /// Mounted.
    Yes,
    /// Could not be mounted, and why (in the operator's words).
    Failed(String),
    /// Still on its way.
    Pending,
}

/// An image a host's server mounts: its URL and where it got to.
pub(super) struct ImageMount {
    pub url: String,
    pub state: Mounted,
}

/// A server in the words operators use: `blade 1/2`, `rack server 3` (`blade 1009/1/2` under
/// UCS Central), else its DN.
pub(super) fn server_words(dn: &str) -> String {
    let (domain, local) = match dn.strip_prefix("compute/sys-") {
        Some(rest) => match rest.split_once('/') {
            Some((d, local)) => (
                format!("{d}/"),
                format!("sys/{}", local.trim_start_matches("sys/")),
            ),
            None => return dn.to_owned(),
        },
        None => (String::new(), dn.to_owned()),
    };
    let parts: Vec<&str> = local.split('/').collect();
    match parts.as_slice() {
        ["sys", chassis, blade] => match (
            chassis.strip_prefix("chassis-"),
            blade.strip_prefix("blade-"),
        ) {
            (Some(c), Some(b)) => format!("blade {domain}{c}/{b}"),
            _ => dn.to_owned(),
        },
        ["sys", rack] => match rack.strip_prefix("rack-unit-") {
            Some(r) => format!("rack server {domain}{r}"),
            None => dn.to_owned(),
        },
        _ => dn.to_owned(),
    }
}

/// UCS Manager's reason for a failed mount (`errorType`) in the operator's words.
pub(super) fn mount_reason(error_type: &str) -> String {
    match error_type {
        "connection-rejected" => "connection refused".into(),
        "connection-timeout" => "no answer in time".into(),
        "file-not-found" => "not found".into(),
        "http-server-no-range-support" => "the HTTP server does not serve byte ranges".into(),
        "http-server-no-content-length" => "the HTTP server does not give the file's size".into(),
        "authentication-failed" => "the HTTP server asks for a login".into(),
        "" | "none" | "unknown" => "the manager gives no reason".into(),
        other => other.replace('-', " "),
    }
}

/// A host's media from its server's mounts: None while some image is still on its way
/// (unless `timed_out`), else mounted, failed (a sentence naming the host, the server, each
/// URL that failed and why) or still mounting.
pub(super) fn media_progress(
    host: &str,
    server: &str,
    mounts: &[ImageMount],
    timed_out: bool,
) -> Option<MediaProgress> {
    let urls: Vec<String> = mounts.iter().map(|m| m.url.clone()).collect();
    let failed: Vec<String> = mounts
        .iter()
        .filter_map(|m| match &m.state {
            Mounted::Failed(why) => Some(format!("{} ({why})", m.url)),
            _ => None,
        })
        .collect();
    if !failed.is_empty() {
        return Some(MediaProgress {
            state: MediaState::Failed,
            urls,
            error: Some(format!(
                "{host}: {} could not mount {}, so it cannot boot its installer; {}",
                server_words(server),
                failed.join(" nor "),
                super::ADVICE
            )),
        });
    }
    let pending = mounts.iter().any(|m| matches!(m.state, Mounted::Pending));
    match (pending, timed_out) {
        (false, _) => Some(MediaProgress {
            state: MediaState::Mounted,
            urls,
            error: None,
        }),
        (true, false) => None,
        (true, true) => Some(MediaProgress {
            state: MediaState::Mounting,
            urls,
            error: None,
        }),
    }
}

/// The `media` step of a host, as far as its media got.
pub(super) fn report_media(job: &JobCtx, host: &str, media: &MediaProgress, waited: Duration) {
    let (state, msg) = match media.state {
        MediaState::Mounted => (
            StepState::Done,
            format!("mounted {}", media.urls.join(" and ")),
        ),
        MediaState::Failed => (StepState::Failed, media.error.clone().unwrap_or_default()),
        MediaState::Mounting => (
            StepState::Skipped,
            format!(
                "still mounting {} after {} min",
                media.urls.join(" and "),
                waited.as_secs() / 60
            ),
        ),
    };
    job.step(Some(host), JobStep::Media, state, Some(&msg));
}

/// The objects a run wants, and what it leaves out with the reason.
pub(super) struct Wants {
    pub wanted: Vec<Wanted>,
    pub warnings: Vec<String>,
}

impl From<Vec<Wanted>> for Wants {
    fn from(wanted: Vec<Wanted>) -> Self {
        Wants {
            wanted,
            warnings: Vec::new(),
        }
    }
}

/// What one UCS dialect does its own way.
#[async_trait]
pub(super) trait Flavor: Send + Sync + 'static {
    /// The XML dialect.
    const KIND: Kind;

    /// What a refused write leaves behind, for the error.
    const REFUSED_KEEPS: &'static str;

    /// The media are mounted as soon as they are written (an IMC's mappings), so every run
    /// follows them; else only a run that follows association does.
    const MOUNTS_WHEN_WRITTEN: bool = false;

    /// Refuse a run that cannot work, before a job starts.
    fn check(&self, _spec: &DeploySpec, _what: What) -> Result<()> {
        Ok(())
    }

    /// The objects a deploy or media run wants, in write order (removals of what earlier
    /// runs made and this one no longer wants included).
    async fn wanted(
        &self,
        ep: &Endpoint,
        spec: &DeploySpec,
        what: What,
        recorded: &[Recorded],
    ) -> Result<Wants>;

    /// Refuse removing what deploys of `group` created, before anything is sent.
    async fn check_removal(
        &self,
        _ep: &Endpoint,
        _group: &str,
        _recorded: &[Recorded],
    ) -> Result<()> {
        Ok(())
    }

    /// Refuse a plan the manager would reject or misread (names taken by another kind of object).
    fn check_plan(&self, _spec: &DeploySpec, _changes: &[Change]) -> Result<()> {
        Ok(())
    }

    /// The host an object belongs to, where it is one host's.
    fn host_of<'a>(&self, spec: &'a DeploySpec, dn: &str) -> Option<&'a Host>;

    /// The objects to send for a plan (an IMC cannot edit some in place).
    fn to_send(
        &self,
        _wanted: &[Wanted],
        send: Vec<bootsmith_ucs::xml::Mo>,
    ) -> Vec<bootsmith_ucs::xml::Mo> {
        send
    }

    /// Every server, in the core's terms.
    async fn servers(&self, ep: &Endpoint) -> Result<Vec<Server>> {
        domain_servers(ep).await
    }

    /// Progress stages of the servers (or more).
    async fn stages(&self, ep: &Endpoint, _servers: &[&Server]) -> Result<Vec<Stage>> {
        domain_stages(ep).await
    }

    /// The server a host runs on now, if any.
    fn server_of<'a>(
        &self,
        spec: &DeploySpec,
        host: &Host,
        servers: &'a [Server],
    ) -> Option<&'a Server>;

    /// Follow association and the mounting of the media (only where the dialect has
    /// profiles), or (where written media mount at once) the mounting.
    async fn follow(
        &self,
        ep: &Endpoint,
        spec: &DeploySpec,
        job: &JobCtx,
    ) -> Result<Vec<HostProgress>>;

    /// What takes a host's virtual media away after its install (its own objects only), or
    /// why they stay.
    async fn unmount(&self, ep: &Endpoint, spec: &DeploySpec, host: &Host) -> Result<Unmount>;
}

/// What taking a host's virtual media away takes on a UCS manager.
pub(super) enum Unmount {
    /// Write these objects; `done` says what that does, in words (None: the count says it).
    Write {
        wanted: Vec<Wanted>,
        done: Option<String>,
    },
    /// Nothing of Bootsmith's carries the host's media: why, and what the operator can do.
    Keep(String),
}

/// A UCS manager of one dialect.
pub(super) struct UcsDriver<F> {
    ep: Endpoint,
    flavor: F,
}

impl<F: Flavor + Default> UcsDriver<F> {
    /// A connection; nothing is sent until the first call.
    pub fn connect(c: &Connection) -> Result<Arc<dyn Manager>> {
        let target = Target {
            kind: F::KIND,
            address: c.address.clone(),
            user: c.user.clone(),
            password: c.password.expose().to_owned(),
            trust: if c.insecure {
                Trust::Insecure
            } else {
                c.fingerprint.clone().map_or(Trust::Verify, Trust::Pinned)
            },
            timeout: REQUEST_TIMEOUT,
        };
        Ok(Arc::new(UcsDriver {
            ep: Endpoint::new(target)?,
            flavor: F::default(),
        }))
    }
}

/// The id selectors use for a server: `<chassis>/<slot>` or the rack number (with the domain
/// first under UCS Central).
fn node_id(s: &ComputeServer) -> NodeId {
    match s.kind {
        ServerKind::Blade => NodeId::Blade(BladeId {
            domain: s.domain,
            chassis: s.chassis_id.unwrap_or(0),
            slot: s.slot.unwrap_or(0),
        }),
        ServerKind::Rack => NodeId::Rack(RackId {
            domain: s.domain,
            id: s.rack_id.unwrap_or(0),
        }),
    }
}

/// Every server of one UCS domain (or IMC), in the core's terms.
pub(super) async fn domain_servers(ep: &Endpoint) -> Result<Vec<Server>> {
    Ok(ep
        .servers()
        .await?
        .iter()
        .map(|s| server(s, None))
        .collect())
}

/// The FSM stages one UCS domain reports, in the core's terms.
pub(super) async fn domain_stages(ep: &Endpoint) -> Result<Vec<Stage>> {
    Ok(ep.fsm_stages().await?.into_iter().map(stage).collect())
}

/// A server in the core's terms, with its domain under a central manager.
pub(super) fn server(s: &ComputeServer, domain: Option<ServerDomain>) -> Server {
    Server {
        id: node_id(s),
        dn: s.dn.clone(),
        model: s.model.clone(),
        serial: s.serial.clone(),
        uuid: None,
        num_cpus: Reported::parse(&s.num_cpus),
        num_cores: Reported::parse(&s.num_cores),
        ram: Reported::parse(&s.ram),
        ram_speed: Reported::parse(&s.ram_speed),
        oper_power: PowerState::from_word(&s.oper_power),
        association: Association::from_word(&s.association),
        service_profile: s.service_profile.clone(),
        label: s.label.clone(),
        domain,
        bmc: None,
    }
}

/// A stage in the core's terms.
pub(super) fn stage(s: bootsmith_ucs::FsmStage) -> Stage {
    Stage {
        server_dn: s.server_dn,
        name: s.name,
        order: s.order,
        retry: s.retry,
        stage_status: s.stage_status,
        descr: s.descr,
        last_update_time: s.last_update_time,
    }
}

/// The transport's view of a server, to address it.
pub(super) fn compute_server(s: &Server) -> ComputeServer {
    let (kind, domain, chassis_id, slot, rack_id) = match &s.id {
        NodeId::Blade(b) => (
            ServerKind::Blade,
            b.domain,
            Some(b.chassis),
            Some(b.slot),
            None,
        ),
        NodeId::Rack(r) => (ServerKind::Rack, r.domain, None, None, Some(r.id)),
    };
    ComputeServer {
        kind,
        dn: s.dn.clone(),
        domain,
        chassis_id,
        slot,
        rack_id,
        model: s.model.clone(),
        serial: s.serial.clone(),
        num_cpus: s.num_cpus.to_string(),
        num_cores: s.num_cores.to_string(),
        ram: s.ram.to_string(),
        ram_speed: s.ram_speed.to_string(),
        oper_power: PowerState::word_of(s.oper_power.as_ref()).to_owned(),
        association: s
            .association
            .as_ref()
            .map_or("", Association::word)
            .to_owned(),
        service_profile: s.service_profile.clone(),
        label: s.label.clone(),
    }
}

/// `absent` entries for recorded objects the run no longer wants; only the top of each
/// removed subtree (the manager removes the rest with it).
pub(super) fn stale(recorded: &[Recorded], wanted: &[Wanted]) -> Vec<Wanted> {
    let keep: std::collections::HashSet<&str> = wanted
        .iter()
        .filter(|w| !w.delete)
        .map(|w| w.mo.get("dn"))
        .collect();
    let gone: Vec<&Recorded> = recorded
        .iter()
        .filter(|r| !keep.contains(r.dn.as_str()))
        .collect();
    gone.iter()
        .filter(|r| !gone.iter().any(|o| r.dn.starts_with(&format!("{}/", o.dn))))
        .map(|r| Wanted::absent(&r.class, &r.dn))
        .collect()
}

/// What a change means, saying so where it binds a profile to its template again: one
/// unbound after its install (`unmount_after_install`) gets the template's vMedia policy back,
/// and its server installs again.
fn rebound(c: &Change, what: String, template: &str) -> String {
    let binds =
        c.class == "lsServer" && c.changed.iter().any(|p| p.starts_with("srcTemplName: ''"));
    if binds {
        format!("{what}: bound to {template} again, so its install media come back")
    } else {
        what
    }
}

impl<F: Flavor> UcsDriver<F> {
    fn plan_of(
        &self,
        spec: Option<&DeploySpec>,
        changes: Vec<Change>,
        warnings: Vec<String>,
    ) -> Plan {
        let objects = changes
            .into_iter()
            .map(|c| {
                let host = spec.and_then(|spec| self.flavor.host_of(spec, &c.dn));
                // A host's own template where it names one, else the group's SVC_<code>.
                let template = host
                    .and_then(|h| h.service_profile_template.as_ref())
                    .and_then(|t| t.as_str().rsplit_once("/ls-").map(|(_, n)| n))
                    .or(spec.map(|s| s.svc_name.as_str()))
                    .unwrap_or("");
                (c, host.cloned(), template.to_owned())
            })
            .map(|(c, host, template)| PlannedObject {
                what: rebound(
                    &c,
                    super::meaning::object(&c.class, &c.dn, host.as_ref(), &template),
                    &template,
                ),
                host: host.map(|h| h.name.to_string()),
                action: match c.action {
                    Action::Create => ObjectAction::Create,
                    Action::Modify => ObjectAction::Modify,
                    Action::Delete => ObjectAction::Delete,
                    Action::Unchanged => ObjectAction::Unchanged,
                },
                dn: c.dn,
                class: c.class,
                changed: c.changed,
            })
            .collect();
        Plan { objects, warnings }
    }

    /// A write the manager refused: say what it left behind, and name the host whose object
    /// it was when the manager's words give its name.
    fn refused(&self, spec: &DeploySpec, e: bootsmith_ucs::Error) -> Error {
        let bootsmith_ucs::Error::Api {
            method,
            code,
            descr,
        } = e
        else {
            return e.into();
        };
        let host = descr
            .split(|c: char| c.is_whitespace() || "()'\",:".contains(c))
            .find_map(|w| self.flavor.host_of(spec, w));
        let who = host
            .map(|h| format!("host {}: ", h.name))
            .unwrap_or_default();
        Error::from(bootsmith_ucs::Error::Api {
            method: format!(
                "deploy of {} ({}; {method})",
                spec.group.name,
                F::REFUSED_KEEPS
            ),
            code,
            descr: format!("{who}{descr}"),
        })
    }
}

#[async_trait]
impl<F: Flavor> Manager for UcsDriver<F> {
    async fn identify(&self) -> Result<Identity> {
        let info = self.ep.login().await?;
        self.ep.logout().await;
        Ok(Identity {
            version: info.version,
        })
    }

    async fn servers(&self) -> Result<Vec<Server>> {
        self.flavor.servers(&self.ep).await
    }

    async fn templates(&self) -> Result<Vec<Template>> {
        Ok(self
            .ep
            .templates()
            .await?
            .into_iter()
            // The query asks for templates only; anything else is no template to offer.
            .filter_map(|t| {
                Some(Template {
                    kind: TemplateType::parse(&t.kind)?,
                    dn: t.dn,
                    name: t.name,
                })
            })
            .collect())
    }

    async fn set_power(&self, servers: &[&Server], action: PowerAction) -> Result<()> {
        let servers: Vec<ComputeServer> = servers.iter().map(|s| compute_server(s)).collect();
        let refs: Vec<&ComputeServer> = servers.iter().collect();
        Ok(self.ep.set_power(&refs, action).await?)
    }

    async fn disks(&self) -> Result<Vec<Disk>> {
        let (drives, vds, luns) = tokio::try_join!(
            self.ep.local_disks(),
            self.ep.virtual_drives(),
            self.ep.san_luns()
        )?;
        Ok(disks::listed(drives, &vds, &luns))
    }

    async fn host_nics(&self) -> Result<Vec<HostNic>> {
        Ok(self
            .ep
            .host_nics()
            .await?
            .into_iter()
            .map(|n| HostNic {
                server_dn: n.server_dn,
                name: n.name,
                mac: n.mac.to_ascii_lowercase(),
                link_up: n.link_up,
            })
            .collect())
    }

    async fn install_disks(&self) -> Result<Vec<InstallDisk>> {
        let (listed, cards) =
            tokio::try_join!(self.disks(), async { Ok(self.ep.sd_cards().await?) })?;
        let cards = cards.into_iter().map(|c| InstallDisk {
            facts: disks::drive_facts(&c, None),
            server_dn: c.server_dn,
        });
        Ok(listed
            .into_iter()
            .map(|d| InstallDisk {
                server_dn: d.server_dn,
                facts: d.facts,
            })
            .chain(cards)
            .collect())
    }

    async fn reset_disks(&self, disks: &[&Disk]) -> Result<()> {
        let disks: Vec<LocalDisk> = disks.iter().map(|d| disks::local_disk(d)).collect();
        let refs: Vec<&LocalDisk> = disks.iter().collect();
        Ok(self.ep.reset_disks(&refs).await?)
    }

    async fn stages(&self, servers: &[&Server]) -> Result<Vec<Stage>> {
        self.flavor.stages(&self.ep, servers).await
    }

    fn check(&self, spec: &DeploySpec, what: What) -> Result<()> {
        self.flavor.check(spec, what)
    }

    async fn plan(&self, spec: &DeploySpec, what: What, recorded: &[Recorded]) -> Result<Plan> {
        let wants = self.flavor.wanted(&self.ep, spec, what, recorded).await?;
        let (changes, _) = self.ep.plan(&wants.wanted).await?;
        self.flavor.check_plan(spec, &changes)?;
        Ok(self.plan_of(Some(spec), changes, wants.warnings))
    }

    async fn apply(
        &self,
        spec: &DeploySpec,
        what: What,
        recorded: &[Recorded],
        _job: &JobCtx,
    ) -> Result<Plan> {
        let Wants { wanted, warnings } = self.flavor.wanted(&self.ep, spec, what, recorded).await?;
        let (changes, send) = self.ep.plan(&wanted).await?;
        self.flavor.check_plan(spec, &changes)?;
        let send = self.flavor.to_send(&wanted, send);
        self.ep
            .configure(send)
            .await
            .map_err(|e| self.refused(spec, e))?;
        Ok(self.plan_of(Some(spec), changes, warnings))
    }

    async fn check_removal(&self, group: &str, recorded: &[Recorded]) -> Result<()> {
        self.flavor.check_removal(&self.ep, group, recorded).await
    }

    async fn plan_removal(&self, recorded: &[Recorded]) -> Result<Plan> {
        let (changes, _) = self.ep.plan(&stale(recorded, &[])).await?;
        Ok(self.plan_of(None, changes, Vec::new()))
    }

    async fn remove(&self, recorded: &[Recorded]) -> Result<Plan> {
        let (changes, send) = self.ep.plan(&stale(recorded, &[])).await?;
        self.ep.configure(send).await?;
        Ok(self.plan_of(None, changes, Vec::new()))
    }

    async fn host_servers(&self, spec: &DeploySpec) -> Result<Vec<Option<Server>>> {
        let servers = self.flavor.servers(&self.ep).await?;
        Ok(spec
            .hosts
            .iter()
            .map(|h| self.flavor.server_of(spec, h, &servers).cloned())
            .collect())
    }

    async fn follow(&self, spec: &DeploySpec, job: &JobCtx) -> Result<Vec<HostProgress>> {
        self.flavor.follow(&self.ep, spec, job).await
    }

    async fn unmount(&self, spec: &DeploySpec, host: &Host) -> Result<Unmounted> {
        let (wanted, done) = match self.flavor.unmount(&self.ep, spec, host).await? {
            Unmount::Write { wanted, done } => (wanted, done),
            Unmount::Keep(why) => return Ok(Unmounted::Shared(why)),
        };
        let (changes, send) = self.ep.plan(&wanted).await?;
        self.ep
            .configure(send)
            .await
            .map_err(|e| self.refused(spec, e))?;
        Ok(match done {
            Some(done) => Unmounted::Done(done),
            None => Unmounted::Objects(changes.len()),
        })
    }

    fn mounts_when_written(&self) -> bool {
        F::MOUNTS_WHEN_WRITTEN
    }

    fn console(&self, server: &Server) -> Option<ConsolePage> {
        let root = super::web_root(self.ep.address());
        match F::KIND {
            // The launcher asks for a login, then lists the servers to open a console on.
            Kind::Ucsm => Some(ConsolePage {
                url: format!("{root}ucsm/kvm.html"),
                note: format!(
                    "UCS Manager's KVM launcher: sign in, then open the console of {} ({})",
                    server_words(&server.dn),
                    server.dn
                ),
            }),
            // A standalone IMC is one server: its web interface has the console.
            Kind::Imc => Some(ConsolePage {
                url: root,
                note: "the Cisco IMC's web interface: sign in, then choose Launch KVM".into(),
            }),
            // UCS Central hands consoles over to each domain's manager.
            Kind::Ucsc => None,
        }
    }

    async fn logout(&self) {
        self.ep.logout().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A blade as UCS Manager's XML gives it, with `set` attributes changed.
    fn blade(set: &[(&str, &str)]) -> ComputeServer {
        let mut s = ComputeServer {
            kind: ServerKind::Blade,
            dn: "sys/chassis-1/blade-3".into(),
            domain: None,
            chassis_id: Some(1),
            slot: Some(3),
            rack_id: None,
            model: "UCSB-B200-M5".into(),
            serial: "FCH1".into(),
            num_cpus: "2".into(),
            num_cores: "20".into(),
            ram: "131072".into(),
            ram_speed: "2666".into(),
            oper_power: "on".into(),
            association: "associated".into(),
            service_profile: "org-root/ls-node01".into(),
            label: String::new(),
        };
        for (k, v) in set {
            let field = match *k {
                "numOfCpus" => &mut s.num_cpus,
                "numOfCores" => &mut s.num_cores,
                "totalMemory" => &mut s.ram,
                "memorySpeed" => &mut s.ram_speed,
                "operPower" => &mut s.oper_power,
                "association" => &mut s.association,
                other => panic!("no attribute {other} here"),
            };
            *field = (*v).into();
        }
        s
    }

    #[test]
    fn a_ucs_server_is_read_into_numbers_and_words_once() {
        let s = server(&blade(&[]), None);
        assert_eq!(
            (&s.num_cpus, &s.num_cores, &s.ram, &s.ram_speed),
            (
                &Reported::Number(2),
                &Reported::Number(20),
                &Reported::Number(131072),
                &Reported::Number(2666)
            )
        );
        assert_eq!(s.oper_power, Some(PowerState::On));
        assert!(s.is_associated() && !s.is_off());

        let odd = server(
            &blade(&[
                ("memorySpeed", "unspecified"),
                ("numOfCores", ""),
                ("operPower", "power-save"),
                ("association", "throttled"),
            ]),
            None,
        );
        assert_eq!(odd.ram_speed, Reported::Text("unspecified".into()));
        assert_eq!(odd.num_cores, Reported::none());
        assert_eq!(odd.oper_power, Some(PowerState::Other("power-save".into())));
        assert_eq!(odd.association, Some(Association::Throttled));
        assert!(!odd.is_associated() && !odd.is_off());

        // A standalone IMC's rack unit has no association; a server may report no power.
        let bare = server(&blade(&[("association", ""), ("operPower", "off")]), None);
        assert_eq!(bare.association, None);
        assert!(bare.is_off());
        let silent = server(&blade(&[("operPower", "")]), None);
        assert_eq!(silent.oper_power, None);
    }

    #[test]
    fn the_transport_gets_back_the_words_it_gave() {
        for set in [
            &[][..],
            &[
                ("memorySpeed", "not-applicable"),
                ("numOfCpus", ""),
                ("operPower", "unknown"),
                ("association", "establishing"),
            ][..],
            &[("association", ""), ("operPower", "")][..],
        ] {
            let raw = blade(set);
            assert_eq!(compute_server(&server(&raw, None)), raw);
        }
    }

    #[test]
    fn servers_are_named_as_operators_name_them() {
        assert_eq!(server_words("sys/chassis-1/blade-3"), "blade 1/3");
        assert_eq!(server_words("sys/rack-unit-2"), "rack server 2");
        assert_eq!(
            server_words("compute/sys-1002/chassis-1/blade-3"),
            "blade 1002/1/3"
        );
        assert_eq!(
            server_words("compute/sys-1002/rack-unit-1"),
            "rack server 1002/1"
        );
        assert_eq!(server_words("sys/switch-A"), "sys/switch-A");
    }

    #[test]
    fn a_host_s_media_fail_when_one_image_fails_and_wait_while_one_is_pending() {
        let image = |url: &str, state| ImageMount {
            url: url.into(),
            state,
        };
        let pending = [
            image("http://a/x.iso", Mounted::Yes),
            image("http://a/n1.img", Mounted::Pending),
        ];
        assert!(media_progress("n1", "sys/chassis-1/blade-1", &pending, false).is_none());
        let late = media_progress("n1", "sys/chassis-1/blade-1", &pending, true).unwrap();
        assert_eq!(late.state, MediaState::Mounting);
        let failed = [
            image("http://a/x.iso", Mounted::Pending),
            image(
                "http://a/n1.img",
                Mounted::Failed(mount_reason("connection-rejected")),
            ),
        ];
        let got = media_progress("n1", "sys/chassis-1/blade-1", &failed, false).unwrap();
        assert_eq!(got.state, MediaState::Failed);
        assert!(got
            .error
            .unwrap()
            .starts_with("n1: blade 1/1 could not mount http://a/n1.img (connection refused), so it cannot boot its installer; check"));
    }
}
