//! UCS Central figures: 800 hosts across 5 simulated domains of 160 blades each (20 ms per
//! request) through the REST API: inventory of all 800 servers, the deploy plan, the deploy
//! (global policies, the SVC template, a global profile and a binding per host), a second
//! deploy that finds nothing to write, and a naive client writing the same objects one
//! `configConfMo` each.
//! Run: `cargo bench --no-default-features --bench ucsc`.

mod common;

use std::time::Instant;

use bootsmith_sim::{Sim, SimConfig};
use bootsmith_ucs::Kind;
use common::{report, written, BLADES, CHASSIS};
use reqwest::Method;
use serde_json::json;

const DOMAINS: u32 = 5;

async fn central() -> Sim {
    common::big_sim(SimConfig::ucsc(DOMAINS)).await
}

#[tokio::main]
async fn main() {
    let sim = central().await;
    let api = common::Api::start().await;
    common::add_group(&api, &sim, "central", "ucsc").await;
    common::add_boot_server_and_network(&api).await;

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
                hosts.push(common::host(&api, n, "central", server));
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
