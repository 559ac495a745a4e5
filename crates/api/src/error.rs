//! The one place where errors become HTTP answers: JSON `{"error", "code"}`
//! (plus `details` when there are per-field problems) with a fitting status.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
pub use bootsmith_core::error::ErrorBody;
use bootsmith_core::jobs::{JobError, JobId};
use bootsmith_core::Error;
use bootsmith_model::ErrorCode;

/// The call that fixes an error with this code, for REST clients.
fn hint(code: ErrorCode) -> Option<&'static str> {
    Some(match code {
        ErrorCode::EmptyHostList => "DELETE /api/v2/hosts with {\"name\": \"<host>\"} removes one host",
        ErrorCode::MissingServerGroup => "GET /api/v2/servers/<group>/fsm names the group in the path",
        ErrorCode::PasswordMissing => "PUT /api/v2/servers with the group and credentials.password",
        ErrorCode::JobRunning => "GET /api/v2/jobs/<id>/events follows the running job",
        ErrorCode::SvcUnreachable => {
            "POST /api/v1/ip sets the boot-server address; HEAD /svc/<file> on it is what the servers are given"
        }
        ErrorCode::MediaMissing => "POST /api/v2/deploy/images makes the hosts' images",
        ErrorCode::MacInUse => {
            "POST /api/v2/hosts with the MAC in the macs of one host only (GET /api/v2/hosts says whose it is)"
        }
        ErrorCode::InstallDiskNotFound
        | ErrorCode::InstallDiskAmbiguous
        | ErrorCode::InstallDiskUnsupported => {
            "POST /api/v2/hosts with the host's install_disk names its disk (PUT /api/v2/servers with install_disk: its server group's default)"
        }
        ErrorCode::MediaStale => {
            "POST /api/v2/deploy/images makes the hosts' images again; allow_stale=true on the deploy goes ahead anyway"
        }
        ErrorCode::NoServers | ErrorCode::InvalidSelection => {
            "GET /api/v2/servers/<group>/servers lists the group's servers; POST to it selects them"
        }
        ErrorCode::DeployNotReady | ErrorCode::ImagesNotReady => {
            "POST /api/v1/ip sets the boot-server address, POST /api/v1/isos/map maps ISOs, POST /api/v2/deploy/images makes the images, POST /api/v2/servers/<group>/servers selects servers"
        }
        // Every other code: the sentence says what to do, and no one call fixes it. Listed,
        // so a new code is a compile error here until someone decides.
        ErrorCode::AciNotFound
        | ErrorCode::AnswerFilesTooLarge
        | ErrorCode::BmcChanged
        | ErrorCode::BmcError
        | ErrorCode::BmcLoginFailed
        | ErrorCode::BmcProtocolError
        | ErrorCode::BmcTimeout
        | ErrorCode::BmcUnreachable
        | ErrorCode::BodyTooLarge
        | ErrorCode::BodyUnreadable
        | ErrorCode::CertificateChanged
        | ErrorCode::ChecksumMismatch
        | ErrorCode::CorruptRecord
        | ErrorCode::DiskFull
        | ErrorCode::DomainNotFound
        | ErrorCode::DomainUnreachable
        | ErrorCode::DownloadFailed
        | ErrorCode::DuplicateName
        | ErrorCode::EmptySelection
        | ErrorCode::FileUnreadable
        | ErrorCode::HostNotFound
        | ErrorCode::HostsOutsideSubnet
        | ErrorCode::InUse
        | ErrorCode::InternalError
        | ErrorCode::Interrupted
        | ErrorCode::InvalidAci
        | ErrorCode::InvalidBmcRequest
        | ErrorCode::InvalidBody
        | ErrorCode::InvalidCatalog
        | ErrorCode::InvalidHost
        | ErrorCode::InvalidHosts
        | ErrorCode::InvalidId
        | ErrorCode::InstallLogNotFound
        | ErrorCode::InstallLogTooLarge
        | ErrorCode::InvalidInstallToken
        | ErrorCode::InvalidIsoMap
        | ErrorCode::InvalidIsoName
        | ErrorCode::InvalidKeys
        | ErrorCode::InvalidKubamFile
        | ErrorCode::InvalidKubamImport
        | ErrorCode::InvalidKubamKey
        | ErrorCode::InvalidKubamYaml
        | ErrorCode::InvalidLogFileName
        | ErrorCode::InvalidLogQuery
        | ErrorCode::InvalidMediaRequest
        | ErrorCode::InvalidNetwork
        | ErrorCode::InvalidPack
        | ErrorCode::InvalidPath
        | ErrorCode::InvalidRequest
        | ErrorCode::InvalidServer
        | ErrorCode::InvalidServerGroup
        | ErrorCode::InvalidSetting
        | ErrorCode::InvalidSha256
        | ErrorCode::InvalidSvcIp
        | ErrorCode::InvalidUcsRequest
        | ErrorCode::InvalidUrl
        | ErrorCode::IoError
        | ErrorCode::IpOutsideSubnet
        | ErrorCode::IsoExists
        | ErrorCode::IsoOsMismatch
        | ErrorCode::KubamConflicts
        | ErrorCode::KubamKeyMismatch
        | ErrorCode::LogLimitTooLarge
        | ErrorCode::MalformedHeader
        | ErrorCode::MalformedJson
        | ErrorCode::MalformedPath
        | ErrorCode::MalformedQuery
        | ErrorCode::MediaToolFailed
        | ErrorCode::MethodNotAllowed
        | ErrorCode::MissingBody
        | ErrorCode::MissingId
        | ErrorCode::MissingServer
        | ErrorCode::MixedOsInServerGroup
        | ErrorCode::NetworkInUse
        | ErrorCode::NetworkNotFound
        | ErrorCode::NoHosts
        | ErrorCode::NoServerGroup
        | ErrorCode::NoSuchRoute
        | ErrorCode::NotAFile
        | ErrorCode::NotAnIso
        | ErrorCode::NotImplemented
        | ErrorCode::NotSupported
        | ErrorCode::OsNotInCatalog
        | ErrorCode::PackInUse
        | ErrorCode::PackNotFound
        | ErrorCode::PathNotFound
        | ErrorCode::PrivateKey
        | ErrorCode::ProfileNameTaken
        | ErrorCode::SecretError
        | ErrorCode::ServerGroupInUse
        | ErrorCode::ServerGroupNotFound
        | ErrorCode::ServerInUse
        | ErrorCode::ServerNotFound
        | ErrorCode::SingleDeviceUnsupported
        | ErrorCode::SourceChanged
        | ErrorCode::StorageError
        | ErrorCode::SvcContainsData
        | ErrorCode::SvcIpNotSet
        | ErrorCode::SvcNotServed
        | ErrorCode::TemplateError
        | ErrorCode::UcsError
        | ErrorCode::UcsLoginFailed
        | ErrorCode::UcsProtocolError
        | ErrorCode::UcsTimeout
        | ErrorCode::UcsUnreachable
        | ErrorCode::UiNotBuilt
        | ErrorCode::Unauthorized
        | ErrorCode::UnknownJob
        | ErrorCode::UnknownOrg
        | ErrorCode::UnknownOs
        | ErrorCode::UnknownPowerAction
        | ErrorCode::UnknownServerGroup
        | ErrorCode::UnknownServers
        | ErrorCode::UnknownTemplate
        | ErrorCode::UnsupportedMediaType
        | ErrorCode::UntrustedCertificate
        | ErrorCode::UploadInterrupted
        | ErrorCode::UrlNotFound
        | ErrorCode::UrlUnreachable => return None,
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
    fn status_and_code(&self) -> (StatusCode, ErrorCode) {
        match self {
            ApiError::Core(e) => (status(e.kind().http_status()), e.code()),
            ApiError::UnsupportedMediaType(_) => (
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                ErrorCode::UnsupportedMediaType,
            ),
            ApiError::UnsupportedUpload(_) => (
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                ErrorCode::UnsupportedMediaType,
            ),
            ApiError::BodyTooLarge(_) => (StatusCode::PAYLOAD_TOO_LARGE, ErrorCode::BodyTooLarge),
            ApiError::BodyUnreadable(_) => (StatusCode::BAD_REQUEST, ErrorCode::BodyUnreadable),
            ApiError::MalformedJson(_) => (StatusCode::BAD_REQUEST, ErrorCode::MalformedJson),
            ApiError::MissingBody(_) => (StatusCode::BAD_REQUEST, ErrorCode::MissingBody),
            ApiError::BadPath(_) => (StatusCode::BAD_REQUEST, ErrorCode::MalformedPath),
            ApiError::BadQuery(_) => (StatusCode::BAD_REQUEST, ErrorCode::MalformedQuery),
            ApiError::BadHeader { .. } => (StatusCode::BAD_REQUEST, ErrorCode::MalformedHeader),
            ApiError::Unauthorized(_) => (StatusCode::UNAUTHORIZED, ErrorCode::Unauthorized),
            ApiError::NoRoute(_) => (StatusCode::NOT_FOUND, ErrorCode::NoSuchRoute),
            ApiError::UiNotBuilt => (StatusCode::NOT_FOUND, ErrorCode::UiNotBuilt),
            ApiError::MethodNotAllowed { .. } => {
                (StatusCode::METHOD_NOT_ALLOWED, ErrorCode::MethodNotAllowed)
            }
            ApiError::Panic => (StatusCode::INTERNAL_SERVER_ERROR, ErrorCode::InternalError),
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
            tracing::error!(code = %code, error = %self, "request failed");
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
        hint: hint(e.code).map(str::to_owned),
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
