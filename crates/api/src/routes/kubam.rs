//! `/api/v2/import/kubam`: take over a KUBAM installation from its `kubam.yaml`.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json as Reply;
use bootsmith_core::kubam::{self, ImportOptions, ImportReport, KubamImportInput};
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Json, Query};
use crate::ApiState;

/// This module's routes, added to `r` (each path's methods together).
pub(super) fn routes(r: OpenApiRouter<ApiState>) -> OpenApiRouter<ApiState> {
    r.routes(routes!(import_kubam))
}

/// `?dry_run=true` answers the plan and writes nothing; `?skip_existing=true` keeps records
/// Bootsmith already has under a name the file uses, instead of refusing the import.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ImportQuery {
    /// Only plan: what would be created, renamed, skipped or in conflict, and why.
    pub dry_run: Option<bool>,
    /// Keep the existing records whose names the file uses and import the rest.
    pub skip_existing: Option<bool>,
}

/// Import KUBAM's settings and records (`kubam_ip`, `public_keys`, `proxy`, `ucsm.org`,
/// `iso_map`, `server_groups`, `network_groups`, `aci`, `hosts`) in one transaction, the
/// passwords decrypted with its `.kubam` key. Managers are not contacted.
#[utoipa::path(post, path = "/api/v2/import/kubam", tag = "import", operation_id = "import_kubam", request_body = KubamImportInput,
    params(ImportQuery),
    responses(
        (status = 200, body = ImportReport, description = "The plan (`dry_run`); nothing written"),
        (status = 201, body = ImportReport, description = "Imported: what was created, renamed and skipped"),
        (status = 400, body = ErrorBody, description = "Bad YAML or a shape KUBAM does not write (the line and key named), a key file that is no key (`invalid_kubam_key`) or does not decrypt the file's passwords (`kubam_key_mismatch`, naming the groups)"),
        (status = 409, body = ErrorBody, description = "`kubam_conflicts`: names Bootsmith already uses, each listed; nothing written")))]
pub async fn import_kubam(
    State(s): State<ApiState>,
    Query(q): Query<ImportQuery>,
    Json(input): Json<KubamImportInput>,
) -> ApiResult<(StatusCode, Reply<ImportReport>)> {
    let opts = ImportOptions {
        dry_run: q.dry_run.unwrap_or(false),
        skip_existing: q.skip_existing.unwrap_or(false),
    };
    let report = kubam::import(&s.app, input, opts).await?;
    let status = if report.written {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((status, Reply(report)))
}
