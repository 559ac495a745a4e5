//! Deploying a server group's hosts to its manager, in stages: [`targets`] checks what a
//! deploy needs before touching the manager, [`preflight`] that the URLs the manager will be
//! given answer, the group's driver (`crate::managers`) plans
//! and writes the objects, [`run`] is the job (steps per host, following association,
//! power-cycling onto the new media), and [`record`] keeps what was created so undeploy
//! removes exactly that. One request type, [`DeployRequest`], drives all three entry
//! points: [`deploy`], [`vmedia`] and [`undeploy`].

mod family_network;
mod install_disks;
mod media;
mod nics;
mod preflight;
mod record;
mod run;
mod targets;

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::app::App;
use crate::error::{Error, ErrorCode, Result};
use crate::jobs::{JobId, JobKind};
use crate::lifecycle::Stage;
use crate::managers::{self, Capability, Unmounted, What};
pub use crate::managers::{HostProgress, ObjectAction, PlannedObject};
use crate::records::server_groups;
pub use install_disks::HostDisk;
pub use nics::{HostNics, PlannedNic};

/// Where each host goes in the plan: its install disk and its NICs, per server.
#[derive(Default)]
pub(crate) struct Placement {
    pub(crate) install_disks: Vec<HostDisk>,
    pub(crate) install_nics: Vec<HostNics>,
}
pub use preflight::USER_AGENT as PREFLIGHT_USER_AGENT;

/// Job kind of deploys; one deploy, virtual-media run or undeploy runs per server group at a
/// time.
pub const JOB_KIND: JobKind = JobKind::Deploy;
/// Job kind of a run that only mounts the install media (`vmedia`).
pub const VMEDIA_JOB_KIND: JobKind = JobKind::Vmedia;
/// Job kind of taking back what deploys created.
pub const UNDEPLOY_JOB_KIND: JobKind = JobKind::Undeploy;

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
    /// The disk each host installs on, per server it may run on (hosts whose server is known:
    /// bound, or in the group's pool).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub install_disks: Vec<HostDisk>,
    /// The NICs each host's network goes on, per server it may run on.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub install_nics: Vec<HostNics>,
    /// Where each host's profile got to, when the deploy followed the association.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hosts: Vec<HostProgress>,
    /// Hosts whose servers were power-cycled (or powered on), with `restart`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub restarted: Vec<String>,
    /// Where each host's install ended, with `until=installed`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub installs: Vec<crate::lifecycle::HostInstall>,
    /// What was left out and why (e.g. hosts whose service profiles do not exist yet).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// How many hosts ended each way (a run, not a plan), e.g. `{"installed": 3, "failed": 1}`.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub outcomes: std::collections::BTreeMap<HostOutcome, u64>,
    /// The hosts that failed or ran out of time, in the group's order: the job then ends
    /// `finished_with_failures`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub failed_hosts: Vec<String>,
}

/// How one host's part of a deploy ended, as far as the run followed it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum HostOutcome {
    /// Its objects were written; the run did not wait for more.
    Written,
    /// Its management controller mounted its install media (a manager without profiles).
    Mounted,
    /// Its profile is associated (and its media mounted, where the manager tells).
    Associated,
    /// Its install reported `installed`.
    Installed,
    /// Its association, media or install failed.
    Failed,
    /// The wait for it ran out before it got there.
    TimedOut,
}

impl HostOutcome {
    /// A failure the operator must look at.
    pub fn is_failure(self) -> bool {
        matches!(self, HostOutcome::Failed | HostOutcome::TimedOut)
    }
}

/// What a deploy waits for before its job ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Until {
    /// The objects are written (the seed's call).
    #[default]
    Written,
    /// Every profile is associated (or failed, or the wait ran out); the job reports
    /// each host's association and power on the way.
    Associated,
    /// Every host is installed or failed (stage timeouts end the wait, see the install
    /// settings); the job reports each host's association (where the manager tells it),
    /// power and install stages on the way.
    Installed,
}

/// How a deploy, a virtual-media run or an undeploy runs: the REST query and the window's
/// argument alike.
#[derive(Debug, Clone, Copy, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(default)]
pub struct DeployRequest {
    /// Only plan: list the objects that would be created, modified, deleted or left alone,
    /// and write nothing.
    #[param(required = false)]
    pub dry_run: bool,
    /// Deploy only: `written` (default) ends the job when the objects are written;
    /// `associated` follows each profile's association and power, host by host.
    #[param(inline, required = false)]
    pub until: Until,
    /// Deploy and virtual media: `true` power-cycles (or powers on) the hosts' servers after
    /// the writes so they boot from the new media; profiles still associating boot on their own.
    #[param(required = false)]
    pub restart: bool,
    /// Deploy and virtual media: go ahead although some hosts' media are stale (an input
    /// changed since they were built) or missing; without it such a run is refused with
    /// `409 media_stale` naming the hosts.
    #[param(required = false)]
    pub allow_stale: bool,
}

/// The query a virtual-media run takes, for the document: a deploy's without `until` (a
/// virtual-media run makes no profiles to follow, and refuses it). The handler reads a
/// [`DeployRequest`], so what the document leaves out is refused with a sentence.
#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)] // read by the OpenAPI document only
pub struct VmediaParams {
    /// Only plan: list the objects that would be created, modified, deleted or left alone,
    /// and write nothing.
    #[param(required = false)]
    dry_run: Option<bool>,
    /// `true` power-cycles (or powers on) the hosts' servers after the writes so they boot
    /// from the new media.
    #[param(required = false)]
    restart: Option<bool>,
    /// Go ahead although some hosts' media are stale, used or missing; without it such a run
    /// is refused with `409 media_stale` naming the hosts.
    #[param(required = false)]
    allow_stale: Option<bool>,
}

/// The query an undeploy takes, for the document: `dry_run` only (it follows nothing,
/// restarts nothing and needs no media, and refuses the rest).
#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)] // read by the OpenAPI document only
pub struct UndeployParams {
    /// Only plan: list the objects that would be removed, and remove nothing.
    #[param(required = false)]
    dry_run: Option<bool>,
}

/// A write runs as a job; a dry run answers at once with the plan.
/// Serialized as `{"job": "<id>"}` or `{"plan": {…}}` (the window's answer).
#[derive(Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum JobOrPlan {
    /// The job doing the work.
    Job(JobId),
    /// What would be done (boxed: a plan is large, a job id small).
    Plan(Box<DeployResult>),
}

/// Deploy the group's hosts: policies, template and pool where needed, a service profile per
/// host, bindings for hosts tied to a server, in a job; with `dry_run`, only the plan.
pub async fn deploy(app: &App, group: &str, request: DeployRequest) -> Result<JobOrPlan> {
    execute(app, group, What::Deploy, request).await
}

/// The virtual-media policy for the group's OS, and every host's existing service profile
/// pointed at it (on a standalone IMC: the host's media mounted); with `dry_run`, only the plan.
pub async fn vmedia(app: &App, group: &str, request: DeployRequest) -> Result<JobOrPlan> {
    if request.until != Until::Written {
        return Err(Error::bad(
            ErrorCode::InvalidRequest,
            "Following association or the install (until=associated, until=installed) belongs to a deploy; a virtual-media run makes no profiles",
        ));
    }
    execute(app, group, What::Media, request).await
}

/// Remove exactly the objects deploys of the group created (profiles, template, pool,
/// policies; bindings and members go with them), in one transaction. Objects Bootsmith did
/// not create are left alone. With `dry_run`, only the plan.
pub async fn undeploy(app: &App, group: &str, request: DeployRequest) -> Result<JobOrPlan> {
    if request.until != Until::Written || request.restart || request.allow_stale {
        return Err(Error::bad(
            ErrorCode::InvalidRequest,
            "Removing a deploy neither follows association nor restarts servers, and needs no media; leave out until, restart and allow_stale",
        ));
    }
    let g = server_groups::get(app, group).await?.managed();
    let manager = app
        .managers()
        .connect(app.cipher(), &g, Capability::Undeploy)?;
    if request.dry_run {
        return run::plan_removal(app, &*manager, &g)
            .await
            .map(|p| JobOrPlan::Plan(Box::new(p)));
    }
    run::start_removal(app, manager, g)
        .await
        .map(JobOrPlan::Job)
}

/// Take the virtual media of `host` (installed) away on its group's manager, where the
/// manager allows it; a sentence saying what was done.
pub(crate) async fn unmount(app: &App, host: &crate::records::hosts::Host) -> Result<String> {
    let group = host.server_group.as_ref().ok_or_else(|| {
        Error::bad(
            ErrorCode::NoServerGroup,
            format!("host {} is in no server group", host.name),
        )
    })?;
    let mut spec = targets::spec(app, group.as_str()).await?;
    spec.hosts.retain(|h| h.name == host.name);
    let manager = app
        .managers()
        .connect(app.cipher(), &spec.group, Capability::InstallMedia)?;
    match manager.unmount(&spec, host).await? {
        Unmounted::Objects(n) => Ok(format!(
            "its virtual media were taken away ({n} objects changed on {})",
            spec.group.name
        )),
        Unmounted::Done(done) => Ok(format!("{done} (on {})", spec.group.name)),
        Unmounted::Shared(why) => {
            let removed = crate::media::images::retire(app, host).await?;
            let files = if removed.is_empty() {
                "none was left".to_owned()
            } else {
                removed.join(" and ")
            };
            Ok(format!(
                "its own install media were removed from svc ({files}), so a reboot finds no answer file and cannot install again ({why}); build its images again to reinstall it"
            ))
        }
    }
}

/// Check, then plan (a dry run) or start the job.
async fn execute(app: &App, group: &str, what: What, request: DeployRequest) -> Result<JobOrPlan> {
    let mut spec = targets::spec(app, group).await?;
    if request.restart {
        // A host still `booting` is restarted on request (it may never have come up), and so
        // needs its one-time boot again; one whose installer runs is left alone.
        spec.running.retain(|_, st| *st == Stage::Installing);
    }
    let capability = match what {
        What::Media => Capability::InstallMedia,
        What::Deploy => Capability::Deploy,
    };
    let manager = app
        .managers()
        .connect(app.cipher(), &spec.group, capability)?;
    if request.until == Until::Associated {
        managers::require(&spec.group, Capability::FollowAssociation)?;
    }
    if request.restart {
        managers::require(&spec.group, Capability::Power)?;
    }
    manager.check(&spec, what)?;
    // What the plan names per host, read at once: every read here comes before the job's
    // claim, so a second deploy of the group waits for as little as it can.
    let (servers, disks, host_nics, single) = tokio::join!(
        manager.servers(),
        manager.install_disks(),
        manager.host_nics(),
        manager.single_device_hosts(&spec)
    );
    let servers = servers?;
    let (disks, disk_warnings) =
        install_disks::resolve(&spec, &servers, disks, &app.catalog(), app.svc_dir())?;
    let mut warnings = media::unusable(app, &spec, request).await?;
    warnings.extend(preflight::check(app, &spec, request.dry_run).await?);
    if what == What::Deploy {
        let names: Vec<String> = spec.hosts.iter().map(|h| h.name.to_string()).collect();
        warnings.extend(crate::records::keys::no_login_warning(app, &names).await?);
    }
    warnings.extend(disk_warnings);
    let nets = crate::records::networks::list(app).await?;
    let (host_nics, nic_warnings) = nics::resolve(&spec, &servers, host_nics, &nets);
    warnings.extend(nic_warnings);
    warnings.extend(family_network::warnings(
        &spec.hosts,
        &nets,
        &app.catalog(),
        app.svc_dir(),
    ));
    // A plan that cannot tell which hosts boot from one device says nothing of them here; the
    // run asks again and fails with the reason.
    warnings.extend(family_network::dhcp_boots(
        &spec.hosts,
        &single.unwrap_or_default(),
        &host_nics,
        &app.catalog(),
    ));
    let placed = Placement {
        install_disks: disks,
        install_nics: host_nics,
    };
    if request.dry_run {
        return run::plan(app, &*manager, &spec, what, warnings, placed)
            .await
            .map(|p| JobOrPlan::Plan(Box::new(p)));
    }
    run::start(app, manager, spec, what, request, placed)
        .await
        .map(JobOrPlan::Job)
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
        let plan = JobOrPlan::Plan(Box::new(DeployResult {
            server_group: "pod1".into(),
            os: String::new(),
            dry_run: true,
            objects: Vec::new(),
            install_disks: Vec::new(),
            install_nics: Vec::new(),
            hosts: Vec::new(),
            restarted: Vec::new(),
            installs: Vec::new(),
            warnings: Vec::new(),
            outcomes: Default::default(),
            failed_hosts: Vec::new(),
        }));
        assert_eq!(
            serde_json::to_value(plan).unwrap(),
            serde_json::json!({"plan": {"server_group": "pod1", "os": "", "dry_run": true, "objects": []}})
        );
    }
}
