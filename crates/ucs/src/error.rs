//! Errors of the UCS client.

/// Everything a call to a UCS manager or IMC can fail with.
#[derive(Debug, Clone, thiserror::Error)]
pub enum Error {
    /// The manager could not be reached (connection refused or dropped, DNS, TLS handshake).
    #[error("cannot reach {address}: {reason}")]
    Unreachable { address: String, reason: String },
    /// No answer in time.
    #[error("{address} did not answer within {secs} s")]
    Timeout { address: String, secs: u64 },
    /// An HTTP status other than 200 (overload, failover, a proxy in the way).
    #[error("{address} answered HTTP {status}")]
    Http { address: String, status: u16 },
    /// The manager refused the login.
    #[error("login to {address} failed: {descr} (UCS error {code})")]
    LoginFailed {
        address: String,
        code: String,
        descr: String,
    },
    /// The manager refused a call (`errorCode` / `errorDescr`).
    #[error("{method} failed: {descr} (UCS error {code})")]
    Api {
        method: String,
        code: String,
        descr: String,
    },
    /// The certificate is not trusted; the operator can pin this fingerprint.
    #[error("the certificate of {address} is not trusted ({reason}); its SHA-256 fingerprint is {fingerprint}: accept it to pin it")]
    Untrusted {
        address: String,
        fingerprint: String,
        reason: String,
    },
    /// The certificate differs from the pinned one.
    #[error("the certificate of {address} changed: pinned {pinned}, presented {presented}")]
    FingerprintMismatch {
        address: String,
        pinned: String,
        presented: String,
    },
    /// The answer was not what the API promises.
    #[error("unexpected answer from {address}: {reason}")]
    Protocol { address: String, reason: String },
    /// A name or value the client refused before sending.
    #[error("{0}")]
    Invalid(String),
}

impl Error {
    /// True when trying again may help (network trouble, overload).
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            Error::Unreachable { .. } | Error::Timeout { .. } | Error::Http { .. }
        ) && !matches!(self, Error::Http { status, .. } if *status < 500)
    }

    /// The UCS error code, when the manager sent one.
    pub fn ucs_code(&self) -> Option<&str> {
        match self {
            Error::Api { code, .. } | Error::LoginFailed { code, .. } => Some(code),
            _ => None,
        }
    }
}

/// Result of the client.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// The kind and code of each UCS failure, as the doors report them.
impl bootsmith_model::error::Classified for Error {
    fn kind(&self) -> bootsmith_model::ErrorKind {
        use bootsmith_model::ErrorKind;
        match self {
            Error::LoginFailed { .. } => ErrorKind::UpstreamAuth,
            Error::Timeout { .. } => ErrorKind::UpstreamTimeout,
            Error::Untrusted { .. } => ErrorKind::Unprocessable,
            Error::Invalid(_) => ErrorKind::Invalid,
            _ => ErrorKind::Upstream,
        }
    }

    fn code(&self) -> bootsmith_model::ErrorCode {
        match self {
            Error::LoginFailed { .. } => bootsmith_model::ErrorCode::UcsLoginFailed,
            Error::Timeout { .. } => bootsmith_model::ErrorCode::UcsTimeout,
            Error::Unreachable { .. } | Error::Http { .. } => {
                bootsmith_model::ErrorCode::UcsUnreachable
            }
            Error::Untrusted { .. } => bootsmith_model::ErrorCode::UntrustedCertificate,
            Error::FingerprintMismatch { .. } => bootsmith_model::ErrorCode::CertificateChanged,
            Error::Protocol { .. } => bootsmith_model::ErrorCode::UcsProtocolError,
            Error::Api { .. } => bootsmith_model::ErrorCode::UcsError,
            Error::Invalid(_) => bootsmith_model::ErrorCode::InvalidUcsRequest,
        }
    }

    fn ucs_code(&self) -> Option<&str> {
        Error::ucs_code(self)
    }

    fn fingerprint(&self) -> Option<&str> {
        match self {
            Error::Untrusted { fingerprint, .. } => Some(fingerprint),
            _ => None,
        }
    }
}
