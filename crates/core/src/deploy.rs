//! Deploying a server group's hosts to its manager. Built so far: the virtual-media policy
//! of the group's OS on UCS Manager and pointing the hosts' existing service profiles at it
//! (`POST /api/v2/servers/<group>/vmedia`), planned first and idempotent. Service profiles,
//! the `SVC_<code>` template and pool, and IMC media mounts are still to come.

use bootsmith_ucs::policies::{CdImage, MediaServer, VmediaPolicy};
use bootsmith_ucs::{Action, Change, Wanted};
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
}

/// A group ready to deploy: its record, its hosts and their one OS.
struct Target {
    group: ServerGroup,
    hosts: Vec<Host>,
    os: OsEntry,
    server: MediaServer,
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
            "set the boot-server address first (POST /api/v1/ip)",
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
                        format!(
                            "{}: svc/{file} is missing: make the images first (POST /api/v2/deploy/images)",
                            h.name
                        ),
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
    let os = os.expect("a group with hosts has an OS");
    let svc_ip = svc_ip.expect("checked").to_string();
    Ok(Target {
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

/// The group's virtual-media policy: named like the `SVC_<code>` template, in org-root so
/// every sub-org's profiles resolve it.
fn vmedia_policy(app: &App, t: &Target) -> VmediaPolicy {
    VmediaPolicy {
        name: app.catalog().svc_template_name(&t.os),
        org: "org-root".into(),
        server: t.server.clone(),
        cd: match t.os.family {
            Family::Esxi => CdImage::PerProfile,
            _ => CdImage::Shared(images::boot_media(&t.os, "")),
        },
        hdd_per_profile: t.os.family != Family::Esxi,
    }
}

/// DN of a host's service profile: in the org of its template, else org-root.
fn profile_dn(h: &Host) -> String {
    let org = h
        .service_profile_template
        .as_ref()
        .and_then(|t| {
            t.as_str()
                .rsplit_once("/ls-")
                .map(|(org, _)| org.to_owned())
        })
        .unwrap_or_else(|| "org-root".to_owned());
    format!("{org}/ls-{}", h.name)
}

/// `POST /api/v2/servers/<group>/vmedia`: the virtual-media policy for the group's OS, and
/// every host's existing service profile pointed at it. With `dry_run`, only the plan.
pub async fn vmedia(app: &App, group: &str, dry_run: bool) -> Result<JobOrPlan> {
    let t = target(app, group).await?;
    if t.group.kind == GroupKind::Imc {
        return Err(Error::not_implemented(
            "Virtual media for standalone IMC servers",
        ));
    }
    let ep = app.managers().endpoint(app.cipher(), &t.group)?;
    let dns: Vec<String> = t.hosts.iter().map(profile_dn).collect();
    let found = ep.resolve_dns(&dns).await?;
    let missing: Vec<Problem> = t
        .hosts
        .iter()
        .zip(&dns)
        .filter(|(_, dn)| !found.iter().any(|m| m.get("dn") == dn.as_str()))
        .map(|(h, dn)| {
            Problem::field(
                "service_profile",
                format!(
                    "{}: {dn} does not exist on {}: deploy the group first",
                    h.name, t.group.name
                ),
            )
        })
        .collect();
    if !missing.is_empty() {
        let list: Vec<String> = missing.iter().map(ToString::to_string).collect();
        return Err(Error::NotFound {
            code: "unknown_service_profile",
            message: format!(
                "The virtual-media policy is for existing service profiles: {}",
                list.join("; ")
            ),
        });
    }
    let policy = vmedia_policy(app, &t);
    let mut wanted: Vec<Wanted> = policy.wanted();
    wanted.extend(
        dns.iter()
            .map(|dn| bootsmith_ucs::policies::profile_policies(dn, None, Some(&policy.name))),
    );
    if dry_run {
        let (changes, _) = ep.plan(&wanted).await?;
        return Ok(JobOrPlan::Plan(DeployResult {
            server_group: t.group.name.to_string(),
            os: t.os.id.clone(),
            dry_run: true,
            objects: changes.into_iter().map(Into::into).collect(),
        }));
    }
    let name = t.group.name.to_string();
    let os = t.os.id.clone();
    let id = jobs::start(
        app,
        JOB_KIND,
        Some(name.clone()),
        move |job: JobCtx| async move {
            job.step(
                None,
                "vmedia-policy",
                StepState::Started,
                Some(&policy.dn()),
            );
            let result = async {
                let (changes, send) = ep.plan(&wanted).await?;
                ep.configure(send).await?;
                Ok::<_, Error>(changes)
            }
            .await;
            match result {
                Ok(changes) => {
                    job.step(None, "vmedia-policy", StepState::Done, Some(&policy.dn()));
                    Ok(serde_json::to_value(DeployResult {
                        server_group: name,
                        os,
                        dry_run: false,
                        objects: changes.into_iter().map(Into::into).collect(),
                    })
                    .map_err(|e| Error::Corrupt(format!("deploy results do not serialize: {e}")))?)
                }
                Err(e) => {
                    job.step(
                        None,
                        "vmedia-policy",
                        StepState::Failed,
                        Some(&e.to_string()),
                    );
                    Err(e)
                }
            }
        },
    )
    .await?;
    Ok(JobOrPlan::Job(id))
}

/// A write runs as a job; a dry run answers at once with the plan.
#[derive(Debug)]
pub enum JobOrPlan {
    /// The job doing the work.
    Job(JobId),
    /// What would be done.
    Plan(DeployResult),
}
