//! `/svc/<file>`: the svc directory, read-only and without a token, because
//! the servers' management controllers mount install media from here and
//! cannot send one. What may be served is the core's svc rule (`bootsmith_core::media::svc`): regular
//! files inside svc only, nothing whose top-level name starts with a dot, no symlink that leads out.
//!
//! The answer is made here rather than by tower-http's `ServeFile`, because management
//! controllers read media as many 1 MiB ranges and the time per request is what counts:
//! `ServeFile` took six hops to blocking threads for one range (open, metadata, seek, reads)
//! and copied each chunk twice. Here the path is resolved and the file opened on the
//! connection's thread, the answer decided by [`http`] (conditional requests, `Range`), and the
//! body read by [`body`] straight into the buffers the connection writes, from the page cache
//! on the same thread when the data is there. The figures against nginx are in
//! `benches/media.rs`.

mod body;
mod http;

use std::fs::File;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path as FsPath, PathBuf};

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::response::Builder;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use bootsmith_core::media::svc::{self, percent_decode, SvcPath};

use self::http::{Ask, Decision, Validators};
use crate::error::{ApiError, ErrorBody};

use crate::ApiState;

/// Resolve a request path below `/svc/` to a file inside `svc_dir` (canonical) by the rule of
/// [`bootsmith_core::media::svc`], or `None`.
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
    let ask = Ask::of(req.headers());
    let range = ask
        .range
        .as_ref()
        .and_then(|r| r.to_str().ok())
        .map(str::to_owned);
    // Resolving and opening happen on this thread, as nginx does them: for the files being
    // served the kernel answers them from its caches, and a hop to a blocking thread cost more
    // than the work (benches/media.rs). The data, which may need the disk, is read by `body`.
    let (resp, part) = match answer(s.app.svc_dir(), &decoded, &ask) {
        Ok(Some(answer)) => answer,
        Ok(None) => return ApiError::NoRoute(req.uri().path().to_owned()).into_response(),
        Err(e) => return failed(&decoded, &e),
    };
    let (body, bytes) = match part {
        Some(Part { file, start, len }) if !head => match body::open(file, start, len).await {
            Ok(body) => (body, len),
            Err(e) => return failed(&decoded, &e),
        },
        _ => (Body::empty(), 0),
    };
    let resp = resp.body(body).expect("valid headers");
    // The install lifecycle sees what each management controller and installer fetched.
    if let (Some(peer), true) = (peer, resp.status().is_success()) {
        s.app.lifecycle().fetched(bootsmith_core::lifecycle::Fetch {
            peer,
            path: decoded,
            bytes,
            range,
        });
    }
    resp
}

fn failed(rel: &str, e: &std::io::Error) -> Response {
    tracing::error!(error = %e, path = %rel, "serving a file of svc failed");
    StatusCode::INTERNAL_SERVER_ERROR.into_response()
}

/// The bytes of a file an answer sends.
struct Part {
    file: File,
    start: u64,
    len: u64,
}

/// The head of the answer to `ask` for the file `rel` of svc and, when it has a body, what it
/// sends; `None` when svc serves no such file.
fn answer(svc: &FsPath, rel: &str, ask: &Ask) -> std::io::Result<Option<(Builder, Option<Part>)>> {
    let Some(real) = resolve(svc, rel) else {
        return Ok(None);
    };
    // Non-blocking, so that a FIFO put in the file's place since it was resolved cannot hold
    // this thread in `open`; it is refused below. Reads of regular files ignore the flag.
    let file = match std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(&real)
    {
        Ok(f) => f,
        // Gone since it was resolved.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Ok(None);
    }
    let len = meta.len();
    let v = Validators::new(len, meta.modified().ok(), meta.ino());
    let mut resp = Response::builder()
        .header(header::ACCEPT_RANGES, "bytes")
        .header(header::ETAG, &v.etag);
    if let Some(m) = v.modified {
        resp = resp.header(header::LAST_MODIFIED, m.to_string());
    }
    let (status, start, n) = match http::decide(ask, &v, len) {
        Decision::NotModified => return Ok(Some((resp.status(StatusCode::NOT_MODIFIED), None))),
        Decision::PreconditionFailed => {
            return Ok(Some((resp.status(StatusCode::PRECONDITION_FAILED), None)))
        }
        Decision::Unsatisfiable => {
            let resp = resp
                .status(StatusCode::RANGE_NOT_SATISFIABLE)
                .header(header::CONTENT_RANGE, format!("bytes */{len}"));
            return Ok(Some((resp, None)));
        }
        Decision::Whole => (StatusCode::OK, 0, len),
        Decision::Part { start, end } => {
            resp = resp.header(header::CONTENT_RANGE, format!("bytes {start}-{end}/{len}"));
            (StatusCode::PARTIAL_CONTENT, start, end - start + 1)
        }
    };
    // Named by where it really is, as the file was before (a symlink's target decides).
    let mime = mime_guess::from_path(&real)
        .first_raw()
        .unwrap_or("application/octet-stream");
    let resp = resp
        .status(status)
        .header(header::CONTENT_TYPE, HeaderValue::from_static(mime))
        .header(header::CONTENT_LENGTH, n);
    Ok(Some((
        resp,
        Some(Part {
            file,
            start,
            len: n,
        }),
    )))
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
