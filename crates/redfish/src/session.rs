//! Authentication state of a client: a Redfish session (`X-Auth-Token`) or HTTP Basic, and
//! where the session's URI is found in the answer that created it.

use reqwest::header::HeaderMap;
use serde_json::Value;

/// How the client authenticates now.
#[derive(Clone, Default)]
pub(crate) enum Auth {
    /// Not logged in yet.
    #[default]
    None,
    /// A session: its token and the URI to DELETE on logout (when the BMC told it).
    Session { token: String, uri: Option<String> },
    /// HTTP Basic on every request (sessions failed or do not exist).
    Basic,
}

impl std::fmt::Debug for Auth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The token is a credential: never printed.
        match self {
            Auth::None => f.write_str("None"),
            Auth::Session { uri, .. } => write!(f, "Session({uri:?})"),
            Auth::Basic => f.write_str("Basic"),
        }
    }
}

/// How a login ended up authenticating.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum AuthMode {
    /// A Redfish session with `X-Auth-Token`.
    Session,
    /// HTTP Basic, because the BMC offers no usable session service.
    Basic,
}

/// Where the session URI came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionUriFrom {
    /// The standard `Location` header.
    Location,
    /// The body's `@odata.id` (Cisco CIMC 4.1 omits `Location`; sushy 43ed6a6).
    BodyOdataId,
    /// HPE's `{"code": 201, "message": "<uri>"}` (the iLO emulator).
    BodyMessage,
}

/// The session URI from a session-creation answer: `Location`, else the body's `@odata.id`,
/// else HPE's `message` when it looks like a Redfish path.
pub fn session_uri(headers: &HeaderMap, body: &Value) -> Option<(String, SessionUriFrom)> {
    if let Some(loc) = headers
        .get(reqwest::header::LOCATION)
        .and_then(|v| v.to_str().ok())
        .filter(|v| !v.is_empty())
    {
        return Some((to_path(loc), SessionUriFrom::Location));
    }
    if let Some(id) = body.get("@odata.id").and_then(Value::as_str) {
        return Some((to_path(id), SessionUriFrom::BodyOdataId));
    }
    body.get("message")
        .and_then(Value::as_str)
        .filter(|m| m.starts_with("/redfish/"))
        .map(|m| (m.to_owned(), SessionUriFrom::BodyMessage))
}

/// The path (and query) of an absolute URL; a path stays as it is.
pub fn to_path(s: &str) -> String {
    match url::Url::parse(s) {
        Ok(u) => match u.query() {
            Some(q) => format!("{}?{q}", u.path()),
            None => u.path().to_owned(),
        },
        Err(_) => s.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn session_uri_sources() {
        let mut h = HeaderMap::new();
        assert_eq!(
            session_uri(
                &h,
                &json!({"@odata.id": "/redfish/v1/SessionService/Sessions/7"})
            ),
            Some((
                "/redfish/v1/SessionService/Sessions/7".into(),
                SessionUriFrom::BodyOdataId
            ))
        );
        assert_eq!(
            session_uri(
                &h,
                &json!({"code": 201, "message": "/redfish/v1/SessionService/Sessions/F1"})
            ),
            Some((
                "/redfish/v1/SessionService/Sessions/F1".into(),
                SessionUriFrom::BodyMessage
            ))
        );
        assert_eq!(session_uri(&h, &json!({"message": "ok"})), None);
        h.insert(
            reqwest::header::LOCATION,
            "https://10.0.0.1/redfish/v1/SessionService/Sessions/9"
                .parse()
                .unwrap(),
        );
        assert_eq!(
            session_uri(&h, &json!({})),
            Some((
                "/redfish/v1/SessionService/Sessions/9".into(),
                SessionUriFrom::Location
            ))
        );
    }
}
