//! What a deploy needs before the manager is touched: hosts in the group, one OS, the
//! boot-server address and svc served over HTTP. Every problem is reported at once. (Whether
//! the hosts' media are there and still right is `super::media`'s question.)

use crate::app::App;
use crate::error::{Error, ErrorCode, Problem, Result};
use crate::lifecycle::{self, Stage};
use crate::managers::{DeploySpec, HostMedia, MediaServer};
use crate::media::layout;
use crate::records::hosts::{self, Host};
use crate::records::server_groups;
use crate::records::settings;
use bootsmith_model::catalog::OsEntry;

/// The files in svc a host boots from.
pub(super) fn media_files(os: &OsEntry, h: &Host) -> Vec<String> {
    let m = host_media(os, h);
    std::iter::once(m.boot).chain(m.answer).collect()
}

/// Where each of a host's media is in svc, as the drivers get it in the spec.
fn host_media(os: &OsEntry, h: &Host) -> HostMedia {
    let name = h.name.as_str();
    HostMedia {
        boot: layout::boot_media(os, name),
        answer: layout::answer_disk(os, name),
        single_device: layout::single_device_iso(name),
    }
}

/// Check everything a deploy of group `name` needs; every problem in one error.
pub(super) async fn spec(app: &App, name: &str) -> Result<DeploySpec> {
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
            format!("no host is in server group {name}: add hosts to it on the Hosts screen"),
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
    let catalog = app.catalog();
    let os = oses.first().and_then(|id| catalog.get(id)).cloned();
    Error::invalid_if_any(
        ErrorCode::DeployNotReady,
        &format!("Server group {name} cannot be deployed yet"),
        problems,
    )?;
    let os = os.ok_or_else(|| {
        Error::Corrupt(format!(
            "the OS of the hosts of {name} ({}) is not in the catalog",
            oses.join(", ")
        ))
    })?;
    let svc_ip = svc_ip.expect("checked").to_string();
    let org = group.effective_org(app).await?;
    let names: Vec<String> = hosts.iter().map(|h| h.name.to_string()).collect();
    let running = lifecycle::installs(app.store(), &names)
        .await?
        .into_iter()
        .filter_map(|i| match i.status.state {
            Some(st @ (Stage::Booting | Stage::Installing)) => Some((i.host, st)),
            _ => None,
        })
        .collect();
    Ok(DeploySpec {
        svc_name: app.catalog().svc_template_name(&os),
        org,
        group: group.managed(),
        host_media: hosts
            .iter()
            .map(|h| (h.name.to_string(), host_media(&os, h)))
            .collect(),
        shared_boot: layout::shared_boot_media(&os),
        hosts,
        os,
        media: MediaServer {
            ip: svc_ip,
            port,
            path: "/svc/".into(),
        },
        single_device: Default::default(),
        running,
    })
}
