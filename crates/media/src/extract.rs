//! Extracting an installer ISO into the HTTP install tree `svc/<os>/`,
//! and recognising which OS an ISO holds.

use std::fs;
use std::io::BufWriter;
use std::path::{Component, Path, PathBuf};

use crate::error::{Error, Result};
pub use crate::iso::not_an_iso_reason;
use crate::iso::{Entry, Iso};

/// What happened to the install tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extracted {
    /// The tree was built now.
    Built {
        /// Files written.
        files: u64,
        /// Bytes written.
        bytes: u64,
    },
    /// A tree was already there and was left unchanged (delete it to rebuild).
    AlreadyThere,
}

fn safe_relative(path: &str) -> Option<PathBuf> {
    let p = Path::new(path);
    p.components()
        .all(|c| matches!(c, Component::Normal(_)))
        .then(|| p.to_owned())
}

/// Extract `iso` into `dest` unless `dest` exists. The tree is built in a hidden
/// directory beside `dest` and renamed into place only when complete, so an
/// interrupted run never leaves a tree that looks finished. `progress(done, total)` reports bytes.
pub fn extract(
    iso_path: &Path,
    dest: &Path,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Extracted> {
    if dest.exists() {
        return Ok(Extracted::AlreadyThere);
    }
    let mut iso = Iso::open(iso_path)?;
    let entries = iso.entries()?;
    let total: u64 = entries
        .iter()
        .filter(|e| !e.is_dir && e.symlink.is_none())
        .map(|e| e.size)
        .sum();
    let parent = dest
        .parent()
        .ok_or_else(|| Error::Invalid(format!("{} has no parent directory", dest.display())))?;
    let name = dest.file_name().and_then(|n| n.to_str()).unwrap_or("tree");
    // A name of this run: what an interrupted run left is never reused (start-up sweeps it).
    let tmp = crate::work::path(parent, name, crate::work::Kind::Partial);
    let result = write_tree(&mut iso, &entries, &tmp, total, progress).and_then(|counts| {
        fs::rename(&tmp, dest)
            .map_err(|e| Error::io("moving the install tree into place", dest, e))?;
        Ok(counts)
    });
    match result {
        Ok((files, bytes)) => Ok(Extracted::Built { files, bytes }),
        Err(e) => {
            let _ = fs::remove_dir_all(&tmp);
            Err(e)
        }
    }
}

fn write_tree(
    iso: &mut Iso,
    entries: &[Entry],
    root: &Path,
    total: u64,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<(u64, u64)> {
    fs::create_dir_all(root).map_err(|e| Error::io("creating the install tree", root, e))?;
    let (mut files, mut done) = (0u64, 0u64);
    for e in entries {
        let Some(rel) = safe_relative(&e.path) else {
            tracing::warn!(path = %e.path, "skipping an ISO entry with an unsafe path");
            continue;
        };
        let target = root.join(&rel);
        if e.is_dir {
            fs::create_dir_all(&target)
                .map_err(|err| Error::io("creating a directory", &target, err))?;
            continue;
        }
        if let Some(parent) = target.parent() {
            fs::create_dir_all(parent)
                .map_err(|err| Error::io("creating a directory", parent, err))?;
        }
        if let Some(link) = &e.symlink {
            // Keep links that stay inside the tree; drop the rest (they would point at the host's files).
            let resolved = rel.parent().unwrap_or(Path::new("")).join(link);
            let inside = !link.starts_with('/') && normalize(&resolved).is_some();
            if inside {
                #[cfg(unix)]
                std::os::unix::fs::symlink(link, &target)
                    .map_err(|err| Error::io("creating a link", &target, err))?;
            } else {
                tracing::warn!(path = %e.path, target = %link, "skipping a link that leads out of the install tree");
            }
            continue;
        }
        let file =
            fs::File::create(&target).map_err(|err| Error::io("creating a file", &target, err))?;
        let mut out = BufWriter::with_capacity(256 * 1024, file);
        let base = done;
        iso.copy(e, &mut out, &mut |n| progress(base + n, total))?;
        let file = out
            .into_inner()
            .map_err(|err| Error::io("writing a file", &target, err.into_error()))?;
        drop(file);
        done += e.size;
        files += 1;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            // Readable by the HTTP server and everyone; executables stay executable.
            let mode = if e.mode.is_some_and(|m| m & 0o111 != 0) {
                0o755
            } else {
                0o644
            };
            fs::set_permissions(&target, fs::Permissions::from_mode(mode))
                .map_err(|err| Error::io("setting permissions", &target, err))?;
        }
    }
    Ok((files, done))
}

/// Resolve `.` and `..` lexically; `None` when the path climbs above its start.
fn normalize(p: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::Normal(n) => out.push(n),
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            _ => return None,
        }
    }
    Some(out)
}

/// How an OS is recognised: a file in the ISO and a string it contains.
#[derive(Debug, Clone)]
pub struct Marker {
    /// OS id.
    pub os: String,
    /// File inside the ISO (matched case-insensitively).
    pub file: String,
    /// Text the file contains.
    pub contains: String,
}

fn marker_text(iso: &mut Iso, entries: &[Entry], file: &str) -> Result<Option<String>> {
    let want = file.trim_start_matches('/').to_ascii_lowercase();
    let Some(e) = entries
        .iter()
        .find(|e| e.path.to_ascii_lowercase() == want && !e.is_dir)
    else {
        return Ok(None);
    };
    if e.size > 1024 * 1024 {
        return Ok(None);
    }
    let mut buf = Vec::new();
    iso.copy(e, &mut buf, &mut |_| {})?;
    Ok(Some(String::from_utf8_lossy(&buf).into_owned()))
}

/// A `.discinfo` time stamp (`1503417240.398946`): digits and a dot, longer than any version.
fn is_stamp(line: &str) -> bool {
    line.len() > 8 && line.chars().all(|c| c.is_ascii_digit() || c == '.')
}

/// The OSes whose marker the ISO carries. The most specific (longest) string wins, so a "8.10" ISO
/// is not taken for "8.1"; OSes whose markers are equally specific are all returned (a rebuild and
/// its original can look alike).
pub fn identify(iso: &mut Iso, markers: &[Marker]) -> Result<Vec<String>> {
    let entries = iso.entries()?;
    let mut best: Vec<&Marker> = Vec::new();
    for m in markers {
        if let Some(text) = marker_text(iso, &entries, &m.file)? {
            // A .discinfo starts with a time stamp whose digits can hold a version by chance
            // ("1700000010.012345" holds "10.0"): it says nothing about the OS.
            let hit = text.lines().filter(|l| !is_stamp(l.trim())).any(|l| {
                l.split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
                    .contains(&m.contains)
            });
            if !hit {
                continue;
            }
            match best.first().map(|b| b.contains.len()) {
                Some(len) if m.contains.len() < len => {}
                Some(len) if m.contains.len() == len => best.push(m),
                _ => best = vec![m],
            }
        }
    }
    Ok(best.into_iter().map(|m| m.os.clone()).collect())
}

/// Why an ISO does not carry `marker`: `expected .discinfo containing "7.4", found "7.9"`.
pub fn mismatch(iso: &mut Iso, marker: &Marker) -> Result<String> {
    let entries = iso.entries()?;
    Ok(match marker_text(iso, &entries, &marker.file)? {
        None => format!(
            "expected {} containing \"{}\", but the ISO has no {}",
            marker.file, marker.contains, marker.file
        ),
        Some(text) => {
            // The first line that is not a time stamp says what the ISO is.
            let found = text
                .lines()
                .map(str::trim)
                .find(|l| !l.is_empty() && !is_stamp(l))
                .unwrap_or("")
                .to_owned();
            format!(
                "expected {} containing \"{}\", found \"{found}\"",
                marker.file, marker.contains
            )
        }
    })
}
