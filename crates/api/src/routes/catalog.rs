//! `/api/v1/catalog`, the seed's form of the catalog (the full entries are `catalog::details`
//! in the table of actions).

use std::collections::BTreeMap;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use axum::extract::State;
use axum::Json as Reply;

use crate::ApiState;

/// This module's routes, added to `r` (each path's methods together).
pub(super) fn routes(r: OpenApiRouter<ApiState>) -> OpenApiRouter<ApiState> {
    r.routes(routes!(catalog))
}

/// OS ids and the roles each allows: `{"centos7.4": ["generic", "k8s master", "k8s node"], …}`,
/// catalog packs' entries included.
#[utoipa::path(get, path = "/api/v1/catalog", tag = "catalog", operation_id = "get_catalog",
    responses((status = 200, body = BTreeMap<String, Vec<String>>)))]
pub async fn catalog(State(s): State<ApiState>) -> Reply<BTreeMap<String, Vec<String>>> {
    Reply(s.app.catalog().roles_by_os())
}
