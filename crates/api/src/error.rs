//! The one place where errors become HTTP answers: JSON `{"error", "code"}`
//! (plus `details` when there are per-field problems) with a fitting status.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
pub use bootsmith_core::error::ErrorBody;
use bootsmith_core::jobs::{JobError, JobId};
use bootsmith_core::Error;

/// The call that fixes an error with this code, for REST clients.
fn hint(code: &str) -> Option<&'static str> {
    Some(match code {
        "empty_host_list" => "DELETE /api/v2/hosts with {\"name\": \"<host>\"} removes one host",
        "missing_server_group" => "GET /api/v2/servers/<group>/fsm names the group in the path",
        "password_missing" => "PUT /api/v2/servers with the group and credentials.password",
        "job_running" => "GET /api/v2/jobs/<id>/events follows the running job",
        "svc_unreachable" => {
            "POST /api/v1/ip sets the boot-server address; HEAD /svc/<file> on it is what the servers are given"
        }
        "media_missing" => "POST /api/v2/deploy/images makes the hosts' images",
        "media_stale" => {
            "POST /api/v2/deploy/images makes the hosts' images again; allow_stale=true on the deploy goes ahead anyway"
        }
        "no_servers" | "invalid_selection" => {
            "GET /api/v2/servers/<group>/servers lists the group's servers; POST to it selects them"
        }
        "deploy_not_ready" | "images_not_ready" => {
            "POST /api/v1/ip sets the boot-server address, POST /api/v1/isos/map maps ISOs, POST /api/v2/deploy/images makes the images, POST /api/v2/servers/<group>/servers selects servers"
        }
        _ => return None,
    })
}

/// Everything a request can fail with.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// A failure of the core.
    #[error(transparent)]
    Core(#[from] Error),
    /// A body without `Content-Type: application/json`.
    #[error("the request has a body but its Content-Type is {0}; send JSON with Content-Type: application/json")]
    UnsupportedMediaType(String),
    /// An upload whose Content-Type says it is not the raw bytes of a file.
    #[error("the upload's Content-Type is {0}; send the file's bytes as the body with Content-Type: application/octet-stream")]
    UnsupportedUpload(String),
    /// A body over the size limit.
    #[error("the request body is larger than the limit of {0} bytes")]
    BodyTooLarge(usize),
    /// A body that could not be read.
    #[error("the request body could not be read: {0}")]
    BodyUnreadable(String),
    /// JSON that does not parse.
    #[error("the body is not valid JSON: {0}")]
    MalformedJson(String),
    /// A path parameter that cannot be read.
    #[error("the path is malformed: {0}")]
    BadPath(String),
    /// A query string that cannot be read.
    #[error("the query string is malformed: {0}")]
    BadQuery(String),
    /// A header with a value that cannot be read.
    #[error("the {name} header is malformed: {reason}")]
    BadHeader { name: &'static str, reason: String },
    /// A body was required and none was sent.
    #[error("this request needs a JSON body: {0}")]
    MissingBody(&'static str),
    /// No or a wrong API token.
    #[error("{0}")]
    Unauthorized(&'static str),
    /// No route for the path.
    #[error("there is no resource at {0}")]
    NoRoute(String),
    /// `/ui/` in a build without the web interface.
    #[error("this build has no web interface (it was built without the gui feature); use a desktop build, or the REST API")]
    UiNotBuilt,
    /// The path exists but not with this method.
    #[error("{method} is not allowed on {path}")]
    MethodNotAllowed { method: String, path: String },
    /// A handler panicked; the details go to the log only.
    #[error("the service hit an internal error; the log has the details")]
    Panic,
}

impl ApiError {
    fn status_and_code(&self) -> (StatusCode, &'static str) {
        match self {
            ApiError::Core(e) => (status(e.kind().http_status()), e.code()),
            ApiError::UnsupportedMediaType(_) => {
                (StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type")
            }
            ApiError::UnsupportedUpload(_) => {
                (StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type")
            }
            ApiError::BodyTooLarge(_) => (StatusCode::PAYLOAD_TOO_LARGE, "body_too_large"),
            ApiError::BodyUnreadable(_) => (StatusCode::BAD_REQUEST, "body_unreadable"),
            ApiError::MalformedJson(_) => (StatusCode::BAD_REQUEST, "malformed_json"),
            ApiError::MissingBody(_) => (StatusCode::BAD_REQUEST, "missing_body"),
            ApiError::BadPath(_) => (StatusCode::BAD_REQUEST, "malformed_path"),
            ApiError::BadQuery(_) => (StatusCode::BAD_REQUEST, "malformed_query"),
            ApiError::BadHeader { .. } => (StatusCode::BAD_REQUEST, "malformed_header"),
            ApiError::Unauthorized(_) => (StatusCode::UNAUTHORIZED, "unauthorized"),
            ApiError::NoRoute(_) => (StatusCode::NOT_FOUND, "no_such_route"),
            ApiError::UiNotBuilt => (StatusCode::NOT_FOUND, "ui_not_built"),
            ApiError::MethodNotAllowed { .. } => {
                (StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed")
            }
            ApiError::Panic => (StatusCode::INTERNAL_SERVER_ERROR, "internal_error"),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, code) = self.status_and_code();
        // The doors log the core's refusals with the action; the rest is logged here.
        if status.is_server_error()
            && status != StatusCode::NOT_IMPLEMENTED
            && !matches!(self, ApiError::Core(_))
        {
            tracing::error!(code, error = %self, "request failed");
        }
        let body = match &self {
            ApiError::Core(e) => ErrorBody::from(e),
            _ => ErrorBody::new(self.to_string(), code),
        };
        let body = ErrorBody {
            hint: hint(code).map(str::to_owned),
            ..body
        };
        let mut resp = (status, Json(body)).into_response();
        if matches!(self, ApiError::Unauthorized(_)) {
            resp.headers_mut().insert(
                axum::http::header::WWW_AUTHENTICATE,
                axum::http::HeaderValue::from_static("Bearer"),
            );
        }
        resp
    }
}

/// The answer for a job that failed: the error it ended with, under the status
/// that error maps to, so waiting for a job answers like the synchronous call did.
pub(crate) fn job_failed(job: JobId, e: JobError) -> Response {
    // Not logged here: the job runner logged the failure when the job ended.
    let status = status(e.status.unwrap_or(500));
    let body = ErrorBody {
        hint: hint(&e.code).map(str::to_owned),
        job: Some(job),
        status: None,
        ..e
    };
    (status, Json(body)).into_response()
}

/// The core's status numbers are all valid; 500 guards a future slip.
fn status(code: u16) -> StatusCode {
    StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

/// Result of a handler.
pub type ApiResult<T> = Result<T, ApiError>;
