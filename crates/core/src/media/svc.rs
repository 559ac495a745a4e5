//! The svc rule: what may be served from the svc directory and how things are written into it.
//!
//! svc is served over HTTP without a token, because the servers' management controllers mount
//! install media from it and cannot send one; whatever can be reached through it is public. So:
//!
//! - A path in svc is relative, `/`-separated, without `..`, `\` or NUL ([`SvcPath`]): no
//!   spelling leads out of svc.
//! - No name at the top of svc starting with a dot is ever served, listed or named by the
//!   operator: those are Bootsmith's own work in progress (temporary files, partial trees,
//!   staging directories), invisible until renamed into place. Deeper down dot-files belong to
//!   install trees (`.treeinfo`, `.discinfo`) and installers need them, so they are kept.
//! - What is read is a regular file whose real path, symlinks followed, is inside svc
//!   ([`resolve`]): a symlink between files of svc is fine, one that leads out is not.
//! - What is written is written under a hidden name ([`hidden`], [`TempFile`]) and gets its own
//!   name only when complete, never over anything that has the name already, a symlink
//!   included ([`TempFile::place`], [`occupied`]). The media writers (FAT image, boot ISO,
//!   install tree) work under a dot-name beside their target the same way, which is why every
//!   target they are given is a top-level [`SvcPath`]. Every such name is unique per run
//!   ([`bootsmith_media::work`]), so a crashed run's leftover is never written to again.
//! - What a crashed run left is swept at start-up ([`claim`]): only names of that form, and only
//!   by a process that has svc to itself, so another running Bootsmith's work is never touched.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

use bootsmith_media::work::{self, Kind};

/// A path inside svc that meets the rule; made only by its checking constructors.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SvcPath(String);

/// Why a path cannot be one of svc.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The path is empty.
    Empty,
    /// It could lead out of svc or is not plainly spelled: absolute, `..`, `\`, NUL, or (spelled
    /// strictly) a `.` or empty segment.
    Unclean,
    /// It has several segments where a name at the top of svc was asked for.
    Nested,
    /// Its top-level name starts with a dot: Bootsmith's work in progress.
    Hidden,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Refusal::Empty => "the name is empty",
            Refusal::Unclean => "it leads out of svc or is not plainly spelled",
            Refusal::Nested => "it is no name at the top of svc",
            Refusal::Hidden => "it starts with a dot (Bootsmith's work in progress)",
        })
    }
}

impl SvcPath {
    /// A path spelled plainly (`centos7.4/images/install.img`): no `.` or empty segments, so
    /// one file has one spelling (the ISO map keys on it).
    pub fn new(rel: &str) -> Result<SvcPath, Refusal> {
        check(rel, false).map(|()| SvcPath(rel.to_owned()))
    }

    /// A path as an HTTP client asks for it: like [`SvcPath::new`], but a `//` or `/./` after
    /// the first segment is let through, since installers join URLs loosely.
    pub fn from_url(rel: &str) -> Result<SvcPath, Refusal> {
        check(rel, true).map(|()| SvcPath(rel.to_owned()))
    }

    /// A name at the top of svc (`node01.img`, `centos7.4`).
    pub fn top(name: &str) -> Result<SvcPath, Refusal> {
        if name.contains('/') {
            return Err(Refusal::Nested);
        }
        SvcPath::new(name)
    }

    /// The path as given, relative to svc.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Where the path is on disk; for reading, [`resolve`] also follows symlinks and checks them.
    pub fn under(&self, svc_dir: &Path) -> PathBuf {
        svc_dir.join(&self.0)
    }
}

impl std::fmt::Display for SvcPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A URL path segment or path with its `%XX` escapes decoded (`%2F` too: the path rule then
/// judges the `/`); `None` when a `%` is not followed by two hex digits or the bytes are not
/// UTF-8. The one decoder of the project: the svc file server and the names of downloads.
pub fn percent_decode(s: &str) -> Option<String> {
    // percent-encoding lets a malformed escape through as written; a name or path spelled
    // that way is refused instead, as no client meant it.
    let well_formed = s.split('%').skip(1).all(|after| {
        after
            .as_bytes()
            .get(..2)
            .is_some_and(|hex| hex.iter().all(u8::is_ascii_hexdigit))
    });
    if !well_formed {
        return None;
    }
    percent_encoding::percent_decode_str(s)
        .decode_utf8()
        .ok()
        .map(|d| d.into_owned())
}

fn check(rel: &str, loose: bool) -> Result<(), Refusal> {
    if rel.is_empty() {
        return Err(Refusal::Empty);
    }
    if rel.starts_with('/') || rel.contains(['\\', '\0']) {
        return Err(Refusal::Unclean);
    }
    let plain = rel.split('/').enumerate().all(|(i, seg)| match seg {
        ".." => false,
        // Harmless in the middle of a path, but the first segment decides what is hidden.
        "" | "." => loose && i > 0,
        _ => true,
    });
    if !plain {
        return Err(Refusal::Unclean);
    }
    if rel.starts_with('.') {
        return Err(Refusal::Hidden);
    }
    Ok(())
}

/// Why a path of svc cannot be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unreadable {
    /// Nothing is there, or a symlink leads out of svc.
    Missing,
    /// It is inside svc but no regular file (a directory, pipe, socket or device).
    NotAFile,
}

/// The real path of the regular file `path` names inside `svc_dir` (canonical, as
/// [`crate::App::svc_dir`] is), symlinks followed; refused when it is not there, leads out of
/// svc, or is no regular file.
pub fn resolve(svc_dir: &Path, path: &SvcPath) -> Result<PathBuf, Unreadable> {
    let real = path
        .under(svc_dir)
        .canonicalize()
        .map_err(|_| Unreadable::Missing)?;
    if !real.starts_with(svc_dir) {
        return Err(Unreadable::Missing);
    }
    if !real.is_file() {
        return Err(Unreadable::NotAFile);
    }
    Ok(real)
}

/// Whether svc serves `rel`: a path by the rule, naming a regular file inside svc.
pub fn serves(svc_dir: &Path, rel: &str) -> bool {
    SvcPath::new(rel).is_ok_and(|p| resolve(svc_dir, &p).is_ok())
}

/// Whether something has the name already: a file, a directory, or a symlink, even a dangling one.
pub fn occupied(svc_dir: &Path, path: &SvcPath) -> io::Result<bool> {
    match std::fs::symlink_metadata(path.under(svc_dir)) {
        Ok(_) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

/// Why a finished file did not get its name.
#[derive(Debug)]
pub enum PlaceError {
    /// Something has the name already.
    Taken,
    /// The filesystem refused.
    Io(io::Error),
}

/// A hidden file being written at the top of svc; its name is removed when it is dropped.
pub struct TempFile {
    path: PathBuf,
}

impl TempFile {
    /// A new hidden file in svc, opened for reading and writing. A name unique per run
    /// (`.<purpose>.<pid>-<random>.partial`) keeps concurrent writers apart whatever their
    /// target names (and their length), and the start-up sweep knows it.
    pub fn create(svc_dir: &Path, purpose: &str) -> io::Result<(TempFile, File)> {
        let path = work::path(svc_dir, purpose, Kind::Partial);
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)?;
        Ok((TempFile { path }, file))
    }

    /// Give the complete file its name, durably. A hard link fails when the name is taken, where
    /// a rename would silently replace what is there (through a symlink's name too); the
    /// temporary name then goes with `self`.
    pub fn place(self, svc_dir: &Path, dest: &SvcPath) -> Result<(), PlaceError> {
        let to = dest.under(svc_dir);
        match std::fs::hard_link(&self.path, &to) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => return Err(PlaceError::Taken),
            // A filesystem without hard links: rename, once the name is seen to be free.
            Err(_) => {
                if matches!(occupied(svc_dir, dest), Ok(true)) {
                    return Err(PlaceError::Taken);
                }
                std::fs::rename(&self.path, &to).map_err(PlaceError::Io)?;
            }
        }
        sync_dir(svc_dir);
        Ok(())
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        // Gone already after a rename; any other failure leaves a hidden file nobody is served.
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Make a new name in `dir` survive a crash. Best effort: the data itself is synced already.
pub fn sync_dir(dir: &Path) {
    if let Err(e) = File::open(dir).and_then(|d| d.sync_all()) {
        tracing::warn!(error = %e, "syncing the svc directory failed");
    }
}

/// This process's claim on svc, held while the app is open: a shared `flock` on the svc
/// directory itself (nothing is added to svc), which the kernel drops when the process dies,
/// SIGKILL included, and which the media tools do not inherit (it is close-on-exec).
#[derive(Debug)]
pub struct Claim {
    _dir: File,
}

/// A leftover of an interrupted run that the start-up sweep removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Removed {
    /// Its name at the top of svc.
    pub name: String,
    /// The bytes it held (a partial tree's files added up).
    pub bytes: u64,
}

/// Claim svc for this process, and sweep what interrupted runs left there when no other process
/// has claimed it: a running Bootsmith (the window beside `serve`, or `bootsmith token`) may be
/// writing its own work in progress, which must not go. `None` when another one holds svc.
pub fn claim(svc_dir: &Path) -> io::Result<(Claim, Option<Vec<Removed>>)> {
    let dir = File::open(svc_dir)?;
    let swept = match dir.try_lock() {
        Ok(()) => {
            let removed = sweep(svc_dir);
            // Share from now on, so a process started later sees svc in use. A starter that
            // slips in between the two calls finds nothing of ours yet, so its sweep is harmless.
            dir.lock_shared()?;
            Some(removed)
        }
        Err(std::fs::TryLockError::WouldBlock) => {
            tracing::info!(
                "another Bootsmith process uses svc: what interrupted runs left there stays until a start with svc to itself"
            );
            dir.lock_shared()?;
            None
        }
        Err(std::fs::TryLockError::Error(e)) => return Err(e),
    };
    Ok((Claim { _dir: dir }, swept))
}

/// Remove Bootsmith's own work in progress at the top of svc (names of
/// [`bootsmith_media::work::is_work`]'s form: temporary files, partial ISOs and trees, staging
/// directories), logging each one with its size. Anything else, an operator's dot-files
/// included, stays. Only for a process that has svc to itself ([`claim`]).
pub fn sweep(svc_dir: &Path) -> Vec<Removed> {
    let entries = match std::fs::read_dir(svc_dir) {
        Ok(entries) => entries,
        Err(e) => {
            tracing::warn!(error = %e, "listing svc for leftovers of interrupted runs failed");
            return Vec::new();
        }
    };
    let mut removed = Vec::new();
    for entry in entries.flatten() {
        let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
            continue;
        };
        if !work::is_work(&name) {
            continue;
        }
        let path = entry.path();
        // Not followed: a symlink of that name goes, never what it points at.
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        let bytes = size(&path);
        let gone = if is_dir {
            std::fs::remove_dir_all(&path)
        } else {
            std::fs::remove_file(&path)
        };
        match gone {
            Ok(()) => {
                tracing::info!(name = %name, bytes, "removed what an interrupted run left in svc");
                removed.push(Removed { name, bytes });
            }
            Err(e) => {
                tracing::warn!(name = %name, error = %e, "removing what an interrupted run left in svc failed")
            }
        }
    }
    if !removed.is_empty() {
        sync_dir(svc_dir);
    }
    removed
}

/// Bytes of the files at and under `path`, symlinks not followed; unreadable parts count 0.
fn size(path: &Path) -> u64 {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return 0;
    };
    if !meta.is_dir() {
        return meta.len();
    }
    std::fs::read_dir(path)
        .map(|entries| entries.flatten().map(|e| size(&e.path())).sum())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn escapes_decode_only_when_well_formed() {
        assert_eq!(
            percent_decode("Rocky%209.iso").as_deref(),
            Some("Rocky 9.iso")
        );
        assert_eq!(percent_decode("..%2F..%2fx").as_deref(), Some("../../x"));
        assert_eq!(percent_decode("%C3%A9t%C3%A9").as_deref(), Some("été"));
        assert_eq!(percent_decode("plain").as_deref(), Some("plain"));
        // The crate passes these through as written; the hand-written decoder before it refused
        // them, and so does this one.
        for malformed in ["%zz", "%", "a%4", "%%41", "%4g.iso", "%é9"] {
            assert_eq!(percent_decode(malformed), None, "{malformed}");
        }
        // from_str_radix took a sign: the old decoders read `%+1` as byte 1.
        assert_eq!(percent_decode("%+1.iso"), None);
        // Not UTF-8: a lone byte, and a character cut short.
        for bytes in ["%ff.iso", "%C3.iso", "%E2%82"] {
            assert_eq!(percent_decode(bytes), None, "{bytes}");
        }
        assert_eq!(percent_decode("a%00b").as_deref(), Some("a\0b"));
    }

    /// A canonical svc directory inside a temporary one, with a secret file beside it.
    fn svc() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let svc = dir.path().join("svc");
        std::fs::create_dir(&svc).unwrap();
        std::fs::write(dir.path().join("secret.key"), b"k").unwrap();
        let svc = svc.canonicalize().unwrap();
        (dir, svc)
    }

    fn read(svc: &Path, rel: &str) -> Result<PathBuf, Unreadable> {
        resolve(svc, &SvcPath::new(rel).unwrap())
    }

    #[test]
    fn dot_names_are_hidden_at_the_top_only() {
        assert_eq!(SvcPath::new(".hidden.iso"), Err(Refusal::Hidden));
        assert_eq!(
            SvcPath::new(".centos7.4.partial/.treeinfo"),
            Err(Refusal::Hidden)
        );
        assert_eq!(SvcPath::from_url(".import-1.partial"), Err(Refusal::Hidden));
        assert_eq!(SvcPath::top(".node01.img.1.tmp"), Err(Refusal::Hidden));
        for deeper in ["centos7.4/.treeinfo", "centos7.4/.discinfo", "a/.b/c"] {
            assert_eq!(SvcPath::new(deeper).unwrap().as_str(), deeper);
        }
        // A dot inside a name is no dot-name.
        assert!(SvcPath::top("centos7.4-boot.iso").is_ok());
    }

    #[test]
    fn no_spelling_leads_out() {
        for bad in [
            "..",
            "../secret.key",
            "a/../../secret.key",
            "a/..",
            "/etc/passwd",
            "//etc/passwd",
            "a\\..\\..\\secret.key",
            "..\\secret.key",
            "a\0b",
            ".",
            "./a",
        ] {
            assert_eq!(SvcPath::new(bad), Err(Refusal::Unclean), "{bad:?}");
            assert_eq!(SvcPath::from_url(bad), Err(Refusal::Unclean), "{bad:?}");
        }
        assert_eq!(SvcPath::new(""), Err(Refusal::Empty));
        assert_eq!(SvcPath::from_url(""), Err(Refusal::Empty));
        assert_eq!(SvcPath::top(""), Err(Refusal::Empty));
    }

    #[test]
    fn urls_may_be_joined_loosely_names_may_not() {
        for loose in ["a//b", "a/./b", "a/", "a/."] {
            assert_eq!(SvcPath::new(loose), Err(Refusal::Unclean), "{loose}");
            assert!(SvcPath::from_url(loose).is_ok(), "{loose}");
        }
        assert_eq!(SvcPath::top("isos/a.iso"), Err(Refusal::Nested));
        assert_eq!(SvcPath::top("..\\a.iso"), Err(Refusal::Unclean));
        assert!(SvcPath::new("isos/a.iso").is_ok());
    }

    #[test]
    fn only_regular_files_inside_svc_are_read() {
        let (dir, svc) = svc();
        std::fs::create_dir_all(svc.join("centos7.4/images")).unwrap();
        std::fs::write(svc.join("node01.img"), b"img").unwrap();
        std::fs::write(svc.join("centos7.4/images/install.img"), b"x").unwrap();
        std::fs::write(svc.join("centos7.4/.treeinfo"), b"[general]").unwrap();
        assert_eq!(read(&svc, "node01.img"), Ok(svc.join("node01.img")));
        assert!(read(&svc, "centos7.4/images/install.img").is_ok());
        assert!(read(&svc, "centos7.4/.treeinfo").is_ok());

        // A symlink inside svc to a file inside svc reads as that file.
        symlink(svc.join("node01.img"), svc.join("alias.img")).unwrap();
        symlink("../node01.img", svc.join("centos7.4/up.img")).unwrap();
        assert_eq!(read(&svc, "alias.img"), Ok(svc.join("node01.img")));
        assert_eq!(read(&svc, "centos7.4/up.img"), Ok(svc.join("node01.img")));

        // Symlinks leading out: to a file, through a directory, dangling.
        symlink(dir.path().join("secret.key"), svc.join("leak.img")).unwrap();
        symlink(dir.path(), svc.join("outside")).unwrap();
        symlink(svc.join("gone"), svc.join("dangling.img")).unwrap();
        for out in [
            "leak.img",
            "outside/secret.key",
            "dangling.img",
            "missing.iso",
        ] {
            assert_eq!(read(&svc, out), Err(Unreadable::Missing), "{out}");
        }

        // Inside, but no regular file: a directory, a socket, a symlink to a device.
        let _socket = std::os::unix::net::UnixListener::bind(svc.join("socket.iso")).unwrap();
        symlink(svc.join("centos7.4"), svc.join("tree.iso")).unwrap();
        for odd in ["centos7.4", "centos7.4/images", "socket.iso", "tree.iso"] {
            assert_eq!(read(&svc, odd), Err(Unreadable::NotAFile), "{odd}");
        }
        symlink("/dev/null", svc.join("null.iso")).unwrap();
        assert_eq!(
            read(&svc, "null.iso"),
            Err(Unreadable::Missing),
            "outside svc"
        );
    }

    #[test]
    fn a_svc_that_is_a_prefix_of_its_sibling_does_not_reach_it() {
        let (dir, svc) = svc();
        let sibling = dir.path().join("svc2");
        std::fs::create_dir(&sibling).unwrap();
        std::fs::write(sibling.join("x.iso"), b"x").unwrap();
        symlink(sibling.join("x.iso"), svc.join("x.iso")).unwrap();
        assert_eq!(read(&svc, "x.iso"), Err(Unreadable::Missing));
    }

    /// The names at the top of `svc`, sorted.
    fn names(svc: &Path) -> Vec<String> {
        let mut names: Vec<_> = std::fs::read_dir(svc)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn the_sweep_removes_our_leftovers_and_nothing_else() {
        let (dir, svc) = svc();
        // Left by runs of this version: an answer image, a boot ISO, an install tree, an upload.
        let image = work::path(&svc, "node01.img", Kind::Tmp);
        std::fs::write(&image, vec![0u8; 4096]).unwrap();
        let iso = work::path(&svc, "centos7.4-boot.iso", Kind::Partial);
        std::fs::write(&iso, vec![0u8; 1000]).unwrap();
        let tree = work::path(&svc, "centos7.4", Kind::Partial);
        std::fs::create_dir_all(tree.join("images")).unwrap();
        std::fs::write(tree.join("images/install.img"), vec![0u8; 300]).unwrap();
        std::fs::write(tree.join(".treeinfo"), b"[general]\n").unwrap();
        let (upload, mut f) = TempFile::create(&svc, "import").unwrap();
        std::io::Write::write_all(&mut f, b"12345").unwrap();
        drop(f);
        let upload_name = upload
            .path
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .to_owned();
        std::mem::forget(upload); // as a crash leaves it
                                  // Left by earlier versions.
        std::fs::write(svc.join(".node02.img.4711.tmp"), b"1234567").unwrap();
        std::fs::create_dir(svc.join(".rhvh4.3-squashfs.staging")).unwrap();
        // A symlink of our form: the link goes, never what it points at.
        symlink(dir.path().join("secret.key"), svc.join(".leak.iso.partial")).unwrap();
        let link_bytes = std::fs::symlink_metadata(svc.join(".leak.iso.partial"))
            .unwrap()
            .len();
        // The operator's files and finished media stay, dot-files included.
        std::fs::write(svc.join(".hidden"), b"mine").unwrap();
        std::fs::write(svc.join(".notes.tmp"), b"mine").unwrap();
        std::fs::write(svc.join("x.iso.partial"), b"mine").unwrap();
        std::fs::write(svc.join("node01.img"), b"img").unwrap();
        std::fs::create_dir(svc.join("centos7.4")).unwrap();
        std::fs::write(svc.join("centos7.4/.treeinfo"), b"[general]").unwrap();

        let mut removed = sweep(&svc);
        removed.sort_by(|a, b| a.name.cmp(&b.name));
        let mut expected = vec![
            (
                image.file_name().unwrap().to_str().unwrap().to_owned(),
                4096,
            ),
            (iso.file_name().unwrap().to_str().unwrap().to_owned(), 1000),
            (tree.file_name().unwrap().to_str().unwrap().to_owned(), 310),
            (upload_name, 5),
            (".node02.img.4711.tmp".to_owned(), 7),
            (".rhvh4.3-squashfs.staging".to_owned(), 0),
            (".leak.iso.partial".to_owned(), link_bytes),
        ];
        expected.sort();
        let got: Vec<_> = removed.iter().map(|r| (r.name.clone(), r.bytes)).collect();
        assert_eq!(got, expected);
        assert_eq!(
            names(&svc),
            [
                ".hidden",
                ".notes.tmp",
                "centos7.4",
                "node01.img",
                "x.iso.partial"
            ]
        );
        assert_eq!(std::fs::read(dir.path().join("secret.key")).unwrap(), b"k");
        assert!(svc.join("centos7.4/.treeinfo").is_file());
        assert!(sweep(&svc).is_empty(), "nothing more to sweep");
    }

    #[test]
    fn only_a_process_with_svc_to_itself_sweeps() {
        let (_dir, svc) = svc();
        let (first, swept) = claim(&svc).unwrap();
        assert_eq!(swept, Some(Vec::new()));
        // The first holder's work in progress, and the leftover of a crashed run beside it.
        let (live, _f) = TempFile::create(&svc, "import").unwrap();
        let crashed = work::path(&svc, "node01.img", Kind::Tmp);
        std::fs::write(&crashed, b"x").unwrap();
        // A second process (a second open of the directory counts as one) leaves both.
        let (second, swept) = claim(&svc).unwrap();
        assert_eq!(swept, None);
        assert!(live.path.exists() && crashed.exists());
        drop(second);
        drop(live);
        drop(first);
        // Once nobody holds svc, the next start sweeps.
        let (_third, swept) = claim(&svc).unwrap();
        assert_eq!(swept.unwrap().len(), 1);
        assert!(!crashed.exists());
    }

    #[test]
    fn a_placed_file_never_replaces_anything() {
        let (dir, svc) = svc();
        let dest = SvcPath::top("a.iso").unwrap();
        assert!(!occupied(&svc, &dest).unwrap());
        let (tmp, mut f) = TempFile::create(&svc, "import").unwrap();
        std::io::Write::write_all(&mut f, b"new").unwrap();
        let work = tmp.path.clone();
        assert!(
            work.file_name().unwrap().to_str().unwrap().starts_with('.'),
            "work in progress is hidden: {work:?}"
        );
        tmp.place(&svc, &dest).unwrap();
        assert_eq!(std::fs::read(svc.join("a.iso")).unwrap(), b"new");
        assert!(!work.exists(), "the temporary name is gone");

        // Taken by a file, a directory, a symlink leading out, a dangling symlink.
        std::fs::create_dir(svc.join("dir.iso")).unwrap();
        symlink(dir.path().join("secret.key"), svc.join("leak.iso")).unwrap();
        symlink(svc.join("gone"), svc.join("dangling.iso")).unwrap();
        for name in ["a.iso", "dir.iso", "leak.iso", "dangling.iso"] {
            let dest = SvcPath::top(name).unwrap();
            assert!(occupied(&svc, &dest).unwrap(), "{name}");
            let (tmp, _) = TempFile::create(&svc, "import").unwrap();
            assert!(
                matches!(tmp.place(&svc, &dest), Err(PlaceError::Taken)),
                "{name}"
            );
        }
        assert_eq!(std::fs::read(dir.path().join("secret.key")).unwrap(), b"k");
        assert_eq!(std::fs::read(svc.join("a.iso")).unwrap(), b"new");
        let mut left: Vec<_> = std::fs::read_dir(&svc)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(
            left,
            ["a.iso", "dangling.iso", "dir.iso", "leak.iso"],
            "no temporary file left"
        );
    }
}
