//! The desktop app's footprint. Each start is measured twice: as an operator starts it (the
//! binary on its data dir, no WebDriver), timing the first paint and the first screen from
//! Xvfb's own picture of the screen; and through WebKitWebDriver, timing the Overview and the
//! status saying ok, then reading `/proc/<pid>/smaps_rollup` of every process of the app (the
//! bootsmith process and each WebKit process it started) fresh, after every screen was shown
//! once, and again after a day's walk: `FOOTPRINT_ROUNDS` rounds (default 20) of every screen,
//! a 200-host sheet searched, four pages of a 20,000-line log, a deploy against the simulated
//! UCS Manager followed live and taken back, an images run, dialogs opened and closed; then a
//! settle of `FOOTPRINT_SETTLE` seconds (default 15: WebKit offers WebDriver no way to collect
//! garbage). The same for `bootsmith serve` alone. Needs a display: `scripts/bench-footprint.sh`
//! runs it under xvfb-run, with the build of another commit as the baseline when asked
//! (`FOOTPRINT_BASELINE_BIN`), measured in the same run.
//!
//! Each start is measured two or three ways, turn about: this build as it is (without a GPU it
//! paints into shared memory: src-tauri/src/painting.rs), this build with WebKit's DMA-BUF
//! renderer kept on (`WEBKIT_DISABLE_DMABUF_RENDERER=0`, what a machine with a GPU uses), and
//! with `FOOTPRINT_BASELINE_BIN`, another build (e.g. the commit before); `FOOTPRINT_ENV`
//! replaces the second with trials of the environment (see `main`). `FOOTPRINT_RUNS`: starts
//! of each (default 3).

#[path = "../tests/common/mod.rs"]
mod app_common;
#[path = "../tests/webdriver/mod.rs"]
mod webdriver;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;
use webdriver::Driver;

/// The issue's targets: bootsmith process RSS, the whole app's PSS, start to first screen.
const TARGET_CORE_RSS_MIB: f64 = 100.0;
const TARGET_APP_PSS_MIB: f64 = 400.0;
const TARGET_FIRST_SCREEN: Duration = Duration::from_millis(500);
/// The issue's bound on growth: after a day's walk, at most this many times the fresh memory.
const TARGET_WALK_RATIO: f64 = 1.2;

/// Memory of one process, from `smaps_rollup` (KiB).
#[derive(Debug, Clone, Default)]
struct Mem {
    name: String,
    rss: u64,
    /// The anonymous part of `rss` (heaps, JIT code, buffers): what the app itself holds.
    anon: u64,
    pss: u64,
    pss_anon: u64,
    pss_file: u64,
}

/// What is started: a name, a binary, and what its environment adds.
type Variant = (String, PathBuf, Env);
type Env = Vec<(&'static str, &'static str)>;

/// One start of the app through WebKitWebDriver.
#[derive(Debug, Clone)]
struct Run {
    /// WebDriver's session is up: the app started and its web view answers.
    window_up: Duration,
    first_screen: Duration,
    status_ok: Duration,
    /// After every screen was shown once.
    fresh: Vec<Mem>,
    /// After the day's walk and a settle (empty with no rounds).
    walked: Vec<Mem>,
}

/// One start of the app as an operator starts it: the binary itself, no WebDriver.
#[derive(Debug, Clone)]
struct Direct {
    /// The window shows something other than the empty screen.
    first_paint: Duration,
    /// The window shows the Overview as it stays once loaded (see [`FIRST_SCREEN_SAME`]).
    first_screen: Duration,
    procs: Vec<Mem>,
}

/// A frame is the first screen when at most this share of the sampled pixels differs from the
/// window once it has settled: the status badge saying "starting…" and the counts not yet read
/// are about that much of the window; a page not yet painted, or half of it, is far more.
const FIRST_SCREEN_SAME: f64 = 0.98;

fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

fn secs(d: Duration) -> String {
    format!("{:.2} s", d.as_secs_f64())
}

fn env_num(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

fn main() {
    assert!(
        std::env::var_os("DISPLAY").is_some(),
        "the footprint bench starts the window: run it under xvfb-run (scripts/bench-footprint.sh does)"
    );
    let runs = env_num("FOOTPRINT_RUNS", 3);
    let rounds = env_num("FOOTPRINT_ROUNDS", 20);
    // Xvfb's screen as a file (xvfb-run -s "-fbdir DIR"): what the window shows, read without
    // asking the app, for the first screen of a start as an operator makes it.
    let fb = std::env::var_os("FOOTPRINT_FBDIR").map(|d| PathBuf::from(d).join("Xvfb_screen0"));
    let this = PathBuf::from(app_common::BIN);
    // In the same run: this build, the same painting into shared memory (what a user can
    // choose), and another build when given one.
    let mut bins: Vec<Variant> = vec![("this build".to_owned(), this.clone(), vec![])];
    if std::env::var_os("FOOTPRINT_ENV").is_none() {
        // Without a GPU the app paints into shared memory (src-tauri/src/painting.rs); the
        // DMA-BUF renderer it would have used otherwise, measured beside it.
        bins.push((
            "DMA-BUF renderer kept on".to_owned(),
            this,
            vec![("WEBKIT_DISABLE_DMABUF_RENDERER", "0")],
        ));
    }
    if let Some(b) = std::env::var_os("FOOTPRINT_BASELINE_BIN").filter(|b| !b.is_empty()) {
        bins.insert(0, ("baseline build".to_owned(), PathBuf::from(b), vec![]));
    }
    // Trials of what the environment can change: `FOOTPRINT_ENV="MALLOC_ARENA_MAX=2;JSC_useJIT=0"`
    // measures one variant of this build for each `;`-separated list of `NAME=value` words,
    // instead of the DMA-BUF one.
    for trial in std::env::var("FOOTPRINT_ENV")
        .unwrap_or_default()
        .split(';')
    {
        let vars: Env = trial
            .split_whitespace()
            .filter_map(|w| w.split_once('='))
            .map(|(k, v)| (&*k.to_owned().leak(), &*v.to_owned().leak()))
            .collect();
        if !vars.is_empty() {
            bins.push((
                trial.trim().to_owned(),
                PathBuf::from(app_common::BIN),
                vars,
            ));
        }
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
        let mut directs: Vec<Vec<Direct>> = vec![Vec::new(); bins.len()];
        // Turn about, so every variant sees the same machine load.
        for n in 0..runs {
            for (i, (label, bin, env)) in bins.iter().enumerate() {
                // WebKit's caches and the window's storage in the scratch dir, not the user's,
                // kept from one start to the next as on a desktop, one set per variant.
                let home = dir.path().join(format!("home-{i}"));
                if let Some(fb) = &fb {
                    let run_dir = dir.path().join(format!("direct-{i}-{n}"));
                    app_common::seed(&run_dir, &sim.address()).await;
                    let d = direct(bin, env, &run_dir, &home, fb).await;
                    println!(
                        "{label} #{}, started directly: first paint {}, first screen {}; RSS {:.1} MiB, PSS {:.1} MiB in all",
                        n + 1,
                        secs(d.first_paint),
                        secs(d.first_screen),
                        mib(total(&d.procs, |m| m.rss)),
                        mib(total(&d.procs, |m| m.pss)),
                    );
                    directs[i].push(d);
                }
                let run_dir = dir.path().join(format!("{i}-{n}"));
                app_common::seed(&run_dir, &sim.address()).await;
                seed_day(&run_dir, &sim.address()).await;
                println!("{label} #{}: through WebKitWebDriver, a day's walk of {rounds} rounds", n + 1);
                let run = window(bin, env, &run_dir, &home, rounds).await;
                print_run(label, n + 1, &run);
                results[i].push(run);
            }
        }
        println!();
        println!("== window, median of {runs} starts (targets: first screen < {}, bootsmith RSS < {TARGET_CORE_RSS_MIB} MiB, all processes PSS < {TARGET_APP_PSS_MIB} MiB, after a day's walk at most {TARGET_WALK_RATIO}x fresh)", secs(TARGET_FIRST_SCREEN));
        for (((label, _, _), rs), ds) in bins.iter().zip(&results).zip(&directs) {
            summary(label, rs, ds);
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

/// What a day's work adds to [`app_common::seed`]: a second group of 200 hosts (a long Hosts
/// sheet), an SSH key (so runs go ahead without asking about logins), the first group's media
/// (so it deploys), and 20,000 log lines before the app's own.
async fn seed_day(dir: &Path, manager: &str) {
    use bootsmith_core::{
        records::hosts, records::keys, records::networks, records::server_groups,
    };
    let app = bootsmith_core::testing::open(dir).await;
    let net: networks::NetworkInput = serde_json::from_value(json!({"name": "lab-big",
        "netmask": "255.255.0.0", "gateway": "10.20.0.1", "nameserver": "10.20.0.53", "ntpserver": "10.20.0.123"}))
    .unwrap();
    networks::create(&app, net).await.unwrap();
    let group: server_groups::ServerGroupInput =
        serde_json::from_value(json!({"name": "pod-west", "type": "ucsm",
        "credentials": {"ip": manager, "user": "admin", "password": "password"}}))
        .unwrap();
    server_groups::create(&app, group).await.unwrap();
    let mut list: Vec<serde_json::Value> = vec![
        json!({"name": "kube-master-01", "ip": "192.0.2.21", "os": "centos7.4", "role": "k8s master", "network_group": "lab-mgmt", "server_group": "pod-east"}),
        json!({"name": "kube-node-01", "ip": "192.0.2.22", "os": "centos7.4", "role": "k8s node", "network_group": "lab-mgmt", "server_group": "pod-east"}),
    ];
    list.extend((0..200).map(|n| json!({"name": format!("west-node-{n:03}"), "ip": format!("10.20.{}.{}", 1 + n / 200, 10 + n % 200),
        "os": "centos7.4", "role": "k8s node", "network_group": "lab-big", "server_group": "pod-west"})));
    hosts::replace(&app, serde_json::from_value(json!(list)).unwrap())
        .await
        .unwrap();
    keys::replace(&app, serde_json::from_value(json!({"keys": ["ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJRsCR05CTCVLtFICOdFoTw56mQeLuHhOQNlJKwXUwaI ops@example"]})).unwrap())
        .await
        .unwrap();
    let data_dir = app.data_dir().to_owned();
    app.close().await;
    // The two deployed hosts' install media, as made on the Images screen (their content is
    // never read: the simulated manager mounts nothing).
    let svc = bootsmith_core::testing::config(dir).svc_dir;
    for f in [
        "centos7.4-boot.iso",
        "kube-master-01.img",
        "kube-node-01.img",
    ] {
        std::fs::write(svc.join(f), b"x").unwrap();
    }
    use std::fmt::Write;
    let mut log = String::new();
    for n in 0..20_000 {
        let _ = writeln!(
            log,
            r#"{{"timestamp":"2026-01-01T{:02}:{:02}:{:02}.000000Z","level":"INFO","fields":{{"message":"job step done","job":"j-{n}","host":"west-node-{:03}"}},"target":"bootsmith_core::jobs"}}"#,
            n / 3600 % 24,
            n / 60 % 60,
            n % 60,
            n % 200
        );
    }
    let path = data_dir.join(bootsmith_core::logs::LOG_FILE);
    let old = std::fs::read_to_string(&path).unwrap_or_default();
    std::fs::write(&path, log + &old).unwrap();
}

/// Start `bin` on `dir` as an operator does (the binary with its data dir, no WebDriver) and
/// watch Xvfb's screen `fb` until the window has settled: when it first showed something, when
/// it first showed the Overview as it stays, and then the memory of its processes.
async fn direct(bin: &Path, env: &[(&str, &str)], dir: &Path, home: &Path, fb: &Path) -> Direct {
    let config = bootsmith_core::testing::config(dir);
    // The screen as it is before the start, once the window of the start before has gone.
    let mut blank = Frame::read(fb);
    let mut since = Instant::now();
    while since.elapsed() < Duration::from_secs(1) {
        tokio::time::sleep(Duration::from_millis(50)).await;
        let f = Frame::read(fb);
        if f != blank {
            blank = f;
            since = Instant::now();
        }
    }
    let t0 = Instant::now();
    let mut child = Command::new(bin)
        .env("BOOTSMITH_KEYRING", "off")
        .env_remove("RUST_LOG")
        .envs(app_env(env, home))
        .arg("--data-dir")
        .arg(&config.data_dir)
        .arg("--svc-dir")
        .arg(&config.svc_dir)
        .args(["--listen", "127.0.0.1:0"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Each new picture of the screen with when it was seen; read every 20 ms until it has not
    // changed for 3 s (the Overview's own reads are done by then).
    let mut frames: Vec<(Duration, Frame)> = Vec::new();
    let mut last = blank.clone();
    let mut still = Instant::now();
    while still.elapsed() < Duration::from_secs(3) || t0.elapsed() < Duration::from_secs(4) {
        assert!(
            t0.elapsed() < Duration::from_secs(60),
            "the window never settled"
        );
        let f = Frame::read(fb);
        if f != last {
            frames.push((t0.elapsed(), f.clone()));
            last = f;
            still = Instant::now();
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let settled = &last;
    let first_paint = frames
        .first()
        .map(|(t, _)| *t)
        .expect("the window never showed");
    let first_screen = frames
        .iter()
        .find(|(_, f)| f.same_share(settled) >= FIRST_SCREEN_SAME)
        .map(|(t, _)| *t)
        .unwrap();
    let procs = app_mem(child.id());
    app_common::kill_term(child.id());
    let _ = child.wait();
    // Its window gone from the screen before the next start's empty screen is read.
    tokio::time::sleep(Duration::from_millis(500)).await;
    Direct {
        first_paint,
        first_screen,
        procs,
    }
}

/// Every fourth pixel of every fourth row of Xvfb's screen (an XWD file, 32 bits a pixel).
#[derive(Clone, PartialEq)]
struct Frame(Vec<u32>);

impl Frame {
    fn read(path: &Path) -> Frame {
        use std::os::unix::fs::FileExt;
        let f = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut head = [0u8; 100];
        f.read_exact_at(&mut head, 0).unwrap();
        let word = |i: usize| u32::from_be_bytes(head[i * 4..i * 4 + 4].try_into().unwrap()) as u64;
        let (header, height, bpp, line, ncolors) = (word(0), word(5), word(11), word(12), word(19));
        assert_eq!(
            bpp, 32,
            "Xvfb's screen has 32 bits a pixel (-screen WxHx24)"
        );
        let data = header + ncolors * 12;
        let mut row = vec![0u8; line as usize];
        let mut px = Vec::new();
        for y in (0..height).step_by(4) {
            f.read_exact_at(&mut row, data + y * line).unwrap();
            px.extend(
                row.chunks_exact(16)
                    .map(|p| u32::from_ne_bytes(p[..4].try_into().unwrap())),
            );
        }
        Frame(px)
    }

    /// The share of pixels equal in both.
    fn same_share(&self, other: &Frame) -> f64 {
        let same = self.0.iter().zip(&other.0).filter(|(a, b)| a == b).count();
        same as f64 / self.0.len().max(1) as f64
    }
}

fn print_run(label: &str, n: usize, r: &Run) {
    println!(
        "{label} #{n}: window up {}, first screen {}, status ok {}",
        secs(r.window_up),
        secs(r.first_screen),
        secs(r.status_ok),
    );
    for (when, procs) in [("fresh", &r.fresh), ("after the walk", &r.walked)] {
        if procs.is_empty() {
            continue;
        }
        println!(
            "  {when}: RSS {:.1} MiB, PSS {:.1} MiB in all",
            mib(total(procs, |m| m.rss)),
            mib(total(procs, |m| m.pss))
        );
        for m in procs {
            println!(
                "    {:<22} RSS {:6.1} MiB (anon {:6.1})  PSS {:6.1} MiB (anon {:6.1}, file {:6.1})",
                m.name,
                mib(m.rss),
                mib(m.anon),
                mib(m.pss),
                mib(m.pss_anon),
                mib(m.pss_file)
            );
        }
    }
}

fn median<T: Copy + PartialOrd>(mut v: Vec<T>) -> T {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn summary(label: &str, rs: &[Run], ds: &[Direct]) {
    let up = median(rs.iter().map(|r| r.window_up).collect());
    let first = median(rs.iter().map(|r| r.first_screen).collect());
    let ok = median(rs.iter().map(|r| r.status_ok).collect());
    let core_rss = median(rs.iter().map(|r| r.fresh[0].rss).collect());
    let core_pss = median(rs.iter().map(|r| r.fresh[0].pss).collect());
    let web: Vec<u64> = rs.iter().map(|r| total(&r.fresh[1..], |m| m.rss)).collect();
    let rss = median(rs.iter().map(|r| total(&r.fresh, |m| m.rss)).collect());
    let pss = median(rs.iter().map(|r| total(&r.fresh, |m| m.pss)).collect());
    let mark = |ok: bool| if ok { "ok" } else { "over" };
    println!(
        "{label:>28}: window up {}, first screen {} ({}), status ok {}; fresh: bootsmith RSS {:.1} MiB ({}) PSS {:.1} MiB; WebKit processes RSS {:.1} MiB; all RSS {:.1} MiB, PSS {:.1} MiB ({})",
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
    if !ds.is_empty() {
        let paint = median(ds.iter().map(|d| d.first_paint).collect());
        let screen = median(ds.iter().map(|d| d.first_screen).collect());
        println!(
            "{:>28}  started directly: first paint {}, first screen {} ({}); all RSS {:.1} MiB, PSS {:.1} MiB",
            "",
            secs(paint),
            secs(screen),
            mark(screen < TARGET_FIRST_SCREEN),
            mib(median(ds.iter().map(|d| total(&d.procs, |m| m.rss)).collect())),
            mib(median(ds.iter().map(|d| total(&d.procs, |m| m.pss)).collect())),
        );
    }
    if rs.iter().all(|r| !r.walked.is_empty()) {
        let ratio = |f: &dyn Fn(&[Mem]) -> u64| {
            median(
                rs.iter()
                    .map(|r| f(&r.walked) as f64 / f(&r.fresh).max(1) as f64)
                    .collect(),
            )
        };
        let all_rss = |p: &[Mem]| total(p, |m| m.rss);
        let all_pss = |p: &[Mem]| total(p, |m| m.pss);
        let web_anon = |p: &[Mem]| total(&p[1..], |m| m.anon);
        let core_anon = |p: &[Mem]| p[0].anon;
        let med = |f: &dyn Fn(&[Mem]) -> u64, walked: bool| {
            mib(median(
                rs.iter()
                    .map(|r| f(if walked { &r.walked } else { &r.fresh }))
                    .collect(),
            ))
        };
        println!(
            "{:>28}  after a day's walk / fresh: all RSS {:.1} -> {:.1} MiB = {:.2}x ({}), all PSS {:.1} -> {:.1} MiB = {:.2}x ({}); WebKit anon {:.1} -> {:.1} MiB, bootsmith anon {:.1} -> {:.1} MiB",
            "",
            med(&all_rss, false),
            med(&all_rss, true),
            ratio(&all_rss),
            mark(ratio(&all_rss) <= TARGET_WALK_RATIO),
            med(&all_pss, false),
            med(&all_pss, true),
            ratio(&all_pss),
            mark(ratio(&all_pss) <= TARGET_WALK_RATIO),
            med(&web_anon, false),
            med(&web_anon, true),
            med(&core_anon, false),
            med(&core_anon, true),
        );
    }
}

/// Start the window of `bin` on `dir` (its `data` and `svc`) through WebKitWebDriver, time its
/// first screen and its status, walk every screen once and read the memory of its processes
/// (fresh); then walk a day's work `rounds` times and read it again after a settle (walked).
async fn window(bin: &Path, env: &[(&str, &str)], dir: &Path, home: &Path, rounds: usize) -> Run {
    let driver = Driver::start_with(app_env(env, home)).await;
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
    driver.element(&sid, "#screen-overview").await;
    let first_screen = t0.elapsed();
    driver.wait_for(&sid, "#status", "ok", 30).await;
    let status_ok = t0.elapsed();

    // Every screen the navigation offers, each given time to load what it shows.
    let screens = driver
        .execute(&sid, "return Array.from(document.querySelectorAll('nav button[id^=\"nav-\"]')).map(b => b.id.slice(4))")
        .await;
    let screens: Vec<String> = serde_json::from_value(screens).unwrap();
    assert!(screens.len() >= 10, "the navigation lists {screens:?}");
    let walk = Walk {
        d: &driver,
        sid: &sid,
    };
    for s in &screens {
        walk.nav(s).await;
        tokio::time::sleep(Duration::from_millis(800)).await;
    }
    walk.nav("overview").await;
    tokio::time::sleep(Duration::from_secs(2)).await;

    let root = driver.child.id();
    let app = children(root)
        .into_iter()
        .next()
        .expect("WebKitWebDriver started the app");
    let fresh = app_mem(app);
    let mut walked = Vec::new();
    if rounds > 0 {
        let w = &walk;
        let started = Instant::now();
        for r in 1..=rounds {
            w.round(&screens).await;
            if r % 5 == 0 || r == rounds {
                let now = app_mem(app);
                let page = driver
                    .execute(&sid, "return [document.getElementsByTagName('*').length, window.__TAURI_INTERNALS__?.callbacks?.size ?? -1]")
                    .await;
                println!(
                    "    round {r:>3} ({:>4.0} s): all RSS {:6.1} MiB (web process {:6.1}, anon {:6.1}), PSS {:6.1} MiB; DOM elements {}, IPC callbacks {}",
                    started.elapsed().as_secs_f64(),
                    mib(total(&now, |m| m.rss)),
                    mib(now[1..].iter().map(|m| m.rss).max().unwrap_or(0)),
                    mib(now[1..].iter().map(|m| m.anon).max().unwrap_or(0)),
                    mib(total(&now, |m| m.pss)),
                    page[0],
                    page[1],
                );
            }
        }
        // The window as it is left at the end of a day: on the Overview, idle.
        walk.nav("overview").await;
        tokio::time::sleep(settle()).await;
        walked = app_mem(app);
    }
    let _ = driver
        .client
        .delete(format!("{}/session/{sid}", driver.base))
        .send()
        .await;
    Run {
        window_up,
        first_screen,
        status_ok,
        fresh,
        walked,
    }
}

/// How long the window is left idle before it is measured after the walk: WebKit offers
/// WebDriver no way to collect garbage, so JavaScriptCore's own timers are given the time.
fn settle() -> Duration {
    Duration::from_secs(
        std::env::var("FOOTPRINT_SETTLE")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(15),
    )
}

/// WebKit's caches and the window's storage in `home`, not the user's; `env` added.
fn app_env<'a>(env: &'a [(&'a str, &'a str)], home: &Path) -> Vec<(String, std::ffi::OsString)> {
    let mut vars: Vec<(String, std::ffi::OsString)> = ["data", "cache", "config"]
        .iter()
        .map(|d| {
            (
                format!("XDG_{}_HOME", d.to_uppercase()),
                home.join(d).into_os_string(),
            )
        })
        .collect();
    vars.extend(env.iter().map(|(k, v)| ((*k).to_owned(), v.into())));
    vars
}

/// The memory of the app `pid` and of every process it started, the app first.
fn app_mem(pid: u32) -> Vec<Mem> {
    let mut procs = vec![mem(pid)];
    procs.extend(descendants(pid).into_iter().map(mem));
    procs
}

fn total(procs: &[Mem], f: impl Fn(&Mem) -> u64) -> u64 {
    procs.iter().map(f).sum()
}

/// A day's work in the window, one round at a time: every screen, the long lists read and
/// searched, a deploy followed live and taken back, images asked for, dialogs opened and closed.
struct Walk<'a> {
    d: &'a Driver,
    sid: &'a str,
}

impl Walk<'_> {
    /// Click the element `css` selects from a script. Not WebDriver's element click: WebKit's
    /// automation keeps every element it has handed out alive until the page is reloaded, so a
    /// walk through WebDriver's elements would hold each screen's old rows and measure the
    /// driver, not the app.
    async fn click(&self, css: &str) {
        self.until(&format!("document.querySelector({css:?})"), 30)
            .await;
        self.d
            .execute(
                self.sid,
                &format!("const el = document.querySelector({css:?}); el.scrollIntoView({{block: 'center'}}); el.click();"),
            )
            .await;
    }

    /// Go to `screen` through the navigation and wait until it shows.
    async fn nav(&self, screen: &str) {
        self.click(&format!("#nav-{screen}")).await;
        self.until(&format!("document.querySelector('#screen-{screen}')"), 30)
            .await;
    }

    /// The text of the element `css` selects.
    async fn text(&self, css: &str) -> String {
        let t = self
            .d
            .execute(
                self.sid,
                &format!("return document.querySelector({css:?})?.textContent ?? ''"),
            )
            .await;
        t.as_str().unwrap_or_default().to_owned()
    }

    async fn round(&self, screens: &[String]) {
        for s in screens {
            self.nav(s).await;
            match s.as_str() {
                "hosts" => self.hosts().await,
                "logs" => self.logs().await,
                "deploy" => self.deploy().await,
                "images" => self.images().await,
                "power" => tokio::time::sleep(Duration::from_millis(1500)).await,
                _ => tokio::time::sleep(Duration::from_millis(300)).await,
            }
        }
        // The shortcuts dialog, opened and closed.
        self.click("#shortcuts-open").await;
        self.until("document.querySelector('#shortcuts').open", 10)
            .await;
        self.click("#shortcuts-close").await;
        self.until("!document.querySelector('#shortcuts').open", 10)
            .await;
    }

    /// Poll `cond` (a JavaScript expression) until it is true; panics after `secs` naming it.
    async fn until(&self, cond: &str, secs: u64) {
        let start = Instant::now();
        let script = format!("return !!({cond})");
        while self.d.execute(self.sid, &script).await != json!(true) {
            assert!(
                start.elapsed() < Duration::from_secs(secs),
                "never true in the window: {cond}"
            );
            tokio::time::sleep(Duration::from_millis(150)).await;
        }
    }

    /// Answer every question a run asks until `done` (a JavaScript expression) holds.
    async fn answer_until(&self, done: &str, secs: u64) {
        let start = Instant::now();
        let script = format!(
            "const yes = document.querySelector('#confirm-yes'); if (yes) {{ yes.click(); return 'asked'; }} return !!({done});"
        );
        loop {
            if self.d.execute(self.sid, &script).await == json!(true) {
                return;
            }
            let status = self.text("#deploy-status").await;
            assert!(
                start.elapsed() < Duration::from_secs(secs),
                "never true in the window: {done} (deploy status {status:?})"
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    async fn hosts(&self) {
        self.until(
            "document.querySelectorAll('#screen-hosts tbody tr').length >= 200",
            20,
        )
        .await;
        self.d.fill(self.sid, "main [data-search]", "node-1").await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        self.d.fill(self.sid, "main [data-search]", "").await;
        tokio::time::sleep(Duration::from_millis(300)).await;
    }

    async fn logs(&self) {
        let rows = "document.querySelectorAll('#logs tbody tr').length";
        self.until(&format!("{rows} >= 200"), 20).await;
        // Older pages, as an operator reading back through the day does.
        for n in 2..=4 {
            self.click("#logs-older").await;
            self.until(&format!("{rows} >= {}", n * 200), 20).await;
        }
        self.d.fill(self.sid, "#logs-q", "job").await;
        self.click("#logs-search").await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        self.d.fill(self.sid, "#logs-q", "").await;
        self.click("#logs-search").await;
        self.until(&format!("{rows} >= 200"), 20).await;
    }

    async fn deploy(&self) {
        let ended =
            "/\\b(ok|warn|error)\\b/.test(document.querySelector('#deploy-status').className)";
        // The group of two hosts, not the long one.
        self.d.fill(self.sid, "#deploy-group", "pod-east").await;
        self.click("#deploy-preview").await;
        self.until(
            &format!("!document.querySelector('#deploy-apply').disabled || {ended}"),
            30,
        )
        .await;
        if self
            .d
            .execute(
                self.sid,
                "return document.querySelector('#deploy-apply').disabled",
            )
            .await
            == json!(false)
        {
            self.click("#deploy-apply").await;
            self.answer_until(ended, 120).await;
        }
        // Taken back, so the next round deploys again.
        self.click("#deploy-remove").await;
        self.answer_until(
            &format!("{ended} || document.querySelector('#deploy-status').textContent.includes('Nothing to remove')"),
            120,
        )
        .await;
    }

    async fn images(&self) {
        self.click("#make-images").await;
        self.until(
            "/\\b(ok|warn|error)\\b/.test(document.querySelector('#images-status').className)",
            60,
        )
        .await;
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
        anon: field("Anonymous:"),
        pss: field("Pss:"),
        pss_anon: field("Pss_Anon:"),
        pss_file: field("Pss_File:"),
    }
}
