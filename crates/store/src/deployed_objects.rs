//! The `deployed_objects` table: the managed objects deploys of a server group created, so a
//! re-run removes the ones it no longer wants and an undeploy removes exactly these.

use sqlx::Executor;

use super::{Db, Store};
use crate::error::Result;
use bootsmith_model::time::{Secs, Time};

/// The objects earlier deploys of the group `group_id` created: `(dn, class)`, ordered by DN.
pub async fn recorded<'c>(
    db: impl Executor<'c, Database = Db>,
    group_id: &str,
) -> Result<Vec<(String, String)>> {
    Ok(
        sqlx::query_as(
            "SELECT dn, class FROM deployed_objects WHERE server_group = $1 ORDER BY dn",
        )
        .bind(group_id)
        .fetch_all(db)
        .await?,
    )
}

/// Every object deploys of any group created, by DN (a server's assigned profile among them
/// is Bootsmith's own).
pub async fn all_dns<'c>(db: impl Executor<'c, Database = Db>) -> Result<Vec<String>> {
    Ok(
        sqlx::query_scalar("SELECT DISTINCT dn FROM deployed_objects")
            .fetch_all(db)
            .await?,
    )
}

/// In one transaction: remember `created` (`(dn, class)`; one already recorded keeps its
/// first date) at time `now`, and forget each of `removed` with its subtree (removing an
/// object removes its children on the manager).
pub async fn record_changes(
    store: &Store,
    group_id: &str,
    created: &[(&str, &str)],
    removed: &[&str],
    now: Time<Secs>,
) -> Result<()> {
    let mut tx = store.begin().await?;
    for (dn, class) in created {
        sqlx::query(
            "INSERT INTO deployed_objects (server_group, dn, class, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (server_group, dn) DO NOTHING",
        )
        .bind(group_id)
        .bind(dn)
        .bind(class)
        .bind(now.to_string())
        .execute(&mut *tx)
        .await?;
    }
    for dn in removed {
        sqlx::query(
            "DELETE FROM deployed_objects WHERE server_group = $1 AND (dn = $2 OR dn LIKE $3 ESCAPE '\\')",
        )
        .bind(group_id)
        .bind(dn)
        .bind(format!("{}/%", like_escaped(dn)))
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Forget every object of the group (after an undeploy removed them, or found them gone).
pub async fn forget_all<'c>(db: impl Executor<'c, Database = Db>, group_id: &str) -> Result<()> {
    sqlx::query("DELETE FROM deployed_objects WHERE server_group = $1")
        .bind(group_id)
        .execute(db)
        .await?;
    Ok(())
}

/// `s` with LIKE's wildcards and the escape character itself escaped by `\`.
fn like_escaped(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A server group row for the objects to belong to (the foreign key wants one).
    async fn store_with_group() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).await.unwrap();
        sqlx::query("INSERT INTO server_groups (id, name, kind, address, username, password_enc) VALUES ('g1', 'pod1', 'ucsm', '10.0.0.1', 'admin', 'enc')")
            .execute(store.writer())
            .await
            .unwrap();
        (dir, store)
    }

    #[tokio::test]
    async fn created_objects_are_recorded_once_and_removed_with_their_subtree() {
        let (_dir, store) = store_with_group().await;
        let created = [
            ("org-root/ls-a", "lsServer"),
            ("org-root/ls-a/vnic-x", "vnicEther"),
            ("org-root/ls_b", "lsServer"),
        ];
        let t1: Time<Secs> = "2026-11-27T10:00:00Z".parse().unwrap();
        let t2: Time<Secs> = "2026-11-27T11:00:00Z".parse().unwrap();
        record_changes(&store, "g1", &created, &[], t1)
            .await
            .unwrap();
        // Recording again keeps the first date and adds no row.
        record_changes(&store, "g1", &created[..1], &[], t2)
            .await
            .unwrap();
        let all = recorded(store.reader(), "g1").await.unwrap();
        assert_eq!(all.len(), 3);
        let date: String = sqlx::query_scalar(
            "SELECT created_at FROM deployed_objects WHERE dn = 'org-root/ls-a'",
        )
        .fetch_one(store.reader())
        .await
        .unwrap();
        assert_eq!(date, t1.to_string());
        // `_` in a DN is no LIKE wildcard: removing ls-a leaves ls_b alone.
        record_changes(&store, "g1", &[], &["org-root/ls-a"], t2)
            .await
            .unwrap();
        assert_eq!(
            recorded(store.reader(), "g1").await.unwrap(),
            [("org-root/ls_b".to_owned(), "lsServer".to_owned())]
        );
        forget_all(store.writer(), "g1").await.unwrap();
        assert!(recorded(store.reader(), "g1").await.unwrap().is_empty());
    }
}
