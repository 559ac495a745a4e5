//! Deploy figures: 160 hosts on a 20-chassis UCS Manager domain (simulated, 20 ms per
//! request) through the REST API — policies, the SVC template, a profile and a binding per
//! host — against a naive client that writes the same objects one `configConfMo` each.
//! Run: `cargo bench --no-default-features --bench deploy`.

mod common;

use std::time::{Duration, Instant};

use bootsmith_sim::{Domain, Faults, Sim, SimConfig};
use bootsmith_ucs::xml::Mo;
use bootsmith_ucs::{Endpoint, Kind, Target, Trust};
use serde_json::json;

const LATENCY: Duration = Duration::from_millis(20);

async fn domain() -> Sim {
    Sim::start(SimConfig {
        domain: Domain {
            chassis: 20,
            blades_per_chassis: 8,
            rack_units: 0,
            ..Domain::ucsm()
        },
        effect_delay: Duration::from_millis(500),
        faults: Faults {
            latency: LATENCY,
            ..Faults::default()
        },
        ..SimConfig::ucsm()
    })
    .await
    .unwrap()
}

/// The classes a deploy writes, as they landed in the simulator (parents before children).
fn written(sim: &Sim) -> Vec<Mo> {
    let mut out: Vec<Mo> = sim.with_tree(|t| {
        t.subtree("org-root")
            // Only what the deploy made: a fresh domain has default policies of its own.
            .filter(|(dn, _)| dn.contains("SVC_") || dn.contains("/ls-node"))
            // The manager gives instances their template's pool requirement itself.
            .filter(|(dn, _)| !(dn.contains("/ls-node") && dn.ends_with("/pn-req")))
            .filter(|(_, o)| {
                o.class.starts_with("cimcvmedia")
                    || (o.class.starts_with("lsboot") && o.class != "lsbootDef")
                    || o.class.starts_with("computePool")
                    || ["lsServer", "lsRequirement", "lsBinding"].contains(&o.class.as_str())
            })
            .map(|(dn, o)| {
                let mut m = Mo::new(o.class.clone()).with("dn", dn);
                for (k, v) in &o.attrs {
                    // What a client sends: the writable properties it chose, not the manager's state.
                    let state = k.starts_with("oper")
                        || k.starts_with("config")
                        || ["assocState", "assignState", "pnDn"].contains(&k.as_str());
                    if !state || o.class == "lsBinding" {
                        m = m.with(k.as_str(), v.as_str());
                    }
                }
                m
            })
            .collect()
    });
    out.sort_by_key(|m| m.get("dn").matches('/').count());
    out
}

#[tokio::main]
async fn main() {
    let sim = domain().await;
    let api = common::Api::start().await;
    api.call(
        reqwest::Method::POST,
        "/api/v2/servers",
        Some(json!({"name": "big", "type": "ucsm",
        "credentials": {"ip": sim.address(), "user": "admin", "password": "password"}})),
    )
    .await;
    api.call(
        reqwest::Method::POST,
        "/api/v1/ip",
        Some(json!({"svc_ip": "192.0.2.10"})),
    )
    .await;
    api.call(
        reqwest::Method::POST,
        "/api/v2/networks",
        Some(json!({"name": "mgmt", "netmask": "255.255.0.0",
        "gateway": "192.0.2.1", "nameserver": "192.0.2.53", "ntpserver": "192.0.2.123"})),
    )
    .await;
    let mut hosts = Vec::new();
    for c in 1..=20 {
        for s in 1..=8 {
            let n = (c - 1) * 8 + s;
            hosts.push(json!({"name": format!("node{n:03}"), "ip": format!("192.0.{}.{}", 10 + n / 200, n % 200 + 10),
                "os": "rhel8.4", "role": "generic", "network_group": "mgmt", "server_group": "big",
                "server": format!("{c}/{s}")}));
            std::fs::write(api.app.svc_dir().join(format!("node{n:03}.img")), b"x").unwrap();
        }
    }
    std::fs::write(api.app.svc_dir().join("rhel8.4-boot.iso"), b"x").unwrap();
    api.call(reqwest::Method::POST, "/api/v2/hosts", Some(json!(hosts)))
        .await;

    let before = sim.requests();
    let t = Instant::now();
    let plan = api
        .call(
            reqwest::Method::POST,
            "/api/v2/servers/big/deploy?dry_run=true",
            None,
        )
        .await;
    let objects = plan["objects"].as_array().unwrap().len();
    report(
        "plan (dry run), 160 hosts",
        t.elapsed(),
        &sim,
        before,
        objects,
    );

    let before = sim.requests();
    let t = Instant::now();
    api.call(reqwest::Method::POST, "/api/v2/servers/big/deploy", None)
        .await;
    report(
        "deploy 160 hosts (one batched write)",
        t.elapsed(),
        &sim,
        before,
        objects,
    );

    let before = sim.requests();
    let t = Instant::now();
    let again = api
        .call(reqwest::Method::POST, "/api/v2/servers/big/deploy", None)
        .await;
    assert!(again["objects"]
        .as_array()
        .unwrap()
        .iter()
        .all(|o| o["action"] == "unchanged"));
    report(
        "deploy again (nothing to write)",
        t.elapsed(),
        &sim,
        before,
        objects,
    );

    // Baseline: the same objects, one configConfMo each, on a fresh domain.
    let objects_written = written(&sim);
    let naive_sim = domain().await;
    let ep = Endpoint::new(Target {
        address: naive_sim.address(),
        user: "admin".into(),
        password: "password".into(),
        kind: Kind::Ucsm,
        trust: Trust::Verify,
        timeout: Duration::from_secs(30),
    })
    .unwrap();
    ep.login().await.unwrap();
    let before = naive_sim.requests();
    let t = Instant::now();
    for o in &objects_written {
        let dn = o.get("dn").to_owned();
        ep.call(
            Mo::new("configConfMo")
                .with("dn", dn.as_str())
                .with("inHierarchical", "false")
                .child(Mo::new("inConfig").child(o.clone().with("status", "created"))),
        )
        .await
        .unwrap();
    }
    report(
        "naive client: the same objects, one configConfMo each",
        t.elapsed(),
        &naive_sim,
        before,
        objects_written.len(),
    );
    api.app.close().await;
}

fn report(what: &str, took: Duration, sim: &Sim, before: u64, objects: usize) {
    println!(
        "{what}: {:.0} ms, {} XML requests, {objects} objects",
        took.as_secs_f64() * 1000.0,
        sim.requests() - before
    );
}
