//! Long work as jobs: image creation and deploy run in the background and
//! report per-step, per-host progress, so a caller gets a job id at once and
//! follows the events (Tauri channel in the app, Server-Sent Events on REST).
//!
//! Jobs live in memory only, in the [`Jobs`] registry the [`App`] holds: they
//! are not persisted and a restart forgets them. Running jobs are always kept;
//! of the finished ones only the last [`KEEP_FINISHED`] are.

use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::str::FromStr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::sync::{broadcast, watch};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::app::App;
use crate::error::{Error, ErrorBody, Result};

/// How many finished jobs stay readable after they end.
pub const KEEP_FINISHED: usize = 100;

/// Byte progress goes out at most this often per (step, host); the final one always does.
const BYTES_EVERY: Duration = Duration::from_millis(100);

/// Live events a slow subscriber may fall behind by before it resynchronises from the history.
const CHANNEL_CAPACITY: usize = 256;

/// Identifies a job (a UUID v4, written as a string).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, ToSchema)]
#[serde(transparent)]
pub struct JobId(Uuid);

impl JobId {
    fn new() -> Self {
        JobId(Uuid::new_v4())
    }
}

impl std::fmt::Display for JobId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl FromStr for JobId {
    type Err = Error;

    /// A malformed id names no job, so it is a 404 like an unknown one.
    fn from_str(s: &str) -> Result<Self> {
        Uuid::parse_str(s).map(JobId).map_err(|_| unknown_job(s))
    }
}

fn unknown_job(id: impl std::fmt::Display) -> Error {
    Error::not_found(
        "unknown_job",
        format!("there is no job {id} (jobs are kept in memory until a restart, and only the last {KEEP_FINISHED} finished ones)"),
    )
}

/// Where a job is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum JobState {
    /// Still working.
    Running,
    /// Ended with a result.
    Succeeded,
    /// Ended with an error (or crashed).
    Failed,
}

/// Where one step of a job is, for one host or for the whole job.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum StepState {
    /// The step began.
    Started,
    /// The step ended well.
    Done,
    /// The step ended badly.
    Failed,
    /// The step was not needed (e.g. the tree already exists).
    Skipped,
}

/// Why a job failed: the one error body, with the status the failure maps to.
pub type JobError = ErrorBody;

/// A job's failure from the core's error.
fn job_error(e: &Error) -> JobError {
    ErrorBody {
        status: Some(e.kind().http_status()),
        ..ErrorBody::from(e)
    }
}

/// The work panicked or was torn down; what happened goes to the log only, like a panicking request.
fn crashed() -> JobError {
    ErrorBody {
        status: Some(500),
        ..ErrorBody::new(
            "the job hit an internal error; the log has the details",
            "internal_error",
        )
    }
}

/// One thing that happened in a job.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum JobEvent {
    /// A step started or ended, for one host or (without `host`) for the whole job.
    Step {
        /// The host the step is about.
        #[serde(skip_serializing_if = "Option::is_none")]
        host: Option<String>,
        /// What the step does (e.g. `extract`, `service_profile`).
        step: String,
        /// Where it is.
        state: StepState,
        /// A sentence for a person, e.g. why it failed or was skipped.
        #[serde(skip_serializing_if = "Option::is_none")]
        message: Option<String>,
    },
    /// Byte progress of a step. The history keeps only the latest per (step, host).
    Bytes {
        /// The step the bytes belong to.
        step: String,
        /// The host (or OS) the bytes are for.
        #[serde(skip_serializing_if = "Option::is_none")]
        host: Option<String>,
        /// Bytes done so far.
        done: u64,
        /// Bytes in all (may be an estimate).
        total: u64,
    },
    /// The job ended; always the last event.
    Finished {
        /// `succeeded` or `failed`.
        state: JobState,
        /// What the work returned, on success.
        #[serde(skip_serializing_if = "Option::is_none")]
        #[schema(value_type = Option<Object>)]
        result: Option<serde_json::Value>,
        /// Why it failed.
        #[serde(skip_serializing_if = "Option::is_none")]
        error: Option<JobError>,
    },
}

/// An event with its place in the job: `seq` counts up from 1 with every event sent.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct JobEventRecord {
    /// Position of the event; a resuming reader skips what it has already seen by it.
    pub seq: u64,
    /// The event.
    #[serde(flatten)]
    pub event: JobEvent,
}

impl JobEventRecord {
    /// The event's `type` (`step`, `bytes`, `finished`).
    pub fn kind(&self) -> &'static str {
        match self.event {
            JobEvent::Step { .. } => "step",
            JobEvent::Bytes { .. } => "bytes",
            JobEvent::Finished { .. } => "finished",
        }
    }

    /// True for the last event of a job.
    pub fn is_finished(&self) -> bool {
        matches!(self.event, JobEvent::Finished { .. })
    }
}

/// A job with its event history.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Job {
    /// Its id.
    pub id: JobId,
    /// What it does (`images`, `deploy`, …).
    pub kind: String,
    /// What it works on (e.g. the server group), when it is about one thing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    /// Where it is.
    pub state: JobState,
    /// When it started (RFC 3339, UTC).
    pub created_at: String,
    /// When it ended (RFC 3339, UTC).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finished_at: Option<String>,
    /// What the work returned, on success.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub result: Option<serde_json::Value>,
    /// Why it failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<JobError>,
    /// What happened so far, in order (byte progress only the latest per step and host).
    pub events: Vec<JobEventRecord>,
}

/// A job without its history, for lists.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct JobSummary {
    /// Its id.
    pub id: JobId,
    /// What it does.
    pub kind: String,
    /// What it works on, when it is about one thing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    /// Where it is.
    pub state: JobState,
    /// When it started (RFC 3339, UTC).
    pub created_at: String,
    /// When it ended (RFC 3339, UTC).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finished_at: Option<String>,
    /// Why it failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<JobError>,
}

/// The jobs of one [`App`], in memory: see the module documentation.
#[derive(Default)]
pub struct Jobs {
    /// Oldest first.
    list: Mutex<Vec<Arc<Shared>>>,
}

impl std::fmt::Debug for Jobs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Jobs")
            .field("count", &lock(&self.list).len())
            .finish()
    }
}

impl Jobs {
    /// Register a new running job unless one of the same kind and scope runs;
    /// check and insert under one lock so two callers cannot both start.
    fn insert(&self, kind: &str, scope: Option<String>) -> Result<Arc<Shared>> {
        let mut list = lock(&self.list);
        if let Some(other) = list
            .iter()
            .find(|j| j.kind == kind && j.scope == scope && j.is_running())
        {
            let what = match &scope {
                Some(s) => format!("a {kind} job for {s}"),
                None => format!("a {kind} job"),
            };
            return Err(Error::conflict(
                "job_running",
                format!(
                    "{what} is already running (job {}); follow it, or wait for it to end",
                    other.id
                ),
            ));
        }
        let (tx, _) = broadcast::channel(CHANNEL_CAPACITY);
        let shared = Arc::new(Shared {
            id: JobId::new(),
            kind: kind.to_owned(),
            scope,
            created_at: now(),
            data: Mutex::new(Data {
                state: JobState::Running,
                finished_at: None,
                result: None,
                error: None,
                events: Vec::new(),
                next_seq: 1,
                bytes_sent: HashMap::new(),
            }),
            tx,
            done: watch::Sender::new(false),
        });
        list.push(shared.clone());
        Ok(shared)
    }

    fn find(&self, id: JobId) -> Result<Arc<Shared>> {
        lock(&self.list)
            .iter()
            .find(|j| j.id == id)
            .cloned()
            .ok_or_else(|| unknown_job(id))
    }

    /// Forget the oldest finished jobs beyond [`KEEP_FINISHED`].
    fn prune(&self) {
        let mut list = lock(&self.list);
        let mut extra = list
            .iter()
            .filter(|j| !j.is_running())
            .count()
            .saturating_sub(KEEP_FINISHED);
        list.retain(|j| {
            if extra > 0 && !j.is_running() {
                extra -= 1;
                false
            } else {
                true
            }
        });
    }
}

/// One job, shared by the registry, the running work and its watchers.
struct Shared {
    id: JobId,
    kind: String,
    scope: Option<String>,
    created_at: String,
    data: Mutex<Data>,
    /// Live events. Sent under the `data` lock, so the history and the stream never disagree.
    tx: broadcast::Sender<JobEventRecord>,
    /// Flips to true when the job ends, for [`wait`].
    done: watch::Sender<bool>,
}

struct Data {
    state: JobState,
    finished_at: Option<String>,
    result: Option<serde_json::Value>,
    error: Option<JobError>,
    events: Vec<JobEventRecord>,
    next_seq: u64,
    /// When byte progress last went out, per (step, host).
    bytes_sent: HashMap<(String, Option<String>), Instant>,
}

impl Data {
    /// Give `event` the next seq, keep it and send it.
    fn emit(&mut self, tx: &broadcast::Sender<JobEventRecord>, event: JobEvent) {
        let record = JobEventRecord {
            seq: self.next_seq,
            event,
        };
        self.next_seq += 1;
        self.events.push(record.clone());
        // No receiver is fine: nobody is watching.
        let _ = tx.send(record);
    }
}

impl Shared {
    fn is_running(&self) -> bool {
        lock(&self.data).state == JobState::Running
    }

    fn summary(&self) -> JobSummary {
        let d = lock(&self.data);
        JobSummary {
            id: self.id,
            kind: self.kind.clone(),
            scope: self.scope.clone(),
            state: d.state,
            created_at: self.created_at.clone(),
            finished_at: d.finished_at.clone(),
            error: d.error.clone(),
        }
    }

    fn job(&self) -> Job {
        let d = lock(&self.data);
        Job {
            id: self.id,
            kind: self.kind.clone(),
            scope: self.scope.clone(),
            state: d.state,
            created_at: self.created_at.clone(),
            finished_at: d.finished_at.clone(),
            result: d.result.clone(),
            error: d.error.clone(),
            events: d.events.clone(),
        }
    }

    /// The history and a receiver of everything after it, taken under one lock.
    fn subscribe(&self) -> (Vec<JobEventRecord>, broadcast::Receiver<JobEventRecord>) {
        let d = lock(&self.data);
        (d.events.clone(), self.tx.subscribe())
    }

    fn step(&self, event: JobEvent) {
        let mut d = lock(&self.data);
        // Work may outlive its job (a blocking thread still reporting); `finished` stays last.
        if d.state == JobState::Running {
            d.emit(&self.tx, event);
        }
    }

    fn bytes(&self, step: &str, host: Option<&str>, done: u64, total: u64) {
        let mut d = lock(&self.data);
        if d.state != JobState::Running {
            return;
        }
        let key = (step.to_owned(), host.map(str::to_owned));
        let now = Instant::now();
        let last = done >= total;
        if !last
            && d.bytes_sent
                .get(&key)
                .is_some_and(|t| now.duration_since(*t) < BYTES_EVERY)
        {
            return;
        }
        d.bytes_sent.insert(key, now);
        // Drop the earlier progress of this (step, host) and append the new one, rather than
        // overwrite it where it stands: the history stays in seq order, which resuming relies on.
        if let Some(i) = d.events.iter().rposition(|r| {
            matches!(&r.event, JobEvent::Bytes { step: s, host: h, .. } if s == step && h.as_deref() == host)
        }) {
            d.events.remove(i);
        }
        d.emit(
            &self.tx,
            JobEvent::Bytes {
                step: step.to_owned(),
                host: host.map(str::to_owned),
                done,
                total,
            },
        );
    }

    fn finish(&self, outcome: std::result::Result<serde_json::Value, JobError>) {
        {
            let mut d = lock(&self.data);
            if d.state != JobState::Running {
                return;
            }
            let (state, result, error) = match outcome {
                Ok(v) => (JobState::Succeeded, Some(v), None),
                Err(e) => (JobState::Failed, None, Some(e)),
            };
            d.state = state;
            d.finished_at = Some(now());
            d.result.clone_from(&result);
            d.error.clone_from(&error);
            d.bytes_sent.clear();
            d.emit(
                &self.tx,
                JobEvent::Finished {
                    state,
                    result,
                    error,
                },
            );
        }
        self.done.send_replace(true);
    }
}

/// The handle the running work reports progress through. Cheap to clone, never
/// blocks for long, and callable from blocking threads.
#[derive(Clone)]
pub struct JobCtx {
    shared: Arc<Shared>,
}

impl std::fmt::Debug for JobCtx {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JobCtx")
            .field("id", &self.shared.id)
            .finish()
    }
}

impl JobCtx {
    /// The job's id.
    pub fn id(&self) -> JobId {
        self.shared.id
    }

    /// A step of `host` (or of the whole job when `None`) changed state.
    pub fn step(&self, host: Option<&str>, step: &str, state: StepState, message: Option<&str>) {
        self.shared.step(JobEvent::Step {
            host: host.map(str::to_owned),
            step: step.to_owned(),
            state,
            message: message.map(str::to_owned),
        });
    }

    /// Byte progress of `step` for `host`. Calls closer than ~100 ms apart for the
    /// same (step, host) are dropped, except the final one (`done >= total`).
    pub fn bytes(&self, step: &str, host: Option<&str>, done: u64, total: u64) {
        self.shared.bytes(step, host, done, total);
    }
}

/// Start `work` in the background as a job of `kind` about `scope` and answer its id at once.
///
/// Refused with 409 `job_running` while a job of the same kind and scope runs.
/// Whatever happens to the work (error, panic) the job ends with a `finished` event.
pub async fn start<F, Fut>(app: &App, kind: &str, scope: Option<String>, work: F) -> Result<JobId>
where
    F: FnOnce(JobCtx) -> Fut + Send + 'static,
    Fut: Future<Output = Result<serde_json::Value>> + Send + 'static,
{
    let shared = app.jobs().insert(kind, scope)?;
    let id = shared.id;
    tracing::info!(job = %id, kind, scope = ?shared.scope, "job started");
    let ctx = JobCtx {
        shared: shared.clone(),
    };
    let app = app.clone();
    tokio::spawn(async move {
        // A task of its own, so a panic in the work comes back here as a JoinError
        // instead of leaving the job running for ever.
        let outcome = match tokio::spawn(async move { work(ctx).await }).await {
            Ok(Ok(value)) => {
                tracing::info!(job = %id, "job succeeded");
                Ok(value)
            }
            Ok(Err(e)) => {
                tracing::warn!(job = %id, code = e.code(), error = %e, "job failed");
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
    Ok(app.jobs().find(id)?.job())
}

/// Every job kept, most recent first, without the histories.
pub async fn list(app: &App) -> Vec<JobSummary> {
    let list: Vec<Arc<Shared>> = lock(&app.jobs().list).clone();
    list.iter().rev().map(|j| j.summary()).collect()
}

/// The job once it has ended.
pub async fn wait(app: &App, id: JobId) -> Result<Job> {
    let shared = app.jobs().find(id)?;
    let mut done = shared.done.subscribe();
    // The sender lives in `shared`, which we hold, so this only returns once the job ended.
    let _ = done.wait_for(|d| *d).await;
    Ok(shared.job())
}

/// The history so far and a receiver of every later event, taken atomically:
/// the receiver's first event is the one after the history's last.
pub fn subscribe(
    app: &App,
    id: JobId,
) -> Result<(Vec<JobEventRecord>, broadcast::Receiver<JobEventRecord>)> {
    Ok(app.jobs().find(id)?.subscribe())
}

/// Every event of the job with a seq above `after` (all when `None`), the
/// history first and then live, ending with `finished`: what the SSE stream and
/// the window's channel send.
pub fn watch(app: &App, id: JobId, after: Option<u64>) -> Result<JobWatch> {
    let shared = app.jobs().find(id)?;
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

/// A reader of one job's events; see [`watch`].
pub struct JobWatch {
    shared: Arc<Shared>,
    backlog: VecDeque<JobEventRecord>,
    /// `None` once the history holds the end: nothing live will come.
    rx: Option<broadcast::Receiver<JobEventRecord>>,
    last: u64,
    ended: bool,
}

impl std::fmt::Debug for JobWatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JobWatch")
            .field("job", &self.shared.id)
            .field("last", &self.last)
            .finish()
    }
}

impl JobWatch {
    /// Take the history after `last` and a fresh receiver.
    fn resync(&mut self) {
        let (history, rx) = self.shared.subscribe();
        let finished = history.last().is_some_and(JobEventRecord::is_finished);
        let last = self.last;
        self.backlog = history.into_iter().filter(|r| r.seq > last).collect();
        self.rx = (!finished).then_some(rx);
    }

    /// The next event, or `None` after `finished`.
    pub async fn next(&mut self) -> Option<JobEventRecord> {
        if self.ended {
            return None;
        }
        loop {
            let record = if let Some(r) = self.backlog.pop_front() {
                r
            } else {
                let rx = self.rx.as_mut()?;
                match rx.recv().await {
                    Ok(r) => r,
                    // Fell behind the channel: what was missed is in the history (bytes coalesced).
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        self.resync();
                        continue;
                    }
                    Err(broadcast::error::RecvError::Closed) => return None,
                }
            };
            if record.seq <= self.last {
                continue;
            }
            self.last = record.seq;
            self.ended = record.is_finished();
            return Some(record);
        }
    }
}

fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// A panic while holding one of these locks cannot leave the data half-written
/// (every update is a few assignments), so a poisoned lock is still usable.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    use crate::app::test_app as app;

    /// A running job that ends when the returned sender fires.
    async fn gated(app: &App, scope: Option<&str>) -> (JobId, tokio::sync::oneshot::Sender<()>) {
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let id = start(
            app,
            "test",
            scope.map(str::to_owned),
            move |ctx| async move {
                ctx.step(None, "wait", StepState::Started, None);
                let _ = rx.await;
                ctx.step(None, "wait", StepState::Done, None);
                Ok(json!({"ok": true}))
            },
        )
        .await
        .unwrap();
        (id, tx)
    }

    fn seqs(events: &[JobEventRecord]) -> Vec<u64> {
        events.iter().map(|r| r.seq).collect()
    }

    #[tokio::test]
    async fn events_are_recorded_in_order_with_seq() {
        let (_d, app) = app().await;
        let id = start(&app, "images", None, |ctx| async move {
            ctx.step(Some("h1"), "answer", StepState::Started, None);
            ctx.step(Some("h1"), "answer", StepState::Done, Some("written"));
            ctx.step(Some("h2"), "answer", StepState::Skipped, Some("up to date"));
            Ok(json!({"hosts": 2}))
        })
        .await
        .unwrap();
        let job = wait(&app, id).await.unwrap();
        assert_eq!(job.state, JobState::Succeeded);
        assert_eq!(job.result, Some(json!({"hosts": 2})));
        assert!(job.error.is_none() && job.finished_at.is_some());
        assert_eq!(seqs(&job.events), vec![1, 2, 3, 4]);
        assert_eq!(
            job.events[1].event,
            JobEvent::Step {
                host: Some("h1".into()),
                step: "answer".into(),
                state: StepState::Done,
                message: Some("written".into())
            }
        );
        assert_eq!(
            serde_json::to_value(&job.events[3]).unwrap(),
            json!({"seq": 4, "type": "finished", "state": "succeeded", "result": {"hosts": 2}})
        );
        let listed = list(&app).await;
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].id, id);
        assert_eq!(listed[0].state, JobState::Succeeded);
    }

    #[tokio::test]
    async fn history_keeps_only_the_latest_bytes_per_step_and_host() {
        let (_d, app) = app().await;
        let id = start(&app, "images", None, |ctx| async move {
            ctx.step(Some("a"), "extract", StepState::Started, None);
            for i in 0..=1000u64 {
                ctx.bytes("extract", Some("a"), i, 1000);
                ctx.bytes("extract", Some("b"), i / 2, 1000);
            }
            ctx.step(Some("a"), "extract", StepState::Done, None);
            Ok(json!(null))
        })
        .await
        .unwrap();
        let job = wait(&app, id).await.unwrap();
        let bytes: Vec<_> = job
            .events
            .iter()
            .filter_map(|r| match &r.event {
                JobEvent::Bytes {
                    host, done, total, ..
                } => Some((host.clone().unwrap(), *done, *total)),
                _ => None,
            })
            .collect();
        // One each, the latest sent: `a` ended with its final count, which always goes out.
        assert_eq!(bytes.len(), 2, "{bytes:?}");
        assert_eq!(bytes[1], ("a".to_owned(), 1000, 1000));
        assert!(bytes[0].0 == "b" && bytes[0].1 <= 500, "{bytes:?}");
        let s = seqs(&job.events);
        assert!(
            s.windows(2).all(|w| w[0] < w[1]),
            "history in seq order: {s:?}"
        );
        assert_eq!(job.events.len(), 5);
        assert!(job.events.last().unwrap().is_finished());
    }

    #[tokio::test]
    async fn same_kind_and_scope_conflicts_while_running_only() {
        let (_d, app) = app().await;
        let (first, go) = gated(&app, Some("pod1")).await;
        let e = start(&app, "test", Some("pod1".into()), |_| async {
            Ok(json!(1))
        })
        .await
        .unwrap_err();
        assert_eq!(e.code(), "job_running");
        assert_eq!(e.kind().http_status(), 409);
        assert!(e.to_string().contains(&first.to_string()), "{e}");
        // Another scope and another kind may run alongside.
        let other = start(&app, "test", Some("pod2".into()), |_| async {
            Ok(json!(2))
        })
        .await
        .unwrap();
        let kind = start(&app, "deploy", Some("pod1".into()), |_| async {
            Ok(json!(3))
        })
        .await
        .unwrap();
        assert_eq!(wait(&app, other).await.unwrap().state, JobState::Succeeded);
        assert_eq!(wait(&app, kind).await.unwrap().state, JobState::Succeeded);
        go.send(()).unwrap();
        wait(&app, first).await.unwrap();
        let again = start(&app, "test", Some("pod1".into()), |_| async {
            Ok(json!(4))
        })
        .await
        .unwrap();
        assert_eq!(wait(&app, again).await.unwrap().result, Some(json!(4)));
    }

    #[tokio::test]
    async fn failed_work_ends_failed_with_code_and_status() {
        let (_d, app) = app().await;
        let id = start(&app, "deploy", Some("pod1".into()), |ctx| async move {
            ctx.step(Some("h1"), "profile", StepState::Failed, Some("no"));
            Err(Error::not_found(
                "unknown_server_group",
                "there is no server group pod1",
            ))
        })
        .await
        .unwrap();
        let job = wait(&app, id).await.unwrap();
        assert_eq!(job.state, JobState::Failed);
        assert!(job.result.is_none());
        let err = job.error.clone().unwrap();
        assert_eq!(
            (err.code.as_str(), err.status),
            ("unknown_server_group", Some(404))
        );
        assert_eq!(err.error, "there is no server group pod1");
        assert_eq!(
            job.events.last().unwrap().event,
            JobEvent::Finished {
                state: JobState::Failed,
                result: None,
                error: Some(err)
            }
        );
    }

    #[tokio::test]
    async fn panicking_work_ends_failed() {
        let (_d, app) = app().await;
        let id = start(&app, "images", None, |ctx| async move {
            ctx.step(None, "boom", StepState::Started, None);
            panic!("the work broke");
        })
        .await
        .unwrap();
        let job = tokio::time::timeout(Duration::from_secs(5), wait(&app, id))
            .await
            .expect("a panicking job still ends")
            .unwrap();
        assert_eq!(job.state, JobState::Failed);
        let err = job.error.unwrap();
        assert_eq!(
            (err.code.as_str(), err.status),
            ("internal_error", Some(500))
        );
        assert_eq!(seqs(&job.events), vec![1, 2]);
        // The kind and scope are free again.
        start(&app, "images", None, |_| async { Ok(json!(null)) })
            .await
            .unwrap();
    }

    #[tokio::test]
    async fn subscribe_after_finish_gives_the_whole_history() {
        let (_d, app) = app().await;
        let id = start(&app, "images", None, |ctx| async move {
            ctx.step(None, "one", StepState::Done, None);
            Ok(json!("r"))
        })
        .await
        .unwrap();
        wait(&app, id).await.unwrap();
        let (history, mut rx) = subscribe(&app, id).unwrap();
        assert_eq!(seqs(&history), vec![1, 2]);
        assert!(history[1].is_finished());
        assert!(rx.try_recv().is_err());
        let mut w = watch(&app, id, None).unwrap();
        assert_eq!(w.next().await.unwrap().seq, 1);
        assert!(w.next().await.unwrap().is_finished());
        assert!(w.next().await.is_none());
        // Resuming past the end ends at once.
        assert!(watch(&app, id, Some(2)).unwrap().next().await.is_none());
    }

    #[tokio::test]
    async fn subscribe_mid_run_has_no_gap_or_duplicate() {
        let (_d, app) = app().await;
        let (go_tx, go_rx) = tokio::sync::oneshot::channel::<()>();
        let (half_tx, half_rx) = tokio::sync::oneshot::channel::<()>();
        let id = start(&app, "images", None, move |ctx| async move {
            // Report from a blocking thread, racing the subscriber.
            tokio::task::spawn_blocking(move || {
                let mut half_tx = Some(half_tx);
                for i in 0..200 {
                    ctx.step(Some(&format!("h{i}")), "s", StepState::Done, None);
                    if i == 50 {
                        half_tx.take().unwrap().send(()).unwrap();
                    }
                }
            })
            .await
            .unwrap();
            let _ = go_rx.await;
            Ok(json!(null))
        })
        .await
        .unwrap();
        half_rx.await.unwrap();
        let (history, mut rx) = subscribe(&app, id).unwrap();
        go_tx.send(()).unwrap();
        let mut all = seqs(&history);
        loop {
            let r = rx.recv().await.unwrap();
            all.push(r.seq);
            if r.is_finished() {
                break;
            }
        }
        assert_eq!(all, (1..=201).collect::<Vec<u64>>());
        // The resuming reader starts right after the seq it names.
        let mut w = watch(&app, id, Some(150)).unwrap();
        assert_eq!(w.next().await.unwrap().seq, 151);
    }

    #[tokio::test]
    async fn only_the_last_finished_jobs_are_kept() {
        let (_d, app) = app().await;
        let (running, go) = gated(&app, None).await;
        let mut first = None;
        for i in 0..KEEP_FINISHED + 5 {
            let id = start(&app, "n", Some(i.to_string()), |_| async {
                Ok(json!(null))
            })
            .await
            .unwrap();
            first.get_or_insert(id);
            wait(&app, id).await.unwrap();
        }
        // Pruning runs right after the job ends; give the last one's task a moment.
        tokio::time::sleep(Duration::from_millis(50)).await;
        let listed = list(&app).await;
        assert_eq!(listed.len(), KEEP_FINISHED + 1);
        assert!(listed.iter().any(|j| j.id == running));
        let e = get(&app, first.unwrap()).await.unwrap_err();
        assert_eq!((e.code(), e.kind().http_status()), ("unknown_job", 404));
        assert_eq!(
            "not-a-uuid".parse::<JobId>().unwrap_err().code(),
            "unknown_job"
        );
        go.send(()).unwrap();
    }
}
