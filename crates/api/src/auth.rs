//! Bearer-token check for every `/api/*` route.

use axum::extract::{Request, State};
use axum::http::header::AUTHORIZATION;
use axum::middleware::Next;
use axum::response::Response;

use crate::error::ApiError;
use crate::ApiState;

/// Whether requests must carry the API token.
#[derive(Debug, Clone)]
pub enum Auth {
    /// Every `/api/*` request needs `Authorization: Bearer <token>`; the stored token is read
    /// each time, so `bootsmith token --regenerate` takes effect at once.
    Token,
    /// `--no-auth`: anyone who can reach the port may change everything.
    Disabled,
}

/// Middleware: refuse `/api/*` requests without the right token.
pub async fn require_token(
    State(state): State<ApiState>,
    req: Request,
    next: Next,
) -> Result<Response, ApiError> {
    if let Auth::Token = state.auth {
        let presented = req
            .headers()
            .get(AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| {
                v.strip_prefix("Bearer ")
                    .or_else(|| v.strip_prefix("bearer "))
            })
            .map(str::trim);
        let Some(presented) = presented else {
            return Err(ApiError::Unauthorized(
                "this request needs the API token: send 'Authorization: Bearer <token>' (run 'bootsmith token' to see it)",
            ));
        };
        if !bootsmith_core::auth::check(&state.app, presented).await? {
            // Who tried what, never what they sent.
            tracing::warn!(method = %req.method(), path = req.uri().path(), "a request with a wrong API token was refused");
            return Err(ApiError::Unauthorized("the API token is wrong"));
        }
    }
    Ok(next.run(req).await)
}
