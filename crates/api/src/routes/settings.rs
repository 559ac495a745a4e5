//! Settings: `/api/v1/ip`, `/api/v1/keys` (and `/api/v2/keys` with each key's details),
//! `/api/v1/proxy`, `/api/v1/org`.

use axum::extract::State;
use axum::Json as Reply;
use bootsmith_core::{keys, settings};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::Json;
use crate::ApiState;

/// This module's routes, added to `r` (each path's methods together).
pub(super) fn routes(r: OpenApiRouter<ApiState>) -> OpenApiRouter<ApiState> {
    r.routes(routes!(get_ip, set_ip))
        .routes(routes!(get_keys, set_keys))
        .routes(routes!(key_details))
        .routes(routes!(get_proxy, set_proxy))
        .routes(routes!(get_org, set_org))
}

/// The boot-server address, under its name and under KUBAM's.
#[derive(Debug, Serialize, ToSchema)]
pub struct SvcIp {
    /// Address, or null when not set yet.
    svc_ip: Option<String>,
    /// The same address, as KUBAM's clients read it.
    kubam_ip: Option<String>,
}

impl SvcIp {
    fn new(ip: Option<String>) -> Self {
        SvcIp {
            kubam_ip: ip.clone(),
            svc_ip: ip,
        }
    }
}

/// The SSH keys with what identifies each.
#[derive(Debug, Serialize, ToSchema)]
pub struct KeyDetails {
    /// Each key with its type, comment and SHA256 fingerprint.
    keys: Vec<keys::KeyInfo>,
}

/// The default proxy.
#[derive(Debug, Serialize, ToSchema)]
pub struct Proxy {
    /// Proxy URL of network groups that name none, or null.
    proxy: Option<String>,
}

/// The default UCS org.
#[derive(Debug, Serialize, ToSchema)]
pub struct Org {
    /// Org DN of server groups that name none, or null (org-root).
    org: Option<String>,
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
    Ok(Reply(SvcIp::new(ip.map(|i| i.to_string()))))
}

/// Set the boot-server address.
#[utoipa::path(post, path = "/api/v1/ip", tag = "settings", operation_id = "set_svc_ip", request_body = settings::SvcIpInput,
    responses((status = 200, body = SvcIp), (status = 400, body = ErrorBody)))]
pub async fn set_ip(
    State(s): State<ApiState>,
    Json(input): Json<settings::SvcIpInput>,
) -> ApiResult<Reply<SvcIp>> {
    let ip = settings::set_svc_ip(&s.app, input).await?;
    Ok(Reply(SvcIp::new(Some(ip.to_string()))))
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

/// The SSH keys with each key's type, comment and SHA256 fingerprint.
#[utoipa::path(get, path = "/api/v2/keys", tag = "settings", responses((status = 200, body = KeyDetails)))]
pub async fn key_details(State(s): State<ApiState>) -> ApiResult<Reply<KeyDetails>> {
    Ok(Reply(KeyDetails {
        keys: keys::details(&s.app).await?,
    }))
}

/// Read the default proxy of network groups that name none.
#[utoipa::path(get, path = "/api/v1/proxy", tag = "settings", responses((status = 200, body = Proxy)))]
pub async fn get_proxy(State(s): State<ApiState>) -> ApiResult<Reply<Proxy>> {
    Ok(Reply(Proxy {
        proxy: settings::proxy(&s.app).await?.map(|p| p.to_string()),
    }))
}

/// Set (or with `""` clear) the default proxy.
#[utoipa::path(post, path = "/api/v1/proxy", tag = "settings", request_body = settings::ProxyInput,
    responses((status = 200, body = Proxy), (status = 400, body = ErrorBody)))]
pub async fn set_proxy(
    State(s): State<ApiState>,
    Json(input): Json<settings::ProxyInput>,
) -> ApiResult<Reply<Proxy>> {
    Ok(Reply(Proxy {
        proxy: settings::set_proxy(&s.app, input)
            .await?
            .map(|p| p.to_string()),
    }))
}

/// Read the default UCS org of server groups that name none.
#[utoipa::path(get, path = "/api/v1/org", tag = "settings", responses((status = 200, body = Org)))]
pub async fn get_org(State(s): State<ApiState>) -> ApiResult<Reply<Org>> {
    Ok(Reply(Org {
        org: settings::org(&s.app).await?.map(|o| o.to_string()),
    }))
}

/// Set (or with `""` clear) the default UCS org.
#[utoipa::path(post, path = "/api/v1/org", tag = "settings", request_body = settings::OrgInput,
    responses((status = 200, body = Org), (status = 400, body = ErrorBody)))]
pub async fn set_org(
    State(s): State<ApiState>,
    Json(input): Json<settings::OrgInput>,
) -> ApiResult<Reply<Org>> {
    Ok(Reply(Org {
        org: settings::set_org(&s.app, input)
            .await?
            .map(|o| o.to_string()),
    }))
}
