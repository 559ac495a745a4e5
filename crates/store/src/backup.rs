//! A copy of the database taken before a new version migrates it: an upgrade that goes wrong,
//! or a step back to the older program, then still has the data as that version left it.

use std::path::{Path, PathBuf};

use sqlx::migrate::Migrator;

use super::Pool;
use crate::error::{Error, Result};

/// When `db` (the file behind `pool`) already holds records and `migrator` has migrations it
/// has not applied, copy it to `<db>.before-<first pending version>.bak` (with `.1`, `.2`, …
/// before `.bak` when that name is taken: an earlier copy is never overwritten); the copy's
/// path, or none when nothing was to be done. The copy is consistent (SQLite's `VACUUM INTO`
/// reads one snapshot) and appears under its name only once complete.
pub async fn before_migrating(
    pool: &Pool,
    db: &Path,
    migrator: &Migrator,
) -> Result<Option<PathBuf>> {
    let tables: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_sqlx_migrations'",
    )
    .fetch_one(pool)
    .await?;
    if tables == 0 {
        return Ok(None);
    }
    let has_log: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '_sqlx_migrations'",
    )
    .fetch_one(pool)
    .await?;
    let applied: Vec<i64> = if has_log > 0 {
        sqlx::query_scalar("SELECT version FROM _sqlx_migrations WHERE success")
            .fetch_all(pool)
            .await?
    } else {
        Vec::new()
    };
    let Some(next) = migrator
        .iter()
        .map(|m| m.version)
        .filter(|v| !applied.contains(v))
        .min()
    else {
        return Ok(None);
    };
    let name = db
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| super::DB_FILE.to_owned());
    let dir = db.parent().unwrap_or(Path::new("."));
    let target = (0..)
        .map(|n| match n {
            0 => dir.join(format!("{name}.before-{next:04}.bak")),
            n => dir.join(format!("{name}.before-{next:04}.{n}.bak")),
        })
        .find(|p| !p.exists())
        .expect("some name is free");
    let tmp = dir.join(format!(
        ".{}.tmp-{}",
        target.file_name().expect("made above").to_string_lossy(),
        std::process::id()
    ));
    let ctx = |e| {
        Error::io(
            format!(
                "copying the database to {} before migrating it",
                target.display()
            ),
            e,
        )
    };
    // A leftover of an earlier run that stopped half-way (VACUUM INTO wants no file there).
    match std::fs::remove_file(&tmp) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(ctx(e)),
        _ => {}
    }
    sqlx::query("VACUUM INTO $1")
        .bind(tmp.to_string_lossy().into_owned())
        .execute(pool)
        .await?;
    std::fs::File::open(&tmp)
        .and_then(|f| f.sync_all())
        .and_then(|()| std::fs::rename(&tmp, &target))
        .map_err(ctx)?;
    tracing::info!(
        backup = %target.display(),
        next_migration = next,
        "the database needs migrating to this version: kept a copy of it as it was"
    );
    Ok(Some(target))
}
