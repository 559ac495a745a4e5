//! Nothing lost: concurrent writers, restarts, and secrets that stay secret.

mod common;

use common::*;
use reqwest::StatusCode;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn twenty_concurrent_writers_lose_nothing() {
    let s = Server::start().await;
    let creates = (0..20).map(|i| s.post("/api/v2/networks", network(&format!("net{i:02}"))));
    let results = futures::future::join_all(creates).await;
    assert!(
        results.iter().all(|r| r.0 == StatusCode::CREATED),
        "{results:?}"
    );
    let (_, list) = s.get("/api/v2/networks").await;
    assert_eq!(list["networks"].as_array().unwrap().len(), 20);

    // Concurrent full replacements of the host list: the store always holds exactly one of them.
    let lists: Vec<_> = (0..20)
        .map(|i| {
            json!([
                host(
                    &format!("h{i:02}a"),
                    &format!("10.2.{i}.1"),
                    "centos7.4",
                    "net00"
                ),
                host(
                    &format!("h{i:02}b"),
                    &format!("10.2.{i}.2"),
                    "centos7.4",
                    "net01"
                )
            ])
        })
        .collect();
    let results =
        futures::future::join_all(lists.iter().map(|l| s.post("/api/v2/hosts", l.clone()))).await;
    assert!(results.iter().all(|r| r.0 == StatusCode::CREATED));
    let (_, hosts) = s.get("/api/v2/hosts").await;
    assert!(
        lists.contains(&records_of(&hosts["hosts"])),
        "the stored list is a mix: {hosts}"
    );

    // Concurrent group creates with a duplicate name: exactly one wins.
    let same = (0..20).map(|_| s.post("/api/v2/servers", group("pod1", "pw")));
    let results = futures::future::join_all(same).await;
    assert_eq!(
        results
            .iter()
            .filter(|r| r.0 == StatusCode::CREATED)
            .count(),
        1
    );
    assert_eq!(
        results
            .iter()
            .filter(|r| r.0 == StatusCode::CONFLICT)
            .count(),
        19
    );
}

/// Every kind of record the API keeps, as it answers them.
async fn records(s: &Server) -> Vec<(StatusCode, serde_json::Value)> {
    futures::future::join_all(
        [
            "/api/v1/ip",
            "/api/v1/keys",
            "/api/v2/networks",
            "/api/v2/servers",
            "/api/v2/hosts",
            "/api/v1/isos/map",
        ]
        .map(|p| s.get(p)),
    )
    .await
}

#[tokio::test]
async fn records_survive_a_restart() {
    let s = Server::start().await;
    s.post("/api/v1/ip", json!({"svc_ip": "192.0.2.10"})).await;
    s.post("/api/v1/keys", json!({"keys": [KEY_A]})).await;
    s.post("/api/v2/networks", network("mgmt")).await;
    s.post("/api/v2/servers", group("pod1", "Restart-Pass"))
        .await;
    let mut h = host("node01", "10.1.0.11", "centos7.4", "mgmt");
    h["server_group"] = json!("pod1");
    s.post("/api/v2/hosts", json!([h])).await;
    std::fs::write(s.svc().join("c.iso"), b"iso").unwrap();
    s.post(
        "/api/v1/isos/map",
        json!({"iso_map": [{"file": "/svc/c.iso", "os": "centos7.4"}]}),
    )
    .await;
    let before = records(&s).await;

    let dir = s.stop().await;
    let s = Server::start_in(dir, true).await;
    let after = records(&s).await;
    assert_eq!(before, after);
    assert_eq!(stored_password(&s, "pod1").await, "Restart-Pass");
}

#[tokio::test]
async fn a_database_with_a_lost_key_refuses_to_start() {
    let s = Server::start().await;
    s.post("/api/v2/servers", group("pod1", "pw")).await;
    let data = s.data();
    let dir = s.stop().await;
    std::fs::remove_file(data.join("secret.key")).unwrap();
    let err = bootsmith_core::startup::open(bootsmith_core::testing::config(dir.path()))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("does not match"), "{err}");
}

#[tokio::test]
async fn passwords_never_appear_in_clear_in_answers_or_files() {
    let s = Server::start().await;
    let secret = "Pw-Never-In-Clear-7731";
    let mut bodies = Vec::new();
    bodies.push(s.post("/api/v2/servers", group("pod1", secret)).await.1);
    let id = bodies[0]["id"].clone();
    let mut upd = group("pod1", secret);
    upd["id"] = id;
    bodies.push(s.put("/api/v2/servers", upd).await.1);
    bodies.push(s.post("/api/v2/aci", json!({"name": "fab", "credentials": {"ip": "10.0.0.9", "user": "u", "password": secret},
        "tenant_name": "t", "vrf_name": "v", "bridge_domain": "b"})).await.1);
    // A bad request that carries the password must not echo it.
    bodies.push(
        s.post(
            "/api/v2/servers",
            json!({"name": "bad name", "type": "ucsm",
        "credentials": {"ip": "127.0.0.1:9", "user": "u", "password": secret}}),
        )
        .await
        .1,
    );
    for p in ["/api/v2/servers", "/api/v2/aci", "/api/v2/overview"] {
        bodies.push(s.get(p).await.1);
    }
    for b in &bodies {
        assert!(
            !b.to_string().contains(secret),
            "password in an answer: {b}"
        );
    }
    let data = s.data();
    let svc = s.svc();
    let _kept = s.stop().await;
    for dir in [data, svc] {
        for entry in walk(&dir) {
            let bytes = std::fs::read(&entry).unwrap();
            assert!(
                !bytes.windows(secret.len()).any(|w| w == secret.as_bytes()),
                "password in clear in {}",
                entry.display()
            );
        }
    }
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}
