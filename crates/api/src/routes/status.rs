//! `GET /`: liveness, no token needed.

use axum::extract::State;
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;

/// Answer of `GET /`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ServiceStatus)]
pub struct Status {
    /// Always `ok`.
    status: super::answers::OkStatus,
    /// The program's version (also the OpenAPI document's `info.version`).
    version: &'static str,
    /// The build: the commit it was made from and that commit's date, e.g. `1a2b3c4 2026-11-26`
    /// (`unknown` when built outside git).
    build: &'static str,
}

/// `{"status": "ok", "version": …, "build": …}` while the service is up; needs no token.
#[utoipa::path(get, path = "/", tag = "status", operation_id = "get_status", security(()),
    responses((status = 200, body = Status, description = "The service is up")))]
pub async fn status(State(state): State<crate::ApiState>) -> Json<Status> {
    Json(Status {
        status: super::answers::OkStatus::Ok,
        version: env!("CARGO_PKG_VERSION"),
        build: state.build,
    })
}
