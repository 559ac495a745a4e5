//! `/ui/`: the web interface for a plain browser, the same files the desktop window shows.
//! The files are static and public (like `/`); everything they read goes through `/api/*`,
//! which wants the token.

use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};

use crate::error::ApiError;
use crate::ApiState;

/// Looks up a file of the web interface by its path below `/ui/` (`index.html`, `assets/…`).
pub type Assets = fn(&str) -> Option<&'static [u8]>;

/// `/ui` → `/ui/`, so the page's relative asset paths resolve.
pub async fn to_index() -> Redirect {
    Redirect::permanent("/ui/")
}

/// The window's page, for a browser.
pub async fn index(State(s): State<ApiState>) -> Response {
    serve(&s, "index.html")
}

/// One of its files.
pub async fn file(State(s): State<ApiState>, Path(path): Path<String>) -> Response {
    serve(&s, &path)
}

fn serve(s: &ApiState, path: &str) -> Response {
    let Some(assets) = s.ui else {
        return ApiError::UiNotBuilt.into_response();
    };
    let Some(body) = assets(path) else {
        return ApiError::NoRoute(format!("/ui/{path}")).into_response();
    };
    // Vite names built files by content hash, so they never change; the page itself may.
    let cache = if path.starts_with("assets/") {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, content_type(path)),
            (header::CACHE_CONTROL, cache),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'self'; style-src 'self' 'unsafe-inline'",
            ),
        ],
        body,
    )
        .into_response()
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        Some("json") => "application/json",
        Some("woff2") => "font/woff2",
        _ => "application/octet-stream",
    }
}
