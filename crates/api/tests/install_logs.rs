//! The installers' own logs over real HTTP: the kickstart's upload lines, run as Anaconda runs
//! them (curl, from a shell), send Anaconda's logs with the host's install token; the API lists
//! them per attempt and reads them back. Also: the cap held while streaming (413, nothing
//! kept), names that could leave the folder, wrong, missing and spent tokens, reads without
//! the API token, unknown hosts, attempts and files, and a rebuild opening attempt 2.

mod common;

use bootsmith_sim::{Sim, SimConfig};
use common::*;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

const HOST: &str = "c240-01";

/// An IMC rack server with one CentOS host, its images built, svc served on 127.0.0.1.
async fn rack() -> (Server, Sim) {
    let s = Server::listening().await;
    let sim = Sim::start(SimConfig::imc()).await.unwrap();
    managed_group(&s, "rack1", "imc", &sim.address()).await;
    set_svc_ip(&s, "127.0.0.1").await;
    let host = json!([{"name": HOST, "ip": "192.0.2.20", "os": "centos7.4", "role": "generic",
        "network_group": "mgmt", "server_group": "rack1"}]);
    assert!(s.post("/api/v2/hosts", host).await.0.is_success());
    bootable_centos_iso(&s);
    let map = json!({"iso_map": [{"file": "/svc/c7.iso", "os": "centos7.4"}]});
    assert_eq!(s.post("/api/v1/isos/map", map).await.0, StatusCode::OK);
    images(&s).await;
    (s, sim)
}

async fn images(s: &Server) {
    let (st, r) = s.call(Method::POST, "/api/v2/deploy/images", None).await;
    assert_eq!(st, StatusCode::OK, "{r}");
}

/// The kickstart's upload loop (the lines from `for f in storage.log` to `done`) in `section`
/// (`%post --nochroot` or `%onerror`).
fn upload_loop(ks: &str, section: &str) -> String {
    let body = &ks[ks.find(&format!("\n{section}\n")).expect(section)..];
    let start = body.find("for f in storage.log").expect("the upload loop");
    let end = start + body[start..].find("\ndone").unwrap() + "\ndone".len();
    body[start..end].to_owned()
}

/// The install token in the kickstart: the 48 hex digits after `X-Install-Token: `.
fn token_in(ks: &str) -> String {
    let at = ks.find("X-Install-Token: ").unwrap() + "X-Install-Token: ".len();
    ks[at..at + 48].to_owned()
}

/// POST `body` as the log `file` of `host` with `token` (none: no header), no API token.
async fn upload(
    s: &Server,
    host: &str,
    file: &str,
    token: Option<&str>,
    body: Vec<u8>,
) -> (StatusCode, Value) {
    let mut call = s
        .request(
            Method::POST,
            &format!("/api/v2/hosts/{host}/logs?file={file}"),
        )
        .header("content-type", "application/octet-stream")
        .body(body);
    if let Some(t) = token {
        call = call.header("x-install-token", t);
    }
    read(call.send().await)
}

fn file_names(attempt: &Value) -> Vec<&str> {
    attempt["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect()
}

// Multi-threaded: the kickstart's curl blocks its thread while the server answers.
#[tokio::test(flavor = "multi_thread")]
async fn the_kickstart_sends_anacondas_logs_and_the_api_reads_them_back() {
    let (s, _imc) = rack().await;
    let ks = kickstart(&s, HOST);
    let token = token_in(&ks);

    // Nothing yet: an empty list, not an error.
    let (st, list) = s.get(&format!("/api/v2/hosts/{HOST}/logs")).await;
    assert_eq!(st, StatusCode::OK, "{list}");
    assert_eq!(list["attempts"], json!([]), "{list}");
    assert_eq!(list["latest"], Value::Null);

    // The success path's loop, as %post --nochroot runs it, on Anaconda's three logs.
    let logs = tempfile::tempdir().unwrap();
    let anaconda: String = (1..=50).map(|i| format!("anaconda line {i}\n")).collect();
    std::fs::write(logs.path().join("storage.log"), "storage: sda chosen\n").unwrap();
    std::fs::write(
        logs.path().join("program.log"),
        "Running... mkfs.xfs /dev/sda1\n",
    )
    .unwrap();
    std::fs::write(logs.path().join("anaconda.log"), &anaconda).unwrap();
    let line = format!(
        "BOOTSMITH_LOGS={} sh -c '{}'",
        logs.path().display(),
        upload_loop(&ks, "%post --nochroot").replace('\'', r"'\''")
    );
    run_in_shell(line).await;

    let (st, list) = s.get(&format!("/api/v2/hosts/{HOST}/logs")).await;
    assert_eq!(st, StatusCode::OK, "{list}");
    let attempts = list["attempts"].as_array().unwrap();
    assert_eq!(attempts.len(), 1, "{list}");
    assert_eq!(attempts[0]["attempt"], 1);
    assert_eq!(attempts[0]["current"], true);
    // In the order they arrived; the most telling last, and named as the one that tells why.
    assert_eq!(
        file_names(&attempts[0]),
        ["storage.log", "program.log", "anaconda.log"]
    );
    assert_eq!(attempts[0]["files"][2]["bytes"], anaconda.len());
    assert_eq!(
        list["latest"],
        json!({"attempt": 1, "file": "anaconda.log"})
    );
    assert_eq!(list["cap_bytes"], 8 * 1024 * 1024);

    // Read back whole, and its last lines.
    let path = format!("/api/v2/hosts/{HOST}/logs/1/anaconda.log");
    let (st, log) = s.get(&path).await;
    assert_eq!(st, StatusCode::OK, "{log}");
    assert_eq!(log["text"], anaconda);
    assert_eq!(log["bytes"], anaconda.len());
    let (_, tail) = s.get(&format!("{path}?tail=2")).await;
    assert_eq!(tail["text"], "anaconda line 49\nanaconda line 50\n");
    assert_error(
        &s.get(&format!("{path}?tail=0")).await,
        400,
        "invalid_log_query",
    );

    // Reading is REST like any other read: the API token is needed.
    let anonymous = read(s.request(Method::GET, &path).send().await);
    assert_error(&anonymous, 401, "unauthorized");

    // Unknown host, attempt and file: 404s that say which.
    assert_error(
        &s.get("/api/v2/hosts/nope/logs").await,
        404,
        "host_not_found",
    );
    for missing in ["2/anaconda.log", "x/anaconda.log", "1/setupact.log"] {
        let r = s.get(&format!("/api/v2/hosts/{HOST}/logs/{missing}")).await;
        assert_error(&r, 404, "install_log_not_found");
    }
    // A name that could leave the folder is refused before it is made a path, both ways.
    let r = s
        .get(&format!(
            "/api/v2/hosts/{HOST}/logs/1/..%2F..%2Fbootsmith.db"
        ))
        .await;
    assert_error(&r, 400, "invalid_log_file_name");
    for bad in ["..%2Fx.log", ".attempt", "a%20b.log", ""] {
        let r = upload(&s, HOST, bad, Some(&token), b"x".to_vec()).await;
        assert_error(&r, 400, "invalid_log_file_name");
    }

    // No token, a wrong token, another host: nothing kept.
    assert_error(
        &upload(&s, HOST, "x.log", None, b"x".to_vec()).await,
        401,
        "invalid_install_token",
    );
    let wrong = "0".repeat(48);
    assert_error(
        &upload(&s, HOST, "x.log", Some(&wrong), b"x".to_vec()).await,
        401,
        "invalid_install_token",
    );
    assert_error(
        &upload(&s, "nope", "x.log", Some(&token), b"x".to_vec()).await,
        401,
        "invalid_install_token",
    );

    // The cap: 8 MiB for the attempt together, held while the body streams in.
    let room = 8 * 1024 * 1024
        - attempts[0]["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["bytes"].as_u64().unwrap())
            .sum::<u64>();
    let r = upload(
        &s,
        HOST,
        "big.log",
        Some(&token),
        vec![b'x'; room as usize + 1],
    )
    .await;
    assert_error(&r, 413, "install_log_too_large");
    assert!(r.1["error"].as_str().unwrap().contains("8 MiB"), "{}", r.1);
    // Exactly the room left is kept; sending a file again replaces it (its old size is free).
    let r = upload(&s, HOST, "big.log", Some(&token), vec![b'x'; room as usize]).await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    assert_eq!(
        r.1,
        json!({"host": HOST, "attempt": 1, "file": "big.log", "bytes": room})
    );
    let r = upload(&s, HOST, "big.log", Some(&token), b"small now\n".to_vec()).await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    let (_, list) = s.get(&format!("/api/v2/hosts/{HOST}/logs")).await;
    assert_eq!(
        file_names(&list["attempts"][0]),
        ["storage.log", "program.log", "anaconda.log", "big.log"]
    );
    assert_eq!(list["attempts"][0]["files"][3]["bytes"], 10);
    // Under the data dir, never in svc (served without a token); no temp file left behind.
    let dir = s.data().join("logs").join(HOST).join("1");
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    on_disk.sort();
    assert_eq!(
        on_disk,
        [
            ".attempt",
            "anaconda.log",
            "big.log",
            "program.log",
            "storage.log"
        ]
    );
    assert!(!s.svc().join("logs").exists());

    // The installed callback spends the token: nothing more for this attempt.
    let r = reqwest::Client::new()
        .post(format!("{}/api/v2/hosts/{HOST}/installed", s.base()))
        .json(&json!({"token": token}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert_error(
        &upload(&s, HOST, "late.log", Some(&token), b"x".to_vec()).await,
        401,
        "invalid_install_token",
    );
    let (_, list) = s.get(&format!("/api/v2/hosts/{HOST}/logs")).await;
    assert_eq!(list["attempts"][0]["current"], false, "{list}");

    // New images, a new token: its installer fails, and %onerror's loop opens attempt 2.
    images(&s).await;
    let ks2 = kickstart(&s, HOST);
    assert_ne!(token_in(&ks2), token);
    std::fs::write(
        logs.path().join("anaconda.log"),
        "Traceback: no space left on sda\n",
    )
    .unwrap();
    let line = format!(
        "BOOTSMITH_LOGS={} sh -c '{}'",
        logs.path().display(),
        upload_loop(&ks2, "%onerror").replace('\'', r"'\''")
    );
    run_in_shell(line).await;
    let (_, list) = s.get(&format!("/api/v2/hosts/{HOST}/logs")).await;
    let numbers: Vec<u64> = list["attempts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["attempt"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, [2, 1], "newest first: {list}");
    assert_eq!(list["attempts"][0]["current"], true);
    assert_eq!(
        list["latest"],
        json!({"attempt": 2, "file": "anaconda.log"})
    );
    let (_, why) = s
        .get(&format!("/api/v2/hosts/{HOST}/logs/2/anaconda.log?tail=20"))
        .await;
    assert_eq!(why["text"], "Traceback: no space left on sda\n");
    // Attempt 1 is kept as it was.
    let (_, old) = s
        .get(&format!("/api/v2/hosts/{HOST}/logs/1/anaconda.log"))
        .await;
    assert_eq!(old["text"], anaconda);
    // Each upload is a line of the host's timeline.
    let (_, timeline) = s.get(&format!("/api/v2/hosts/{HOST}/timeline")).await;
    assert!(
        timeline
            .to_string()
            .contains("the installer sent its log anaconda.log"),
        "{timeline}"
    );
}

/// Subiquity's side: the user-data's `late-commands`, run as Subiquity runs them (a shell,
/// curl), send `/var/log/installer`'s logs with the host's token before it reports installed;
/// its `error-commands` send them the same way. Each file is read back through the API.
#[tokio::test(flavor = "multi_thread")]
async fn the_autoinstall_sends_subiquitys_logs_before_it_reports_installed() {
    let s = Server::listening().await;
    set_svc_ip(&s, "127.0.0.1").await;
    add_network(&s, "mgmt", "24", "192.0.2.1", "192.0.2.53", "192.0.2.123").await;
    let host = json!([{"name": "ubu01", "ip": "192.0.2.30", "os": "ubuntu24.04", "role": "generic", "network_group": "mgmt"}]);
    assert!(s.post("/api/v2/hosts", host).await.0.is_success());
    sample_iso_of(
        &s.svc().join("ubuntu-24.04.3-live-server-amd64.iso"),
        "ubuntu24.04.3",
    );
    let map = json!({"iso_map": [{"file": "/svc/ubuntu-24.04.3-live-server-amd64.iso", "os": "ubuntu24.04"}]});
    assert_eq!(s.post("/api/v1/isos/map", map).await.0, StatusCode::OK);
    images(&s).await;
    // The user-data as served to single-device media: the same render as the CIDATA disk's.
    let user_data = std::fs::read_to_string(s.svc().join("ubu01/user-data")).unwrap();
    // The text of one autoinstall key: from `  <key>:` to the next key at its level.
    let commands = |key: &str| -> String {
        let start = user_data
            .find(&format!("\n  {key}:"))
            .unwrap_or_else(|| panic!("{key} in\n{user_data}"));
        let rest = &user_data[start + 1..];
        let mut end = 0;
        for (i, line) in rest.split_inclusive('\n').enumerate() {
            if i > 0 && line.starts_with("  ") && !line.starts_with("   ") {
                break;
            }
            end += line.len();
        }
        rest[..end].to_owned()
    };
    let late = commands("late-commands");
    // The loop as the shell gets it (YAML's indentation is the shell's too).
    let upload_loop = |text: &str| {
        let start = text
            .find("for f in curtin-install.log")
            .expect("the upload loop");
        let end = start + text[start..].find(" done").unwrap() + " done".len();
        text[start..end].to_owned()
    };
    // Sent before the installed call, which spends the token.
    assert!(
        late.find("for f in").unwrap() < late.find("/api/v2/hosts/ubu01/installed").unwrap(),
        "{late}"
    );

    let logs = tempfile::tempdir().unwrap();
    std::fs::write(
        logs.path().join("curtin-install.log"),
        "curtin: partitioning sda\n",
    )
    .unwrap();
    std::fs::write(
        logs.path().join("subiquity-server-info.log"),
        "subiquity: info\n",
    )
    .unwrap();
    std::fs::write(
        logs.path().join("subiquity-server-debug.log"),
        "subiquity: the install finished\n",
    )
    .unwrap();
    let run = |text: String| {
        format!(
            "BOOTSMITH_LOGS={} sh -c '{}'",
            logs.path().display(),
            text.replace('\'', r"'\''")
        )
    };
    run_in_shell(run(upload_loop(&late))).await;
    let (st, list) = s.get("/api/v2/hosts/ubu01/logs").await;
    assert_eq!(st, StatusCode::OK, "{list}");
    assert_eq!(
        file_names(&list["attempts"][0]),
        [
            "curtin-install.log",
            "subiquity-server-info.log",
            "subiquity-server-debug.log"
        ],
        "{list}"
    );
    assert_eq!(
        list["latest"],
        json!({"attempt": 1, "file": "subiquity-server-debug.log"})
    );
    let (_, log) = s.get("/api/v2/hosts/ubu01/logs/1/curtin-install.log").await;
    assert_eq!(log["text"], "curtin: partitioning sda\n", "{log}");

    // error-commands send the same files (a file sent again replaces the earlier one).
    std::fs::write(
        logs.path().join("subiquity-server-debug.log"),
        "subiquity: curtin failed\n",
    )
    .unwrap();
    run_in_shell(run(upload_loop(&commands("error-commands")))).await;
    let (_, log) = s
        .get("/api/v2/hosts/ubu01/logs/1/subiquity-server-debug.log")
        .await;
    assert_eq!(log["text"], "subiquity: curtin failed\n", "{log}");
}
