//! The writer that stores what the jobs of this run report, and what a start finds in the store:
//! jobs a process that is gone left running are marked `interrupted`, old ones forgotten.

use tokio::sync::mpsc;

use super::registry::{now, Jobs, ToStore};
use crate::error::Result;
use bootsmith_model::job::*;
use bootsmith_store::jobs::Write;
use bootsmith_store::{self as store, Store};

/// Start storing `jobs` in `store`, and start the writer that stores what the jobs of this run
/// report. When `alone` (no other Bootsmith process uses the data directory), the jobs the
/// store has as still running were cut off when their process ended: mark them `interrupted`,
/// and forget all but the last [`KEEP_STORED`] jobs.
pub async fn open(jobs: &Jobs, store: &Store, alone: bool) -> Result<()> {
    let store = store.clone();
    let mut cut = Vec::new();
    let running = if alone {
        store::jobs::running(store.reader()).await?
    } else {
        Vec::new()
    };
    for id in running {
        let seq = store::jobs::next_seq(store.reader(), &id).await?;
        let mut job = store::jobs::get(&store, &id)
            .await?
            .ok_or_else(|| unknown_job(&id))?;
        job.state = JobState::Interrupted;
        job.finished_at = Some(now());
        job.error = Some(interrupted());
        let end = JobEventRecord {
            seq,
            event: JobEvent::Finished {
                state: JobState::Interrupted,
                result: None,
                error: job.error.clone(),
            },
        };
        tracing::warn!(job = %id, kind = job.kind.as_str(), scope = job.scope.as_deref(), events = seq - 1, "a job was interrupted when Bootsmith stopped");
        cut.push(Write::Event(id, end));
        cut.push(Write::Finished(job));
    }
    store::jobs::write(&store, &cut).await?;
    if alone {
        let forgotten = store::jobs::prune(store.writer(), KEEP_STORED).await?;
        if forgotten > 0 {
            tracing::info!(jobs = forgotten, "old jobs forgotten");
        }
    }
    let (tx, mut rx) = mpsc::unbounded_channel::<ToStore>();
    if jobs.writer.set(tx).is_err() {
        return Ok(());
    }
    tokio::spawn(async move {
        let mut batch = Vec::new();
        while rx.recv_many(&mut batch, 256).await > 0 {
            let mut writes = Vec::with_capacity(batch.len());
            let mut flushed = Vec::new();
            for item in batch.drain(..) {
                match item {
                    ToStore::Write(w) => writes.push(w),
                    ToStore::Flush(done) => flushed.push(done),
                }
            }
            // Several reports in one transaction: a deploy of a thousand hosts reports fast.
            if let Err(e) = store::jobs::write(&store, &writes).await {
                tracing::error!(error = %e, "jobs could not be stored");
            }
            for done in flushed {
                let _ = done.send(());
            }
        }
    });
    Ok(())
}
