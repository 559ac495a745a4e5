//! Deploying a server group to its manager: the whole deploy, and the virtual-media policy alone.

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::Json as Reply;
use bootsmith_core::deploy::{self, DeployResult, JobOrPlan};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Path, Query};
use crate::routes::jobs::{run_or_wait, JobAccepted};
use crate::ApiState;

/// `?dry_run=true` answers with the plan and writes nothing; `?wait=false` answers at once with the job.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DeployQuery {
    /// Only plan: list the objects that would be created, modified or left alone.
    pub dry_run: Option<bool>,
    /// `false` answers `202` with the job at once; absent or `true` waits for the result.
    pub wait: Option<bool>,
    /// Deploy only: `written` (default) ends the job when the objects are written;
    /// `associated` follows each profile's association and power, host by host.
    #[param(inline)]
    pub until: Option<UntilParam>,
    /// Deploy only: `true` power-cycles (or powers on) the hosts' servers after the writes so
    /// they boot from the new media; profiles still associating boot on their own.
    pub restart: Option<bool>,
}

/// When a deploy job ends.
#[derive(Debug, Clone, Copy, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum UntilParam {
    /// The objects are written.
    Written,
    /// Every profile is associated (or failed).
    Associated,
}

async fn answer(s: &ApiState, outcome: JobOrPlan, wait: Option<bool>) -> Response {
    match outcome {
        JobOrPlan::Plan(plan) => Reply(plan).into_response(),
        JobOrPlan::Job(id) => run_or_wait(s, id, wait.unwrap_or(true)).await,
    }
}

/// The virtual-media policy of the group's OS (a CIMC-mounted CD with the boot ISO, or each
/// ESXi host's own ISO, and an HDD with each host's answer disk, over HTTP from svc), and the
/// group's existing service profiles pointed at it. Idempotent; `?dry_run=true` plans only.
#[utoipa::path(post, path = "/api/v2/servers/{server_group}/vmedia", tag = "deploy", operation_id = "write_vmedia",
    params(("server_group" = String, Path, description = "Server group name"), DeployQuery),
    responses(
        (status = 200, body = DeployResult, description = "Done (or the plan, with `dry_run`)"),
        (status = 202, body = JobAccepted, description = "Started (`?wait=false`)"),
        (status = 400, body = ErrorBody, description = "No hosts, several OSes, missing images, no svc_ip: every problem listed"),
        (status = 404, body = ErrorBody, description = "Unknown group, or the group's org is not on the manager (`unknown_org`); hosts without a service profile yet are `warnings` in the answer"),
        (status = 409, body = ErrorBody, description = "A deploy of this group is running"),
        (status = 502, body = ErrorBody, description = "The manager failed, or refused the write (with its `ucs_code`; nothing was written), or could not be reached")))]
pub async fn vmedia(
    State(s): State<ApiState>,
    Path(g): Path<String>,
    Query(q): Query<DeployQuery>,
) -> ApiResult<Response> {
    let outcome = deploy::vmedia(&s.app, &g, q.dry_run.unwrap_or(false)).await?;
    Ok(answer(&s, outcome, q.wait).await)
}

/// Alias of `POST /api/v2/servers/{server_group}/vmedia`.
#[utoipa::path(post, path = "/api/v2/{server_group}/vmedia", tag = "deploy", operation_id = "write_vmedia_alias",
    params(("server_group" = String, Path, description = "Server group name"), DeployQuery),
    responses(
        (status = 200, body = DeployResult, description = "Done (or the plan, with `dry_run`)"),
        (status = 202, body = JobAccepted, description = "Started (`?wait=false`)"),
        (status = 400, body = ErrorBody, description = "No hosts, several OSes, missing images, no svc_ip: every problem listed"),
        (status = 404, body = ErrorBody, description = "Unknown group, or the group's org is not on the manager (`unknown_org`); hosts without a service profile yet are `warnings` in the answer"),
        (status = 409, body = ErrorBody, description = "A deploy of this group is running"),
        (status = 502, body = ErrorBody, description = "The manager failed, or refused the write (with its `ucs_code`; nothing was written), or could not be reached")))]
pub async fn vmedia_alias(
    s: State<ApiState>,
    g: Path<String>,
    q: Query<DeployQuery>,
) -> ApiResult<Response> {
    vmedia(s, g, q).await
}

/// Deploy the group's hosts: the OS's vMedia and boot policies, the `SVC_<code>` template and a
/// pool of the selected servers where hosts have no template or server of their own, a service
/// profile named after each host, and bindings for hosts tied to a server. Idempotent;
/// `?dry_run=true` answers the plan without writing.
#[utoipa::path(post, path = "/api/v2/servers/{server_group}/deploy", tag = "deploy", operation_id = "deploy_server_group",
    params(("server_group" = String, Path, description = "Server group name"), DeployQuery),
    responses(
        (status = 200, body = DeployResult, description = "Done (or the plan, with `dry_run`)"),
        (status = 202, body = JobAccepted, description = "Started (`?wait=false`)"),
        (status = 400, body = ErrorBody, description = "No hosts, missing images, no svc_ip, no servers selected for the pool: every problem listed"),
        (status = 404, body = ErrorBody, description = "Unknown group or service-profile template, or the group's org is not on the manager (`unknown_org`)"),
        (status = 409, body = ErrorBody, description = "A deploy of this group is running, or a host's profile name is taken (`profile_name_taken`)"),
        (status = 502, body = ErrorBody, description = "The manager failed, or refused the write (with its `ucs_code`; nothing was written), or could not be reached")))]
pub async fn deploy(
    State(s): State<ApiState>,
    Path(g): Path<String>,
    Query(q): Query<DeployQuery>,
) -> ApiResult<Response> {
    let until = match q.until {
        Some(UntilParam::Associated) => deploy::Until::Associated,
        _ => deploy::Until::Written,
    };
    let job = (!q.dry_run.unwrap_or(false)).then_some(deploy::DeployOptions {
        until,
        restart: q.restart.unwrap_or(false),
    });
    let outcome = deploy::deploy(&s.app, &g, job).await?;
    Ok(answer(&s, outcome, q.wait).await)
}

/// Alias of `POST /api/v2/servers/{server_group}/deploy`.
#[utoipa::path(post, path = "/api/v2/{server_group}/deploy", tag = "deploy", operation_id = "deploy_server_group_alias",
    params(("server_group" = String, Path, description = "Server group name"), DeployQuery),
    responses(
        (status = 200, body = DeployResult, description = "Done (or the plan, with `dry_run`)"),
        (status = 202, body = JobAccepted, description = "Started (`?wait=false`)"),
        (status = 400, body = ErrorBody, description = "No hosts, missing images, no svc_ip, no servers selected for the pool: every problem listed"),
        (status = 404, body = ErrorBody, description = "Unknown group or service-profile template, or the group's org is not on the manager (`unknown_org`)"),
        (status = 409, body = ErrorBody, description = "A deploy of this group is running, or a host's profile name is taken (`profile_name_taken`)"),
        (status = 502, body = ErrorBody, description = "The manager failed, or refused the write (with its `ucs_code`; nothing was written), or could not be reached")))]
pub async fn deploy_alias(
    s: State<ApiState>,
    g: Path<String>,
    q: Query<DeployQuery>,
) -> ApiResult<Response> {
    deploy(s, g, q).await
}

/// Remove exactly what deploys of the group created (profiles, the `SVC_<code>` template, pool
/// and policies; bindings and pool members go with them), in one transaction; objects Bootsmith
/// did not create are left alone. `?dry_run=true` answers the plan.
#[utoipa::path(delete, path = "/api/v2/servers/{server_group}/deploy", tag = "deploy", operation_id = "undeploy_server_group",
    params(("server_group" = String, Path, description = "Server group name"), DeployQuery),
    responses(
        (status = 200, body = DeployResult, description = "Removed (or the plan, with `dry_run`)"),
        (status = 202, body = JobAccepted, description = "Started (`?wait=false`)"),
        (status = 404, body = ErrorBody, description = "Unknown group"),
        (status = 409, body = ErrorBody, description = "A deploy of this group is running"),
        (status = 502, body = ErrorBody, description = "The manager failed, or refused the write (with its `ucs_code`; nothing was written), or could not be reached")))]
pub async fn undeploy(
    State(s): State<ApiState>,
    Path(g): Path<String>,
    Query(q): Query<DeployQuery>,
) -> ApiResult<Response> {
    let outcome = deploy::undeploy(&s.app, &g, q.dry_run.unwrap_or(false)).await?;
    Ok(answer(&s, outcome, q.wait).await)
}
