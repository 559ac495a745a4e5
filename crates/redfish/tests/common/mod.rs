//! Test helpers: sushy-tools' emulator started on a free loopback port (skipped loudly when
//! it is not installed), and a loopback media server that records what was fetched.

#![allow(dead_code)]

use std::net::{SocketAddr, TcpListener};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
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
    candidates.into_iter().find(|p| {
        p.exists()
            && Command::new(p)
                .args(["-c", "import sushy_tools.emulator.main, bcrypt"])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
    })
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
    /// Start the emulator, or `None` (with a loud message) when sushy-tools is not installed.
    pub fn start(test: &str) -> Option<Sushy> {
        let Some(py) = sushy_python() else {
            // Straight to stderr: the test harness captures eprintln! of passing tests.
            use std::io::Write;
            let _ = writeln!(
                std::io::stderr(),
                "\n!!!!! SKIPPED {test}: sushy-tools not found (BOOTSMITH_SUSHY_PYTHON, \
                 $BOOTSMITH_REDFISH_VENV or ~/.cache/bootsmith/redfish-venv, /tmp/redfish-venv).\n\
                 !!!!! Install it with scripts/redfish-venv.sh\n"
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

/// A loopback HTTP server for media files that records every request path it answered.
pub struct MediaServer {
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    /// Paths requested, in order (with the method: `GET /m/boot.iso`).
    pub log: Arc<Mutex<Vec<String>>>,
}

/// Serve `files` (path → bytes) on a free loopback port.
pub async fn media_server(files: Vec<(&'static str, Vec<u8>)>) -> MediaServer {
    use axum::extract::{Request, State};
    use axum::http::StatusCode;
    use axum::response::IntoResponse;

    type Shared = (Arc<Vec<(&'static str, Vec<u8>)>>, Arc<Mutex<Vec<String>>>);
    async fn serve(State((files, log)): State<Shared>, req: Request) -> impl IntoResponse {
        let path = req.uri().path().to_owned();
        log.lock().unwrap().push(format!("{} {path}", req.method()));
        match files.iter().find(|(p, _)| *p == path) {
            Some((_, body)) => (StatusCode::OK, body.clone()).into_response(),
            None => StatusCode::NOT_FOUND.into_response(),
        }
    }
    let log = Arc::new(Mutex::new(Vec::new()));
    let app = axum::Router::new()
        .fallback(serve)
        .with_state((Arc::new(files), log.clone()));
    let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0)))
        .await
        .unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    MediaServer { url, log }
}
pub mod fake;
