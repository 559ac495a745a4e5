//! The install disk in the deploy plan, against the UCS Manager simulator (issue 29): each
//! host bound to a server is resolved on that server's disks as its manager reports them
//! (its own hint, else its group's, else the smallest local disk), the plan names the disk,
//! and a hint that names none or several refuses the run before anything is written. A RAID
//! virtual drive is a disk, its members are not; a profile's SAN boot LUN is one, never taken
//! by default.

mod common;

use bootsmith_sim::{Sim, SimConfig};
use common::*;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

/// Group pod1 on a fresh UCS Manager simulator, with `node01` bound to blade 1/2 and
/// `node02` to rack server 1, each with `hints` (`null` for none).
async fn pod1(hints: [Value; 2]) -> (Server, Sim) {
    let s = Server::listening().await;
    let u = Sim::start(SimConfig::ucsm()).await.unwrap();
    managed_group(&s, "pod1", "ucsm", &u.address()).await;
    set_hosts(&s, hints).await;
    (s, u)
}

async fn set_hosts(s: &Server, hints: [Value; 2]) {
    set_hosts_on(s, ["1/2", "1"], hints).await;
}

/// `node01` and `node02` bound to `servers`, each with its hint (`null` for none).
async fn set_hosts_on(s: &Server, [first, second]: [&str; 2], [one, two]: [Value; 2]) {
    let mut hosts = json!([
        {"name": "node01", "ip": "192.0.2.21", "os": "rhel8.4", "role": "generic",
         "network_group": "mgmt", "server_group": "pod1", "server": first},
        {"name": "node02", "ip": "192.0.2.22", "os": "rhel8.4", "role": "generic",
         "network_group": "mgmt", "server_group": "pod1", "server": second}
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

/// (host, server, serial, line) of each entry of a plan's `install_disks`.
fn disks(plan: &Value) -> Vec<(String, String, String, String)> {
    plan["install_disks"]
        .as_array()
        .unwrap_or_else(|| panic!("no install_disks: {plan}"))
        .iter()
        .map(|d| {
            (
                d["host"].as_str().unwrap().to_owned(),
                d["server"].as_str().unwrap().to_owned(),
                d["disk"]["serial"].as_str().unwrap_or_default().to_owned(),
                d["line"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// The dry-run plan's `install_disks` of pod1, as [`disks`] reads them.
async fn planned(s: &Server) -> Vec<(String, String, String, String)> {
    let (st, plan) = deploy(s, "?dry_run=true").await;
    assert_eq!(st, StatusCode::OK, "{plan}");
    disks(&plan)
}

/// (host, serial) of each planned disk.
fn serials(got: &[(String, String, String, String)]) -> Vec<(&str, &str)> {
    got.iter()
        .map(|(h, _, serial, _)| (h.as_str(), serial.as_str()))
        .collect()
}

#[tokio::test]
async fn without_a_hint_the_plan_names_the_smallest_local_disk_never_the_sd_card() {
    let (s, _u) = pod1([Value::Null, Value::Null]).await;
    let got = planned(&s).await;
    assert_eq!(
        got.iter()
            .map(|(h, srv, serial, _)| (h.as_str(), srv.as_str(), serial.as_str()))
            .collect::<Vec<_>>(),
        [("node01", "1/2", "MSA121"), ("node02", "1", "MSA11")]
    );
    // The 480 GB SSD, not the 1 TB disk, nor the 32 GB SD card of the rack server.
    assert_eq!(
        got[1].3,
        "node02: install disk 480 GB MICRON MTFDDAK480TDS, S/N MSA11, slot 1 (the default: the smallest local disk) of server 1 (2 other disks untouched)"
    );
}

/// "Untouched" only where the answer file keeps to the disk: the plan says so when the
/// operator's template replaces the default and so decides what it wipes.
#[tokio::test]
async fn the_plan_says_where_the_answer_file_may_touch_other_disks() {
    let (s, _u) = pod1([Value::Null, Value::Null]).await;
    let (_, mut hosts) = s.get("/api/v2/hosts").await;
    let mut hosts = hosts["hosts"].take();
    for h in hosts.as_array_mut().unwrap() {
        h.as_object_mut().unwrap().remove("status");
        h["os"] = json!("ubuntu24.04");
    }
    let r = s.post("/api/v2/hosts", hosts).await;
    assert!(r.0.is_success(), "{}", r.1);
    let got = planned(&s).await;
    assert!(
        got[1].3.ends_with("of server 1 (2 other disks untouched)"),
        "Ubuntu's default autoinstall keeps to the disk: {}",
        got[1].3
    );
    std::fs::write(s.svc().join("ubuntu24.04.tmpl"), "# the operator's own\n").unwrap();
    let got = planned(&s).await;
    assert!(
        got[0].3.ends_with("of server 1/2 (1 other disk); svc/ubuntu24.04.tmpl replaces the default answer file, and decides which disks it wipes"),
        "{}",
        got[0].3
    );
}

#[tokio::test]
async fn a_hint_names_the_disk_and_one_that_names_several_or_none_refuses_before_any_write() {
    let (s, u) = pod1([
        json!({"serial": "zbs122"}),
        json!({"model": "FlexFlash SD"}),
    ])
    .await;
    let got = planned(&s).await;
    // A serial in any case names that disk; the SD card only when the operator names it.
    assert_eq!(serials(&got), [("node01", "ZBS122"), ("node02", "FF11")]);
    assert!(
        got[0].3.contains("of server 1/2 (1 other disk untouched)"),
        "{}",
        got[0].3
    );

    // Over 100 GiB: both disks of blade 1/2. Refused, naming both, and nothing is sent.
    set_hosts(&s, [json!({"size_gb": {"min": 100}}), Value::Null]).await;
    let before = confmos(&u);
    for query in ["?dry_run=true", ""] {
        let r = deploy(&s, query).await;
        assert_error(&r, 409, "install_disk_ambiguous");
        let said = r.1["error"].as_str().unwrap();
        assert!(
            said.starts_with("node01 on server 1/2: 2 disks match the install-disk hint"),
            "{said}"
        );
        assert!(said.contains("MSA121") && said.contains("ZBS122"), "{said}");
    }
    assert_eq!(confmos(&u), before, "nothing written");

    // A serial no disk has: refused, listing the server's disks to choose from.
    set_hosts(&s, [json!({"serial": "NOPE"}), Value::Null]).await;
    let r = deploy(&s, "").await;
    assert_error(&r, 409, "install_disk_not_found");
    let said = r.1["error"].as_str().unwrap();
    assert!(said.contains("MSA121") && said.contains("ZBS122"), "{said}");
    assert_eq!(confmos(&u), before, "nothing written");
}

#[tokio::test]
async fn a_groups_hint_is_its_hosts_default_and_a_hosts_own_wins() {
    let (s, _u) = pod1([Value::Null, json!({"serial": "MSA11"})]).await;
    let (st, mut group) = s.get("/api/v2/servers/pod1").await;
    assert_eq!(st, StatusCode::OK, "{group}");
    group["install_disk"] = json!({"rotational": true});
    let r = s.put("/api/v2/servers", group).await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    let got = planned(&s).await;
    assert_eq!(serials(&got), [("node01", "ZBS122"), ("node02", "MSA11")]);
}

#[tokio::test]
async fn the_disks_list_says_what_a_hint_matches_on() {
    let (s, _u) = pod1([Value::Null, Value::Null]).await;
    let (st, disks) = s.get("/api/v2/servers/pod1/disks").await;
    assert_eq!(st, StatusCode::OK, "{disks}");
    let blade = &disks["blades"]["1/2"];
    assert_eq!(
        blade[0],
        json!({"id": "1", "dn": "sys/chassis-1/blade-2/board/storage-SAS-1/disk-1", "state": "online",
               "model": "MTFDDAK480TDS", "size": "457862", "size_bytes": 457_862u64 << 20,
               "vendor": "MICRON", "serial": "MSA121", "rotational": false, "transport": "local",
               "kind": "drive"})
    );
    assert_eq!(blade[1]["rotational"], true, "{blade}");

    // Rack server 2: its mirror's members say so, and the virtual drive its level.
    assert_eq!(
        disk_kinds(&disks["rack_servers"]["2"]),
        [
            ("1", "drive", None, Some("vd-0")),
            ("2", "drive", None, None),
            ("3", "drive", None, Some("vd-0")),
            ("vd-0", "virtual_drive", Some("raid1"), None),
        ]
    );
    // Blade 1/1, whose profile boots from the SAN: the LUN is listed, remote, size unknown.
    let lun = &disks["blades"]["1/1"][2];
    assert_eq!(
        (
            &lun["id"],
            &lun["transport"],
            &lun["kind"],
            lun.get("size_bytes")
        ),
        (
            &json!("LUN 0 via 50:06:01:60:3E:A0:12:34 (primary)"),
            &json!("remote"),
            &json!("drive"),
            None
        ),
        "{disks}"
    );
}

/// Rack server 2 mirrors its SSDs in slots 1 and 3 as virtual drive vd-0: the installed
/// system sees vd-0 only, so the default takes it (the members are as small, and sort first)
/// and a hint naming a member is refused, saying what to name instead.
#[tokio::test]
async fn a_virtual_drive_is_an_install_disk_and_its_members_never_are() {
    let (s, u) = pod1([Value::Null, Value::Null]).await;
    set_hosts_on(&s, ["2", "1/2"], [Value::Null, Value::Null]).await;
    let (st, plan) = deploy(&s, "?dry_run=true").await;
    assert_eq!(st, StatusCode::OK, "{plan}");
    let chosen = &plan["install_disks"][0];
    assert_eq!(
        (
            &chosen["disk"]["slot"],
            &chosen["disk"]["kind"],
            &chosen["others"]
        ),
        (&json!("vd-0"), &json!("virtual_drive"), &json!(2)),
        "{plan}"
    );
    // Beside vd-0 the installer sees the HDD and the SD card, not the mirror's two members.
    assert_eq!(
        chosen["line"],
        "node01: install disk RAID 1 virtual drive vd-0 (480 GB, Boot) (the default: the smallest local disk) of server 2 (2 other disks untouched)"
    );

    let before = confmos(&u);
    set_hosts_on(&s, ["2", "1/2"], [json!({"serial": "MSA23"}), Value::Null]).await;
    for query in ["?dry_run=true", ""] {
        let r = deploy(&s, query).await;
        assert_error(&r, 409, "install_disk_not_found");
        let said = r.1["error"].as_str().unwrap();
        assert!(
            said.starts_with("node01 on server 2: No disk matches the install-disk hint (serial MSA23): slot 3 fits it but is a member of virtual drive vd-0, which the installed system sees in its place."),
            "{said}"
        );
        assert!(
            said.contains("S/N MSA23, slot 3, member of virtual drive vd-0; RAID 1 virtual drive vd-0 (480 GB, Boot)"),
            "{said}"
        );
    }
    assert_eq!(confmos(&u), before, "nothing written");

    // A size the members share with it names the virtual drive alone: the one the installer
    // will see of that size.
    set_hosts_on(&s, ["2", "1/2"], [json!({"size_gb": 447}), Value::Null]).await;
    let got = planned(&s).await;
    assert!(
        got[0].3.starts_with("node01: install disk RAID 1 virtual drive vd-0 (480 GB, Boot) of server 2 (2 other disks untouched)"),
        "{}",
        got[0].3
    );
}

/// Blade 1/1's profile boots from LUN 0 of an array: the LUN is one of the blade's disks, so
/// the plan counts it among those left untouched, and the default never takes it.
#[tokio::test]
async fn a_san_boot_lun_is_counted_and_never_the_default() {
    let (s, _u) = pod1([Value::Null, Value::Null]).await;
    set_hosts_on(&s, ["1/1", "1/2"], [Value::Null, Value::Null]).await;
    let (st, plan) = deploy(&s, "?dry_run=true").await;
    assert_eq!(st, StatusCode::OK, "{plan}");
    let got = disks(&plan);
    assert_eq!(
        got[0].3,
        "node01: install disk 480 GB MICRON MTFDDAK480TDS, S/N MSA111, slot 1 (the default: the smallest local disk) of server 1/1 (2 other disks untouched)"
    );
    // A hint no disk fits: the refusal lists the LUN among the blade's disks, as what it is.
    set_hosts_on(
        &s,
        ["1/1", "1/2"],
        [json!({"vendor": "NetApp"}), Value::Null],
    )
    .await;
    let r = deploy(&s, "?dry_run=true").await;
    assert_error(&r, 409, "install_disk_not_found");
    let said = r.1["error"].as_str().unwrap();
    assert!(
        said.contains("SAN LUN of unknown size, slot LUN 0 via 50:06:01:60:3E:A0:12:34 (primary)."),
        "{said}"
    );
}

/// A host that names two NICs on a network without a bond installs over the first: the plan
/// says so, and which.
#[tokio::test]
async fn the_plan_warns_when_two_macs_make_no_bond() {
    let (s, _u) = pod1([Value::Null, Value::Null]).await;
    let (_, mut hosts) = s.get("/api/v2/hosts").await;
    let mut hosts = hosts["hosts"].take();
    for h in hosts.as_array_mut().unwrap() {
        h.as_object_mut().unwrap().remove("status");
    }
    hosts[0]["macs"] = json!(["00:25:b5:00:00:1a", "00:25:b5:00:00:1b"]);
    hosts[1]["macs"] = json!(["00:25:b5:00:00:2a"]);
    let r = s.post("/api/v2/hosts", hosts).await;
    assert!(r.0.is_success(), "{}", r.1);
    let (st, plan) = deploy(&s, "?dry_run=true").await;
    assert_eq!(st, StatusCode::OK, "{plan}");
    let warnings: Vec<&str> = plan["warnings"]
        .as_array()
        .unwrap_or_else(|| panic!("warnings: {plan}"))
        .iter()
        .filter_map(Value::as_str)
        .filter(|w| w.contains("MACs"))
        .collect();
    assert_eq!(
        warnings,
        ["node01: names 2 MACs, but its network group mgmt has no bond, so it installs over the first only (00:25:b5:00:00:1a); give the network group a bond to use them all"]
    );
}

/// The plan names the NICs each host's network goes on: without `macs` the first with a link,
/// listing the server's NICs; with them, each MAC's NIC on the server; a MAC the server does
/// not list is a warning naming the NICs it has.
#[tokio::test]
async fn the_plan_names_each_hosts_nics_and_warns_of_a_mac_the_server_lacks() {
    let (s, _u) = pod1([Value::Null, Value::Null]).await;
    let (st, plan) = deploy(&s, "?dry_run=true").await;
    assert_eq!(st, StatusCode::OK, "{plan}");
    let line = plan["install_nics"][0]["line"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    // Named by no MAC, bound to blade 1/2: inventory tells its NIC, the first the manager
    // lists with its link up, and the server's NICs are listed to name instead.
    assert!(
        line.starts_with("node01: network on the first NIC with a link of server 1/2 (the host names no MAC), by inventory eth0 00:25:b5:"),
        "{plan}"
    );
    assert!(line.contains("; its NICs: eth0 00:25:b5:"), "{plan}");
    assert_eq!(plan["install_nics"][0]["from_inventory"], true, "{plan}");
    assert_eq!(plan["install_nics"][0]["nics"][0]["name"], "eth0", "{plan}");
    // The first NIC's MAC, as the server lists it.
    let mac = line.split("eth0 ").nth(1).unwrap()[..17].to_owned();

    let (_, mut hosts) = s.get("/api/v2/hosts").await;
    let mut hosts = hosts["hosts"].take();
    for h in hosts.as_array_mut().unwrap() {
        h.as_object_mut().unwrap().remove("status");
    }
    hosts[0]["macs"] = json!([mac]);
    hosts[1]["macs"] = json!(["02:00:00:00:00:99"]);
    let r = s.post("/api/v2/hosts", hosts).await;
    assert!(r.0.is_success(), "{}", r.1);
    let (st, plan) = deploy(&s, "?dry_run=true").await;
    assert_eq!(st, StatusCode::OK, "{plan}");
    assert_eq!(
        plan["install_nics"][0]["line"],
        format!("node01: network on {mac} (eth0) of server 1/2"),
        "{plan}"
    );
    assert_eq!(plan["install_nics"][0]["nics"][0]["name"], "eth0", "{plan}");
    assert_eq!(
        plan["install_nics"][1]["line"],
        "node02: network on 02:00:00:00:00:99 (not listed) of server 1",
        "{plan}"
    );
    let warned = plan["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .any(|w| w.starts_with("node02: server 1 lists no NIC with MAC 02:00:00:00:00:99 (its NICs: eth0 00:25:b5:"));
    assert!(warned, "{plan}");
}
