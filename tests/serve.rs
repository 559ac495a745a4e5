//! The `bootsmith` binary as a user runs it: `serve`, `token`, restarts, logs.

mod common;

use std::path::Path;
use std::process::Command;

use common::*;
use serde_json::{json, Value};

fn call(method: &str, url: &str, token: Option<&str>, body: Option<Value>) -> (u16, Value) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let client = reqwest::Client::new();
        let mut req = client.request(method.parse().unwrap(), url);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(b) = body {
            req = req.json(&b);
        }
        let resp = req.send().await.unwrap();
        let status = resp.status().as_u16();
        (status, resp.json().await.unwrap())
    })
}

#[test]
fn serve_answers_status_and_requires_the_printed_token() {
    let dir = tempfile::tempdir().unwrap();
    let tok = token(dir.path());
    assert!(tok.starts_with("bst_") && tok.len() > 40);
    let s = start(dir.path(), &["serve"]);
    assert_eq!(
        call("GET", &format!("{}/", s.base), None, None),
        (
            200,
            json!({"status": "ok", "version": env!("CARGO_PKG_VERSION"), "build": bootsmith::BUILD})
        )
    );
    assert_eq!(
        call("GET", &format!("{}/api/v2/hosts", s.base), None, None).0,
        401
    );
    assert_eq!(
        call("GET", &format!("{}/api/v2/hosts", s.base), Some(&tok), None),
        (200, json!({"hosts": []}))
    );
    s.stop();
    assert_eq!(token(dir.path()), tok, "the token is stable across runs");
}

#[test]
fn version_and_build_are_the_same_everywhere() {
    let out = Command::new(BIN).arg("--version").output().unwrap();
    assert!(out.status.success());
    let printed = String::from_utf8(out.stdout).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let tok = token(dir.path());
    let s = start(dir.path(), &["serve"]);
    let (_, status) = call("GET", &format!("{}/", s.base), None, None);
    let (_, doc) = call(
        "GET",
        &format!("{}/api/openapi.json", s.base),
        Some(&tok),
        None,
    );
    s.stop();
    let (version, build) = (
        status["version"].as_str().unwrap(),
        status["build"].as_str().unwrap(),
    );
    assert_eq!(
        printed.trim(),
        format!("bootsmith {version} (build {build})")
    );
    assert_eq!(
        doc["info"]["version"], version,
        "the OpenAPI document's version"
    );
    assert_eq!(version, env!("CARGO_PKG_VERSION"));
    // Built from this repository's git history: the commit and its date, never left unknown.
    let (commit, date) = build
        .split_once(' ')
        .unwrap_or_else(|| panic!("build {build:?}"));
    assert!(
        commit.len() >= 7 && commit.chars().all(|c| c.is_ascii_hexdigit()),
        "{build}"
    );
    assert_eq!(date.len(), 10, "{build}");
}

#[test]
fn without_a_display_the_default_command_serves() {
    let dir = tempfile::tempdir().unwrap();
    let s = start(dir.path(), &[]);
    assert_eq!(call("GET", &format!("{}/", s.base), None, None).0, 200);
    s.stop();
}

#[test]
fn records_survive_a_process_restart_and_secrets_stay_out_of_logs() {
    let dir = tempfile::tempdir().unwrap();
    let tok = token(dir.path());
    let secret = "Bin-Secret-Never-Logged-42";
    let s = start(dir.path(), &["serve"]);
    let url = |p: &str| format!("{}{p}", s.base);
    assert_eq!(
        call(
            "POST",
            &url("/api/v2/networks"),
            Some(&tok),
            Some(json!({"name": "mgmt", "netmask": "255.255.255.0",
        "gateway": "10.1.0.1", "nameserver": "10.1.0.53", "ntpserver": "10.1.0.123"}))
        )
        .0,
        201
    );
    let created = call(
        "POST",
        &url("/api/v2/servers"),
        Some(&tok),
        Some(json!({"name": "pod1", "type": "ucsm",
        "credentials": {"ip": "127.0.0.1:9", "user": "admin", "password": secret}, "check_login": false})),
    );
    assert_eq!(created.0, 201);
    // A refused request carrying the password, and an update: neither may log it.
    call(
        "POST",
        &url("/api/v2/servers"),
        Some(&tok),
        Some(json!({"name": "p 2", "type": "x", "credentials": {"password": secret}})),
    );
    call(
        "PUT",
        &url("/api/v2/servers"),
        Some(&tok),
        Some(
            json!({"id": created.1["id"], "name": "pod1", "type": "ucsm",
        "credentials": {"ip": "127.0.0.1:9", "user": "admin", "password": secret}, "check_login": false}),
        ),
    );
    let before = call("GET", &url("/api/v2/servers"), Some(&tok), None);
    let mut logged = s.stop();

    let s = start(dir.path(), &["serve"]);
    let after = call(
        "GET",
        &format!("{}/api/v2/servers", s.base),
        Some(&tok),
        None,
    );
    assert_eq!(before, after);
    assert_eq!(
        call(
            "GET",
            &format!("{}/api/v2/networks", s.base),
            Some(&tok),
            None
        )
        .1["networks"][0]["name"],
        "mgmt"
    );
    logged.extend(s.stop());

    assert!(
        logged.iter().all(|l| !l.contains(secret)),
        "password on stderr"
    );
    let log = std::fs::read_to_string(dir.path().join("data/bootsmith.log")).unwrap();
    assert!(
        log.contains("server group created"),
        "the JSON log records actions"
    );
    for line in log.lines() {
        serde_json::from_str::<Value>(line)
            .unwrap_or_else(|e| panic!("log line is not JSON ({e}): {line}"));
    }
    for file in std::fs::read_dir(dir.path().join("data"))
        .unwrap()
        .flatten()
    {
        let bytes = std::fs::read(file.path()).unwrap();
        assert!(
            !bytes.windows(secret.len()).any(|w| w == secret.as_bytes()),
            "password in clear in {:?}",
            file.path()
        );
    }
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(dir.path().join("data/secret.key"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600, "the key file is private");
}

#[test]
fn no_auth_logs_a_warning_and_opens_the_api() {
    let dir = tempfile::tempdir().unwrap();
    let s = start(dir.path(), &["serve", "--no-auth"]);
    assert_eq!(
        call("GET", &format!("{}/api/v2/hosts", s.base), None, None).0,
        200
    );
    s.stop();
    let log = std::fs::read_to_string(dir.path().join("data/bootsmith.log")).unwrap();
    assert!(log.contains("authentication is OFF"));
}

#[test]
fn a_data_dir_inside_svc_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(BIN)
        .env("BOOTSMITH_KEYRING", "off")
        .args(["serve", "--listen", "127.0.0.1:0", "--svc-dir"])
        .arg(dir.path())
        .arg("--data-dir")
        .arg(dir.path().join("data"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("keep the database and key outside it"),
        "{err}"
    );
}

#[test]
fn a_busy_port_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let holder = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = holder.local_addr().unwrap().port();
    let out = command(dir.path())
        .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains(&format!("cannot listen on 127.0.0.1:{port}")));
}

#[test]
fn the_readme_walkthrough_works_as_written() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let after_marker = readme
        .split("<!-- walkthrough")
        .nth(1)
        .expect("walkthrough marker in README");
    let block = after_marker
        .split("```sh\n")
        .nth(1)
        .unwrap()
        .split("\n```")
        .next()
        .unwrap();
    assert!(block.contains("curl"));

    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("svc")).unwrap();
    // The sample ISO the README offers, so images and deploy run on installer-shaped media.
    sample_iso(&dir.path().join("svc/CentOS-7-x86_64-Minimal-1708.iso"));
    let s = start(dir.path(), &["serve"]);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let sim = rt
        .block_on(bootsmith_sim::Sim::start(bootsmith_sim::SimConfig::ucsm()))
        .unwrap();
    let script = block
        .replace("http://127.0.0.1:8080", &s.base)
        .replace("http://127.0.0.1:9000", &sim.address());
    let bin_dir = Path::new(BIN).parent().unwrap();
    let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap());
    let out = Command::new("bash")
        .args(["-euo", "pipefail", "-c", &script])
        .env("PATH", path)
        .env("BOOTSMITH_KEYRING", "off")
        .env("BOOTSMITH_DATA_DIR", dir.path().join("data"))
        .env("BOOTSMITH_SVC_DIR", dir.path().join("svc"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "walkthrough failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let tok = token(dir.path());
    let hosts = call("GET", &format!("{}/api/v2/hosts", s.base), Some(&tok), None).1;
    assert_eq!(hosts["hosts"].as_array().unwrap().len(), 1);
    assert_eq!(hosts["hosts"][0]["name"], "kube01");
    let map = call(
        "GET",
        &format!("{}/api/v1/isos/map", s.base),
        Some(&tok),
        None,
    )
    .1;
    assert_eq!(map["iso_map"][0]["os"], "centos7.4");
    assert!(
        !stdout.contains("\"password\":\"password\""),
        "the group password is never echoed"
    );
    // The walkthrough's actions reached the (simulated) manager.
    assert_eq!(
        sim.get("sys/chassis-1/blade-2").unwrap().get("adminPower"),
        "admin-up"
    );
    assert!(
        stdout.contains("unconfigured-good"),
        "the disk reset answers with the new state"
    );
    assert!(stdout.contains("TurnupExecute"), "FSM stages are listed");
    // Images and deploy: the media is in svc, kube01's profile is associated with a pool blade.
    let svc = dir.path().join("svc");
    assert_eq!(
        std::fs::metadata(svc.join("kube01.img")).unwrap().len(),
        1 << 20
    );
    assert!(svc.join("centos7.4-boot.iso").is_file());
    assert!(svc.join("centos7.4/.discinfo").is_file());
    let sp = sim.get("org-root/ls-kube01").unwrap();
    assert_eq!(
        (sp.get("srcTemplName"), sp.get("assocState"), sp.get("pnDn")),
        ("SVC_c74", "associated", "sys/chassis-1/blade-2")
    );
    assert!(
        stdout.contains(r#""association":"associated""#),
        "the deploy answers each host's association"
    );
    s.stop();
}

#[test]
fn a_regenerated_token_takes_effect_on_a_running_server() {
    let dir = tempfile::tempdir().unwrap();
    let old = token(dir.path());
    let s = start(dir.path(), &["serve"]);
    let out = command(dir.path())
        .args(["token", "--regenerate"])
        .output()
        .unwrap();
    let new = String::from_utf8(out.stdout).unwrap().trim().to_owned();
    assert_ne!(new, old);
    let url = format!("{}/api/v2/hosts", s.base);
    assert_eq!(call("GET", &url, Some(&old), None).0, 401);
    assert_eq!(call("GET", &url, Some(&new), None).0, 200);
    s.stop();
}

/// A GET without a token: status, content type and body as text.
fn fetch(url: &str) -> (u16, String, String) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        let resp = client.get(url).send().await.unwrap();
        let status = resp.status().as_u16();
        let kind = resp
            .headers()
            .get("content-type")
            .or_else(|| resp.headers().get("location"))
            .map(|v| v.to_str().unwrap().to_owned())
            .unwrap_or_default();
        (status, kind, resp.text().await.unwrap())
    })
}

#[test]
fn the_web_interface_is_served_under_ui_for_browsers() {
    let dir = tempfile::tempdir().unwrap();
    let s = start(dir.path(), &["serve"]);
    let ui = format!("{}/ui/", s.base);
    if cfg!(feature = "gui") {
        assert_eq!(fetch(&format!("{}/ui", s.base)).0, 308, "/ui goes to /ui/");
        let (status, kind, page) = fetch(&ui);
        assert_eq!((status, kind.as_str()), (200, "text/html; charset=utf-8"));
        // The page's script, as the browser would load it: relative to /ui/.
        let script = page
            .split("src=\"./")
            .nth(1)
            .and_then(|s| s.split('"').next())
            .unwrap_or_else(|| panic!("no module script in {page}"));
        let (status, kind, js) = fetch(&format!("{ui}{script}"));
        assert_eq!(
            (status, kind.as_str()),
            (200, "text/javascript; charset=utf-8")
        );
        assert!(
            js.contains("/api/v2/overview"),
            "the page reads the REST API"
        );
        let (status, _, body) = fetch(&format!("{ui}assets/nothing.js"));
        assert_eq!(status, 404);
        assert!(body.contains("no_such_route"), "{body}");
    } else {
        let (status, _, body) = fetch(&ui);
        assert_eq!(status, 404);
        assert!(body.contains("ui_not_built"), "{body}");
    }
    s.stop();
}

/// The packaged service's case: root (the administrator) runs `bootsmith token` against a data
/// directory the service's user owns. Every file it makes there must stay that user's, or the
/// service could no longer open its own database (the WAL) or append to its log. Only as root.
#[cfg(unix)]
#[test]
fn root_against_another_users_data_dir_works_as_that_user() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        bootsmith_sim::fixture::missing(
            &bootsmith_sim::fixture::test_name(),
            "root (the test runs `bootsmith token` as the administrator)",
            "Run the tests as root, as CI does",
        );
        return;
    }
    let (uid, gid) = (65534, 65534); // nobody, nogroup
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    std::os::unix::fs::chown(&data, Some(uid), Some(gid)).unwrap();

    let out = Command::new(BIN)
        .env("BOOTSMITH_KEYRING", "off")
        .arg("--data-dir")
        .arg(&data)
        .arg("token")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("bst_"));

    let mut files = vec![data.clone()];
    let mut i = 0;
    while i < files.len() {
        if files[i].is_dir() {
            files.extend(
                std::fs::read_dir(&files[i])
                    .unwrap()
                    .map(|e| e.unwrap().path()),
            );
        }
        i += 1;
    }
    assert!(files.len() > 3, "the database, key and log: {files:?}");
    for f in &files {
        let meta = std::fs::metadata(f).unwrap();
        assert_eq!(
            (meta.uid(), meta.gid()),
            (uid, gid),
            "{} is not the data dir owner's",
            f.display()
        );
    }
}
