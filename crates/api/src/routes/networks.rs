//! `/api/v2/networks`.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json as Reply;
use bootsmith_core::networks::{self, NetworkGroup, NetworkInput, NetworkRef};
use serde::Serialize;
use utoipa::ToSchema;

use super::Changed;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::Json;
use crate::ApiState;

/// Every network group.
#[derive(Debug, Serialize, ToSchema)]
pub struct Networks {
    networks: Vec<NetworkGroup>,
}

/// List network groups.
#[utoipa::path(get, path = "/api/v2/networks", tag = "networks", responses((status = 200, body = Networks)))]
pub async fn list(State(s): State<ApiState>) -> ApiResult<Reply<Networks>> {
    Ok(Reply(Networks {
        networks: networks::list(&s.app).await?,
    }))
}

/// Create a network group: `{"status": "Network <name> created!", "id": …}`.
#[utoipa::path(post, path = "/api/v2/networks", tag = "networks", request_body = NetworkInput,
    responses((status = 201, body = NetworkGroup, description = "The group, plus a status sentence"),
              (status = 400, body = ErrorBody), (status = 409, body = ErrorBody)))]
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
#[utoipa::path(put, path = "/api/v2/networks", tag = "networks", request_body = NetworkInput,
    responses((status = 200, body = NetworkGroup, description = "The group, plus a status sentence"),
              (status = 400, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
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
#[utoipa::path(delete, path = "/api/v2/networks", tag = "networks", request_body = NetworkRef,
    responses((status = 200, body = NetworkGroup, description = "The deleted group, plus a status sentence"),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
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
