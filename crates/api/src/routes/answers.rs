//! The seed's answer shapes: what the REST door wraps a core answer in (a list under its
//! name, a record with a `status` sentence, `201` for what was created, a job or its result).

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json as Reply;
use bootsmith_core::deploy::JobOrPlan;
use bootsmith_core::kubam::ImportReport;
use bootsmith_core::records::settings::IpAddress;
use bootsmith_core::{
    compute, jobs, media::isos, records::aci, records::hosts, records::keys, records::networks,
    records::server_groups, records::settings,
};
use serde::Serialize;
use utoipa::ToSchema;

use super::jobs::{run_or_wait, WaitQuery};
use crate::ApiState;

/// `{"status": "<sentence>"}` plus the changed record, the answer of most writes.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Changed<T> {
    /// A sentence saying what happened.
    pub status: String,
    /// The record as stored now.
    #[serde(flatten)]
    pub record: T,
}

/// `201 Created` with the new record and `status`.
pub(crate) fn created<T>(status: String, record: T) -> (StatusCode, Reply<Changed<T>>) {
    (StatusCode::CREATED, changed(status, record))
}

/// The changed record with `status`.
pub(crate) fn changed<T>(status: String, record: T) -> Reply<Changed<T>> {
    Reply(Changed { status, record })
}

/// A KUBAM import: `201` when it wrote, `200` for a plan.
pub(crate) fn written_or_planned(report: ImportReport) -> (StatusCode, Reply<ImportReport>) {
    let status = if report.written {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    (status, Reply(report))
}

/// A deploy's answer: the plan of a dry run, else the job (its result, or `202` with `?wait=false`).
pub(crate) async fn job_or_plan(s: &ApiState, outcome: JobOrPlan, wait: &WaitQuery) -> Response {
    match outcome {
        JobOrPlan::Plan(plan) => Reply(plan).into_response(),
        JobOrPlan::Job(id) => run_or_wait(s, id, wait.wait()).await,
    }
}

/// The host list's JSON, kept until the store or the top of svc changes: reading, checking
/// and writing a thousand hosts again was most of the call's time.
pub(crate) async fn hosts_json(s: &ApiState) -> bootsmith_core::Result<super::JsonBytes> {
    // Media added to or removed from svc change what the list says of them.
    let svc_changed = std::fs::metadata(s.app.svc_dir())
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos() as i64);
    let body = s
        .hosts_body
        .get(s.app.store(), svc_changed, || async {
            let hosts = bootsmith_core::host_views::list(&s.app).await?;
            // About 500 bytes a host with its status and media; a little more saves a copy.
            let capacity = 16 + hosts.len() * 640;
            super::json_bytes(&HostList { hosts }, capacity)
        })
        .await?;
    Ok(super::JsonBytes(body))
}

/// Every ACI instance.
#[derive(Debug, Serialize, ToSchema)]
pub struct AciList {
    pub(crate) aci: Vec<aci::AciInstance>,
}

/// The group's servers.
#[derive(Debug, Serialize, ToSchema)]
pub struct Servers {
    pub(crate) servers: Vec<compute::ServerRecord>,
}

/// The group's templates.
#[derive(Debug, Serialize, ToSchema)]
pub struct Templates {
    pub(crate) templates: Vec<compute::TemplateRecord>,
}

/// Power state lines.
#[derive(Debug, Serialize, ToSchema)]
pub struct Status {
    pub(crate) status: crate::wire::PowerLines,
}

/// Every host, with its install status and media.
#[derive(Debug, Serialize, ToSchema)]
pub struct HostList {
    pub(crate) hosts: Vec<bootsmith_core::host_views::HostView>,
}

/// Every host.
#[derive(Debug, Serialize, ToSchema)]
pub struct Hosts {
    pub(crate) hosts: Vec<hosts::Host>,
}

/// ISO files in svc.
#[derive(Debug, Serialize, ToSchema)]
pub struct Isos {
    /// File names.
    pub(crate) isos: Vec<String>,
}

/// Every ISO in svc with what Bootsmith sees in it.
#[derive(Debug, Serialize, ToSchema)]
pub struct IsoDetails {
    pub(crate) isos: Vec<isos::IsoInfo>,
}

/// The ISO map.
#[derive(Debug, Serialize, ToSchema)]
pub struct IsoMap {
    /// Every mapping.
    pub(crate) iso_map: Vec<isos::IsoMapEntry>,
}

/// The jobs kept in memory.
#[derive(Debug, Serialize, ToSchema)]
pub struct JobList {
    /// Most recent first.
    pub(crate) jobs: Vec<jobs::JobSummary>,
}

/// The SSH key list.
#[derive(Debug, Serialize, ToSchema)]
pub struct Keys {
    /// OpenSSH public keys.
    pub(crate) keys: Vec<String>,
}

/// The SSH keys with what identifies each.
#[derive(Debug, Serialize, ToSchema)]
pub struct KeyDetails {
    /// Each key with its type, comment and SHA256 fingerprint.
    pub(crate) keys: Vec<keys::KeyInfo>,
}

/// Every network group.
#[derive(Debug, Serialize, ToSchema)]
pub struct Networks {
    pub(crate) networks: Vec<networks::NetworkGroup>,
}

/// Server groups under both seed spellings.
#[derive(Debug, Serialize, ToSchema)]
pub struct ServerGroups {
    /// The walkthrough's form (items carry `id`, and `uid` too).
    pub(crate) servers: Vec<server_groups::ServerGroup>,
    /// The reference's form (same items).
    #[serde(rename = "server-groups")]
    pub(crate) server_groups: Vec<server_groups::ServerGroup>,
}

/// The status word of an answer that has nothing more to say.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum OkStatus {
    /// All is well.
    Ok,
}

/// The stored selection, with a status word: the answer of `POST …/servers` (its own name in
/// the document, so it does not hide the core's `Selection`, which has no `status`).
#[derive(Debug, Serialize, ToSchema)]
pub struct SelectionAnswer {
    /// Always `ok`.
    pub(crate) status: OkStatus,
    /// The servers now selected, and what could not be checked.
    #[serde(flatten)]
    pub(crate) selection: server_groups::Selection,
}

/// The boot-server address, under its name and under KUBAM's.
#[derive(Debug, Serialize, ToSchema)]
pub struct SvcIp {
    /// The address as KUBAM's clients read it: first, because KUBAM's v2.0 web UI takes the
    /// answer's first key.
    #[schema(value_type = Option<String>)]
    kubam_ip: Option<IpAddress>,
    /// The same address, or null when not set yet.
    #[schema(value_type = Option<String>)]
    svc_ip: Option<IpAddress>,
    /// When saving: why servers may not reach the address (absent when nothing is in the
    /// way, and when reading).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    warnings: Vec<String>,
}

impl SvcIp {
    /// The address under both names.
    pub(crate) fn new(ip: Option<IpAddress>) -> Self {
        SvcIp {
            kubam_ip: ip,
            svc_ip: ip,
            warnings: Vec::new(),
        }
    }

    /// The address just saved, with its warnings.
    pub(crate) fn saved(saved: settings::SvcIpSaved) -> Self {
        SvcIp {
            warnings: saved.warnings,
            ..SvcIp::new(Some(saved.svc_ip))
        }
    }
}

/// The default proxy.
#[derive(Debug, Serialize, ToSchema)]
pub struct Proxy {
    /// Proxy URL of network groups that name none, or null.
    #[schema(value_type = Option<String>)]
    pub(crate) proxy: Option<settings::ProxyUrl>,
}

/// The default UCS org.
#[derive(Debug, Serialize, ToSchema)]
pub struct Org {
    /// Org DN of server groups that name none, or null (org-root).
    #[schema(value_type = Option<String>)]
    pub(crate) org: Option<settings::OrgDn>,
}
