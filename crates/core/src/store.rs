//! The SQLite store: one file in the data dir, WAL, foreign keys on, schema
//! migrations embedded in the binary. Writes go through a single connection so
//! concurrent writers queue instead of failing with "database is locked".

use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;

use crate::error::Result;

/// Name of the database file in the data dir.
pub const DB_FILE: &str = "bootsmith.db";

/// Pools over the database file.
#[derive(Debug, Clone)]
pub struct Store {
    read: SqlitePool,
    write: SqlitePool,
}

impl Store {
    /// Open (creating if needed) the database in `data_dir` and apply migrations.
    pub async fn open(data_dir: &Path) -> Result<Self> {
        let path = data_dir.join(DB_FILE);
        let opts = SqliteConnectOptions::from_str("sqlite://")?
            .filename(&path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10));
        let write = SqlitePoolOptions::new()
            .max_connections(1)
            .acquire_timeout(Duration::from_secs(60))
            .connect_with(opts.clone())
            .await?;
        sqlx::migrate!("./migrations").run(&write).await?;
        let read = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(opts.read_only(true))
            .await?;
        Ok(Store { read, write })
    }

    /// Pool for queries.
    pub fn reader(&self) -> &SqlitePool {
        &self.read
    }

    /// The single-connection pool for changes; begin transactions here.
    pub fn writer(&self) -> &SqlitePool {
        &self.write
    }

    /// Read one value of the settings table.
    pub async fn setting(&self, key: &str) -> Result<Option<String>> {
        Ok(
            sqlx::query_scalar("SELECT value FROM settings WHERE key = ?")
                .bind(key)
                .fetch_optional(&self.read)
                .await?,
        )
    }

    /// Write one value of the settings table.
    pub async fn set_setting(&self, key: &str, value: &str) -> Result<()> {
        sqlx::query("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value")
            .bind(key)
            .bind(value)
            .execute(&self.write)
            .await?;
        Ok(())
    }

    /// Write a setting only if it has no value yet; true when this call wrote it.
    pub async fn insert_setting_if_absent(&self, key: &str, value: &str) -> Result<bool> {
        let done = sqlx::query(
            "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO NOTHING",
        )
        .bind(key)
        .bind(value)
        .execute(&self.write)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Close both pools (checkpoints the WAL).
    pub async fn close(&self) {
        self.read.close().await;
        self.write.close().await;
    }
}
