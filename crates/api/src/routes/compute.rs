//! The reference heading's `/api/v2/fsm`, whose group is named in the body: the other
//! server actions (inventory, power, disks, FSM) are in the table of actions.

use axum::extract::State;
use axum::Json as Reply;
use bootsmith_core::compute::{self, FsmReport, GroupSelectorBody};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::MaybeJson;
use crate::ApiState;

/// This module's routes, added to `r`.
pub(super) fn routes(r: OpenApiRouter<ApiState>) -> OpenApiRouter<ApiState> {
    r.routes(routes!(fsm_alias))
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
