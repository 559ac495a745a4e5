//! The lifecycle tables (`host_media`, `host_status`, `host_events`, `host_access`,
//! `install_sizes`): each host's last media build, where its install is, its timeline and
//! what was fetched for it. Status, events and access rows are written by one writer task
//! (the core's `lifecycle`), in batches.

use sqlx::sqlite::SqliteRow;
use sqlx::{Column, Executor, FromRow, Row};

use super::{Db, Store};
use crate::error::Result;
use bootsmith_model::time::{Millis, Precision, Secs, Time};

/// A host's last media build as stored.
#[derive(Debug, Clone)]
pub struct MediaRow {
    /// Host name.
    pub host: String,
    /// When.
    pub built_at: Time<Secs>,
    /// JSON object: input name → digest.
    pub inputs: String,
    /// SHA-256 (hex) of the callback token, unless spent.
    pub token_hash: Option<String>,
}

/// Where a host's install is, as stored.
#[derive(Debug, Clone)]
pub struct StatusRow {
    /// Host name.
    pub host: String,
    /// Stage name.
    pub state: String,
    /// When it got there.
    pub since: Time<Millis>,
    /// What happened, in words.
    pub detail: Option<String>,
    /// Bytes its installer fetched.
    pub bytes: i64,
    /// Files its installer fetched.
    pub files: i64,
    /// When its installer last fetched something.
    pub last_fetch: Option<Time<Millis>>,
}

/// One line of a host's timeline.
#[derive(Debug, Clone)]
pub struct EventRow {
    /// Order within the host.
    pub seq: i64,
    /// When.
    pub at: Time<Millis>,
    /// Stage reached.
    pub state: String,
    /// What happened.
    pub detail: Option<String>,
}

/// What one fetcher fetched of one file (or install tree) for a host.
#[derive(Debug, Clone)]
pub struct AccessRow {
    /// Host name.
    pub host: String,
    /// The fetcher's address.
    pub peer: String,
    /// A file of svc, or an install tree (`rocky9/`).
    pub what: String,
    /// First request.
    pub first_at: Time<Millis>,
    /// Last request.
    pub last_at: Time<Millis>,
    /// Requests so far.
    pub requests: i64,
    /// Bytes answered so far.
    pub bytes: i64,
    /// The last `Range` asked for, if any.
    pub last_range: Option<String>,
}

// The rows hold times as values; the columns hold them as text of one precision each, so
// `ORDER BY` on them is by time. sqlx cannot decode the model's type itself (the model names
// no sqlx), so each row reads its columns here.

/// Column `col` of `row` as a time.
fn time<P: Precision>(row: &SqliteRow, col: &str) -> sqlx::Result<Time<P>> {
    parse_time(row, col, row.try_get(col)?)
}

/// Column `col` of `row` as a time, or NULL.
fn time_or_null<P: Precision>(row: &SqliteRow, col: &str) -> sqlx::Result<Option<Time<P>>> {
    row.try_get::<Option<String>, _>(col)?
        .map(|text| parse_time(row, col, text))
        .transpose()
}

fn parse_time<P: Precision>(row: &SqliteRow, col: &str, text: String) -> sqlx::Result<Time<P>> {
    text.parse().map_err(|e: String| sqlx::Error::ColumnDecode {
        index: row
            .columns()
            .iter()
            .position(|c| c.name() == col)
            .map_or_else(|| col.to_owned(), |i| i.to_string()),
        source: e.into(),
    })
}

impl FromRow<'_, SqliteRow> for MediaRow {
    fn from_row(row: &SqliteRow) -> sqlx::Result<Self> {
        Ok(MediaRow {
            host: row.try_get("host")?,
            built_at: time(row, "built_at")?,
            inputs: row.try_get("inputs")?,
            token_hash: row.try_get("token_hash")?,
        })
    }
}

impl FromRow<'_, SqliteRow> for StatusRow {
    fn from_row(row: &SqliteRow) -> sqlx::Result<Self> {
        Ok(StatusRow {
            host: row.try_get("host")?,
            state: row.try_get("state")?,
            since: time(row, "since")?,
            detail: row.try_get("detail")?,
            bytes: row.try_get("bytes")?,
            files: row.try_get("files")?,
            last_fetch: time_or_null(row, "last_fetch")?,
        })
    }
}

impl FromRow<'_, SqliteRow> for EventRow {
    fn from_row(row: &SqliteRow) -> sqlx::Result<Self> {
        Ok(EventRow {
            seq: row.try_get("seq")?,
            at: time(row, "at")?,
            state: row.try_get("state")?,
            detail: row.try_get("detail")?,
        })
    }
}

impl FromRow<'_, SqliteRow> for AccessRow {
    fn from_row(row: &SqliteRow) -> sqlx::Result<Self> {
        Ok(AccessRow {
            host: row.try_get("host")?,
            peer: row.try_get("peer")?,
            what: row.try_get("what")?,
            first_at: time(row, "first_at")?,
            last_at: time(row, "last_at")?,
            requests: row.try_get("requests")?,
            bytes: row.try_get("bytes")?,
            last_range: row.try_get("last_range")?,
        })
    }
}

/// What the lifecycle writer stores, in order.
#[derive(Debug)]
pub enum Write {
    /// A host's status, whole.
    Status(StatusRow),
    /// A new line of a host's timeline (numbered after the last).
    Event {
        /// Host name.
        host: String,
        /// The line.
        event: EventRow,
    },
    /// Requests to add to an access row (counts and bytes add up; first_at stays).
    Access(AccessRow),
    /// Forget what was fetched for a host (its new run starts).
    ForgetAccess(String),
    /// The size of a finished install of an OS and role.
    Size {
        /// OS id.
        os: String,
        /// Role.
        role: String,
        /// Bytes fetched.
        bytes: i64,
        /// Files fetched.
        files: i64,
    },
}

/// Store `writes` in one transaction.
pub async fn write(store: &Store, writes: &[Write]) -> Result<()> {
    let mut tx = store.begin().await?;
    for w in writes {
        match w {
            Write::Status(s) => {
                sqlx::query(
                    "INSERT INTO host_status (host, state, since, detail, bytes, files, last_fetch) VALUES ($1, $2, $3, $4, $5, $6, $7)
                     ON CONFLICT (host) DO UPDATE SET state = excluded.state, since = excluded.since, detail = excluded.detail,
                     bytes = excluded.bytes, files = excluded.files, last_fetch = excluded.last_fetch",
                )
                .bind(&s.host)
                .bind(&s.state)
                .bind(s.since.to_string())
                .bind(&s.detail)
                .bind(s.bytes)
                .bind(s.files)
                .bind(s.last_fetch.map(|t| t.to_string()))
                .execute(&mut *tx)
                .await?;
            }
            Write::Event { host, event } => {
                sqlx::query(
                    "INSERT INTO host_events (host, seq, at, state, detail)
                     VALUES ($1, (SELECT COALESCE(MAX(seq), 0) + 1 FROM host_events WHERE host = $1), $2, $3, $4)",
                )
                .bind(host)
                .bind(event.at.to_string())
                .bind(&event.state)
                .bind(&event.detail)
                .execute(&mut *tx)
                .await?;
            }
            Write::Access(a) => {
                sqlx::query(
                    "INSERT INTO host_access (host, peer, what, first_at, last_at, requests, bytes, last_range) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                     ON CONFLICT (host, peer, what) DO UPDATE SET last_at = excluded.last_at, requests = requests + excluded.requests,
                     bytes = bytes + excluded.bytes, last_range = COALESCE(excluded.last_range, last_range)",
                )
                .bind(&a.host)
                .bind(&a.peer)
                .bind(&a.what)
                .bind(a.first_at.to_string())
                .bind(a.last_at.to_string())
                .bind(a.requests)
                .bind(a.bytes)
                .bind(&a.last_range)
                .execute(&mut *tx)
                .await?;
            }
            Write::ForgetAccess(host) => {
                sqlx::query("DELETE FROM host_access WHERE host = $1")
                    .bind(host)
                    .execute(&mut *tx)
                    .await?;
            }
            Write::Size {
                os,
                role,
                bytes,
                files,
            } => {
                sqlx::query(
                    "INSERT INTO install_sizes (os, role, bytes, files) VALUES ($1, $2, $3, $4)
                     ON CONFLICT (os, role) DO UPDATE SET bytes = excluded.bytes, files = excluded.files",
                )
                .bind(os)
                .bind(role)
                .bind(bytes)
                .bind(files)
                .execute(&mut *tx)
                .await?;
            }
        }
    }
    tx.commit().await?;
    Ok(())
}

/// Every host's status.
pub async fn statuses<'c>(db: impl Executor<'c, Database = Db>) -> Result<Vec<StatusRow>> {
    Ok(sqlx::query_as(
        "SELECT host, state, since, detail, bytes, files, last_fetch FROM host_status",
    )
    .fetch_all(db)
    .await?)
}

/// A host's timeline, oldest first.
pub async fn events<'c>(db: impl Executor<'c, Database = Db>, host: &str) -> Result<Vec<EventRow>> {
    Ok(sqlx::query_as(
        "SELECT seq, at, state, detail FROM host_events WHERE host = $1 ORDER BY seq",
    )
    .bind(host)
    .fetch_all(db)
    .await?)
}

/// What was fetched for a host, first fetched first.
pub async fn access<'c>(
    db: impl Executor<'c, Database = Db>,
    host: &str,
) -> Result<Vec<AccessRow>> {
    Ok(sqlx::query_as(
        "SELECT host, peer, what, first_at, last_at, requests, bytes, last_range FROM host_access WHERE host = $1 ORDER BY first_at, what",
    )
    .bind(host)
    .fetch_all(db)
    .await?)
}

/// Every host's last media build.
pub async fn media<'c>(db: impl Executor<'c, Database = Db>) -> Result<Vec<MediaRow>> {
    Ok(
        sqlx::query_as("SELECT host, built_at, inputs, token_hash FROM host_media")
            .fetch_all(db)
            .await?,
    )
}

/// A host's last media build.
pub async fn media_of<'c>(
    db: impl Executor<'c, Database = Db>,
    host: &str,
) -> Result<Option<MediaRow>> {
    Ok(
        sqlx::query_as("SELECT host, built_at, inputs, token_hash FROM host_media WHERE host = $1")
            .bind(host)
            .fetch_optional(db)
            .await?,
    )
}

/// Record a host's media build (replacing the last one, and its token).
pub async fn set_media<'c>(db: impl Executor<'c, Database = Db>, row: &MediaRow) -> Result<()> {
    sqlx::query(
        "INSERT INTO host_media (host, built_at, inputs, token_hash) VALUES ($1, $2, $3, $4)
         ON CONFLICT (host) DO UPDATE SET host = excluded.host, built_at = excluded.built_at, inputs = excluded.inputs, token_hash = excluded.token_hash",
    )
    .bind(&row.host)
    .bind(row.built_at.to_string())
    .bind(&row.inputs)
    .bind(&row.token_hash)
    .execute(db)
    .await?;
    Ok(())
}

/// Spend a host's token if `hash` is it: true when it was (and is now gone).
pub async fn spend_token<'c>(
    db: impl Executor<'c, Database = Db>,
    host: &str,
    hash: &str,
) -> Result<bool> {
    let done =
        sqlx::query("UPDATE host_media SET token_hash = NULL WHERE host = $1 AND token_hash = $2")
            .bind(host)
            .bind(hash)
            .execute(db)
            .await?;
    Ok(done.rows_affected() == 1)
}

/// The size of the last finished install of `os` in `role`: (bytes, files).
pub async fn install_size<'c>(
    db: impl Executor<'c, Database = Db>,
    os: &str,
    role: &str,
) -> Result<Option<(i64, i64)>> {
    Ok(
        sqlx::query_as("SELECT bytes, files FROM install_sizes WHERE os = $1 AND role = $2")
            .bind(os)
            .bind(role)
            .fetch_optional(db)
            .await?,
    )
}

/// Every finished install's size: (os, role, bytes, files).
pub async fn install_sizes<'c>(
    db: impl Executor<'c, Database = Db>,
) -> Result<Vec<(String, String, i64, i64)>> {
    Ok(
        sqlx::query_as("SELECT os, role, bytes, files FROM install_sizes")
            .fetch_all(db)
            .await?,
    )
}
