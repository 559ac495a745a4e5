//! Routes whose capability lands with a later piece of work (UCS
//! connectivity, install media, deploy). They exist now so clients get a
//! clear 501 instead of a 404, after the same checks the real handler makes.

use axum::extract::State;
use axum::Json as Reply;
use bootsmith_core::{server_groups, Error};

use crate::error::{ApiResult, ErrorBody};
use crate::extract::Path;
use crate::ApiState;

const POWER_ACTIONS: [&str; 4] = ["on", "off", "hardreset", "softreset"];

async fn pending(s: &ApiState, group: Option<&str>, what: &str) -> ApiResult<Reply<()>> {
    if let Some(g) = group {
        server_groups::get(&s.app, g).await?;
    }
    Err(Error::not_implemented(what).into())
}

/// Build boot ISOs from the ISO map (legacy call; install media come later).
#[utoipa::path(post, path = "/api/v1/isos/boot", tag = "isos", responses((status = 501, body = ErrorBody)))]
pub async fn isos_boot(State(s): State<ApiState>) -> ApiResult<Reply<()>> {
    pending(&s, None, "Building boot ISOs").await
}

/// Service-profile templates of a group.
#[utoipa::path(get, path = "/api/v2/servers/{server_group}/templates", tag = "server groups",
    params(("server_group" = String, Path)), responses((status = 404, body = ErrorBody), (status = 501, body = ErrorBody)))]
pub async fn templates(State(s): State<ApiState>, Path(g): Path<String>) -> ApiResult<Reply<()>> {
    pending(&s, Some(&g), "Listing service-profile templates").await
}

/// Power action on selected servers: `on`, `off`, `hardreset`, `softreset`.
#[utoipa::path(put, path = "/api/v2/servers/{server_group}/power/{action}", tag = "power",
    params(("server_group" = String, Path), ("action" = String, Path, description = "on, off, hardreset or softreset")),
    responses((status = 400, body = ErrorBody), (status = 404, body = ErrorBody), (status = 501, body = ErrorBody)))]
pub async fn power(
    State(s): State<ApiState>,
    Path((g, action)): Path<(String, String)>,
) -> ApiResult<Reply<()>> {
    if !POWER_ACTIONS.contains(&action.as_str()) {
        return Err(Error::bad(
            "unknown_power_action",
            format!(
                "'{action}' is not a power action; use one of {}",
                POWER_ACTIONS.join(", ")
            ),
        )
        .into());
    }
    pending(&s, Some(&g), "Power control").await
}

/// Power state of selected servers.
#[utoipa::path(get, path = "/api/v2/servers/{server_group}/powerstat", tag = "power",
    params(("server_group" = String, Path)), responses((status = 404, body = ErrorBody), (status = 501, body = ErrorBody)))]
pub async fn powerstat(State(s): State<ApiState>, Path(g): Path<String>) -> ApiResult<Reply<()>> {
    pending(&s, Some(&g), "Power status").await
}

/// Local disks of selected servers.
#[utoipa::path(get, path = "/api/v2/servers/{server_group}/disks", tag = "disks",
    params(("server_group" = String, Path)), responses((status = 404, body = ErrorBody), (status = 501, body = ErrorBody)))]
pub async fn disks(State(s): State<ApiState>, Path(g): Path<String>) -> ApiResult<Reply<()>> {
    pending(&s, Some(&g), "Disk inventory").await
}

/// Reset the disks of selected servers to unconfigured-good.
#[utoipa::path(delete, path = "/api/v2/servers/{server_group}/disks", tag = "disks",
    params(("server_group" = String, Path)), responses((status = 404, body = ErrorBody), (status = 501, body = ErrorBody)))]
pub async fn reset_disks(State(s): State<ApiState>, Path(g): Path<String>) -> ApiResult<Reply<()>> {
    pending(&s, Some(&g), "Disk reset").await
}

/// Alias of `GET /api/v2/servers/{server_group}/disks` (the reference heading's path).
#[utoipa::path(get, path = "/api/v2/{server_group}/disks", tag = "disks",
    params(("server_group" = String, Path)), responses((status = 404, body = ErrorBody), (status = 501, body = ErrorBody)))]
pub async fn disks_alias(s: State<ApiState>, g: Path<String>) -> ApiResult<Reply<()>> {
    disks(s, g).await
}

/// Alias of `DELETE /api/v2/servers/{server_group}/disks`.
#[utoipa::path(delete, path = "/api/v2/{server_group}/disks", tag = "disks",
    params(("server_group" = String, Path)), responses((status = 404, body = ErrorBody), (status = 501, body = ErrorBody)))]
pub async fn reset_disks_alias(s: State<ApiState>, g: Path<String>) -> ApiResult<Reply<()>> {
    reset_disks(s, g).await
}

/// FSM stages of selected servers.
#[utoipa::path(get, path = "/api/v2/servers/{server_group}/fsm", tag = "monitoring",
    params(("server_group" = String, Path)), responses((status = 404, body = ErrorBody), (status = 501, body = ErrorBody)))]
pub async fn fsm(State(s): State<ApiState>, Path(g): Path<String>) -> ApiResult<Reply<()>> {
    pending(&s, Some(&g), "FSM monitoring").await
}

/// The reference heading's `/api/v2/fsm`.
#[utoipa::path(get, path = "/api/v2/fsm", tag = "monitoring", responses((status = 501, body = ErrorBody)))]
pub async fn fsm_alias(State(s): State<ApiState>) -> ApiResult<Reply<()>> {
    pending(&s, None, "FSM monitoring").await
}

/// Deploy service profiles and policies for the group's hosts.
#[utoipa::path(post, path = "/api/v2/servers/{server_group}/deploy", tag = "deploy",
    params(("server_group" = String, Path)), responses((status = 404, body = ErrorBody), (status = 501, body = ErrorBody)))]
pub async fn deploy(State(s): State<ApiState>, Path(g): Path<String>) -> ApiResult<Reply<()>> {
    pending(&s, Some(&g), "Deploying to a server group").await
}

/// Alias of `POST /api/v2/servers/{server_group}/deploy`.
#[utoipa::path(post, path = "/api/v2/{server_group}/deploy", tag = "deploy",
    params(("server_group" = String, Path)), responses((status = 404, body = ErrorBody), (status = 501, body = ErrorBody)))]
pub async fn deploy_alias(s: State<ApiState>, g: Path<String>) -> ApiResult<Reply<()>> {
    deploy(s, g).await
}

/// Deploy only the virtual-media policy of the group's nodes.
#[utoipa::path(post, path = "/api/v2/servers/{server_group}/vmedia", tag = "deploy",
    params(("server_group" = String, Path)), responses((status = 404, body = ErrorBody), (status = 501, body = ErrorBody)))]
pub async fn vmedia(State(s): State<ApiState>, Path(g): Path<String>) -> ApiResult<Reply<()>> {
    pending(&s, Some(&g), "Deploying the virtual-media policy").await
}

/// Alias of `POST /api/v2/servers/{server_group}/vmedia`.
#[utoipa::path(post, path = "/api/v2/{server_group}/vmedia", tag = "deploy",
    params(("server_group" = String, Path)), responses((status = 404, body = ErrorBody), (status = 501, body = ErrorBody)))]
pub async fn vmedia_alias(s: State<ApiState>, g: Path<String>) -> ApiResult<Reply<()>> {
    vmedia(s, g).await
}

/// Build install images for all or the named hosts.
#[utoipa::path(post, path = "/api/v2/deploy/images", tag = "images", responses((status = 501, body = ErrorBody)))]
pub async fn images(State(s): State<ApiState>) -> ApiResult<Reply<()>> {
    pending(&s, None, "Creating install images").await
}
