//! JSON bodies the seed's way: GET and DELETE may carry them, a body without
//! `Content-Type: application/json` is refused with 415 (never ignored), and
//! every rejection is a JSON error.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::header::CONTENT_TYPE;
use bootsmith_core::bodies;
pub use bootsmith_core::bodies::Body as Describe;

use crate::error::ApiError;

/// Largest body accepted, in bytes.
pub const BODY_LIMIT: usize = 2 * 1024 * 1024;

/// An optional JSON body: `None` when the request has no body.
#[derive(Debug)]
pub struct MaybeJson<T>(pub Option<T>);

/// A required JSON body.
#[derive(Debug)]
pub struct Json<T>(pub T);

fn is_json(content_type: Option<&str>) -> bool {
    let Some(ct) = content_type else { return false };
    let mime = ct
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    mime == "application/json" || (mime.starts_with("application/") && mime.ends_with("+json"))
}

impl<S: Send + Sync, T: Describe> FromRequest<S> for MaybeJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let content_type = req
            .headers()
            .get(CONTENT_TYPE)
            .map(|v| v.to_str().unwrap_or("(unreadable)").to_owned());
        let bytes = Bytes::from_request(req, state).await.map_err(|e| {
            if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::BodyTooLarge(BODY_LIMIT)
            } else {
                ApiError::BodyUnreadable(e.body_text())
            }
        })?;
        if bytes.is_empty() {
            return Ok(MaybeJson(None));
        }
        if !is_json(content_type.as_deref()) {
            return Err(ApiError::UnsupportedMediaType(
                content_type.map_or_else(|| "missing".to_owned(), |c| format!("'{c}'")),
            ));
        }
        // Only a body of no bytes is "no body": blanks are a client's mistake, and reading
        // them as absent would make a disk reset act on every server of the group.
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Err(bootsmith_core::Error::invalid_body(format!(
                "it is only blank space; send {} or no body at all",
                T::EXPECTED
            ))
            .into());
        }
        let value: serde_json::Value =
            serde_json::from_slice(&bytes).map_err(|e| ApiError::MalformedJson(e.to_string()))?;
        // The core reads it, as it reads the window's command arguments: the same `invalid_body` either way.
        Ok(MaybeJson(Some(bodies::read(value)?)))
    }
}

impl<S: Send + Sync, T: Describe> FromRequest<S> for Json<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match MaybeJson::<T>::from_request(req, state).await? {
            MaybeJson(Some(v)) => Ok(Json(v)),
            MaybeJson(None) => Err(ApiError::MissingBody(T::EXPECTED)),
        }
    }
}

/// A path parameter; a malformed one (bad percent-encoding, not UTF-8) is a JSON 400.
#[derive(Debug, axum::extract::FromRequestParts)]
#[from_request(via(axum::extract::Path), rejection(ApiError))]
pub struct Path<T>(pub T);

impl From<axum::extract::rejection::PathRejection> for ApiError {
    fn from(e: axum::extract::rejection::PathRejection) -> Self {
        ApiError::BadPath(e.body_text())
    }
}

/// A query string; a malformed one (e.g. `?wait=maybe`) is a JSON 400.
#[derive(Debug, axum::extract::FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(ApiError))]
pub struct Query<T>(pub T);

impl From<axum::extract::rejection::QueryRejection> for ApiError {
    fn from(e: axum::extract::rejection::QueryRejection) -> Self {
        ApiError::BadQuery(e.body_text())
    }
}
