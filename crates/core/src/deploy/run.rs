//! The deploy job: the driver writes the difference, the job records what was created,
//! reports a step per host, follows association where asked and power-cycles the hosts'
//! servers onto the new media. One job per group at a time, claimed before the manager is
//! read, so a second deploy of the group is refused at once.

use std::sync::Arc;

use super::{
    record, DeployRequest, DeployResult, HostOutcome, Until, JOB_KIND, UNDEPLOY_JOB_KIND,
    VMEDIA_JOB_KIND,
};
use crate::app::App;
use crate::error::{Error, Result};
use crate::jobs::{self, JobCtx, JobId, JobOutput, JobStep, StepState};
use crate::lifecycle::{self, Stage};
use crate::managers::ManagedGroup;
use crate::managers::{
    DeploySpec, Manager, MediaState, ObjectAction, Plan, PowerAction, Server, What,
};
use crate::media::single_device;
use bootsmith_model::time::{Millis, Time};

fn result(
    group: &ManagedGroup,
    os: &str,
    dry_run: bool,
    plan: Plan,
    placed: super::Placement,
) -> DeployResult {
    DeployResult {
        server_group: group.name.to_string(),
        os: os.to_owned(),
        dry_run,
        objects: plan.objects,
        install_disks: placed.install_disks,
        install_nics: placed.install_nics,
        hosts: Vec::new(),
        restarted: Vec::new(),
        installs: Vec::new(),
        warnings: plan.warnings,
        outcomes: Default::default(),
        failed_hosts: Vec::new(),
    }
}

/// How `host` ended in a run that followed what `out` holds: its install where the run
/// followed installs, else its association and media, else its objects written.
fn outcome(host: &str, out: &DeployResult) -> HostOutcome {
    if let Some(i) = out.installs.iter().find(|i| i.host == host) {
        return match i.status.state {
            Some(Stage::Installed) => HostOutcome::Installed,
            Some(Stage::Failed) => HostOutcome::Failed,
            _ => HostOutcome::TimedOut,
        };
    }
    let Some(p) = out.hosts.iter().find(|p| p.host == host) else {
        return HostOutcome::Written;
    };
    let media = p.media.as_ref().map(|m| m.state);
    match (p.association.as_str(), media) {
        ("failed", _) | (_, Some(MediaState::Failed)) => HostOutcome::Failed,
        (_, Some(MediaState::Mounting)) => HostOutcome::TimedOut,
        ("associated", _) => HostOutcome::Associated,
        ("", Some(MediaState::Mounted)) => HostOutcome::Mounted,
        // Still associating (or not seen at all) when the wait ran out.
        _ => HostOutcome::TimedOut,
    }
}

/// The run's result with each host's outcome counted and the failed hosts named; the job
/// ends `finished_with_failures` when any host failed or ran out of time.
fn finish(spec: &DeploySpec, mut out: DeployResult) -> Result<JobOutput> {
    for h in &spec.hosts {
        let o = outcome(h.name.as_str(), &out);
        *out.outcomes.entry(o).or_insert(0) += 1;
        if o.is_failure() {
            out.failed_hosts.push(h.name.to_string());
        }
    }
    if !out.failed_hosts.is_empty() {
        tracing::warn!(group = %spec.group.name, hosts = %out.failed_hosts.join(", "), "deploy finished with failures");
    }
    let with_failures = !out.failed_hosts.is_empty();
    Ok(JobOutput {
        result: to_json(out)?,
        with_failures,
    })
}

fn to_json(result: DeployResult) -> Result<serde_json::Value> {
    serde_json::to_value(result)
        .map_err(|e| Error::Corrupt(format!("deploy results do not serialize: {e}")))
}

/// What a run would create, modify, delete or leave alone, `warnings` first among its
/// warnings; nothing is written.
pub(super) async fn plan(
    app: &App,
    manager: &dyn Manager,
    spec: &DeploySpec,
    what: What,
    warnings: Vec<String>,
    placed: super::Placement,
) -> Result<DeployResult> {
    let recorded = record::recorded(app, &spec.group).await?;
    let mut plan = manager.plan(spec, what, &recorded).await?;
    plan.warnings.splice(0..0, warnings);
    Ok(result(&spec.group, &spec.os.id, true, plan, placed))
}

/// The MAC inventory gave `host`, which names none, on its own server: its single-device boot
/// goes on that NIC. Empty where the host names its MACs, or inventory told none.
fn inventory_macs(placed: &super::Placement, host: &str) -> Vec<String> {
    let mut on = placed.install_nics.iter().filter(|n| n.host == host);
    match (on.next(), on.next()) {
        (Some(n), None) if n.from_inventory => n.nics.iter().map(|p| p.mac.clone()).collect(),
        _ => Vec::new(),
    }
}

/// Write the difference in a job; what only the manager can tell (missing templates or
/// profiles) fails the job with its own status.
pub(super) async fn start(
    app: &App,
    manager: Arc<dyn Manager>,
    mut spec: DeploySpec,
    what: What,
    request: DeployRequest,
    placed: super::Placement,
) -> Result<JobId> {
    let core = app.clone();
    let scope = spec.group.name.to_string();
    let started = lifecycle::now();
    let kind = match what {
        What::Deploy => JOB_KIND,
        What::Media => VMEDIA_JOB_KIND,
    };
    jobs::start(app, kind, Some(scope), move |job: JobCtx| async move {
        job.step(None, JobStep::Objects, StepState::Started, None);
        let written = async {
            // A server with one virtual-media device mounts one image: its single-device ISO,
            // whose boot entries fetch the answer file over HTTP.
            for host in manager.single_device_hosts(&spec).await? {
                let nic = inventory_macs(&placed, &host);
                let single = single_device::single_device_media(&core, &job, &host, &nic).await?;
                job.step(
                    Some(host.as_str()),
                    JobStep::SingleDevice,
                    StepState::Done,
                    Some(&format!(
                        "its server has one virtual-media device: it boots {} alone{}",
                        single.file,
                        if single.answers.is_empty() {
                            String::new()
                        } else {
                            format!(", which fetches {} over HTTP", single.answers.join(" and "))
                        }
                    )),
                );
                spec.single_device.insert(host, single.url);
            }
            let recorded = record::recorded(&core, &spec.group).await?;
            let plan = manager.apply(&spec, what, &recorded, &job).await?;
            record::record(&core, &spec.group, &plan.objects).await?;
            Ok::<_, Error>(plan)
        }
        .await;
        let plan = match written {
            Ok(plan) => plan,
            Err(e) => {
                job.step(
                    None,
                    JobStep::Objects,
                    StepState::Failed,
                    Some(&e.to_string()),
                );
                return Err(e);
            }
        };
        for w in &plan.warnings {
            job.step(None, JobStep::Objects, StepState::Skipped, Some(w));
        }
        let changed = plan
            .objects
            .iter()
            .filter(|o| o.action != ObjectAction::Unchanged)
            .count();
        job.step(
            None,
            JobStep::Objects,
            StepState::Done,
            Some(&format!(
                "{changed} of {} objects written",
                plan.objects.len()
            )),
        );
        let mut touched_hosts = Vec::new();
        for h in &spec.hosts {
            let touched = plan.objects.iter().any(|o| {
                o.host.as_deref() == Some(h.name.as_str()) && o.action != ObjectAction::Unchanged
            });
            let state = if touched {
                StepState::Done
            } else {
                StepState::Skipped
            };
            job.step(Some(h.name.as_str()), JobStep::ServiceProfile, state, None);
            touched_hosts.push((h.name.to_string(), touched));
        }
        let written = match what {
            What::Deploy => "the deploy wrote it to the manager",
            What::Media => "its install media were set up on the manager",
        };
        lifecycle::deployed(
            core.store(),
            core.lifecycle(),
            &touched_hosts,
            written,
            started,
        )
        .await?;
        let mut out = result(&spec.group, &spec.os.id, false, plan, placed);
        let follow_association = match request.until {
            Until::Written => false,
            Until::Associated => true,
            // Where the manager tells association, it is the first thing an install waits for.
            Until::Installed => crate::managers::capabilities(spec.group.kind)
                .contains(&crate::managers::Capability::FollowAssociation),
        };
        // An IMC mounts its media when they are written: its run always watches the mounts.
        if follow_association || manager.mounts_when_written() {
            out.hosts = manager.follow(&spec, &job).await?;
        }
        if request.restart {
            out.restarted = restart(&core, &*manager, &job, &spec, &touched_hosts).await?;
        }
        if request.until == Until::Installed {
            out.installs = follow_installs(&core, &job, &spec, started).await?;
        }
        finish(&spec, out)
    })
    .await
}

/// Power-cycle the servers of the hosts (power on those that are off) in one write per
/// action, so they boot from the media just set up; a `power` step per host says what was done.
/// A host whose install runs from media this run left untouched (`touched`: name, whether its
/// objects changed) is not cycled: that would cut its install off half-way.
async fn restart(
    app: &App,
    manager: &dyn Manager,
    job: &JobCtx,
    spec: &DeploySpec,
    touched: &[(String, bool)],
) -> Result<Vec<String>> {
    let servers = manager.host_servers(spec).await?;
    let mut cycle: Vec<&Server> = Vec::new();
    let mut on: Vec<&Server> = Vec::new();
    let mut done = Vec::new();
    for (h, server) in spec.hosts.iter().zip(&servers) {
        let name = h.name.as_str();
        let untouched = touched.iter().any(|(n, t)| n == name && !t);
        if let Some(stage) = spec.running.get(name).filter(|_| untouched) {
            job.step(
                Some(name),
                JobStep::Power,
                StepState::Skipped,
                Some(&format!(
                    "not restarted: its install runs from these media ({stage}) and a restart would cut it off; restart it on the Power screen if it hangs"
                )),
            );
            continue;
        }
        match server {
            Some(s) => {
                let off = s.is_off();
                job.step(
                    Some(name),
                    JobStep::Power,
                    StepState::Started,
                    Some(if off { "power on" } else { "power cycle" }),
                );
                if off { &mut on } else { &mut cycle }.push(s);
                done.push(name.to_owned());
            }
            None => job.step(
                Some(name),
                JobStep::Power,
                StepState::Skipped,
                Some("the profile is not associated yet; the server boots when it is"),
            ),
        }
    }
    if !on.is_empty() {
        manager.set_power(&on, PowerAction::On).await?;
    }
    if !cycle.is_empty() {
        manager.set_power(&cycle, PowerAction::HardReset).await?;
    }
    for name in &done {
        job.step(Some(name), JobStep::Power, StepState::Done, None);
        app.lifecycle()
            .set(
                name,
                Stage::Booting,
                "Bootsmith powered the server on to boot its media",
            )
            .await;
    }
    Ok(done)
}

/// Wait until every host of the run is installed or failed, reporting each stage a host
/// reaches from `since` on (an `install` step per stage and host, from its timeline, so none is
/// missed between two looks). Stage timeouts (the install settings) end a wait that would never
/// end: the host fails with the stage named.
async fn follow_installs(
    app: &App,
    job: &JobCtx,
    spec: &DeploySpec,
    since: Time<Millis>,
) -> Result<Vec<lifecycle::HostInstall>> {
    let names: Vec<String> = spec.hosts.iter().map(|h| h.name.to_string()).collect();
    let mut reported: std::collections::HashMap<String, i64> = Default::default();
    loop {
        let now = lifecycle::installs(app.store(), &names).await?;
        for name in &names {
            let last = reported.entry(name.clone()).or_insert(0);
            for e in lifecycle::events_after(app.store(), name, *last, since).await? {
                *last = e.0;
                let state = match e.1.state {
                    Some(Stage::Installed) => StepState::Done,
                    Some(Stage::Failed) => StepState::Failed,
                    _ => StepState::Started,
                };
                let words = format!(
                    "{}: {}",
                    e.1.state.map_or("unknown", Stage::as_str),
                    e.1.detail.as_deref().unwrap_or("")
                );
                job.step(Some(name), JobStep::Install, state, Some(&words));
            }
        }
        if now
            .iter()
            .all(|h| h.status.state.is_some_and(Stage::is_final))
        {
            return Ok(now);
        }
        tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    }
}

/// What removing the group's recorded objects would do; nothing is written.
pub(super) async fn plan_removal(
    app: &App,
    manager: &dyn Manager,
    group: &ManagedGroup,
) -> Result<DeployResult> {
    let recorded = record::recorded(app, group).await?;
    manager
        .check_removal(group.name.as_str(), &recorded)
        .await?;
    let plan = manager.plan_removal(&recorded).await?;
    Ok(result(group, "", true, plan, super::Placement::default()))
}

/// Remove the group's recorded objects in a job, then forget them all.
pub(super) async fn start_removal(
    app: &App,
    manager: Arc<dyn Manager>,
    group: ManagedGroup,
) -> Result<JobId> {
    let core = app.clone();
    let recorded = record::recorded(app, &group).await?;
    manager
        .check_removal(group.name.as_str(), &recorded)
        .await?;
    jobs::start(
        app,
        UNDEPLOY_JOB_KIND,
        Some(group.name.to_string()),
        move |job: JobCtx| async move {
            job.step(None, JobStep::Remove, StepState::Started, None);
            let plan = manager.remove(&recorded).await?;
            record::forget_all(&core, &group).await?;
            job.step(
                None,
                JobStep::Remove,
                StepState::Done,
                Some(&format!("{} objects removed", plan.objects.len())),
            );
            to_json(result(&group, "", false, plan, super::Placement::default()))
        },
    )
    .await
}
