//! `/api/v2/servers`: server groups and their selected servers.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json as Reply;
use bootsmith_core::server_groups::{
    self, SelectInput, ServerGroup, ServerGroupInput, ServerGroupRef,
};
use serde::Serialize;
use utoipa::ToSchema;

use super::Changed;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Json, Path};
use crate::ApiState;

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
#[utoipa::path(get, path = "/api/v2/servers", tag = "server groups", responses((status = 200, body = ServerGroups)))]
pub async fn list(State(s): State<ApiState>) -> ApiResult<Reply<ServerGroups>> {
    let groups = server_groups::list(&s.app).await?;
    Ok(Reply(ServerGroups {
        servers: groups.clone(),
        server_groups: groups,
    }))
}

/// Create a server group.
#[utoipa::path(post, path = "/api/v2/servers", tag = "server groups", request_body = ServerGroupInput,
    responses((status = 201, body = ServerGroup, description = "The group, plus a status sentence"),
              (status = 400, body = ErrorBody), (status = 409, body = ErrorBody)))]
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
#[utoipa::path(put, path = "/api/v2/servers", tag = "server groups", request_body = ServerGroupInput,
    responses((status = 200, body = ServerGroup, description = "The group, plus a status sentence"),
              (status = 400, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
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
#[utoipa::path(delete, path = "/api/v2/servers", tag = "server groups", request_body = ServerGroupRef,
    responses((status = 200, body = ServerGroup, description = "The deleted group, plus a status sentence"),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
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
#[utoipa::path(post, path = "/api/v2/servers/{server_group}/servers", tag = "server groups", request_body = SelectInput,
    params(("server_group" = String, Path, description = "Server group name")),
    responses((status = 200, body = Selection), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
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
