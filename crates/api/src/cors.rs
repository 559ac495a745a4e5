//! Cross-origin access for browser pages served from elsewhere (KUBAM's web UI on its own
//! port): off unless the operator names the origins. Callers authenticate with the bearer
//! token, never cookies, so credentials are not allowed across origins.

use std::time::Duration;

use axum::http::{header, HeaderName, HeaderValue, Method};
use tower_http::cors::{AllowOrigin, CorsLayer};

/// One origin a browser page may call the API from: `scheme://host[:port]`, as browsers send it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CorsOrigin(HeaderValue);

impl CorsOrigin {
    /// Check an origin as given on the command line.
    pub fn parse(s: &str) -> Result<Self, String> {
        let err = || {
            format!("'{s}' is not an origin: give scheme, host and port as a browser sends them, like http://kubam.lab:5000")
        };
        let url = url::Url::parse(s).map_err(|_| err())?;
        let plain = matches!(url.scheme(), "http" | "https")
            && url.host_str().is_some()
            && url.path() == "/"
            && !s.ends_with('/')
            && url.query().is_none()
            && url.fragment().is_none()
            && url.username().is_empty();
        if !plain {
            return Err(err());
        }
        // Browsers send the origin serialised this way (lower-case host, no default port).
        let origin = url.origin().ascii_serialization();
        HeaderValue::from_str(&origin)
            .map(CorsOrigin)
            .map_err(|_| err())
    }
}

/// The layer answering preflights and marking answers for `origins`.
pub(crate) fn layer(origins: &[CorsOrigin]) -> CorsLayer {
    CorsLayer::new()
        .allow_origin(AllowOrigin::list(origins.iter().map(|o| o.0.clone())))
        .allow_methods([Method::GET, Method::POST, Method::PUT, Method::DELETE])
        .allow_headers([
            header::AUTHORIZATION,
            header::CONTENT_TYPE,
            HeaderName::from_static("last-event-id"),
        ])
        .expose_headers([header::LOCATION])
        .max_age(Duration::from_secs(600))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_what_browsers_send() {
        assert_eq!(
            CorsOrigin::parse("http://KUBAM.lab:5000").unwrap().0,
            "http://kubam.lab:5000"
        );
        assert_eq!(
            CorsOrigin::parse("https://ui.lab:443").unwrap().0,
            "https://ui.lab"
        );
        for bad in [
            "*",
            "kubam.lab",
            "http://x/path",
            "http://x/",
            "ftp://x",
            "http://u@x",
        ] {
            assert!(CorsOrigin::parse(bad).is_err(), "{bad}");
        }
    }
}
