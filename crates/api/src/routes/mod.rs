//! Route table: every path of the API, grouped by resource.

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

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
mod servers;
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

/// Add every `/api` route (and its OpenAPI entry) to `r`.
pub(crate) fn register(r: OpenApiRouter<ApiState>) -> OpenApiRouter<ApiState> {
    r.routes(routes!(settings::get_ip, settings::set_ip))
        .routes(routes!(settings::get_keys, settings::set_keys))
        .routes(routes!(settings::key_details))
        .routes(routes!(settings::get_proxy, settings::set_proxy))
        .routes(routes!(settings::get_org, settings::set_org))
        .routes(routes!(catalog::catalog))
        .routes(routes!(catalog::catalog_details))
        .routes(routes!(isos::list))
        .routes(routes!(isos::details))
        .routes(routes!(isos::get_map, isos::set_map))
        .routes(routes!(isos::import))
        .routes(isos::upload_route())
        .routes(routes!(images::boot_isos))
        .routes(routes!(
            servers::list,
            servers::create,
            servers::update,
            servers::delete
        ))
        .routes(routes!(compute::inventory, servers::select))
        .routes(routes!(compute::templates))
        .routes(routes!(compute::power))
        .routes(routes!(compute::powerstat))
        .routes(routes!(compute::disks, compute::reset_disks))
        .routes(routes!(compute::disks_alias, compute::reset_disks_alias))
        .routes(routes!(compute::fsm))
        .routes(routes!(compute::fsm_alias))
        .routes(routes!(deploy::deploy, deploy::undeploy))
        .routes(routes!(deploy::deploy_alias))
        .routes(routes!(deploy::vmedia))
        .routes(routes!(deploy::vmedia_alias))
        .routes(routes!(images::create))
        .routes(routes!(
            networks::list,
            networks::create,
            networks::update,
            networks::delete
        ))
        .routes(routes!(
            hosts::list,
            hosts::replace,
            hosts::replace_put,
            hosts::delete
        ))
        .routes(routes!(aci::list, aci::create, aci::update, aci::delete))
        .routes(routes!(overview::overview))
        .routes(routes!(jobs::list))
        .routes(routes!(jobs::get))
        .routes(routes!(jobs::events))
        .routes(routes!(logs::read))
        .routes(routes!(kubam::import_kubam))
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
