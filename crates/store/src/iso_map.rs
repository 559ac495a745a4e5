//! The `iso_map` table: which ISO file of svc holds which OS (one file per OS).

use sqlx::Executor;

use super::{Conn, Db};
use crate::error::Result;

/// Every `(file, os)` mapping, ordered by file.
pub async fn list<'c>(db: impl Executor<'c, Database = Db>) -> Result<Vec<(String, String)>> {
    Ok(sqlx::query_as("SELECT file, os FROM iso_map ORDER BY file")
        .fetch_all(db)
        .await?)
}

/// The file `os` is mapped to, other than `file`.
pub async fn other_file_of<'c>(
    db: impl Executor<'c, Database = Db>,
    os: &str,
    file: &str,
) -> Result<Option<String>> {
    Ok(
        sqlx::query_scalar("SELECT file FROM iso_map WHERE os = $1 AND file <> $2")
            .bind(os)
            .bind(file)
            .fetch_optional(db)
            .await?,
    )
}

/// Store one mapping.
pub async fn insert<'c>(db: impl Executor<'c, Database = Db>, file: &str, os: &str) -> Result<()> {
    sqlx::query("INSERT INTO iso_map (file, os) VALUES ($1, $2)")
        .bind(file)
        .bind(os)
        .execute(db)
        .await?;
    Ok(())
}

/// Map `file` to `os`, dropping whatever mapped either of them before.
pub async fn map_one(conn: &mut Conn, file: &str, os: &str) -> Result<()> {
    sqlx::query("DELETE FROM iso_map WHERE file = $1 OR os = $2")
        .bind(file)
        .bind(os)
        .execute(&mut *conn)
        .await?;
    insert(&mut *conn, file, os).await
}

/// Replace the whole map with `entries` (`(file, os)`).
pub async fn replace(conn: &mut Conn, entries: &[(&str, &str)]) -> Result<()> {
    sqlx::query("DELETE FROM iso_map")
        .execute(&mut *conn)
        .await?;
    for (file, os) in entries {
        insert(&mut *conn, file, os).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn one_mapping_replaces_what_held_its_file_or_its_os() {
        let dir = tempfile::tempdir().unwrap();
        let store = super::super::Store::open(dir.path()).await.unwrap();
        let mut tx = store.begin().await.unwrap();
        replace(
            &mut tx,
            &[("/svc/a.iso", "centos7.4"), ("/svc/b.iso", "esxi6.7")],
        )
        .await
        .unwrap();
        tx.commit().await.unwrap();
        assert_eq!(
            other_file_of(store.reader(), "centos7.4", "/svc/c.iso")
                .await
                .unwrap()
                .as_deref(),
            Some("/svc/a.iso")
        );
        let mut tx = store.begin().await.unwrap();
        map_one(&mut tx, "/svc/c.iso", "centos7.4").await.unwrap();
        tx.commit().await.unwrap();
        let map = list(store.reader()).await.unwrap();
        let pairs: Vec<(&str, &str)> = map.iter().map(|(f, o)| (f.as_str(), o.as_str())).collect();
        assert_eq!(
            pairs,
            [("/svc/b.iso", "esxi6.7"), ("/svc/c.iso", "centos7.4")]
        );
    }
}
