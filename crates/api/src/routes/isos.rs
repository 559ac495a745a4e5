//! `/api/v1/isos` and `/api/v1/isos/map`.

use axum::extract::State;
use axum::Json as Reply;
use bootsmith_core::isos::{self, IsoMapEntry, MapResult};
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::Json;
use crate::ApiState;

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
#[utoipa::path(get, path = "/api/v1/isos", tag = "isos", responses((status = 200, body = Isos)))]
pub async fn list(State(s): State<ApiState>) -> ApiResult<Reply<Isos>> {
    Ok(Reply(Isos {
        isos: isos::list(&s.app).await?,
    }))
}

/// Read the ISO → OS map.
#[utoipa::path(get, path = "/api/v1/isos/map", tag = "isos", responses((status = 200, body = IsoMap)))]
pub async fn get_map(State(s): State<ApiState>) -> ApiResult<Reply<IsoMap>> {
    Ok(Reply(IsoMap {
        iso_map: isos::map(&s.app).await?,
    }))
}

/// Replace the whole ISO → OS map; answers with the resulting map, and warnings about ISOs it did not recognise.
#[utoipa::path(post, path = "/api/v1/isos/map", tag = "isos", request_body = isos::IsoMapInput,
    responses((status = 200, body = MapResult), (status = 400, body = ErrorBody)))]
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
#[utoipa::path(get, path = "/api/v2/isos", tag = "isos", responses((status = 200, body = IsoDetails)))]
pub async fn details(State(s): State<ApiState>) -> ApiResult<Reply<IsoDetails>> {
    Ok(Reply(IsoDetails {
        isos: isos::inspect_files(&s.app).await?,
    }))
}
