//! Helpers shared by the end-to-end tests of the program: the binary run as a user runs it,
//! and the records the window and browser tests start from.
#![allow(dead_code)] // each test file uses a part

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::json;

/// The program under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_bootsmith");

/// A running `bootsmith` process and the URL it listens on.
pub struct Running {
    child: Option<Child>,
    /// `http://127.0.0.1:<port>`.
    pub base: String,
    /// Its log lines after the listen line.
    pub stderr: mpsc::Receiver<String>,
}

/// The program with its data and svc dirs under `dir` (as `bootsmith_core::testing` lays them
/// out), no display, no keyring.
pub fn command(dir: &Path) -> Command {
    let config = bootsmith_core::testing::config(dir);
    let mut c = Command::new(BIN);
    c.env("BOOTSMITH_KEYRING", "off")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("RUST_LOG")
        .env_remove("BOOTSMITH_LISTEN")
        .arg("--data-dir")
        .arg(config.data_dir)
        .arg("--svc-dir")
        .arg(config.svc_dir);
    c
}

/// Start `bootsmith serve` (or the default command, which serves when there is no display).
pub fn start(dir: &Path, args: &[&str]) -> Running {
    let mut child = command(dir)
        .args(args)
        .args(["--listen", "127.0.0.1:0"])
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let (tx, rx) = mpsc::channel();
    let stderr = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut running = Running {
        child: Some(child),
        base: String::new(),
        stderr: rx,
    };
    let mut seen = Vec::new();
    loop {
        let line = running
            .stderr
            .recv_timeout(Duration::from_secs(30))
            .unwrap_or_else(|_| panic!("no listen line; stderr so far: {seen:#?}"));
        if let Some(i) = line.find("url=http://") {
            running.base = line[i + 4..]
                .split_whitespace()
                .next()
                .unwrap()
                .trim_end_matches('/')
                .to_owned();
            return running;
        }
        seen.push(line);
    }
}

impl Drop for Running {
    /// A test that fails midway still ends its server.
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Running {
    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.as_ref().map_or(0, Child::id)
    }

    /// Stop with SIGTERM and return everything it logged to stderr after start.
    pub fn stop(mut self) -> Vec<String> {
        let mut child = self.child.take().unwrap();
        kill_term(child.id());
        let status = child.wait().unwrap();
        assert!(status.success(), "serve exited with {status}");
        self.stderr.try_iter().collect()
    }
}

/// Send SIGTERM.
pub fn kill_term(pid: u32) {
    let ok = Command::new("kill")
        .arg("-TERM")
        .arg(pid.to_string())
        .status()
        .unwrap()
        .success();
    assert!(ok);
}

/// The API token, as `bootsmith token` prints it.
pub fn token(dir: &Path) -> String {
    let out = command(dir).arg("token").output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

/// Run `cmd` to its end; a failure panics with what it wrote on stderr.
pub fn run_ok(cmd: &mut Command) {
    let made = cmd.output().unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
}

/// A CentOS 7.4-shaped installer ISO at `path`, made by the script the README offers.
pub fn sample_iso(path: &Path) {
    run_ok(
        Command::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/scripts/sample-iso.sh"
        ))
        .arg(path),
    );
}

/// The window and browser tests' records, in the data dir under `dir`: boot-server address, a
/// network, a UCSM group on `manager` with blades 1/2 and 1/3 selected, two CentOS 7.4 hosts
/// without servers.
pub async fn seed(dir: &Path, manager: &str) {
    use bootsmith_core::{
        records::hosts, records::networks, records::server_groups, records::settings,
    };
    let app = bootsmith_core::testing::open(dir).await;
    settings::set_svc_ip(
        &app,
        settings::SvcIpInput {
            svc_ip: Some("127.0.0.1".into()),
            kubam_ip: None,
        },
    )
    .await
    .unwrap();
    let net: networks::NetworkInput =
        serde_json::from_value(json!({"name": "lab-mgmt", "netmask": "255.255.255.0",
        "gateway": "192.0.2.1", "nameserver": "192.0.2.53", "ntpserver": "192.0.2.123"}))
        .unwrap();
    networks::create(&app, net).await.unwrap();
    let group: server_groups::ServerGroupInput = serde_json::from_value(json!({"name": "pod-east", "type": "ucsm",
        "credentials": {"ip": manager, "user": "admin", "password": "password"}, "server_pool": {"blades": ["1/2", "1/3"]}})).unwrap();
    server_groups::create(&app, group).await.unwrap();
    let list: Vec<hosts::HostInput> = serde_json::from_value(json!([
        {"name": "kube-master-01", "ip": "192.0.2.21", "os": "centos7.4", "role": "k8s master", "network_group": "lab-mgmt", "server_group": "pod-east"},
        {"name": "kube-node-01", "ip": "192.0.2.22", "os": "centos7.4", "role": "k8s node", "network_group": "lab-mgmt", "server_group": "pod-east"}
    ])).unwrap();
    hosts::replace(&app, list).await.unwrap();
    app.close().await;
}

/// A temporary data/svc pair (`<dir>/data`, `<dir>/svc`) holding [`seed`]'s records for a
/// fresh simulated UCS Manager.
pub async fn seeded() -> (tempfile::TempDir, bootsmith_sim::Sim) {
    let dir = tempfile::tempdir().unwrap();
    let sim = bootsmith_sim::Sim::start(bootsmith_sim::SimConfig::ucsm())
        .await
        .unwrap();
    seed(dir.path(), &sim.address()).await;
    (dir, sim)
}
