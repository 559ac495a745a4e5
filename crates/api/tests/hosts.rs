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
    let row = bootsmith_core::records::hosts::HostInput {
        name: Some("node02".into()),
        ip: Some("10.1.0.12".into()),
        os: Some("centos7.4".into()),
        role: Some("generic".into()),
        network_group: Some("lab".into()),
        ..Default::default()
    };
    bootsmith_core::records::hosts::replace(&other, vec![row])
        .await
        .unwrap();
    other.close().await;
    let (_, got) = s.get("/api/v2/hosts").await;
    assert_eq!(got["hosts"].as_array().unwrap().len(), 1);
    assert_eq!(got["hosts"][0]["name"], "node02");
}

/// The network group `lab` on 192.0.2.0/24, its gateway 192.0.2.1.
fn lab_network() -> Value {
    let mut lab = network("lab");
    lab["subnet"] = json!("192.0.2.0/24");
    lab["gateway"] = json!("192.0.2.1");
    lab
}

/// A network group with a subnet: its gateway and its hosts' addresses must lie in it; one
/// without keeps the seed's shape.
#[tokio::test]
async fn a_subnet_keeps_the_gateway_and_the_hosts_addresses_in_it() {
    let s = setup().await;
    let lab = lab_network();
    let r = s.post("/api/v2/networks", lab.clone()).await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    assert_eq!(r.1["subnet"], "192.0.2.0/24");
    let (_, mgmt) = s.get("/api/v2/networks/mgmt").await;
    assert!(mgmt.get("subnet").is_none(), "{mgmt}");

    // A gateway outside, a netmask of another size, host bits set: each named on its field.
    let mut bad = lab.clone();
    bad["name"] = json!("bad");
    bad["gateway"] = json!("10.1.0.1");
    bad["netmask"] = json!("255.255.0.0");
    let r = s.post("/api/v2/networks", bad.clone()).await;
    assert_error(&r, 400, "invalid_network");
    let fields: Vec<&str> = field_of_each(&r.1["details"], "field");
    assert_eq!(fields, ["gateway", "subnet"], "{}", r.1);
    bad["subnet"] = json!("192.0.2.7/24");
    let r = s.post("/api/v2/networks", bad).await;
    assert!(
        r.1["error"].as_str().unwrap().contains("192.0.2.0/24"),
        "{}",
        r.1
    );

    // The window once accepted 10.9.9.9 on 192.0.2.0/24.
    let r = s
        .post(
            "/api/v2/hosts",
            json!([
                host("in01", "192.0.2.10", "centos7.4", "lab"),
                host("out01", "10.9.9.9", "centos7.4", "lab"),
                host("gw01", "192.0.2.1", "centos7.4", "lab"),
                host("free01", "10.9.9.10", "centos7.4", "mgmt"),
            ]),
        )
        .await;
    assert_error(&r, 422, "ip_outside_subnet");
    let msg = r.1["error"].as_str().unwrap();
    assert!(
        msg.contains("host out01: 10.9.9.9 is not in network lab's subnet 192.0.2.0/24"),
        "{msg}"
    );
    assert!(
        msg.contains("host gw01: 192.0.2.1 is the gateway of network lab"),
        "{msg}"
    );
    assert!(msg.contains("Networks screen"), "{msg}");
    assert_eq!(problems(&r.1), [(1, "ip".to_owned()), (2, "ip".to_owned())]);
    assert_eq!(field_of_each(&r.1["details"], "name"), ["out01", "gw01"]);
    assert_eq!(s.get("/api/v2/hosts").await.1["hosts"], json!([]));

    // Addresses are unique across every group, with or without a subnet.
    let r = s
        .post(
            "/api/v2/hosts",
            json!([
                host("in01", "192.0.2.10", "centos7.4", "lab"),
                host("twin01", "192.0.2.10", "centos7.4", "mgmt"),
            ]),
        )
        .await;
    assert_error(&r, 400, "invalid_hosts");
    assert_eq!(problems(&r.1), [(1, "ip".to_owned())]);

    let r = s
        .post(
            "/api/v2/hosts",
            json!([
                host("in01", "192.0.2.10", "centos7.4", "lab"),
                host("free01", "10.9.9.10", "centos7.4", "mgmt"),
            ]),
        )
        .await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);

    // A new subnet that leaves a host out is refused, naming it; the group stays as it was.
    let (_, stored) = s.get("/api/v2/networks/lab").await;
    let mut moved = stored.clone();
    moved["subnet"] = json!("198.51.100.0/24");
    moved["gateway"] = json!("198.51.100.1");
    let r = s.put("/api/v2/networks", moved).await;
    assert_error(&r, 422, "hosts_outside_subnet");
    assert!(
        r.1["error"]
            .as_str()
            .unwrap()
            .contains("host in01 has the address 192.0.2.10"),
        "{}",
        r.1
    );
    assert_eq!(s.get("/api/v2/networks/lab").await.1, stored);
    // Dropping the subnet is always fine.
    let mut open = stored.clone();
    open["subnet"] = json!(null);
    let r = s.put("/api/v2/networks", open).await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    assert!(r.1.get("subnet").is_none(), "{}", r.1);
}

/// `GET /api/v2/hosts/<name>/answer`: the answer files as an image run renders them, with no
/// secret in them and nothing written.
#[tokio::test]
async fn the_answer_preview_masks_every_secret_and_writes_nothing() {
    let s = setup().await;
    let mut net = network("prox");
    net["proxy"] = json!("http://ops:s3cret@proxy.lab:3128");
    assert_eq!(s.post("/api/v2/networks", net).await.0, StatusCode::CREATED);
    let r = s
        .post(
            "/api/v2/hosts",
            json!([
                host("node01", "10.1.0.11", "centos7.4", "prox"),
                host("ubu01", "10.1.0.12", "ubuntu22.04", "mgmt"),
                host("esx01", "10.1.0.13", "esxi6.7", "mgmt"),
                host("win01", "10.1.0.14", "win2019", "mgmt"),
            ]),
        )
        .await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    s.post("/api/v1/keys", json!({ "keys": [KEY_A] })).await;

    let r = s.get("/api/v2/hosts/node01/answer").await;
    assert_error(&r, 409, "svc_ip_not_set");
    assert!(
        r.1["error"].as_str().unwrap().contains("Settings screen"),
        "{}",
        r.1
    );
    set_svc_ip(&s, "10.1.0.5").await;

    let r = s.get("/api/v2/hosts/NODE01/answer").await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    let p = &r.1;
    assert_eq!(
        (
            &p["host"],
            &p["os"],
            &p["kind"],
            &p["file_name"],
            &p["template"]
        ),
        (
            &json!("node01"),
            &json!("centos7.4"),
            &json!("kickstart"),
            &json!("ks.cfg"),
            &json!("default")
        )
    );
    let ks = p["text"].as_str().unwrap();
    assert!(ks.contains("10.1.0.11"), "{ks}");
    assert!(ks.contains(KEY_A), "{ks}");
    assert!(ks.contains("rootpw --iscrypted ********"), "{ks}");
    // Both callbacks carry the token, masked: %onerror's, and the installed one (its JSON
    // built in the shell, quotes escaped, with the disk %pre chose).
    assert!(ks.contains(r#"{"token": "********", "reason""#), "{ks}");
    assert!(ks.contains(r#"{\"token\": \"********\", \"disk\""#), "{ks}");
    assert!(ks.contains("http://10.1.0.5:"), "{ks}");
    assert!(ks.contains("ops:********@proxy.lab:3128"), "{ks}");
    assert!(!ks.contains("$6$") && !ks.contains("s3cret"), "{ks}");

    let r = s.get("/api/v2/hosts/ubu01/answer").await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    assert_eq!(r.1["kind"], "autoinstall");
    assert_eq!(
        field_of_each(&r.1["files"], "file_name"),
        ["user-data", "meta-data"]
    );
    assert!(!r.1["text"].as_str().unwrap().contains("$6$"), "{}", r.1);

    let r = s.get("/api/v2/hosts/esx01/answer").await;
    assert_eq!(
        (r.1["kind"].as_str(), r.1["file_name"].as_str()),
        (Some("esxi-kickstart"), Some("KS.CFG")),
        "{}",
        r.1
    );

    let r = s.get("/api/v2/hosts/win01/answer").await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    assert_eq!(r.1["kind"], "autounattend");
    let xml = r.1["text"].as_str().unwrap();
    assert!(xml.contains("<Value>********</Value>"), "{xml}");

    assert_error(
        &s.get("/api/v2/hosts/ghost/answer").await,
        404,
        "host_not_found",
    );
    // Nothing was written: no image, no install token spent or made.
    let written: Vec<String> = std::fs::read_dir(s.svc())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(written.iter().all(|f| !f.ends_with(".img")), "{written:?}");
}

/// One save names every problem of every row: a duplicate address no longer hides an address
/// outside its subnet, a mixed OS or a template that cannot be found until the next save.
#[tokio::test]
async fn one_refusal_names_every_problem_of_every_row() {
    let s = setup().await;
    let r = s.post("/api/v2/networks", lab_network()).await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    let in_pod1 = |name: &str, ip: &str, os: &str| {
        let mut h = host(name, ip, os, "lab");
        h["server_group"] = json!("pod1");
        h
    };
    // pod1's manager cannot be reached, so its templates cannot be read for a short name.
    let mut short = in_pod1("node07", "192.0.2.17", "centos7.4");
    short["service_profile_template"] = json!("ESX-Template");
    let list = json!([
        host("in01", "192.0.2.10", "centos7.4", "lab"),
        host("twin01", "192.0.2.10", "centos7.4", "lab"),
        host("out01", "10.9.9.9", "centos7.4", "lab"),
        host("bad name", "192.0.2.13", "centos7.4", "lab"),
        in_pod1("node04", "192.0.2.14", "centos7.4"),
        in_pod1("node05", "192.0.2.15", "centos7.4"),
        in_pod1("node06", "192.0.2.16", "centos7.5"),
        short,
        host("gw01", "192.0.2.1", "centos7.4", "lab"),
    ]);
    let r = s.post("/api/v2/hosts", list).await;
    assert_error(&r, 400, "invalid_hosts");
    assert_eq!(
        problems(&r.1),
        [
            (1, "ip".to_owned()),
            (2, "ip".to_owned()),
            (3, "name".to_owned()),
            (6, "os".to_owned()),
            (7, "service_profile_template".to_owned()),
            (8, "ip".to_owned()),
        ],
        "{}",
        r.1
    );
    let msg = r.1["error"].as_str().unwrap();
    for part in [
        "the address 192.0.2.10 is also used by row 1",
        "10.9.9.9 is not in network lab's subnet 192.0.2.0/24",
        "server group pod1 installs centos7.4 on its other hosts, not centos7.5",
        "ESX-Template",
        "192.0.2.1 is the gateway of network lab",
    ] {
        assert!(msg.contains(part), "{part} in {msg}");
    }
    assert_eq!(s.get("/api/v2/hosts").await.1["hosts"], json!([]));

    // Alone, the mixed OS keeps its 422 and names the row to change.
    let r = s
        .post(
            "/api/v2/hosts",
            json!([
                in_pod1("node04", "192.0.2.14", "centos7.4"),
                in_pod1("node05", "192.0.2.15", "centos7.4"),
                in_pod1("node06", "192.0.2.16", "centos7.5"),
            ]),
        )
        .await;
    assert_error(&r, 422, "mixed_os_in_server_group");
    assert_eq!(problems(&r.1), [(2, "os".to_owned())], "{}", r.1);
}

/// The `(index, field)` of each problem of a refused list.
fn problem_fields(body: &Value) -> Vec<(u64, &str)> {
    body["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["index"].as_u64().unwrap(), d["field"].as_str().unwrap()))
        .collect()
}

#[tokio::test]
async fn a_host_names_its_install_disk_and_reads_it_back_until_cleared() {
    let s = setup().await;
    let mut a = host("node01", "10.1.0.11", "centos7.4", "mgmt");
    a["install_disk"] =
        json!({"serial": " 21033A4E ", "size_gb": {"min": 400, "max": 500}, "rotational": false});
    let mut b = host("node02", "10.1.0.12", "centos7.4", "mgmt");
    b["install_disk"] = Value::Null;
    let r = s.post("/api/v2/hosts", json!([a, b])).await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    let (_, got) = s.get("/api/v2/hosts").await;
    assert_eq!(
        got["hosts"][0]["install_disk"],
        json!({"serial": "21033A4E", "size_gb": {"min": 400, "max": 500}, "rotational": false}),
        "trimmed, as stored"
    );
    assert!(
        got["hosts"][1].get("install_disk").is_none(),
        "left out when unset: {}",
        got["hosts"][1]
    );
    // What GET answers goes back unchanged, and an exact size stays a number.
    let mut records = records_of(&got["hosts"]);
    records[1]["install_disk"] =
        json!({"size_gb": 447, "name": "/dev/disk/by-path/pci-0000:3b:00.0-sas-phy0-lun-0"});
    assert_eq!(
        s.put("/api/v2/hosts", records.clone()).await.0,
        StatusCode::CREATED
    );
    let (_, again) = s.get("/api/v2/hosts").await;
    assert_eq!(records_of(&again["hosts"]), records);

    // Null, or leaving it out, clears it (the list is replaced whole).
    records[0]["install_disk"] = Value::Null;
    records[1].as_object_mut().unwrap().remove("install_disk");
    assert_eq!(s.put("/api/v2/hosts", records).await.0, StatusCode::CREATED);
    let (_, cleared) = s.get("/api/v2/hosts").await;
    for h in cleared["hosts"].as_array().unwrap() {
        assert!(h.get("install_disk").is_none(), "{h}");
    }
}

#[tokio::test]
async fn a_bad_install_disk_is_refused_naming_each_key() {
    let s = setup().await;
    let before = s.get("/api/v2/hosts").await.1;
    let mut a = host("node01", "10.1.0.11", "centos7.4", "mgmt");
    a["install_disk"] =
        json!({"size_gb": {"min": 500, "max": 400}, "wwn": "0x12", "colour": "red"});
    let mut b = host("node02", "10.1.0.12", "centos7.4", "mgmt");
    b["install_disk"] = json!({});
    let mut c = host("node03", "10.1.0.13", "centos7.4", "mgmt");
    c["install_disk"] = json!("/dev/sda");
    let mut d = host("node04", "10.1.0.14", "centos7.4", "mgmt");
    d["install_disk"] = json!({"serial": "", "size_gb": 0, "rotational": "no"});
    let r = s.post("/api/v2/hosts", json!([a, b, c, d])).await;
    assert_error(&r, 400, "invalid_hosts");
    assert_eq!(
        problem_fields(&r.1),
        [
            (0, "install_disk.colour"),
            (0, "install_disk.wwn"),
            (0, "install_disk.size_gb"),
            (1, "install_disk"),
            (2, "install_disk"),
            (3, "install_disk.serial"),
            (3, "install_disk.size_gb"),
            (3, "install_disk.rotational"),
        ],
        "{:#}",
        r.1
    );
    let sentence = r.1["error"].as_str().unwrap();
    assert!(
        sentence.contains("install_disk.size_gb: min (500 GiB) is more than max (400 GiB)"),
        "{sentence}"
    );
    assert_eq!(s.get("/api/v2/hosts").await.1, before, "nothing stored");
}

#[tokio::test]
async fn a_hosts_own_install_disk_wins_over_its_server_groups() {
    let s = Server::start().await;
    s.post("/api/v2/networks", network("mgmt")).await;
    let mut pod = group("pod1", "pw");
    pod["install_disk"] = json!({"model": "Micron_5300_MTFDDAK480TDS"});
    assert_eq!(s.post("/api/v2/servers", pod).await.0, StatusCode::CREATED);
    s.post("/api/v2/servers", group("pod2", "pw")).await;
    let mut own = host("node01", "10.1.0.11", "centos7.4", "mgmt");
    own["server_group"] = json!("pod1");
    own["install_disk"] = json!({"serial": "21033A4E"});
    let mut inherits = host("node02", "10.1.0.12", "centos7.4", "mgmt");
    inherits["server_group"] = json!("pod1");
    let mut neither = host("node03", "10.1.0.13", "centos7.4", "mgmt");
    neither["server_group"] = json!("pod2");
    let r = s
        .post("/api/v2/hosts", json!([own, inherits, neither]))
        .await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);

    use bootsmith_core::records::{hosts, install_disk::effective_hint, server_groups};
    let pod1 = server_groups::get(&s.app, "pod1").await.unwrap();
    let pod2 = server_groups::get(&s.app, "pod2").await.unwrap();
    let hint = |h: &hosts::Host, g: Option<&server_groups::ServerGroup>| {
        effective_hint(h, g).map(|h| h.to_string())
    };
    let node01 = hosts::get(&s.app, "node01").await.unwrap();
    let node02 = hosts::get(&s.app, "node02").await.unwrap();
    let node03 = hosts::get(&s.app, "node03").await.unwrap();
    assert_eq!(
        hint(&node01, Some(&pod1)).as_deref(),
        Some("serial 21033A4E")
    );
    assert_eq!(hint(&node01, None).as_deref(), Some("serial 21033A4E"));
    assert_eq!(
        hint(&node02, Some(&pod1)).as_deref(),
        Some("model Micron_5300_MTFDDAK480TDS")
    );
    assert_eq!(hint(&node02, None), None);
    assert_eq!(hint(&node03, Some(&pod2)), None);
    // Only the host's own group gives it a default.
    assert_eq!(hint(&node03, Some(&pod1)), None);
}
