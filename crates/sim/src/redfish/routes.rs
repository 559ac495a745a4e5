//! The HTTP side: one handler for every path, which applies the injected faults, lets the
//! service root and session login through without credentials, checks the credentials of
//! everything else, and sends each method to the module that owns the resource.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State as AxState;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

use super::errors::{error, json_response, missing, not_allowed};
use super::faults::{dropped, unavailable, Injected};
use super::persona::{ActionOk, Quirks};
use super::sessions::{self, SESSIONS};
use super::state::{Req, Shared, State};
use super::tree::{etag, etag_matches, normalize};
use super::{idrac_legacy, media, power, tasks};

/// The answer to a successful write, as the persona gives it.
pub(crate) fn action_ok(q: &Quirks) -> Response {
    match q.action_ok {
        ActionOk::NoContent => StatusCode::NO_CONTENT.into_response(),
        ActionOk::HpeExtendedInfo => json_response(
            StatusCode::OK,
            &json!({ "error": {
                "code": "iLO.0.10.ExtendedInfo",
                "message": "See @Message.ExtendedInfo for more information.",
                "@Message.ExtendedInfo": [{ "MessageId": "Base.1.4.Success" }],
            } }),
        ),
    }
}

/// Every request.
pub(crate) async fn handle(
    AxState(sh): AxState<Arc<Shared>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let (injected, latency) = {
        let mut st = sh.lock();
        st.requests += 1;
        (st.faults.draw(), st.faults.latency)
    };
    if !latency.is_zero() {
        tokio::time::sleep(latency).await;
    }
    match injected {
        Injected::Unavailable(retry) => return unavailable(sh.q.base, retry),
        Injected::Drop => return dropped(),
        Injected::None => {}
    }
    let req = Req {
        method,
        path: normalize(uri.path()),
        headers,
        body,
    };
    let mut st = sh.lock();
    if req.method != Method::GET && !req.path.starts_with(SESSIONS) {
        let write = format!("{} {}", req.method, req.path);
        st.writes.push(write);
    }
    route(&sh, &mut st, req)
}

fn route(sh: &Arc<Shared>, st: &mut State, req: Req) -> Response {
    let q = &sh.q;
    let path = req.path.as_str();
    // The service root answers without credentials (sushy-tools' _EXCLUDE_PATHS; every BMC).
    if req.method == Method::GET {
        match path {
            "/redfish" => return json_response(StatusCode::OK, &json!({ "v1": "/redfish/v1/" })),
            "/redfish/v1" => return get_doc(q, st, path),
            _ => {}
        }
    }
    if req.method == Method::POST && path == SESSIONS {
        return sessions::create(sh, st, &req.body);
    }
    if let Err(r) = sessions::authorize(sh, st, &req.headers) {
        return *r;
    }
    match req.method {
        Method::GET if path == SESSIONS || path.starts_with(&format!("{SESSIONS}/")) => {
            sessions::get(sh, st, path)
        }
        Method::GET if path.starts_with(&format!("{}/", tasks::MONITORS)) => {
            tasks::poll(sh, st, path)
        }
        Method::GET if q.dell_oem_boot && path.starts_with(&format!("{}/", idrac_legacy::JOBS)) => {
            idrac_legacy::job(sh, st, path)
        }
        Method::GET => get_doc(q, st, path),
        Method::PATCH => patch(sh, st, &req),
        Method::POST if path.contains("/Actions/") => {
            if q.action_if_match_412 && req.headers.contains_key(header::IF_MATCH) {
                // iDRAC: ironcore-dev/metal-operator#1015.
                return error(
                    StatusCode::PRECONDITION_FAILED,
                    &format!("{}.PreconditionFailed", q.base),
                    "The ETag supplied did not match the ETag required to change this resource (If-Match is not supported on actions).",
                );
            }
            if st.faults.task_polls > 0 {
                return tasks::start(st, req);
            }
            action(sh, st, &req)
        }
        Method::DELETE if path.starts_with(&format!("{SESSIONS}/")) => {
            sessions::delete(sh, st, path)
        }
        Method::DELETE => delete(q, st, path),
        ref m => {
            if st.tree.get(path).is_none() {
                missing(q.base, path)
            } else {
                not_allowed(q.base, m.as_str(), path)
            }
        }
    }
}

/// A document with its `ETag` (and `Allow` on slots and the System).
fn get_doc(q: &Quirks, st: &State, path: &str) -> Response {
    let Some(doc) = st.tree.get(path) else {
        return missing(q.base, path);
    };
    let tag = etag(doc, q.weak_etag);
    let mut r = if q.weak_etag && doc.get("@odata.etag").is_some() {
        let mut d = doc.clone();
        d["@odata.etag"] = tag.clone().into();
        json_response(StatusCode::OK, &d)
    } else {
        json_response(StatusCode::OK, doc)
    };
    let allow = if media::is_slot(q, path) {
        q.slot_allow
    } else if path == q.system {
        "GET, PATCH"
    } else {
        "GET"
    };
    let h = r.headers_mut();
    h.insert(header::ETAG, HeaderValue::from_str(&tag).expect("ascii"));
    h.insert(header::ALLOW, HeaderValue::from_static(allow));
    r
}

/// The body as JSON: None when empty; Err(400) when not JSON.
fn json_body(q: &Quirks, body: &[u8]) -> Result<Option<Value>, Box<Response>> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    serde_json::from_slice(body).map(Some).map_err(|_| {
        Box::new(error(
            StatusCode::BAD_REQUEST,
            &format!("{}.MalformedJSON", q.base),
            "The request body submitted was malformed JSON and could not be parsed.",
        ))
    })
}

fn patch(sh: &Arc<Shared>, st: &mut State, req: &Req) -> Response {
    let q = &sh.q;
    let path = req.path.as_str();
    let Some(doc) = st.tree.get(path) else {
        return missing(q.base, path);
    };
    let current = etag(doc, q.weak_etag);
    match req
        .headers
        .get(header::IF_MATCH)
        .and_then(|v| v.to_str().ok())
    {
        Some(m) if !etag_matches(m, &current) => {
            return error(
                StatusCode::PRECONDITION_FAILED,
                &format!("{}.PreconditionFailed", q.base),
                "The ETag supplied did not match the ETag required to change this resource.",
            )
        }
        None if q.patch_needs_if_match => {
            // Lenovo: gofish#171, ansible/ansible PR #56150.
            return error(
                StatusCode::PRECONDITION_REQUIRED,
                &format!("{}.PreconditionHeaderMissing", q.base),
                "The request did not include the required If-Match header; send the resource's ETag.",
            );
        }
        _ => {}
    }
    let body = match json_body(q, &req.body) {
        Ok(Some(b)) if b.is_object() => b,
        Ok(_) => {
            return error(
                StatusCode::BAD_REQUEST,
                &format!("{}.MalformedJSON", q.base),
                "PATCH needs a JSON object body.",
            )
        }
        Err(r) => return *r,
    };
    if path == q.system {
        power::patch_system(sh, st, body)
    } else if media::is_slot(q, path) {
        media::patch_slot(sh, st, path, body)
    } else {
        not_allowed(q.base, "PATCH", path)
    }
}

/// An action POST (also replayed by a task monitor).
pub(crate) fn action(sh: &Arc<Shared>, st: &mut State, req: &Req) -> Response {
    let q = &sh.q;
    let path = req.path.as_str();
    let body = match json_body(q, &req.body) {
        Ok(b) => b,
        Err(r) => return *r,
    };
    if q.dell_oem_boot && path == idrac_legacy::IMPORT {
        return idrac_legacy::import(sh, st, body);
    }
    let Some((owner, name)) = path.split_once("/Actions/") else {
        return missing(q.base, path);
    };
    // The action must be one the resource advertises (XCC's slots advertise none).
    let advertised = st
        .tree
        .get(owner)
        .is_some_and(|d| d["Actions"].get(format!("#{name}")).is_some());
    if !advertised {
        return missing(q.base, path);
    }
    match name {
        "VirtualMedia.InsertMedia" if media::is_slot(q, owner) => {
            media::insert_action(sh, st, owner, body)
        }
        "VirtualMedia.EjectMedia" if media::is_slot(q, owner) => {
            media::eject_action(sh, st, owner, body)
        }
        "ComputerSystem.Reset" if owner == q.system => power::reset(sh, st, body),
        "Drive.SecureErase" if q.secure_erase => action_ok(q),
        _ => not_allowed(q.base, "POST", path),
    }
}

fn delete(q: &Quirks, st: &mut State, path: &str) -> Response {
    if st.tree.get(path).is_none() {
        return missing(q.base, path);
    }
    let is_volume = path
        .rsplit_once('/')
        .is_some_and(|(parent, _)| parent.ends_with("/Volumes"));
    if is_volume && q.volume_delete {
        st.tree.remove(path);
        return StatusCode::NO_CONTENT.into_response();
    }
    not_allowed(q.base, "DELETE", path)
}
