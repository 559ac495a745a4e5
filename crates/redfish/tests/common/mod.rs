//! Test helpers: sushy-tools' emulator (`bootsmith_sim::sushy`), and a loopback media server
//! that records what was fetched.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

// Each test binary uses part of this module.
#[allow(unused_imports)]
pub use bootsmith_sim::sushy::{free_port, Sushy};

/// A loopback HTTP server for media files that records every request path it answered.
pub struct MediaServer {
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    /// Paths requested, in order (with the method: `GET /m/boot.iso`).
    pub log: Arc<Mutex<Vec<String>>>,
}

/// Serve `files` (path → bytes) on a free loopback port.
pub async fn media_server(files: Vec<(&'static str, Vec<u8>)>) -> MediaServer {
    use axum::extract::{Request, State};
    use axum::http::StatusCode;
    use axum::response::IntoResponse;

    type Shared = (Arc<Vec<(&'static str, Vec<u8>)>>, Arc<Mutex<Vec<String>>>);
    async fn serve(State((files, log)): State<Shared>, req: Request) -> impl IntoResponse {
        let path = req.uri().path().to_owned();
        log.lock().unwrap().push(format!("{} {path}", req.method()));
        match files.iter().find(|(p, _)| *p == path) {
            Some((_, body)) => (StatusCode::OK, body.clone()).into_response(),
            None => StatusCode::NOT_FOUND.into_response(),
        }
    }
    let log = Arc::new(Mutex::new(Vec::new()));
    let app = axum::Router::new()
        .fallback(serve)
        .with_state((Arc::new(files), log.clone()));
    let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0)))
        .await
        .unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    MediaServer { url, log }
}
pub mod fake;
