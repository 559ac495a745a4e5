//! A server group's servers through its manager: inventory, templates,
//! power, disks and FSM progress.

use axum::extract::State;
use axum::Json as Reply;
use bootsmith_core::compute::{
    self, Disks, FsmReport, GroupSelectorBody, PowerStatus, SelectorBody, ServerRecord,
    TemplateRecord,
};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::{MaybeJson, Path};
use crate::ApiState;

/// This module's routes, added to `r` (each path's methods together).
pub(super) fn routes(r: OpenApiRouter<ApiState>) -> OpenApiRouter<ApiState> {
    r.routes(routes!(inventory, super::server_groups::select))
        .routes(routes!(templates))
        .routes(routes!(power))
        .routes(routes!(powerstat))
        .routes(routes!(disks, reset_disks))
        .routes(routes!(disks_alias, reset_disks_alias))
        .routes(routes!(fsm))
        .routes(routes!(fsm_alias))
}

/// The group's servers.
#[derive(Debug, Serialize, ToSchema)]
pub struct Servers {
    servers: Vec<ServerRecord>,
}

/// The group's templates.
#[derive(Debug, Serialize, ToSchema)]
pub struct Templates {
    templates: Vec<TemplateRecord>,
}

/// Power state lines.
#[derive(Debug, Serialize, ToSchema)]
pub struct Status {
    status: PowerStatus,
}

/// A power action.
// Only for the document: the core parses the path segment itself.
#[derive(ToSchema)]
#[schema(rename_all = "lowercase")]
#[allow(dead_code)]
pub enum PowerAction {
    /// Power on.
    On,
    /// Power off (hard).
    Off,
    /// Power-cycle at once.
    Hardreset,
    /// Graceful restart through the operating system.
    Softreset,
}

fn selector(body: MaybeJson<SelectorBody>) -> Option<bootsmith_core::selector::SelectorInput> {
    body.0.and_then(|b| b.servers)
}

/// Every blade and rack server of the group's manager, with `selected` for the group's pool.
#[utoipa::path(get, path = "/api/v2/servers/{server_group}/servers", tag = "servers", operation_id = "list_servers",
    params(("server_group" = String, Path, description = "Server group name")),
    responses((status = 200, body = Servers),
              (status = 400, body = ErrorBody, description = "The manager refused the request as invalid"),
              (status = 404, body = ErrorBody, description = "No such server group (`server_group_not_found`)")))]
pub async fn inventory(
    State(s): State<ApiState>,
    Path(g): Path<String>,
) -> ApiResult<Reply<Servers>> {
    Ok(Reply(Servers {
        servers: compute::inventory(&s.app, &g).await?,
    }))
}

/// Service-profile templates of the group (name, dn, type).
#[utoipa::path(get, path = "/api/v2/servers/{server_group}/templates", tag = "servers", operation_id = "list_templates",
    params(("server_group" = String, Path, description = "Server group name")),
    responses((status = 200, body = Templates),
              (status = 400, body = ErrorBody, description = "The manager refused the request as invalid"),
              (status = 404, body = ErrorBody, description = "No such server group (`server_group_not_found`)")))]
pub async fn templates(
    State(s): State<ApiState>,
    Path(g): Path<String>,
) -> ApiResult<Reply<Templates>> {
    Ok(Reply(Templates {
        templates: compute::templates(&s.app, &g).await?,
    }))
}

/// Power action on the selected servers (all when no selector): `on`, `off`, `hardreset`, `softreset`.
#[utoipa::path(put, path = "/api/v2/servers/{server_group}/power/{action}", tag = "power", operation_id = "power_servers",
    request_body(content = Option<SelectorBody>, description = "Which servers; no body (or no `servers`) means every server of the group"),
    params(("server_group" = String, Path, description = "Server group name"), ("action" = inline(PowerAction), Path, description = "The power action")),
    responses((status = 200, body = Status),
              (status = 400, body = ErrorBody, description = "An unknown action (`unknown_power_action`), an invalid selector (`invalid_selection`), no servers to act on (`no_servers`), or the manager refused the request as invalid"),
              (status = 404, body = ErrorBody, description = "No such server group (`server_group_not_found`), or a selected server the manager does not have (`server_not_found`) or a domain a UCS Central does not have (`domain_not_found`)"),
              (status = 409, body = ErrorBody, description = "Every selected server is in a domain its UCS Central cannot reach now (`domain_unreachable`)")))]
pub async fn power(
    State(s): State<ApiState>,
    Path((g, action)): Path<(String, String)>,
    body: MaybeJson<SelectorBody>,
) -> ApiResult<Reply<Status>> {
    Ok(Reply(Status {
        status: compute::power(&s.app, &g, &action, selector(body)).await?,
    }))
}

/// Power state of the selected servers (all when no selector).
#[utoipa::path(get, path = "/api/v2/servers/{server_group}/powerstat", tag = "power", operation_id = "get_power_status",
    request_body(content = Option<SelectorBody>, description = "Which servers; no body (or no `servers`) means every server of the group"),
    params(("server_group" = String, Path, description = "Server group name")),
    responses((status = 200, body = Status),
              (status = 400, body = ErrorBody, description = "An invalid selector (`invalid_selection`), or the manager refused the request as invalid"),
              (status = 404, body = ErrorBody, description = "No such server group (`server_group_not_found`), or a selected server the manager does not have (`server_not_found`) or a domain a UCS Central does not have (`domain_not_found`)")))]
pub async fn powerstat(
    State(s): State<ApiState>,
    Path(g): Path<String>,
    body: MaybeJson<SelectorBody>,
) -> ApiResult<Reply<Status>> {
    Ok(Reply(Status {
        status: compute::power_status(&s.app, &g, selector(body)).await?,
    }))
}

/// Local disks of the selected servers.
#[utoipa::path(get, path = "/api/v2/servers/{server_group}/disks", tag = "disks", operation_id = "list_disks",
    request_body(content = Option<SelectorBody>, description = "Which servers; no body (or no `servers`) means every server of the group"),
    params(("server_group" = String, Path, description = "Server group name")),
    responses((status = 200, body = Disks),
              (status = 400, body = ErrorBody, description = "An invalid selector (`invalid_selection`), or the manager refused the request as invalid"),
              (status = 404, body = ErrorBody, description = "No such server group (`server_group_not_found`), or a selected server the manager does not have (`server_not_found`) or a domain a UCS Central does not have (`domain_not_found`)")))]
pub async fn disks(
    State(s): State<ApiState>,
    Path(g): Path<String>,
    body: MaybeJson<SelectorBody>,
) -> ApiResult<Reply<Disks>> {
    Ok(Reply(compute::disks(&s.app, &g, selector(body)).await?))
}

/// Reset the disks of the selected servers to unconfigured-good; answers with their new state.
#[utoipa::path(delete, path = "/api/v2/servers/{server_group}/disks", tag = "disks", operation_id = "reset_disks",
    request_body(content = Option<SelectorBody>, description = "Which servers; no body (or no `servers`) means every server of the group"),
    params(("server_group" = String, Path, description = "Server group name")),
    responses((status = 200, body = Disks),
              (status = 400, body = ErrorBody, description = "An invalid selector (`invalid_selection`), or the manager refused the request as invalid"),
              (status = 404, body = ErrorBody, description = "No such server group (`server_group_not_found`), or a selected server the manager does not have (`server_not_found`) or a domain a UCS Central does not have (`domain_not_found`)"),
              (status = 409, body = ErrorBody, description = "Every selected server is in a domain its UCS Central cannot reach now (`domain_unreachable`)")))]
pub async fn reset_disks(
    State(s): State<ApiState>,
    Path(g): Path<String>,
    body: MaybeJson<SelectorBody>,
) -> ApiResult<Reply<Disks>> {
    Ok(Reply(
        compute::reset_disks(&s.app, &g, selector(body)).await?,
    ))
}

/// Alias of `GET /api/v2/servers/{server_group}/disks` (the reference heading's path).
#[utoipa::path(get, path = "/api/v2/{server_group}/disks", tag = "disks", operation_id = "list_disks_alias",
    request_body(content = Option<SelectorBody>, description = "Which servers; no body (or no `servers`) means every server of the group"),
    params(("server_group" = String, Path, description = "Server group name")),
    responses((status = 200, body = Disks),
              (status = 400, body = ErrorBody, description = "An invalid selector (`invalid_selection`), or the manager refused the request as invalid"),
              (status = 404, body = ErrorBody, description = "No such server group (`server_group_not_found`), or a selected server the manager does not have (`server_not_found`) or a domain a UCS Central does not have (`domain_not_found`)")))]
pub async fn disks_alias(
    s: State<ApiState>,
    g: Path<String>,
    body: MaybeJson<SelectorBody>,
) -> ApiResult<Reply<Disks>> {
    disks(s, g, body).await
}

/// Alias of `DELETE /api/v2/servers/{server_group}/disks`.
#[utoipa::path(delete, path = "/api/v2/{server_group}/disks", tag = "disks", operation_id = "reset_disks_alias",
    request_body(content = Option<SelectorBody>, description = "Which servers; no body (or no `servers`) means every server of the group"),
    params(("server_group" = String, Path, description = "Server group name")),
    responses((status = 200, body = Disks),
              (status = 400, body = ErrorBody, description = "An invalid selector (`invalid_selection`), or the manager refused the request as invalid"),
              (status = 404, body = ErrorBody, description = "No such server group (`server_group_not_found`), or a selected server the manager does not have (`server_not_found`) or a domain a UCS Central does not have (`domain_not_found`)"),
              (status = 409, body = ErrorBody, description = "Every selected server is in a domain its UCS Central cannot reach now (`domain_unreachable`)")))]
pub async fn reset_disks_alias(
    s: State<ApiState>,
    g: Path<String>,
    body: MaybeJson<SelectorBody>,
) -> ApiResult<Reply<Disks>> {
    reset_disks(s, g, body).await
}

/// FSM stages of the selected servers, sorted by order; also grouped per server.
#[utoipa::path(get, path = "/api/v2/servers/{server_group}/fsm", tag = "monitoring", operation_id = "get_fsm",
    request_body(content = Option<SelectorBody>, description = "Which servers; no body (or no `servers`) means every server of the group"),
    params(("server_group" = String, Path, description = "Server group name")),
    responses((status = 200, body = FsmReport),
              (status = 400, body = ErrorBody, description = "An invalid selector (`invalid_selection`), or the manager refused the request as invalid"),
              (status = 404, body = ErrorBody, description = "No such server group (`server_group_not_found`), or a selected server the manager does not have (`server_not_found`) or a domain a UCS Central does not have (`domain_not_found`)")))]
pub async fn fsm(
    State(s): State<ApiState>,
    Path(g): Path<String>,
    body: MaybeJson<SelectorBody>,
) -> ApiResult<Reply<FsmReport>> {
    Ok(Reply(compute::fsm(&s.app, &g, selector(body)).await?))
}

/// The reference heading's `/api/v2/fsm`: the group goes in the body as `server_group`.
#[utoipa::path(get, path = "/api/v2/fsm", tag = "monitoring", operation_id = "get_fsm_by_body",
    request_body(content = GroupSelectorBody, description = "The group, and which of its servers (none: every one)"),
    responses((status = 200, body = FsmReport),
              (status = 400, body = ErrorBody, description = "No `server_group` in the body (`missing_server_group`), an invalid selector (`invalid_selection`), or the manager refused the request as invalid"),
              (status = 404, body = ErrorBody, description = "No such server group (`server_group_not_found`), or a selected server the manager does not have (`server_not_found`) or a domain a UCS Central does not have (`domain_not_found`)")))]
pub async fn fsm_alias(
    State(s): State<ApiState>,
    body: MaybeJson<GroupSelectorBody>,
) -> ApiResult<Reply<FsmReport>> {
    Ok(Reply(
        compute::fsm_named_in_body(&s.app, body.0.unwrap_or_default()).await?,
    ))
}
