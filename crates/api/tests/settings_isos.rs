//! Boot-server address, SSH keys, catalog, ISO listing and the ISO map.

mod common;

use common::*;
use reqwest::StatusCode;
use serde_json::{json, Value};

#[tokio::test]
async fn boot_server_address_is_strict() {
    let s = Server::start().await;
    assert_eq!(
        s.get("/api/v1/ip").await.1,
        json!({"svc_ip": null, "kubam_ip": null})
    );
    for bad in ["10", "1.2.3", "256.0.0.1", "", "host.example", "010.0.0.1"] {
        let r = s.post("/api/v1/ip", json!({"svc_ip": bad})).await;
        assert_error(&r, 400, "invalid_svc_ip");
    }
    assert_error(
        &s.post("/api/v1/ip", json!({})).await,
        400,
        "invalid_svc_ip",
    );
    assert_error(
        &s.post("/api/v1/ip", json!({"svc_ip": 10})).await,
        400,
        "invalid_body",
    );
    let r = s.post("/api/v1/ip", json!({"svc_ip": "192.0.2.10"})).await;
    assert_eq!(r.0, StatusCode::OK);
    assert_eq!(
        (&r.1["svc_ip"], &r.1["kubam_ip"]),
        (&json!("192.0.2.10"), &json!("192.0.2.10")),
        "{}",
        r.1
    );
    let r = s
        .post("/api/v1/ip", json!({"svc_ip": "2001:db8::10"}))
        .await;
    assert_eq!(r.0, StatusCode::OK);
    assert_eq!(
        s.get("/api/v1/ip").await.1,
        json!({"svc_ip": "2001:db8::10", "kubam_ip": "2001:db8::10"})
    );
    // KUBAM's v2.0 web UI reads the answer's first key: it must be kubam_ip, as KUBAM sent it.
    let raw = s
        .request(reqwest::Method::GET, "/api/v1/ip")
        .token()
        .send()
        .await;
    assert!(
        raw.body.starts_with(br#"{"kubam_ip":"2001:db8::10""#),
        "{:?}",
        raw.body
    );
}

#[tokio::test]
async fn ssh_keys_are_parsed_and_replaced() {
    let s = Server::start().await;
    assert_eq!(s.get("/api/v1/keys").await.1, json!({"keys": []}));
    let r = s
        .post("/api/v1/keys", json!({"keys": [KEY_A, KEY_B, KEY_A]}))
        .await;
    assert_eq!(
        r,
        (StatusCode::OK, json!({"keys": [KEY_A, KEY_B]})),
        "duplicates are dropped, order kept"
    );
    let r = s
        .post(
            "/api/v1/keys",
            json!({"keys": [KEY_B, "ssh-rsa AAAAB3Nza broken", ""]}),
        )
        .await;
    assert_error(&r, 400, "invalid_keys");
    let rows: Vec<u64> = r.1["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["index"].as_u64().unwrap())
        .collect();
    assert_eq!(rows, vec![1, 2], "each bad key is named by its position");
    assert_eq!(
        s.get("/api/v1/keys").await.1,
        json!({"keys": [KEY_A, KEY_B]}),
        "a refused list changes nothing"
    );
    assert_error(
        &s.post("/api/v1/keys", json!({"key": [KEY_A]})).await,
        400,
        "invalid_keys",
    );
    assert_eq!(
        s.post("/api/v1/keys", json!({"keys": []})).await.1,
        json!({"keys": []})
    );
}

#[tokio::test]
async fn catalog_lists_os_ids_with_roles() {
    let s = Server::start().await;
    let (status, cat) = s.get("/api/v1/catalog").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        cat["centos7.4"],
        json!(["generic", "k8s master", "k8s node"])
    );
    assert_eq!(cat["esxi6.7"], json!(["generic"]));
    for id in [
        "redhat7.6",
        "rhvh4.3",
        "ubuntu18.04",
        "win2016",
        "rocky9",
        "alma8",
        "esxi8.0",
        "ubuntu24.04",
        "win2022",
        "rhel9.4",
    ] {
        assert!(cat.get(id).is_some(), "{id} missing");
    }
    let (_, details) = s.get("/api/v2/catalog").await;
    let esxi = details["os"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["id"] == "esxi6.5")
        .unwrap();
    assert_eq!(esxi["family"], "esxi");
    assert!(format!("SVC_{}", esxi["code"].as_str().unwrap()).len() <= 16);
}

fn touch(path: &std::path::Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, b"not really an ISO").unwrap();
}

#[tokio::test]
async fn iso_listing_shows_user_isos_only() {
    let s = Server::start().await;
    let svc = s.svc();
    for f in [
        "CentOS-7-x86_64-Minimal-1708.iso",
        "ESXI.ISO",
        "centos7.4-boot.iso",
        "notes.txt",
        "sub/inner.iso",
    ] {
        touch(&svc.join(f));
    }
    let outside = s.dir.path().join("outside.iso");
    touch(&outside);
    std::os::unix::fs::symlink(&outside, svc.join("escape.iso")).unwrap();
    std::os::unix::fs::symlink(svc.join("ESXI.ISO"), svc.join("link.iso")).unwrap();
    let (status, body) = s.get("/api/v1/isos").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        body,
        json!({"isos": ["CentOS-7-x86_64-Minimal-1708.iso", "ESXI.ISO", "link.iso"]})
    );
}

#[tokio::test]
async fn iso_map_replaces_all_and_refuses_paths_outside_svc() {
    let s = Server::start().await;
    let svc = s.svc();
    touch(&svc.join("c74.iso"));
    touch(&svc.join("isos/esxi.iso"));
    touch(&svc.join("readme.txt"));
    let outside = s.dir.path().join("secret.iso");
    touch(&outside);
    std::os::unix::fs::symlink(&outside, svc.join("escape.iso")).unwrap();
    std::fs::create_dir_all(svc.join("dir.iso")).unwrap();

    assert_eq!(s.get("/api/v1/isos/map").await.1, json!({"iso_map": []}));
    let good = json!({"iso_map": [{"file": "/svc/c74.iso", "os": "centos7.4"}, {"file": "/svc/isos/esxi.iso", "os": "esxi6.7"}]});
    let r = s.post("/api/v1/isos/map", good).await;
    let expected = json!({"iso_map": [{"file": "/svc/c74.iso", "os": "centos7.4"}, {"file": "/svc/isos/esxi.iso", "os": "esxi6.7"}]});
    assert_eq!(
        (r.0, &r.1["iso_map"]),
        (StatusCode::OK, &expected["iso_map"])
    );
    // The files are not ISOs at all: mapped as asked, with a warning that says so (and no server paths).
    let warnings = r.1["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 2);
    assert!(
        warnings[0]
            .as_str()
            .unwrap()
            .contains("/svc/c74.iso was not recognised as centos7.4"),
        "{warnings:?}"
    );
    assert!(
        !r.1.to_string().contains(s.svc().to_str().unwrap()),
        "server-side paths stay private"
    );

    let bad_files = [
        "/svc/../data/bootsmith.db",
        "/svc/isos/../c74.iso",
        "/etc/passwd",
        "svc/c74.iso",
        "/svc/",
        "/svc//c74.iso",
        "/svc/./c74.iso",
        "/svc/escape.iso",
        "/svc/missing.iso",
        "/svc/readme.txt",
        "/svc/dir.iso",
        "/svc/c74.iso\u{0}",
    ];
    for f in bad_files {
        let r = s
            .post(
                "/api/v1/isos/map",
                json!({"iso_map": [{"file": f, "os": "centos7.4"}]}),
            )
            .await;
        assert_error(&r, 400, "invalid_iso_map");
        assert_eq!(r.1["details"][0]["field"], "file", "{f}: {}", r.1);
    }
    for body in [
        json!({"iso_map": [{"file": "/svc/c74.iso", "os": "centos9.9"}]}),
        json!({"iso_map": [{"file": "/svc/c74.iso"}]}),
        json!({"iso_map": [{"file": "/svc/c74.iso", "os": "centos7.4"}, {"file": "/svc/isos/esxi.iso", "os": "centos7.4"}]}),
        json!({"iso_map": [{"file": "/svc/c74.iso", "os": "centos7.4"}, {"file": "/svc/c74.iso", "os": "esxi6.7"}]}),
        json!({"isos": []}),
    ] {
        assert_error(
            &s.post("/api/v1/isos/map", body).await,
            400,
            "invalid_iso_map",
        );
    }
    assert_eq!(
        s.get("/api/v1/isos/map").await.1,
        expected,
        "refused maps change nothing"
    );
    assert_eq!(
        s.post("/api/v1/isos/map", json!({"iso_map": []})).await.1,
        json!({"iso_map": []})
    );
}

#[tokio::test]
async fn mapping_looks_into_the_iso() {
    let s = Server::start().await;
    centos_iso(&s.svc(), "CentOS-7-x86_64-Minimal-1708.iso");
    let right =
        json!({"iso_map": [{"file": "/svc/CentOS-7-x86_64-Minimal-1708.iso", "os": "centos7.4"}]});
    let r = s.post("/api/v1/isos/map", right).await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    assert!(
        r.1.get("warnings").is_none(),
        "a recognised ISO maps cleanly: {}",
        r.1
    );

    let wrong =
        json!({"iso_map": [{"file": "/svc/CentOS-7-x86_64-Minimal-1708.iso", "os": "esxi6.7"}]});
    let r = s.post("/api/v1/isos/map", wrong).await;
    assert_error(&r, 400, "iso_os_mismatch");
    let msg = r.1["details"][0]["message"].as_str().unwrap();
    assert!(
        msg.contains("centos7.4")
            && msg.contains("expected .discinfo containing \"Version: 6.7.0\", found \"7.4\""),
        "{msg}"
    );
    assert_eq!(
        s.get("/api/v1/isos/map").await.1["iso_map"][0]["os"],
        "centos7.4",
        "a refused map changes nothing"
    );

    std::fs::write(s.svc().join("notes.iso"), b"not an iso").unwrap();
    let (_, d) = s.get("/api/v2/isos").await;
    let isos = d["isos"].as_array().unwrap();
    let c = isos
        .iter()
        .find(|i| i["file"] == "/svc/CentOS-7-x86_64-Minimal-1708.iso")
        .unwrap();
    assert_eq!(c["volume_id"], "CentOS 7 x86_64");
    assert!(c["detected"]
        .as_array()
        .unwrap()
        .contains(&json!("centos7.4")));
    assert_eq!(c["mapped_to"], "centos7.4");
    let n = isos.iter().find(|i| i["file"] == "/svc/notes.iso").unwrap();
    assert!(
        n["problem"]
            .as_str()
            .unwrap()
            .starts_with("not a usable ISO image"),
        "{n}"
    );
}

#[tokio::test]
async fn the_overview_says_when_servers_cannot_reach_svc() {
    let warnings = |s: &Value| s["warnings"].to_string();
    // Listening on loopback only, with an address this machine does not have.
    let s = Server::listening().await;
    set_svc_ip(&s, "192.0.2.10").await;
    let (_, o) = s.get("/api/v2/overview").await;
    assert!(
        warnings(&o).contains("192.0.2.10 is not an address of this machine"),
        "{o}"
    );
    assert!(
        warnings(&o).contains(
            "listens on 127.0.0.1 only, so servers cannot fetch install media from 192.0.2.10"
        ),
        "{o}"
    );
    // Loopback for both: nothing in the way (a lab on one machine).
    set_svc_ip(&s, "127.0.0.1").await;
    let (_, o) = s.get("/api/v2/overview").await;
    assert!(!warnings(&o).contains("install media"), "{o}");
    // No listener at all (the window without its REST listener).
    let offline = Server::start().await;
    set_svc_ip(&offline, "127.0.0.1").await;
    let (_, o) = offline.get("/api/v2/overview").await;
    assert!(warnings(&o).contains("No HTTP listener serves svc"), "{o}");
}

#[tokio::test]
async fn saving_an_address_servers_cannot_reach_says_so() {
    // Listening everywhere: nothing about the listener is in the way, only the address.
    let s = Server::listening_everywhere().await;
    let r = s.post("/api/v1/ip", json!({"svc_ip": "127.0.0.1"})).await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    assert_eq!(r.1["svc_ip"], "127.0.0.1");
    assert_eq!(
        r.1["warnings"],
        json!(["127.0.0.1 is this machine's loopback address: only programs on this machine (such as the simulator) can fetch from it, servers cannot; give this machine's address on the servers' management network"]),
        "{}",
        r.1
    );
    assert_eq!(s.get("/api/v1/ip").await.1["svc_ip"], "127.0.0.1", "saved");
    let r = s.post("/api/v1/ip", json!({"svc_ip": "192.0.2.10"})).await;
    assert!(
        r.1["warnings"][0]
            .as_str()
            .unwrap()
            .contains("192.0.2.10 is not an address of this machine"),
        "{}",
        r.1
    );
    // An address of this machine's own interfaces: nothing to say, no field.
    // (Which address that is depends on the machine; one with no route has none to try.)
    let mine = std::net::UdpSocket::bind("0.0.0.0:0")
        .and_then(|u| u.connect("192.0.2.1:9").map(|()| u))
        .and_then(|u| u.local_addr())
        .map(|a| a.ip());
    if let Some(mine) = mine
        .ok()
        .filter(|m| !m.is_loopback() && !m.is_unspecified())
    {
        let r = s
            .post("/api/v1/ip", json!({ "svc_ip": mine.to_string() }))
            .await;
        assert!(r.1.get("warnings").is_none(), "{}", r.1);
    }
}

#[tokio::test]
async fn svc_is_addressed_by_the_boot_server_address_not_the_wildcard() {
    let s = Server::listening_everywhere().await;
    assert_eq!(s.get("/api/v2/overview").await.1["svc_url"], Value::Null);
    set_svc_ip(&s, "127.0.0.1").await;
    let (_, o) = s.get("/api/v2/overview").await;
    let port = port_of(&s);
    assert_eq!(o["svc_url"], format!("http://127.0.0.1:{port}/svc/"), "{o}");
    set_svc_ip(&s, "2001:db8::10").await;
    let (_, o) = s.get("/api/v2/overview").await;
    assert_eq!(
        o["svc_url"],
        format!("http://[2001:db8::10]:{port}/svc/"),
        "{o}"
    );
}
