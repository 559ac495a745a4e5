//! A media server on loopback for tests and demos: what the managers' controllers fetch
//! install media from (`GET` and `HEAD` of `/svc/<name>`, with byte ranges), keeping every
//! request it answered, so a test can see the simulated controllers' fetches.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};

/// `(method, path, range header)` of each request a [`MediaServer`] answered, in order.
pub type Seen = Arc<Mutex<Vec<(String, String, Option<String>)>>>;

type Files = Arc<BTreeMap<String, Vec<u8>>>;

/// A media server on loopback serving a few files under `/svc/`.
pub struct MediaServer {
    /// `127.0.0.1:<port>`.
    pub addr: std::net::SocketAddr,
    /// What it answered.
    pub seen: Seen,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl MediaServer {
    /// Serve `files` (name, contents) on a free loopback port.
    pub async fn start(files: &[(&str, Vec<u8>)]) -> std::io::Result<MediaServer> {
        let files: Files = Arc::new(
            files
                .iter()
                .map(|(n, d)| ((*n).to_owned(), d.clone()))
                .collect(),
        );
        let seen: Seen = Arc::default();
        let app = axum::Router::new()
            .route("/svc/{name}", axum::routing::get(serve))
            .with_state((files, seen.clone()));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(async move {
            let _ = axum::serve(listener, app)
                .with_graceful_shutdown(async {
                    let _ = rx.await;
                })
                .await;
        });
        Ok(MediaServer {
            addr,
            seen,
            stop: Some(tx),
        })
    }

    /// `http://127.0.0.1:<port>/svc/`: the share to give a mapping or mount entry.
    pub fn share(&self) -> String {
        format!("http://{}/svc/", self.addr)
    }

    /// The requests for `path`, in order: `"HEAD"`, `"GET bytes=0-…"`.
    pub fn requests_for(&self, path: &str) -> Vec<String> {
        self.seen
            .lock()
            .expect("media server lock")
            .iter()
            .filter(|(_, p, _)| p == path)
            .map(|(m, _, r)| match r {
                Some(r) => format!("{m} {r}"),
                None => m.clone(),
            })
            .collect()
    }
}

impl Drop for MediaServer {
    fn drop(&mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
    }
}

/// One file, whole or the byte range asked for (HEAD: the same headers, no body).
async fn serve(
    State((files, seen)): State<(Files, Seen)>,
    method: Method,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Response {
    let range = headers
        .get(header::RANGE)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    seen.lock().expect("media server lock").push((
        method.to_string(),
        format!("/svc/{name}"),
        range.clone(),
    ));
    let Some(data) = files.get(&name) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let len = data.len();
    let wanted = range.as_deref().and_then(|r| {
        let (a, b) = r.strip_prefix("bytes=")?.split_once('-')?;
        let a: usize = a.parse().ok()?;
        let b: usize = b.parse::<usize>().ok()?.min(len.checked_sub(1)?);
        (a <= b).then_some((a, b))
    });
    match wanted {
        Some((a, b)) => (
            StatusCode::PARTIAL_CONTENT,
            [
                (header::CONTENT_RANGE, format!("bytes {a}-{b}/{len}")),
                (header::CONTENT_LENGTH, (b - a + 1).to_string()),
            ],
            data[a..=b].to_vec(),
        )
            .into_response(),
        None => ([(header::CONTENT_LENGTH, len.to_string())], data.clone()).into_response(),
    }
}
