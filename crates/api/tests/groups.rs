//! Server groups, network groups and ACI instances.

mod common;

use common::*;
use reqwest::StatusCode;
use serde_json::{json, Value};

#[tokio::test]
async fn server_group_lifecycle_keeps_passwords_encrypted() {
    let s = Server::start().await;
    let r = s
        .post("/api/v2/servers", group("pod1", "Clear-Pass-1"))
        .await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    assert_eq!(r.1["status"], "new server group pod1 created!");
    let id = r.1["id"].as_str().unwrap().to_owned();
    let enc = r.1["credentials"]["password"].as_str().unwrap().to_owned();
    assert!(enc.starts_with("enc:v1:") && !r.1.to_string().contains("Clear-Pass-1"));

    let (_, list) = s.get("/api/v2/servers").await;
    assert_eq!(list["servers"][0]["id"], id.as_str());
    assert_eq!(list["server-groups"][0]["uid"], id.as_str());
    assert_eq!(
        list["servers"][0]["server_pool"],
        json!({"blades": ["1/1", "1/2"], "rack_servers": []})
    );
    assert_eq!(list["servers"][0]["type"], "ucsm");
    assert!(!list.to_string().contains("Clear-Pass-1"));

    // Sending back the encrypted value keeps the password.
    let mut same = group("pod1", &enc);
    same["id"] = json!(id);
    same["credentials"]["user"] = json!("ops");
    let r = s.put("/api/v2/servers", same).await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    assert_eq!(r.1["credentials"]["user"], "ops");
    assert_eq!(stored_password(&s, "pod1").await, "Clear-Pass-1");

    // A new clear password replaces it; `uid` works as the id.
    let mut changed = group("pod1", "Clear-Pass-2");
    changed["uid"] = json!(id);
    assert_eq!(s.put("/api/v2/servers", changed).await.0, StatusCode::OK);
    assert_eq!(stored_password(&s, "pod1").await, "Clear-Pass-2");

    let r = s.delete("/api/v2/servers", json!({"name": "pod1"})).await;
    assert_eq!(r.0, StatusCode::OK);
    assert_eq!(s.get("/api/v2/servers").await.1["servers"], json!([]));
    assert_error(
        &s.delete("/api/v2/servers", json!({"name": "pod1"})).await,
        404,
        "server_group_not_found",
    );
}

#[tokio::test]
async fn server_group_validation() {
    let s = Server::start().await;
    let r = s
        .post(
            "/api/v2/servers",
            json!({"name": "bad/name", "type": "ucsx", "credentials": {"ip": "a b", "user": ""}}),
        )
        .await;
    assert_error(&r, 400, "invalid_server_group");
    let fields: Vec<&str> = field_of_each(&r.1["details"], "field");
    assert_eq!(
        fields,
        [
            "name",
            "type",
            "credentials.ip",
            "credentials.user",
            "credentials.password"
        ]
    );
    assert_error(
        &s.post("/api/v2/servers", json!({"name": "x", "type": "imc"}))
            .await,
        400,
        "invalid_server_group",
    );
    let mut imc = group("imc1", "pw");
    imc["type"] = json!("imc");
    assert_error(
        &s.post("/api/v2/servers", imc.clone()).await,
        400,
        "invalid_server_group",
    );
    imc["server_pool"] = json!({"rack": ["1"]});
    imc["credentials"]["ip"] = json!("http://127.0.0.1:9000");
    let r = s.post("/api/v2/servers", imc).await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    assert_eq!(r.1["server_pool"]["rack_servers"], json!(["1"]));

    assert_eq!(
        s.post("/api/v2/servers", group("pod1", "pw")).await.0,
        StatusCode::CREATED
    );
    assert_error(
        &s.post("/api/v2/servers", group("pod1", "pw")).await,
        409,
        "duplicate_name",
    );
    // Renaming onto a taken name is a conflict too.
    let id = s.get("/api/v2/servers").await.1["servers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == "pod1")
        .unwrap()["id"]
        .clone();
    let mut rename = group("imc1", "pw");
    rename["id"] = id;
    assert_error(
        &s.put("/api/v2/servers", rename).await,
        409,
        "duplicate_name",
    );
    let mut ghost = group("ghost", "pw");
    ghost["id"] = json!("9b2d5c1e-8a51-4b1c-9d7a-3f6a2b1c0d9e");
    assert_error(
        &s.put("/api/v2/servers", ghost).await,
        404,
        "server_group_not_found",
    );
    assert_error(
        &s.put("/api/v2/servers", group("pod1", "pw")).await,
        400,
        "missing_id",
    );
}

#[tokio::test]
async fn selecting_servers_accepts_both_spellings() {
    let s = Server::start().await;
    s.post("/api/v2/servers", group("pod1", "pw")).await;
    let r = s
        .post(
            "/api/v2/servers/pod1/servers",
            json!({"servers": {"blades": ["1/3", "1/1", "1/3"], "rack": ["2"]}}),
        )
        .await;
    // The group is stored offline (no manager at its address): kept, with a warning.
    assert_eq!(r.0, StatusCode::OK);
    assert_eq!(r.1["status"], "ok");
    assert!(r.1["warnings"][0].as_str().unwrap().contains("not checked"));
    assert_eq!(
        r.1["servers"],
        json!({"blades": ["1/1", "1/3"], "rack_servers": ["2"]})
    );
    let r = s
        .post(
            "/api/v2/servers/pod1/servers",
            json!({"servers": {"rack_servers": ["4"]}}),
        )
        .await;
    assert_eq!(r.1["servers"], json!({"blades": [], "rack_servers": ["4"]}));
    let (_, list) = s.get("/api/v2/servers").await;
    assert_eq!(
        list["servers"][0]["server_pool"],
        json!({"blades": [], "rack_servers": ["4"]})
    );
    let r = s
        .post(
            "/api/v2/servers/pod1/servers",
            json!({"servers": {"blades": ["1/x", "0/1"]}}),
        )
        .await;
    assert_error(&r, 400, "invalid_selection");
    assert_eq!(r.1["details"].as_array().unwrap().len(), 2);
    assert_error(
        &s.post("/api/v2/servers/pod1/servers", json!({})).await,
        400,
        "invalid_selection",
    );
    assert_error(
        &s.post("/api/v2/servers/nope/servers", json!({"servers": {}}))
            .await,
        404,
        "server_group_not_found",
    );
}

#[tokio::test]
async fn network_group_lifecycle() {
    let s = Server::start().await;
    let r = s.post("/api/v2/networks", network("mgmt")).await;
    assert_eq!(r.0, StatusCode::CREATED);
    assert_eq!(r.1["status"], "Network mgmt created!");
    let id = r.1["id"].as_str().unwrap().to_owned();
    assert_error(
        &s.post("/api/v2/networks", network("mgmt")).await,
        409,
        "duplicate_name",
    );

    let r = s.post("/api/v2/networks", json!({"name": "x", "netmask": "255.0.255.0", "gateway": "10.0.0", "proxy": "ftp://p", "vlan": "5000"})).await;
    assert_error(&r, 400, "invalid_network");
    let fields: Vec<&str> = field_of_each(&r.1["details"], "field");
    assert_eq!(
        fields,
        [
            "netmask",
            "gateway",
            "nameserver",
            "ntpserver",
            "proxy",
            "vlan"
        ]
    );

    let mut full = network("mgmt2");
    full["id"] = json!(id);
    full["proxy"] = json!("http://proxy.lab:3128");
    full["vlan"] = json!("30");
    let r = s.put("/api/v2/networks", full).await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    let (_, list) = s.get("/api/v2/networks").await;
    assert_eq!(list["networks"][0]["name"], "mgmt2");
    assert_eq!(list["networks"][0]["proxy"], "http://proxy.lab:3128");
    assert_eq!(list["networks"][0]["vlan"], "30");

    let mut ghost = network("g");
    ghost["id"] = json!("9b2d5c1e-8a51-4b1c-9d7a-3f6a2b1c0d9e");
    assert_error(
        &s.put("/api/v2/networks", ghost).await,
        404,
        "network_not_found",
    );
    assert_error(
        &s.delete("/api/v2/networks", json!({"name": "nope"})).await,
        404,
        "network_not_found",
    );
    assert_error(
        &s.delete("/api/v2/networks", json!({})).await,
        400,
        "invalid_network",
    );
    assert_eq!(
        s.delete("/api/v2/networks", json!({"id": id})).await.0,
        StatusCode::OK
    );
    assert_eq!(
        s.post("/api/v2/networks", network("other")).await.0,
        StatusCode::CREATED
    );
    assert_eq!(
        s.delete("/api/v2/networks", json!({"name": "other"}))
            .await
            .0,
        StatusCode::OK
    );
    assert_eq!(s.get("/api/v2/networks").await.1["networks"], json!([]));
}

#[tokio::test]
async fn groups_in_use_cannot_be_deleted_and_renames_follow_through() {
    let s = Server::start().await;
    let net_id = s.post("/api/v2/networks", network("mgmt")).await.1["id"].clone();
    s.post("/api/v2/servers", group("pod1", "pw")).await;
    let mut h1 = host("node01", "10.1.0.11", "centos7.4", "mgmt");
    h1["server_group"] = json!("pod1");
    let hosts = json!([h1, host("node02", "10.1.0.12", "centos7.4", "mgmt")]);
    assert_eq!(s.post("/api/v2/hosts", hosts).await.0, StatusCode::CREATED);

    let r = s.delete("/api/v2/networks", json!({"name": "mgmt"})).await;
    assert_error(&r, 409, "network_in_use");
    assert!(
        r.1["error"].as_str().unwrap().contains("node01, node02"),
        "{}",
        r.1
    );
    let r = s.delete("/api/v2/servers", json!({"name": "pod1"})).await;
    assert_error(&r, 409, "server_group_in_use");
    assert!(r.1["error"].as_str().unwrap().contains("node01"));

    let mut renamed = network("core-net");
    renamed["id"] = net_id;
    assert_eq!(s.put("/api/v2/networks", renamed).await.0, StatusCode::OK);
    let hosts: Value = s.get("/api/v2/hosts").await.1;
    assert!(
        hosts["hosts"]
            .as_array()
            .unwrap()
            .iter()
            .all(|h| h["network_group"] == "core-net"),
        "{hosts}"
    );
}

#[tokio::test]
async fn aci_instances_follow_the_network_conventions() {
    let s = Server::start().await;
    let aci = json!({"name": "fab1", "credentials": {"ip": "10.0.0.9", "user": "admin", "password": "Aci-Secret-9"},
        "tenant_name": "kube", "vrf_name": "kube-vrf", "bridge_domain": "kube-bd"});
    let r = s.post("/api/v2/aci", aci.clone()).await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    assert!(!r.1.to_string().contains("Aci-Secret-9"));
    let id = r.1["id"].clone();
    let enc = r.1["credentials"]["password"].clone();
    assert_error(
        &s.post("/api/v2/aci", aci.clone()).await,
        409,
        "duplicate_name",
    );
    let r = s.post("/api/v2/aci", json!({"name": "fab2", "credentials": {"ip": "10.0.0.9", "user": "a", "password": "p"}, "tenant_name": "t t"})).await;
    assert_error(&r, 400, "invalid_aci");
    let mut upd = aci.clone();
    upd["id"] = id.clone();
    upd["tenant_name"] = json!("kube2");
    upd["credentials"]["password"] = json!("");
    let r = s.put("/api/v2/aci", upd).await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    assert_eq!(
        r.1["credentials"]["password"], enc,
        "a blank password keeps the stored one"
    );
    assert_eq!(
        s.get("/api/v2/aci").await.1["aci"][0]["tenant_name"],
        "kube2"
    );
    assert_error(
        &s.delete("/api/v2/aci", json!({"name": "nope"})).await,
        404,
        "aci_not_found",
    );
    assert_eq!(
        s.delete("/api/v2/aci", json!({"id": id})).await.0,
        StatusCode::OK
    );
    assert_eq!(s.get("/api/v2/aci").await.1["aci"], json!([]));
}

/// One group by name, as the list has it, with what its manager can do; an unknown name is a 404.
#[tokio::test]
async fn one_server_group_is_read_by_name_with_its_capabilities() {
    let s = Server::start().await;
    let r = s
        .post("/api/v2/servers", group("pod1", "Clear-Pass-1"))
        .await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    let (st, one) = s.get("/api/v2/servers/pod1").await;
    assert_eq!(st, StatusCode::OK, "{one}");
    let (_, list) = s.get("/api/v2/servers").await;
    assert_eq!(one, list["servers"][0]);
    assert!(one["capabilities"]
        .as_array()
        .unwrap()
        .contains(&json!("deploy")));
    assert!(!one.to_string().contains("Clear-Pass-1"));
    let (st, body) = s.get("/api/v2/servers/nope").await;
    assert_eq!(st, StatusCode::NOT_FOUND, "{body}");
    assert_eq!(body["code"], "server_group_not_found");
}

#[tokio::test]
async fn one_network_group_is_read_by_name() {
    let s = Server::start().await;
    let r = s.post("/api/v2/networks", network("mgmt")).await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    let (st, one) = s.get("/api/v2/networks/mgmt").await;
    assert_eq!(st, StatusCode::OK, "{one}");
    let (_, list) = s.get("/api/v2/networks").await;
    assert_eq!(one, list["networks"][0]);
    let (st, body) = s.get("/api/v2/networks/nope").await;
    assert_eq!(st, StatusCode::NOT_FOUND, "{body}");
    assert_eq!(body["code"], "network_not_found");
}

/// A Redfish group lists its BMCs (one server each): passwords encrypted on every read, kept
/// per BMC on update, required for a BMC the group did not have; bad lists refused by field.
#[tokio::test]
async fn a_redfish_group_keeps_each_bmc_and_its_password() {
    let s = Server::start().await;
    let bmc = |ip: &str, pw: Option<&str>| {
        let mut b = json!({"ip": ip, "user": "root"});
        if let Some(pw) = pw {
            b["password"] = json!(pw);
        }
        b
    };
    let body = json!({"name": "bmcs", "type": "redfish", "check_login": false,
        "bmcs": [bmc("10.0.0.11", Some("Pw-One-1")), bmc("10.0.0.12:8443", Some("Pw-Two-2"))]});
    let r = s.post("/api/v2/servers", body).await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    let g = &r.1;
    assert_eq!(g["type"], "redfish");
    assert_eq!(
        field_of_each(&g["bmcs"], "ip"),
        ["10.0.0.11", "10.0.0.12:8443"]
    );
    assert_eq!(
        g["credentials"]["ip"], "10.0.0.11",
        "the first BMC is the seed's credentials"
    );
    let (_, list) = s.get("/api/v2/servers").await;
    assert!(!list.to_string().contains("Pw-One-1") && !list.to_string().contains("Pw-Two-2"));
    let second_enc = list["servers"][0]["bmcs"][1]["password"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(second_enc.starts_with("enc:v1:"));

    // An update that leaves a password out keeps that BMC's; a BMC it did not have needs one.
    let id = g["id"].as_str().unwrap();
    let mut put = json!({"id": id, "name": "bmcs", "type": "redfish", "check_login": false,
        "bmcs": [bmc("10.0.0.12:8443", None), bmc("10.0.0.11", None), bmc("10.0.0.13", None)]});
    let r = s.put("/api/v2/servers", put.clone()).await;
    assert_error(&r, 400, "invalid_server_group");
    assert_eq!(r.1["details"][0]["field"], "bmcs[2].password", "{}", r.1);
    put["bmcs"][2]["password"] = json!("Pw-Three-3");
    let r = s.put("/api/v2/servers", put).await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    assert_eq!(
        field_of_each(&r.1["bmcs"], "ip"),
        ["10.0.0.12:8443", "10.0.0.11", "10.0.0.13"]
    );
    assert_eq!(
        r.1["bmcs"][0]["password"],
        second_enc.as_str(),
        "kept as stored"
    );
    assert_eq!(r.1["credentials"]["password"], second_enc.as_str());

    // Refused, naming the field: bmcs on another type, both forms at once naming two BMCs (or
    // the same BMC with two passwords or two fingerprints), an address twice, an empty list.
    let fp = |d: char| d.to_string().repeat(64);
    for (body, field) in [
        (
            json!({"name": "u", "type": "ucsm", "check_login": false, "bmcs": [bmc("10.0.0.1", Some("x"))]}),
            "bmcs",
        ),
        (
            json!({"name": "r", "type": "redfish", "check_login": false,
                "credentials": {"ip": "10.0.0.2", "user": "root", "password": "x"},
                "bmcs": [bmc("10.0.0.1", Some("x"))]}),
            "credentials",
        ),
        (
            json!({"name": "r", "type": "redfish", "check_login": false,
                "credentials": {"ip": "10.0.0.1", "user": "root", "password": "x"},
                "bmcs": [bmc("10.0.0.1", Some("y"))]}),
            "credentials.password",
        ),
        (
            json!({"name": "r", "type": "redfish", "check_login": false, "fingerprint": fp('a'),
                "bmcs": [{"ip": "10.0.0.1", "user": "root", "password": "x", "fingerprint": fp('b')}]}),
            "fingerprint",
        ),
        (
            json!({"name": "r", "type": "redfish", "check_login": false,
                "bmcs": [bmc("10.0.0.1", Some("x")), bmc("10.0.0.1", Some("y"))]}),
            "bmcs[1].ip",
        ),
        (
            json!({"name": "r", "type": "redfish", "check_login": false, "bmcs": []}),
            "bmcs",
        ),
        (
            json!({"name": "r", "type": "redfish", "check_login": false, "bmcs": [bmc("10.0.0.1", None)]}),
            "bmcs[0].password",
        ),
    ] {
        let r = s.post("/api/v2/servers", body).await;
        assert_error(&r, 400, "invalid_server_group");
        assert_eq!(r.1["details"][0]["field"], field, "{}", r.1);
    }
    // One BMC in the seed's shape is a Redfish group too; it lists itself as its one BMC.
    let r = s
        .post(
            "/api/v2/servers",
            json!({"name": "one", "type": "redfish", "check_login": false,
                "credentials": {"ip": "10.0.0.21", "user": "root", "password": "Pw-4"}}),
        )
        .await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    assert_eq!(field_of_each(&r.1["bmcs"], "ip"), ["10.0.0.21"]);
    // Read back, it names its BMC in both forms, and goes back as read: the same BMC twice is
    // one BMC (tests/round_trip.rs sends back every kind of group as GET answers it).
    let mut back = s.get("/api/v2/servers/one").await.1;
    assert_eq!(back["credentials"]["ip"], back["bmcs"][0]["ip"], "{back}");
    back["check_login"] = json!(false);
    back["fingerprint"] = json!(fp('c'));
    let r = s.put("/api/v2/servers", back).await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    assert_eq!(field_of_each(&r.1["bmcs"], "ip"), ["10.0.0.21"]);
    assert!(
        r.1["bmcs"][0]["fingerprint"]
            .as_str()
            .is_some_and(|f| f.starts_with("CC:CC:")),
        "{}",
        r.1
    );
    assert_eq!(r.1["fingerprint"], r.1["bmcs"][0]["fingerprint"]);
    assert_eq!(stored_password(&s, "one").await, "Pw-4");
    // A new password typed into either place, the other left as read, is the change.
    for (place, pw) in [("credentials", "Pw-5"), ("bmcs", "Pw-6")] {
        let mut edited = s.get("/api/v2/servers/one").await.1;
        edited["check_login"] = json!(false);
        match place {
            "credentials" => edited["credentials"]["password"] = json!(pw),
            _ => edited["bmcs"][0]["password"] = json!(pw),
        }
        let r = s.put("/api/v2/servers", edited).await;
        assert_eq!(r.0, StatusCode::OK, "{}", r.1);
        assert_eq!(stored_password(&s, "one").await, pw, "typed into {place}");
    }
}

/// A subnet implies its netmask: the netmask may be left out (issue 27), and is stored as
/// the subnet's; without a subnet it stays required.
#[tokio::test]
async fn a_subnet_stands_for_the_netmask() {
    let s = Server::start().await;
    let mut lab = network("lab");
    lab["subnet"] = json!("10.1.0.0/22");
    lab.as_object_mut().unwrap().remove("netmask");
    let r = s.post("/api/v2/networks", lab).await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    assert_eq!(r.1["netmask"], "255.255.252.0", "{}", r.1);
    let mut v6 = network("lab6");
    v6["subnet"] = json!("2001:db8::/64");
    v6["gateway"] = json!("2001:db8::1");
    v6["netmask"] = json!("");
    let r = s.post("/api/v2/networks", v6).await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    assert_eq!(r.1["netmask"], "64", "{}", r.1);
    let mut bare = network("bare");
    bare.as_object_mut().unwrap().remove("netmask");
    let r = s.post("/api/v2/networks", bare).await;
    assert_error(&r, 400, "invalid_network");
    assert_eq!(
        field_of_each(&r.1["details"], "field"),
        ["netmask"],
        "{}",
        r.1
    );
}

#[tokio::test]
async fn a_server_group_keeps_an_install_disk_for_its_hosts() {
    let s = Server::start().await;
    // Without one, the record is as it always was: no install_disk key at all.
    let r = s.post("/api/v2/servers", group("pod1", "pw")).await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    assert!(r.1.get("install_disk").is_none(), "{}", r.1);

    // The manager of `group` is not there: updates store without logging in.
    let offline = |mut g: Value| {
        g["check_login"] = json!(false);
        g
    };
    let mut record = group_by_name(&s, "pod1").await;
    record["install_disk"] = json!({"vendor": "Micron", "size_gb": {"max": 1000}});
    let r = s.put("/api/v2/servers", offline(record)).await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    let read = group_by_name(&s, "pod1").await;
    assert_eq!(
        read["install_disk"],
        json!({"vendor": "Micron", "size_gb": {"max": 1000}})
    );
    // Sent back as read, it stays; left out of an update, it is cleared (as vlan is).
    assert_eq!(
        s.put("/api/v2/servers", offline(read.clone())).await.0,
        StatusCode::OK
    );
    assert_eq!(group_by_name(&s, "pod1").await, read);
    let mut without = read.clone();
    without.as_object_mut().unwrap().remove("install_disk");
    assert_eq!(
        s.put("/api/v2/servers", offline(without)).await.0,
        StatusCode::OK
    );
    assert!(group_by_name(&s, "pod1")
        .await
        .get("install_disk")
        .is_none());

    // Given on create too.
    let mut pod2 = group("pod2", "pw");
    pod2["install_disk"] = json!({"wwn": "0x5000C500A1B2C3D4"});
    let r = s.post("/api/v2/servers", pod2).await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    assert_eq!(r.1["install_disk"], json!({"wwn": "0x5000C500A1B2C3D4"}));

    // A bad hint names its key, and changes nothing.
    let before = s.get("/api/v2/servers").await.1;
    let mut bad = read;
    bad["install_disk"] = json!({"size_gb": {"min": 0}, "hctl": "1:0:0:0"});
    let r = s.put("/api/v2/servers", offline(bad)).await;
    assert_error(&r, 400, "invalid_server_group");
    let fields: Vec<&str> = field_of_each(&r.1["details"], "field");
    assert_eq!(fields, ["install_disk.hctl", "install_disk.size_gb.min"]);
    let mut bad_new = group("pod3", "pw");
    bad_new["install_disk"] = json!([]);
    let r = s.post("/api/v2/servers", bad_new).await;
    assert_error(&r, 400, "invalid_server_group");
    assert_eq!(field_of_each(&r.1["details"], "field"), ["install_disk"]);
    assert_eq!(s.get("/api/v2/servers").await.1, before);
}

async fn group_by_name(s: &Server, name: &str) -> Value {
    let (st, g) = s.get(&format!("/api/v2/servers/{name}")).await;
    assert_eq!(st, StatusCode::OK, "{g}");
    g
}
