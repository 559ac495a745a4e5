//! `/api/v2/hosts`: the host list, replaced as a whole.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json as Reply;
use bootsmith_core::hosts::{self, Host, HostInput, HostRef};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{json_bytes, Changed, JsonBytes};
use crate::error::{ApiResult, ErrorBody};
use crate::extract::Json;
use crate::ApiState;

/// This module's routes, added to `r` (each path's methods together).
pub(super) fn routes(r: OpenApiRouter<ApiState>) -> OpenApiRouter<ApiState> {
    r.routes(routes!(list, replace, replace_put, delete))
}

/// Every host.
#[derive(Debug, Serialize, ToSchema)]
pub struct Hosts {
    hosts: Vec<Host>,
}

/// List hosts in submitted order.
#[utoipa::path(get, path = "/api/v2/hosts", tag = "hosts", operation_id = "list_hosts",
    responses((status = 200, body = Hosts)))]
pub async fn list(State(s): State<ApiState>) -> ApiResult<JsonBytes> {
    // The list comes from the store alone, so its JSON is kept until the store changes:
    // reading, checking and writing a thousand hosts again was most of the call's time.
    let body = s
        .hosts_body
        .get(s.app.store(), || async {
            let hosts = hosts::list(&s.app).await?;
            // About 95 bytes a host; a little more saves a copy of the whole answer.
            let capacity = 16 + hosts.len() * 128;
            json_bytes(&Hosts { hosts }, capacity)
        })
        .await?;
    Ok(JsonBytes(body))
}

/// Replace the whole host list in one transaction; an invalid list changes nothing.
#[utoipa::path(post, path = "/api/v2/hosts", tag = "hosts", operation_id = "replace_hosts", request_body = Vec<HostInput>,
    responses((status = 201, body = Changed<Hosts>, description = "The stored list, plus a status sentence"),
              (status = 400, body = ErrorBody, description = "Every problem of every row (`invalid_hosts`, with `details`): invalid fields, unknown OS, role or groups, duplicate names, addresses or servers"),
              (status = 422, body = ErrorBody, description = "Two operating systems in one server group")))]
pub async fn replace(
    State(s): State<ApiState>,
    Json(input): Json<Vec<HostInput>>,
) -> ApiResult<(StatusCode, Reply<Changed<Hosts>>)> {
    let hosts = hosts::replace(&s.app, input).await?;
    Ok((
        StatusCode::CREATED,
        Reply(Changed::new(
            format!("{} hosts stored", hosts.len()),
            Hosts { hosts },
        )),
    ))
}

/// Same as POST: replace the whole host list.
#[utoipa::path(put, path = "/api/v2/hosts", tag = "hosts", operation_id = "replace_hosts_put", request_body = Vec<HostInput>,
    responses((status = 201, body = Changed<Hosts>, description = "The stored list, plus a status sentence"),
              (status = 400, body = ErrorBody, description = "Every problem of every row (`invalid_hosts`, with `details`): invalid fields, unknown OS, role or groups, duplicate names, addresses or servers"),
              (status = 422, body = ErrorBody, description = "Two operating systems in one server group")))]
pub async fn replace_put(
    state: State<ApiState>,
    input: Json<Vec<HostInput>>,
) -> ApiResult<(StatusCode, Reply<Changed<Hosts>>)> {
    replace(state, input).await
}

/// Delete one host by `name`.
#[utoipa::path(delete, path = "/api/v2/hosts", tag = "hosts", operation_id = "delete_host", request_body = HostRef,
    responses((status = 200, body = Changed<Host>, description = "The deleted host, plus a status sentence"),
              (status = 400, body = ErrorBody, description = "No `name` given"),
              (status = 404, body = ErrorBody, description = "No such host (`host_not_found`, or `no_hosts` when there are none)")))]
pub async fn delete(
    State(s): State<ApiState>,
    Json(input): Json<HostRef>,
) -> ApiResult<Reply<Changed<Host>>> {
    let h = hosts::delete(&s.app, input).await?;
    Ok(Reply(Changed::new(format!("host {} deleted", h.name), h)))
}
