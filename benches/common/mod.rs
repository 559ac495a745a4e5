//! An in-process Bootsmith API on loopback over a fresh data dir, for the benchmarks.

use std::time::Duration;

use bootsmith_sim::{Domain, Faults, Sim, SimConfig};
use bootsmith_ucs::xml::Mo;
use bootsmith_ucs::{Endpoint, Kind, Target, Trust};
use serde_json::Value;

/// The latency the simulators add to every request.
pub const LATENCY: Duration = Duration::from_millis(20);
/// Chassis per domain.
pub const CHASSIS: u32 = 20;
/// Blades per chassis.
pub const BLADES: u32 = 8;

/// A simulator of `cfg` grown to [`CHASSIS`] chassis of [`BLADES`] blades per domain, no
/// rack units, with [`LATENCY`] on every request and effects after half a second.
#[allow(dead_code)]
pub async fn big_sim(cfg: SimConfig) -> Sim {
    Sim::start(SimConfig {
        domain: Domain {
            chassis: CHASSIS,
            blades_per_chassis: BLADES,
            rack_units: 0,
            ..cfg.domain
        },
        effect_delay: Duration::from_millis(500),
        faults: Faults {
            latency: LATENCY,
            ..Faults::default()
        },
        ..cfg
    })
    .await
    .unwrap()
}

/// Adds the server group `name` of `kind`, managed by `sim`.
#[allow(dead_code)]
pub async fn add_group(api: &Api, sim: &Sim, name: &str, kind: &str) {
    api.call(
        reqwest::Method::POST,
        "/api/v2/servers",
        Some(serde_json::json!({"name": name, "type": kind,
        "credentials": {"ip": sim.address(), "user": "admin", "password": "password"}})),
    )
    .await;
}

/// Sets the boot server's address to 127.0.0.1, where the API listens (deploys check the
/// install-media URLs there, and the simulated servers mount them from it), and adds the
/// network group `mgmt`.
#[allow(dead_code)]
pub async fn add_boot_server_and_network(api: &Api) {
    api.call(
        reqwest::Method::POST,
        "/api/v1/ip",
        Some(serde_json::json!({"svc_ip": "127.0.0.1"})),
    )
    .await;
    api.call(
        reqwest::Method::POST,
        "/api/v2/networks",
        Some(serde_json::json!({"name": "mgmt", "netmask": "255.255.0.0",
        "gateway": "192.0.2.1", "nameserver": "192.0.2.53", "ntpserver": "192.0.2.123"})),
    )
    .await;
}

/// Host `node{n:03}` (RHEL 8.4) of `group` on `server`, its answer image placed in svc.
#[allow(dead_code)]
pub fn host(api: &Api, n: u32, group: &str, server: String) -> Value {
    std::fs::write(api.app.svc_dir().join(format!("node{n:03}.img")), b"x").unwrap();
    serde_json::json!({"name": format!("node{n:03}"), "ip": format!("192.0.{}.{}", 10 + n / 200, n % 200 + 10),
        "os": "rhel8.4", "role": "generic", "network_group": "mgmt", "server_group": group,
        "server": server})
}

/// A running API and a client that sends the token.
pub struct Api {
    pub app: bootsmith_core::App,
    pub base: String,
    token: String,
    client: reqwest::Client,
    _dir: tempfile::TempDir,
}

impl Api {
    pub async fn start() -> Api {
        let bootsmith_core::testing::TempApp { app, dir } =
            bootsmith_core::testing::TempApp::new().await;
        let state = bootsmith_api::ApiState::new(app.clone(), true)
            .await
            .unwrap();
        let token = bootsmith_core::auth::token(&app)
            .await
            .unwrap()
            .expose()
            .to_owned();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(bootsmith_api::serve(
            listener,
            state,
            std::future::pending(),
        ));
        Api {
            app,
            base,
            token,
            client: reqwest::Client::new(),
            _dir: dir,
        }
    }

    /// Send a request and return the JSON answer; any failure status aborts the benchmark.
    pub async fn call(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Value {
        let mut req = self
            .client
            .request(method, format!("{}{path}", self.base))
            .bearer_auth(&self.token);
        if let Some(b) = body {
            req = req.json(&b);
        }
        let r = req.send().await.unwrap();
        let status = r.status();
        let text = r.text().await.unwrap();
        assert!(status.is_success(), "{path}: {status} {text}");
        serde_json::from_str(&text).unwrap()
    }
}

/// The classes a deploy writes, as they landed in the simulator (parents before children).
#[allow(dead_code)] // the deploy benches use it, the others share this module
pub fn written(sim: &Sim) -> Vec<Mo> {
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
                        // UCS Central: the domain a global profile landed in.
                        || k.starts_with("domain")
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

/// One line of figures: wall time, XML requests the simulator saw since `before`, objects.
#[allow(dead_code)]
pub fn report(what: &str, took: Duration, sim: &Sim, before: u64, objects: usize) {
    println!(
        "{what}: {:.0} ms, {} XML requests, {objects} objects",
        took.as_secs_f64() * 1000.0,
        sim.requests() - before
    );
}

/// The baseline client: writes `objects` one `configConfMo` each, as a naive client would;
/// the time it took and the simulator's request count before it (after logging in).
#[allow(dead_code)]
pub async fn one_by_one(sim: &Sim, kind: Kind, objects: &[Mo]) -> (Duration, u64) {
    let ep = Endpoint::new(Target {
        address: sim.address(),
        user: "admin".into(),
        password: "password".into(),
        kind,
        trust: Trust::Verify,
        timeout: Duration::from_secs(30),
    })
    .unwrap();
    ep.login().await.unwrap();
    let before = sim.requests();
    let t = std::time::Instant::now();
    for o in objects {
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
    (t.elapsed(), before)
}

/// POSTs `path` and reports it as `what` (wall time, requests, `objects`); the answer.
async fn timed_post(api: &Api, sim: &Sim, what: String, path: &str, objects: usize) -> Value {
    let before = sim.requests();
    let t = std::time::Instant::now();
    let answer = api.call(reqwest::Method::POST, path, None).await;
    report(&what, t.elapsed(), sim, before, objects);
    answer
}

/// Deploy the group `group` of `count` hosts three ways, printing each one's figures: the
/// plan (dry run), the deploy (one batched write), and the same deploy again (nothing left
/// to write, which it asserts).
#[allow(dead_code)]
pub async fn plan_deploy_again(api: &Api, sim: &Sim, group: &str, count: usize) {
    let path = format!("/api/v2/servers/{group}/deploy");
    let before = sim.requests();
    let t = std::time::Instant::now();
    let plan = api
        .call(reqwest::Method::POST, &format!("{path}?dry_run=true"), None)
        .await;
    let objects = plan["objects"].as_array().map_or(0, Vec::len);
    report(
        &format!("plan (dry run), {count} hosts"),
        t.elapsed(),
        sim,
        before,
        objects,
    );

    let deploy = |what: String| timed_post(api, sim, what, &path, objects);
    deploy(format!("deploy {count} hosts (one batched write)")).await;
    let again = deploy("deploy again (nothing to write)".into()).await;
    assert!(again["objects"]
        .as_array()
        .unwrap()
        .iter()
        .all(|o| o["action"] == "unchanged"));
}
