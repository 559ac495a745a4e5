//! Background jobs (image creation, deploy): follow one's events as Server-Sent Events, and
//! the answer the long-work handlers give (listing and reading jobs are in the table of actions).

use std::convert::Infallible;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::Json as Reply;
use bootsmith_core::jobs::{self, JobEventRecord, JobId, JobState};
use futures::Stream;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::error::{job_failed, ApiError, ApiResult, ErrorBody};
use crate::extract::Path;
use crate::ApiState;

/// This module's routes, added to `r` (each path's methods together).
pub(super) fn routes(r: OpenApiRouter<ApiState>) -> OpenApiRouter<ApiState> {
    r.routes(routes!(events))
}

/// The `Last-Event-ID` header, for the document.
struct LastEventId;

impl utoipa::PartialSchema for LastEventId {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
        bootsmith_model::schema::last_event_id().into()
    }
}

impl ToSchema for LastEventId {}

/// A job's Server-Sent Events stream, for the document: any value, described in words.
/// Generated clients then hand the stream over as text (a JSON schema made them parse it as
/// one object), and validators that read the schema as that of each event (Schemathesis, as
/// OpenAPI before 3.2 does) accept the events.
struct SseEvent;

impl utoipa::PartialSchema for SseEvent {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, SchemaType};
        ObjectBuilder::new()
            .schema_type(SchemaType::AnyValue)
            .description(Some(
                "Server-Sent Events: per event the lines `event: <step|bytes|finished>`, `id: <seq>` and `data: <a JobEventRecord as JSON>`, then an empty line",
            ))
            .into()
    }
}

impl ToSchema for SseEvent {}

/// The answer of long work started with `?wait=false`: where to follow it.
#[derive(Debug, Serialize, ToSchema)]
pub struct JobAccepted {
    /// The job's id.
    pub job: JobId,
    /// Its Server-Sent Events stream.
    pub events: String,
    /// The job itself (also in the `Location` header).
    pub status: String,
}

/// `?wait=`: whether a long-work request answers when the work is done (the
/// default, as the seed's synchronous clients expect) or at once with the job id.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct WaitQuery {
    /// `false` answers `202` with the job id at once; absent or `true` waits for the result.
    pub wait: Option<bool>,
}

impl WaitQuery {
    /// Whether to wait for the job.
    pub fn wait(&self) -> bool {
        self.wait.unwrap_or(true)
    }
}

/// The job's events as Server-Sent Events: the history, then live ones, closing after `finished`.
/// Each has `event:` = its type (`step`, `bytes`, `finished`), `id:` = its seq and `data:` = the JSON record.
/// With `Last-Event-ID` only later events are sent. Byte progress arrives at most ~10 times a second per step and host.
#[utoipa::path(get, path = "/api/v2/jobs/{id}/events", tag = "jobs", operation_id = "stream_job_events",
    params(("id" = String, Path, description = "Job id"),
        ("Last-Event-ID" = inline(Option<LastEventId>), Header, description = "Resume after this seq")),
    responses(
        (status = 200, content_type = "text/event-stream", body = inline(SseEvent),
            description = "A Server-Sent Events stream (the schema is that of one event). Each event has `event:` = its type (`step`, `bytes` or `finished`), `id:` = its seq, and `data:` = one job event record as JSON (the `JobEventRecord` schema); comment lines keep the connection alive. The stream ends after `finished`."),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody, description = "No such job (`unknown_job`)")))]
pub async fn events(
    State(s): State<ApiState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Sse<impl Stream<Item = Result<Event, Infallible>>>> {
    let after = last_event_id(&headers)?;
    let watch = jobs::watch(&s.app, id.parse()?, after).await?;
    let stream = futures::stream::unfold(watch, |mut w| async move {
        let record = w.next().await?;
        Some((Ok(sse_event(&record)), w))
    });
    // Keep-alive comments stop proxies from closing a stream that is quiet during a long step.
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

fn last_event_id(headers: &HeaderMap) -> ApiResult<Option<u64>> {
    const NAME: &str = "last-event-id";
    let Some(v) = headers.get(NAME) else {
        return Ok(None);
    };
    let bad = |reason: &str| ApiError::BadHeader {
        name: "Last-Event-ID",
        reason: reason.to_owned(),
    };
    let text = v.to_str().map_err(|_| bad("it is not text"))?.trim();
    // An EventSource that never got an id sends an empty one: start from the beginning.
    if text.is_empty() {
        return Ok(None);
    }
    text.parse()
        .map(Some)
        .map_err(|_| bad("expected the number of the last event received"))
}

fn sse_event(record: &JobEventRecord) -> Event {
    let event = Event::default()
        .event(record.kind())
        .id(record.seq.to_string());
    event.json_data(record).unwrap_or_else(|e| {
        tracing::error!(error = %e, seq = record.seq, "a job event could not be written as JSON");
        Event::default().comment("an event could not be written")
    })
}

/// The answer of a handler that started `job_id`: when `wait`, the job's result
/// (200) or its error under the error's status, as the synchronous call answered;
/// otherwise `202 Accepted` with where to follow the job. The job runs on when
/// a waiting client goes away.
pub(crate) async fn run_or_wait(state: &ApiState, job_id: JobId, wait: bool) -> Response {
    if !wait {
        let status = format!("/api/v2/jobs/{job_id}");
        return (
            StatusCode::ACCEPTED,
            [(header::LOCATION, status.clone())],
            Reply(JobAccepted {
                job: job_id,
                events: format!("{status}/events"),
                status,
            }),
        )
            .into_response();
    }
    match jobs::wait(&state.app, job_id).await {
        Ok(job) => match (job.state, job.error) {
            (JobState::Failed, Some(e)) => job_failed(job_id, e),
            _ => Reply(job.result.unwrap_or_default()).into_response(),
        },
        Err(e) => ApiError::Core(e).into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bootsmith_core::testing::TempApp;
    use bootsmith_core::Error;
    use http_body_util::BodyExt;
    use serde_json::{json, Value};

    async fn state() -> (tempfile::TempDir, ApiState) {
        let TempApp { app, dir } = TempApp::new().await;
        let state = ApiState::new(app, false).await.unwrap();
        (dir, state)
    }

    async fn body(r: Response) -> (StatusCode, Option<String>, Value) {
        let status = r.status();
        let location = r
            .headers()
            .get(header::LOCATION)
            .map(|v| v.to_str().unwrap().to_owned());
        let bytes = r.into_body().collect().await.unwrap().to_bytes();
        (status, location, serde_json::from_slice(&bytes).unwrap())
    }

    #[tokio::test]
    async fn waiting_answers_the_result_or_the_error_with_its_status() {
        let (_d, s) = state().await;
        let ok = jobs::start(
            &s.app,
            bootsmith_core::jobs::JobKind::Images,
            None,
            |_| async { Ok(json!({"built": 2})) },
        )
        .await
        .unwrap();
        let (status, _, v) = body(run_or_wait(&s, ok, true).await).await;
        assert_eq!((status, v), (StatusCode::OK, json!({"built": 2})));

        let bad = jobs::start(
            &s.app,
            bootsmith_core::jobs::JobKind::Images,
            None,
            |_| async {
                Err::<Value, _>(Error::conflict(
                    bootsmith_model::ErrorCode::InUse,
                    "the thing is in use right now",
                ))
            },
        )
        .await
        .unwrap();
        let (status, _, v) = body(run_or_wait(&s, bad, true).await).await;
        assert_eq!(status, StatusCode::CONFLICT);
        assert_eq!(
            v,
            json!({"error": "the thing is in use right now", "code": "in_use", "job": bad.to_string()})
        );
    }

    #[tokio::test]
    async fn not_waiting_answers_202_with_where_to_follow() {
        let (_d, s) = state().await;
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let id = jobs::start(
            &s.app,
            bootsmith_core::jobs::JobKind::Images,
            None,
            |_| async move {
                let _ = rx.await;
                Ok(json!(null))
            },
        )
        .await
        .unwrap();
        let (status, location, v) = body(run_or_wait(&s, id, false).await).await;
        assert_eq!(status, StatusCode::ACCEPTED);
        assert_eq!(location, Some(format!("/api/v2/jobs/{id}")));
        assert_eq!(
            v,
            json!({"job": id.to_string(), "events": format!("/api/v2/jobs/{id}/events"), "status": format!("/api/v2/jobs/{id}")})
        );
        tx.send(()).unwrap();
    }

    #[test]
    fn wait_defaults_to_true() {
        assert!(WaitQuery::default().wait());
        assert!(!WaitQuery { wait: Some(false) }.wait());
    }
}
