//! Deploy figures: 160 hosts on a 20-chassis UCS Manager domain (simulated, 20 ms per
//! request) through the REST API — policies, the SVC template, a profile and a binding per
//! host — against a naive client that writes the same objects one `configConfMo` each.
//! Run: `cargo bench --no-default-features --bench deploy`.

mod common;

use std::time::Duration;

use bootsmith_sim::{Domain, Faults, Sim, SimConfig};
use bootsmith_ucs::Kind;
use common::{report, written};
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

    common::plan_deploy_again(&api, &sim, "big", 160).await;

    // Baseline: the same objects, one configConfMo each, on a fresh domain.
    let objects_written = written(&sim);
    let naive_sim = domain().await;
    let (took, before) = common::one_by_one(&naive_sim, Kind::Ucsm, &objects_written).await;
    report(
        "naive client: the same objects, one configConfMo each",
        took,
        &naive_sim,
        before,
        objects_written.len(),
    );
    api.app.close().await;
}
