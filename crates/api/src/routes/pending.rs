//! Routes whose capability lands with a later piece of work (UCS
//! connectivity, install media, deploy). They exist now so clients get a
//! clear 501 instead of a 404, after the same checks the real handler makes.

use axum::extract::State;
use axum::Json as Reply;
use bootsmith_core::{server_groups, Error};

use crate::error::{ApiResult, ErrorBody};
use crate::extract::Path;
use crate::ApiState;

async fn pending(s: &ApiState, group: &str, what: &str) -> ApiResult<Reply<()>> {
    server_groups::get(&s.app, group).await?;
    Err(Error::not_implemented(what).into())
}

/// Deploy service profiles and policies for the group's hosts.
#[utoipa::path(post, path = "/api/v2/servers/{server_group}/deploy", tag = "deploy",
    params(("server_group" = String, Path)), responses((status = 404, body = ErrorBody), (status = 501, body = ErrorBody)))]
pub async fn deploy(State(s): State<ApiState>, Path(g): Path<String>) -> ApiResult<Reply<()>> {
    pending(&s, &g, "Deploying to a server group").await
}

/// Alias of `POST /api/v2/servers/{server_group}/deploy`.
#[utoipa::path(post, path = "/api/v2/{server_group}/deploy", tag = "deploy",
    params(("server_group" = String, Path)), responses((status = 404, body = ErrorBody), (status = 501, body = ErrorBody)))]
pub async fn deploy_alias(s: State<ApiState>, g: Path<String>) -> ApiResult<Reply<()>> {
    deploy(s, g).await
}
