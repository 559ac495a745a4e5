//! `/api/v1/catalog` (the seed's form) and `/api/v2/catalog` (the full entries).

use std::collections::BTreeMap;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use axum::extract::State;
use axum::Json as Reply;
use bootsmith_core::catalog::OsEntry;
use serde::Serialize;
use utoipa::ToSchema;

use crate::ApiState;

/// This module's routes, added to `r` (each path's methods together).
pub(super) fn routes(r: OpenApiRouter<ApiState>) -> OpenApiRouter<ApiState> {
    r.routes(routes!(catalog)).routes(routes!(catalog_details))
}

/// The catalog with every field.
#[derive(Debug, Serialize, ToSchema)]
pub struct CatalogDetails {
    /// Every role name.
    roles: Vec<String>,
    /// Every OS.
    os: Vec<OsEntry>,
}

/// OS ids and the roles each allows: `{"centos7.4": ["generic", "k8s master", "k8s node"], …}`.
#[utoipa::path(get, path = "/api/v1/catalog", tag = "catalog", operation_id = "get_catalog",
    responses((status = 200, body = BTreeMap<String, Vec<String>>)))]
pub async fn catalog(State(s): State<ApiState>) -> Reply<BTreeMap<String, Vec<String>>> {
    Reply(s.app.catalog().roles_by_os())
}

/// The catalog with family, boot mode, UCS code and ISO marker of each OS.
#[utoipa::path(get, path = "/api/v2/catalog", tag = "catalog", operation_id = "get_catalog_details", responses((status = 200, body = CatalogDetails)))]
pub async fn catalog_details(State(s): State<ApiState>) -> Reply<CatalogDetails> {
    let c = s.app.catalog();
    Reply(CatalogDetails {
        roles: c.roles().to_vec(),
        os: c.entries().to_vec(),
    })
}
