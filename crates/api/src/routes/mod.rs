//! Route table: every path of the API, grouped by resource.

use utoipa_axum::router::OpenApiRouter;

use crate::ApiState;

mod aci;
mod catalog;
mod compute;
mod deploy;
mod hosts;
mod images;
mod isos;
pub(crate) mod jobs;
mod kubam;
mod logs;
mod networks;
mod overview;
mod server_groups;
mod settings;
pub(crate) mod status;

/// `value` as a JSON body, serialized into a buffer of `capacity` bytes reserved up front
/// (`axum::Json` starts from 128 bytes, grows by copying and writes through `BufMut` piece by
/// piece; for the thousand-host list that was a good part of the call's time).
pub(crate) fn json_bytes<T: serde::Serialize>(
    value: &T,
    capacity: usize,
) -> bootsmith_core::Result<axum::body::Bytes> {
    let mut buf = Vec::with_capacity(capacity);
    serde_json::to_writer(&mut buf, value).map_err(|e| {
        bootsmith_core::Error::Corrupt(format!("a stored record could not be written as JSON: {e}"))
    })?;
    Ok(buf.into())
}

/// A body of JSON made by [`json_bytes`].
pub(crate) struct JsonBytes(pub axum::body::Bytes);

impl axum::response::IntoResponse for JsonBytes {
    fn into_response(self) -> axum::response::Response {
        use axum::http::{header, HeaderValue};
        (
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            )],
            self.0,
        )
            .into_response()
    }
}

/// Add every `/api` route (and its OpenAPI entry) to `r`: each module registers its own.
pub(crate) fn register(r: OpenApiRouter<ApiState>) -> OpenApiRouter<ApiState> {
    [
        settings::routes,
        catalog::routes,
        isos::routes,
        images::routes,
        server_groups::routes,
        compute::routes,
        deploy::routes,
        networks::routes,
        hosts::routes,
        aci::routes,
        overview::routes,
        jobs::routes,
        logs::routes,
        kubam::routes,
    ]
    .into_iter()
    .fold(r, |r, add| add(r))
}

/// `{"status": "<sentence>"}` plus the changed record, the answer of most writes.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub(crate) struct Changed<T> {
    /// A sentence saying what happened.
    pub status: String,
    /// The record as stored now.
    #[serde(flatten)]
    pub record: T,
}

impl<T> Changed<T> {
    pub(crate) fn new(status: String, record: T) -> Self {
        Changed { status, record }
    }
}
