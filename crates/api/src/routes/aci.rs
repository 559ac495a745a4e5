//! `/api/v2/aci`: ACI instances, same conventions as networks.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json as Reply;
use bootsmith_core::aci::{self, AciInput, AciInstance, AciRef};
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

/// Every ACI instance.
#[derive(Debug, Serialize, ToSchema)]
pub struct AciList {
    aci: Vec<AciInstance>,
}

/// List ACI instances; passwords come back encrypted.
#[utoipa::path(get, path = "/api/v2/aci", tag = "aci", operation_id = "list_aci",
    responses((status = 200, body = AciList)))]
pub async fn list(State(s): State<ApiState>) -> ApiResult<Reply<AciList>> {
    Ok(Reply(AciList {
        aci: aci::list(&s.app).await?,
    }))
}

/// Create an ACI instance.
#[utoipa::path(post, path = "/api/v2/aci", tag = "aci", operation_id = "create_aci", request_body = AciInput,
    responses((status = 201, body = Changed<AciInstance>, description = "The instance, plus a status sentence"),
              (status = 400, body = ErrorBody, description = "Every invalid field (with `details`)"),
              (status = 409, body = ErrorBody, description = "The name is taken (`duplicate_name`)")))]
pub async fn create(
    State(s): State<ApiState>,
    Json(input): Json<AciInput>,
) -> ApiResult<(StatusCode, Reply<Changed<AciInstance>>)> {
    let a = aci::create(&s.app, input).await?;
    Ok((
        StatusCode::CREATED,
        Reply(Changed::new(
            format!("new ACI group {} created!", a.name),
            a,
        )),
    ))
}

/// Update the ACI instance with `id`.
#[utoipa::path(put, path = "/api/v2/aci", tag = "aci", operation_id = "update_aci", request_body = AciInput,
    responses((status = 200, body = Changed<AciInstance>, description = "The instance, plus a status sentence"),
              (status = 400, body = ErrorBody, description = "No or a malformed `id` (`missing_id`, `invalid_id`), or every invalid field"),
              (status = 404, body = ErrorBody, description = "No instance has this id"),
              (status = 409, body = ErrorBody, description = "The name is taken (`duplicate_name`)")))]
pub async fn update(
    State(s): State<ApiState>,
    Json(input): Json<AciInput>,
) -> ApiResult<Reply<Changed<AciInstance>>> {
    let a = aci::update(&s.app, input).await?;
    Ok(Reply(Changed::new(
        format!("ACI group {} updated!", a.name),
        a,
    )))
}

/// Delete an ACI instance by `id` or `name`.
#[utoipa::path(delete, path = "/api/v2/aci", tag = "aci", operation_id = "delete_aci", request_body = AciRef,
    responses((status = 200, body = Changed<AciInstance>, description = "The deleted instance, plus a status sentence"),
              (status = 400, body = ErrorBody, description = "Neither `id` nor `name` given, or a malformed `id`"),
              (status = 404, body = ErrorBody, description = "No such instance (`aci_not_found`)")))]
pub async fn delete(
    State(s): State<ApiState>,
    Json(input): Json<AciRef>,
) -> ApiResult<Reply<Changed<AciInstance>>> {
    let a = aci::delete(&s.app, input).await?;
    Ok(Reply(Changed::new(
        format!("ACI group {} deleted", a.name),
        a,
    )))
}
