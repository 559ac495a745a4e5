//! The one error type of the Redfish client. No variant ever holds a password or token.

use serde_json::Value;

/// Everything a call to a BMC can fail with.
// Variant fields are named for what they hold (address, status, message, …).
#[allow(missing_docs)]
#[derive(Debug, Clone, thiserror::Error)]
pub enum Error {
    /// The BMC could not be reached (connection refused or dropped, DNS).
    #[error("cannot reach {address}: {reason}")]
    Unreachable { address: String, reason: String },
    /// The certificate is not trusted, or differs from the pinned one; `fingerprint` is what
    /// the BMC presented, so the operator can pin it.
    #[error("the certificate of {address} is not accepted ({reason}); it presented SHA-256 {fingerprint}{}", pinned.as_ref().map(|p| format!(", pinned {p}")).unwrap_or_default())]
    Tls {
        address: String,
        fingerprint: String,
        pinned: Option<String>,
        reason: String,
    },
    /// The BMC refused the credentials (401 after one fresh login).
    #[error("{address} refused the credentials: {reason}")]
    Unauthorized { address: String, reason: String },
    /// The BMC does not offer what was asked for.
    #[error("{address} does not support {what}")]
    NotSupported { address: String, what: String },
    /// The BMC answered an error status; `message` and `message_id` are the BMC's own words.
    #[error("{address} refused {request}: HTTP {status}{}{}", message_id.as_ref().map(|m| format!(" [{m}]")).unwrap_or_default(), if message.is_empty() { String::new() } else { format!(": {message}") })]
    Refused {
        address: String,
        /// Method and path, e.g. `PATCH /redfish/v1/Systems/1`.
        request: String,
        status: u16,
        message: String,
        message_id: Option<String>,
        /// `MessageArgs` and `RelatedProperties` of the extended info (the properties named).
        related: Vec<String>,
    },
    /// No answer, or the awaited state was not reached, in time.
    #[error("{address}: {what} did not finish within {secs} s")]
    Timeout {
        address: String,
        what: String,
        secs: u64,
    },
    /// The answer was not what the Redfish specification promises.
    #[error("unexpected answer from {address}: {reason}")]
    Protocol { address: String, reason: String },
    /// A value the client refused before sending anything.
    #[error("{0}")]
    Invalid(String),
}

impl Error {
    /// True when trying again later may help (network trouble, overload, a busy BMC).
    pub fn is_transient(&self) -> bool {
        match self {
            Error::Unreachable { .. } | Error::Timeout { .. } => true,
            Error::Refused { status, .. } => *status >= 500,
            _ => false,
        }
    }

    /// The HTTP status of a refusal.
    pub fn status(&self) -> Option<u16> {
        match self {
            Error::Refused { status, .. } => Some(*status),
            _ => None,
        }
    }

    /// True when the BMC's message, MessageId or named properties mention `word` (any case).
    pub fn mentions(&self, word: &str) -> bool {
        let Error::Refused {
            message,
            message_id,
            related,
            ..
        } = self
        else {
            return false;
        };
        let w = word.to_ascii_lowercase();
        message.to_ascii_lowercase().contains(&w)
            || message_id
                .as_deref()
                .is_some_and(|m| m.to_ascii_lowercase().contains(&w))
            || related.iter().any(|r| r.to_ascii_lowercase().contains(&w))
    }
}

/// Result of the client.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What a BMC said in an error body: all messages joined, the first MessageId, and the
/// properties named (`MessageArgs`, `RelatedProperties`).
///
/// Handles the standard `{"error":{"code","message","@Message.ExtendedInfo":[…]}}`, a bare
/// `@Message.ExtendedInfo` and HPE's `{"code","message"}`.
pub fn bmc_message(body: &Value) -> (String, Option<String>, Vec<String>) {
    let err = body.get("error").unwrap_or(body);
    let mut messages = Vec::new();
    let mut id = None;
    let mut related = Vec::new();
    if let Some(infos) = err.get("@Message.ExtendedInfo").and_then(Value::as_array) {
        for info in infos {
            if let Some(m) = info.get("Message").and_then(Value::as_str) {
                messages.push(m.to_owned());
            }
            if id.is_none() {
                id = info
                    .get("MessageId")
                    .and_then(Value::as_str)
                    .map(str::to_owned);
            }
            for key in ["MessageArgs", "RelatedProperties"] {
                if let Some(args) = info.get(key).and_then(Value::as_array) {
                    related.extend(args.iter().filter_map(Value::as_str).map(str::to_owned));
                }
            }
        }
    }
    if messages.is_empty() {
        if let Some(m) = err.get("message").and_then(Value::as_str) {
            messages.push(m.to_owned());
        } else if let Some(s) = body.as_str() {
            messages.push(s.chars().take(300).collect());
        }
    }
    if id.is_none() {
        id = err.get("code").and_then(Value::as_str).map(str::to_owned);
    }
    (messages.join("; "), id, related)
}

/// The kind and code of each BMC failure, as the doors report them.
impl bootsmith_model::error::Classified for Error {
    fn kind(&self) -> bootsmith_model::ErrorKind {
        use bootsmith_model::ErrorKind;
        match self {
            Error::Unauthorized { .. } => ErrorKind::UpstreamAuth,
            Error::Timeout { .. } => ErrorKind::UpstreamTimeout,
            Error::Tls { .. } | Error::NotSupported { .. } => ErrorKind::Unprocessable,
            Error::Invalid(_) => ErrorKind::Invalid,
            _ => ErrorKind::Upstream,
        }
    }

    fn code(&self) -> bootsmith_model::ErrorCode {
        match self {
            Error::Unauthorized { .. } => bootsmith_model::ErrorCode::BmcLoginFailed,
            Error::Timeout { .. } => bootsmith_model::ErrorCode::BmcTimeout,
            Error::Unreachable { .. } => bootsmith_model::ErrorCode::BmcUnreachable,
            Error::Tls { pinned: None, .. } => bootsmith_model::ErrorCode::UntrustedCertificate,
            Error::Tls { .. } => bootsmith_model::ErrorCode::CertificateChanged,
            Error::NotSupported { .. } => bootsmith_model::ErrorCode::NotSupported,
            Error::Refused { .. } => bootsmith_model::ErrorCode::BmcError,
            Error::Protocol { .. } => bootsmith_model::ErrorCode::BmcProtocolError,
            Error::Invalid(_) => bootsmith_model::ErrorCode::InvalidBmcRequest,
        }
    }

    fn fingerprint(&self) -> Option<&str> {
        match self {
            Error::Tls {
                fingerprint,
                pinned: None,
                ..
            } => Some(fingerprint),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn extended_info_is_read() {
        let body = json!({"error": {"code": "Base.1.8.GeneralError", "message": "see ExtendedInfo",
            "@Message.ExtendedInfo": [{"MessageId": "Base.1.8.PropertyUnknown",
              "Message": "The property Inserted is not in the list of valid properties.",
              "MessageArgs": ["Inserted"], "RelatedProperties": ["#/Inserted"]}]}});
        let (m, id, rel) = bmc_message(&body);
        assert!(m.contains("Inserted"));
        assert_eq!(id.as_deref(), Some("Base.1.8.PropertyUnknown"));
        assert_eq!(rel, vec!["Inserted", "#/Inserted"]);
        let (m, id, _) = bmc_message(&json!({"code": 400, "message": "Invalid ResetType"}));
        assert_eq!(m, "Invalid ResetType");
        assert_eq!(id, None);
    }
}
