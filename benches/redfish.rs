//! Redfish fleet figures (issue 16): a fleet of BMCs (a round-robin mix of the simulator's
//! iLO 5, iLO 7, iDRAC 9, XCC and CIMC personas, 50 ms added to every request, 200 ms power
//! changes) deployed with restart through the REST API in one run — every host's boot ISO and
//! answer image mounted, read back, its one-time boot set and its server reset — against the
//! same work done one host after another (a one-BMC group per host, deployed in turn, on a
//! second set of BMCs of the same personas), whose slowest host is the target's yardstick.
//! Also counts the Redfish requests per host against the minimum the flow needs.
//!
//! Run: `cargo bench --no-default-features --bench redfish`; `BENCH_BMCS=10` for a smaller
//! fleet. Supermicro is left out: its single device refuses the deploy (no single-device
//! media yet). The iLO personas serve HPE's captures from
//! `crates/sim/fixtures/ilo`.

mod common;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use bootsmith_sim::redfish::{Persona, RedfishConfig, RedfishFaults, RedfishSim};
use reqwest::Method;
use serde_json::{json, Value};

/// Added to every Redfish request.
const LATENCY: Duration = Duration::from_millis(50);
/// How long a simulated power change takes.
const POWER_DELAY: Duration = Duration::from_millis(200);
/// The OS every host installs (the bootable CentOS 7-shaped ISO below).
const OS: &str = "centos7.4";

fn personas() -> Vec<Persona> {
    let mockups = bootsmith_sim::redfish::default_mockups();
    let all = [
        Persona::Ilo5,
        Persona::Ilo7,
        Persona::Idrac9,
        Persona::Xcc,
        Persona::Cimc,
    ];
    for p in &all {
        assert!(
            RedfishSim::available(*p, &mockups),
            "{p:?}: capture missing under {}",
            mockups.display()
        );
    }
    all.to_vec()
}

/// `n` BMCs, personas round-robin, each with its own serial (`<tag>-<i>`).
async fn bmcs(n: usize, personas: &[Persona], tag: &str) -> Vec<RedfishSim> {
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let persona = personas[i % personas.len()];
        let cfg = RedfishConfig {
            faults: RedfishFaults {
                latency: LATENCY,
                ..RedfishFaults::default()
            },
            power_delay: POWER_DELAY,
            serial: Some(format!("{tag}-{:03}", i + 1)),
            ..RedfishConfig::new(persona)
        };
        out.push(RedfishSim::start(cfg).await.unwrap());
    }
    out
}

fn row(sim: &RedfishSim) -> Value {
    json!({"ip": sim.address(), "user": "admin", "password": "password"})
}

fn host(name: String, n: usize, group: &str, server: usize) -> Value {
    json!({"name": name, "ip": format!("192.0.{}.{}", 10 + n / 200, n % 200 + 10),
        "os": OS, "role": "generic", "network_group": "mgmt", "server_group": group,
        "server": server.to_string()})
}

/// A bootable CentOS-7-shaped installer ISO (BIOS and UEFI entries), `svc/c7.iso`.
fn bootable_centos_iso(svc: &std::path::Path) {
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path();
    for (path, text) in [
        (".discinfo", "1505340016.186372\n7.4\nx86_64\n"),
        (".treeinfo", "[general]\nfamily = CentOS\n"),
        (
            "isolinux/isolinux.cfg",
            "label linux\n  kernel vmlinuz\n  append initrd=initrd.img quiet\n",
        ),
        ("isolinux/isolinux.bin", &"\u{90}".repeat(2048)),
        ("isolinux/vmlinuz", "kernel"),
    ] {
        let p = tree.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    std::fs::create_dir_all(tree.join("images")).unwrap();
    assert!(std::process::Command::new("mkfs.fat")
        .arg("-C")
        .arg(tree.join("images/efiboot.img"))
        .arg("1024")
        .output()
        .expect("mkfs.fat (apt-get install dosfstools)")
        .status
        .success());
    bootsmith_media::testing::pack_iso(
        tree,
        &svc.join("c7.iso"),
        "CentOS 7 x86_64",
        &bootsmith_media::testing::bios_and_uefi(
            "isolinux/isolinux.bin",
            "isolinux/boot.cat",
            "images/efiboot.img",
        ),
    );
}

/// True when the server booted its virtual CD (the boot ISO) since it started.
fn booted(sim: &RedfishSim) -> bool {
    sim.boots().iter().any(|r| {
        r.image
            .as_deref()
            .is_some_and(|i| i.ends_with(&format!("{OS}-boot.iso")))
    })
}

/// Wait (up to 30 s) until every one of `sims` booted its media.
async fn until_booted(sims: &[&RedfishSim]) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !sims.iter().all(|s| booted(s)) {
        assert!(
            Instant::now() < deadline,
            "not every server booted its media"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// Deploy `group` with restart; the time until the answer, until every server of `sims`
/// booted its media, and each BMC's requests during the deploy.
async fn deploy(
    api: &common::Api,
    group: &str,
    sims: &[&RedfishSim],
) -> (Duration, Duration, Vec<u64>) {
    let before: Vec<u64> = sims.iter().map(|s| s.requests()).collect();
    let t = Instant::now();
    let done = api
        .call(
            Method::POST,
            &format!("/api/v2/servers/{group}/deploy?restart=true"),
            None,
        )
        .await;
    let answered = t.elapsed();
    let requests: Vec<u64> = sims
        .iter()
        .zip(&before)
        .map(|(s, b)| s.requests() - b)
        .collect();
    let restarted = done["restarted"]
        .as_array()
        .or_else(|| done["result"]["restarted"].as_array())
        .map_or(0, Vec::len);
    assert_eq!(restarted, sims.len(), "{group}: {done}");
    until_booted(sims).await;
    (answered, t.elapsed(), requests)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The fewest requests one host's deploy needs on `persona`, and what they are.
///
/// Counted from the flow (crates/redfish/src: identity.rs, vmedia.rs mount, boot.rs
/// boot_once_cd, power.rs reset) with nothing read twice and nothing ejected (the slots start
/// empty): log in (1); the service root, the Systems collection and the system, to find the
/// system and its vendor (3); the VirtualMedia collection (1, +1 for the Manager where the slots
/// hang under it: iLO, CIMC) and each slot (k) to choose the slots; insert ×2 and read each slot back ×2
/// (4); the Boot PATCH and its read back (2); the reset (1). The Managers collection and the
/// manager (firmware, for the quirks) are not counted: the flow works without them.
fn minimum(on_manager: bool, slots: usize) -> (u64, String) {
    let find = 1 + on_manager as usize;
    let n = 1 + 3 + find + slots + 4 + 2 + 1;
    (
        n as u64,
        format!(
            "login 1 + root/Systems/system 3 + {}VirtualMedia 1 + slots {slots} + insert 2 + read back 2 + boot PATCH/read back 2 + reset 1",
            if on_manager { "Manager 1 + " } else { "" }
        ),
    )
}

#[tokio::main]
async fn main() {
    let n: usize = std::env::var("BENCH_BMCS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(50);
    let personas = personas();
    assert!(!personas.is_empty(), "no persona can start");

    let api = common::Api::start().await;
    common::add_boot_server_and_network(&api).await;
    bootable_centos_iso(api.app.svc_dir());
    api.call(
        Method::POST,
        "/api/v1/isos/map",
        Some(json!({"iso_map": [{"file": "/svc/c7.iso", "os": OS}]})),
    )
    .await;

    // Two sets of BMCs of the same personas: one for the fleet, one for the host-by-host run
    // (so neither finds the other's media to eject first).
    let fleet = bmcs(n, &personas, "FLEET").await;
    let single = bmcs(n, &personas, "SINGLE").await;

    let t = Instant::now();
    let rows: Vec<Value> = fleet.iter().map(row).collect();
    api.call(
        Method::POST,
        "/api/v2/servers",
        Some(json!({"name": "fleet", "type": "redfish", "bmcs": rows})),
    )
    .await;
    println!(
        "create the fleet group of {n} BMCs (each BMC's login checked): {:.0} ms",
        ms(t.elapsed())
    );
    let mut hosts = Vec::new();
    for (i, sim) in single.iter().enumerate() {
        api.call(
            Method::POST,
            "/api/v2/servers",
            Some(json!({"name": format!("one{:03}", i + 1), "type": "redfish", "credentials": row(sim)})),
        )
        .await;
        hosts.push(host(
            format!("one{:03}", i + 1),
            n + i,
            &format!("one{:03}", i + 1),
            1,
        ));
    }
    for i in 0..n {
        hosts.push(host(format!("rf{:03}", i + 1), i, "fleet", i + 1));
    }
    api.call(Method::POST, "/api/v2/hosts", Some(json!(hosts)))
        .await;
    let t = Instant::now();
    api.call(Method::POST, "/api/v2/deploy/images", None).await;
    println!(
        "images for {} hosts built: {:.0} ms",
        2 * n,
        ms(t.elapsed())
    );
    println!(
        "{n} BMCs ({}), {} ms per Redfish request, power changes {} ms; svc on 127.0.0.1",
        personas
            .iter()
            .map(|p| format!("{p:?}"))
            .collect::<Vec<_>>()
            .join(", "),
        LATENCY.as_millis(),
        POWER_DELAY.as_millis()
    );

    // Host after host: a one-BMC group each, deployed with restart in turn.
    let mut seq = Vec::new();
    let t = Instant::now();
    for (i, sim) in single.iter().enumerate() {
        let r = deploy(&api, &format!("one{:03}", i + 1), &[sim]).await;
        seq.push((sim.persona(), r.0, r.1, r.2[0]));
    }
    let sequential = t.elapsed();
    let seq_answered: Duration = seq.iter().map(|s| s.1).sum();

    // The fleet: one group of every BMC, one deploy with restart.
    let sims: Vec<&RedfishSim> = fleet.iter().collect();
    let (fleet_answered, fleet_booted, fleet_requests) = deploy(&api, "fleet", &sims).await;

    // Per persona: single-host times (answered) and requests, fleet requests.
    #[derive(Default)]
    struct Row {
        single_ms: Vec<f64>,
        single_req: Vec<u64>,
        fleet_req: Vec<u64>,
        slots: usize,
        on_manager: bool,
    }
    let mut by: BTreeMap<String, Row> = BTreeMap::new();
    for (p, answered, _, req) in &seq {
        let r = by.entry(format!("{p:?}")).or_default();
        r.single_ms.push(ms(*answered));
        r.single_req.push(*req);
    }
    for (sim, req) in fleet.iter().zip(&fleet_requests) {
        let r = by.entry(format!("{:?}", sim.persona())).or_default();
        r.fleet_req.push(*req);
        r.slots = sim.slots().len();
        r.on_manager = sim.vmedia_path().starts_with("/redfish/v1/Managers/");
    }
    let slowest = seq.iter().max_by_key(|s| s.1).expect("at least one host");

    println!();
    println!("single host, alone (one-BMC group, deploy with restart answered):");
    for (name, r) in &by {
        let max = r.single_ms.iter().cloned().fold(0.0, f64::max);
        let min = r.single_ms.iter().cloned().fold(f64::MAX, f64::min);
        println!(
            "  {name:<7} {min:.0}–{max:.0} ms over {} hosts",
            r.single_ms.len()
        );
    }
    println!(
        "slowest single host: {:.0} ms ({:?})",
        ms(slowest.1),
        slowest.0
    );
    println!(
        "sequential, {n} hosts one after another: {:.0} ms deploys answered ({:.0} ms with each boot waited for)",
        ms(seq_answered),
        ms(sequential)
    );
    println!(
        "fleet, {n} hosts in one deploy with restart: {:.0} ms answered (every media mounted and read back, every reset sent); every server booted its media at {:.0} ms",
        ms(fleet_answered),
        ms(fleet_booted)
    );
    let ratio = fleet_answered.as_secs_f64() / slowest.1.as_secs_f64();
    println!(
        "fleet / slowest single host: {ratio:.2}× (target ≤ 1.5×: {})",
        if ratio <= 1.5 { "met" } else { "NOT met" }
    );
    println!(
        "sequential / fleet: {:.1}× (answered times)",
        seq_answered.as_secs_f64() / fleet_answered.as_secs_f64()
    );

    println!();
    println!("Redfish requests per host (fleet deploy; alone in brackets) vs the minimum:");
    let mut min_total = 0;
    for (name, r) in &by {
        let avg = |v: &[u64]| v.iter().sum::<u64>() as f64 / v.len().max(1) as f64;
        let (min, how) = minimum(r.on_manager, r.slots);
        min_total += min * r.fleet_req.len() as u64;
        println!(
            "  {name:<7} {:.1} ({:.1}) vs minimum {min}: {how}",
            avg(&r.fleet_req),
            avg(&r.single_req)
        );
    }
    let total: u64 = fleet_requests.iter().sum();
    println!(
        "  all     {:.1} per host ({total} requests for {n} hosts) vs minimum {:.1}",
        total as f64 / n as f64,
        min_total as f64 / n as f64
    );
    api.app.close().await;
}
