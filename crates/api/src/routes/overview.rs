//! `/api/v2/overview`: the records at a glance.

use axum::extract::State;
use axum::Json as Reply;
use bootsmith_core::overview::{self, Overview};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::ApiResult;
use crate::ApiState;

/// This module's routes, added to `r` (each path's methods together).
pub(super) fn routes(r: OpenApiRouter<ApiState>) -> OpenApiRouter<ApiState> {
    r.routes(routes!(overview))
}

/// Counts of every record and warnings about what an install still needs.
#[utoipa::path(get, path = "/api/v2/overview", tag = "overview", operation_id = "get_overview", responses((status = 200, body = Overview)))]
pub async fn overview(State(s): State<ApiState>) -> ApiResult<Reply<Overview>> {
    Ok(Reply(overview::summary(&s.app).await?))
}
