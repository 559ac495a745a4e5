//! Deploy figures: 160 hosts on a 20-chassis UCS Manager domain (simulated, 20 ms per
//! request) through the REST API — policies, the SVC template, a profile and a binding per
//! host — against a naive client that writes the same objects one `configConfMo` each.
//! Run: `cargo bench --no-default-features --bench deploy`.

mod common;

use bootsmith_sim::{Sim, SimConfig};
use bootsmith_ucs::Kind;
use common::{report, written, BLADES, CHASSIS};
use serde_json::json;

async fn domain() -> Sim {
    common::big_sim(SimConfig::ucsm()).await
}

#[tokio::main]
async fn main() {
    let sim = domain().await;
    let api = common::Api::start().await;
    common::add_group(&api, &sim, "big", "ucsm").await;
    common::add_boot_server_and_network(&api).await;
    let mut hosts = Vec::new();
    for c in 1..=CHASSIS {
        for s in 1..=BLADES {
            let n = (c - 1) * BLADES + s;
            hosts.push(common::host(&api, n, "big", format!("{c}/{s}")));
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
