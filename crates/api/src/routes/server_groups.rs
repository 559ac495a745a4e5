//! `/api/v2/servers`: server groups and their selected servers.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json as Reply;
use bootsmith_core::server_groups::{
    self, SelectInput, ServerGroup, ServerGroupInput, ServerGroupRef,
};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::Changed;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Json, Path};
use crate::ApiState;

/// This module's routes, added to `r` (each path's methods together).
pub(super) fn routes(r: OpenApiRouter<ApiState>) -> OpenApiRouter<ApiState> {
    r.routes(routes!(list, create, update, delete))
        .routes(routes!(get))
}

/// Server groups under both seed spellings.
#[derive(Debug, Serialize, ToSchema)]
pub struct ServerGroups {
    /// The walkthrough's form (items carry `id`, and `uid` too).
    servers: Vec<ServerGroup>,
    /// The reference's form (same items).
    #[serde(rename = "server-groups")]
    server_groups: Vec<ServerGroup>,
}

/// The stored selection.
#[derive(Debug, Serialize, ToSchema)]
pub struct Selection {
    /// `ok`.
    status: &'static str,
    /// The servers now selected, and what could not be checked.
    #[serde(flatten)]
    selection: server_groups::Selection,
}

/// List server groups; passwords come back encrypted.
#[utoipa::path(get, path = "/api/v2/servers", tag = "server groups", operation_id = "list_server_groups",
    responses((status = 200, body = ServerGroups)))]
pub async fn list(State(s): State<ApiState>) -> ApiResult<Reply<ServerGroups>> {
    let groups = server_groups::list(&s.app).await?;
    Ok(Reply(ServerGroups {
        servers: groups.clone(),
        server_groups: groups,
    }))
}

/// One server group, with what its manager can do (`capabilities`); the password comes back encrypted.
#[utoipa::path(get, path = "/api/v2/servers/{server_group}", tag = "server groups", operation_id = "get_server_group",
    params(("server_group" = String, Path, description = "Server group name")),
    responses((status = 200, body = ServerGroup),
              (status = 404, body = ErrorBody, description = "No such group (`server_group_not_found`)")))]
pub async fn get(
    State(s): State<ApiState>,
    Path(g): Path<String>,
) -> ApiResult<Reply<ServerGroup>> {
    Ok(Reply(server_groups::get(&s.app, &g).await?))
}

/// Create a server group.
#[utoipa::path(post, path = "/api/v2/servers", tag = "server groups", operation_id = "create_server_group", request_body = ServerGroupInput,
    responses((status = 201, body = Changed<ServerGroup>, description = "The group, plus a status sentence"),
              (status = 400, body = ErrorBody, description = "Every invalid field (`invalid_server_group`, with `details`)"),
              (status = 409, body = ErrorBody, description = "The name is taken (`duplicate_name`)"),
              (status = 401, body = ErrorBody, description = "No or a wrong API token (`unauthorized`), or the manager refused the login (`ucs_login_failed`)"),
              (status = 422, body = ErrorBody, description = "The manager's certificate is not trusted (`untrusted_certificate`, with its `fingerprint` to send back)"),
              (status = 502, body = ErrorBody, description = "The manager could not be reached (`ucs_unreachable`), its certificate changed (`certificate_changed`), or it failed")))]
pub async fn create(
    State(s): State<ApiState>,
    Json(input): Json<ServerGroupInput>,
) -> ApiResult<(StatusCode, Reply<Changed<ServerGroup>>)> {
    let g = server_groups::create(&s.app, input).await?;
    Ok((
        StatusCode::CREATED,
        Reply(Changed::new(
            format!("new server group {} created!", g.name),
            g,
        )),
    ))
}

/// Update a server group found by `id` (or `uid`).
#[utoipa::path(put, path = "/api/v2/servers", tag = "server groups", operation_id = "update_server_group", request_body = ServerGroupInput,
    responses((status = 200, body = Changed<ServerGroup>, description = "The group, plus a status sentence"),
              (status = 400, body = ErrorBody, description = "No or a malformed `id` (`missing_id`, `invalid_id`), or every invalid field (`invalid_server_group`)"),
              (status = 404, body = ErrorBody, description = "No group has this id (`server_group_not_found`)"),
              (status = 409, body = ErrorBody, description = "The name is taken (`duplicate_name`)"),
              (status = 401, body = ErrorBody, description = "No or a wrong API token (`unauthorized`), or the manager refused the login (`ucs_login_failed`)"),
              (status = 422, body = ErrorBody, description = "The manager's certificate is not trusted (`untrusted_certificate`, with its `fingerprint` to send back)"),
              (status = 502, body = ErrorBody, description = "The manager could not be reached (`ucs_unreachable`), its certificate changed (`certificate_changed`), or it failed")))]
pub async fn update(
    State(s): State<ApiState>,
    Json(input): Json<ServerGroupInput>,
) -> ApiResult<Reply<Changed<ServerGroup>>> {
    let g = server_groups::update(&s.app, input).await?;
    Ok(Reply(Changed::new(
        format!("server group {} updated!", g.name),
        g,
    )))
}

/// Delete a server group by `name`; refused while hosts use it.
#[utoipa::path(delete, path = "/api/v2/servers", tag = "server groups", operation_id = "delete_server_group", request_body = ServerGroupRef,
    responses((status = 200, body = Changed<ServerGroup>, description = "The deleted group, plus a status sentence"),
              (status = 400, body = ErrorBody, description = "Neither `name` nor `id` given, or a malformed `id`"),
              (status = 404, body = ErrorBody, description = "No such group (`server_group_not_found`)"),
              (status = 409, body = ErrorBody, description = "Hosts use the group (`server_group_in_use`)")))]
pub async fn delete(
    State(s): State<ApiState>,
    Json(input): Json<ServerGroupRef>,
) -> ApiResult<Reply<Changed<ServerGroup>>> {
    let g = server_groups::delete(&s.app, input).await?;
    Ok(Reply(Changed::new(
        format!("server group {} deleted", g.name),
        g,
    )))
}

/// Replace the servers selected in a group.
#[utoipa::path(post, path = "/api/v2/servers/{server_group}/servers", tag = "server groups", operation_id = "select_servers", request_body = SelectInput,
    params(("server_group" = String, Path, description = "Server group name")),
    responses((status = 200, body = Selection),
              (status = 400, body = ErrorBody, description = "No `servers`, an invalid id, or blades for an IMC group (`invalid_selection`)"),
              (status = 404, body = ErrorBody, description = "No such group (`server_group_not_found`)")))]
pub async fn select(
    State(s): State<ApiState>,
    Path(group): Path<String>,
    Json(input): Json<SelectInput>,
) -> ApiResult<Reply<Selection>> {
    let selection = server_groups::select_servers(&s.app, &group, input).await?;
    Ok(Reply(Selection {
        status: "ok",
        selection,
    }))
}
