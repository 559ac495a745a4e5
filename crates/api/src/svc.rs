//! `/svc/<file>`: the svc directory, read-only and without a token, because
//! the servers' management controllers mount install media from here and
//! cannot send one. Byte ranges (206/416) and HEAD come from tower-http's
//! `ServeFile`; what may be served is the core's svc rule (`bootsmith_core::svc`): regular
//! files inside svc only, nothing whose top-level name starts with a dot, no symlink that leads out.

use std::path::{Path as FsPath, PathBuf};

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use bootsmith_core::svc::{self, SvcPath};
use tower::ServiceExt;
use tower_http::services::ServeFile;

use crate::error::{ApiError, ErrorBody};

use crate::ApiState;

/// Read size when streaming a file of svc.
const SERVE_CHUNK: usize = 512 * 1024;

/// Resolve a request path below `/svc/` to a file inside `svc_dir` (canonical) by the rule of
/// [`bootsmith_core::svc`], or `None`.
pub fn resolve(svc_dir: &FsPath, rest: &str) -> Option<PathBuf> {
    svc::resolve(svc_dir, &SvcPath::from_url(rest).ok()?).ok()
}

/// The raw bytes of a file, for the OpenAPI document.
#[derive(utoipa::ToSchema)]
#[schema(value_type = String, format = Binary)]
pub struct FileBytes(#[allow(dead_code)] Vec<u8>);

/// A file of svc (or of an install tree in it), as the servers' management controllers and
/// installers fetch it: no token, `Range` for parts, `If-Modified-Since`/`If-None-Match` answered.
#[utoipa::path(get, path = "/svc/{file}", tag = "svc", operation_id = "get_svc_file", security(()),
    params(("file" = String, Path, description = "The file's path below svc; it may have several segments (`centos7.4/images/install.img`)"),
        ("Range" = Option<String>, Header, description = "A byte range, e.g. `bytes=0-1023`")),
    responses(
        (status = 200, content_type = "application/octet-stream", body = FileBytes, description = "The file"),
        (status = 206, content_type = "application/octet-stream", body = FileBytes, description = "The requested byte range"),
        (status = 304, description = "Not modified since the time or tag the request named"),
        (status = 404, body = ErrorBody, description = "No such file in svc (`no_such_route`); files outside svc and work in progress are never served"),
        (status = 412, description = "Modified since the time `If-Unmodified-Since` named"),
        (status = 416, description = "The range is outside the file")))]
#[allow(dead_code)]
pub(crate) fn get_file() {}

/// The headers `GET /svc/{file}` would answer (size, type, `Accept-Ranges`), without the body.
#[utoipa::path(head, path = "/svc/{file}", tag = "svc", operation_id = "head_svc_file", security(()),
    params(("file" = String, Path, description = "The file's path below svc")),
    responses(
        (status = 200, description = "The file exists"),
        (status = 304, description = "Not modified"),
        (status = 404, description = "No such file in svc"),
        (status = 412, description = "Modified since the time `If-Unmodified-Since` named"),
        (status = 416, description = "The range is outside the file")))]
#[allow(dead_code)]
pub(crate) fn head_file() {}

/// Serve one file of svc.
pub async fn serve(State(s): State<ApiState>, req: Request) -> Response {
    if req.method() != Method::GET && req.method() != Method::HEAD {
        let mut resp = ApiError::MethodNotAllowed {
            method: req.method().to_string(),
            path: req.uri().path().to_owned(),
        }
        .into_response();
        // RFC 9110 asks a 405 to say what is allowed, as axum's own 405s do.
        resp.headers_mut()
            .insert(header::ALLOW, header::HeaderValue::from_static("GET,HEAD"));
        return resp;
    }
    let head = req.method() == Method::HEAD;
    let rest = req.uri().path().strip_prefix("/svc/").unwrap_or("");
    let decoded = match percent_decode(rest) {
        Some(d) => d,
        None => return ApiError::NoRoute(req.uri().path().to_owned()).into_response(),
    };
    // Bootsmith's own preflight checks are not a controller mounting the media.
    let own = req
        .headers()
        .get(header::USER_AGENT)
        .is_some_and(|ua| ua == bootsmith_core::deploy::PREFLIGHT_USER_AGENT);
    let peer = req
        .extensions()
        .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
        .map(|c| c.0.ip())
        .filter(|_| !own);
    let range = req
        .headers()
        .get(header::RANGE)
        .and_then(|r| r.to_str().ok())
        .map(str::to_owned);
    let svc = s.app.svc_dir().to_owned();
    let rel = decoded.clone();
    let found = tokio::task::spawn_blocking(move || resolve(&svc, &decoded))
        .await
        .ok()
        .flatten();
    let Some(file) = found else {
        return ApiError::NoRoute(req.uri().path().to_owned()).into_response();
    };
    // Bigger reads than the 64 KiB default: install trees and ISOs are large files, and
    // fewer, larger chunks cut the per-chunk cost (measured in benches/media.rs).
    match ServeFile::new(file)
        .with_buf_chunk_size(SERVE_CHUNK)
        .oneshot(req)
        .await
    {
        Ok(resp) => {
            // The install lifecycle sees what each management controller and installer fetched.
            if let (Some(peer), true) = (peer, resp.status().is_success()) {
                let bytes = resp
                    .headers()
                    .get(header::CONTENT_LENGTH)
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(0);
                s.app.lifecycle().fetched(bootsmith_core::lifecycle::Fetch {
                    peer,
                    path: rel,
                    bytes: if head { 0 } else { bytes },
                    range,
                });
            }
            resp.map(Body::new)
        }
        Err(e) => {
            tracing::error!(error = %e, "serving a file of svc failed");
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
    }
}

/// Decode `%XX` escapes; `None` for malformed escapes or non-UTF-8 results.
fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok().filter(|d| !d.contains('\0'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_files_inside_svc_resolve() {
        let dir = tempfile::tempdir().unwrap();
        let svc = dir.path().join("svc");
        std::fs::create_dir_all(svc.join("centos7.4/images")).unwrap();
        std::fs::write(svc.join("node01.img"), b"img").unwrap();
        std::fs::write(svc.join("centos7.4/images/install.img"), b"x").unwrap();
        std::fs::write(svc.join("centos7.4/.treeinfo"), b"[general]").unwrap();
        std::fs::create_dir_all(svc.join(".centos7.4.partial")).unwrap();
        std::fs::write(svc.join(".centos7.4.partial/.treeinfo"), b"x").unwrap();
        std::fs::write(svc.join(".hidden"), b"x").unwrap();
        std::fs::write(dir.path().join("secret.key"), b"k").unwrap();
        std::os::unix::fs::symlink(dir.path().join("secret.key"), svc.join("leak.img")).unwrap();
        let svc = svc.canonicalize().unwrap();
        assert!(resolve(&svc, "node01.img").is_some());
        assert!(resolve(&svc, "centos7.4/images/install.img").is_some());
        assert!(
            resolve(&svc, "centos7.4/.treeinfo").is_some(),
            "install trees keep their dot-files"
        );
        assert!(
            resolve(&svc, ".centos7.4.partial/.treeinfo").is_none(),
            "work in progress stays hidden"
        );
        for bad in [
            "",
            "../secret.key",
            "centos7.4/../../secret.key",
            ".hidden",
            "leak.img",
            "centos7.4",
            "/etc/passwd",
            "missing.iso",
        ] {
            assert!(resolve(&svc, bad).is_none(), "{bad}");
        }
        assert_eq!(percent_decode("a%20b"), Some("a b".into()));
        assert_eq!(percent_decode("%2e%2e/x"), Some("../x".into()));
        assert_eq!(percent_decode("%zz"), None);
    }
}
