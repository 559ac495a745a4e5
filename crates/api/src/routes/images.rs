//! The legacy `POST /api/v1/isos/boot`: the shared boot ISOs as a job (the per-host media
//! are `images::start` in the table of actions).

use axum::extract::State;
use axum::response::Response;
use bootsmith_core::media::images;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::Query;
use crate::routes::jobs::{run_or_wait, JobAccepted, WaitQuery};
use crate::ApiState;

/// This module's routes, added to `r` (each path's methods together).
pub(super) fn routes(r: OpenApiRouter<ApiState>) -> OpenApiRouter<ApiState> {
    r.routes(routes!(boot_isos))
}

/// Extract every mapped RHEL-family and Ubuntu ISO and build its shared boot ISO, where
/// missing (the per-host media come from `POST /api/v2/deploy/images`).
#[utoipa::path(post, path = "/api/v1/isos/boot", tag = "isos", operation_id = "build_boot_isos",
    params(WaitQuery),
    responses(
        (status = 200, body = images::Images, description = "Done (waited)"),
        (status = 202, body = JobAccepted, description = "Started (`?wait=false`)"),
        (status = 400, body = ErrorBody, description = "No svc_ip, or no mapped OS that needs a boot ISO: every problem listed"),
        (status = 409, body = ErrorBody, description = "An image run is already going"),
        (status = 422, body = ErrorBody, description = "An ISO that cannot be made bootable"),
        (status = 507, body = ErrorBody, description = "The disk of svc is full (`disk_full`)")))]
pub async fn boot_isos(
    State(s): State<ApiState>,
    Query(q): Query<WaitQuery>,
) -> ApiResult<Response> {
    let job = images::start_boot_isos(&s.app).await?;
    Ok(run_or_wait(&s, job, q.wait()).await)
}
