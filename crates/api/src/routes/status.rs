//! `GET /`: liveness, no token needed.

use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;

/// Answer of `GET /`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ServiceStatus)]
pub struct Status {
    /// `ok`.
    status: &'static str,
    /// The program's version.
    version: &'static str,
}

/// `{"status": "ok", "version": …}` while the service is up; needs no token.
#[utoipa::path(get, path = "/", tag = "status", operation_id = "get_status", security(()),
    responses((status = 200, body = Status, description = "The service is up")))]
pub async fn status() -> Json<Status> {
    Json(Status {
        status: "ok",
        version: env!("CARGO_PKG_VERSION"),
    })
}
