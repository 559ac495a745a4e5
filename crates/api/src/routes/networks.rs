//! `/api/v2/networks`.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json as Reply;
use bootsmith_core::networks::{self, NetworkGroup, NetworkInput, NetworkRef};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::Changed;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::Json;
use crate::ApiState;

/// This module's routes, added to `r` (each path's methods together).
pub(super) fn routes(r: OpenApiRouter<ApiState>) -> OpenApiRouter<ApiState> {
    r.routes(routes!(list, create, update, delete))
}

/// Every network group.
#[derive(Debug, Serialize, ToSchema)]
pub struct Networks {
    networks: Vec<NetworkGroup>,
}

/// List network groups.
#[utoipa::path(get, path = "/api/v2/networks", tag = "networks", operation_id = "list_networks",
    responses((status = 200, body = Networks)))]
pub async fn list(State(s): State<ApiState>) -> ApiResult<Reply<Networks>> {
    Ok(Reply(Networks {
        networks: networks::list(&s.app).await?,
    }))
}

/// Create a network group: `{"status": "Network <name> created!", "id": …}`.
#[utoipa::path(post, path = "/api/v2/networks", tag = "networks", operation_id = "create_network", request_body = NetworkInput,
    responses((status = 201, body = Changed<NetworkGroup>, description = "The group, plus a status sentence"),
              (status = 400, body = ErrorBody, description = "Every invalid field (`invalid_network`, with `details`)"),
              (status = 409, body = ErrorBody, description = "The name is taken (`duplicate_name`)")))]
pub async fn create(
    State(s): State<ApiState>,
    Json(input): Json<NetworkInput>,
) -> ApiResult<(StatusCode, Reply<Changed<NetworkGroup>>)> {
    let n = networks::create(&s.app, input).await?;
    Ok((
        StatusCode::CREATED,
        Reply(Changed::new(format!("Network {} created!", n.name), n)),
    ))
}

/// Update the network group with `id`.
#[utoipa::path(put, path = "/api/v2/networks", tag = "networks", operation_id = "update_network", request_body = NetworkInput,
    responses((status = 200, body = Changed<NetworkGroup>, description = "The group, plus a status sentence"),
              (status = 400, body = ErrorBody, description = "No or a malformed `id` (`missing_id`, `invalid_id`), or every invalid field (`invalid_network`)"),
              (status = 404, body = ErrorBody, description = "No group has this id"),
              (status = 409, body = ErrorBody, description = "The name is taken (`duplicate_name`)")))]
pub async fn update(
    State(s): State<ApiState>,
    Json(input): Json<NetworkInput>,
) -> ApiResult<Reply<Changed<NetworkGroup>>> {
    let n = networks::update(&s.app, input).await?;
    Ok(Reply(Changed::new(
        format!("Network {} updated", n.name),
        n,
    )))
}

/// Delete a network group by `id` or `name`; refused while hosts use it.
#[utoipa::path(delete, path = "/api/v2/networks", tag = "networks", operation_id = "delete_network", request_body = NetworkRef,
    responses((status = 200, body = Changed<NetworkGroup>, description = "The deleted group, plus a status sentence"),
              (status = 400, body = ErrorBody, description = "Neither `id` nor `name` given, or a malformed `id`"),
              (status = 404, body = ErrorBody, description = "No such group"),
              (status = 409, body = ErrorBody, description = "Hosts use the group")))]
pub async fn delete(
    State(s): State<ApiState>,
    Json(input): Json<NetworkRef>,
) -> ApiResult<Reply<Changed<NetworkGroup>>> {
    let n = networks::delete(&s.app, input).await?;
    Ok(Reply(Changed::new(
        format!("Network {} deleted", n.name),
        n,
    )))
}
