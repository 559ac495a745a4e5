//! Jobs over HTTP: a job started through the core on the server's own `App`,
//! read back as JSON and followed as Server-Sent Events.

mod common;

use std::time::Duration;

use bootsmith_core::jobs::{self, JobId, JobStep, StepState};
use bootsmith_model::ErrorCode;
use common::*;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use tokio::sync::oneshot;

/// One parsed SSE message.
#[derive(Debug)]
struct Sse {
    event: String,
    id: u64,
    data: Value,
}

/// A job that reports a step and byte progress, then waits for the sender before it ends.
async fn gated(s: &Server) -> (JobId, oneshot::Sender<()>) {
    let (tx, rx) = oneshot::channel::<()>();
    let id = jobs::start(
        &s.app,
        bootsmith_core::jobs::JobKind::Images,
        Some("pod1".into()),
        |ctx| async move {
            ctx.step(Some("h1"), JobStep::Extract, StepState::Started, None);
            ctx.bytes(JobStep::Extract, Some("h1"), 10, 100);
            ctx.bytes(JobStep::Extract, Some("h1"), 100, 100);
            ctx.step(Some("h1"), JobStep::Extract, StepState::Done, None);
            let _ = rx.await;
            ctx.step(
                Some("h2"),
                JobStep::AnswerImage,
                StepState::Skipped,
                Some("up to date"),
            );
            Ok(json!({"built": ["h1"]}))
        },
    )
    .await
    .unwrap();
    (id, tx)
}

/// GET the event stream, with `Last-Event-ID` when given.
fn events<'a>(s: &'a Server, id: &str, last: Option<&str>) -> Call<'a> {
    let req = s
        .request(Method::GET, &format!("/api/v2/jobs/{id}/events"))
        .token();
    match last {
        Some(l) => req.header("last-event-id", l),
        None => req,
    }
}

/// Open the event stream on a listening server, to read it as it comes.
async fn stream(s: &Server, id: &str, last: Option<&str>) -> reqwest::Response {
    events(s, id, last).open().await
}

async fn read_sse(resp: reqwest::Response) -> Vec<Sse> {
    assert_eq!(resp.status(), StatusCode::OK);
    assert_eq!(
        resp.headers()["content-type"].to_str().unwrap(),
        "text/event-stream"
    );
    // The stream closes after `finished`; a hang here is a failure.
    let text = tokio::time::timeout(Duration::from_secs(10), resp.text())
        .await
        .expect("the stream ends after finished")
        .unwrap();
    text.split("\n\n")
        .filter(|block| block.lines().any(|l| l.starts_with("data:")))
        .map(|block| {
            let field = |name: &str| {
                block
                    .lines()
                    .find_map(|l| l.strip_prefix(name))
                    .map(|v| v.strip_prefix(' ').unwrap_or(v).to_owned())
                    .unwrap_or_else(|| panic!("no {name} in {block:?}"))
            };
            Sse {
                event: field("event:"),
                id: field("id:").parse().unwrap(),
                data: serde_json::from_str(&field("data:")).unwrap(),
            }
        })
        .collect()
}

#[tokio::test]
async fn a_job_is_listed_read_and_streamed_to_its_end() {
    // Listening: the stream is read over HTTP while the job runs.
    let s = Server::listening().await;
    let (id, go) = gated(&s).await;
    let id_text = id.to_string();

    let (status, list) = s.get("/api/v2/jobs").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(list["jobs"][0]["id"], id_text.as_str());
    assert_eq!(list["jobs"][0]["kind"], "images");
    assert_eq!(list["jobs"][0]["scope"], "pod1");
    assert_eq!(list["jobs"][0]["state"], "running");
    assert!(list["jobs"][0].get("events").is_none(), "{list}");

    // Opened while the job runs: the history first, then what happens live.
    let resp = stream(&s, &id_text, None).await;
    let (status, job) = s.get(&format!("/api/v2/jobs/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(job["state"], "running");
    assert!(job["created_at"].as_str().unwrap().ends_with('Z'));
    go.send(()).unwrap();
    let events = read_sse(resp).await;

    let names: Vec<&str> = events.iter().map(|e| e.event.as_str()).collect();
    assert_eq!(names, ["step", "bytes", "step", "step", "finished"]);
    let ids: Vec<u64> = events.iter().map(|e| e.id).collect();
    // Seq 2 was the first byte count, replaced in the history by the final one (3).
    assert_eq!(ids, [1, 3, 4, 5, 6]);
    for e in &events {
        assert_eq!(e.data["seq"], e.id);
        assert_eq!(e.data["type"], e.event.as_str());
    }
    assert_eq!(
        events[1].data,
        json!({"seq": 3, "type": "bytes", "step": "extract", "host": "h1", "done": 100, "total": 100})
    );
    assert_eq!(
        events[3].data,
        json!({"seq": 5, "type": "step", "host": "h2", "step": "answer-image", "state": "skipped", "message": "up to date"})
    );
    assert_eq!(
        events[4].data,
        json!({"seq": 6, "type": "finished", "state": "succeeded", "result": {"built": ["h1"]}})
    );

    let (status, job) = s.get(&format!("/api/v2/jobs/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(job["state"], "succeeded");
    assert_eq!(job["result"], json!({"built": ["h1"]}));
    assert!(job["finished_at"].is_string());
    assert_eq!(job["events"].as_array().unwrap().len(), 5);

    // After the end the stream replays everything and closes.
    let again = read_sse(stream(&s, &id_text, None).await).await;
    assert_eq!(again.len(), 5);
    assert_eq!(again.last().unwrap().event, "finished");
}

#[tokio::test]
async fn last_event_id_resumes_after_it() {
    // Listening: event streams over HTTP.
    let s = Server::listening().await;
    let (id, go) = gated(&s).await;
    go.send(()).unwrap();
    jobs::wait(&s.app, id).await.unwrap();
    let id_text = id.to_string();

    let resumed = read_sse(stream(&s, &id_text, Some("4")).await).await;
    let ids: Vec<u64> = resumed.iter().map(|e| e.id).collect();
    assert_eq!(ids, [5, 6]);
    assert_eq!(resumed[1].event, "finished");
    // Past the end: nothing left to send, the stream just closes.
    assert!(read_sse(stream(&s, &id_text, Some("6")).await)
        .await
        .is_empty());

    let bad = events(&s, &id_text, Some("soon")).read().await;
    assert_error(&bad, 400, "malformed_header");
}

#[tokio::test]
async fn unknown_or_malformed_ids_are_404_and_the_token_is_required() {
    let s = Server::start().await;
    let nobody = "0b6c3f8e-3d53-4d4c-9a6a-2f1d7c1f9e11";
    assert_error(
        &s.get(&format!("/api/v2/jobs/{nobody}")).await,
        404,
        "unknown_job",
    );
    assert_error(&s.get("/api/v2/jobs/not-a-job").await, 404, "unknown_job");
    let r = events(&s, nobody, None).read().await;
    assert_error(&r, 404, "unknown_job");

    let (id, go) = gated(&s).await;
    for path in [
        "/api/v2/jobs".to_owned(),
        format!("/api/v2/jobs/{id}"),
        format!("/api/v2/jobs/{id}/events"),
    ] {
        let r = s.request(Method::GET, &path).read().await;
        assert_error(&r, 401, "unauthorized");
    }
    go.send(()).unwrap();
}

#[tokio::test]
async fn a_second_job_for_the_same_scope_is_refused_while_the_first_runs() {
    let s = Server::start().await;
    let (id, go) = gated(&s).await;
    let e = jobs::start(
        &s.app,
        bootsmith_core::jobs::JobKind::Images,
        Some("pod1".into()),
        |_| async { Ok(json!(null)) },
    )
    .await
    .unwrap_err();
    // The one status mapping: what the REST API would answer for it.
    assert_eq!(
        (e.code().as_str(), e.kind().http_status()),
        ("job_running", 409)
    );
    assert!(e.to_string().contains(&id.to_string()));
    go.send(()).unwrap();
}

#[tokio::test]
async fn recent_jobs_are_still_listed_after_a_restart() {
    // What the overview's "Recent jobs" reads: jobs that ended before the app stopped.
    let s = Server::start().await;
    let ok = jobs::start(
        &s.app,
        bootsmith_core::jobs::JobKind::Deploy,
        Some("pod-east".into()),
        |ctx| async move {
            ctx.step(
                Some("kube01"),
                JobStep::ServiceProfile,
                StepState::Done,
                None,
            );
            Ok(json!({"server_group": "pod-east"}))
        },
    )
    .await
    .unwrap();
    jobs::wait(&s.app, ok).await.unwrap();
    let failed = jobs::start(
        &s.app,
        bootsmith_core::jobs::JobKind::Images,
        None,
        |_| async move {
            Err::<serde_json::Value, _>(bootsmith_core::Error::bad(
                ErrorCode::ImagesNotReady,
                "Images cannot be made yet: svc_ip: set the boot-server address first",
            ))
        },
    )
    .await
    .unwrap();
    jobs::wait(&s.app, failed).await.unwrap();

    let dir = s.stop().await;
    let s = Server::start_in(dir, true).await;
    let (status, list) = s.get("/api/v2/jobs").await;
    assert_eq!(status, StatusCode::OK);
    let jobs = list["jobs"].as_array().unwrap();
    let find = |id: JobId| {
        jobs.iter()
            .find(|j| j["id"] == id.to_string().as_str())
            .unwrap_or_else(|| panic!("job {id} is not listed after a restart: {list}"))
    };
    let (ok, failed) = (find(ok), find(failed));
    assert_eq!(ok["kind"], "deploy");
    assert_eq!(ok["scope"], "pod-east");
    assert_eq!(ok["state"], "succeeded");
    assert_eq!(failed["state"], "failed");
    assert_eq!(failed["error"]["code"], "images_not_ready");
    // Newest first, as the overview shows them.
    assert_eq!(jobs[0]["id"], failed["id"]);
}
