//! UCS figures: inventory of a 20-chassis / 160-blade domain and a power
//! action on all 160 blades, through the REST API, against the simulator with
//! 20 ms of latency per request. Prints wall time and XML requests.
//! Run: `cargo bench --no-default-features --bench ucs`.

mod common;

use std::time::{Duration, Instant};

use bootsmith_sim::{Sim, SimConfig};
use serde_json::json;

#[tokio::main]
async fn main() {
    let sim = common::big_sim(SimConfig::ucsm()).await;

    let api = common::Api::start().await;

    let t = Instant::now();
    common::add_group(&api, &sim, "big", "ucsm").await;
    report(
        "create group (login check, login + logout)",
        t.elapsed(),
        &sim,
        0,
    );

    let before = sim.requests();
    let t = Instant::now();
    let inv = api
        .call(reqwest::Method::GET, "/api/v2/servers/big/servers", None)
        .await;
    assert_eq!(inv["servers"].as_array().unwrap().len(), 160);
    report(
        "inventory, 160 blades, cold (login + query)",
        t.elapsed(),
        &sim,
        before,
    );

    let mut warm = Vec::new();
    let before = sim.requests();
    for _ in 0..10 {
        let t = Instant::now();
        api.call(reqwest::Method::GET, "/api/v2/servers/big/servers", None)
            .await;
        warm.push(t.elapsed());
    }
    warm.sort();
    println!(
        "inventory, 160 blades, warm session: median {:.1} ms over 10 runs, {} XML requests each",
        warm[5].as_secs_f64() * 1000.0,
        (sim.requests() - before) / 10
    );

    let before = sim.requests();
    let t = Instant::now();
    let st = api
        .call(
            reqwest::Method::PUT,
            "/api/v2/servers/big/power/on",
            Some(json!({})),
        )
        .await;
    assert_eq!(st["status"]["blades"].as_array().unwrap().len(), 160);
    report(
        "power on all 160 blades (inventory + one batched write + state read)",
        t.elapsed(),
        &sim,
        before,
    );

    let t = Instant::now();
    loop {
        let ps = api
            .call(reqwest::Method::GET, "/api/v2/servers/big/powerstat", None)
            .await;
        if ps["status"]["blades"]
            .as_array()
            .unwrap()
            .iter()
            .all(|l| l.as_str().unwrap().ends_with(": on"))
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    println!(
        "all 160 blades report on after {:.0} ms (simulated hardware delay 500 ms)",
        t.elapsed().as_secs_f64() * 1000.0
    );
    api.app.close().await;
}

fn report(what: &str, took: Duration, sim: &Sim, before: u64) {
    println!(
        "{what}: {:.1} ms, {} XML requests",
        took.as_secs_f64() * 1000.0,
        sim.requests() - before
    );
}
