//! The `ssh_keys` table: the public keys installed hosts accept, in the order given.

use sqlx::Executor;

use super::{Conn, Db};
use crate::error::Result;

/// Every stored key (one OpenSSH line each), in order.
pub async fn list<'c>(db: impl Executor<'c, Database = Db>) -> Result<Vec<String>> {
    Ok(
        sqlx::query_scalar("SELECT key FROM ssh_keys ORDER BY position")
            .fetch_all(db)
            .await?,
    )
}

/// Replace the whole list with `keys` (already checked, without duplicates).
pub async fn replace(conn: &mut Conn, keys: &[&str]) -> Result<()> {
    sqlx::query("DELETE FROM ssh_keys")
        .execute(&mut *conn)
        .await?;
    for (i, k) in keys.iter().enumerate() {
        sqlx::query("INSERT INTO ssh_keys (position, key) VALUES ($1, $2)")
            .bind(i as i64)
            .bind(k)
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}
