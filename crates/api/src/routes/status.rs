//! `GET /`: liveness, no token needed.

use axum::Json;
use serde::Serialize;

/// Answer of `GET /`.
#[derive(Debug, Serialize)]
pub struct Status {
    status: &'static str,
    version: &'static str,
}

/// `{"status": "ok"}` while the service is up.
pub async fn status() -> Json<Status> {
    Json(Status {
        status: "ok",
        version: env!("CARGO_PKG_VERSION"),
    })
}
