//! The host's network as records (issue 29), over real HTTP: network groups with an MTU, a
//! bond, static routes and an IPv6 gateway, hosts with the MACs of their NICs and an IPv6
//! address; each read back as written, every bad field of a request reported at once by its
//! path, a NIC given to two hosts refused with 409 `mac_in_use`, and records without them
//! answering the seed's shapes as before.

mod common;

use common::*;
use reqwest::StatusCode;
use serde_json::{json, Value};

/// The network group `dc` on 192.0.2.0/24 with every new setting.
fn bonded() -> Value {
    json!({"name": "dc", "netmask": "255.255.255.0", "gateway": "192.0.2.1",
        "nameserver": "192.0.2.53", "ntpserver": "pool.ntp.org", "vlan": "30",
        "mtu": 9000,
        "bond": {"mode": "802.3ad", "lacp_rate": "fast", "xmit_hash_policy": "layer3+4"},
        "routes": [{"to": "10.0.0.0/8", "via": "192.0.2.254"},
                   {"to": "2001:db8:100::/48", "via": "fe80::1"}],
        "ipv6_gateway": "2001:db8::1"})
}

fn problems(body: &Value) -> Vec<(Option<u64>, String)> {
    body["details"]
        .as_array()
        .unwrap_or_else(|| panic!("no details: {body}"))
        .iter()
        .map(|p| (p["index"].as_u64(), p["field"].as_str().unwrap().to_owned()))
        .collect()
}

/// The message of the problem on `field` (of row `index`, for a list).
fn said<'a>(body: &'a Value, index: Option<u64>, field: &str) -> &'a str {
    body["details"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["field"] == field && p["index"].as_u64() == index)
        .and_then(|p| p["message"].as_str())
        .unwrap_or_else(|| panic!("no problem on {field}: {body}"))
}

#[tokio::test]
async fn a_bonded_network_and_its_hosts_read_back_as_written() {
    let s = Server::listening().await;
    let r = s.post("/api/v2/networks", bonded()).await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    assert_eq!(r.1["status"], "Network dc created!");

    let (st, got) = s.get("/api/v2/networks/dc").await;
    assert_eq!(st, StatusCode::OK);
    let mut want = bonded();
    want["id"] = got["id"].clone();
    assert_eq!(got, want, "every field as sent");
    let (_, list) = s.get("/api/v2/networks").await;
    assert_eq!(list["networks"][0], want);

    let hosts = json!([
        {"name": "node01", "ip": "192.0.2.21", "os": "centos7.4", "role": "generic",
         "network_group": "dc", "macs": ["AA-BB-CC-00-00-01", "aabb.cc00.0002"],
         "ipv6": "2001:db8::21/64"},
        {"name": "node02", "ip": "192.0.2.22", "os": "centos7.4", "role": "generic",
         "network_group": "dc", "macs": ["aa:bb:cc:00:00:03"]},
        {"name": "node03", "ip": "192.0.2.23", "os": "centos7.4", "role": "generic",
         "network_group": "dc"}
    ]);
    let r = s.post("/api/v2/hosts", hosts).await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    let (_, got) = s.get("/api/v2/hosts").await;
    let got = got["hosts"].as_array().unwrap();
    assert_eq!(
        got[0]["macs"],
        json!(["aa:bb:cc:00:00:01", "aa:bb:cc:00:00:02"]),
        "lower case with colons"
    );
    assert_eq!(got[0]["ipv6"], "2001:db8::21/64");
    assert_eq!(got[1]["macs"], json!(["aa:bb:cc:00:00:03"]));
    assert!(got[1].get("ipv6").is_none(), "{}", got[1]);
    assert!(
        got[2].get("macs").is_none() && got[2].get("ipv6").is_none(),
        "absent, not empty: {}",
        got[2]
    );

    // What GET answered is what a PUT takes: the records survive a round trip unchanged.
    let (_, net) = s.get("/api/v2/networks/dc").await;
    let r = s.put("/api/v2/networks", net.clone()).await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    assert_eq!(s.get("/api/v2/networks/dc").await.1, net);
    let rows: Vec<Value> = got
        .iter()
        .map(|h| {
            let mut h = h.clone();
            let o = h.as_object_mut().unwrap();
            o.remove("status");
            o.remove("media");
            h
        })
        .collect();
    let r = s.post("/api/v2/hosts", Value::Array(rows)).await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    assert_eq!(
        s.get("/api/v2/hosts").await.1["hosts"][0]["macs"],
        got[0]["macs"]
    );

    // Settings are taken away by leaving them out.
    let r = s
        .put(
            "/api/v2/networks",
            json!({"id": net["id"], "name": "dc", "netmask": "255.255.255.0",
                "gateway": "192.0.2.1", "nameserver": "192.0.2.53", "ntpserver": "pool.ntp.org"}),
        )
        .await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    let (_, plain) = s.get("/api/v2/networks/dc").await;
    for gone in ["mtu", "bond", "routes", "ipv6_gateway", "vlan"] {
        assert!(plain.get(gone).is_none(), "{gone}: {plain}");
    }
}

#[tokio::test]
async fn every_bad_network_field_is_reported_at_once_by_its_path() {
    let s = Server::listening().await;
    let mut net = bonded();
    net["mtu"] = json!(10000);
    net["bond"] =
        json!({"mode": "active-backup", "lacp_rate": "fast", "xmit_hash_policy": "layer2"});
    net["routes"] = json!([
        {"to": "10.0.0.0/8", "via": "192.0.2.254"},
        {"to": "172.16.0.1/12", "via": "192.0.2.254"},
        {"to": "198.51.100.0/24", "via": "203.0.113.1"},
        {"to": "10.0.0.0/8", "via": "192.0.2.253"},
        {"to": "2001:db8:100::/48", "via": "192.0.2.254"}
    ]);
    net["ipv6_gateway"] = json!("192.0.2.1");
    let r = s.post("/api/v2/networks", net).await;
    assert_error(&r, 400, "invalid_network");
    let mut fields: Vec<String> = problems(&r.1).into_iter().map(|(_, f)| f).collect();
    fields.sort();
    assert_eq!(
        fields,
        [
            "bond.lacp_rate",
            "bond.xmit_hash_policy",
            "ipv6_gateway",
            "mtu",
            "routes[1].to",
            "routes[2].via",
            "routes[3].to",
            "routes[4].via"
        ]
    );
    assert!(said(&r.1, None, "bond.lacp_rate").contains("only an 802.3ad bond"));
    assert!(said(&r.1, None, "routes[1].to").contains("host bits set"));
    assert!(said(&r.1, None, "routes[2].via").contains("not in the group's subnet 192.0.2.0/24"));
    assert!(said(&r.1, None, "routes[3].to").contains("already routed by routes[0]"));
    assert!(said(&r.1, None, "mtu").contains("576 to 9216"));
    assert!(s.get("/api/v2/networks").await.1["networks"]
        .as_array()
        .unwrap()
        .is_empty());

    let r = s
        .post(
            "/api/v2/networks",
            json!({"name": "x", "netmask": "24", "gateway": "192.0.2.1", "nameserver": "192.0.2.53",
                "ntpserver": "ntp", "bond": {"mode": "lacp"}, "routes": "10.0.0.0/8"}),
        )
        .await;
    assert_error(&r, 400, "invalid_network");
    assert!(said(&r.1, None, "bond.mode").contains("802.3ad"));
    assert!(said(&r.1, None, "routes").contains("must be a list"));
}

#[tokio::test]
async fn hosts_report_every_bad_mac_and_ipv6_and_a_reused_nic_is_a_conflict() {
    let s = Server::listening().await;
    let r = s.post("/api/v2/networks", bonded()).await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    let row = |name: &str, ip: &str, extra: Value| {
        let mut h = host(name, ip, "centos7.4", "dc");
        for (k, v) in extra.as_object().unwrap() {
            h[k] = v.clone();
        }
        h
    };

    let r = s
        .post(
            "/api/v2/hosts",
            json!([
                row("node01", "192.0.2.21", json!({"macs": ["aa:bb:cc:00:00:01", "AA:BB:CC:00:00:01", "ff:ff:ff:ff:ff:ff", "01:00:5e:00:00:01", "00:00:00:00:00:00", "nope"]})),
                row("node02", "192.0.2.22", json!({"ipv6": "2001:db8:1::22/64"})),
                row("node03", "192.0.2.23", json!({"ipv6": "2001:db8::23"})),
            ]),
        )
        .await;
    assert_error(&r, 400, "invalid_hosts");
    assert_eq!(
        problems(&r.1),
        [
            (Some(0), "macs[1]".to_owned()),
            (Some(0), "macs[2]".to_owned()),
            (Some(0), "macs[3]".to_owned()),
            (Some(0), "macs[4]".to_owned()),
            (Some(0), "macs[5]".to_owned()),
            (Some(1), "ipv6".to_owned()),
            (Some(2), "ipv6".to_owned()),
        ]
    );
    assert!(
        said(&r.1, Some(1), "ipv6").contains("IPv6 gateway 2001:db8::1 is not in 2001:db8:1::/64")
    );
    assert!(said(&r.1, Some(2), "ipv6").contains("no prefix length"));

    // The same NIC on two hosts: 409, naming the host that has it.
    let r = s
        .post(
            "/api/v2/hosts",
            json!([
                row(
                    "node01",
                    "192.0.2.21",
                    json!({"macs": ["aa:bb:cc:00:00:01", "aa:bb:cc:00:00:02"]})
                ),
                row(
                    "node02",
                    "192.0.2.22",
                    json!({"macs": ["aa:bb:cc:00:00:03", "AA-BB-CC-00-00-02"]})
                ),
            ]),
        )
        .await;
    assert_error(&r, 409, "mac_in_use");
    assert_eq!(problems(&r.1), [(Some(1), "macs[1]".to_owned())]);
    let error = r.1["error"].as_str().unwrap();
    assert!(
        error.contains("aa:bb:cc:00:00:02 is a NIC of host node01"),
        "{error}"
    );
    // With other problems, the reused NIC joins their list.
    let r = s
        .post(
            "/api/v2/hosts",
            json!([
                row(
                    "node01",
                    "192.0.2.21",
                    json!({"macs": ["aa:bb:cc:00:00:01"]})
                ),
                row(
                    "node02",
                    "192.0.2.22",
                    json!({"macs": ["aa:bb:cc:00:00:01"], "ipv6": "bad"})
                ),
            ]),
        )
        .await;
    assert_error(&r, 400, "invalid_hosts");
    assert_eq!(
        problems(&r.1),
        [
            (Some(1), "ipv6".to_owned()),
            (Some(1), "macs[0]".to_owned())
        ]
    );

    // Two MACs on a network without a bond are taken (the plan warns of them), and a
    // link-local IPv6 gateway fits every prefix.
    let mut plain = bonded();
    plain["name"] = json!("flat");
    plain.as_object_mut().unwrap().remove("bond");
    plain["ipv6_gateway"] = json!("fe80::1");
    let r = s.post("/api/v2/networks", plain).await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    let mut two = row(
        "node04",
        "192.0.2.24",
        json!({"macs": ["02:00:00:00:00:01", "02:00:00:00:00:02"], "ipv6": "2001:db8:5::4/64"}),
    );
    two["network_group"] = json!("flat");
    let r = s.post("/api/v2/hosts", json!([two])).await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);

    // A group's new IPv6 gateway must fit its hosts' addresses.
    let (_, flat) = s.get("/api/v2/networks/flat").await;
    let mut moved = flat.clone();
    moved["ipv6_gateway"] = json!("2001:db8:9::1");
    let r = s.put("/api/v2/networks", moved).await;
    assert_error(&r, 422, "hosts_outside_subnet");
    assert!(
        said(&r.1, None, "ipv6_gateway").contains("host node04"),
        "{}",
        r.1
    );
}

#[tokio::test]
async fn records_without_the_new_fields_answer_the_seeds_shapes() {
    let s = Server::listening().await;
    let r = s.post("/api/v2/networks", network("lab")).await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    assert_eq!(r.1["status"], "Network lab created!");
    let (_, nets) = s.get("/api/v2/networks").await;
    let keys: Vec<&String> = nets["networks"][0].as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "gateway",
            "id",
            "name",
            "nameserver",
            "netmask",
            "ntpserver"
        ],
        "{nets}"
    );
    let r = s
        .post(
            "/api/v2/hosts",
            json!([host("node01", "10.1.0.11", "centos7.4", "lab")]),
        )
        .await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    let (_, hosts) = s.get("/api/v2/hosts").await;
    let h = &hosts["hosts"][0];
    for (k, v) in host("node01", "10.1.0.11", "centos7.4", "lab")
        .as_object()
        .unwrap()
    {
        assert_eq!(&h[k], v, "{k}");
    }
    assert!(h.get("macs").is_none() && h.get("ipv6").is_none(), "{h}");

    // The seed's v1 routes answer as they did.
    let r = s.post("/api/v1/keys", json!({"keys": [KEY_A]})).await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    assert_eq!(s.get("/api/v1/keys").await.1, json!({"keys": [KEY_A]}));
    assert_eq!(s.get("/api/v1/isos/map").await.1, json!({"iso_map": []}));
    assert_eq!(s.get("/api/v1/isos").await.1, json!({"isos": []}));
    let r = s.post("/api/v1/ip", json!({"svc_ip": "192.0.2.5"})).await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
}
