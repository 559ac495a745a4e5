//! `/api/v1/ip` and `/api/v1/keys`.

use axum::extract::State;
use axum::Json as Reply;
use bootsmith_core::{keys, settings};
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::Json;
use crate::ApiState;

/// The boot-server address.
#[derive(Debug, Serialize, ToSchema)]
pub struct SvcIp {
    /// Address, or null when not set yet.
    svc_ip: Option<String>,
}

/// The SSH key list.
#[derive(Debug, Serialize, ToSchema)]
pub struct Keys {
    /// OpenSSH public keys.
    keys: Vec<String>,
}

/// Read the boot-server address.
#[utoipa::path(get, path = "/api/v1/ip", tag = "settings", operation_id = "get_svc_ip", responses((status = 200, body = SvcIp)))]
pub async fn get_ip(State(s): State<ApiState>) -> ApiResult<Reply<SvcIp>> {
    let ip = settings::svc_ip(&s.app).await?;
    Ok(Reply(SvcIp {
        svc_ip: ip.map(|i| i.to_string()),
    }))
}

/// Set the boot-server address.
#[utoipa::path(post, path = "/api/v1/ip", tag = "settings", operation_id = "set_svc_ip", request_body = settings::SvcIpInput,
    responses((status = 200, body = SvcIp), (status = 400, body = ErrorBody)))]
pub async fn set_ip(
    State(s): State<ApiState>,
    Json(input): Json<settings::SvcIpInput>,
) -> ApiResult<Reply<SvcIp>> {
    let ip = settings::set_svc_ip(&s.app, input).await?;
    Ok(Reply(SvcIp {
        svc_ip: Some(ip.to_string()),
    }))
}

/// List the SSH keys installed hosts accept.
#[utoipa::path(get, path = "/api/v1/keys", tag = "settings", operation_id = "list_keys", responses((status = 200, body = Keys)))]
pub async fn get_keys(State(s): State<ApiState>) -> ApiResult<Reply<Keys>> {
    Ok(Reply(Keys {
        keys: keys::list(&s.app).await?,
    }))
}

/// Replace the SSH key list.
#[utoipa::path(post, path = "/api/v1/keys", tag = "settings", operation_id = "replace_keys", request_body = keys::KeysInput,
    responses((status = 200, body = Keys), (status = 400, body = ErrorBody)))]
pub async fn set_keys(
    State(s): State<ApiState>,
    Json(input): Json<keys::KeysInput>,
) -> ApiResult<Reply<Keys>> {
    Ok(Reply(Keys {
        keys: keys::replace(&s.app, input).await?,
    }))
}
