//! Deploying a server group's hosts to its UCS Manager: the virtual-media and boot policies
//! of the group's OS, service profiles named after the hosts (from their own template, or
//! from the `SVC_<code>` template with a pool of the group's selected servers), bound to
//! their servers where the host names one. Planned first (a dry run answers the plan),
//! written as the difference in one all-or-nothing `configConfMos`, so a second run changes
//! nothing. A standalone IMC group gets its host's media mapped as virtual CD and HDD and
//! a boot order of local disk, then those.

use bootsmith_ucs::imc_media::{self, ImcMedia, RemoteImage};
use bootsmith_ucs::policies::{self, BootPolicy, CdImage, MediaServer, Node, VmediaPolicy};
use bootsmith_ucs::{Action, Change, ComputeServer, Endpoint, PowerAction, Wanted};
use std::time::{Duration, Instant};

use serde::Serialize;
use utoipa::ToSchema;

use crate::app::App;
use crate::catalog::{Family, OsEntry};
use crate::error::{Error, Problem, Result};
use crate::hosts::{self, Host};
use crate::images;
use crate::jobs::{self, JobCtx, JobId, StepState};
use crate::server_groups::{self, GroupKind, ServerGroup};
use crate::settings;
use crate::types::{NodeId, OrgDn};

/// Job kind of deploys; one runs per server group at a time.
pub const JOB_KIND: &str = "deploy";

/// One object of a deploy plan, as the manager sees it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PlannedObject {
    /// Distinguished name.
    pub dn: String,
    /// UCS class.
    pub class: String,
    /// `create`, `modify`, `delete` or `unchanged`.
    pub action: String,
    /// What changes (`property: 'old' -> 'new'`), for `modify`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub changed: Vec<String>,
}

impl From<Change> for PlannedObject {
    fn from(c: Change) -> Self {
        let action = match c.action {
            Action::Create => "create",
            Action::Modify => "modify",
            Action::Delete => "delete",
            Action::Unchanged => "unchanged",
        };
        PlannedObject {
            dn: c.dn,
            class: c.class,
            action: action.into(),
            changed: c.changed,
        }
    }
}

/// What a deploy step did, or (dry run) would do.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DeployResult {
    /// Server group.
    pub server_group: String,
    /// The group's OS.
    pub os: String,
    /// True when nothing was written.
    pub dry_run: bool,
    /// Every object considered, in the order it is written.
    pub objects: Vec<PlannedObject>,
    /// Where each host's profile got to, when the deploy followed the association.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hosts: Vec<HostProgress>,
    /// Hosts whose servers were power-cycled (or powered on), with `restart`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub restarted: Vec<String>,
    /// What was left out and why (e.g. hosts whose service profiles do not exist yet).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// How far a host got after the writes.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HostProgress {
    /// Host (= service-profile) name.
    pub host: String,
    /// The profile's `assocState` (`associated`, `associating`, `failed`, …).
    pub association: String,
    /// The server it is associated with.
    pub server: String,
    /// The server's `operPower`.
    pub power: String,
}

/// How long a deploy that follows association waits for UCS Manager.
pub const ASSOCIATION_WAIT: Duration = Duration::from_secs(30 * 60);
const POLL: Duration = Duration::from_millis(500);

/// What a deploy waits for before its job ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Until {
    /// The objects are written (the seed's call).
    #[default]
    Written,
    /// Every profile is associated (or failed, or the wait ran out); the job reports
    /// each host's association and power on the way.
    Associated,
}

/// How a deploy job runs.
#[derive(Debug, Clone, Copy, Default)]
pub struct DeployOptions {
    /// What the job waits for.
    pub until: Until,
    /// Power-cycle (or power on) the hosts' servers once the writes are done, so they boot
    /// from the new media. Profiles still associating are left alone: they boot when done.
    pub restart: bool,
}

/// A group ready to deploy: its record, its hosts and their one OS.
struct Target {
    group: ServerGroup,
    /// The org the group's objects go under: its own, else the default org, else org-root.
    org: OrgDn,
    hosts: Vec<Host>,
    os: OsEntry,
    server: MediaServer,
}

impl Target {
    /// DN of a host's service profile: in the org of its template, else the group's org.
    fn profile_dn(&self, h: &Host) -> String {
        let org = h
            .service_profile_template
            .as_ref()
            .and_then(|t| {
                t.as_str()
                    .rsplit_once("/ls-")
                    .map(|(org, _)| org.to_owned())
            })
            .unwrap_or_else(|| self.org.to_string());
        format!("{org}/ls-{}", h.name)
    }
}

/// The objects a run wants, and what it leaves out with the reason.
struct Wants {
    wanted: Vec<Wanted>,
    warnings: Vec<String>,
}

impl From<Vec<Wanted>> for Wants {
    fn from(wanted: Vec<Wanted>) -> Self {
        Wants {
            wanted,
            warnings: Vec::new(),
        }
    }
}

/// Check everything a deploy needs before touching the manager; every problem in one error.
async fn target(app: &App, name: &str) -> Result<Target> {
    let group = server_groups::get(app, name).await?;
    let hosts: Vec<Host> = hosts::list(app)
        .await?
        .into_iter()
        .filter(|h| {
            h.server_group
                .as_ref()
                .is_some_and(|g| g.as_str() == group.name.as_str())
        })
        .collect();
    let mut problems = Vec::new();
    if hosts.is_empty() {
        problems.push(Problem::field(
            "hosts",
            format!("no host is in server group {name}: give hosts \"server_group\": \"{name}\""),
        ));
    }
    let mut oses: Vec<&str> = hosts.iter().map(|h| h.os.as_str()).collect();
    oses.sort();
    oses.dedup();
    if oses.len() > 1 {
        problems.push(Problem::field(
            "hosts",
            format!("the hosts of {name} have different operating systems ({}); one server group installs one OS", oses.join(", ")),
        ));
    }
    let svc_ip = settings::svc_ip(app).await?;
    if svc_ip.is_none() {
        problems.push(Problem::field(
            "svc_ip",
            "set the boot-server address first",
        ));
    }
    let port = app.svc_port();
    if port == 0 {
        problems.push(Problem::field(
            "svc",
            "svc is not being served over HTTP by this process; start the REST listener",
        ));
    }
    let os = oses.first().and_then(|id| app.catalog().get(id)).cloned();
    if let Some(os) = &os {
        for h in &hosts {
            for file in media_files(os, h) {
                if !app.svc_dir().join(&file).is_file() {
                    problems.push(Problem::field(
                        "images",
                        format!("{}: svc/{file} is missing: make the images first", h.name),
                    ));
                }
            }
        }
    }
    if !problems.is_empty() {
        return Err(Error::invalid(
            "deploy_not_ready",
            &format!("Server group {name} cannot be deployed yet"),
            problems,
        ));
    }
    let os = os.ok_or_else(|| {
        Error::Corrupt(format!(
            "the OS of the hosts of {name} ({}) is not in the catalog",
            oses.join(", ")
        ))
    })?;
    let svc_ip = svc_ip.expect("checked").to_string();
    let org = group.effective_org(app).await?;
    Ok(Target {
        org,
        group,
        hosts,
        os,
        server: MediaServer {
            ip: svc_ip,
            port,
            path: "/svc/".into(),
        },
    })
}

/// The files in svc a host boots from.
fn media_files(os: &OsEntry, h: &Host) -> Vec<String> {
    let mut files = vec![images::boot_media(os, h.name.as_str())];
    files.extend(images::answer_disk(os, h.name.as_str()));
    files
}

/// The group's virtual-media policy: named like the `SVC_<code>` template, in the group's
/// org so its profiles and those of its sub-orgs resolve it.
fn vmedia_policy(app: &App, t: &Target) -> VmediaPolicy {
    VmediaPolicy {
        name: app.catalog().svc_template_name(&t.os),
        org: t.org.to_string(),
        server: t.server.clone(),
        cd: match t.os.family {
            Family::Esxi => CdImage::PerProfile,
            _ => CdImage::Shared(images::boot_media(&t.os, "")),
        },
        hdd_per_profile: t.os.family != Family::Esxi,
    }
}

/// The vMedia-only objects: the policy, and each host's existing profile pointed at it. The
/// seed makes the policy "for use by existing service profiles": the operator may make the
/// profiles by hand afterwards, so hosts without one yet are warnings, not a refusal.
async fn vmedia_objects(app: &App, t: &Target, ep: &Endpoint) -> Result<Wants> {
    let dns: Vec<String> = t.hosts.iter().map(|h| t.profile_dn(h)).collect();
    let found = ep.resolve_dns(&dns).await?;
    let policy = vmedia_policy(app, t);
    let mut wants = Wants::from(policy.wanted());
    for (h, dn) in t.hosts.iter().zip(&dns) {
        if found.iter().any(|m| m.get("dn") == dn.as_str()) {
            wants
                .wanted
                .push(policies::profile_policies(dn, None, Some(&policy.name)));
        } else {
            wants.warnings.push(format!(
                "{}: service profile {dn} does not exist yet; point it at virtual-media policy {} when you make it (or deploy the group)",
                h.name, policy.name
            ));
        }
    }
    Ok(wants)
}

/// The group's org must exist on the manager: a clear 404 before anything is written.
async fn check_org(t: &Target, ep: &Endpoint) -> Result<()> {
    let org = t.org.to_string();
    let found = ep.resolve_dns(std::slice::from_ref(&org)).await?;
    if found.iter().any(|m| m.get("dn") == org.as_str()) {
        return Ok(());
    }
    Err(Error::not_found(
        "unknown_org",
        format!(
            "The org {org} of server group {} does not exist on its manager; create it there, or change the group's org",
            t.group.name
        ),
    ))
}

/// `POST /api/v2/servers/<group>/vmedia`: the virtual-media policy for the group's OS, and
/// every host's existing service profile pointed at it. With `dry_run`, only the plan.
pub async fn vmedia(app: &App, group: &str, dry_run: bool) -> Result<JobOrPlan> {
    let t = target(app, group).await?;
    let job = (!dry_run).then(DeployOptions::default);
    execute(app, t, What::Vmedia, job).await
}

/// Which deploy.
#[derive(Debug, Clone, Copy)]
enum What {
    Vmedia,
    Deploy,
}

async fn objects(app: &App, what: What, t: &Target, ep: &Endpoint) -> Result<Wants> {
    match (t.group.kind, what) {
        // A standalone server has no profiles or policies: deploy and vMedia are the same.
        (GroupKind::Imc, _) => imc_objects(t).map(Wants::from),
        (GroupKind::Ucsc, _) => Err(GroupKind::ucsc_not_supported(&t.group.name)),
        (GroupKind::Ucsm, What::Vmedia) => {
            check_org(t, ep).await?;
            vmedia_objects(app, t, ep).await
        }
        (GroupKind::Ucsm, What::Deploy) => {
            check_org(t, ep).await?;
            let mut wanted = deploy_objects(app, t, ep).await?;
            // Hosts that left the group, servers no longer selected: what we made for them goes.
            let gone = stale(&recorded(app, &t.group).await?, &wanted);
            wanted.extend(gone);
            Ok(Wants::from(wanted))
        }
    }
}

/// The rack server of a standalone IMC: the one the host names, else the first.
fn imc_server_dn(h: &Host) -> String {
    match &h.server {
        Some(NodeId::Rack(r)) => format!("sys/rack-unit-{}", r.0),
        _ => "sys/rack-unit-1".to_owned(),
    }
}

/// A standalone IMC group: its one host's boot media mapped as virtual CD (and the answer
/// disk as HDD) over HTTP, and a boot order of local disk, CD, HDD.
fn imc_objects(t: &Target) -> Result<Vec<Wanted>> {
    let [h] = t.hosts.as_slice() else {
        let names: Vec<&str> = t.hosts.iter().map(|h| h.name.as_str()).collect();
        return Err(Error::invalid(
            "deploy_not_ready",
            &format!("Server group {} cannot be deployed yet", t.group.name),
            vec![Problem::field(
                "hosts",
                format!(
                    "an IMC group is one rack server, so it takes one host; it has {}",
                    names.join(", ")
                ),
            )],
        ));
    };
    let server_dn = imc_server_dn(h);
    let host = if t.server.ip.contains(':') {
        format!("[{}]", t.server.ip)
    } else {
        t.server.ip.clone()
    };
    let share = format!("http://{host}:{}{}", t.server.port, t.server.path);
    let image = |file: String| RemoteImage {
        share: share.clone(),
        file,
    };
    let media = ImcMedia {
        cd: image(images::boot_media(&t.os, h.name.as_str())),
        hdd: images::answer_disk(&t.os, h.name.as_str()).map(image),
        uefi: t.os.boot == crate::catalog::BootMode::Uefi,
    };
    Ok(imc_media::wanted(&server_dn, &media))
}

/// The job that writes the difference, run as `job` says; without one, only the plan.
async fn execute(
    app: &App,
    t: Target,
    what: What,
    job: Option<DeployOptions>,
) -> Result<JobOrPlan> {
    match job {
        Some(opts) => start_job(app, t, what, opts).await.map(JobOrPlan::Job),
        None => plan_of(app, &t, what).await.map(JobOrPlan::Plan),
    }
}

/// What a run would create, modify, delete or leave alone; nothing is written.
async fn plan_of(app: &App, t: &Target, what: What) -> Result<DeployResult> {
    let ep = app.managers().endpoint(app.cipher(), &t.group)?;
    let Wants { wanted, warnings } = objects(app, what, t, &ep).await?;
    let (changes, _) = ep.plan(&wanted).await?;
    check_clashes(t, &changes)?;
    Ok(DeployResult {
        warnings,
        server_group: t.group.name.to_string(),
        os: t.os.id.clone(),
        dry_run: true,
        objects: changes.into_iter().map(Into::into).collect(),
        hosts: Vec::new(),
        restarted: Vec::new(),
    })
}

/// Write the difference in a job (one per group at a time). The job is claimed before the
/// manager is read, so a second deploy of the group is refused at once; what only the manager
/// can tell (missing templates or profiles) fails the job with its own status.
async fn start_job(app: &App, t: Target, what: What, opts: DeployOptions) -> Result<JobId> {
    let ep = app.managers().endpoint(app.cipher(), &t.group)?;
    let core = app.clone();
    let scope = t.group.name.to_string();
    jobs::start(app, JOB_KIND, Some(scope), move |job: JobCtx| async move {
        job.step(None, "objects", StepState::Started, None);
        let result = async {
            let Wants { wanted, warnings } = objects(&core, what, &t, &ep).await?;
            for w in &warnings {
                job.step(None, "objects", StepState::Skipped, Some(w));
            }
            let (changes, mut send) = ep.plan(&wanted).await?;
            check_clashes(&t, &changes)?;
            if t.group.kind == GroupKind::Imc {
                // An IMC cannot edit a mapping in place: unmount, then mount the new one.
                send = imc_media::remount(&wanted, send);
            }
            ep.configure(send)
                .await
                .map_err(|e| refused(&t, e.into()))?;
            record(&core, &t.group, &changes).await?;
            Ok::<_, Error>((changes, warnings))
        }
        .await;
        let (changes, warnings) = match result {
            Ok(c) => c,
            Err(e) => {
                job.step(None, "objects", StepState::Failed, Some(&e.to_string()));
                return Err(e);
            }
        };
        let written = changes
            .iter()
            .filter(|c| c.action != Action::Unchanged)
            .count();
        job.step(
            None,
            "objects",
            StepState::Done,
            Some(&format!("{written} of {} objects written", changes.len())),
        );
        for h in &t.hosts {
            let mine = format!("/ls-{}", h.name);
            let touched = changes
                .iter()
                .any(|c| c.dn.contains(&mine) && c.action != Action::Unchanged);
            let state = if touched {
                StepState::Done
            } else {
                StepState::Skipped
            };
            job.step(Some(h.name.as_str()), "service-profile", state, None);
        }
        let hosts = if opts.until == Until::Associated && t.group.kind == GroupKind::Ucsm {
            follow_association(&ep, &job, &t).await?
        } else {
            Vec::new()
        };
        let restarted = if opts.restart {
            restart(&ep, &job, &t).await?
        } else {
            Vec::new()
        };
        serde_json::to_value(DeployResult {
            server_group: t.group.name.to_string(),
            os: t.os.id.clone(),
            dry_run: false,
            objects: changes.into_iter().map(Into::into).collect(),
            hosts,
            restarted,
            warnings,
        })
        .map_err(|e| Error::Corrupt(format!("deploy results do not serialize: {e}")))
    })
    .await
}

/// Names we write service profiles and the template under, taken on the manager by the other
/// kind (a template called like a host, a profile called `SVC_<code>`): UCS cannot change an
/// object's type, so refuse before writing, naming each clash.
fn check_clashes(t: &Target, changes: &[Change]) -> Result<()> {
    let problems: Vec<Problem> = changes
        .iter()
        .filter(|c| c.class == "lsServer")
        .filter_map(|c| {
            let (was, now) = c.changed.iter().find_map(|x| {
                let rest = x.strip_prefix("type: '")?;
                let (was, now) = rest.split_once("' -> '")?;
                Some((was, now.trim_end_matches('\'')))
            })?;
            let host = t.hosts.iter().find(|h| t.profile_dn(h) == c.dn);
            let message = match host {
                Some(h) => format!(
                    "{}: {} on the manager is a {was}, not a service profile; rename the host or that {was}",
                    h.name, c.dn
                ),
                None => format!(
                    "{} on the manager is a {was}, where Bootsmith keeps its {now}; rename that {was}",
                    c.dn
                ),
            };
            Some(Problem::field("hosts", message))
        })
        .collect();
    if problems.is_empty() {
        return Ok(());
    }
    let list: Vec<String> = problems.iter().map(ToString::to_string).collect();
    Err(Error::Conflict {
        code: "profile_name_taken",
        message: format!(
            "Server group {} cannot be deployed: {}",
            t.group.name,
            list.join("; ")
        ),
        details: problems,
    })
}

/// A write the manager refused: on UCS Manager nothing was written (one transaction), an IMC
/// keeps the objects before the refused one (one request each); say which, and name the host
/// whose object it was when the manager's words give its profile.
fn refused(t: &Target, e: Error) -> Error {
    let Error::Ucs(bootsmith_ucs::Error::Api {
        method,
        code,
        descr,
    }) = e
    else {
        return e;
    };
    let host = t.hosts.iter().find(|h| {
        let dn = t.profile_dn(h);
        descr
            .split(|c: char| c.is_whitespace() || "()'\",:".contains(c))
            .any(|w| w == dn || w.starts_with(&format!("{dn}/")))
    });
    let who = host
        .map(|h| format!("host {}: ", h.name))
        .unwrap_or_default();
    let kept = match t.group.kind {
        GroupKind::Ucsm | GroupKind::Ucsc => "nothing was written",
        GroupKind::Imc => "the objects before it were written; run it again once fixed",
    };
    Error::Ucs(bootsmith_ucs::Error::Api {
        method: format!("deploy of {} ({kept}; {method})", t.group.name),
        code,
        descr: format!("{who}{descr}"),
    })
}

fn node(n: &NodeId) -> Node {
    match n {
        NodeId::Blade(b) => Node::Blade(b.chassis, b.slot),
        NodeId::Rack(r) => Node::Rack(r.0),
    }
}

/// Every object the group's deploy wants, in write order; checks what must exist first.
async fn deploy_objects(app: &App, t: &Target, ep: &Endpoint) -> Result<Vec<Wanted>> {
    let name = app.catalog().svc_template_name(&t.os);
    let org = t.org.as_str();
    // Templates the hosts name must exist: a clear 404 before anything is written.
    let mut templates: Vec<String> = t
        .hosts
        .iter()
        .filter_map(|h| h.service_profile_template.as_ref().map(ToString::to_string))
        .collect();
    templates.sort();
    templates.dedup();
    let found = ep.resolve_dns(&templates).await?;
    let missing: Vec<&String> = templates
        .iter()
        .filter(|d| !found.iter().any(|m| m.get("dn") == d.as_str()))
        .collect();
    if !missing.is_empty() {
        return Err(Error::not_found(
            "unknown_template",
            format!(
                "service-profile template {} does not exist on {}",
                missing
                    .iter()
                    .map(|d| d.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                t.group.name
            ),
        ));
    }
    let fixed = |dn: &str, prop: &str| {
        found
            .iter()
            .find(|m| m.get("dn") == dn)
            .is_some_and(|m| !m.get(prop).is_empty())
    };

    let vmedia = vmedia_policy(app, t);
    let boot = BootPolicy {
        name: name.clone(),
        org: org.into(),
        uefi: t.os.boot == crate::catalog::BootMode::Uefi,
        hdd: t.os.family != Family::Esxi,
    };
    let mut wanted = vmedia.wanted();
    wanted.extend(boot.wanted());

    // Hosts without a template of their own use SVC_<code>; those without a server get one
    // from the pool of the group's selected servers.
    let plain: Vec<&Host> = t
        .hosts
        .iter()
        .filter(|h| h.service_profile_template.is_none())
        .collect();
    let pooled = plain.iter().any(|h| h.server.is_none());
    if !plain.is_empty() {
        let pool = pooled.then_some(name.as_str());
        if pooled {
            let members: Vec<Node> = t
                .group
                .server_pool
                .blades
                .iter()
                .map(|b| Node::Blade(b.chassis, b.slot))
                .chain(
                    t.group
                        .server_pool
                        .rack_servers
                        .iter()
                        .map(|r| Node::Rack(r.0)),
                )
                .collect();
            wanted.extend(policies::server_pool(org, &name, &members));
        }
        wanted.extend(policies::svc_template(
            org,
            &name,
            &boot.name,
            &vmedia.name,
            pool,
        ));
    }
    for h in &t.hosts {
        let sp = t.profile_dn(h);
        match &h.service_profile_template {
            Some(tdn) => {
                let tname = tdn
                    .as_str()
                    .rsplit_once("/ls-")
                    .map(|(_, n)| n)
                    .unwrap_or("");
                let org = sp.rsplit_once("/ls-").map(|(o, _)| o).unwrap_or(org);
                let mut profile = policies::profile_from_template(org, h.name.as_str(), tname).mo;
                // Attach our policies only where the template leaves them open.
                if !fixed(tdn.as_str(), "bootPolicyName") {
                    profile = profile.with("bootPolicyName", boot.name.as_str());
                }
                if !fixed(tdn.as_str(), "vmediaPolicyName") {
                    profile = profile.with("vmediaPolicyName", vmedia.name.as_str());
                }
                wanted.push(Wanted::present(profile));
            }
            None => wanted.push(policies::profile_from_template(org, h.name.as_str(), &name)),
        }
        if let Some(n) = &h.server {
            wanted.push(policies::binding(&sp, node(n)));
        }
    }
    Ok(wanted)
}

/// Extra checks of a full deploy: pooled hosts need selected servers.
fn check_pool(t: &Target) -> Result<()> {
    let needs_pool = t
        .hosts
        .iter()
        .any(|h| h.service_profile_template.is_none() && h.server.is_none());
    if needs_pool && t.group.server_pool.is_empty() {
        return Err(Error::invalid(
            "deploy_not_ready",
            &format!("Server group {} cannot be deployed yet", t.group.name),
            vec![Problem::field(
                "server_pool",
                "hosts without a server get one from the pool: select the group's servers first",
            )],
        ));
    }
    Ok(())
}

/// `POST /api/v2/servers/<group>/deploy`: policies, template and pool where needed, a service
/// profile per host, bindings for hosts tied to a server, in a job run as `job` says;
/// without one (a dry run), only the plan.
pub async fn deploy(app: &App, group: &str, job: Option<DeployOptions>) -> Result<JobOrPlan> {
    execute(app, deploy_target(app, group).await?, What::Deploy, job).await
}

/// The plan of a deploy of `group` (what `?dry_run=true` answers); nothing is written.
pub async fn plan(app: &App, group: &str) -> Result<DeployResult> {
    plan_of(app, &deploy_target(app, group).await?, What::Deploy).await
}

/// Start deploying `group`; the job's id.
pub async fn start(app: &App, group: &str, opts: DeployOptions) -> Result<JobId> {
    start_job(app, deploy_target(app, group).await?, What::Deploy, opts).await
}

/// Start writing only the virtual-media policy of `group`; the job's id.
pub async fn start_vmedia(app: &App, group: &str) -> Result<JobId> {
    let t = target(app, group).await?;
    start_job(app, t, What::Vmedia, DeployOptions::default()).await
}

/// A group checked for a full deploy.
async fn deploy_target(app: &App, group: &str) -> Result<Target> {
    let t = target(app, group).await?;
    if t.group.kind == GroupKind::Ucsm {
        check_pool(&t)?;
    }
    Ok(t)
}

/// Power-cycle the servers of the hosts (power on those that are off) in one write, so they
/// boot from the media just set up; a `power` step per host says what was done.
async fn restart(ep: &Endpoint, job: &JobCtx, t: &Target) -> Result<Vec<String>> {
    let servers = ep.servers().await?;
    // A host's server: on an IMC the rack server; on UCSM the one its profile is associated with.
    let server_of = |h: &Host| -> Option<&ComputeServer> {
        match t.group.kind {
            GroupKind::Imc => servers.iter().find(|s| s.dn == imc_server_dn(h)),
            GroupKind::Ucsm | GroupKind::Ucsc => {
                let sp = t.profile_dn(h);
                servers
                    .iter()
                    .find(|s| s.service_profile == sp && s.association == "associated")
            }
        }
    };
    let mut cycle: Vec<&ComputeServer> = Vec::new();
    let mut on: Vec<&ComputeServer> = Vec::new();
    let mut done = Vec::new();
    for h in &t.hosts {
        let name = h.name.as_str();
        match server_of(h) {
            Some(s) => {
                let off = s.oper_power == "off";
                job.step(
                    Some(name),
                    "power",
                    StepState::Started,
                    Some(if off { "power on" } else { "power cycle" }),
                );
                if off { &mut on } else { &mut cycle }.push(s);
                done.push(name.to_owned());
            }
            None => job.step(
                Some(name),
                "power",
                StepState::Skipped,
                Some("the profile is not associated yet; the server boots when it is"),
            ),
        }
    }
    if !on.is_empty() {
        ep.set_power(&on, PowerAction::On).await?;
    }
    if !cycle.is_empty() {
        ep.set_power(&cycle, PowerAction::HardReset).await?;
    }
    for name in &done {
        job.step(Some(name), "power", StepState::Done, None);
    }
    Ok(done)
}

/// Watch every host's profile until it is associated or failed (or the wait runs out),
/// reporting per host the `association`, each FSM stage its server passes (`fsm`) and the
/// server's `power`. Two reads per poll however many hosts: the profiles, then their servers.
async fn follow_association(ep: &Endpoint, job: &JobCtx, t: &Target) -> Result<Vec<HostProgress>> {
    let dns: Vec<String> = t.hosts.iter().map(|h| t.profile_dn(h)).collect();
    for h in &t.hosts {
        job.step(
            Some(h.name.as_str()),
            "association",
            StepState::Started,
            None,
        );
    }
    let started = Instant::now();
    let mut open: Vec<usize> = (0..t.hosts.len()).collect();
    let mut out: Vec<Option<HostProgress>> = vec![None; t.hosts.len()];
    let mut stage: Vec<String> = vec![String::new(); t.hosts.len()];
    while !open.is_empty() {
        let profiles = ep.resolve_dns(&dns).await?;
        let profile = |i: usize| profiles.iter().find(|m| m.get("dn") == dns[i]);
        let mut servers: Vec<String> = open
            .iter()
            .filter_map(|&i| profile(i).map(|m| m.get("pnDn").to_owned()))
            .filter(|s| !s.is_empty())
            .collect();
        servers.sort();
        servers.dedup();
        let servers = if servers.is_empty() {
            Vec::new()
        } else {
            ep.resolve_dns(&servers).await?
        };
        let timed_out = started.elapsed() > ASSOCIATION_WAIT;
        let mut still = Vec::new();
        for i in open {
            let name = t.hosts[i].name.as_str();
            let sp = profile(i);
            let get = |prop: &str| sp.map(|m| m.get(prop).to_owned()).unwrap_or_default();
            let (state, server) = (get("assocState"), get("pnDn"));
            let blade = servers.iter().find(|m| m.get("dn") == server);
            if let Some(b) = blade {
                let now = b.get("fsmStatus");
                if !now.is_empty() && now != "nop" && now != stage[i] {
                    let progress = b.get("fsmProgr");
                    let msg = if progress.is_empty() {
                        now.to_owned()
                    } else {
                        format!("{now} ({progress}%)")
                    };
                    job.step(Some(name), "fsm", StepState::Started, Some(&msg));
                    stage[i] = now.to_owned();
                }
            }
            let progress = |association: &str, power: &str| HostProgress {
                host: name.to_owned(),
                association: association.to_owned(),
                server: server.clone(),
                power: power.to_owned(),
            };
            // Right after a host moves, its profile may still show the old server for a moment.
            let moving = t.hosts[i]
                .server
                .as_ref()
                .is_some_and(|n| node(n).dn() != server);
            match state.as_str() {
                "associated" if !moving => {
                    job.step(Some(name), "association", StepState::Done, Some(&server));
                    let power = blade.map(|b| b.get("operPower")).unwrap_or_default();
                    job.step(Some(name), "power", StepState::Done, Some(power));
                    out[i] = Some(progress(&state, power));
                }
                "failed" => {
                    let why = get("configQualifier");
                    job.step(Some(name), "association", StepState::Failed, Some(&why));
                    out[i] = Some(progress(&state, ""));
                }
                // UCSM could not apply the profile (no free server in the pool, …).
                _ if get("configState") == "failed-to-apply" => {
                    let why = get("configQualifier");
                    let msg = if why == "insufficient-resources" && t.hosts[i].server.is_none() {
                        format!(
                            "{why}: no free server in the pool; select more servers for {} or free one",
                            t.group.name
                        )
                    } else {
                        format!("the manager could not apply the profile: {why}")
                    };
                    job.step(Some(name), "association", StepState::Failed, Some(&msg));
                    out[i] = Some(progress("failed", ""));
                }
                other if timed_out => {
                    let msg = format!(
                        "still {} after {} min; follow {}'s FSM stages",
                        if other.is_empty() {
                            "unassociated"
                        } else {
                            other
                        },
                        ASSOCIATION_WAIT.as_secs() / 60,
                        t.group.name
                    );
                    job.step(Some(name), "association", StepState::Skipped, Some(&msg));
                    out[i] = Some(progress(other, ""));
                }
                _ => still.push(i),
            }
        }
        open = still;
        if !open.is_empty() {
            tokio::time::sleep(POLL).await;
        }
    }
    Ok(out.into_iter().flatten().collect())
}

/// The objects earlier deploys of the group created: `(dn, class)`.
async fn recorded(app: &App, group: &ServerGroup) -> Result<Vec<(String, String)>> {
    Ok(sqlx::query_as::<_, (String, String)>(
        "SELECT dn, class FROM deployed_objects WHERE server_group = ? ORDER BY dn",
    )
    .bind(group.id.to_string())
    .fetch_all(app.store().reader())
    .await?)
}

/// Remember what this run created and forget what it removed, in one transaction.
async fn record(app: &App, group: &ServerGroup, changes: &[Change]) -> Result<()> {
    let mut tx = app.store().writer().begin().await?;
    let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    for c in changes {
        match c.action {
            Action::Create => {
                sqlx::query(
                    "INSERT OR IGNORE INTO deployed_objects (server_group, dn, class, created_at) VALUES (?, ?, ?, ?)",
                )
                .bind(group.id.to_string())
                .bind(&c.dn)
                .bind(&c.class)
                .bind(&now)
                .execute(&mut *tx)
                .await?;
            }
            Action::Delete => {
                // Removing an object removes its subtree on the manager.
                sqlx::query(
                    "DELETE FROM deployed_objects WHERE server_group = ? AND (dn = ? OR dn LIKE ? ESCAPE '\\')",
                )
                .bind(group.id.to_string())
                .bind(&c.dn)
                .bind(format!("{}/%", c.dn.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_")))
                .execute(&mut *tx)
                .await?;
            }
            Action::Modify | Action::Unchanged => {}
        }
    }
    tx.commit().await?;
    Ok(())
}

/// `absent` entries for recorded objects the run no longer wants; only the top of each
/// removed subtree (the manager removes the rest with it).
fn stale(recorded: &[(String, String)], wanted: &[Wanted]) -> Vec<Wanted> {
    let keep: std::collections::HashSet<&str> = wanted
        .iter()
        .filter(|w| !w.delete)
        .map(|w| w.mo.get("dn"))
        .collect();
    let gone: Vec<&(String, String)> = recorded
        .iter()
        .filter(|(dn, _)| !keep.contains(dn.as_str()))
        .collect();
    gone.iter()
        .filter(|(dn, _)| {
            !gone
                .iter()
                .any(|(other, _)| dn.starts_with(&format!("{other}/")))
        })
        .map(|(dn, class)| Wanted::absent(class, dn))
        .collect()
}

/// `DELETE /api/v2/servers/<group>/deploy`: remove exactly the objects deploys of the group
/// created (profiles, template, pool, policies; bindings and members go with them), in one
/// transaction. Objects we did not create are left alone. With `dry_run`, only the plan.
pub async fn undeploy(app: &App, group: &str, dry_run: bool) -> Result<JobOrPlan> {
    let g = server_groups::get(app, group).await?;
    let ep = app.managers().endpoint(app.cipher(), &g)?;
    let wanted = stale(&recorded(app, &g).await?, &[]);
    if dry_run {
        let (changes, _) = ep.plan(&wanted).await?;
        return Ok(JobOrPlan::Plan(DeployResult {
            server_group: g.name.to_string(),
            os: String::new(),
            dry_run: true,
            objects: changes.into_iter().map(Into::into).collect(),
            hosts: Vec::new(),
            restarted: Vec::new(),
            warnings: Vec::new(),
        }));
    }
    let core = app.clone();
    let id = jobs::start(
        app,
        JOB_KIND,
        Some(g.name.to_string()),
        move |job: JobCtx| async move {
            job.step(None, "remove", StepState::Started, None);
            let (changes, send) = ep.plan(&wanted).await?;
            ep.configure(send).await?;
            // Objects already gone from the manager are forgotten too.
            sqlx::query("DELETE FROM deployed_objects WHERE server_group = ?")
                .bind(g.id.to_string())
                .execute(core.store().writer())
                .await?;
            job.step(
                None,
                "remove",
                StepState::Done,
                Some(&format!("{} objects removed", changes.len())),
            );
            serde_json::to_value(DeployResult {
                server_group: g.name.to_string(),
                os: String::new(),
                dry_run: false,
                objects: changes.into_iter().map(Into::into).collect(),
                hosts: Vec::new(),
                restarted: Vec::new(),
                warnings: Vec::new(),
            })
            .map_err(|e| Error::Corrupt(format!("deploy results do not serialize: {e}")))
        },
    )
    .await?;
    Ok(JobOrPlan::Job(id))
}

/// A write runs as a job; a dry run answers at once with the plan.
/// Serialized as `{"job": "<id>"}` or `{"plan": {…}}` (the window's answer).
#[derive(Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum JobOrPlan {
    /// The job doing the work.
    Job(JobId),
    /// What would be done.
    Plan(DeployResult),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn job_or_plan_names_what_it_is() {
        let id: JobId = "5b0c6f7e-2f59-4d3e-9a57-0d8a4f0c1e11".parse().unwrap();
        assert_eq!(
            serde_json::to_value(JobOrPlan::Job(id)).unwrap(),
            serde_json::json!({"job": "5b0c6f7e-2f59-4d3e-9a57-0d8a4f0c1e11"})
        );
        let plan = JobOrPlan::Plan(DeployResult {
            server_group: "pod1".into(),
            os: String::new(),
            dry_run: true,
            objects: Vec::new(),
            hosts: Vec::new(),
            restarted: Vec::new(),
            warnings: Vec::new(),
        });
        assert_eq!(
            serde_json::to_value(plan).unwrap(),
            serde_json::json!({"plan": {"server_group": "pod1", "os": "", "dry_run": true, "objects": []}})
        );
    }
}
