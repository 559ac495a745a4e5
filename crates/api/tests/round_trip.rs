//! What GET answers, the matching write accepts unchanged: every record kind (server groups of
//! each type, Redfish with one BMC, several, and a pinned certificate; network groups with
//! MTU, bond, routes and IPv6 gateway, ACI instances, hosts with MACs and IPv6, install-disk
//! hints on both, SSH keys, the boot-server address, proxy, org, ISO map and the install
//! settings) is read, sent back as read, and reads back the same.
//! A client that edits one field of what it read must not have to reshape the rest.

mod common;

use bootsmith_sim::redfish::{Persona, RedfishConfig, RedfishSim};
use bootsmith_sim::{Sim, SimConfig};
use common::*;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

/// Send `record` (as GET answered it) with `method` to `path`; it must be accepted, and GET
/// `read` must answer the same record again.
async fn round_trip(s: &Server, method: Method, path: &str, read: &str, record: Value) {
    let (st, answer) = s.call(method.clone(), path, Some(record.clone())).await;
    assert!(
        st.is_success(),
        "{method} {path} refused what GET {read} answered ({st}): {answer}\nsent: {record}"
    );
    let (st, again) = s.get(read).await;
    assert_eq!(st, StatusCode::OK, "{again}");
    assert_eq!(again, record, "GET {read} after {method} {path}");
}

/// One server group as GET answers it.
async fn group_record(s: &Server, name: &str) -> Value {
    let (st, g) = s.get(&format!("/api/v2/servers/{name}")).await;
    assert_eq!(st, StatusCode::OK, "{g}");
    g
}

async fn created(s: &Server, path: &str, body: Value) {
    let r = s.post(path, body).await;
    assert!(r.0.is_success(), "{path}: {}", r.1);
}

#[tokio::test(flavor = "multi_thread")]
async fn every_server_group_type_reads_back_into_its_update() {
    let s = Server::start().await;
    let ucsm = Sim::start(SimConfig::ucsm()).await.unwrap();
    let imc = Sim::start(SimConfig::imc()).await.unwrap();
    let ucsc = Sim::start(SimConfig::ucsc(1)).await.unwrap();
    let rf = |p| async move { RedfishSim::start(RedfishConfig::new(p)).await.unwrap() };
    let (idrac, cimc, xcc) = (
        rf(Persona::Idrac9).await,
        rf(Persona::Cimc).await,
        rf(Persona::Xcc).await,
    );
    let tls = RedfishSim::start(RedfishConfig {
        https: true,
        ..RedfishConfig::new(Persona::Idrac9)
    })
    .await
    .unwrap();
    let login = |address: String| json!({"ip": address, "user": "admin", "password": "password"});
    created(
        &s,
        "/api/v2/servers",
        json!({"name": "dom", "type": "ucsm", "credentials": login(ucsm.address()),
            "server_pool": {"blades": ["1/1"]}, "vlan": "default", "description": "lab domain",
            "org": "org-root/org-lab", "install_disk": {"model": "UCS-SD480G", "size_gb": {"min": 400}}}),
    )
    .await;
    created(
        &s,
        "/api/v2/servers",
        json!({"name": "rack", "type": "imc", "credentials": login(imc.address()),
            "server_pool": {"rack_servers": ["1"]}}),
    )
    .await;
    created(
        &s,
        "/api/v2/servers",
        json!({"name": "central", "type": "ucsc", "credentials": login(ucsc.address())}),
    )
    .await;
    created(
        &s,
        "/api/v2/servers",
        json!({"name": "one", "type": "redfish", "credentials": login(idrac.address())}),
    )
    .await;
    created(
        &s,
        "/api/v2/servers",
        json!({"name": "several", "type": "redfish",
            "bmcs": [login(cimc.address()), login(xcc.address())]}),
    )
    .await;
    created(
        &s,
        "/api/v2/servers",
        json!({"name": "pinned", "type": "redfish", "credentials": login(tls.address()),
            "fingerprint": tls.fingerprint().unwrap()}),
    )
    .await;
    for name in ["dom", "rack", "central", "one", "several", "pinned"] {
        let g = group_record(&s, name).await;
        round_trip(
            &s,
            Method::PUT,
            "/api/v2/servers",
            &format!("/api/v2/servers/{name}"),
            g,
        )
        .await;
    }
    // A group's servers as listed go back as its selection (the `selected` flags), unchanged.
    for name in ["dom", "rack", "several"] {
        let path = format!("/api/v2/servers/{name}/servers");
        let (st, inv) = s.get(&path).await;
        assert_eq!(st, StatusCode::OK, "{inv}");
        let r = s.post(&path, json!({"servers": inv["servers"]})).await;
        assert_eq!(r.0, StatusCode::OK, "{name}: {}", r.1);
        assert_eq!(s.get(&path).await.1, inv, "{name}");
    }
    // What the list answers goes back as well.
    let (_, list) = s.get("/api/v2/servers").await;
    for g in list["servers"].as_array().unwrap() {
        let name = g["name"].as_str().unwrap();
        round_trip(
            &s,
            Method::PUT,
            "/api/v2/servers",
            &format!("/api/v2/servers/{name}"),
            g.clone(),
        )
        .await;
    }
}

#[tokio::test]
async fn every_other_record_reads_back_into_its_write() {
    let s = Server::start().await;
    // Settings first: the records below refer to them.
    set_svc_ip(&s, "192.0.2.9").await;
    let (_, ip) = s.get("/api/v1/ip").await;
    round_trip(&s, Method::POST, "/api/v1/ip", "/api/v1/ip", ip).await;
    created(
        &s,
        "/api/v1/proxy",
        json!({"proxy": "http://proxy.lab:3128"}),
    )
    .await;
    let (_, proxy) = s.get("/api/v1/proxy").await;
    round_trip(&s, Method::POST, "/api/v1/proxy", "/api/v1/proxy", proxy).await;
    created(&s, "/api/v1/org", json!({"org": "org-root/org-lab"})).await;
    let (_, org) = s.get("/api/v1/org").await;
    round_trip(&s, Method::POST, "/api/v1/org", "/api/v1/org", org).await;
    created(&s, "/api/v1/keys", json!({"keys": [KEY_A, KEY_B]})).await;
    let (_, keys) = s.get("/api/v1/keys").await;
    round_trip(&s, Method::POST, "/api/v1/keys", "/api/v1/keys", keys).await;
    let (st, settings) = s
        .put(
            "/api/v2/settings/install",
            json!({"unmount_after_install": true}),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{settings}");
    let (_, settings) = s.get("/api/v2/settings/install").await;
    round_trip(
        &s,
        Method::PUT,
        "/api/v2/settings/install",
        "/api/v2/settings/install",
        settings,
    )
    .await;

    bootable_centos_iso(&s);
    created(
        &s,
        "/api/v1/isos/map",
        json!({"iso_map": [{"file": "/svc/c7.iso", "os": "centos7.4"}]}),
    )
    .await;
    let (_, map) = s.get("/api/v1/isos/map").await;
    round_trip(
        &s,
        Method::POST,
        "/api/v1/isos/map",
        "/api/v1/isos/map",
        map,
    )
    .await;

    created(
        &s,
        "/api/v2/networks",
        json!({"name": "mgmt", "netmask": "255.255.255.0", "gateway": "192.0.2.1",
            "nameserver": "192.0.2.53", "ntpserver": "pool.ntp.org", "vlan": "120",
            "proxy": "http://proxy.lab:3128", "subnet": "192.0.2.0/24", "mtu": 9000,
            "bond": {"mode": "balance-xor", "xmit_hash_policy": "layer2+3"},
            "routes": [{"to": "10.0.0.0/8", "via": "192.0.2.254"}], "ipv6_gateway": "fe80::1"}),
    )
    .await;
    created(&s, "/api/v2/networks", network("plain")).await;
    for name in ["mgmt", "plain"] {
        let (_, n) = s.get(&format!("/api/v2/networks/{name}")).await;
        round_trip(
            &s,
            Method::PUT,
            "/api/v2/networks",
            &format!("/api/v2/networks/{name}"),
            n,
        )
        .await;
    }

    created(
        &s,
        "/api/v2/aci",
        json!({"name": "fab1", "credentials": {"ip": "10.0.0.9", "user": "admin", "password": "Aci-Secret-9"},
            "tenant_name": "kube", "vrf_name": "kube-vrf", "bridge_domain": "kube-bd"}),
    )
    .await;
    let (_, aci) = s.get("/api/v2/aci").await;
    let first = aci["aci"][0].clone();
    let (st, answer) = s.put("/api/v2/aci", first.clone()).await;
    assert_eq!(st, StatusCode::OK, "{answer}\nsent: {first}");
    assert_eq!(s.get("/api/v2/aci").await.1, aci);

    let group = json!({"name": "dom", "type": "ucsm",
        "credentials": {"ip": "127.0.0.1:9", "user": "admin", "password": "p"},
        "check_login": false});
    created(&s, "/api/v2/servers", group).await;
    created(
        &s,
        "/api/v2/hosts",
        json!([
            {"name": "node01", "ip": "192.0.2.21", "os": "centos7.4", "role": "generic",
             "network_group": "mgmt", "server_group": "dom", "server": "1/1",
             "service_profile_template": "org-root/ls-tmpl",
             "install_disk": {"serial": "21033A4E", "wwn": "0x5000c500a1b2c3d4", "size_gb": 447,
                              "rotational": false},
             "macs": ["aa:bb:cc:00:00:01", "aa:bb:cc:00:00:02"], "ipv6": "2001:db8::21/64"},
            {"name": "node02", "ip": "192.0.2.22", "os": "centos7.4", "role": "generic",
             "network_group": "mgmt"}
        ]),
    )
    .await;
    let (_, hosts) = s.get("/api/v2/hosts").await;
    let (st, answer) = s
        .call(Method::PUT, "/api/v2/hosts", Some(hosts["hosts"].clone()))
        .await;
    assert!(st.is_success(), "{answer}\nsent: {}", hosts["hosts"]);
    assert_eq!(
        records_of(&s.get("/api/v2/hosts").await.1["hosts"]),
        records_of(&hosts["hosts"])
    );
}
