//! The `settings` table: one text value per key (boot-server address, proxy, org, the API
//! token and the data-key check, all encrypted where secret by their owners).

use sqlx::Executor;

use super::Db;
use crate::error::Result;

/// The value of `key`, if set.
pub async fn get<'c>(db: impl Executor<'c, Database = Db>, key: &str) -> Result<Option<String>> {
    Ok(
        sqlx::query_scalar("SELECT value FROM settings WHERE key = $1")
            .bind(key)
            .fetch_optional(db)
            .await?,
    )
}

/// Set `key` to `value`, replacing what was there.
pub async fn set<'c>(db: impl Executor<'c, Database = Db>, key: &str, value: &str) -> Result<()> {
    sqlx::query(
        "INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    )
    .bind(key)
    .bind(value)
    .execute(db)
    .await?;
    Ok(())
}

/// Remove `key`.
pub async fn delete<'c>(db: impl Executor<'c, Database = Db>, key: &str) -> Result<()> {
    sqlx::query("DELETE FROM settings WHERE key = $1")
        .bind(key)
        .execute(db)
        .await?;
    Ok(())
}

/// Set `key` only if it has no value yet; true when this call set it.
pub async fn insert_if_absent<'c>(
    db: impl Executor<'c, Database = Db>,
    key: &str,
    value: &str,
) -> Result<bool> {
    let done = sqlx::query(
        "INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
    )
    .bind(key)
    .bind(value)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}
