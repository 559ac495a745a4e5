//! `PUT /api/v2/isos/{file}`: an ISO uploaded into svc, streamed with no size limit (the ISO
//! list, map and import of a local file are in the table of actions).

use axum::body::Body;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::Json as Reply;
use bootsmith_core::media::iso_import::{self, ImportResult};
use futures::TryStreamExt;
use serde::Deserialize;
use tokio_util::io::StreamReader;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::router::UtoipaMethodRouter;
use utoipa_axum::routes;

use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{Path, Query};
use crate::ApiState;

/// This module's routes, added to `r` (each path's methods together).
pub(super) fn routes(r: OpenApiRouter<ApiState>) -> OpenApiRouter<ApiState> {
    r.routes(upload_route())
}

/// `?os=` of an upload.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct UploadQuery {
    /// Catalog OS id to map the ISO to; without it, the ISO is mapped to the one OS it is recognised as (unless that OS is mapped to another file).
    pub os: Option<String>,
}

/// The raw bytes of an ISO image, for the OpenAPI document.
#[derive(ToSchema)]
#[schema(value_type = String, format = Binary)]
pub struct IsoBytes(#[allow(dead_code)] Vec<u8>);

/// Content types an upload may carry: none, or one that says "the bytes of a file" or "an ISO".
/// Others (JSON, forms, multipart) mean the client wrapped the file, which would fail the ISO
/// check with a less helpful answer.
fn check_upload_type(headers: &HeaderMap) -> ApiResult<()> {
    let Some(ct) = headers.get(header::CONTENT_TYPE) else {
        return Ok(());
    };
    let text = ct.to_str().unwrap_or("(unreadable)");
    let mime = text
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    match mime.as_str() {
        "application/octet-stream" | "application/x-iso9660-image" | "application/x-cd-image" => {
            Ok(())
        }
        _ => Err(ApiError::UnsupportedUpload(format!("'{text}'"))),
    }
}

/// Upload an ISO image into svc as `file`: the body is the file's bytes, streamed to disk (any
/// size), checked for the ISO 9660 signature, and named `file` only when complete. Then it is
/// looked into and mapped: to `?os=` when given, else to the one OS it is recognised as (unless
/// that OS is mapped to another file). A refused mapping leaves the file imported, with the
/// reason in `warnings`.
#[utoipa::path(put, path = "/api/v2/isos/{file}", tag = "isos", operation_id = "upload_iso",
    params(("file" = String, Path, description = "File name in svc, ending in .iso"), UploadQuery),
    request_body(content = IsoBytes, content_type = "application/octet-stream", description = "The ISO image"),
    responses(
        (status = 201, body = ImportResult, description = "Stored (and mapped, unless `warnings` says otherwise)"),
        (status = 400, body = ErrorBody, description = "Not an ISO image (`not_an_iso`), a bad file name (`invalid_iso_name`), an OS not in the catalog (`unknown_os`), an upload cut short (`upload_interrupted`)"),
        (status = 401, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "The file exists in svc (`iso_exists`)"),
        (status = 415, body = ErrorBody, description = "A Content-Type other than application/octet-stream or an ISO type"),
        (status = 507, body = ErrorBody, description = "The disk of svc is full (`disk_full`); nothing was kept")))]
pub async fn upload(
    State(s): State<ApiState>,
    Path(file): Path<String>,
    Query(q): Query<UploadQuery>,
    headers: HeaderMap,
    body: Body,
) -> ApiResult<(StatusCode, Reply<ImportResult>)> {
    check_upload_type(&headers)?;
    let reader = StreamReader::new(body.into_data_stream().map_err(std::io::Error::other));
    let result = iso_import::receive(&s.app, &file, q.os, reader).await?;
    Ok((StatusCode::CREATED, Reply(result)))
}

/// `PUT /api/v2/isos/{file}` with no body-size limit: an ISO is gigabytes, and the handler
/// streams it to disk. The global 2 MiB limit is lifted for this one route.
pub(crate) fn upload_route() -> UtoipaMethodRouter<ApiState> {
    let (schemas, paths, router) = routes!(upload);
    (schemas, paths, router.layer(DefaultBodyLimit::disable()))
}
