//! Deploying a server group to its manager: the whole deploy, and the virtual-media policy alone.

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::Json as Reply;
use bootsmith_core::deploy::{self, DeployRequest, DeployResult, JobOrPlan};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Path, Query};
use crate::routes::jobs::{run_or_wait, JobAccepted, WaitQuery};
use crate::ApiState;

/// This module's routes, added to `r` (each path's methods together).
pub(super) fn routes(r: OpenApiRouter<ApiState>) -> OpenApiRouter<ApiState> {
    r.routes(routes!(deploy, undeploy))
        .routes(routes!(deploy_alias))
        .routes(routes!(vmedia))
        .routes(routes!(vmedia_alias))
}

async fn answer(s: &ApiState, outcome: JobOrPlan, wait: &WaitQuery) -> Response {
    match outcome {
        JobOrPlan::Plan(plan) => Reply(plan).into_response(),
        JobOrPlan::Job(id) => run_or_wait(s, id, wait.wait()).await,
    }
}

/// The virtual-media policy of the group's OS (a CIMC-mounted CD with the boot ISO, or each
/// ESXi host's own ISO, and an HDD with each host's answer disk, over HTTP from svc), and the
/// group's existing service profiles pointed at it. Idempotent; `?dry_run=true` plans only.
#[utoipa::path(post, path = "/api/v2/servers/{server_group}/vmedia", tag = "deploy", operation_id = "write_vmedia",
    params(("server_group" = String, Path, description = "Server group name"), DeployRequest, WaitQuery),
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
    Query(request): Query<DeployRequest>,
    Query(w): Query<WaitQuery>,
) -> ApiResult<Response> {
    let outcome = deploy::vmedia(&s.app, &g, request).await?;
    Ok(answer(&s, outcome, &w).await)
}

/// Alias of `POST /api/v2/servers/{server_group}/vmedia`.
#[utoipa::path(post, path = "/api/v2/{server_group}/vmedia", tag = "deploy", operation_id = "write_vmedia_alias",
    params(("server_group" = String, Path, description = "Server group name"), DeployRequest, WaitQuery),
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
    q: Query<DeployRequest>,
    w: Query<WaitQuery>,
) -> ApiResult<Response> {
    vmedia(s, g, q, w).await
}

/// Deploy the group's hosts: the OS's vMedia and boot policies, the `SVC_<code>` template and a
/// pool of the selected servers where hosts have no template or server of their own, a service
/// profile named after each host, and bindings for hosts tied to a server. Idempotent;
/// `?dry_run=true` answers the plan without writing.
#[utoipa::path(post, path = "/api/v2/servers/{server_group}/deploy", tag = "deploy", operation_id = "deploy_server_group",
    params(("server_group" = String, Path, description = "Server group name"), DeployRequest, WaitQuery),
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
    Query(request): Query<DeployRequest>,
    Query(w): Query<WaitQuery>,
) -> ApiResult<Response> {
    let outcome = deploy::deploy(&s.app, &g, request).await?;
    Ok(answer(&s, outcome, &w).await)
}

/// Alias of `POST /api/v2/servers/{server_group}/deploy`.
#[utoipa::path(post, path = "/api/v2/{server_group}/deploy", tag = "deploy", operation_id = "deploy_server_group_alias",
    params(("server_group" = String, Path, description = "Server group name"), DeployRequest, WaitQuery),
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
    q: Query<DeployRequest>,
    w: Query<WaitQuery>,
) -> ApiResult<Response> {
    deploy(s, g, q, w).await
}

/// Remove exactly what deploys of the group created (profiles, the `SVC_<code>` template, pool
/// and policies; bindings and pool members go with them), in one transaction; objects Bootsmith
/// did not create are left alone. `?dry_run=true` answers the plan.
#[utoipa::path(delete, path = "/api/v2/servers/{server_group}/deploy", tag = "deploy", operation_id = "undeploy_server_group",
    params(("server_group" = String, Path, description = "Server group name"), DeployRequest, WaitQuery),
    responses(
        (status = 200, body = DeployResult, description = "Removed (or the plan, with `dry_run`)"),
        (status = 202, body = JobAccepted, description = "Started (`?wait=false`)"),
        (status = 404, body = ErrorBody, description = "Unknown group"),
        (status = 409, body = ErrorBody, description = "A deploy of this group is running"),
        (status = 502, body = ErrorBody, description = "The manager failed, or refused the write (with its `ucs_code`; nothing was written), or could not be reached")))]
pub async fn undeploy(
    State(s): State<ApiState>,
    Path(g): Path<String>,
    Query(request): Query<DeployRequest>,
    Query(w): Query<WaitQuery>,
) -> ApiResult<Response> {
    let outcome = deploy::undeploy(&s.app, &g, request).await?;
    Ok(answer(&s, outcome, &w).await)
}
