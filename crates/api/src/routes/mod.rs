//! Route table: the actions both doors share (`actions`, made from the one table in
//! `bootsmith_actions`), and the routes only REST has, grouped by resource.

use utoipa_axum::router::OpenApiRouter;

use crate::ApiState;

pub(crate) mod actions;
pub(crate) mod answers;
pub(crate) mod callbacks;
mod catalog;
mod compute;
mod images;
mod isos;
pub(crate) mod jobs;
mod overview;
mod refusals;
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

/// Add every `/api` route (and its OpenAPI entry) to `r`.
pub(crate) fn register(r: OpenApiRouter<ApiState>) -> OpenApiRouter<ApiState> {
    [
        actions::register,
        catalog::routes,
        isos::routes,
        images::routes,
        compute::routes,
        overview::routes,
        jobs::routes,
    ]
    .into_iter()
    .fold(r, |r, add| add(r))
}
