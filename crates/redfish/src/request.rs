//! Requests as plain data, built apart from the transport (as kube-rs does): every operation
//! module turns its intent into a [`Request`], and [`crate::Client::execute`] sends it with
//! authentication, retries, task monitors and ETags. That keeps the payload rules testable
//! without a BMC.

use serde_json::Value;

/// HTTP method of a Redfish request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Read a resource.
    Get,
    /// Create a member or run an action.
    Post,
    /// Change properties.
    Patch,
    /// Remove a resource.
    Delete,
}

impl Method {
    /// The method's name on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Patch => "PATCH",
            Method::Delete => "DELETE",
        }
    }
}

/// Which `If-Match` a request carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IfMatch {
    /// None at all: actions (iDRAC answers 412 to an action carrying one) and reads.
    Never,
    /// The ETag remembered from the last GET of the path, with sushy's 412/428 ladder.
    Remembered,
    /// Exactly this value (one rung of the ladder).
    Value(String),
}

/// One request to a BMC, before authentication and transport.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// Method.
    pub method: Method,
    /// Path (`/redfish/v1/...`) or absolute URL.
    pub path: String,
    /// JSON body (always `{}` rather than nothing for actions: HPE answers 415, Dell 400).
    pub body: Option<Value>,
    /// Precondition header policy.
    pub if_match: IfMatch,
    /// False only for the service root and session creation.
    pub authenticated: bool,
}

impl Request {
    /// `GET path`.
    pub fn get(path: impl Into<String>) -> Request {
        Request {
            method: Method::Get,
            path: path.into(),
            body: None,
            if_match: IfMatch::Never,
            authenticated: true,
        }
    }

    /// `POST target body` for an action: never with `If-Match`.
    pub fn action(target: impl Into<String>, body: Value) -> Request {
        Request {
            method: Method::Post,
            path: target.into(),
            body: Some(body),
            if_match: IfMatch::Never,
            authenticated: true,
        }
    }

    /// `PATCH path body` with the remembered ETag.
    pub fn patch(path: impl Into<String>, body: Value) -> Request {
        Request {
            method: Method::Patch,
            path: path.into(),
            body: Some(body),
            if_match: IfMatch::Remembered,
            authenticated: true,
        }
    }

    /// `DELETE path`.
    pub fn delete(path: impl Into<String>) -> Request {
        Request {
            method: Method::Delete,
            path: path.into(),
            body: None,
            if_match: IfMatch::Never,
            authenticated: true,
        }
    }

    /// The same request without authentication.
    pub fn anonymous(mut self) -> Request {
        self.authenticated = false;
        self
    }

    /// True for reads, which may be retried on any server error or dropped connection.
    pub fn is_read(&self) -> bool {
        self.method == Method::Get
    }
}

/// The `If-Match` values to try in turn for a remembered ETag (sushy `_etag_handler`): the
/// original, then without `W/`, then none. An empty ETag counts as none.
pub fn etag_ladder(etag: Option<&str>) -> Vec<Option<String>> {
    let Some(e) = etag.map(str::trim).filter(|e| !e.is_empty()) else {
        return vec![None];
    };
    let mut out = vec![Some(e.to_owned())];
    if let Some(strong) = e.strip_prefix("W/") {
        out.push(Some(strong.to_owned()));
    }
    out.push(None);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn actions_never_carry_if_match() {
        let r = Request::action("/x/Actions/VirtualMedia.EjectMedia", json!({}));
        assert_eq!(r.if_match, IfMatch::Never);
        assert_eq!(r.body, Some(json!({})));
        assert_eq!(
            Request::patch("/x", json!({})).if_match,
            IfMatch::Remembered
        );
    }

    #[test]
    fn weak_etags_get_the_ladder() {
        assert_eq!(
            etag_ladder(Some("W/\"A1\"")),
            vec![Some("W/\"A1\"".into()), Some("\"A1\"".into()), None]
        );
        assert_eq!(
            etag_ladder(Some("\"A1\"")),
            vec![Some("\"A1\"".into()), None]
        );
        assert_eq!(etag_ladder(Some("")), vec![None]);
        assert_eq!(etag_ladder(None), vec![None]);
    }
}
