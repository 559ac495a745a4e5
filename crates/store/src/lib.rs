//! The store: every SQL statement of Bootsmith's records, one module per table, over SQLite
//! (one file in the data dir, WAL, foreign keys on, schema migrations embedded in the binary).
//! Writes go through a single connection so concurrent writers queue instead of failing with
//! "database is locked".
//!
//! The records modules (`networks`, `hosts`, …) check and shape values and call the typed
//! functions here; they hold no SQL. The statements use `$1`-style parameters and portable
//! forms (`ON CONFLICT … DO NOTHING`, not `INSERT OR IGNORE`), so a PostgreSQL store is mostly
//! a change of the aliases below; what is SQLite's own is said where it is written.

pub mod aci;
pub mod backup;
pub mod deployed_objects;
pub mod error;
pub mod hosts;
pub mod iso_map;
pub mod jobs;
pub mod keys;
pub mod lifecycle;
pub mod networks;
pub mod server_groups;
pub mod settings;

use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{ConnectOptions, Executor};

pub use crate::error::{Error, Result};

/// The database kind of the store (the one alias a PostgreSQL store changes first).
pub type Db = sqlx::Sqlite;
/// A pool of connections to the store.
pub type Pool = sqlx::Pool<Db>;
/// One connection, or a transaction dereferenced to one: what multi-statement functions take.
pub type Conn = <Db as sqlx::Database>::Connection;
/// A transaction on the writer; `&mut *tx` is the connection the store's functions take,
/// and [`Tx::commit`] ends it with the store's own error, so the services never see sqlx's.
#[derive(Debug)]
pub struct Tx(sqlx::Transaction<'static, Db>);

impl Tx {
    /// Make the transaction's changes stand.
    pub async fn commit(self) -> Result<()> {
        Ok(self.0.commit().await?)
    }

    /// Undo the transaction's changes (a dry run, or a check that failed halfway).
    pub async fn rollback(self) -> Result<()> {
        Ok(self.0.rollback().await?)
    }
}

impl std::ops::Deref for Tx {
    type Target = Conn;
    fn deref(&self) -> &Conn {
        &self.0
    }
}

impl std::ops::DerefMut for Tx {
    fn deref_mut(&mut self) -> &mut Conn {
        &mut self.0
    }
}

/// Name of the database file in the data dir.
pub const DB_FILE: &str = "bootsmith.db";

/// Pools over the database file.
#[derive(Debug, Clone)]
pub struct Store {
    read: Pool,
    write: Pool,
    // One connection kept for the whole run, only to ask for the data version: SQLite's
    // counter is per connection, so a pooled (and now and then reopened) one would not do.
    watch: Arc<tokio::sync::Mutex<Option<Conn>>>,
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
        let migrator = sqlx::migrate!("./migrations");
        backup::before_migrating(&write, &path, &migrator).await?;
        migrator.run(&write).await?;
        allow_every_group_kind(&write).await?;
        let opts = opts.read_only(true);
        let watch = opts.connect().await?;
        let read = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(opts)
            .await?;
        Ok(Store {
            read,
            write,
            watch: Arc::new(tokio::sync::Mutex::new(Some(watch))),
        })
    }

    /// Pool for queries.
    pub fn reader(&self) -> &Pool {
        &self.read
    }

    /// The single-connection pool for changes; begin transactions here.
    pub fn writer(&self) -> &Pool {
        &self.write
    }

    /// One connection for reads that need the same connection throughout.
    pub async fn reading(&self) -> Result<sqlx::pool::PoolConnection<Db>> {
        Ok(self.read.acquire().await?)
    }

    /// The writer's connection, for one change that is not a transaction.
    pub async fn writing(&self) -> Result<sqlx::pool::PoolConnection<Db>> {
        Ok(self.write.acquire().await?)
    }

    /// A transaction on the writer: several changes that stand or fall together.
    pub async fn begin(&self) -> Result<Tx> {
        Ok(Tx(self.write.begin().await?))
    }

    /// Read one value of the settings table.
    pub async fn setting(&self, key: &str) -> Result<Option<String>> {
        settings::get(&self.read, key).await
    }

    /// Write one value of the settings table.
    pub async fn set_setting(&self, key: &str, value: &str) -> Result<()> {
        settings::set(&self.write, key, value).await
    }

    /// Remove one value of the settings table.
    pub async fn delete_setting(&self, key: &str) -> Result<()> {
        settings::delete(&self.write, key).await
    }

    /// Write a setting only if it has no value yet; true when this call wrote it.
    pub async fn insert_setting_if_absent(&self, key: &str, value: &str) -> Result<bool> {
        settings::insert_if_absent(&self.write, key, value).await
    }

    /// A number that changes whenever a change is committed to the database, by this
    /// process or another one (`bootsmith token --regenerate`, `import-kubam`): an answer made
    /// from the database alone stays right while it stays the same. SQLite's `data_version`;
    /// a PostgreSQL store would keep a counter its writes bump.
    pub async fn version(&self) -> Result<i64> {
        let mut watch = self.watch.lock().await;
        let conn = watch.as_mut().ok_or(sqlx::Error::PoolClosed)?;
        Ok(sqlx::query_scalar("PRAGMA data_version")
            .fetch_one(conn)
            .await?)
    }

    /// Close both pools and the version connection (the last to close checkpoints the WAL).
    pub async fn close(&self) {
        if let Some(conn) = self.watch.lock().await.take() {
            let _ = sqlx::Connection::close(conn).await;
        }
        self.read.close().await;
        self.write.close().await;
    }
}

/// A value made from the database, kept with the [`Store::version`] it was made at (and a
/// second number the caller names, such as the svc directory's change time) and made again
/// once either moved; for answers that depend on nothing else.
#[derive(Debug, Default)]
pub struct Snapshot<T>(std::sync::Mutex<Option<((i64, i64), T)>>);

impl<T: Clone> Snapshot<T> {
    /// The kept value while the store and `also` are unchanged, else what `make` makes now.
    pub async fn get<F, Fut, E>(&self, store: &Store, also: i64, make: F) -> Result<T, E>
    where
        F: FnOnce() -> Fut,
        Fut: std::future::Future<Output = Result<T, E>>,
        E: From<Error>,
    {
        // The version is read before the value is made, so a value is never tagged newer than
        // the data it was made from: a commit in between moves the version and remakes it.
        let version = (store.version().await?, also);
        if let Some((made_at, value)) = &*self.lock() {
            if *made_at == version {
                return Ok(value.clone());
            }
        }
        let value = make().await?;
        *self.lock() = Some((version, value.clone()));
        Ok(value)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<((i64, i64), T)>> {
        // Replaced whole, never left half-written: a poisoned lock still holds a sound value.
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// What a write of a named record came to; the records layer turns the misses into errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Written {
    /// The row was written.
    Done,
    /// Another row of the table has the name (the UNIQUE constraint refused it).
    NameTaken,
    /// No row has the id the update named.
    Missing,
}

/// Fold a write's result into [`Written`]: a unique violation is a taken name, not a failure.
fn written(
    res: std::result::Result<<Db as sqlx::Database>::QueryResult, sqlx::Error>,
) -> Result<Written> {
    match res {
        Ok(r) if r.rows_affected() == 0 => Ok(Written::Missing),
        Ok(_) => Ok(Written::Done),
        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Ok(Written::NameTaken),
        Err(e) => Err(e.into()),
    }
}

/// A statement of the store with its values bound.
pub type Query<'q> = sqlx::query::Query<'q, Db, <Db as sqlx::Database>::Arguments<'q>>;

/// A row of a table of named records that is read and written whole: every column, `id` first.
pub trait NamedRow: for<'r> sqlx::FromRow<'r, <Db as sqlx::Database>::Row> + Send + Unpin {
    /// Its table.
    const TABLE: Named;
    /// Its columns as SQL lists them (`id, name, …`), in the order [`NamedRow::bind`] binds them.
    const COLUMNS: &'static str;
    /// `q` with the row's values bound, in the order of [`NamedRow::COLUMNS`].
    fn bind<'q>(&'q self, q: Query<'q>) -> Query<'q>;
}

/// Every row of `R`'s table, ordered by name.
pub async fn list<'c, R: NamedRow>(db: impl Executor<'c, Database = Db>) -> Result<Vec<R>> {
    // Table and columns are constants of the row types, never a caller's text.
    let sql = format!(
        "SELECT {} FROM {} ORDER BY name",
        R::COLUMNS,
        R::TABLE.table()
    );
    Ok(sqlx::query_as(&sql).fetch_all(db).await?)
}

/// Store a new row; [`Written::NameTaken`] when its name is.
pub async fn insert<'c, R: NamedRow>(
    db: impl Executor<'c, Database = Db>,
    row: &R,
) -> Result<Written> {
    let params: Vec<String> = (1..=R::COLUMNS.split(", ").count())
        .map(|i| format!("${i}"))
        .collect();
    let sql = format!(
        "INSERT INTO {} ({}) VALUES ({})",
        R::TABLE.table(),
        R::COLUMNS,
        params.join(", ")
    );
    written(row.bind(sqlx::query(&sql)).execute(db).await)
}

/// Overwrite the row with `row`'s id; [`Written::Missing`] when there is none,
/// [`Written::NameTaken`] when the new name is taken.
pub async fn update<'c, R: NamedRow>(
    db: impl Executor<'c, Database = Db>,
    row: &R,
) -> Result<Written> {
    let sets: Vec<String> = R::COLUMNS
        .split(", ")
        .enumerate()
        .skip(1)
        .map(|(i, c)| format!("{c} = ${}", i + 1))
        .collect();
    let sql = format!(
        "UPDATE {} SET {} WHERE id = $1",
        R::TABLE.table(),
        sets.join(", ")
    );
    written(row.bind(sqlx::query(&sql)).execute(db).await)
}

/// The tables of named records: a UUID `id` and a unique `name` each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Named {
    /// `server_groups`.
    ServerGroups,
    /// `network_groups`.
    NetworkGroups,
    /// `aci_instances`.
    AciInstances,
}

impl Named {
    fn table(self) -> &'static str {
        match self {
            Named::ServerGroups => "server_groups",
            Named::NetworkGroups => "network_groups",
            Named::AciInstances => "aci_instances",
        }
    }

    /// The names of every record of the table.
    pub async fn names<'c>(self, db: impl Executor<'c, Database = Db>) -> Result<Vec<String>> {
        // The table name is one of the constants above, never a caller's text.
        let sql = format!("SELECT name FROM {}", self.table());
        Ok(sqlx::query_scalar(&sql).fetch_all(db).await?)
    }

    /// Whether a record of the table has the name `name`.
    pub async fn name_exists<'c>(
        self,
        db: impl Executor<'c, Database = Db>,
        name: &str,
    ) -> Result<bool> {
        self.exists(db, "name", name).await
    }

    /// Whether a record of the table has the id `id`.
    pub async fn id_exists<'c>(
        self,
        db: impl Executor<'c, Database = Db>,
        id: &str,
    ) -> Result<bool> {
        self.exists(db, "id", id).await
    }

    /// Whether a record has `value` in `column` (a constant of this module, not a caller's text).
    async fn exists<'c>(
        self,
        db: impl Executor<'c, Database = Db>,
        column: &str,
        value: &str,
    ) -> Result<bool> {
        let sql = format!("SELECT 1 FROM {} WHERE {column} = $1", self.table());
        let found: Option<i64> = sqlx::query_scalar(&sql)
            .bind(value)
            .fetch_optional(db)
            .await?;
        Ok(found.is_some())
    }

    /// Remove the record with `id` (rows referring to it go by `ON DELETE CASCADE`; hosts
    /// referring to it by name make the schema refuse, as a backstop to the in-use check).
    pub async fn delete<'c>(self, db: impl Executor<'c, Database = Db>, id: &str) -> Result<()> {
        let sql = format!("DELETE FROM {} WHERE id = $1", self.table());
        sqlx::query(&sql).bind(id).execute(db).await?;
        Ok(())
    }

    /// The stored (encrypted) password of the record with `id`, for the tables with login
    /// data (server groups, ACI instances); `None` when there is no such record.
    pub async fn password_enc<'c>(
        self,
        db: impl Executor<'c, Database = Db>,
        id: &str,
    ) -> Result<Option<String>> {
        debug_assert!(
            self != Named::NetworkGroups,
            "network groups have no password"
        );
        let sql = format!("SELECT password_enc FROM {} WHERE id = $1", self.table());
        Ok(sqlx::query_scalar(&sql).bind(id).fetch_optional(db).await?)
    }
}

/// Let `server_groups.kind` hold every kind of today (`ucsc` and `redfish` came after the
/// first CHECK). SQLite cannot change a CHECK in place: the table is rebuilt the
/// documented way, with foreign keys off (else dropping the old table would cascade to the
/// selections and the deployed objects), which only works outside a transaction, so not in a
/// migration file. Runs once per new kind: afterwards the stored schema names them all.
async fn allow_every_group_kind(write: &Pool) -> Result<()> {
    let sql: String = sqlx::query_scalar(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'server_groups'",
    )
    .fetch_one(write)
    .await?;
    if sql.contains("'redfish'") {
        return Ok(());
    }
    let mut conn = write.acquire().await?;
    sqlx::query("PRAGMA foreign_keys = OFF")
        .execute(&mut *conn)
        .await?;
    let rebuilt = async {
        let mut tx = sqlx::Connection::begin(&mut *conn).await?;
        for step in [
            "CREATE TABLE server_groups_new (
                id           TEXT PRIMARY KEY,
                name         TEXT NOT NULL UNIQUE,
                kind         TEXT NOT NULL CHECK (kind IN ('ucsm', 'imc', 'ucsc', 'redfish')),
                address      TEXT NOT NULL,
                username     TEXT NOT NULL,
                password_enc TEXT NOT NULL,
                vlan         TEXT,
                insecure     INTEGER NOT NULL DEFAULT 0,
                fingerprint  TEXT,
                description  TEXT,
                org          TEXT,
                bmcs         TEXT,
                install_disk TEXT,
                params       TEXT
            )",
            "INSERT INTO server_groups_new (id, name, kind, address, username, password_enc, vlan, insecure, fingerprint, description, org, bmcs, install_disk, params)
                SELECT id, name, kind, address, username, password_enc, vlan, insecure, fingerprint, description, org, bmcs, install_disk, params FROM server_groups",
            "DROP TABLE server_groups",
            "ALTER TABLE server_groups_new RENAME TO server_groups",
        ] {
            sqlx::query(step).execute(&mut *tx).await?;
        }
        let broken: Vec<(String,)> = sqlx::query_as("SELECT \"table\" FROM pragma_foreign_key_check")
            .fetch_all(&mut *tx)
            .await?;
        if !broken.is_empty() {
            // Rolled back when `tx` drops: the old table stays as it was.
            return Err(Error::Corrupt(format!(
                "rebuilding server_groups would break references from {broken:?}"
            )));
        }
        tx.commit().await?;
        Ok(())
    }
    .await;
    sqlx::query("PRAGMA foreign_keys = ON")
        .execute(&mut *conn)
        .await?;
    rebuilt
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A database made by a version before `ucsc`: every group, selection, deployed object and
    /// host reference survives the rebuild, and `ucsc` and `redfish` groups can then be stored.
    #[tokio::test]
    async fn an_older_database_keeps_its_groups_and_their_references_when_new_kinds_are_allowed() {
        let dir = tempfile::tempdir().unwrap();
        let opts = SqliteConnectOptions::from_str("sqlite://")
            .unwrap()
            .filename(dir.path().join("old.db"))
            .create_if_missing(true)
            .foreign_keys(true);
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(opts)
            .await
            .unwrap();
        for sql in [
            include_str!("../migrations/0001_records.sql"),
            include_str!("../migrations/0002_server_group_tls.sql"),
            include_str!("../migrations/0003_deployed_objects.sql"),
            include_str!("../migrations/0004_kubam_compat.sql"),
            include_str!("../migrations/0007_redfish_bmcs.sql"),
            include_str!("../migrations/0009_install_disk.sql"),
            include_str!("../migrations/0011_params.sql"),
            "INSERT INTO server_groups (id, name, kind, address, username, password_enc, install_disk, params) VALUES ('g1', 'pod1', 'ucsm', '10.0.0.1', 'admin', 'enc', '{\"size_gb\":447}', '{\"tz\":\"UTC\"}')",
            "INSERT INTO server_group_servers VALUES ('g1', 'blade', '1/1', 0)",
            "INSERT INTO deployed_objects VALUES ('g1', 'org-root/ls-n1', 'lsServer', 'now')",
            "INSERT INTO network_groups (id, name, netmask, gateway, nameserver, ntpserver) VALUES ('n1', 'net', '24', '10.0.0.1', '10.0.0.2', 'ntp')",
            "INSERT INTO hosts (name, position, ip, os, role, network_group, server_group) VALUES ('n1', 0, '10.0.0.9', 'centos7.4', 'generic', 'net', 'pod1')",
        ] {
            sqlx::raw_sql(sql).execute(&pool).await.unwrap();
        }
        let ucsc = "INSERT INTO server_groups (id, name, kind, address, username, password_enc) VALUES ('g2', 'central', 'ucsc', '10.0.0.2', 'admin', 'enc')";
        let redfish = "INSERT INTO server_groups (id, name, kind, address, username, password_enc) VALUES ('g3', 'bmcs', 'redfish', '10.0.0.3', 'root', 'enc')";
        assert!(sqlx::query(ucsc).execute(&pool).await.is_err());
        assert!(sqlx::query(redfish).execute(&pool).await.is_err());

        allow_every_group_kind(&pool).await.unwrap();
        allow_every_group_kind(&pool).await.unwrap(); // a second start changes nothing

        sqlx::query(ucsc).execute(&pool).await.unwrap();
        sqlx::query(redfish).execute(&pool).await.unwrap();
        let count = |sql: &'static str| {
            let pool = pool.clone();
            async move {
                sqlx::query_scalar::<_, i64>(sql)
                    .fetch_one(&pool)
                    .await
                    .unwrap()
            }
        };
        assert_eq!(count("SELECT count(*) FROM server_group_servers").await, 1);
        assert_eq!(
            count("SELECT count(*) FROM server_groups WHERE install_disk = '{\"size_gb\":447}'")
                .await,
            1,
            "the install disk's hint survives the rebuild"
        );
        assert_eq!(
            count("SELECT count(*) FROM server_groups WHERE params = '{\"tz\":\"UTC\"}'").await,
            1,
            "the template parameters survive the rebuild"
        );
        assert_eq!(count("SELECT count(*) FROM deployed_objects").await, 1);
        assert_eq!(
            count("SELECT count(*) FROM hosts WHERE server_group = 'pod1'").await,
            1
        );
        // The references still hold: a group in use cannot go, and deleting one cascades.
        assert!(sqlx::query("DELETE FROM server_groups WHERE id = 'g1'")
            .execute(&pool)
            .await
            .is_err());
        sqlx::query("DELETE FROM hosts")
            .execute(&pool)
            .await
            .unwrap();
        sqlx::query("DELETE FROM server_groups WHERE id = 'g1'")
            .execute(&pool)
            .await
            .unwrap();
        assert_eq!(count("SELECT count(*) FROM server_group_servers").await, 0);
        assert_eq!(count("SELECT count(*) FROM deployed_objects").await, 0);
    }
}
