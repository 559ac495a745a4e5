//! An upgrade whose database needs migrating keeps a copy of the database from before; a new
//! database and one already up to date get none. Real SQLite files in a temporary directory.

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use bootsmith_store::{Store, DB_FILE};
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{ConnectOptions, Connection};

/// The copies beside the database.
fn backups(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains(".bak"))
        .collect();
    found.sort();
    found
}

async fn connect(path: &Path) -> sqlx::SqliteConnection {
    SqliteConnectOptions::from_str("sqlite://")
        .unwrap()
        .filename(path)
        .create_if_missing(true)
        .connect()
        .await
        .unwrap()
}

/// A database as the previous version left it: every migration but the last, and a record.
async fn older_database(dir: &Path) -> i64 {
    let all = sqlx::migrate!("./migrations");
    let last = all.iter().map(|m| m.version).max().unwrap();
    let mut older = sqlx::migrate!("./migrations");
    older.migrations = Cow::Owned(all.iter().filter(|m| m.version < last).cloned().collect());
    let mut conn = connect(&dir.join(DB_FILE)).await;
    older.run(&mut conn).await.unwrap();
    sqlx::query("INSERT INTO settings (key, value) VALUES ('svc_ip', '10.9.8.7')")
        .execute(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
    last
}

async fn applied(path: &Path) -> i64 {
    let mut conn = connect(path).await;
    let v = sqlx::query_scalar("SELECT max(version) FROM _sqlx_migrations")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
    v
}

#[tokio::test]
async fn a_database_that_needs_migrating_is_copied_first_and_the_copy_holds_the_old_data() {
    let dir = tempfile::tempdir().unwrap();
    let last = older_database(dir.path()).await;

    let store = Store::open(dir.path()).await.unwrap();
    assert_eq!(
        store.setting("svc_ip").await.unwrap().as_deref(),
        Some("10.9.8.7")
    );
    store.close().await;
    assert_eq!(applied(&dir.path().join(DB_FILE)).await, last);

    let expected = dir.path().join(format!("{DB_FILE}.before-{last:04}.bak"));
    assert_eq!(backups(dir.path()), vec![expected.clone()]);
    assert_eq!(
        applied(&expected).await,
        last - 1,
        "the copy is the database before migrating"
    );
    let mut conn = connect(&expected).await;
    let ip: String = sqlx::query_scalar("SELECT value FROM settings WHERE key = 'svc_ip'")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
    assert_eq!(ip, "10.9.8.7");

    // Opening again finds nothing to migrate: no second copy.
    Store::open(dir.path()).await.unwrap().close().await;
    assert_eq!(backups(dir.path()), vec![expected]);
}

#[tokio::test]
async fn an_earlier_copy_is_never_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let last = older_database(dir.path()).await;
    let first = dir.path().join(format!("{DB_FILE}.before-{last:04}.bak"));
    std::fs::write(&first, b"an earlier copy").unwrap();

    Store::open(dir.path()).await.unwrap().close().await;

    assert_eq!(std::fs::read(&first).unwrap(), b"an earlier copy");
    let second = dir.path().join(format!("{DB_FILE}.before-{last:04}.1.bak"));
    assert_eq!(backups(dir.path()), vec![second.clone(), first]);
    assert_eq!(applied(&second).await, last - 1);
}

#[tokio::test]
async fn a_new_database_and_an_up_to_date_one_are_not_copied() {
    let dir = tempfile::tempdir().unwrap();
    Store::open(dir.path()).await.unwrap().close().await;
    assert!(dir.path().join(DB_FILE).exists());
    assert_eq!(backups(dir.path()), Vec::<PathBuf>::new(), "a new database");
    Store::open(dir.path()).await.unwrap().close().await;
    assert_eq!(
        backups(dir.path()),
        Vec::<PathBuf>::new(),
        "an up-to-date database"
    );
}
