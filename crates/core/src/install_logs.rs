//! The installers' own logs: every default answer file sends its installer's logs here, on
//! failure and on success, with the host's install token (`POST /api/v2/hosts/<name>/logs`);
//! API clients and the window list and read them per attempt. An attempt is one issued install
//! token (one image build), numbered per host from 1. Files live under the data dir, never in
//! svc (which is served without a token): `<data>/logs/<host>/<attempt>/<file>`, beside each
//! attempt's `.attempt` marker holding the SHA-256 of its token.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use bootsmith_model::time::{Millis, Time};
use serde::{Deserialize, Serialize};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use utoipa::{IntoParams, ToSchema};

use crate::app::{blocking, App};
use crate::callbacks::check_token;
use crate::error::{Error, ErrorCode, Result};
use crate::records::hosts;
use bootsmith_store::lifecycle as rows;

/// Most bytes the logs of one host and attempt may take together. The templates send the last
/// 1–2 MiB of each log, so a whole set fits; the cap keeps a runaway installer off the disk.
pub const CAP: u64 = 8 * 1024 * 1024;
/// Folder of the installers' logs in the data dir.
const DIR: &str = "logs";
/// Per attempt: the SHA-256 (hex) of its install token. Uploaded names cannot start with a dot.
const MARKER: &str = ".attempt";
/// Longest file name an installer may send.
const MAX_NAME: usize = 100;
/// Most lines `?tail=` may ask for.
pub const MAX_TAIL: u32 = 10_000;

/// Finding or opening a host's attempt is one scan and one create: two uploads of a new
/// attempt at once must not both number one. Held only for those file operations.
static ATTEMPTS: Mutex<()> = Mutex::new(());

/// One log file of an attempt.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LogFile {
    /// File name, as the installer sent it (`program.log`).
    pub name: String,
    /// Size in bytes.
    pub bytes: u64,
    /// When it arrived (RFC 3339); a file sent again replaces the earlier one.
    #[schema(value_type = String, format = DateTime)]
    pub uploaded_at: Time<Millis>,
}

/// The logs of one install attempt (one image build's install token).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LogAttempt {
    /// Attempt number, from 1 per host.
    pub attempt: u32,
    /// When its first log arrived (RFC 3339).
    #[schema(value_type = String, format = DateTime)]
    pub started_at: Time<Millis>,
    /// Whether its token is still the host's current one (its images were not rebuilt since
    /// and the installer has not reported installed).
    pub current: bool,
    /// Its files, in the order they arrived.
    pub files: Vec<LogFile>,
}

/// Which file of which attempt.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LogRef {
    /// Attempt number.
    pub attempt: u32,
    /// File name.
    pub file: String,
}

/// A host's installer logs, newest attempt first.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HostLogs {
    /// Host name.
    pub host: String,
    /// Most bytes one attempt's logs may take together.
    pub cap_bytes: u64,
    /// Every attempt that sent a log, newest first.
    pub attempts: Vec<LogAttempt>,
    /// The log that tells why the last attempt ended as it did: the file of the newest
    /// attempt that arrived last (the answer files send the most telling log last).
    pub latest: Option<LogRef>,
}

/// `?tail=` of a read.
#[derive(Debug, Clone, Default, Deserialize, IntoParams, ToSchema)]
#[into_params(parameter_in = Query)]
pub struct LogTextQuery {
    /// Only the last this many lines (at most 10000); without it, the whole file.
    pub tail: Option<u32>,
}

/// One log file's text.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LogText {
    /// Host name.
    pub host: String,
    /// Attempt number.
    pub attempt: u32,
    /// File name.
    pub file: String,
    /// Size of the whole file in bytes.
    pub bytes: u64,
    /// The text (bytes that are not UTF-8 shown as �); the last `tail` lines when asked.
    pub text: String,
}

/// What an upload stored.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct StoredLog {
    /// Host name.
    pub host: String,
    /// Attempt number the file went to.
    pub attempt: u32,
    /// File name.
    pub file: String,
    /// Bytes stored.
    pub bytes: u64,
}

/// `file` when it may name a log: letters, digits, `.`, `_`, `-`, not starting with a dot, at
/// most 100 characters. Checked before any path is made of it.
fn check_name(file: &str) -> Result<()> {
    let ok = !file.is_empty()
        && file.len() <= MAX_NAME
        && !file.starts_with('.')
        && file
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    if ok {
        Ok(())
    } else {
        Err(Error::bad(
            ErrorCode::InvalidLogFileName,
            format!(
                "'{}' cannot name an installer log: use 1 to {MAX_NAME} letters, digits, dots, dashes or underscores, not starting with a dot",
                file.chars().filter(|c| !c.is_control()).take(120).collect::<String>()
            ),
        ))
    }
}

fn host_dir(app: &App, host: &str) -> PathBuf {
    app.data_dir().join(DIR).join(host)
}

fn io(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> Error {
    move |e| Error::io(context, e)
}

/// The numbered attempt folders under `dir` with their token hashes, lowest number first.
fn attempts_in(dir: &Path) -> Result<Vec<(u32, PathBuf, Option<String>)>> {
    let entries = match fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::io("the installer logs could not be listed", e)),
    };
    let mut out = Vec::new();
    for entry in entries {
        let entry = entry.map_err(io("the installer logs could not be listed"))?;
        let Some(n) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        let hash = fs::read_to_string(entry.path().join(MARKER))
            .ok()
            .map(|h| h.trim().to_owned());
        out.push((n, entry.path(), hash));
    }
    out.sort_by_key(|(n, _, _)| *n);
    Ok(out)
}

/// The attempt folder of the token `hash` under `dir`, made (with the next number) when its
/// installer sends its first log.
fn open_attempt(dir: &Path, hash: &str) -> Result<(u32, PathBuf)> {
    let _one = ATTEMPTS.lock().unwrap_or_else(|p| p.into_inner());
    let known = attempts_in(dir)?;
    if let Some((n, path, _)) = known.iter().find(|(_, _, h)| h.as_deref() == Some(hash)) {
        return Ok((*n, path.clone()));
    }
    let n = known.last().map_or(1, |(n, _, _)| n + 1);
    let path = dir.join(n.to_string());
    fs::create_dir_all(&path).map_err(io("a folder for the installer logs could not be made"))?;
    let marker = path.join(MARKER);
    let tmp = path.join(".attempt.tmp");
    fs::write(&tmp, hash).map_err(io("a folder for the installer logs could not be made"))?;
    fs::rename(&tmp, &marker).map_err(io("a folder for the installer logs could not be made"))?;
    Ok((n, path))
}

/// Bytes the files of attempt folder `dir` take, leaving out `except`.
fn used(dir: &Path, except: &str) -> Result<u64> {
    Ok(files_in(dir)?
        .iter()
        .filter(|f| f.name != except)
        .map(|f| f.bytes)
        .sum())
}

/// The log files of attempt folder `dir`, in the order they arrived.
fn files_in(dir: &Path) -> Result<Vec<LogFile>> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).map_err(io("the installer logs could not be listed"))? {
        let entry = entry.map_err(io("the installer logs could not be listed"))?;
        let Ok(name) = entry.file_name().into_string() else {
            continue;
        };
        if name.starts_with('.') {
            continue;
        }
        let meta = entry
            .metadata()
            .map_err(io("the installer logs could not be listed"))?;
        if !meta.is_file() {
            continue;
        }
        let at = meta
            .modified()
            .map_err(io("the installer logs could not be listed"))?;
        files.push((at, name, meta.len()));
    }
    files.sort();
    Ok(files
        .into_iter()
        .map(|(at, name, bytes)| LogFile {
            name,
            bytes,
            uploaded_at: Time::from(at),
        })
        .collect())
}

fn too_large(host: &str, attempt: u32, file: &str) -> Error {
    Error::TooLarge {
        code: ErrorCode::InstallLogTooLarge,
        message: format!(
            "The installer logs of host {host} may take at most {} MiB per attempt together; {file} would take attempt {attempt} past that, so it was not kept",
            CAP / (1024 * 1024)
        ),
    }
}

/// Store the log `file` that the installer of host `name` sends (`POST
/// /api/v2/hosts/<name>/logs?file=<file>`, body the raw bytes), with the host's current
/// install token. A spent token is refused like any wrong one: the answer files send their
/// logs before the installed callback spends it, so nothing can be added to an attempt after
/// its installer said it was done, and a leaked token of a finished install opens nothing.
pub async fn receive<R>(
    app: &App,
    name: &str,
    token: Option<&str>,
    file: &str,
    mut body: R,
) -> Result<StoredLog>
where
    R: AsyncRead + Unpin + Send,
{
    let (host, hash) = check_token(app, name, token).await?;
    check_name(file)?;
    let host_name = host.name.to_string();
    let dir = host_dir(app, &host_name);
    let (attempt, path) = blocking(move || open_attempt(&dir, &hash)).await?;
    let budget = {
        let (path, file) = (path.clone(), file.to_owned());
        blocking(move || used(&path, &file)).await?
    };
    let budget = CAP.saturating_sub(budget);
    let tmp = path.join(format!(".upload-{}", crate::lifecycle::new_token().0));
    let written = copy_capped(&mut body, &tmp, budget).await;
    let bytes = match written {
        Ok(Some(b)) => b,
        Ok(None) => {
            let _ = tokio::fs::remove_file(&tmp).await;
            return Err(too_large(&host_name, attempt, file));
        }
        Err(e) => {
            let _ = tokio::fs::remove_file(&tmp).await;
            return Err(e);
        }
    };
    // Another upload to the attempt may have landed meanwhile: the cap holds at the rename.
    let kept = {
        let (path, file, tmp) = (path.clone(), file.to_owned(), tmp.clone());
        blocking(move || {
            let _one = ATTEMPTS.lock().unwrap_or_else(|p| p.into_inner());
            if used(&path, &file)? + bytes > CAP {
                return Ok(false);
            }
            fs::rename(&tmp, path.join(&file))
                .map_err(io("the installer log could not be stored"))?;
            Ok(true)
        })
        .await
    };
    if !matches!(kept, Ok(true)) {
        let _ = tokio::fs::remove_file(&tmp).await;
        kept?;
        return Err(too_large(&host_name, attempt, file));
    }
    app.lifecycle().note(
        &host_name,
        format!("the installer sent its log {file} ({bytes} bytes, attempt {attempt})"),
    );
    Ok(StoredLog {
        host: host_name,
        attempt,
        file: file.to_owned(),
        bytes,
    })
}

/// Stream `body` into a new file `tmp`: its size, or `None` once it passes `budget` bytes.
async fn copy_capped<R>(body: &mut R, tmp: &Path, budget: u64) -> Result<Option<u64>>
where
    R: AsyncRead + Unpin + Send,
{
    let mut out = tokio::fs::File::create(tmp)
        .await
        .map_err(io("the installer log could not be stored"))?;
    let mut buf = vec![0u8; 64 * 1024];
    let mut total = 0u64;
    loop {
        let n = body.read(&mut buf).await.map_err(|e| {
            Error::bad(
                ErrorCode::UploadInterrupted,
                format!("the upload ended before the whole log arrived: {e}"),
            )
        })?;
        if n == 0 {
            break;
        }
        total += n as u64;
        if total > budget {
            return Ok(None);
        }
        out.write_all(&buf[..n])
            .await
            .map_err(io("the installer log could not be stored"))?;
    }
    out.sync_all()
        .await
        .map_err(io("the installer log could not be stored"))?;
    Ok(Some(total))
}

/// The installer logs of host `name`, per attempt, newest first (`GET /api/v2/hosts/<name>/logs`).
pub async fn list(app: &App, name: &str) -> Result<HostLogs> {
    let host = hosts::get(app, name).await?;
    let host_name = host.name.to_string();
    let current = rows::media_of(app.store().reader(), &host_name)
        .await?
        .and_then(|r| r.token_hash);
    let dir = host_dir(app, &host_name);
    let attempts = blocking(move || {
        let mut out = Vec::new();
        for (attempt, path, hash) in attempts_in(&dir)?.into_iter().rev() {
            let started_at = fs::metadata(path.join(MARKER))
                .and_then(|m| m.modified())
                .map(Time::from)
                .unwrap_or_else(|_| Time::now());
            out.push(LogAttempt {
                attempt,
                started_at,
                current: hash.is_some() && hash == current,
                files: files_in(&path)?,
            });
        }
        Ok(out)
    })
    .await?;
    let latest = attempts.first().and_then(|a| {
        a.files.last().map(|f| LogRef {
            attempt: a.attempt,
            file: f.name.clone(),
        })
    });
    Ok(HostLogs {
        host: host_name,
        cap_bytes: CAP,
        attempts,
        latest,
    })
}

fn no_log(host: &str, attempt: &str, file: &str) -> Error {
    Error::not_found(
        ErrorCode::InstallLogNotFound,
        format!(
            "Host {host} has no installer log {file} in attempt {attempt}; the host's list of installer logs (its timeline on the Deploy screen) shows the ones it has"
        ),
    )
}

/// One installer log of host `name` (`GET /api/v2/hosts/<name>/logs/<attempt>/<file>`), whole
/// or its last `tail` lines.
pub async fn read(
    app: &App,
    name: &str,
    attempt: &str,
    file: &str,
    query: LogTextQuery,
) -> Result<LogText> {
    let host = hosts::get(app, name).await?;
    let host_name = host.name.to_string();
    check_name(file)?;
    if let Some(t) = query.tail {
        if t == 0 || t > MAX_TAIL {
            return Err(Error::bad(
                ErrorCode::InvalidLogQuery,
                format!("tail must be 1 to {MAX_TAIL} lines, not {t}"),
            ));
        }
    }
    let Some(n) = attempt.parse::<u32>().ok().filter(|n| *n > 0) else {
        return Err(no_log(&host_name, attempt, file));
    };
    let path = host_dir(app, &host_name).join(n.to_string()).join(file);
    let data = match tokio::fs::read(&path).await {
        Ok(d) => d,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(no_log(&host_name, attempt, file))
        }
        Err(e) => return Err(Error::io("the installer log could not be read", e)),
    };
    let text = String::from_utf8_lossy(&data);
    let text = match query.tail {
        Some(t) => last_lines(&text, t as usize).to_owned(),
        None => text.into_owned(),
    };
    Ok(LogText {
        host: host_name,
        attempt: n,
        file: file.to_owned(),
        bytes: data.len() as u64,
        text,
    })
}

/// The last `n` lines of `text` (a final newline ends the last line, it does not start one).
fn last_lines(text: &str, n: usize) -> &str {
    let body = text.strip_suffix('\n').unwrap_or(text);
    match body.rmatch_indices('\n').nth(n.saturating_sub(1)) {
        Some((i, _)) if n > 0 => &text[i + 1..],
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_could_leave_the_folder_are_refused() {
        for bad in [
            "",
            "..",
            ".attempt",
            "a/b",
            "..\\x",
            "a b",
            "ü.log",
            &"x".repeat(101),
        ] {
            assert!(check_name(bad).is_err(), "{bad:?} passed");
        }
        for good in [
            "program.log",
            "setupact.log",
            "subiquity-server-debug.log",
            "x_1",
        ] {
            assert!(check_name(good).is_ok(), "{good:?} refused");
        }
    }

    #[test]
    fn the_last_lines_are_counted_from_the_end() {
        assert_eq!(last_lines("a\nb\nc\n", 2), "b\nc\n");
        assert_eq!(last_lines("a\nb\nc", 2), "b\nc");
        assert_eq!(last_lines("a\nb\nc\n", 5), "a\nb\nc\n");
        assert_eq!(last_lines("only", 1), "only");
    }
}
