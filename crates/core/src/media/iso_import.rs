//! Bringing an ISO file into svc (the window's drag-and-drop, and uploads): from a local path
//! ([`start`], a job: a hard link when svc is on the same filesystem, else a copy) or from a
//! stream ([`receive`], the REST upload), or from a URL on the network ([`fetch`], a job that
//! streams the download into svc, optionally checking its SHA-256).
//!
//! Only ISO 9660 images get in (the `CD001` signature at byte 0x8001): svc is served to the
//! network without a token, so importing must never publish an arbitrary file. A copy or an
//! upload is written under a hidden name at the top of svc (never listed or served) and gets
//! its own name only when complete and synced, and never over an existing file; on any failure
//! the hidden file is removed.
//!
//! Then the file is looked into like `GET /api/v2/isos` does and mapped: with `os` given, to
//! that OS (taking it over from another file, with a warning); without, to the one catalog OS it
//! is recognised as, unless that OS is already mapped to another file (then the map is left
//! alone, with a warning). A refused mapping (the ISO holds another OS) does not undo the
//! import: the file stays, `mapped` says what it is mapped to, and `warnings` says why.

use std::fs::{File, Metadata};
use std::io::{Read, Write};
use std::os::unix::fs::{FileExt, MetadataExt};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use utoipa::ToSchema;

use crate::app::{blocking, App};
use crate::error::{Error, ErrorCode, ErrorKind, Result};
use crate::jobs::{self, JobCtx, JobId, JobKind, JobStep, StepState};
use crate::media::isos::{self, MapOne, SVC_PREFIX};
use crate::media::svc::{self, PlaceError, SvcPath, TempFile};

// Private, its items named here: the action table's `iso_import::fetch` names the window's
// `iso_import_fetch` command.
mod download;
pub use download::{fetch, FetchInput, FETCH_JOB_KIND};

/// Job kind of path imports.
pub const JOB_KIND: JobKind = JobKind::IsoImport;

/// Copy and write size: large enough for disk speed, small enough to report progress often.
const CHUNK: usize = 1024 * 1024;

/// Where an ISO 9660 image carries its signature: the first volume descriptor (sector 16), byte 1.
const SIGNATURE_AT: usize = 0x8001;
const SIGNATURE: &[u8] = b"CD001";
/// Bytes needed to see the signature.
const HEAD_LEN: usize = SIGNATURE_AT + SIGNATURE.len();

/// Copy progress goes out at most this often (and at most once per 1 % of the file).
const PROGRESS_EVERY: Duration = Duration::from_millis(100);

/// What to import: a file on the machine Bootsmith runs on.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct ImportInput {
    /// Absolute path of the ISO file; it keeps its base name in svc.
    #[schema(schema_with = bootsmith_model::schema::iso_path)]
    pub path: String,
    /// Catalog OS id to map it to; without one it is mapped to the OS it is recognised as.
    #[serde(default)]
    pub os: Option<String>,
}

/// What an import did.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ImportResult {
    /// `/svc/<name>`.
    pub file: String,
    /// True when the file was hard-linked into svc (same filesystem: no copy, no extra space).
    pub linked: bool,
    /// Size of the file in bytes.
    pub bytes: u64,
    /// The catalog OS it was recognised as, when exactly one.
    pub detected: Option<String>,
    /// The OS it is mapped to now.
    pub mapped: Option<String>,
    /// What the operator should know: not recognised, not mapped and why, a mapping moved.
    pub warnings: Vec<String>,
}

/// Check everything, then import the file at `input.path` into svc as a job; the id comes back at once.
///
/// Refused before the job starts: a relative path, a missing or unreadable file, a directory
/// or device, a file that is not an ISO image, a base name that cannot be an ISO in svc, an
/// `os` not in the catalog, and a name that is taken in svc (409 `iso_exists`). A symlink is
/// followed to the file it names. Steps: `link` (done) or `copy` (with byte progress), then
/// `inspect` and `map`; the result is an [`ImportResult`].
pub async fn start(app: &App, input: ImportInput) -> Result<JobId> {
    let ImportInput { path, os } = input;
    let name = check_name(app, &source_name(&path)?).await?;
    let os = check_os(app, os)?;
    let svc = app.svc_dir().to_owned();
    let src = {
        let (svc, name) = (svc.clone(), name.clone());
        blocking(move || {
            let src = open_source(&path, name)?;
            dest_free(&svc, &src.name, Some(&src.meta))?;
            Ok(src)
        })
        .await?
    };
    let core = app.clone();
    let scope = format!("{SVC_PREFIX}{name}");
    jobs::start(app, JOB_KIND, Some(scope), move |ctx| async move {
        let job = ctx.clone();
        let (linked, bytes) = blocking(move || bring(&svc, src, &job)).await?;
        let result = conclude(&core, name.as_str(), os, linked, bytes, Some(&ctx)).await?;
        serde_json::to_value(result)
            .map_err(|e| Error::Corrupt(format!("import results do not serialize: {e}")))
    })
    .await
}

/// Write the ISO read from `body` into svc as `name`, then look into it and map it like [`start`].
///
/// `name`, `os` and that `name` is free are checked before anything is read; the first 32 KiB
/// are checked for the ISO signature before anything is written. The body is streamed to a
/// hidden file in svc (never held in memory), synced, and named `name` only when complete.
pub async fn receive<R>(
    app: &App,
    name: &str,
    os: Option<String>,
    mut body: R,
) -> Result<ImportResult>
where
    R: AsyncRead + Unpin + Send,
{
    let dest = check_name(app, name).await?;
    let os = check_os(app, os)?;
    let svc = app.svc_dir().to_owned();
    {
        let (svc, dest) = (svc.clone(), dest.clone());
        blocking(move || dest_free(&svc, &dest, None)).await?;
    }
    // The signature first: bytes that are no ISO never touch svc.
    let mut head = Vec::with_capacity(HEAD_LEN);
    (&mut body)
        .take(HEAD_LEN as u64)
        .read_to_end(&mut head)
        .await
        .map_err(interrupted)?;
    if !is_iso_head(&head) {
        return Err(not_an_iso(&format!(
            "the uploaded data ({} bytes{})",
            head.len(),
            if head.len() < HEAD_LEN {
                " in all"
            } else {
                " and more"
            }
        )));
    }
    let (tmp, file) = {
        let svc = svc.clone();
        blocking(move || create_temp(&svc)).await?
    };
    let bytes = match stream_into(&mut body, &head, tokio::fs::File::from_std(file), name).await {
        Ok(b) => b,
        Err(e) => {
            // Removing a large file can take a while: not on the async threads.
            let _ = blocking(move || {
                drop(tmp);
                Ok(())
            })
            .await;
            return Err(e);
        }
    };
    blocking(move || place(tmp, &svc, &dest)).await?;
    conclude(app, name, os, false, bytes, None).await
}

/// The base name of an absolute path: the name the file gets in svc.
fn source_name(path: &str) -> Result<String> {
    let p = Path::new(path);
    if !p.is_absolute() {
        return Err(path_error(format!(
            "'{}' is not an absolute path",
            path.escape_debug()
        )));
    }
    p.file_name()
        .and_then(|n| n.to_str())
        .map(str::to_owned)
        .ok_or_else(|| {
            path_error(format!(
                "'{}' does not end in a file name",
                path.escape_debug()
            ))
        })
}

/// The name must be one a user's ISO in svc can have, and not one of the media Bootsmith makes.
async fn check_name(app: &App, name: &str) -> Result<SvcPath> {
    let path = isos::check_new_name(name).map_err(name_error)?;
    if isos::generated_media(app).await?.contains(name) {
        return Err(name_error(format!(
            "'{name}' is the name of install media Bootsmith makes itself; rename the file"
        )));
    }
    Ok(path)
}

/// An empty `os` counts as none (a form's empty field); any other must be a catalog id.
fn check_os(app: &App, os: Option<String>) -> Result<Option<String>> {
    match os.filter(|o| !o.is_empty()) {
        Some(o) if app.catalog().get(&o).is_none() => Err(Error::invalid_field(
            ErrorCode::UnknownOs,
            "The ISO cannot be imported",
            "os",
            format!("'{o}' is not an OS of the catalog"),
        )),
        os => Ok(os),
    }
}

/// The file to import, opened and checked.
struct Source {
    file: File,
    /// The path with symlinks resolved, for the hard link (which would link a symlink itself).
    real: PathBuf,
    /// Of the opened file.
    meta: Metadata,
    name: SvcPath,
}

fn open_source(path: &str, name: SvcPath) -> Result<Source> {
    // Look before opening: opening a FIFO would block until someone writes to it.
    let meta = std::fs::metadata(path).map_err(|e| source_error(path, e))?;
    if !meta.is_file() {
        return Err(not_a_file(path, &meta));
    }
    let real = std::fs::canonicalize(path).map_err(|e| source_error(path, e))?;
    let file = File::open(&real).map_err(|e| source_error(path, e))?;
    // What was opened is what counts, whatever the path pointed at a moment ago.
    let meta = file.metadata().map_err(|e| source_error(path, e))?;
    if !meta.is_file() {
        return Err(not_a_file(path, &meta));
    }
    if !has_signature(&file).map_err(|e| source_error(path, e))? {
        return Err(not_an_iso(&format!("'{}'", path.escape_debug())));
    }
    Ok(Source {
        file,
        real,
        meta,
        name,
    })
}

/// Refuse a taken name; say so when it is taken by the very file being imported.
fn dest_free(svc: &Path, name: &SvcPath, source: Option<&Metadata>) -> Result<()> {
    match svc::occupied(svc, name) {
        Ok(false) => Ok(()),
        Err(e) => Err(Error::io(format!("looking for {SVC_PREFIX}{name}"), e)),
        Ok(true) => Err(exists(
            name.as_str(),
            source.is_some_and(|s| same_file(&name.under(svc), s)),
        )),
    }
}

fn same_file(path: &Path, meta: &Metadata) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.dev() == meta.dev() && m.ino() == meta.ino())
}

/// Put the source into svc: a hard link where possible, else a copy with progress.
fn bring(svc: &Path, src: Source, ctx: &JobCtx) -> Result<(bool, u64)> {
    let dest = src.name.under(svc);
    match std::fs::hard_link(&src.real, &dest) {
        Ok(()) => {
            // The path could have been swapped since it was checked: the link must be the file we opened.
            if !same_file(&dest, &src.meta) {
                let _ = std::fs::remove_file(&dest);
                return Err(Error::conflict(
                    ErrorCode::SourceChanged,
                    "the file was replaced while it was being imported; try again",
                ));
            }
            svc::sync_dir(svc);
            ctx.step(
                None,
                JobStep::Link,
                StepState::Done,
                Some("hard-linked into svc: same filesystem, nothing copied"),
            );
            return Ok((true, src.meta.len()));
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            return Err(exists(src.name.as_str(), same_file(&dest, &src.meta)));
        }
        // Another filesystem (EXDEV), or one that refuses hard links: copy instead.
        Err(e) => tracing::info!(error = %e, file = %src.name, "no hard link into svc; copying"),
    }
    ctx.step(None, JobStep::Copy, StepState::Started, None);
    let total = src.meta.len();
    let mut throttle = Throttle::new(total);
    let mut file = src.file;
    let copied = copy_into(&mut file, svc, &src.name, |done| {
        if throttle.due(done, Instant::now()) {
            ctx.bytes(JobStep::Copy, None, done, total);
        }
    });
    match copied {
        Ok(bytes) => {
            // The final figure always goes out (also if the file changed size meanwhile).
            ctx.bytes(JobStep::Copy, None, bytes, bytes);
            ctx.step(
                None,
                JobStep::Copy,
                StepState::Done,
                Some(&format!("{bytes} bytes copied")),
            );
            Ok((false, bytes))
        }
        Err(e) => {
            ctx.step(None, JobStep::Copy, StepState::Failed, Some(&e.to_string()));
            Err(e)
        }
    }
}

/// Copy `src` into a hidden file in svc, sync it and give it `name`; `progress` gets the bytes done.
fn copy_into<R: Read>(
    src: &mut R,
    svc: &Path,
    dest: &SvcPath,
    mut progress: impl FnMut(u64),
) -> Result<u64> {
    let name = dest.as_str();
    let (tmp, mut out) = create_temp(svc)?;
    let mut buf = vec![0u8; CHUNK];
    let mut done = 0u64;
    loop {
        let n = match src.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Error::io("reading the file to import", e)),
        };
        out.write_all(&buf[..n]).map_err(|e| write_error(name, e))?;
        done += n as u64;
        progress(done);
    }
    out.sync_all().map_err(|e| write_error(name, e))?;
    // The source was checked when opened; if it changed while being copied, check what we got.
    if !has_signature(&out).map_err(|e| write_error(name, e))? {
        return Err(not_an_iso(&format!(
            "the copy of {name} (did the file change while it was copied?)"
        )));
    }
    drop(out);
    place(tmp, svc, dest)?;
    Ok(done)
}

/// Stream the rest of `body` after `head` into `file`; synced when it returns.
async fn stream_into<R: AsyncRead + Unpin>(
    body: &mut R,
    head: &[u8],
    file: tokio::fs::File,
    name: &str,
) -> Result<u64> {
    let mut out = tokio::io::BufWriter::with_capacity(CHUNK, file);
    out.write_all(head)
        .await
        .map_err(|e| write_error(name, e))?;
    let mut done = head.len() as u64;
    let mut buf = vec![0u8; 256 * 1024];
    loop {
        let n = body.read(&mut buf).await.map_err(interrupted)?;
        if n == 0 {
            break;
        }
        out.write_all(&buf[..n])
            .await
            .map_err(|e| write_error(name, e))?;
        done += n as u64;
    }
    out.flush().await.map_err(|e| write_error(name, e))?;
    out.into_inner()
        .sync_all()
        .await
        .map_err(|e| write_error(name, e))?;
    Ok(done)
}

/// Look into the imported file and map it (see the module documentation).
async fn conclude(
    app: &App,
    name: &str,
    os: Option<String>,
    linked: bool,
    bytes: u64,
    ctx: Option<&JobCtx>,
) -> Result<ImportResult> {
    let file = format!("{SVC_PREFIX}{name}");
    let info = {
        let (svc, name, markers) = (
            app.svc_dir().to_owned(),
            name.to_owned(),
            isos::catalog_markers(app),
        );
        blocking(move || Ok(isos::look_into(&svc, &name, None, &markers))).await?
    };
    let mut warnings = Vec::new();
    let detected = pick(app, &info.detected, info.volume_id.as_deref());
    report(
        ctx,
        JobStep::Inspect,
        StepState::Done,
        &detected
            .clone()
            .unwrap_or_else(|| "not recognised".to_owned()),
    );
    // With an OS given, the mapping's own warning says what the ISO is not recognised as.
    if os.is_none() && detected.is_none() {
        warnings.push(match (&info.problem, info.detected.as_slice()) {
            (Some(p), _) => {
                format!("{file}: {p}; it was imported but cannot be used as install media")
            }
            (None, []) => format!(
                "{file} was not recognised as any OS of the catalog; map it to its OS by hand"
            ),
            (None, several) => format!(
                "{file} looks like {}; map it to the right one by hand",
                several.join(" and ")
            ),
        });
    }
    let (target, take_over) = match (&os, &detected) {
        (Some(os), _) => (Some(os.clone()), true),
        (None, found) => (found.clone(), false),
    };
    match target {
        None => report(ctx, JobStep::Map, StepState::Skipped, "no OS to map it to"),
        Some(target) => match isos::map_one(app, &file, &target, take_over).await {
            Ok(MapOne::Mapped {
                warnings: w,
                replaced,
            }) => {
                warnings.extend(w);
                if let Some(old) = replaced {
                    warnings.push(format!(
                        "{target} was mapped to {old}; it is now mapped to {file}"
                    ));
                }
                report(ctx, JobStep::Map, StepState::Done, &target);
            }
            Ok(MapOne::Taken(other)) => {
                let w = format!(
                    "{target} is already mapped to {other}; the map was left as it is (to use {file} instead, map it to {target})"
                );
                report(ctx, JobStep::Map, StepState::Skipped, &w);
                warnings.push(w);
            }
            // Refused (it holds another OS): the import stands, the reason goes to the operator.
            Err(e) if e.kind() == ErrorKind::Invalid => {
                let why = e
                    .details()
                    .first()
                    .map_or_else(|| e.to_string(), |p| p.message.clone());
                let w = format!("{file} was imported but not mapped to {target}: {why}");
                report(ctx, JobStep::Map, StepState::Failed, &w);
                warnings.push(w);
            }
            Err(e) => return Err(e),
        },
    }
    let mapped = isos::map(app)
        .await?
        .into_iter()
        .find(|e| e.file == file)
        .map(|e| e.os);
    Ok(ImportResult {
        file,
        linked,
        bytes,
        detected,
        mapped,
        warnings,
    })
}

/// The one OS the ISO was recognised as, if there is one.
///
/// Equally specific markers can match several OSes: CentOS 7.4 and RHEL 7.4 both say "7.4" in
/// `.discinfo`. The volume label then decides when it names the vendor of exactly one of them,
/// by the first word of the OS name ("CentOS 7 x86_64") or its initials ("RHEL-7.4 Server").
fn pick(app: &App, detected: &[String], volume_id: Option<&str>) -> Option<String> {
    if let [one] = detected {
        return Some(one.clone());
    }
    let label: Vec<String> = volume_id?
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|t| !t.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    let catalog = app.catalog();
    let named = |id: &String| {
        let Some(os) = catalog.get(id) else {
            return false;
        };
        let words: Vec<String> = os
            .name
            .split_whitespace()
            .take_while(|w| w.chars().all(char::is_alphabetic))
            .map(str::to_ascii_lowercase)
            .collect();
        let initials: String = words.iter().filter_map(|w| w.chars().next()).collect();
        words.first().is_some_and(|w| label.contains(w))
            || (words.len() > 1 && label.contains(&initials))
    };
    let mut named_ones = detected.iter().filter(|id| named(id));
    match (named_ones.next(), named_ones.next()) {
        (Some(one), None) => Some(one.clone()),
        _ => None,
    }
}

fn report(ctx: Option<&JobCtx>, step: JobStep, state: StepState, message: &str) {
    if let Some(ctx) = ctx {
        ctx.step(None, step, state, Some(message));
    }
}

/// A hidden file at the top of svc to write the import into.
fn create_temp(svc: &Path) -> Result<(TempFile, File)> {
    TempFile::create(svc, "import").map_err(|e| Error::io("creating a temporary file in svc", e))
}

/// Give the complete import its name, never over an existing file.
fn place(tmp: TempFile, svc: &Path, dest: &SvcPath) -> Result<()> {
    tmp.place(svc, dest).map_err(|e| match e {
        PlaceError::Taken => exists(dest.as_str(), false),
        PlaceError::Io(e) => Error::io(format!("naming the imported file {SVC_PREFIX}{dest}"), e),
    })
}

/// At most one progress report per 1 % of the file and per [`PROGRESS_EVERY`].
struct Throttle {
    step: u64,
    last_done: u64,
    last_at: Option<Instant>,
}

impl Throttle {
    fn new(total: u64) -> Self {
        Throttle {
            step: (total / 100).max(1),
            last_done: 0,
            last_at: None,
        }
    }

    fn due(&mut self, done: u64, now: Instant) -> bool {
        let due = done.saturating_sub(self.last_done) >= self.step
            && self
                .last_at
                .is_none_or(|t| now.duration_since(t) >= PROGRESS_EVERY);
        if due {
            self.last_done = done;
            self.last_at = Some(now);
        }
        due
    }
}

/// Whether the first bytes of a file carry the ISO 9660 signature.
fn is_iso_head(head: &[u8]) -> bool {
    head.get(SIGNATURE_AT..HEAD_LEN) == Some(SIGNATURE)
}

fn has_signature(file: &File) -> std::io::Result<bool> {
    let mut buf = [0u8; SIGNATURE.len()];
    match file.read_exact_at(&mut buf, SIGNATURE_AT as u64) {
        Ok(()) => Ok(buf == SIGNATURE),
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(false),
        Err(e) => Err(e),
    }
}

fn path_error(message: String) -> Error {
    Error::invalid_field(
        ErrorCode::InvalidPath,
        "The ISO cannot be imported",
        "path",
        message,
    )
}

fn name_error(message: String) -> Error {
    Error::invalid_field(
        ErrorCode::InvalidIsoName,
        "The ISO cannot be imported",
        "file",
        message,
    )
}

fn not_an_iso(what: &str) -> Error {
    Error::bad(
        ErrorCode::NotAnIso,
        format!("{what} is not an ISO 9660 image (no CD001 signature at byte 32769); only ISO images can be imported, because svc is served to the network without a token"),
    )
}

fn not_a_file(path: &str, meta: &Metadata) -> Error {
    let what = if meta.is_dir() {
        "a directory; import the ISO file in it"
    } else {
        "not a regular file (a device, pipe or socket)"
    };
    Error::bad(
        ErrorCode::NotAFile,
        format!("'{}' is {what}", path.escape_debug()),
    )
}

/// Why the file to import cannot be looked at, in the operator's words.
fn source_error(path: &str, e: std::io::Error) -> Error {
    use std::io::ErrorKind as K;
    let path = path.escape_debug();
    match e.kind() {
        K::NotFound | K::NotADirectory => Error::bad(
            ErrorCode::PathNotFound,
            format!("there is no file '{path}'"),
        ),
        K::PermissionDenied => Error::bad(
            ErrorCode::FileUnreadable,
            format!("Bootsmith may not read '{path}' (permission denied)"),
        ),
        _ => Error::io(format!("reading '{path}'"), e),
    }
}

fn exists(name: &str, same: bool) -> Error {
    let message = if same {
        format!("{SVC_PREFIX}{name} is already in svc: it is this very file")
    } else {
        format!("{SVC_PREFIX}{name} already exists in svc; remove it there first, or import the file under another name")
    };
    Error::conflict(ErrorCode::IsoExists, message)
}

fn write_error(name: &str, e: std::io::Error) -> Error {
    Error::io(format!("writing {SVC_PREFIX}{name}"), e)
}

fn interrupted(e: std::io::Error) -> Error {
    Error::bad(
        ErrorCode::UploadInterrupted,
        format!("the upload ended before the whole file arrived: {e}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file with the ISO signature and `size` bytes in all.
    fn iso_bytes(size: usize) -> Vec<u8> {
        let mut b: Vec<u8> = (0..size).map(|i| (i % 251) as u8).collect();
        b[SIGNATURE_AT..HEAD_LEN].copy_from_slice(SIGNATURE);
        b
    }

    fn top(name: &str) -> SvcPath {
        SvcPath::top(name).unwrap()
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn the_signature_is_looked_for_at_byte_0x8001() {
        assert!(is_iso_head(&iso_bytes(HEAD_LEN)));
        assert!(!is_iso_head(&iso_bytes(HEAD_LEN)[..HEAD_LEN - 1]));
        assert!(!is_iso_head(&vec![0u8; 40_000]));
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a");
        std::fs::write(&p, b"short").unwrap();
        assert!(!has_signature(&File::open(&p).unwrap()).unwrap());
        std::fs::write(&p, iso_bytes(50_000)).unwrap();
        assert!(has_signature(&File::open(&p).unwrap()).unwrap());
    }

    #[test]
    fn a_copy_is_complete_and_named_or_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let data = iso_bytes(3 * CHUNK + 123);
        let mut seen = Vec::new();
        let n = copy_into(&mut &data[..], dir.path(), &top("a.iso"), |d| seen.push(d)).unwrap();
        assert_eq!(n, data.len() as u64);
        assert_eq!(std::fs::read(dir.path().join("a.iso")).unwrap(), data);
        assert_eq!(seen.last(), Some(&n));
        assert_eq!(names(dir.path()), ["a.iso"], "no temporary file left");

        // Never over an existing file, and the temporary file goes.
        let err = copy_into(&mut &data[..], dir.path(), &top("a.iso"), |_| {}).unwrap_err();
        assert_eq!(err.code(), "iso_exists");
        assert_eq!(names(dir.path()), ["a.iso"]);

        // A read that fails half-way.
        struct Broken(usize);
        impl Read for Broken {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                if self.0 == 0 {
                    return Err(std::io::Error::other("the disk went away"));
                }
                let n = buf.len().min(self.0);
                buf[..n].fill(1);
                self.0 -= n;
                Ok(n)
            }
        }
        let err = copy_into(&mut Broken(CHUNK + 5), dir.path(), &top("b.iso"), |_| {}).unwrap_err();
        assert_eq!(err.code(), "io_error");
        assert_eq!(names(dir.path()), ["a.iso"], "nothing half-written left");

        // Bytes that are no ISO (a source that changed while copied) are not named.
        let err =
            copy_into(&mut &[0u8; 40_000][..], dir.path(), &top("c.iso"), |_| {}).unwrap_err();
        assert_eq!(err.code(), "not_an_iso");
        assert_eq!(names(dir.path()), ["a.iso"]);
    }

    #[test]
    fn progress_is_throttled_to_one_percent_and_100_ms() {
        let t0 = Instant::now();
        let mut t = Throttle::new(1000);
        assert!(!t.due(9, t0), "under 1 %");
        assert!(t.due(10, t0), "the first 1 %");
        assert!(!t.due(500, t0 + Duration::from_millis(50)), "too soon");
        assert!(t.due(500, t0 + Duration::from_millis(100)));
        assert!(
            !t.due(505, t0 + Duration::from_secs(9)),
            "under 1 % since the last"
        );
        // A million tiny steps in no time give one report.
        let mut t = Throttle::new(1_000_000);
        let count = (1..=1_000_000).filter(|d| t.due(*d, t0)).count();
        assert_eq!(count, 1);
    }

    #[tokio::test]
    async fn the_volume_label_settles_look_alikes() {
        let app = crate::testing::TempApp::new().await;
        let both = ["centos7.4".to_owned(), "redhat7.4".to_owned()];
        let pick = |label| pick(&app, &both, label);
        assert_eq!(pick(Some("CentOS 7 x86_64")).as_deref(), Some("centos7.4"));
        assert_eq!(
            pick(Some("RHEL-7.4 Server.x86_64")).as_deref(),
            Some("redhat7.4")
        );
        assert_eq!(pick(Some("MYDISTRO 7.4")), None, "no vendor named");
        assert_eq!(pick(None), None);
        assert_eq!(
            super::pick(&app, &["esxi6.7".to_owned()], None).as_deref(),
            Some("esxi6.7")
        );
    }

    #[test]
    fn names_come_from_absolute_paths() {
        assert_eq!(source_name("/x/CentOS.iso").unwrap(), "CentOS.iso");
        assert_eq!(source_name("/x/y.iso/").unwrap(), "y.iso");
        for bad in ["", "x.iso", "./x.iso", "/", "/x/.."] {
            assert_eq!(
                source_name(bad).unwrap_err().code(),
                "invalid_path",
                "{bad}"
            );
        }
    }
}
