//! Template parameters over real HTTP: the defaults, network groups, server groups and hosts
//! each give some; a host's templates see the winning value of each key, the answer preview
//! says where each came from, and a secret is stored encrypted and shown only as `********`
//! (while the answer file on the host's disk has its value).

mod common;

use common::*;
use reqwest::StatusCode;
use serde_json::{json, Value};

const SECRET: &str = "hunter2-not-for-logs";

/// Everything that lands in the data dir (database, WAL, logs), as bytes.
fn data_bytes(s: &Server) -> Vec<u8> {
    let mut all = Vec::new();
    let mut dirs = vec![s.data()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if let Ok(b) = std::fs::read(&p) {
                all.extend(b);
            }
        }
    }
    all
}

fn contains(hay: &[u8], needle: &str) -> bool {
    hay.windows(needle.len()).any(|w| w == needle.as_bytes())
}

/// `(key, value, from, record)` of each parameter of a preview.
fn sources(preview: &Value) -> Vec<(String, String, String, String)> {
    preview["params"]
        .as_array()
        .unwrap_or_else(|| panic!("params in {preview}"))
        .iter()
        .map(|p| {
            (
                p["key"].as_str().unwrap().to_owned(),
                p["value"].as_str().unwrap().to_owned(),
                p["from"].as_str().unwrap().to_owned(),
                p["record"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect()
}

fn owned(rows: &[(&str, &str, &str, &str)]) -> Vec<(String, String, String, String)> {
    rows.iter()
        .map(|(a, b, c, d)| (a.to_string(), b.to_string(), c.to_string(), d.to_string()))
        .collect()
}

fn kickstart_on_disk(s: &Server, host: &str) -> String {
    let (_, files) =
        bootsmith_media::fat::read_image(&s.svc().join(format!("{host}.img"))).unwrap();
    let ks = files.iter().find(|f| f.name == "ks.cfg").expect("ks.cfg");
    String::from_utf8(ks.contents.clone()).unwrap()
}

async fn images(s: &Server) {
    let (st, body) = s.post("/api/v2/deploy/images", json!(["node01"])).await;
    assert_eq!(st, StatusCode::OK, "{body}");
}

#[tokio::test]
async fn a_hosts_own_parameter_wins_over_its_server_groups_its_network_groups_and_the_defaults() {
    let s = Server::listening().await;
    set_svc_ip(&s, "192.0.2.10").await;
    let (st, body) = s
        .put(
            "/api/v2/params",
            json!({"timezone": "UTC", "repo_url": "http://mirror.example/default"}),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{body}");
    assert_eq!(
        body,
        json!({"repo_url": "http://mirror.example/default", "timezone": "UTC"})
    );
    let mut net = network("mgmt");
    net["params"] = json!({"timezone": "Europe/Berlin"});
    let (st, body) = s.post("/api/v2/networks", net).await;
    assert_eq!(st, StatusCode::CREATED, "{body}");
    let mut pod = group("pod1", "pw");
    pod["params"] = json!({"repo_url": "http://mirror.example/pod1"});
    let (st, body) = s.post("/api/v2/servers", pod).await;
    assert_eq!(st, StatusCode::CREATED, "{body}");
    assert_eq!(
        body["params"],
        json!({"repo_url": "http://mirror.example/pod1"}),
        "{body}"
    );

    let mut one = host("node01", "10.1.0.11", "centos7.4", "mgmt");
    one["server_group"] = json!("pod1");
    one["params"] = json!({
        "timezone": "Asia/Tokyo",
        "repo_password": {"value": SECRET, "secret": true},
    });
    let two = host("node02", "10.1.0.12", "centos7.4", "mgmt");
    let (st, body) = s.post("/api/v2/hosts", json!([one, two])).await;
    assert!(st.is_success(), "{body}");

    // The record shows the secret masked, never its value.
    let (_, list) = s.get("/api/v2/hosts").await;
    assert_eq!(
        list["hosts"][0]["params"],
        json!({"repo_password": {"value": "********", "secret": true}, "timezone": "Asia/Tokyo"})
    );
    assert!(!list.to_string().contains(SECRET));

    // The preview says where each value came from, and the default kickstart uses the zone.
    let (st, p1) = s.get("/api/v2/hosts/node01/answer").await;
    assert_eq!(st, StatusCode::OK, "{p1}");
    assert_eq!(
        sources(&p1),
        owned(&[
            ("repo_password", "********", "host", "node01"),
            (
                "repo_url",
                "http://mirror.example/pod1",
                "server_group",
                "pod1"
            ),
            ("timezone", "Asia/Tokyo", "host", "node01"),
        ])
    );
    assert!(
        p1["text"]
            .as_str()
            .unwrap()
            .contains("\ntimezone Asia/Tokyo --utc"),
        "{}",
        p1["text"]
    );
    let (_, p2) = s.get("/api/v2/hosts/node02/answer").await;
    assert_eq!(
        sources(&p2),
        owned(&[
            ("repo_url", "http://mirror.example/default", "default", ""),
            ("timezone", "Europe/Berlin", "network_group", "mgmt"),
        ])
    );
    assert!(p2["text"]
        .as_str()
        .unwrap()
        .contains("\ntimezone Europe/Berlin --utc"));

    // An operator's template reads any key; the preview masks the secret, the disk has it.
    std::fs::write(
        s.svc().join("centos7.4.tmpl"),
        "# site kickstart\nurl --url={{ params.repo_url }}\n# repo password {{ params.repo_password }}\n",
    )
    .unwrap();
    let (_, p1) = s.get("/api/v2/hosts/node01/answer").await;
    let text = p1["text"].as_str().unwrap();
    assert!(
        text.contains("url --url=http://mirror.example/pod1\n# repo password ********"),
        "{text}"
    );
    bootable_centos_iso(&s);
    let map = json!({"iso_map": [{"file": "/svc/c7.iso", "os": "centos7.4"}]});
    assert_eq!(s.post("/api/v1/isos/map", map).await.0, StatusCode::OK);
    images(&s).await;
    assert!(kickstart_on_disk(&s, "node01").contains(&format!("# repo password {SECRET}\n")));

    // What a client reads and sends back keeps the secret; a changed value takes effect.
    let mut records = records_of(&list["hosts"]);
    records[0]["params"]["timezone"] = json!("America/Chicago");
    let (st, body) = s.put("/api/v2/hosts", records).await;
    assert!(st.is_success(), "{body}");
    let (_, list) = s.get("/api/v2/hosts").await;
    assert_eq!(
        list["hosts"][0]["media"]["state"], "stale",
        "{}",
        list["hosts"][0]
    );
    images(&s).await;
    let ks = kickstart_on_disk(&s, "node01");
    assert!(ks.contains(&format!("# repo password {SECRET}\n")), "{ks}");

    // A change above the host (its server group's value) makes its media stale too.
    let (_, groups) = s.get("/api/v2/servers").await;
    let mut pod = groups["servers"][0].clone();
    pod["params"] = json!({"repo_url": "http://mirror.example/pod1-new"});
    pod["check_login"] = json!(false);
    let (st, body) = s.put("/api/v2/servers", pod).await;
    assert_eq!(st, StatusCode::OK, "{body}");
    let (_, list) = s.get("/api/v2/hosts").await;
    assert_eq!(list["hosts"][0]["media"]["state"], "stale");
    assert_eq!(list["hosts"][1]["media"]["state"], "missing");

    // The secret is nowhere in the data dir (database, its WAL, the log) or the log API.
    assert!(!contains(&data_bytes(&s), SECRET));
    let (_, logs) = s.get("/api/v2/logs?limit=1000").await;
    assert!(!logs.to_string().contains(SECRET));
}

#[tokio::test]
async fn a_bad_parameter_is_refused_at_its_place_and_nothing_is_stored() {
    let s = Server::start().await;
    let (st, _) = s.put("/api/v2/params", json!({"site": "fra1"})).await;
    assert_eq!(st, StatusCode::OK);

    let r = s
        .put("/api/v2/params", json!({"Site": "x", "n": 3, "ok": "fine"}))
        .await;
    assert_error(&r, 400, "invalid_setting");
    let fields: Vec<&str> = r.1["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["params.Site", "params.n"], "{}", r.1);
    assert!(
        r.1["error"].as_str().unwrap().contains("a-z, 0-9 and _"),
        "{}",
        r.1
    );
    assert_eq!(s.get("/api/v2/params").await.1, json!({"site": "fra1"}));

    // A secret sent without a value has nothing to keep on a new record.
    let mut net = network("mgmt");
    net["params"] = json!({"token": {"secret": true}});
    let r = s.post("/api/v2/networks", net).await;
    assert_error(&r, 400, "invalid_network");
    assert_eq!(r.1["details"][0]["field"], "params.token", "{}", r.1);
    assert_eq!(s.get("/api/v2/networks").await.1["networks"], json!([]));

    let (st, _) = s.post("/api/v2/networks", network("mgmt")).await;
    assert_eq!(st, StatusCode::CREATED);
    let mut h = host("node01", "10.1.0.11", "centos7.4", "mgmt");
    h["params"] = json!(["timezone"]);
    let r = s.post("/api/v2/hosts", json!([h])).await;
    assert_error(&r, 400, "invalid_hosts");
    assert_eq!(r.1["details"][0]["field"], "params", "{}", r.1);
    let mut pod = group("pod1", "pw");
    pod["params"] = json!({"x": "a\u{7}b"});
    let r = s.post("/api/v2/servers", pod).await;
    assert_error(&r, 400, "invalid_server_group");
    assert_eq!(r.1["details"][0]["field"], "params.x", "{}", r.1);
    assert_eq!(s.get("/api/v2/hosts").await.1["hosts"], json!([]));
}
