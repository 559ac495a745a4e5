//! Catalog packs over real HTTP: the example pack of docs/packs is accepted and its new OS
//! (Rocky Linux 10.1) goes through ISO mapping, a host and its images without a restart;
//! each rule a pack can break is refused with the reason and nothing of the pack applied;
//! pack files in `svc/catalog.d/` are read at start and on reload; removal.

mod common;

use common::{assert_error, sample_iso_of, Server};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

const EXAMPLE: &str = include_str!("../../../docs/packs/rocky10.1.json");

fn example() -> Value {
    serde_json::from_str(EXAMPLE).unwrap()
}

/// A pack `name` of one entry `id` (Rocky-like), with `template` for it when given.
fn pack(name: &str, id: &str, code: &str, template: Option<&str>) -> Value {
    let mut p = json!({"name": name, "version": "1", "entries": [{
        "id": id, "name": format!("Site OS {id}"), "family": "rhel", "version": "10.1",
        "code": code, "roles": ["generic", "k8s node"], "boot": "uefi",
        "marker": {"file": ".treeinfo", "contains": format!("name = Site {id}")}}]});
    if let Some(t) = template {
        p["templates"] = json!({ id: t });
    }
    p
}

fn catalog_entry<'a>(details: &'a Value, id: &str) -> &'a Value {
    details["os"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["id"] == id)
        .unwrap_or_else(|| panic!("{id} in {details}"))
}

/// Add host `name` of `os` and `role` on a new network group `mgmt`: it must be accepted.
async fn add_host(s: &Server, name: &str, os: &str, role: &str) {
    common::add_network(
        s,
        "mgmt",
        "255.255.255.0",
        "192.0.2.1",
        "192.0.2.53",
        "192.0.2.123",
    )
    .await;
    let host = json!([{"name": name, "ip": "192.0.2.21", "os": os, "role": role, "network_group": "mgmt"}]);
    let r = s.post("/api/v2/hosts", host).await;
    assert!(r.0.is_success(), "{}", r.1);
}

/// The catalog (v1), and the names in `svc/catalog.d/`: what a refused pack must leave alone.
async fn what_is_applied(s: &Server) -> (Value, Vec<String>) {
    let (_, v1) = s.get("/api/v1/catalog").await;
    let mut files: Vec<String> = std::fs::read_dir(s.svc().join("catalog.d"))
        .map(|d| {
            d.map(|e| e.unwrap().file_name().into_string().unwrap())
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    (v1, files)
}

/// `pack` is refused (400 `invalid_pack`) with a sentence holding each of `words`, and
/// nothing of it is applied.
async fn refused(s: &Server, pack: Value, words: &[&str]) {
    let before = what_is_applied(s).await;
    let r = s.post("/api/v2/catalog/packs", pack).await;
    assert_error(&r, 400, "invalid_pack");
    let text = r.1["error"].as_str().unwrap();
    for w in words {
        assert!(text.contains(w), "{w:?} in {text}");
    }
    assert_eq!(what_is_applied(s).await, before, "nothing applied: {text}");
}

/// The ksvalidator the tests check kickstarts with: `BOOTSMITH_KSVALIDATOR`, which `make
/// test` sets (scripts/pykickstart-venv.sh makes it).
fn ksvalidator_configured() -> String {
    std::env::var("BOOTSMITH_KSVALIDATOR").unwrap_or_else(|_| {
        panic!("set BOOTSMITH_KSVALIDATOR=$(scripts/pykickstart-venv.sh): the pack checks run pykickstart's ksvalidator")
    })
}

// Multi-threaded: the image job runs while the test waits on it.
#[tokio::test(flavor = "multi_thread")]
async fn the_example_pack_adds_rocky10_1_usable_end_to_end_without_a_restart() {
    ksvalidator_configured();
    let s = Server::listening().await;
    let (_, before) = s.get("/api/v1/catalog").await;
    assert!(before.get("rocky10.1").is_none(), "{before}");

    let (st, added) = s.post("/api/v2/catalog/packs", example()).await;
    assert_eq!(st, StatusCode::CREATED, "{added}");
    assert_eq!(added["pack"]["name"], "site-os");
    assert_eq!(added["pack"]["entries"], json!(["rocky10.1"]));
    assert!(
        added["status"].as_str().unwrap().contains("rocky10.1"),
        "{added}"
    );
    assert!(
        added["kickstart_check"]
            .as_str()
            .unwrap()
            .contains("were checked by ksvalidator"),
        "{added}"
    );
    // Stored as it was sent.
    let stored = std::fs::read_to_string(s.svc().join("catalog.d/site-os.json")).unwrap();
    assert_eq!(serde_json::from_str::<Value>(&stored).unwrap(), example());

    // The seed's shape keeps its form; the details say where each entry came from.
    let (_, v1) = s.get("/api/v1/catalog").await;
    assert_eq!(
        v1["rocky10.1"],
        json!(["generic", "k8s master", "k8s node"])
    );
    let (_, v2) = s.get("/api/v2/catalog").await;
    let rocky = catalog_entry(&v2, "rocky10.1");
    assert_eq!(
        rocky["source"],
        json!({"kind": "pack", "name": "site-os", "version": "3"})
    );
    assert_eq!(rocky["eol"], "2035-05-31");
    assert_eq!(
        catalog_entry(&v2, "rocky10")["source"],
        json!({"kind": "built_in"})
    );
    assert!(v2["families"].as_array().unwrap().contains(&json!("rhel")));
    let (_, packs) = s.get("/api/v2/catalog/packs").await;
    assert_eq!(packs["packs"][0]["applied"], true, "{packs}");

    // Its ISO, shaped like the real one, is recognised as it and mapped.
    let iso = s.dir.path().join("Rocky-10.1-x86_64-dvd.iso");
    sample_iso_of(&iso, "rocky10.1");
    let (st, up) = s
        .raw(
            Method::PUT,
            "/api/v2/isos/Rocky-10.1-x86_64-dvd.iso",
            Some("application/octet-stream"),
            std::fs::read(&iso).unwrap(),
        )
        .await;
    assert_eq!(st, StatusCode::CREATED, "{up}");
    assert_eq!(up["detected"], "rocky10.1", "{up}");
    assert_eq!(up["mapped"], "rocky10.1", "{up}");

    // A host of it, and its images, from the pack's kickstart.
    common::set_svc_ip(&s, "192.0.2.10").await;
    add_host(&s, "node01", "rocky10.1", "k8s node").await;
    let (st, job) = s.post("/api/v2/deploy/images", json!(["node01"])).await;
    assert_eq!(st, StatusCode::OK, "{job}");
    let job = common::latest_job(&s).await;
    let steps = common::host_steps(&job, "node01");
    assert!(
        steps
            .iter()
            .any(|(step, state, _)| step == "answer-image" && state == "done"),
        "{job}"
    );
    assert!(
        !steps.iter().any(|(_, state, _)| state == "failed"),
        "{job}"
    );
    let (st, preview) = s.get("/api/v2/hosts/node01/answer").await;
    assert_eq!(st, StatusCode::OK, "{preview}");
    assert!(
        preview["text"]
            .as_str()
            .unwrap()
            .contains("from the site-os catalog pack"),
        "{preview}"
    );
    assert_eq!(
        preview["template"],
        "pack site-os version 3, template of rocky10.1"
    );
    assert!(
        s.svc().join("rocky10.1/.treeinfo").is_file(),
        "the install tree is extracted"
    );

    // Its OS id is in use: the pack stays.
    let r = s
        .call(Method::DELETE, "/api/v2/catalog/packs/site-os", None)
        .await;
    assert_error(&r, 409, "pack_in_use");
    assert!(
        r.1["error"].as_str().unwrap().contains("host node01"),
        "{}",
        r.1
    );
}

#[tokio::test]
async fn an_unknown_family_is_refused_with_the_known_ones() {
    let s = Server::start().await;
    let mut p = pack("odd", "plan9.4", "p94", None);
    p["entries"][0]["family"] = "plan9".into();
    refused(
        &s,
        p,
        &[
            "catalog pack odd",
            "plan9.4",
            "unknown family \"plan9\"",
            "rhel, rhvh, esxi, ubuntu, windows",
        ],
    )
    .await;
}

#[tokio::test]
async fn an_id_clash_without_override_is_refused_and_with_it_replaces_the_entry() {
    let s = Server::start().await;
    let (_, v2) = s.get("/api/v2/catalog").await;
    let mut entry = catalog_entry(&v2, "rocky10").clone();
    entry["name"] = "Rocky Linux 10 (site mirror)".into();
    let mut p = json!({"name": "site-rocky", "version": "2024.1", "entries": [entry]});
    refused(
        &s,
        p.clone(),
        &[
            "catalog pack site-rocky version 2024.1",
            "entry rocky10 clashes",
            "built in",
            "\"override\": true",
        ],
    )
    .await;

    p["entries"][0]["override"] = true.into();
    let (st, r) = s.post("/api/v2/catalog/packs", p).await;
    assert_eq!(st, StatusCode::CREATED, "{r}");
    let (_, v2) = s.get("/api/v2/catalog").await;
    let rocky = catalog_entry(&v2, "rocky10");
    assert_eq!(rocky["name"], "Rocky Linux 10 (site mirror)");
    assert_eq!(rocky["source"]["name"], "site-rocky");

    // Removing it brings the built-in entry back.
    let (st, r) = s
        .call(Method::DELETE, "/api/v2/catalog/packs/site-rocky", None)
        .await;
    assert_eq!(st, StatusCode::OK, "{r}");
    let (_, v2) = s.get("/api/v2/catalog").await;
    assert_eq!(catalog_entry(&v2, "rocky10")["source"]["kind"], "built_in");
    assert!(!s.svc().join("catalog.d/site-rocky.json").exists());
    let r = s
        .call(Method::DELETE, "/api/v2/catalog/packs/site-rocky", None)
        .await;
    assert_error(&r, 404, "pack_not_found");
}

#[tokio::test]
async fn a_template_that_does_not_render_for_a_sample_host_is_refused() {
    let s = Server::start().await;
    let p = pack(
        "broken",
        "site10",
        "s10",
        Some("text\nurl --url={{ svc_url }}/{{ os.id }}/\nnetwork --hostname={{ host.fqdn }}\n"),
    );
    refused(
        &s,
        p,
        &[
            "catalog pack broken version 1",
            "the template of site10 does not render for a sample host of role \"generic\"",
            "fqdn",
        ],
    )
    .await;
}

#[tokio::test]
async fn a_kickstart_ksvalidator_refuses_is_refused() {
    ksvalidator_configured();
    let s = Server::start().await;
    // RHEL 10's syntax removed `autostep` and `timezone --isUtc`: pykickstart says so.
    let p = pack(
        "old-ks",
        "site10",
        "s10",
        Some("text\nurl --url={{ svc_url }}/{{ os.id }}/\nautostep\ntimezone Etc/UTC --isUtc\nrootpw --iscrypted {{ root_password_hash }}\n"),
    );
    refused(
        &s,
        p,
        &[
            "catalog pack old-ks version 1",
            "ksvalidator -v RHEL10 refuses the kickstart of site10",
            "autostep",
        ],
    )
    .await;
    // The same pack with a kickstart the parser takes is applied.
    let good = pack(
        "old-ks",
        "site10",
        "s10",
        Some("text\nurl --url={{ svc_url }}/{{ os.id }}/\ntimezone Etc/UTC --utc\nrootpw --iscrypted {{ root_password_hash }}\n"),
    );
    let (st, r) = s.post("/api/v2/catalog/packs", good).await;
    assert_eq!(st, StatusCode::CREATED, "{r}");
}

#[tokio::test]
async fn pack_files_are_read_at_start_and_on_reload() {
    let dir = tempfile::tempdir().unwrap();
    let packs = dir.path().join("svc/catalog.d");
    std::fs::create_dir_all(&packs).unwrap();
    std::fs::write(packs.join("site-os.json"), EXAMPLE).unwrap();
    // A file that breaks a rule is listed with why, and does not stop the start.
    let mut bad = pack("clash", "rocky10", "zz1", None);
    bad["version"] = "7".into();
    std::fs::write(packs.join("clash.json"), bad.to_string()).unwrap();
    let s = Server::start_in(dir, false).await;
    let (_, v1) = s.get("/api/v1/catalog").await;
    assert!(v1.get("rocky10.1").is_some(), "{v1}");
    let (_, listed) = s.get("/api/v2/catalog/packs").await;
    let clash = &listed["packs"][0];
    assert_eq!(
        (&clash["name"], &clash["applied"]),
        (&json!("clash"), &json!(false)),
        "{listed}"
    );
    assert!(
        clash["refused"]
            .as_str()
            .unwrap()
            .contains("entry rocky10 clashes"),
        "{listed}"
    );
    assert_eq!(listed["packs"][1]["applied"], true, "{listed}");

    // A new file, a template beside it, and a reload: usable at once for a host.
    let packs = s.svc().join("catalog.d");
    std::fs::write(
        packs.join("lab.json"),
        pack("lab", "lab1", "lab1", None).to_string(),
    )
    .unwrap();
    std::fs::create_dir_all(packs.join("lab")).unwrap();
    std::fs::write(
        packs.join("lab/lab1.tmpl"),
        "# lab kickstart for {{ host.name }}\ntext\nurl --url={{ svc_url }}/{{ os.id }}/\n",
    )
    .unwrap();
    let (st, reloaded) = s.call(Method::POST, "/api/v2/catalog/reload", None).await;
    assert_eq!(st, StatusCode::OK, "{reloaded}");
    let lab = reloaded["packs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "lab")
        .unwrap();
    assert_eq!(lab["applied"], true, "{reloaded}");
    assert_eq!(lab["templates"], json!(["lab1"]), "{reloaded}");
    add_host(&s, "lab01", "lab1", "generic").await;
    common::set_svc_ip(&s, "192.0.2.10").await;
    let (st, preview) = s.get("/api/v2/hosts/lab01/answer").await;
    assert_eq!(st, StatusCode::OK, "{preview}");
    assert!(
        preview["text"]
            .as_str()
            .unwrap()
            .starts_with("# lab kickstart for lab01"),
        "{preview}"
    );
}

#[tokio::test]
async fn a_pack_with_a_bad_name_is_refused_and_no_file_is_written() {
    let s = Server::start().await;
    refused(
        &s,
        pack("../../etc/passwd", "x1", "x1", None),
        &["its name must be"],
    )
    .await;
    let r = s
        .post("/api/v2/catalog/packs", json!({"name": "no-entries"}))
        .await;
    assert_error(&r, 400, "invalid_pack");
}
