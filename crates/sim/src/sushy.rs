//! sushy-tools' Redfish emulator (OpenStack's, from PyPI) started for a test: `--fake` on a
//! free loopback port with HTTP Basic admin/password, killed on drop. It is the emulator
//! nobody here wrote, so tests against it catch what our own personas would agree with us on.
//! `scripts/redfish-venv.sh` installs it; without it a test skips, loudly, unless it runs under
//! CI ([`crate::fixture`]) or `BOOTSMITH_SUSHY_PYTHON` names the interpreter (as `make test`
//! does), which then must work.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The interpreter with sushy-tools: `BOOTSMITH_SUSHY_PYTHON` when set (and then only it),
/// else the venv of `scripts/redfish-venv.sh`, else `/tmp/redfish-venv`.
pub fn sushy_python() -> Option<PathBuf> {
    let mut candidates = Vec::new();
    if let Ok(p) = std::env::var("BOOTSMITH_SUSHY_PYTHON") {
        candidates.push(PathBuf::from(p));
    }
    // An explicit choice is not second-guessed.
    if candidates.is_empty() {
        candidates.extend(default_pythons());
    }
    let explicit = std::env::var_os("BOOTSMITH_SUSHY_PYTHON").is_some();
    let found = candidates.into_iter().find(|p| {
        p.exists()
            && Command::new(p)
                .args(["-c", "import sushy_tools.emulator.main, bcrypt"])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
    });
    // `make test` names the interpreter it installed: a test there must not skip quietly.
    assert!(
        found.is_some() || !explicit,
        "BOOTSMITH_SUSHY_PYTHON is set but has no sushy-tools: run scripts/redfish-venv.sh"
    );
    found
}

fn default_pythons() -> Vec<PathBuf> {
    let mut candidates = Vec::new();
    let venv = std::env::var("BOOTSMITH_REDFISH_VENV").ok().or_else(|| {
        std::env::var("HOME")
            .ok()
            .map(|h| format!("{h}/.cache/bootsmith/redfish-venv"))
    });
    if let Some(v) = venv {
        candidates.push(PathBuf::from(v).join("bin/python"));
    }
    candidates.push(PathBuf::from("/tmp/redfish-venv/bin/python"));
    candidates
}

/// A running sushy-tools emulator (`--fake`, Basic auth admin/password); killed on drop.
pub struct Sushy {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    _dir: tempfile::TempDir,
}

impl Drop for Sushy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A port nobody listens on right now.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Sushy {
    /// The writes the emulator received so far (`PATCH <path>`, `POST <path>`, `DELETE
    /// <path>`), oldest first, from its access log (werkzeug's, colours stripped).
    pub fn writes(&self) -> Vec<String> {
        let log =
            std::fs::read_to_string(self._dir.path().join("emulator.log")).unwrap_or_default();
        log.lines()
            .filter_map(|l| {
                let (_, request) = l.split_once('"')?;
                let request = request.trim_start_matches(|c: char| {
                    c == '\x1b' || c == '[' || c.is_ascii_digit() || c == ';' || c == 'm'
                });
                let mut words = request.split_whitespace();
                let (method, path) = (words.next()?, words.next()?);
                matches!(method, "PATCH" | "POST" | "DELETE").then(|| format!("{method} {path}"))
            })
            .collect()
    }

    /// Start the emulator, or `None` when sushy-tools is not installed (a failure under CI,
    /// see [`crate::fixture`]).
    pub fn start(test: &str) -> Option<Sushy> {
        let Some(py) = sushy_python() else {
            crate::fixture::missing(
                test,
                "sushy-tools (looked for in BOOTSMITH_SUSHY_PYTHON, $BOOTSMITH_REDFISH_VENV or \
                 ~/.cache/bootsmith/redfish-venv, /tmp/redfish-venv)",
                "Install it with scripts/redfish-venv.sh",
            );
            return None;
        };
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir_all(d.join("state")).unwrap();
        std::fs::create_dir_all(d.join("tmp")).unwrap();
        let hash = Command::new(&py)
            .args([
                "-c",
                "import bcrypt; print('admin:' + bcrypt.hashpw(b'password', bcrypt.gensalt()).decode())",
            ])
            .output()
            .unwrap();
        assert!(hash.status.success(), "bcrypt failed");
        std::fs::write(d.join("htpasswd"), &hash.stdout).unwrap();
        std::fs::write(
            d.join("emulator.conf"),
            format!(
                "SUSHY_EMULATOR_STATE_DIR = '{}'\nSUSHY_EMULATOR_AUTH_FILE = '{}'\n",
                d.join("state").display(),
                d.join("htpasswd").display()
            ),
        )
        .unwrap();
        let port = free_port();
        let log = std::fs::File::create(d.join("emulator.log")).unwrap();
        // TMPDIR: InsertMedia downloads into a temp dir it never cleans; keep it in ours.
        let child = Command::new(&py)
            .args([
                "-m",
                "sushy_tools.emulator.main",
                "--fake",
                "-i",
                "127.0.0.1",
            ])
            .args(["-p", &port.to_string(), "--config"])
            .arg(d.join("emulator.conf"))
            .env("TMPDIR", d.join("tmp"))
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .unwrap();
        let mut s = Sushy {
            child,
            url: format!("http://127.0.0.1:{port}"),
            _dir: dir,
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return Some(s);
            }
            if let Ok(Some(status)) = s.child.try_wait() {
                let log =
                    std::fs::read_to_string(s._dir.path().join("emulator.log")).unwrap_or_default();
                panic!("sushy-emulator exited ({status}): {log}");
            }
            assert!(Instant::now() < deadline, "sushy-emulator did not start");
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}
