//! The deploy job: the driver writes the difference, the job records what was created,
//! reports a step per host, follows association where asked and power-cycles the hosts'
//! servers onto the new media. One job per group at a time, claimed before the manager is
//! read, so a second deploy of the group is refused at once.

use std::sync::Arc;

use super::{record, DeployRequest, DeployResult, Until, JOB_KIND};
use crate::app::App;
use crate::error::{Error, Result};
use crate::jobs::{self, JobCtx, JobId, StepState};
use crate::managers::ManagedGroup;
use crate::managers::{DeploySpec, Manager, ObjectAction, Plan, PowerAction, Server, What};

fn result(group: &ManagedGroup, os: &str, dry_run: bool, plan: Plan) -> DeployResult {
    DeployResult {
        server_group: group.name.to_string(),
        os: os.to_owned(),
        dry_run,
        objects: plan.objects,
        hosts: Vec::new(),
        restarted: Vec::new(),
        warnings: plan.warnings,
    }
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
) -> Result<DeployResult> {
    let recorded = record::recorded(app, &spec.group).await?;
    let mut plan = manager.plan(spec, what, &recorded).await?;
    plan.warnings.splice(0..0, warnings);
    Ok(result(&spec.group, &spec.os.id, true, plan))
}

/// Write the difference in a job; what only the manager can tell (missing templates or
/// profiles) fails the job with its own status.
pub(super) async fn start(
    app: &App,
    manager: Arc<dyn Manager>,
    spec: DeploySpec,
    what: What,
    request: DeployRequest,
) -> Result<JobId> {
    let core = app.clone();
    let scope = spec.group.name.to_string();
    jobs::start(app, JOB_KIND, Some(scope), move |job: JobCtx| async move {
        job.step(None, "objects", StepState::Started, None);
        let written = async {
            let recorded = record::recorded(&core, &spec.group).await?;
            let plan = manager.apply(&spec, what, &recorded).await?;
            record::record(&core, &spec.group, &plan.objects).await?;
            Ok::<_, Error>(plan)
        }
        .await;
        let plan = match written {
            Ok(plan) => plan,
            Err(e) => {
                job.step(None, "objects", StepState::Failed, Some(&e.to_string()));
                return Err(e);
            }
        };
        for w in &plan.warnings {
            job.step(None, "objects", StepState::Skipped, Some(w));
        }
        let changed = plan
            .objects
            .iter()
            .filter(|o| o.action != ObjectAction::Unchanged)
            .count();
        job.step(
            None,
            "objects",
            StepState::Done,
            Some(&format!(
                "{changed} of {} objects written",
                plan.objects.len()
            )),
        );
        for h in &spec.hosts {
            let touched = plan.objects.iter().any(|o| {
                o.host.as_deref() == Some(h.name.as_str()) && o.action != ObjectAction::Unchanged
            });
            let state = if touched {
                StepState::Done
            } else {
                StepState::Skipped
            };
            job.step(Some(h.name.as_str()), "service-profile", state, None);
        }
        let mut out = result(&spec.group, &spec.os.id, false, plan);
        if request.until == Until::Associated || manager.mounts_when_written() {
            out.hosts = manager.follow(&spec, &job).await?;
        }
        if request.restart {
            out.restarted = restart(&*manager, &job, &spec).await?;
        }
        to_json(out)
    })
    .await
}

/// Power-cycle the servers of the hosts (power on those that are off) in one write per
/// action, so they boot from the media just set up; a `power` step per host says what was done.
async fn restart(manager: &dyn Manager, job: &JobCtx, spec: &DeploySpec) -> Result<Vec<String>> {
    let servers = manager.host_servers(spec).await?;
    let mut cycle: Vec<&Server> = Vec::new();
    let mut on: Vec<&Server> = Vec::new();
    let mut done = Vec::new();
    for (h, server) in spec.hosts.iter().zip(&servers) {
        let name = h.name.as_str();
        match server {
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
        manager.set_power(&on, PowerAction::On).await?;
    }
    if !cycle.is_empty() {
        manager.set_power(&cycle, PowerAction::HardReset).await?;
    }
    for name in &done {
        job.step(Some(name), "power", StepState::Done, None);
    }
    Ok(done)
}

/// What removing the group's recorded objects would do; nothing is written.
pub(super) async fn plan_removal(
    app: &App,
    manager: &dyn Manager,
    group: &ManagedGroup,
) -> Result<DeployResult> {
    let recorded = record::recorded(app, group).await?;
    let plan = manager.plan_removal(&recorded).await?;
    Ok(result(group, "", true, plan))
}

/// Remove the group's recorded objects in a job, then forget them all.
pub(super) async fn start_removal(
    app: &App,
    manager: Arc<dyn Manager>,
    group: ManagedGroup,
) -> Result<JobId> {
    let core = app.clone();
    let recorded = record::recorded(app, &group).await?;
    jobs::start(
        app,
        JOB_KIND,
        Some(group.name.to_string()),
        move |job: JobCtx| async move {
            job.step(None, "remove", StepState::Started, None);
            let plan = manager.remove(&recorded).await?;
            record::forget_all(&core, &group).await?;
            job.step(
                None,
                "remove",
                StepState::Done,
                Some(&format!("{} objects removed", plan.objects.len())),
            );
            to_json(result(&group, "", false, plan))
        },
    )
    .await
}
