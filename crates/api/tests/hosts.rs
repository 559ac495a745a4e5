//! The host list: replaced whole in one transaction, checked row by row.

mod common;

use common::*;
use reqwest::StatusCode;
use serde_json::{json, Value};

async fn setup() -> Server {
    let s = Server::start().await;
    s.post("/api/v2/networks", network("mgmt")).await;
    s.post("/api/v2/servers", group("pod1", "pw")).await;
    s.post("/api/v2/servers", group("pod2", "pw")).await;
    s
}

fn problems(body: &Value) -> Vec<(u64, String)> {
    body["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["index"].as_u64().unwrap(),
                d["field"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[tokio::test]
async fn a_valid_list_is_stored_in_order() {
    let s = setup().await;
    let mut a = host("node01", "10.1.0.11", "centos7.4", "mgmt");
    a["role"] = json!("k8s master");
    a["server_group"] = json!("pod1");
    a["service_profile_template"] = json!("org-root/ls-c74-tmpl");
    a["server"] = json!("1/3");
    let mut b = host("node02", "10.1.0.12", "centos7.4", "mgmt");
    b["server_group"] = json!("pod1");
    let c = host("esx01", "2001:db8::5", "esxi6.7", "mgmt");
    let r = s.post("/api/v2/hosts", json!([a, b, c])).await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    let (_, got) = s.get("/api/v2/hosts").await;
    let names: Vec<&str> = field_of_each(&got["hosts"], "name");
    assert_eq!(names, ["node01", "node02", "esx01"]);
    // Each host comes with where its install is and its media: nothing built yet.
    let first = got["hosts"][0].clone();
    let (status, media) = (&first["status"], &first["media"]);
    assert_eq!(status["state"], Value::Null, "{status}");
    assert_eq!(media["state"], "missing", "{media}");
    assert_eq!(records_of(&json!([first]))[0], a);
    assert!(got["hosts"][2].get("server_group").is_none());

    // PUT is the same full replacement.
    let r = s
        .put(
            "/api/v2/hosts",
            json!([host("solo", "10.1.0.99", "ubuntu22.04", "mgmt")]),
        )
        .await;
    assert_eq!(r.0, StatusCode::CREATED);
    assert_eq!(
        s.get("/api/v2/hosts").await.1["hosts"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[tokio::test]
async fn an_invalid_list_changes_nothing_and_names_every_bad_row() {
    let s = setup().await;
    let good = json!([host("node01", "10.1.0.11", "centos7.4", "mgmt")]);
    s.post("/api/v2/hosts", good.clone()).await;
    let before = s.get("/api/v2/hosts").await.1;

    let mut esx_master = host("esx01", "10.1.0.20", "esxi6.7", "mgmt");
    esx_master["role"] = json!("k8s master");
    let mut ghost_group = host("node05", "10.1.0.25", "centos7.4", "mgmt");
    ghost_group["server_group"] = json!("pod9");
    let mut loose_blade = host("node06", "10.1.0.26", "centos7.4", "mgmt");
    loose_blade["server"] = json!("1/1");
    let list = json!([
        host("node02", "10.1.0.12", "centos7.4", "mgmt"),
        host("Node02", "10.1.0.13", "centos7.4", "mgmt"),
        host("node03", "10.1.0.12", "centos7.4", "mgmt"),
        host("node.04", "10.1.0.14", "centos7.4", "nope"),
        esx_master,
        ghost_group,
        loose_blade,
        {"name": "node07"},
        host("node08", "10.1.0.28", "win2099", "mgmt"),
    ]);
    let r = s.post("/api/v2/hosts", list).await;
    assert_error(&r, 400, "invalid_hosts");
    let p = problems(&r.1);
    for expected in [
        (1, "name"),
        (2, "ip"),
        (3, "name"),
        (3, "network_group"),
        (4, "role"),
        (5, "server_group"),
        (6, "server"),
        (7, "ip"),
        (7, "os"),
        (7, "role"),
        (7, "network_group"),
        (8, "os"),
    ] {
        assert!(
            p.contains(&(expected.0, expected.1.to_owned())),
            "missing {expected:?} in {p:?}"
        );
    }
    assert_eq!(s.get("/api/v2/hosts").await.1, before);
}

#[tokio::test]
async fn one_os_per_server_group() {
    let s = setup().await;
    let mut a = host("node01", "10.1.0.11", "centos7.4", "mgmt");
    a["server_group"] = json!("pod1");
    let mut b = host("node02", "10.1.0.12", "centos7.5", "mgmt");
    b["server_group"] = json!("pod1");
    let mut c = host("node03", "10.1.0.13", "centos7.5", "mgmt");
    c["server_group"] = json!("pod2");
    let r = s.post("/api/v2/hosts", json!([a, b, c])).await;
    assert_error(&r, 422, "mixed_os_in_server_group");
    let msg = r.1["error"].as_str().unwrap();
    assert!(
        msg.contains("pod1")
            && msg.contains("centos7.4 (node01)")
            && msg.contains("centos7.5 (node02)"),
        "{msg}"
    );
    assert!(!msg.contains("pod2"));
    assert_eq!(s.get("/api/v2/hosts").await.1["hosts"], json!([]));
}

#[tokio::test]
async fn two_hosts_cannot_claim_one_blade() {
    let s = setup().await;
    let mut a = host("node01", "10.1.0.11", "centos7.4", "mgmt");
    a["server_group"] = json!("pod1");
    a["server"] = json!("1/3");
    let mut b = a.clone();
    b["name"] = json!("node02");
    b["ip"] = json!("10.1.0.12");
    let r = s.post("/api/v2/hosts", json!([a, b])).await;
    assert_error(&r, 400, "invalid_hosts");
    assert_eq!(problems(&r.1), vec![(1, "server".to_owned())]);
}

#[tokio::test]
async fn host_names_must_work_as_profile_and_file_names() {
    let s = setup().await;
    for bad in [
        "a",
        "../etc",
        "node 1",
        "node_1",
        "-node",
        "node-",
        "n.1",
        &"x".repeat(33),
        "ünï",
    ] {
        let r = s
            .post(
                "/api/v2/hosts",
                json!([host(bad, "10.1.0.11", "centos7.4", "mgmt")]),
            )
            .await;
        assert_error(&r, 400, "invalid_hosts");
        assert_eq!(problems(&r.1), vec![(0, "name".to_owned())], "{bad}");
    }
}

#[tokio::test]
async fn deleting_hosts() {
    let s = setup().await;
    let r = s.delete("/api/v2/hosts", json!({"name": "node01"})).await;
    assert_error(&r, 404, "no_hosts");
    s.post(
        "/api/v2/hosts",
        json!([
            host("node01", "10.1.0.11", "centos7.4", "mgmt"),
            host("node02", "10.1.0.12", "centos7.4", "mgmt")
        ]),
    )
    .await;
    assert_error(
        &s.delete("/api/v2/hosts", json!({"name": "node09"})).await,
        404,
        "host_not_found",
    );
    assert_error(
        &s.delete("/api/v2/hosts", json!({})).await,
        400,
        "invalid_host",
    );
    let r = s.delete("/api/v2/hosts", json!({"name": "node01"})).await;
    assert_eq!(r.0, StatusCode::OK);
    assert_eq!(r.1["status"], "host node01 deleted");
    let (_, left) = s.get("/api/v2/hosts").await;
    assert_eq!(left["hosts"].as_array().unwrap().len(), 1);
    assert_eq!(left["hosts"][0]["name"], "node02");
}

/// The list's answer is kept between calls: a network group's rename (which reaches the hosts
/// inside the database) and a change by another process on the same data dir still show at once.
#[tokio::test]
async fn the_list_follows_every_change_to_the_store() {
    let s = setup().await;
    let r = s
        .post(
            "/api/v2/hosts",
            json!([host("node01", "10.1.0.11", "centos7.4", "mgmt")]),
        )
        .await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    assert_eq!(
        s.get("/api/v2/hosts").await.1["hosts"][0]["network_group"],
        "mgmt"
    );
    let (_, nets) = s.get("/api/v2/networks").await;
    let mut renamed = nets["networks"][0].clone();
    renamed["name"] = json!("lab");
    assert_eq!(s.put("/api/v2/networks", renamed).await.0, StatusCode::OK);
    assert_eq!(
        s.get("/api/v2/hosts").await.1["hosts"][0]["network_group"],
        "lab"
    );

    // Another process: a second App over the same data dir.
    let other = bootsmith_core::testing::open(s.dir.path()).await;
    let row = bootsmith_core::hosts::HostInput {
        name: Some("node02".into()),
        ip: Some("10.1.0.12".into()),
        os: Some("centos7.4".into()),
        role: Some("generic".into()),
        network_group: Some("lab".into()),
        ..Default::default()
    };
    bootsmith_core::hosts::replace(&other, vec![row])
        .await
        .unwrap();
    other.close().await;
    let (_, got) = s.get("/api/v2/hosts").await;
    assert_eq!(got["hosts"].as_array().unwrap().len(), 1);
    assert_eq!(got["hosts"][0]["name"], "node02");
}
