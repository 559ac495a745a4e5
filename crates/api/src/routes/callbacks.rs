//! The installers' callbacks, `POST /api/v2/hosts/{name}/installed` and `…/failed`: the last
//! lines of every default answer file call them. They take no API token (an installer has
//! none): the credential is the host's own install token, rendered into its answer file.

use axum::extract::State;
use axum::Json as Reply;
use bootsmith_core::callbacks::{self, Callback};
use bootsmith_core::lifecycle::InstallStatus;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{Json, Path};
use crate::ApiState;

/// An installer reports its host installed. Spends the token: it works once per image build.
#[utoipa::path(post, path = "/api/v2/hosts/{name}/installed", tag = "hosts", operation_id = "host_installed",
    security(()), request_body = Callback,
    params(("name" = String, Path, description = "Host name")),
    responses((status = 200, body = InstallStatus, description = "The host's status, now `installed`"),
              (status = 401, body = ErrorBody, description = "No token, or not this host's current token (already used, or its images were rebuilt): `invalid_install_token`; nothing changes")))]
pub async fn installed(
    State(s): State<ApiState>,
    Path(name): Path<String>,
    Json(body): Json<Callback>,
) -> ApiResult<Reply<InstallStatus>> {
    answer(
        "callbacks::installed",
        callbacks::installed(&s.app, &name, body).await,
    )
}

/// An installer reports its host's install failed, with a short `reason`.
#[utoipa::path(post, path = "/api/v2/hosts/{name}/failed", tag = "hosts", operation_id = "host_failed",
    security(()), request_body = Callback,
    params(("name" = String, Path, description = "Host name")),
    responses((status = 200, body = InstallStatus, description = "The host's status, now `failed` with the reason"),
              (status = 401, body = ErrorBody, description = "No token, or not this host's current token: `invalid_install_token`; nothing changes")))]
pub async fn failed(
    State(s): State<ApiState>,
    Path(name): Path<String>,
    Json(body): Json<Callback>,
) -> ApiResult<Reply<InstallStatus>> {
    answer(
        "callbacks::failed",
        callbacks::failed(&s.app, &name, body).await,
    )
}

fn answer(
    action: &str,
    out: bootsmith_core::Result<InstallStatus>,
) -> ApiResult<Reply<InstallStatus>> {
    out.map(Reply).map_err(|e| {
        bootsmith_core::error::log_refusal(action, &e);
        ApiError::Core(e)
    })
}

/// The callback routes, which the API token does not guard.
pub(crate) fn register(r: OpenApiRouter<ApiState>) -> OpenApiRouter<ApiState> {
    r.routes(routes!(installed)).routes(routes!(failed))
}
