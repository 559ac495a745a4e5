//! The desktop app's footprint: start to first screen (and to the status saying ok), then,
//! after walking every screen against a simulated UCS Manager, the memory of every process of
//! the app (the bootsmith process and each WebKit process it started) from
//! `/proc/<pid>/smaps_rollup`; the same for `bootsmith serve` alone. Needs a display:
//! `scripts/bench-footprint.sh` runs it under xvfb-run, with the build of another commit as
//! the baseline when asked (`FOOTPRINT_BASELINE_BIN`), measured in the same run.
//!
//! Each start is measured two or three ways, turn about: this build as it is, this build with
//! the web process painting into shared memory rather than GPU buffers
//! (`WEBKIT_DISABLE_DMABUF_RENDERER=1`: about 130 MiB less PSS under Mesa's software GL, but
//! WebKit's snapshots of the window then hang now and then in tests/gui.rs, as they did without
//! compositing, so it is not the default), and with `FOOTPRINT_BASELINE_BIN`, another build
//! (e.g. the commit before). `FOOTPRINT_RUNS`: starts of each (default 3).

#[path = "../tests/common/mod.rs"]
mod app_common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// The targets: bootsmith process RSS, the whole app's PSS, start to first screen.
const TARGET_CORE_RSS_MIB: f64 = 100.0;
const TARGET_APP_PSS_MIB: f64 = 400.0;
const TARGET_FIRST_SCREEN: Duration = Duration::from_millis(500);

/// Memory of one process, from `smaps_rollup` (KiB).
#[derive(Debug, Clone, Default)]
struct Mem {
    name: String,
    rss: u64,
    pss: u64,
    pss_anon: u64,
    pss_file: u64,
}

/// What is started: a name, a binary, and what its environment adds.
type Variant = (String, PathBuf, Env);
type Env = Vec<(&'static str, &'static str)>;

/// One start of the app.
#[derive(Debug, Clone)]
struct Run {
    /// WebDriver's session is up: the app started and its web view answers.
    window_up: Duration,
    first_screen: Duration,
    status_ok: Duration,
    procs: Vec<Mem>,
}

impl Run {
    fn core(&self) -> &Mem {
        &self.procs[0]
    }
    fn pss(&self) -> u64 {
        self.procs.iter().map(|m| m.pss).sum()
    }
    fn rss(&self) -> u64 {
        self.procs.iter().map(|m| m.rss).sum()
    }
}

fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

fn secs(d: Duration) -> String {
    format!("{:.2} s", d.as_secs_f64())
}

fn main() {
    assert!(
        std::env::var_os("DISPLAY").is_some(),
        "the footprint bench starts the window: run it under xvfb-run (scripts/bench-footprint.sh does)"
    );
    let runs: usize = std::env::var("FOOTPRINT_RUNS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let this = PathBuf::from(app_common::BIN);
    // In the same run: this build, the same painting into shared memory (what a user can
    // choose), and another build when given one.
    let mut bins: Vec<Variant> = vec![
        ("this build".to_owned(), this.clone(), vec![]),
        (
            "DMA-BUF renderer off".to_owned(),
            this,
            vec![("WEBKIT_DISABLE_DMABUF_RENDERER", "1")],
        ),
    ];
    if let Some(b) = std::env::var_os("FOOTPRINT_BASELINE_BIN").filter(|b| !b.is_empty()) {
        bins.insert(0, ("baseline build".to_owned(), PathBuf::from(b), vec![]));
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let dir = tempfile::tempdir().unwrap();
        let sim = bootsmith_sim::Sim::start(bootsmith_sim::SimConfig::ucsm())
            .await
            .unwrap();
        let mut results: Vec<Vec<Run>> = vec![Vec::new(); bins.len()];
        // Turn about, so every variant sees the same machine load.
        for n in 0..runs {
            for (i, (label, bin, env)) in bins.iter().enumerate() {
                let run_dir = dir.path().join(format!("{i}-{n}"));
                app_common::seed(&run_dir, &sim.address()).await;
                // WebKit's caches and the window's storage in the scratch dir, not the user's,
                // kept from one start to the next as on a desktop, one set per variant.
                let home = dir.path().join(format!("home-{i}"));
                let run = window(bin, env, &run_dir, &home).await;
                print_run(label, n + 1, &run);
                results[i].push(run);
            }
        }
        println!();
        println!("== window, median of {runs} starts (targets: first screen < {}, bootsmith RSS < {TARGET_CORE_RSS_MIB} MiB, all processes PSS < {TARGET_APP_PSS_MIB} MiB)", secs(TARGET_FIRST_SCREEN));
        for ((label, _, _), rs) in bins.iter().zip(&results) {
            summary(label, rs);
        }
        println!();
        println!("== bootsmith serve (no window), after answering every screen's reads");
        let mut measured = Vec::new();
        for (i, (_, bin, _)) in bins.iter().enumerate() {
            // The server has no window: one measure per binary.
            if measured.contains(&bin) {
                continue;
            }
            measured.push(bin);
            let label = if *bin == Path::new(app_common::BIN) {
                "this build"
            } else {
                "baseline build"
            };
            let run_dir = dir.path().join(format!("serve-{i}"));
            app_common::seed(&run_dir, &sim.address()).await;
            let m = serve(bin, &run_dir).await;
            println!(
                "{label:>28}: RSS {:6.1} MiB  PSS {:6.1} MiB (anon {:.1}, file {:.1})",
                mib(m.rss),
                mib(m.pss),
                mib(m.pss_anon),
                mib(m.pss_file)
            );
        }
    });
}

fn print_run(label: &str, n: usize, r: &Run) {
    println!(
        "{label} #{n}: window up {}, first screen {}, status ok {}; RSS {:.1} MiB, PSS {:.1} MiB in all",
        secs(r.window_up),
        secs(r.first_screen),
        secs(r.status_ok),
        mib(r.rss()),
        mib(r.pss())
    );
    for m in &r.procs {
        println!(
            "    {:<22} RSS {:6.1} MiB  PSS {:6.1} MiB (anon {:6.1}, file {:6.1})",
            m.name,
            mib(m.rss),
            mib(m.pss),
            mib(m.pss_anon),
            mib(m.pss_file)
        );
    }
}

fn median<T: Copy + PartialOrd>(mut v: Vec<T>) -> T {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn summary(label: &str, rs: &[Run]) {
    let up = median(rs.iter().map(|r| r.window_up).collect());
    let first = median(rs.iter().map(|r| r.first_screen).collect());
    let ok = median(rs.iter().map(|r| r.status_ok).collect());
    let core_rss = median(rs.iter().map(|r| r.core().rss).collect());
    let core_pss = median(rs.iter().map(|r| r.core().pss).collect());
    let web: Vec<u64> = rs
        .iter()
        .map(|r| r.procs[1..].iter().map(|m| m.rss).sum())
        .collect();
    let rss = median(rs.iter().map(Run::rss).collect());
    let pss = median(rs.iter().map(Run::pss).collect());
    let mark = |ok: bool| if ok { "ok" } else { "over" };
    println!(
        "{label:>28}: window up {}, first screen {} ({}), status ok {}; bootsmith RSS {:.1} MiB ({}) PSS {:.1} MiB; WebKit processes RSS {:.1} MiB; all RSS {:.1} MiB, PSS {:.1} MiB ({})",
        secs(up),
        secs(first),
        mark(first < TARGET_FIRST_SCREEN),
        secs(ok),
        mib(core_rss),
        mark(mib(core_rss) < TARGET_CORE_RSS_MIB),
        mib(core_pss),
        mib(median(web)),
        mib(rss),
        mib(pss),
        mark(mib(pss) < TARGET_APP_PSS_MIB),
    );
}

/// Start the window of `bin` on `dir` (its `data` and `svc`), time its first screen and its status, walk every
/// screen, then read the memory of its processes.
async fn window(bin: &Path, env: &[(&str, &str)], dir: &Path, home: &Path) -> Run {
    let driver = Driver::start(home, env).await;
    let config = bootsmith_core::testing::config(dir);
    let caps = json!({"capabilities": {"alwaysMatch": {"webkitgtk:browserOptions": {
        "binary": bin,
        "args": ["--data-dir", config.data_dir, "--svc-dir", config.svc_dir, "--listen", "127.0.0.1:0"],
    }}}});
    let t0 = Instant::now();
    let session = driver
        .call(reqwest::Method::POST, "/session", Some(caps))
        .await;
    let window_up = t0.elapsed();
    let sid = session["sessionId"].as_str().unwrap().to_owned();
    let w = Session { driver, sid };
    w.until_found("#screen-overview").await;
    let first_screen = t0.elapsed();
    w.until_text("#status", "ok").await;
    let status_ok = t0.elapsed();

    // Every screen the navigation offers, each given time to load what it shows.
    let screens = w
        .script("return Array.from(document.querySelectorAll('nav button[id^=\"nav-\"]')).map(b => b.id.slice(4))")
        .await;
    let screens: Vec<String> = serde_json::from_value(screens).unwrap();
    assert!(screens.len() >= 10, "the navigation lists {screens:?}");
    for s in &screens {
        w.click(&format!("#nav-{s}")).await;
        w.until_found(&format!("#screen-{s}")).await;
        tokio::time::sleep(Duration::from_millis(800)).await;
    }
    w.click("#nav-overview").await;
    tokio::time::sleep(Duration::from_secs(2)).await;

    let root = w.driver.child.id();
    let app = children(root)
        .into_iter()
        .next()
        .expect("WebKitWebDriver started the app");
    let mut procs = vec![mem(app)];
    procs.extend(descendants(app).into_iter().map(mem));
    w.close().await;
    Run {
        window_up,
        first_screen,
        status_ok,
        procs,
    }
}

/// `bootsmith serve` on `dir`, after the reads the screens make, and its memory.
async fn serve(bin: &Path, dir: &Path) -> Mem {
    let config = bootsmith_core::testing::config(dir);
    let token = app_common::token(dir);
    let mut child = Command::new(bin)
        .env("BOOTSMITH_KEYRING", "off")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("RUST_LOG")
        .arg("--data-dir")
        .arg(&config.data_dir)
        .arg("--svc-dir")
        .arg(&config.svc_dir)
        .args(["serve", "--listen", "127.0.0.1:0"])
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let base = listen_url(&mut child);
    let client = reqwest::Client::new();
    for path in [
        "/ui/",
        "/api/v2/servers",
        "/api/v2/overview",
        "/api/v2/servers/pod-east/servers",
        "/api/v2/servers/pod-east/templates",
        "/api/v2/servers/pod-east/powerstat",
        "/api/v2/hosts",
        "/api/v2/networks",
        "/api/v2/catalog",
        "/api/v2/isos",
        "/api/v2/keys",
        "/api/v2/aci",
        "/api/v2/settings/install",
        "/api/v2/logs",
        "/api/v2/jobs",
    ] {
        let _ = client
            .get(format!("{base}{path}"))
            .bearer_auth(&token)
            .send()
            .await
            .unwrap()
            .bytes()
            .await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let m = mem(child.id());
    app_common::kill_term(child.id());
    let _ = child.wait();
    m
}

fn listen_url(child: &mut Child) -> String {
    use std::io::{BufRead, BufReader};
    let stderr = child.stderr.take().unwrap();
    let mut lines = BufReader::new(stderr).lines();
    let url = loop {
        let line = lines.next().expect("serve printed its address").unwrap();
        if let Some(i) = line.find("url=http://") {
            break line[i + 4..]
                .split_whitespace()
                .next()
                .unwrap()
                .trim_end_matches('/')
                .to_owned();
        }
    };
    // Keep reading, so the server never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    url
}

/// Parent of every process, from `/proc/<pid>/stat`.
fn parents() -> HashMap<u32, u32> {
    let mut map = HashMap::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else {
            continue;
        };
        // The name may hold spaces and parentheses: the fields start after the last ')'.
        if let Some(ppid) = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse().ok())
        {
            map.insert(pid, ppid);
        }
    }
    map
}

fn children(pid: u32) -> Vec<u32> {
    let mut v: Vec<u32> = parents()
        .into_iter()
        .filter(|(_, p)| *p == pid)
        .map(|(c, _)| c)
        .collect();
    v.sort();
    v
}

fn descendants(pid: u32) -> Vec<u32> {
    let map = parents();
    let mut out = Vec::new();
    let mut todo = vec![pid];
    while let Some(p) = todo.pop() {
        let mut kids: Vec<u32> = map
            .iter()
            .filter(|(_, pp)| **pp == p)
            .map(|(c, _)| *c)
            .collect();
        kids.sort();
        out.extend(&kids);
        todo.extend(kids);
    }
    out
}

fn mem(pid: u32) -> Mem {
    let name = std::fs::read_to_string(format!("/proc/{pid}/comm"))
        .unwrap_or_default()
        .trim()
        .to_owned();
    let rollup = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup"))
        .unwrap_or_else(|e| panic!("reading smaps_rollup of {pid} ({name}): {e}"));
    let field = |key: &str| {
        rollup
            .lines()
            .find(|l| l.starts_with(key))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    Mem {
        name: format!("{name} ({pid})"),
        rss: field("Rss:"),
        pss: field("Pss:"),
        pss_anon: field("Pss_Anon:"),
        pss_file: field("Pss_File:"),
    }
}

/// WebKitWebDriver, which starts the app as its child.
struct Driver {
    child: Child,
    base: String,
    client: reqwest::Client,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Driver {
    /// WebKitWebDriver with `env` added to what it passes on to the app.
    async fn start(home: &Path, env: &[(&str, &str)]) -> Driver {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new("WebKitWebDriver")
            .arg(format!("--port={port}"))
            .arg("--host=127.0.0.1")
            .env("TAURI_WEBVIEW_AUTOMATION", "true")
            .env("BOOTSMITH_KEYRING", "off")
            .env_remove("RUST_LOG")
            .env("XDG_DATA_HOME", home.join("data"))
            .env("XDG_CACHE_HOME", home.join("cache"))
            .env("XDG_CONFIG_HOME", home.join("config"))
            .envs(env.iter().copied())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("WebKitWebDriver (Debian package webkit2gtk-driver) must be installed: run scripts/setup.sh");
        let d = Driver {
            child,
            base: format!("http://127.0.0.1:{port}"),
            client: reqwest::Client::new(),
        };
        let start = Instant::now();
        while d
            .client
            .get(format!("{}/status", d.base))
            .send()
            .await
            .is_err()
        {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "WebKitWebDriver did not start"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        d
    }

    async fn call(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Value {
        let mut req = self.client.request(method, format!("{}{path}", self.base));
        if let Some(b) = body {
            req = req.json(&b);
        }
        let resp: Value = req.send().await.unwrap().json().await.unwrap();
        if let Some(err) = resp["value"].get("error") {
            panic!("WebDriver {path}: {err} {}", resp["value"]["message"]);
        }
        resp["value"].clone()
    }
}

/// A WebDriver session on the app's window.
struct Session {
    driver: Driver,
    sid: String,
}

impl Session {
    /// The element `css` selects, asked for every 10 ms for up to 30 s.
    async fn until_found(&self, css: &str) -> String {
        let start = Instant::now();
        loop {
            let resp: Value = self
                .driver
                .client
                .post(format!("{}/session/{}/element", self.driver.base, self.sid))
                .json(&json!({"using": "css selector", "value": css}))
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            if let Some(id) = resp["value"][ELEMENT].as_str() {
                return id.to_owned();
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "no element {css}: {}",
                resp["value"]
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    async fn until_text(&self, css: &str, wanted: &str) {
        let start = Instant::now();
        loop {
            let id = self.until_found(css).await;
            let shown = self
                .driver
                .call(
                    reqwest::Method::GET,
                    &format!("/session/{}/element/{id}/text", self.sid),
                    None,
                )
                .await;
            if shown.as_str() == Some(wanted) {
                return;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "{css} never showed {wanted:?}: {shown}"
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    async fn click(&self, css: &str) {
        let id = self.until_found(css).await;
        self.driver
            .call(
                reqwest::Method::POST,
                &format!("/session/{}/element/{id}/click", self.sid),
                Some(json!({})),
            )
            .await;
    }

    async fn script(&self, script: &str) -> Value {
        self.driver
            .call(
                reqwest::Method::POST,
                &format!("/session/{}/execute/sync", self.sid),
                Some(json!({"script": script, "args": []})),
            )
            .await
    }

    async fn close(self) {
        let _ = self
            .driver
            .client
            .delete(format!("{}/session/{}", self.driver.base, self.sid))
            .send()
            .await;
    }
}
