//! UCS Central figures: 800 hosts across 5 simulated domains of 160 blades each (20 ms per
//! request) through the REST API: inventory of all 800 servers, the deploy plan, the deploy
//! (global policies, the SVC template, a global profile and a binding per host), a second
//! deploy that finds nothing to write, and a naive client writing the same objects one
//! `configConfMo` each.
//! Run: `cargo bench --no-default-features --bench ucsc`.

mod common;

use std::time::{Duration, Instant};

use bootsmith_sim::{Domain, Faults, Sim, SimConfig};
use bootsmith_ucs::Kind;
use common::{report, written};
use reqwest::Method;
use serde_json::json;

const LATENCY: Duration = Duration::from_millis(20);
const DOMAINS: u32 = 5;
const CHASSIS: u32 = 20;
const BLADES: u32 = 8;

async fn central() -> Sim {
    Sim::start(SimConfig {
        domain: Domain {
            chassis: CHASSIS,
            blades_per_chassis: BLADES,
            rack_units: 0,
            ..Domain::ucsc(DOMAINS)
        },
        effect_delay: Duration::from_millis(500),
        faults: Faults {
            latency: LATENCY,
            ..Faults::default()
        },
        ..SimConfig::ucsc(DOMAINS)
    })
    .await
    .unwrap()
}

#[tokio::main]
async fn main() {
    let sim = central().await;
    let api = common::Api::start().await;
    api.call(
        Method::POST,
        "/api/v2/servers",
        Some(json!({"name": "central", "type": "ucsc",
        "credentials": {"ip": sim.address(), "user": "admin", "password": "password"}})),
    )
    .await;
    api.call(
        Method::POST,
        "/api/v1/ip",
        Some(json!({"svc_ip": "192.0.2.10"})),
    )
    .await;
    api.call(
        Method::POST,
        "/api/v2/networks",
        Some(json!({"name": "mgmt", "netmask": "255.255.0.0",
        "gateway": "192.0.2.1", "nameserver": "192.0.2.53", "ntpserver": "192.0.2.123"})),
    )
    .await;

    let before = sim.requests();
    let t = Instant::now();
    let list = api
        .call(Method::GET, "/api/v2/servers/central/servers", None)
        .await;
    let servers = list["servers"].as_array().map_or(0, Vec::len);
    report(
        &format!("inventory of {servers} servers in {DOMAINS} domains"),
        t.elapsed(),
        &sim,
        before,
        servers,
    );

    let mut hosts = Vec::new();
    let mut n = 0;
    for d in 1..=DOMAINS {
        for c in 1..=CHASSIS {
            for s in 1..=BLADES {
                // The first blade of the first domain runs a profile of its own already.
                if (d, c, s) == (1, 1, 1) {
                    continue;
                }
                n += 1;
                let server = format!("{}/{c}/{s}", 1000 + d);
                hosts.push(json!({"name": format!("node{n:03}"), "ip": format!("192.0.{}.{}", 10 + n / 200, n % 200 + 10),
                    "os": "rhel8.4", "role": "generic", "network_group": "mgmt", "server_group": "central",
                    "server": server}));
                std::fs::write(api.app.svc_dir().join(format!("node{n:03}.img")), b"x").unwrap();
            }
        }
    }
    std::fs::write(api.app.svc_dir().join("rhel8.4-boot.iso"), b"x").unwrap();
    let count = hosts.len();
    api.call(Method::POST, "/api/v2/hosts", Some(json!(hosts)))
        .await;

    common::plan_deploy_again(&api, &sim, "central", count).await;

    // Baseline: the same objects, one configConfMo each, on a fresh Central.
    let objects_written = written(&sim);
    let naive = central().await;
    let (took, before) = common::one_by_one(&naive, Kind::Ucsc, &objects_written).await;
    report(
        "naive client: the same objects, one configConfMo each",
        took,
        &naive,
        before,
        objects_written.len(),
    );
    api.app.close().await;
}
