//! Bootsmith's REST API: the seed's paths over the core's service functions.
//! Handlers only translate between HTTP and the core.

pub mod actions;
pub mod auth;
pub mod cors;
mod doc;
pub mod error;
pub mod extract;
mod routes;
pub mod svc;
pub mod ui;
pub mod wire;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, Request};
use axum::http::Method;
use axum::response::{IntoResponse, Response};
use axum::Router;
use bootsmith_core::App;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::trace::TraceLayer;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;

pub use auth::Auth;
pub use error::{ApiError, ErrorBody};

/// What every handler gets.
#[derive(Debug, Clone)]
pub struct ApiState {
    /// The core every handler calls.
    pub app: App,
    /// Token check.
    pub auth: Auth,
    /// The web interface's files for `/ui/`, when this build has them.
    pub ui: Option<ui::Assets>,
    /// Origins whose browser pages may call the API (none: same origin only).
    pub cors: Vec<cors::CorsOrigin>,
    /// The program's build (commit and date), which `GET /` reports beside the version.
    pub build: &'static str,
    /// The body of `GET /api/v2/hosts` as last made, remade when the store changed.
    pub(crate) hosts_body: Arc<bootsmith_store::Snapshot<axum::body::Bytes>>,
}

impl ApiState {
    /// State with token auth (loading or creating the token) or with auth off.
    pub async fn new(app: App, require_token: bool) -> bootsmith_core::Result<Self> {
        let auth = if require_token {
            bootsmith_core::auth::token(&app).await?;
            Auth::Token
        } else {
            tracing::warn!("API authentication is OFF (--no-auth): anyone who can reach this port can read and change every record");
            Auth::Disabled
        };
        Ok(ApiState {
            app,
            auth,
            ui: None,
            cors: Vec::new(),
            build: "unknown",
            hosts_body: Default::default(),
        })
    }

    /// Report `build` (the program's commit and date) in `GET /`.
    pub fn with_build(self, build: &'static str) -> Self {
        ApiState { build, ..self }
    }

    /// Let browser pages from `origins` call the API.
    pub fn with_cors(self, origins: Vec<cors::CorsOrigin>) -> Self {
        if !origins.is_empty() {
            tracing::info!(origins = ?origins, "cross-origin requests allowed");
        }
        ApiState {
            cors: origins,
            ..self
        }
    }

    /// Serve the web interface from `assets` under `/ui/`.
    pub fn with_ui(self, assets: ui::Assets) -> Self {
        ApiState {
            ui: Some(assets),
            ..self
        }
    }
}

#[derive(OpenApi)]
#[openapi(
    info(title = "Bootsmith API", description = "Prepare and deploy operating-system installs on bare-metal servers. \
        Every `/api/*` call needs `Authorization: Bearer <token>`; `GET /` and `/svc/*` do not. \
        Any call can also fail with `500 internal_error` when the data directory cannot be read or written."),
    paths(routes::status::status, svc::get_file, svc::head_file, openapi_document),
    modifiers(&SecurityAddon),
    security(("bearer" = []))
)]
struct ApiDoc;

/// `GET /api/openapi.json`, for the document only: the route serves the document built here.
/// Open like `GET /`: it holds no secrets, and client generators read it by URL.
#[utoipa::path(get, path = "/api/openapi.json", tag = "openapi", operation_id = "get_openapi_document",
    security(()),
    responses((status = 200, body = Object, description = "This document (OpenAPI 3.1), served without the API token")))]
#[allow(dead_code)]
fn openapi_document() {}

struct SecurityAddon;

impl utoipa::Modify for SecurityAddon {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
        openapi
            .components
            .get_or_insert_with(Default::default)
            .add_security_scheme(
                "bearer",
                SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
            );
    }
}

/// The `/api` routes that need the API token, those that do not (the installers'
/// callbacks), and the OpenAPI document of the whole service (`/` and `/svc` too).
fn api_routes() -> (Router<ApiState>, Router<ApiState>, utoipa::openapi::OpenApi) {
    let (router, mut doc) =
        routes::register(OpenApiRouter::with_openapi(ApiDoc::openapi())).split_for_parts();
    let (open, open_doc) = routes::callbacks::register(OpenApiRouter::new()).split_for_parts();
    doc.merge(open_doc);
    doc::complete(&mut doc);
    (router, open, doc)
}

/// The OpenAPI document of the API.
pub fn openapi() -> utoipa::openapi::OpenApi {
    api_routes().2
}

/// The whole HTTP service.
pub fn router(state: ApiState) -> Router {
    let (api, callbacks, doc) = api_routes();
    let doc = Arc::new(doc);
    let cors = (!state.cors.is_empty()).then(|| cors::layer(&state.cors));
    let api = api.route_layer(axum::middleware::from_fn_with_state(
        state.clone(),
        auth::require_token,
    ));
    Router::new()
        .route("/", axum::routing::get(routes::status::status))
        .route(
            "/api/openapi.json",
            axum::routing::get(move || {
                let doc = doc.clone();
                async move { axum::Json((*doc).clone()) }
            }),
        )
        .route("/svc/{*file}", axum::routing::any(svc::serve))
        .route("/ui", axum::routing::get(ui::to_index))
        .route("/ui/", axum::routing::get(ui::index))
        .route("/ui/{*file}", axum::routing::get(ui::file))
        .merge(api)
        .merge(callbacks)
        .fallback(no_route)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(extract::BODY_LIMIT))
        .layer(CatchPanicLayer::custom(on_panic))
        .layer(TraceLayer::new_for_http().on_failure(()))
        // Outermost, so a preflight is answered before auth or the method check sees it.
        .layer(tower::util::option_layer(cors))
        .with_state(state)
}

async fn no_route(req: Request) -> ApiError {
    ApiError::NoRoute(req.uri().path().to_owned())
}

async fn method_not_allowed(method: Method, req: Request) -> ApiError {
    ApiError::MethodNotAllowed {
        method: method.to_string(),
        path: req.uri().path().to_owned(),
    }
}

fn on_panic(err: Box<dyn std::any::Any + Send + 'static>) -> Response {
    let msg = err
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| err.downcast_ref::<&str>().copied())
        .unwrap_or("unknown panic");
    tracing::error!(panic = msg, "a request handler panicked");
    ApiError::Panic.into_response()
}

/// Serve on `listener` until `shutdown` completes.
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: ApiState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    state.app.set_svc_listener(listener.local_addr()?);
    let app = router(state);
    axum::serve(
        listener,
        app.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown)
    .await
}
