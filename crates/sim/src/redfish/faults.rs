//! Faults a Redfish simulator injects in front of every persona, as a fault proxy would: slow
//! answers, 503s with `Retry-After`, dropped connections, sessions that die mid-flow, and
//! actions answered through a task monitor (202 + `Location`) instead of at once.

use std::time::Duration;

use axum::body::Body;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::Response;
use rand::Rng;

use super::errors::error;

/// What to inject. The default injects nothing.
#[derive(Debug, Clone, Default)]
pub struct RedfishFaults {
    /// Added to every request (the benchmark runs BMCs at 50 ms).
    pub latency: Duration,
    /// Share of requests answered with HTTP 503 (0.0–1.0).
    pub error_rate: f64,
    /// Answer the next this-many requests with HTTP 503 (deterministic, for tests).
    pub fail_next: u32,
    /// Seconds put in `Retry-After` on every injected 503 (None: no header).
    pub retry_after: Option<u64>,
    /// Share of requests whose connection is dropped mid-answer (0.0–1.0).
    pub drop_rate: f64,
    /// Drop the connection of the next this-many requests (deterministic, for tests).
    pub drop_next: u32,
    /// Sessions expire this long after they were created: their token then gets 401.
    pub session_ttl: Option<Duration>,
    /// A session's token gets 401 after it was used for this many requests.
    pub session_requests: Option<u32>,
    /// Actions (InsertMedia, EjectMedia, Reset, SecureErase) answer 202 with `Location` of a
    /// task monitor, which answers 202 with `Retry-After` this many times, then performs the
    /// action and answers with its result. 0: actions answer at once.
    pub task_polls: u32,
}

/// What the faults decided for one request.
pub(crate) enum Injected {
    /// Answer normally.
    None,
    /// Answer 503 (with this `Retry-After`).
    Unavailable(Option<u64>),
    /// Send the headers, then cut the connection.
    Drop,
}

impl RedfishFaults {
    /// Decide this request's fault, counting down the deterministic ones.
    pub(crate) fn draw(&mut self) -> Injected {
        if self.fail_next > 0 {
            self.fail_next -= 1;
            return Injected::Unavailable(self.retry_after);
        }
        if self.drop_next > 0 {
            self.drop_next -= 1;
            return Injected::Drop;
        }
        let mut rng = rand::thread_rng();
        if rng.gen_bool(self.error_rate.clamp(0.0, 1.0)) {
            return Injected::Unavailable(self.retry_after);
        }
        if rng.gen_bool(self.drop_rate.clamp(0.0, 1.0)) {
            return Injected::Drop;
        }
        Injected::None
    }
}

/// An injected 503, with a Redfish error body.
pub(crate) fn unavailable(base: &str, retry_after: Option<u64>) -> Response {
    let mut r = error(
        StatusCode::SERVICE_UNAVAILABLE,
        &format!("{base}.ServiceTemporarilyUnavailable"),
        "The service is temporarily unavailable (injected). Retry in a moment.",
    );
    if let Some(s) = retry_after {
        r.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(s));
    }
    r
}

/// Headers go out, then the body fails: the client sees the connection die mid-answer.
pub(crate) fn dropped() -> Response {
    let broken = futures::stream::once(async {
        Err::<axum::body::Bytes, _>(std::io::Error::other("injected drop"))
    });
    Response::builder()
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from_stream(broken))
        .expect("static response")
}
