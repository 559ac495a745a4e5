//! The deploy plan refuses an install-disk hint the host's installer cannot resolve (issue
//! 29), before anything is written and before any disk is read: WinPE sees no WWN
//! and no device names; ESXi names disks by device id only (`409 install_disk_unsupported`).
//! A hint it can resolve is planned as before, and the plan says the other disks stay
//! untouched, as the ESXi and Windows answer files now keep to the one disk.

mod common;

use bootsmith_sim::{Sim, SimConfig};
use common::*;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

/// Group pod1 on a UCS Manager simulator with `node01` bound to blade 1/2 and `node02` to
/// rack server 1, both installing `os`, each with its hint (`null` for none).
async fn pod1(os: &str, hints: [Value; 2]) -> (Server, Sim) {
    let s = Server::listening().await;
    let u = Sim::start(SimConfig::ucsm()).await.unwrap();
    managed_group(&s, "pod1", "ucsm", &u.address()).await;
    set_hosts(&s, os, hints).await;
    (s, u)
}

async fn set_hosts(s: &Server, os: &str, [one, two]: [Value; 2]) {
    let mut hosts = json!([
        {"name": "node01", "ip": "192.0.2.21", "os": os, "role": "generic",
         "network_group": "mgmt", "server_group": "pod1", "server": "1/2"},
        {"name": "node02", "ip": "192.0.2.22", "os": os, "role": "generic",
         "network_group": "mgmt", "server_group": "pod1", "server": "1"}
    ]);
    for (h, hint) in hosts.as_array_mut().unwrap().iter_mut().zip([one, two]) {
        if !hint.is_null() {
            h["install_disk"] = hint;
        }
    }
    let r = s.post("/api/v2/hosts", hosts).await;
    assert!(r.0.is_success(), "{}", r.1);
}

async fn deploy(s: &Server, query: &str) -> (StatusCode, Value) {
    s.call(
        Method::POST,
        &format!("/api/v2/servers/pod1/deploy{query}"),
        None,
    )
    .await
}

#[tokio::test]
async fn windows_refuses_a_wwn_or_a_device_name_naming_each_host() {
    let (s, u) = pod1(
        "win2022",
        [
            json!({"wwn": "0x5000c500a1b2c3d4"}),
            json!({"name": "/dev/sda"}),
        ],
    )
    .await;
    let before = confmos(&u);
    for query in ["?dry_run=true", ""] {
        let r = deploy(&s, query).await;
        assert_error(&r, 409, "install_disk_unsupported");
        let said = r.1["error"].as_str().unwrap();
        assert!(
            said.starts_with(
                "node01 (Windows): the hint's wwn (0x5000c500a1b2c3d4) cannot be resolved in WinPE"
            ),
            "{said}"
        );
        // Every host refused is named, each with its reason.
        assert!(
            said.contains(
                "node02 (Windows): the hint's name (/dev/sda) cannot be resolved in WinPE"
            ),
            "{said}"
        );
        assert!(
            r.1["hint"]
                .as_str()
                .unwrap_or_default()
                .contains("install_disk"),
            "{}",
            r.1
        );
    }
    assert_eq!(confmos(&u), before, "nothing written");

    // A serial WinPE can read: planned, and the other disk untouched.
    set_hosts(&s, "win2022", [json!({"serial": "zbs122"}), Value::Null]).await;
    let (st, plan) = deploy(&s, "?dry_run=true").await;
    assert_eq!(st, StatusCode::OK, "{plan}");
    let line = plan["install_disks"][0]["line"].as_str().unwrap();
    assert!(
        line.ends_with("of server 1/2 (1 other disk untouched)"),
        "{line}"
    );
}

#[tokio::test]
async fn esxi_refuses_a_linux_device_name() {
    let (s, _u) = pod1(
        "esxi8.0",
        [
            json!({"name": "/dev/disk/by-path/pci-0000:00:1f.2-ata-1"}),
            Value::Null,
        ],
    )
    .await;
    let r = deploy(&s, "?dry_run=true").await;
    assert_error(&r, 409, "install_disk_unsupported");
    let said = r.1["error"].as_str().unwrap();
    assert!(
        said.starts_with("node01 (ESXi): the hint's name (/dev/disk/by-path/"),
        "{said}"
    );
    assert!(said.contains("naa."), "{said}");

    set_hosts(&s, "esxi8.0", [Value::Null, Value::Null]).await;
    let (st, plan) = deploy(&s, "?dry_run=true").await;
    assert_eq!(st, StatusCode::OK, "{plan}");
    let line = plan["install_disks"][0]["line"].as_str().unwrap();
    assert!(line.contains("(1 other disk untouched)"), "{line}");
}
