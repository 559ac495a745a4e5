//! Sessions and authentication: `POST /redfish/v1/SessionService/Sessions` with the
//! credentials in the body alone (201, `X-Auth-Token`, and `Location` where the vendor sends
//! it), the token or HTTP Basic on every other request, `DELETE` to log out, a session limit
//! where the vendor has one, and the injected expiries (a TTL, or a number of requests).

use std::time::Instant;

use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use base64::Engine;
use serde_json::{json, Value};

use super::errors::{error, json_response, missing};
use super::state::{Session, Shared, State};

/// The session collection.
pub(crate) const SESSIONS: &str = "/redfish/v1/SessionService/Sessions";

fn unauthorized(base: &str, why: &str) -> Response {
    let mut r = error(
        StatusCode::UNAUTHORIZED,
        &format!("{base}.NoValidSession"),
        &format!("There is no valid session established with the implementation: {why}."),
    );
    r.headers_mut().insert(
        header::WWW_AUTHENTICATE,
        HeaderValue::from_static("Basic realm=\"Redfish\""),
    );
    r
}

fn session_doc(s: &Session) -> Value {
    json!({
        "@odata.id": format!("{SESSIONS}/{}", s.id),
        "@odata.type": "#Session.v1_3_0.Session",
        "Id": s.id, "Name": "User Session", "UserName": s.user,
    })
}

/// Drop the sessions the injected TTL has ended.
fn prune(st: &mut State) {
    if let Some(ttl) = st.faults.session_ttl {
        st.sessions.retain(|s| s.created.elapsed() < ttl);
    }
}

/// `POST …/Sessions`: the body's `UserName`/`Password` are enough (no Basic needed).
pub(crate) fn create(sh: &Shared, st: &mut State, body: &[u8]) -> Response {
    let base = sh.q.base;
    let Ok(v) = serde_json::from_slice::<Value>(body) else {
        return error(
            StatusCode::BAD_REQUEST,
            &format!("{base}.MalformedJSON"),
            "The request body submitted was malformed JSON and could not be parsed.",
        );
    };
    let (Some(user), Some(pass)) = (v["UserName"].as_str(), v["Password"].as_str()) else {
        return error(
            StatusCode::BAD_REQUEST,
            &format!("{base}.PropertyMissing"),
            "The property UserName or Password is a required property and must be included in the request.",
        );
    };
    if user != sh.user || pass != sh.password {
        return error(
            StatusCode::UNAUTHORIZED,
            &format!("{base}.ResourceAtUriUnauthorized"),
            &format!("While accessing the resource at {SESSIONS}, the service received an authorization error: wrong user name or password."),
        );
    }
    prune(st);
    if let Some(max) = sh.q.max_sessions {
        if st.sessions.len() >= max {
            return error(
                StatusCode::SERVICE_UNAVAILABLE,
                &format!("{base}.SessionLimitExceeded"),
                &format!("The session establishment failed due to the number of simultaneous sessions exceeding the limit of the implementation ({max})."),
            );
        }
    }
    let n = st.next();
    let s = Session {
        id: format!("{:016x}", n ^ rand::random::<u64>() << 8),
        token: uuid::Uuid::new_v4().simple().to_string(),
        user: user.to_owned(),
        created: Instant::now(),
        requests: 0,
    };
    let mut r = json_response(StatusCode::CREATED, &session_doc(&s));
    let h = r.headers_mut();
    h.insert(
        "X-Auth-Token",
        HeaderValue::from_str(&s.token).expect("hex"),
    );
    if sh.q.session_location {
        h.insert(
            header::LOCATION,
            HeaderValue::from_str(&format!("{SESSIONS}/{}", s.id)).expect("ascii"),
        );
    }
    st.sessions.push(s);
    r
}

/// Whether the request carries a live session token or the right Basic credentials; counts
/// the request against its session.
pub(crate) fn authorize(
    sh: &Shared,
    st: &mut State,
    headers: &HeaderMap,
) -> Result<(), Box<Response>> {
    let base = sh.q.base;
    if let Some(tok) = headers.get("X-Auth-Token").and_then(|v| v.to_str().ok()) {
        prune(st);
        let limit = st.faults.session_requests;
        let Some(i) = st.sessions.iter().position(|s| s.token == tok) else {
            return Err(Box::new(unauthorized(
                base,
                "the session token is not valid",
            )));
        };
        st.sessions[i].requests += 1;
        if limit.is_some_and(|n| st.sessions[i].requests > n) {
            st.sessions.remove(i);
            return Err(Box::new(unauthorized(base, "the session has expired")));
        }
        return Ok(());
    }
    if let Some(basic) = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Basic "))
    {
        let decoded = base64::engine::general_purpose::STANDARD
            .decode(basic.trim())
            .ok()
            .and_then(|b| String::from_utf8(b).ok());
        return match decoded.as_deref().and_then(|d| d.split_once(':')) {
            Some((u, p)) if u == sh.user && p == sh.password => Ok(()),
            _ => Err(Box::new(error(
                StatusCode::UNAUTHORIZED,
                &format!("{base}.ResourceAtUriUnauthorized"),
                "The service received an authorization error: wrong user name or password.",
            ))),
        };
    }
    Err(Box::new(unauthorized(
        base,
        "no X-Auth-Token and no credentials",
    )))
}

/// `GET` of the collection or of one session.
pub(crate) fn get(sh: &Shared, st: &mut State, path: &str) -> Response {
    prune(st);
    if path == SESSIONS {
        let members: Vec<Value> = st
            .sessions
            .iter()
            .map(|s| json!({ "@odata.id": format!("{SESSIONS}/{}", s.id) }))
            .collect();
        return json_response(
            StatusCode::OK,
            &json!({
                "@odata.id": SESSIONS,
                "@odata.type": "#SessionCollection.SessionCollection",
                "Name": "Sessions",
                "Members@odata.count": members.len(),
                "Members": members,
            }),
        );
    }
    let id = path.rsplit('/').next().unwrap_or_default();
    match st.sessions.iter().find(|s| s.id == id) {
        Some(s) => json_response(StatusCode::OK, &session_doc(s)),
        None => missing(sh.q.base, path),
    }
}

/// `DELETE` of one session: logout.
pub(crate) fn delete(sh: &Shared, st: &mut State, path: &str) -> Response {
    let id = path.rsplit('/').next().unwrap_or_default();
    let before = st.sessions.len();
    st.sessions.retain(|s| s.id != id);
    if st.sessions.len() == before {
        return missing(sh.q.base, path);
    }
    axum::response::IntoResponse::into_response(StatusCode::NO_CONTENT)
}
