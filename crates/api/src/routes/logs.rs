//! `/api/v2/logs`: the structured log, newest first.

use axum::extract::State;
use axum::Json as Reply;
use bootsmith_core::logs::{self, LogPage, LogQuery};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::Query;
use crate::ApiState;

/// This module's routes, added to `r` (each path's methods together).
pub(super) fn routes(r: OpenApiRouter<ApiState>) -> OpenApiRouter<ApiState> {
    r.routes(routes!(read))
}

/// Lines of the JSON log, newest first, filtered by lowest level and by text; page to older
/// lines with `before` set to the answer's `next`. The log is read from its end, never whole.
#[utoipa::path(get, path = "/api/v2/logs", tag = "logs", operation_id = "read_logs", params(LogQuery),
    responses((status = 200, body = LogPage),
              (status = 400, body = ErrorBody, description = "Unknown level, bad cursor, or a limit over 1000 (`log_limit_too_large`)"),
              (status = 401, body = ErrorBody)))]
pub async fn read(
    State(s): State<ApiState>,
    Query(q): Query<LogQuery>,
) -> ApiResult<Reply<LogPage>> {
    Ok(Reply(logs::read(&s.app, q).await?))
}
