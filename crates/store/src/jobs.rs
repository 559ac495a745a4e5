//! The `jobs` and `job_events` tables: every background job's summary, result and error, and
//! the events it reported, so jobs are listed and read after a restart. Rows are written by
//! one writer task in the order the jobs report (see the core's `jobs`).

use sqlx::{Executor, Row};

use super::{Db, Store};
use crate::error::{Error, Result};
use bootsmith_model::job::{Job, JobEventRecord, JobSummary};
use bootsmith_model::time::{Micros, Time};

/// What the writer stores, in the order the jobs report it.
#[derive(Debug)]
pub enum Write {
    /// A job started: its row.
    Started(JobSummary),
    /// A job reported an event.
    Event(String, JobEventRecord),
    /// A job ended: its final state, end time, result and error (the `finished` event comes
    /// as an [`Write::Event`] before it).
    Finished(Job),
}

fn json<T: serde::Serialize>(v: &T) -> Result<String> {
    serde_json::to_string(v).map_err(|e| Error::Corrupt(format!("a job could not be stored: {e}")))
}

fn parse<T: serde::de::DeserializeOwned>(text: &str, what: &str) -> Result<T> {
    serde_json::from_str(text)
        .map_err(|e| Error::Corrupt(format!("a stored job's {what} could not be read: {e}")))
}

/// A stored job's time, as written by [`write`].
fn stored_time(text: String) -> Result<Time<Micros>> {
    text.parse()
        .map_err(|e| Error::Corrupt(format!("a stored job's time could not be read: {e}")))
}

/// The JSON string of a state (`running`, …), as stored.
fn state_text(s: bootsmith_model::job::JobState) -> Result<String> {
    Ok(json(&s)?.trim_matches('"').to_owned())
}

/// Store `writes` in one transaction.
pub async fn write(store: &Store, writes: &[Write]) -> Result<()> {
    let mut tx = store.begin().await?;
    for w in writes {
        match w {
            Write::Started(j) => {
                sqlx::query(
                    "INSERT INTO jobs (id, kind, scope, state, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING",
                )
                .bind(j.id.to_string())
                .bind(j.kind.as_str())
                .bind(&j.scope)
                .bind(state_text(j.state)?)
                .bind(j.created_at.to_string())
                .execute(&mut *tx)
                .await?;
            }
            Write::Event(id, record) => {
                // Byte progress keeps only the latest of each (step, host), as in memory.
                // (SQLite's json_extract; PostgreSQL would read the same with ->>.)
                if let bootsmith_model::job::JobEvent::Bytes { step, host, .. } = &record.event {
                    sqlx::query(
                        "DELETE FROM job_events WHERE job_id = $1 AND json_extract(event, '$.type') = 'bytes' AND json_extract(event, '$.step') = $2 AND json_extract(event, '$.host') IS $3",
                    )
                    .bind(id)
                    .bind(step.as_str())
                    .bind(host)
                    .execute(&mut *tx)
                    .await?;
                }
                sqlx::query(
                    "INSERT INTO job_events (job_id, seq, event) VALUES ($1, $2, $3) ON CONFLICT (job_id, seq) DO NOTHING",
                )
                .bind(id)
                .bind(record.seq as i64)
                .bind(json(record)?)
                .execute(&mut *tx)
                .await?;
            }
            Write::Finished(j) => {
                sqlx::query(
                    "UPDATE jobs SET state = $2, finished_at = $3, result = $4, error = $5 WHERE id = $1",
                )
                .bind(j.id.to_string())
                .bind(state_text(j.state)?)
                .bind(j.finished_at.map(|t| t.to_string()))
                .bind(j.result.as_ref().map(json).transpose()?)
                .bind(j.error.as_ref().map(json).transpose()?)
                .execute(&mut *tx)
                .await?;
            }
        }
    }
    tx.commit().await?;
    Ok(())
}

/// The ids of the jobs stored as still running.
pub async fn running<'c>(db: impl Executor<'c, Database = Db>) -> Result<Vec<String>> {
    Ok(
        sqlx::query_scalar("SELECT id FROM jobs WHERE state = 'running' ORDER BY created_at")
            .fetch_all(db)
            .await?,
    )
}

/// The next seq of job `id` (one past its last stored event).
pub async fn next_seq<'c>(db: impl Executor<'c, Database = Db>, id: &str) -> Result<u64> {
    let last: Option<i64> = sqlx::query_scalar("SELECT MAX(seq) FROM job_events WHERE job_id = $1")
        .bind(id)
        .fetch_one(db)
        .await?;
    Ok(last.map_or(1, |s| s as u64 + 1))
}

/// The `limit` most recent jobs, most recent first, without events (ties in the start time,
/// in the order they were stored: SQLite's rowid).
pub async fn list<'c>(
    db: impl Executor<'c, Database = Db>,
    limit: usize,
) -> Result<Vec<JobSummary>> {
    let rows = sqlx::query(
        "SELECT id, kind, scope, state, created_at, finished_at, error FROM jobs ORDER BY created_at DESC, rowid DESC LIMIT $1",
    )
    .bind(limit as i64)
    .fetch_all(db)
    .await?;
    rows.iter().map(summary).collect()
}

fn summary(row: &sqlx::sqlite::SqliteRow) -> Result<JobSummary> {
    let state: String = row.get("state");
    let kind: String = row.get("kind");
    let error: Option<String> = row.get("error");
    let id: String = row.get("id");
    Ok(JobSummary {
        id: id
            .parse()
            .map_err(|_| Error::Corrupt(format!("a stored job's id is not a job id: {id}")))?,
        kind: parse(&format!("\"{kind}\""), "kind")?,
        scope: row.get("scope"),
        state: parse(&format!("\"{state}\""), "state")?,
        created_at: stored_time(row.get("created_at"))?,
        finished_at: row
            .get::<Option<String>, _>("finished_at")
            .map(stored_time)
            .transpose()?,
        error: error.as_deref().map(|e| parse(e, "error")).transpose()?,
    })
}

/// Job `id` with its events, if stored.
pub async fn get(store: &Store, id: &str) -> Result<Option<Job>> {
    let Some(row) = sqlx::query(
        "SELECT id, kind, scope, state, created_at, finished_at, error, result FROM jobs WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(store.reader())
    .await?
    else {
        return Ok(None);
    };
    let s = summary(&row)?;
    let result: Option<String> = row.get("result");
    let events: Vec<String> =
        sqlx::query_scalar("SELECT event FROM job_events WHERE job_id = $1 ORDER BY seq")
            .bind(id)
            .fetch_all(store.reader())
            .await?;
    Ok(Some(Job {
        id: s.id,
        kind: s.kind,
        scope: s.scope,
        state: s.state,
        created_at: s.created_at,
        finished_at: s.finished_at,
        result: result.as_deref().map(|r| parse(r, "result")).transpose()?,
        error: s.error,
        events: events
            .iter()
            .map(|e| parse(e, "event"))
            .collect::<Result<_>>()?,
    }))
}

/// Forget all but the `keep` most recent jobs.
pub async fn prune<'c>(db: impl Executor<'c, Database = Db>, keep: usize) -> Result<u64> {
    Ok(sqlx::query(
        "DELETE FROM jobs WHERE id NOT IN (SELECT id FROM jobs ORDER BY created_at DESC, rowid DESC LIMIT $1)",
    )
    .bind(keep as i64)
    .execute(db)
    .await?
    .rows_affected())
}
