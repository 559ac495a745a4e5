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

/// What an OS family's default answer file cannot do, or does late, of a host's network is
/// said in the plan before anything is written: ESXi has no LACP on a standard vSwitch and sets
/// its teaming and MTU in `%firstboot`; Windows sets all but the address at the first logon.
/// The RHEL family takes every setting as given, and says nothing.
#[tokio::test]
async fn the_plan_says_what_each_family_cannot_do_of_the_hosts_network() {
    let (s, u) = pod1("esxi8.0", [Value::Null, Value::Null]).await;
    let (_, mut net) = s.get("/api/v2/networks/mgmt").await;
    net["bond"] = json!({"mode": "802.3ad", "lacp_rate": "fast", "xmit_hash_policy": "layer3+4"});
    net["mtu"] = json!(9000);
    net["vlan"] = json!("120");
    let r = s.put("/api/v2/networks", net).await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    let bonded = |os: &str| {
        json!([
            {"name": "node01", "ip": "192.0.2.21", "os": os, "role": "generic", "network_group": "mgmt",
             "server_group": "pod1", "server": "1/2", "macs": ["00:25:b5:00:00:1a", "00:25:b5:00:00:1b"]},
            {"name": "node02", "ip": "192.0.2.22", "os": os, "role": "generic", "network_group": "mgmt",
             "server_group": "pod1", "server": "1"}
        ])
    };
    let warned = |plan: &Value| -> Vec<String> {
        plan["warnings"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .filter(|w| w.contains("ESXi") || w.contains("Windows"))
            .map(str::to_owned)
            .collect()
    };
    let before = confmos(&u);

    let r = s.post("/api/v2/hosts", bonded("esxi8.0")).await;
    assert!(r.0.is_success(), "{}", r.1);
    let (st, plan) = deploy(&s, "?dry_run=true").await;
    assert_eq!(st, StatusCode::OK, "{plan}");
    assert_eq!(
        warned(&plan),
        [
            "node01: bond mode 802.3ad on ESXi: a standard vSwitch has no LACP: ESXi teams the NICs by IP hash, so the switch ports must be a static port channel, and the LACP rate is not used",
            "node01: ESXi hashes by IP address and port only, so the bond's xmit_hash_policy is not used",
            "node01: ESXi sets the bond and the MTU in %firstboot, after the install; %firstboot does not run where UEFI Secure Boot is on, so set those by hand there",
            // node02 names one NIC: no bond, but the MTU all the same.
            "node02: ESXi sets the MTU in %firstboot, after the install; %firstboot does not run where UEFI Secure Boot is on, so set those by hand there",
        ],
        "{plan}"
    );

    let r = s.post("/api/v2/hosts", bonded("win2022")).await;
    assert!(r.0.is_success(), "{}", r.1);
    let (st, plan) = deploy(&s, "?dry_run=true").await;
    assert_eq!(st, StatusCode::OK, "{plan}");
    assert_eq!(
        warned(&plan),
        [
            "node01: Windows Setup (WinPE) cannot set the bond, the MTU and the VLAN: they are set at the first logon, and until then the host is on its first NIC only",
            "node02: Windows Setup (WinPE) cannot set the MTU and the VLAN: they are set at the first logon, and until then the host is on its first NIC only; a VLAN without a bond needs a NIC driver that takes a VLAN id, else the install is reported failed",
        ],
        "{plan}"
    );

    let r = s.post("/api/v2/hosts", bonded("rhel9.4")).await;
    assert!(r.0.is_success(), "{}", r.1);
    let (st, plan) = deploy(&s, "?dry_run=true").await;
    assert_eq!(st, StatusCode::OK, "{plan}");
    assert_eq!(warned(&plan), Vec::<String>::new(), "{plan}");
    assert_eq!(confmos(&u), before, "a dry run writes nothing");
}
