//! `/api/v1/isos`, `/api/v1/isos/map`, `/api/v2/isos`, and bringing an ISO into svc:
//! `PUT /api/v2/isos/{file}` (upload) and `POST /api/v2/isos/import` (a file of this machine).

use axum::body::Body;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::Response;
use axum::Json as Reply;
use bootsmith_core::iso_import::{self, ImportInput, ImportResult};
use bootsmith_core::isos::{self, IsoMapEntry, MapResult};
use futures::TryStreamExt;
use serde::{Deserialize, Serialize};
use tokio_util::io::StreamReader;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::router::UtoipaMethodRouter;
use utoipa_axum::routes;

use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{Json, Path, Query};
use crate::routes::jobs::{run_or_wait, JobAccepted, WaitQuery};
use crate::ApiState;

/// This module's routes, added to `r` (each path's methods together).
pub(super) fn routes(r: OpenApiRouter<ApiState>) -> OpenApiRouter<ApiState> {
    r.routes(routes!(list))
        .routes(routes!(details))
        .routes(routes!(get_map, set_map))
        .routes(routes!(import))
        .routes(upload_route())
}

/// ISO files in svc.
#[derive(Debug, Serialize, ToSchema)]
pub struct Isos {
    /// File names.
    isos: Vec<String>,
}

/// The ISO map.
#[derive(Debug, Serialize, ToSchema)]
pub struct IsoMap {
    /// Every mapping.
    iso_map: Vec<IsoMapEntry>,
}

/// List the ISO files the user put into svc.
#[utoipa::path(get, path = "/api/v1/isos", tag = "isos", operation_id = "list_isos", responses((status = 200, body = Isos)))]
pub async fn list(State(s): State<ApiState>) -> ApiResult<Reply<Isos>> {
    Ok(Reply(Isos {
        isos: isos::list(&s.app).await?,
    }))
}

/// Read the ISO → OS map.
#[utoipa::path(get, path = "/api/v1/isos/map", tag = "isos", operation_id = "get_iso_map", responses((status = 200, body = IsoMap)))]
pub async fn get_map(State(s): State<ApiState>) -> ApiResult<Reply<IsoMap>> {
    Ok(Reply(IsoMap {
        iso_map: isos::map(&s.app).await?,
    }))
}

/// Replace the whole ISO → OS map; answers with the resulting map, and warnings about ISOs it did not recognise.
#[utoipa::path(post, path = "/api/v1/isos/map", tag = "isos", operation_id = "set_iso_map", request_body = isos::IsoMapInput,
    responses((status = 200, body = MapResult),
              (status = 400, body = ErrorBody, description = "Every invalid entry (with `details`): a path outside svc, a missing file, an OS not in the catalog, an ISO that holds another OS")))]
pub async fn set_map(
    State(s): State<ApiState>,
    Json(input): Json<isos::IsoMapInput>,
) -> ApiResult<Reply<MapResult>> {
    Ok(Reply(isos::set_map(&s.app, input).await?))
}

/// Every ISO in svc with what Bootsmith sees in it.
#[derive(Debug, Serialize, ToSchema)]
pub struct IsoDetails {
    isos: Vec<isos::IsoInfo>,
}

/// The ISO files in svc, looked into: volume id, detected OS, BIOS/UEFI boot entries, mapping.
#[utoipa::path(get, path = "/api/v2/isos", tag = "isos", operation_id = "list_iso_details", responses((status = 200, body = IsoDetails)))]
pub async fn details(State(s): State<ApiState>) -> ApiResult<Reply<IsoDetails>> {
    Ok(Reply(IsoDetails {
        isos: isos::inspect_files(&s.app).await?,
    }))
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

/// Import an ISO file of this machine into svc (a hard link when svc is on the same filesystem,
/// else a copy), then look into it and map it like an upload. Everything is checked before the
/// job starts. Answers with the result when done, or at once with the job to follow when
/// `?wait=false` (steps `link` or `copy` with byte progress, then `inspect` and `map`).
#[utoipa::path(post, path = "/api/v2/isos/import", tag = "isos", operation_id = "import_iso",
    params(WaitQuery),
    request_body = ImportInput,
    responses(
        (status = 200, body = ImportResult, description = "Done (waited)"),
        (status = 202, body = JobAccepted, description = "Started (`?wait=false`)"),
        (status = 400, body = ErrorBody, description = "A relative or missing path (`invalid_path`, `path_not_found`), a directory or device (`not_a_file`), not an ISO image (`not_an_iso`), a bad file name (`invalid_iso_name`), an OS not in the catalog (`unknown_os`)"),
        (status = 401, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "The file exists in svc (`iso_exists`), or an import of it is running (`job_running`)"),
        (status = 507, body = ErrorBody, description = "The disk of svc is full (`disk_full`); nothing was kept")))]
pub async fn import(
    State(s): State<ApiState>,
    Query(q): Query<WaitQuery>,
    Json(input): Json<ImportInput>,
) -> ApiResult<Response> {
    let job = iso_import::start(&s.app, input).await?;
    Ok(run_or_wait(&s, job, q.wait()).await)
}
