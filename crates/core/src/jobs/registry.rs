//! The in-memory registry of one process's jobs: each job's shared state (history, live
//! events, end), the handle its work reports through ([`JobCtx`]) and the reader of its
//! events ([`JobWatch`]). It knows nothing of the app, so the app can hold it.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use tokio::sync::{broadcast, mpsc, oneshot, watch};

use crate::error::{Error, ErrorCode, Result};
use bootsmith_model::job::*;
use bootsmith_model::time::{Micros, Time};
use bootsmith_store::jobs::Write;

/// What the store's writer task is handed: a report to store, or a request to answer once
/// everything handed over before it is stored.
// Nearly every item is a report; boxing them would cost an allocation per event for nothing.
#[allow(clippy::large_enum_variant)]
pub(crate) enum ToStore {
    Write(Write),
    Flush(oneshot::Sender<()>),
}

/// Byte progress goes out at most this often per (step, host); the final one always does.
const BYTES_EVERY: Duration = Duration::from_millis(100);

/// Live events a slow subscriber may fall behind by before it resynchronises from the history.
const CHANNEL_CAPACITY: usize = 256;

/// The jobs of one app, in memory: see the `jobs` module documentation.
#[derive(Default)]
pub struct Jobs {
    /// Oldest first.
    pub(super) list: Mutex<Vec<Arc<Shared>>>,
    /// Where every job's start, events and end go to be stored, once the app has a writer.
    pub(super) writer: OnceLock<mpsc::UnboundedSender<ToStore>>,
}

impl std::fmt::Debug for Jobs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Jobs")
            .field("count", &lock(&self.list).len())
            .finish()
    }
}

/// Kinds of job that must not run at once on the same scope: a deploy, a virtual-media run
/// and an undeploy all write the same group's objects on its manager.
fn lane(kind: JobKind) -> JobKind {
    match kind {
        JobKind::Vmedia | JobKind::Undeploy => JobKind::Deploy,
        other => other,
    }
}

impl Jobs {
    /// Wait until every job report made so far is in the store: the app calls it before closing
    /// the store, so a job that ended just before the app stopped is not read back as interrupted.
    pub async fn flush(&self) {
        let Some(writer) = self.writer.get() else {
            return;
        };
        let (done, stored) = oneshot::channel();
        if writer.send(ToStore::Flush(done)).is_ok() {
            // A store that hangs must not keep the app from stopping.
            let _ = tokio::time::timeout(std::time::Duration::from_secs(10), stored).await;
        }
    }

    /// Register a new running job unless one of the same lane and scope runs;
    /// check and insert under one lock so two callers cannot both start.
    pub(super) fn insert(&self, kind: JobKind, scope: Option<String>) -> Result<Arc<Shared>> {
        let mut list = lock(&self.list);
        if let Some(other) = list
            .iter()
            .find(|j| lane(j.kind) == lane(kind) && j.scope == scope && j.is_running())
        {
            let running = &other.kind;
            let what = match &scope {
                Some(s) => format!("a {running} job for {s}"),
                None => format!("a {running} job"),
            };
            return Err(Error::conflict(
                ErrorCode::JobRunning,
                format!(
                    "{what} is already running (job {}); follow it, or wait for it to end",
                    other.id
                ),
            ));
        }
        let (tx, _) = broadcast::channel(CHANNEL_CAPACITY);
        let shared = Arc::new(Shared {
            id: JobId::generate(),
            kind,
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
            writer: self.writer.get().cloned(),
        });
        shared.store(Write::Started(shared.summary()));
        list.push(shared.clone());
        Ok(shared)
    }

    pub(super) fn find(&self, id: JobId) -> Result<Arc<Shared>> {
        lock(&self.list)
            .iter()
            .find(|j| j.id == id)
            .cloned()
            .ok_or_else(|| unknown_job(id))
    }

    /// Forget the oldest finished jobs beyond [`KEEP_FINISHED`].
    pub(super) fn prune(&self) {
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
pub(super) struct Shared {
    pub(super) id: JobId,
    kind: JobKind,
    pub(super) scope: Option<String>,
    created_at: Time<Micros>,
    data: Mutex<Data>,
    /// Live events. Sent under the `data` lock, so the history and the stream never disagree.
    tx: broadcast::Sender<JobEventRecord>,
    /// Flips to true when the job ends, for [`wait`](super::wait).
    pub(super) done: watch::Sender<bool>,
    /// The store's writer; none for a job read back from the store.
    writer: Option<mpsc::UnboundedSender<ToStore>>,
}

struct Data {
    state: JobState,
    finished_at: Option<Time<Micros>>,
    result: Option<serde_json::Value>,
    error: Option<JobError>,
    events: Vec<JobEventRecord>,
    next_seq: u64,
    /// When byte progress last went out, per (step, host).
    bytes_sent: HashMap<(JobStep, Option<String>), Instant>,
}

impl Data {
    /// Give `event` the next seq, keep it and send it; the record, for the store.
    fn emit(&mut self, tx: &broadcast::Sender<JobEventRecord>, event: JobEvent) -> JobEventRecord {
        let record = JobEventRecord {
            seq: self.next_seq,
            event,
        };
        self.next_seq += 1;
        self.events.push(record.clone());
        // No receiver is fine: nobody is watching.
        let _ = tx.send(record.clone());
        record
    }
}

impl Shared {
    /// A job that ended before this process started, read back from the store: it only
    /// answers reads and watches.
    pub(super) fn ended(job: Job) -> Shared {
        let (tx, _) = broadcast::channel(1);
        Shared {
            id: job.id,
            kind: job.kind,
            scope: job.scope,
            created_at: job.created_at,
            data: Mutex::new(Data {
                state: job.state,
                finished_at: job.finished_at,
                result: job.result,
                error: job.error,
                next_seq: job.events.last().map_or(1, |e| e.seq + 1),
                events: job.events,
                bytes_sent: HashMap::new(),
            }),
            tx,
            done: watch::Sender::new(true),
            writer: None,
        }
    }

    /// Hand `w` to the store's writer (a job of an app without one, in some tests, is not stored).
    fn store(&self, w: Write) {
        if let Some(writer) = &self.writer {
            // The writer ends only with the app: nothing is left to store then.
            let _ = writer.send(ToStore::Write(w));
        }
    }

    /// Give `event` the next seq, keep it, send it to watchers and to the store.
    fn emit(&self, d: &mut Data, event: JobEvent) {
        let record = d.emit(&self.tx, event);
        self.store(Write::Event(self.id.to_string(), record));
    }

    fn is_running(&self) -> bool {
        lock(&self.data).state == JobState::Running
    }

    pub(super) fn summary(&self) -> JobSummary {
        let d = lock(&self.data);
        JobSummary {
            id: self.id,
            kind: self.kind,
            scope: self.scope.clone(),
            state: d.state,
            created_at: self.created_at,
            finished_at: d.finished_at,
            error: d.error.clone(),
        }
    }

    pub(super) fn job(&self) -> Job {
        let d = lock(&self.data);
        Job {
            id: self.id,
            kind: self.kind,
            scope: self.scope.clone(),
            state: d.state,
            created_at: self.created_at,
            finished_at: d.finished_at,
            result: d.result.clone(),
            error: d.error.clone(),
            events: d.events.clone(),
        }
    }

    /// The history and a receiver of everything after it, taken under one lock.
    pub(super) fn subscribe(&self) -> (Vec<JobEventRecord>, broadcast::Receiver<JobEventRecord>) {
        let d = lock(&self.data);
        (d.events.clone(), self.tx.subscribe())
    }

    fn step(&self, event: JobEvent) {
        let mut d = lock(&self.data);
        // Work may outlive its job (a blocking thread still reporting); `finished` stays last.
        if d.state == JobState::Running {
            self.emit(&mut d, event);
        }
    }

    fn bytes(&self, step: JobStep, host: Option<&str>, done: u64, total: u64) {
        let mut d = lock(&self.data);
        if d.state != JobState::Running {
            return;
        }
        let key = (step, host.map(str::to_owned));
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
            matches!(&r.event, JobEvent::Bytes { step: s, host: h, .. } if *s == step && h.as_deref() == host)
        }) {
            d.events.remove(i);
        }
        self.emit(
            &mut d,
            JobEvent::Bytes {
                step: step.to_owned(),
                host: host.map(str::to_owned),
                done,
                total,
            },
        );
    }

    pub(super) fn finish(&self, outcome: std::result::Result<JobOutput, JobError>) {
        {
            let mut d = lock(&self.data);
            if d.state != JobState::Running {
                return;
            }
            let (state, result, error) = match outcome {
                Ok(JobOutput {
                    result,
                    with_failures,
                }) => (
                    if with_failures {
                        JobState::FinishedWithFailures
                    } else {
                        JobState::Succeeded
                    },
                    Some(result),
                    None,
                ),
                Err(e) => (JobState::Failed, None, Some(e)),
            };
            d.state = state;
            d.finished_at = Some(now());
            d.result.clone_from(&result);
            d.error.clone_from(&error);
            d.bytes_sent.clear();
            self.emit(
                &mut d,
                JobEvent::Finished {
                    state,
                    result,
                    error,
                },
            );
        }
        self.store(Write::Finished(Job {
            events: Vec::new(),
            ..self.job()
        }));
        self.done.send_replace(true);
    }
}

/// The handle the running work reports progress through. Cheap to clone, never
/// blocks for long, and callable from blocking threads.
#[derive(Clone)]
pub struct JobCtx {
    pub(super) shared: Arc<Shared>,
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
    pub fn step(&self, host: Option<&str>, step: JobStep, state: StepState, message: Option<&str>) {
        self.shared.step(JobEvent::Step {
            host: host.map(str::to_owned),
            step,
            state,
            message: message.map(str::to_owned),
        });
    }

    /// Byte progress of `step` for `host`. Calls closer than ~100 ms apart for the
    /// same (step, host) are dropped, except the final one (`done >= total`).
    pub fn bytes(&self, step: JobStep, host: Option<&str>, done: u64, total: u64) {
        self.shared.bytes(step, host, done, total);
    }
}
/// A reader of one job's events; see [`watch`](super::watch).
pub struct JobWatch {
    pub(super) shared: Arc<Shared>,
    pub(super) backlog: VecDeque<JobEventRecord>,
    /// `None` once the history holds the end: nothing live will come.
    pub(super) rx: Option<broadcast::Receiver<JobEventRecord>>,
    pub(super) last: u64,
    pub(super) ended: bool,
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
    pub(super) fn resync(&mut self) {
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

/// Now, to the microsecond: jobs are listed by when they started, and a script starts many in
/// the same millisecond.
pub(super) fn now() -> Time<Micros> {
    Time::now()
}

/// A panic while holding one of these locks cannot leave the data half-written
/// (every update is a few assignments), so a poisoned lock is still usable.
pub(super) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}
