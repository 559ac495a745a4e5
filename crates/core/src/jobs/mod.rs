//! Long work as jobs: image creation and deploy run in the background and
//! report per-step, per-host progress, so a caller gets a job id at once and
//! follows the events (Tauri channel in the app, Server-Sent Events on REST).
//!
//! A running job lives in the [`Jobs`] registry the [`App`] holds (with the last
//! [`KEEP_FINISHED`] finished ones), and everything it reports is also written, in order,
//! by one writer task into the store (`store::jobs`), so jobs are listed and read after a
//! restart. A job the store still has as running when the app opens was cut off by the
//! process's end: [`open`] marks it `interrupted`, with the events it had reported. The
//! store keeps the last [`KEEP_STORED`] jobs.

mod registry;
mod writer;

use std::collections::VecDeque;
use std::future::Future;
use std::sync::Arc;

use tokio::sync::broadcast;

use crate::app::App;
use crate::error::Result;
pub use bootsmith_model::job::*;
use bootsmith_store as store;
use registry::{lock, Shared};
pub use registry::{JobCtx, JobWatch, Jobs};
pub use writer::open;

/// Start `work` in the background as a job of `kind` about `scope` and answer its id at once.
///
/// Refused with 409 `job_running` while a job of the same kind and scope runs.
/// Whatever happens to the work (error, panic) the job ends with a `finished` event.
/// The work hands back a result (`serde_json::Value`), or a [`JobOutput`] that also says
/// whether some hosts failed.
pub async fn start<F, Fut, R>(
    app: &App,
    kind: JobKind,
    scope: Option<String>,
    work: F,
) -> Result<JobId>
where
    F: FnOnce(JobCtx) -> Fut + Send + 'static,
    Fut: Future<Output = Result<R>> + Send + 'static,
    R: Into<JobOutput> + Send + 'static,
{
    let shared = app.jobs().insert(kind, scope)?;
    let id = shared.id;
    tracing::info!(job = %id, kind = kind.as_str(), scope = shared.scope.as_deref(), "job started");
    let ctx = JobCtx {
        shared: shared.clone(),
    };
    let app = app.clone();
    tokio::spawn(async move {
        // A task of its own, so a panic in the work comes back here as a JoinError
        // instead of leaving the job running for ever.
        let outcome = match tokio::spawn(async move { work(ctx).await }).await {
            Ok(Ok(value)) => {
                let output: JobOutput = value.into();
                if output.with_failures {
                    tracing::warn!(job = %id, "job finished with failures");
                } else {
                    tracing::info!(job = %id, "job succeeded");
                }
                Ok(output)
            }
            Ok(Err(e)) => {
                tracing::warn!(job = %id, code = %e.code(), error = %e, "job failed");
                Err(job_error(&e))
            }
            Err(e) => {
                let why = if e.is_panic() {
                    let p = e.into_panic();
                    p.downcast_ref::<String>()
                        .cloned()
                        .or_else(|| p.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                        .unwrap_or_else(|| "unknown panic".to_owned())
                } else {
                    "the runtime is shutting down".to_owned()
                };
                tracing::error!(job = %id, panic = why, "job crashed");
                Err(crashed())
            }
        };
        shared.finish(outcome);
        app.jobs().prune();
    });
    Ok(id)
}

/// The job with its history; 404 `unknown_job` when there is none.
pub async fn get(app: &App, id: JobId) -> Result<Job> {
    Ok(find(app, id).await?.job())
}

/// The job `id`: in memory while it runs and for a while after, else as the store has it.
async fn find(app: &App, id: JobId) -> Result<Arc<Shared>> {
    if let Ok(shared) = app.jobs().find(id) {
        return Ok(shared);
    }
    match store::jobs::get(app.store(), &id.to_string()).await? {
        Some(job) => Ok(Arc::new(Shared::ended(job))),
        None => Err(unknown_job(id)),
    }
}

/// The most recent jobs (running ones, this run's and earlier runs' up to [`KEEP_FINISHED`]),
/// most recent first, without the histories.
pub async fn list(app: &App) -> Result<Vec<JobSummary>> {
    let live: Vec<JobSummary> = lock(&app.jobs().list)
        .iter()
        .rev()
        .map(|j| j.summary())
        .collect();
    let stored = store::jobs::list(app.store().reader(), KEEP_FINISHED).await?;
    let earlier: Vec<JobSummary> = stored
        .into_iter()
        .filter(|s| !live.iter().any(|l| l.id == s.id))
        .collect();
    let (mut all, mut ended): (Vec<JobSummary>, Vec<JobSummary>) = earlier
        .into_iter()
        .chain(live)
        .partition(|j| j.state == JobState::Running);
    ended.sort_by_key(|j| std::cmp::Reverse(j.created_at));
    ended.truncate(KEEP_FINISHED);
    all.extend(ended);
    all.sort_by_key(|j| std::cmp::Reverse(j.created_at));
    Ok(all)
}

/// The job once it has ended.
pub async fn wait(app: &App, id: JobId) -> Result<Job> {
    let shared = find(app, id).await?;
    let mut done = shared.done.subscribe();
    // The sender lives in `shared`, which we hold, so this only returns once the job ended.
    let _ = done.wait_for(|d| *d).await;
    Ok(shared.job())
}

/// The history so far and a receiver of every later event, taken atomically:
/// the receiver's first event is the one after the history's last.
pub async fn subscribe(
    app: &App,
    id: JobId,
) -> Result<(Vec<JobEventRecord>, broadcast::Receiver<JobEventRecord>)> {
    Ok(find(app, id).await?.subscribe())
}

/// Every event of the job with a seq above `after` (all when `None`), the
/// history first and then live, ending with `finished`: what the SSE stream and
/// the window's channel send.
pub async fn watch(app: &App, id: JobId, after: Option<u64>) -> Result<JobWatch> {
    let shared = find(app, id).await?;
    let mut w = JobWatch {
        shared,
        backlog: VecDeque::new(),
        rx: None,
        last: after.unwrap_or(0),
        ended: false,
    };
    w.resync();
    Ok(w)
}

#[cfg(test)]
mod tests;
