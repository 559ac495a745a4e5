//! The installers' callbacks, `POST /api/v2/hosts/{name}/installed` and `…/failed`: the last
//! lines of every default answer file call them. They take no API token (an installer has
//! none): the credential is the host's own install token, rendered into its answer file. So
//! does the installer's upload of its own logs, `POST /api/v2/hosts/{name}/logs?file=`, a raw
//! body like the ISO upload (its token in `X-Install-Token`).

use axum::body::Body;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderMap, StatusCode};
use axum::Json as Reply;
use bootsmith_core::callbacks::{self, Callback};
use bootsmith_core::install_logs::{self, StoredLog};
use bootsmith_core::lifecycle::InstallStatus;
use futures::TryStreamExt;
use serde::Deserialize;
use tokio_util::io::StreamReader;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouter};
use utoipa_axum::routes;

use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{Json, Path, Query};
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
    .map(Reply)
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
    .map(Reply)
}

/// The core's answer to an installer, its refusal logged (an installer reads no answer).
fn answer<T>(action: &str, out: bootsmith_core::Result<T>) -> ApiResult<T> {
    out.map_err(|e| {
        bootsmith_core::error::log_refusal(action, &e);
        ApiError::Core(e)
    })
}

/// `?file=` of a log upload.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LogUploadQuery {
    /// The log's file name (`program.log`): letters, digits, `.`, `_`, `-`, at most 100.
    pub file: Option<String>,
}

/// The raw bytes of a log file, for the OpenAPI document.
#[derive(ToSchema)]
#[schema(value_type = String, format = Binary)]
pub struct LogBytes(#[allow(dead_code)] Vec<u8>);

/// The header an installer sends its install token in with a raw body.
const TOKEN_HEADER: &str = "x-install-token";

/// An installer sends one of its logs: the body is the file's raw bytes, the host's install
/// token is in `X-Install-Token`. It goes to the attempt of that token (numbered per host); a
/// file of the same name replaces the earlier one. The logs of one attempt may take 8 MiB
/// together; the cap is held while the body streams in, and nothing is kept of a refused one.
#[utoipa::path(post, path = "/api/v2/hosts/{name}/logs", tag = "hosts", operation_id = "upload_host_log",
    security(()),
    params(("name" = String, Path, description = "Host name"), LogUploadQuery,
           ("X-Install-Token" = String, Header, description = "The host's install token, from its answer file")),
    request_body(content = LogBytes, content_type = "application/octet-stream", description = "The log file's bytes"),
    responses((status = 201, body = StoredLog, description = "Stored: the attempt and size"),
              (status = 400, body = ErrorBody, description = "A file name that cannot name a log (`invalid_log_file_name`), or an upload cut short (`upload_interrupted`)"),
              (status = 401, body = ErrorBody, description = "No token, or not this host's current token (spent by `installed`, or its images were rebuilt): `invalid_install_token`; nothing kept"),
              (status = 413, body = ErrorBody, description = "The attempt's logs would pass 8 MiB together (`install_log_too_large`); nothing kept"),
              (status = 507, body = ErrorBody, description = "The data dir's disk is full (`disk_full`); nothing kept")))]
pub async fn upload_log(
    State(s): State<ApiState>,
    Path(name): Path<String>,
    Query(q): Query<LogUploadQuery>,
    headers: HeaderMap,
    body: Body,
) -> ApiResult<(StatusCode, Reply<StoredLog>)> {
    let token = headers
        .get(TOKEN_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(str::trim);
    let reader = StreamReader::new(body.into_data_stream().map_err(std::io::Error::other));
    let file = q.file.as_deref().unwrap_or("");
    let stored = install_logs::receive(&s.app, &name, token, file, reader).await;
    answer("install_logs::receive", stored).map(|stored| (StatusCode::CREATED, Reply(stored)))
}

/// The log upload with the global 2 MiB body limit lifted: the core holds its own cap while
/// the body streams in, and says so in its answer.
fn upload_log_route() -> UtoipaMethodRouter<ApiState> {
    let (schemas, paths, router) = routes!(upload_log);
    (schemas, paths, router.layer(DefaultBodyLimit::disable()))
}

/// The callback routes, which the API token does not guard.
pub(crate) fn register(r: OpenApiRouter<ApiState>) -> OpenApiRouter<ApiState> {
    r.routes(routes!(installed))
        .routes(routes!(failed))
        .routes(upload_log_route())
}
