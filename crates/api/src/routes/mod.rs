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
