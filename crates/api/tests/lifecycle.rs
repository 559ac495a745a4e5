//! A host's install lifecycle over real HTTP: media built, deployed to the IMC simulator,
//! fetched by its management controller, its installer fetching from the host's own address
//! (a loopback address of its own here), and the callback its kickstart makes, run as the
//! kickstart runs it. Also stale media refused and rebuilt, wrong and reused tokens, state
//! kept across a restart, and a stage timeout.

mod common;

use std::net::IpAddr;
use std::time::Duration;

use bootsmith_sim::{Sim, SimConfig};
use common::*;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

/// The installer's address: loopback, but not the controller's 127.0.0.1.
const HOST_IP: &str = "127.0.0.2";

/// A client whose requests come from `ip`, as the host's installer would.
fn client_from(ip: &str) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(ip.parse::<IpAddr>().unwrap())
        .build()
        .unwrap()
}

/// The one line of `ks` that reports `what` (`installed` or `failed`).
fn callback_line(ks: &str, what: &str) -> String {
    ks.lines()
        .find(|l| l.contains("curl ") && l.contains("token") && l.contains(&format!("/{what}")))
        .unwrap_or_else(|| panic!("no {what} callback in\n{ks}"))
        .to_owned()
}

/// The install token in a callback line: its 48 hex digits after `token` (the JSON may be
/// written in the shell, its quotes escaped).
fn token_in(line: &str) -> String {
    let after = &line[line.find("token").unwrap() + "token".len()..];
    let at = after.find(|c: char| c.is_ascii_hexdigit()).unwrap();
    after[at..at + 48].to_owned()
}

async fn callback(s: &Server, host: &str, what: &str, body: Value) -> (StatusCode, Value) {
    // No API token: the host's install token is the credential.
    let r = reqwest::Client::new()
        .post(format!("{}/api/v2/hosts/{host}/{what}", s.base()))
        .json(&body)
        .send()
        .await
        .unwrap();
    (r.status(), r.json().await.unwrap_or(Value::Null))
}

async fn images(s: &Server) {
    let (st, r) = s.call(Method::POST, "/api/v2/deploy/images", None).await;
    assert_eq!(st, StatusCode::OK, "{r}");
}

/// A server on a fresh simulator from `cfg` with group `group` of `kind`, and one CentOS host
/// `name` at [`HOST_IP`] in it (with the extra fields of `extra`); svc served on 127.0.0.1.
async fn one_host(
    cfg: SimConfig,
    group: &str,
    kind: &str,
    name: &str,
    extra: Value,
) -> (Server, Sim) {
    let s = Server::listening().await;
    let sim = Sim::start(cfg).await.unwrap();
    managed_group(&s, group, kind, &sim.address()).await;
    set_svc_ip(&s, "127.0.0.1").await;
    let mut host = json!({"name": name, "ip": HOST_IP, "os": "centos7.4", "role": "generic",
        "network_group": "mgmt", "server_group": group});
    host.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    assert!(s.post("/api/v2/hosts", json!([host])).await.0.is_success());
    bootable_centos_iso(&s);
    let map = json!({"iso_map": [{"file": "/svc/c7.iso", "os": "centos7.4"}]});
    assert_eq!(s.post("/api/v1/isos/map", map).await.0, StatusCode::OK);
    (s, sim)
}

/// Deploy `rack1` following the install, once its host is `deployed`: the job's id.
async fn deploy_until_installed(s: &Server) -> String {
    let (st, accepted) = s
        .call(
            Method::POST,
            "/api/v2/servers/rack1/deploy?until=installed&wait=false",
            None,
        )
        .await;
    assert_eq!(st, StatusCode::ACCEPTED, "{accepted}");
    until_state(s, "c240-01", "deployed").await;
    accepted["job"].as_str().unwrap().to_owned()
}

/// The job `id` once it ended (or as it stands after 20 s).
async fn job_end(s: &Server, id: &str) -> Value {
    let mut job = Value::Null;
    for _ in 0..200 {
        job = s.get(&format!("/api/v2/jobs/{id}")).await.1;
        if job["state"] != "running" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    job
}

/// An IMC rack server with one CentOS host at [`HOST_IP`], svc served on 127.0.0.1.
async fn rack() -> (Server, Sim) {
    one_host(SimConfig::imc(), "rack1", "imc", "c240-01", json!({})).await
}

// Multi-threaded: the kickstart's curl blocks its thread while the server answers.
#[tokio::test(flavor = "multi_thread")]
async fn a_host_is_followed_from_its_media_to_installed() {
    let (s, imc) = rack().await;
    let h = status_of(&s, "c240-01").await;
    assert_eq!(h["status"]["state"], Value::Null, "nothing built yet: {h}");
    assert_eq!(h["media"]["state"], "missing", "{h}");

    // Built: media ready, files listed with their times.
    images(&s).await;
    let h = status_of(&s, "c240-01").await;
    assert_eq!(h["status"]["state"], "media-ready", "{h}");
    assert_eq!(h["media"]["state"], "ready", "{h}");
    let files: Vec<&str> = h["media"]["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["file"].as_str().unwrap())
        .collect();
    assert_eq!(
        files,
        [
            "/svc/centos7.4-boot.iso",
            "/svc/c240-01.img",
            // Served for single-device media; not needed by a disk-and-CD install.
            "/svc/c240-01/ks.cfg"
        ]
    );
    let first_ks = kickstart(&s, "c240-01");

    // An input changes: stale, the changed input named; deploy refuses, the plan warns.
    let keys = json!({"keys": [KEY_A]});
    assert_eq!(s.post("/api/v1/keys", keys).await.0, StatusCode::OK);
    let h = status_of(&s, "c240-01").await;
    assert_eq!(h["media"]["state"], "stale", "{h}");
    assert_eq!(h["media"]["changed"], json!(["the SSH keys"]), "{h}");
    let refused = s
        .call(Method::POST, "/api/v2/servers/rack1/deploy", None)
        .await;
    assert_error(&refused, 409, "media_stale");
    assert!(
        refused.1["error"].as_str().unwrap().contains("c240-01"),
        "{}",
        refused.1
    );
    let (st, plan) = s
        .call(
            Method::POST,
            "/api/v2/servers/rack1/deploy?dry_run=true",
            None,
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{plan}");
    assert!(
        plan["warnings"].to_string().contains("the SSH keys"),
        "{plan}"
    );

    // Rebuilt: ready again, with a new token; the old one is worth nothing now.
    images(&s).await;
    assert_eq!(status_of(&s, "c240-01").await["media"]["state"], "ready");
    let ks = kickstart(&s, "c240-01");
    let old_token = token_in(&callback_line(&first_ks, "installed"));
    let installed_line = callback_line(&ks, "installed");
    assert!(
        installed_line.contains(&format!("{}/api/v2/hosts/c240-01/installed", s.base())),
        "{installed_line}"
    );
    assert_ne!(token_in(&installed_line), old_token);

    // Deploy, following the install: the job ends when the host is installed.
    let job = deploy_until_installed(&s).await;

    // The controller mounts the media: a HEAD and a first range of the host's image.
    let cimc = reqwest::Client::new();
    let url = format!("{}/svc/c240-01.img", s.base());
    assert!(cimc.head(&url).send().await.unwrap().status().is_success());
    let part = cimc
        .get(&url)
        .header("Range", "bytes=0-4095")
        .send()
        .await
        .unwrap();
    assert_eq!(part.status(), StatusCode::PARTIAL_CONTENT);
    until_state(&s, "c240-01", "media-mounted").await;

    // The installer fetches the install tree from the host's own address: progress counts it.
    let installer = client_from(HOST_IP);
    let rpm = installer
        .get(format!("{}/svc/centos7.4/Packages/a.rpm", s.base()))
        .send()
        .await
        .unwrap();
    assert_eq!(rpm.bytes().await.unwrap().len(), 300_000);
    let h = until_state(&s, "c240-01", "installing").await;
    assert_eq!(h["status"]["progress"]["bytes"], 300_000, "{h}");
    assert_eq!(h["status"]["progress"]["files"], 1, "{h}");

    // The job saw the IMC mount both images (before the install could end and unmount them).
    let mut mounted = false;
    for _ in 0..100 {
        let j = s.get(&format!("/api/v2/jobs/{job}")).await.1;
        mounted = j["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["step"] == "media" && e["state"] == "done");
        if mounted {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(mounted, "the deploy job reports the mounts");

    // Wrong and old tokens change nothing.
    for bad in [
        json!({"token": old_token}),
        json!({"token": "0".repeat(48)}),
        json!({}),
    ] {
        let r = callback(&s, "c240-01", "installed", bad).await;
        assert_error(&r, 401, "invalid_install_token");
    }
    assert_eq!(
        status_of(&s, "c240-01").await["status"]["state"],
        "installing"
    );

    // Once installed, the media go away, so a reboot cannot install again.
    let (st, set) = s
        .put(
            "/api/v2/settings/install",
            json!({"unmount_after_install": true}),
        )
        .await;
    assert_eq!(
        (st, &set["unmount_after_install"]),
        (StatusCode::OK, &json!(true)),
        "{set}"
    );
    const CD: &str = "sys/svc-ext/vmedia-svc/vmmap-bootsmith-cd";
    assert!(imc.get(CD).is_some(), "mapped by the deploy");

    // The kickstart's own %post line, run by a shell as Anaconda runs it.
    run_in_shell(installed_line).await;
    let h = status_of(&s, "c240-01").await;
    assert_eq!(h["status"]["state"], "installed", "{h}");
    assert_eq!(h["status"]["progress"]["percent"], 100, "{h}");

    // Spent: a second call (a reboot running %post again, or someone replaying it) is refused.
    let r = callback(
        &s,
        "c240-01",
        "installed",
        json!({"token": token_in(&callback_line(&ks, "installed"))}),
    )
    .await;
    assert_error(&r, 401, "invalid_install_token");
    // Its media did their job: "used" by that install (a neutral state, not stale: nothing
    // changed), with when. Installing from them again could never report installed (the
    // token is spent), so a new deploy asks for new images, in those words.
    let h = status_of(&s, "c240-01").await;
    assert_eq!(h["media"]["state"], "used", "{h}");
    assert_eq!(h["media"]["used_at"], h["status"]["since"], "{h}");
    assert!(h["media"].get("changed").is_none(), "nothing changed: {h}");
    let (_, overview) = s.get("/api/v2/overview").await;
    assert!(
        !overview["warnings"].to_string().contains("stale"),
        "used media are no alarm: {overview}"
    );
    let again = s
        .call(Method::POST, "/api/v2/servers/rack1/deploy", None)
        .await;
    assert_error(&again, 409, "media_stale");
    let words = again.1["error"].as_str().unwrap();
    assert!(
        words.contains("c240-01: its media were used by the install of")
            && words.contains("a new install needs new images"),
        "{words}"
    );

    // The installed system fetching from svc later changes neither its state nor its count.
    installer
        .get(format!("{}/svc/centos7.4/Packages/a.rpm", s.base()))
        .send()
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let h = status_of(&s, "c240-01").await;
    assert_eq!(h["status"]["state"], "installed", "{h}");
    assert_eq!(h["status"]["progress"]["bytes"], 300_000, "{h}");

    // The deploy job saw every stage and ended with the host installed.
    let done = job_end(&s, &job).await;
    assert_eq!(done["state"], "succeeded", "{done}");
    assert_eq!(
        done["result"]["installs"][0]["status"]["state"], "installed",
        "{done}"
    );
    assert_eq!(
        done["result"]["outcomes"],
        json!({"installed": 1}),
        "{done}"
    );
    assert!(done["result"].get("failed_hosts").is_none(), "{done}");
    let refused = s
        .call(Method::POST, "/api/v2/servers/rack1/deploy", None)
        .await;
    assert_error(&refused, 409, "media_stale");
    let steps: Vec<String> = done["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["step"] == "install")
        .map(|e| {
            e["message"]
                .as_str()
                .unwrap_or("")
                .split(':')
                .next()
                .unwrap()
                .to_owned()
        })
        .collect();
    for stage in ["deployed", "media-mounted", "installing", "installed"] {
        assert!(steps.iter().any(|s| s == stage), "{stage} not in {steps:?}");
    }

    for _ in 0..100 {
        if imc.get(CD).is_none() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        imc.get(CD).is_none(),
        "the CD is unmapped after the install"
    );
    assert!(imc
        .get("sys/svc-ext/vmedia-svc/vmmap-bootsmith-hdd")
        .is_none());

    // The timeline: each stage with its time, and who fetched what.
    let (st, t) = s.get("/api/v2/hosts/c240-01/timeline").await;
    assert_eq!(st, StatusCode::OK, "{t}");
    let stages: Vec<&str> = t["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["state"].as_str().unwrap())
        .collect();
    let last_run = &stages[stages.iter().rposition(|s| *s == "media-ready").unwrap()..];
    assert_eq!(
        last_run,
        [
            "media-ready",
            "deployed",
            "media-mounted",
            "installing",
            "installed",
            "installed"
        ]
    );
    let last = &t["events"].as_array().unwrap().last().unwrap()["detail"];
    assert!(
        last.as_str()
            .unwrap()
            .contains("virtual media were taken away"),
        "{last}"
    );
    let access = t["access"].as_array().unwrap();
    let by = |peer: &str, what: &str| {
        access
            .iter()
            .find(|a| a["peer"] == peer && a["what"] == what)
            .unwrap_or_else(|| panic!("no {peer} {what} in {t}"))
            .clone()
    };
    let img = by("127.0.0.1", "/svc/c240-01.img");
    assert!(img["requests"].as_u64().unwrap() >= 2, "{img}");
    // Both of the installer's fetches: the access record keeps the one after the install too.
    assert_eq!(by(HOST_IP, "/svc/centos7.4/")["bytes"], 600_000);

    // The state outlives a restart; the overview counts it.
    let dir = s.stop().await;
    let s = Server::start_in(dir, true).await;
    assert_eq!(
        status_of(&s, "c240-01").await["status"]["state"],
        "installed"
    );
    let (_, overview) = s.get("/api/v2/overview").await;
    assert_eq!(overview["installs"]["installed"], 1, "{overview}");
}

/// A deploy that follows installs, in which the host's installer reports a failure: the job
/// does not end green. It ends `finished_with_failures`, its result counts the outcomes and
/// names the host, and the failure is in the log at `warn`.
#[tokio::test(flavor = "multi_thread")]
async fn a_deploy_whose_install_fails_finishes_with_failures() {
    let (s, _imc) = rack().await;
    log_to(&s.data());
    images(&s).await;
    let ks = kickstart(&s, "c240-01");
    let job = deploy_until_installed(&s).await;
    let token = token_in(&callback_line(&ks, "failed"));
    let (st, _) = callback(
        &s,
        "c240-01",
        "failed",
        json!({"token": token, "reason": "no disk found"}),
    )
    .await;
    assert_eq!(st, StatusCode::OK);
    let done = job_end(&s, &job).await;
    assert_eq!(done["state"], "finished_with_failures", "{done}");
    assert_eq!(done["result"]["outcomes"], json!({"failed": 1}), "{done}");
    assert_eq!(done["result"]["failed_hosts"], json!(["c240-01"]), "{done}");
    let last = done["events"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(
        (&last["type"], &last["state"]),
        (&json!("finished"), &json!("finished_with_failures")),
        "{last}"
    );
    let (_, listed) = s.get("/api/v2/jobs").await;
    assert_eq!(
        listed["jobs"][0]["state"], "finished_with_failures",
        "{listed}"
    );
    // The Overview counts it as a warning.
    let (_, overview) = s.get("/api/v2/overview").await;
    assert!(
        overview["warnings"]
            .to_string()
            .contains("The install of c240-01 failed"),
        "{overview}"
    );
    assert_eq!(overview["installs"]["failed"], 1, "{overview}");
    // The Logs screen's "at least warn" shows the failed install and the deploy's end.
    let (_, warn) = s.get("/api/v2/logs?level=warn&q=c240-01").await;
    let lines = warn["lines"].to_string();
    assert!(
        lines.contains("install failed")
            && lines.contains("no disk found")
            && lines.contains("deploy finished with failures"),
        "{warn}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_failing_installer_and_a_stuck_stage_both_end_in_failed() {
    let (s, _imc) = rack().await;
    images(&s).await;
    let ks = kickstart(&s, "c240-01");
    let token = token_in(&callback_line(&ks, "failed"));

    // The %onerror hook's call, with its reason.
    let (st, status) = callback(
        &s,
        "c240-01",
        "failed",
        json!({"token": token, "reason": "no disk found"}),
    )
    .await;
    assert_eq!(st, StatusCode::OK, "{status}");
    assert_eq!(status["state"], "failed");
    assert!(
        status["detail"].as_str().unwrap().contains("no disk found"),
        "{status}"
    );

    // A new build starts over; a host that never boots after its media were fetched fails
    // when its stage runs out of time, also after a restart.
    images(&s).await;
    let (st, set) = s
        .put(
            "/api/v2/settings/install",
            json!({"media_mounted_minutes": 5}),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{set}");
    assert_eq!(set["media_mounted_minutes"], 5);
    let bad = s
        .put("/api/v2/settings/install", json!({"booting_minutes": -1}))
        .await;
    assert_error(&bad, 400, "invalid_setting");
    // JSON has one number type: 90.0 minutes are 90 minutes, 1.5 minutes are refused.
    let (st, set) = s
        .put(
            "/api/v2/settings/install",
            json!({"installing_minutes": 90.0}),
        )
        .await;
    assert_eq!(
        (st, &set["installing_minutes"]),
        (StatusCode::OK, &json!(90)),
        "{set}"
    );
    let half = s
        .put("/api/v2/settings/install", json!({"booting_minutes": 1.5}))
        .await;
    assert_error(&half, 400, "invalid_setting");
    reqwest::get(format!("{}/svc/c240-01.img", s.base()))
        .await
        .unwrap();
    until_state(&s, "c240-01", "media-mounted").await;
    let db = s.data().join("bootsmith.db");
    let dir = s.stop().await;
    {
        // Ten minutes pass while Bootsmith is down.
        let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}", db.display()))
            .await
            .unwrap();
        let then = (chrono::Utc::now() - chrono::Duration::minutes(10)).to_rfc3339();
        sqlx::query("UPDATE host_status SET since = $1")
            .bind(then)
            .execute(&pool)
            .await
            .unwrap();
        pool.close().await;
    }
    let s = Server::listening_in(dir, true).await;
    let h = until_state(&s, "c240-01", "failed").await;
    let detail = h["status"]["detail"].as_str().unwrap();
    assert!(
        detail.contains("timed out in stage media-mounted") && detail.contains("5 minutes"),
        "{detail}"
    );

    // Media taken out of svc by hand are missing at once, although no record changed.
    assert_eq!(
        h["media"]["state"], "stale",
        "a new port since the build: {h}"
    );
    std::fs::remove_file(s.svc().join("c240-01.img")).unwrap();
    let h = status_of(&s, "c240-01").await;
    assert_eq!(h["media"]["state"], "missing", "{h}");
    assert_eq!(h["media"]["missing"], json!(["/svc/c240-01.img"]), "{h}");
}

/// A UCS Manager blade whose profile takes its vMedia policy from the operator's updating
/// template (which names Bootsmith's policy): Bootsmith does not change the operator's setup,
/// so after the install it takes the host's own answer image out of svc instead: the mapping
/// then finds nothing, and a reboot cannot install again. (Profiles Bootsmith binds itself
/// are unbound instead: tests/ucs_unmount.rs.)
#[tokio::test(flavor = "multi_thread")]
async fn an_installed_blade_keeps_no_answer_image_to_install_from_again() {
    let (s, ucsm) = one_host(
        SimConfig::ucsm(),
        "pod1",
        "ucsm",
        "node01",
        json!({"server": "1/2", "service_profile_template": "org-root/ls-c7-template"}),
    )
    .await;
    ucsm.with_tree(|t| {
        t.get_mut("org-root/ls-c7-template")
            .unwrap()
            .set("vmediaPolicyName", "SVC_c74")
    });
    let (st, set) = s
        .put(
            "/api/v2/settings/install",
            json!({"unmount_after_install": true}),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{set}");
    images(&s).await;
    let installed_line = callback_line(&kickstart(&s, "node01"), "installed");

    // Deployed and associated: the blade's controller mounts both images from svc.
    deploy_associated(&s, "pod1").await;
    until_state(&s, "node01", "media-mounted").await;

    run_in_shell(installed_line).await;
    until_state(&s, "node01", "installed").await;

    // The answer image leaves svc (the shared boot ISO stays); the timeline says why.
    let img = s.svc().join("node01.img");
    for _ in 0..100 {
        if !img.exists() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(!img.exists(), "node01.img is removed after the install");
    assert!(s.svc().join("centos7.4-boot.iso").exists());
    let (_, t) = s.get("/api/v2/hosts/node01/timeline").await;
    let last = t["events"].as_array().unwrap().last().unwrap()["detail"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        last.contains("/svc/node01.img")
            && last.contains("cannot install again")
            && last.contains("takes vMedia policy SVC_c74 from your template c7-template"),
        "{last}"
    );
    assert_eq!(
        ucsm.get("org-root/ls-node01").unwrap().get("srcTemplName"),
        "c7-template",
        "the operator's binding stays"
    );
    // What the policy's HDD entry points at no longer answers: a controller mounting it again
    // (a reboot, a re-association) fails the mount.
    let head = reqwest::Client::new()
        .head(format!("{}/svc/node01.img", s.base()))
        .send()
        .await
        .unwrap();
    assert_eq!(head.status(), StatusCode::NOT_FOUND);

    // Still installed; the media show missing, and a new deploy is refused until they are built.
    let h = status_of(&s, "node01").await;
    assert_eq!(h["status"]["state"], "installed", "{h}");
    assert_eq!(h["media"]["state"], "missing", "{h}");
    let r = s
        .call(Method::POST, "/api/v2/servers/pod1/deploy", None)
        .await;
    assert_error(&r, 409, "media_missing");
    assert!(r.1["error"].as_str().unwrap().contains("node01"), "{}", r.1);

    // Building the images again brings the answer image back, with a new token.
    images(&s).await;
    assert!(img.exists());
    let h = status_of(&s, "node01").await;
    assert_eq!(h["status"]["state"], "media-ready", "{h}");
    assert_eq!(h["media"]["state"], "ready", "{h}");
}
