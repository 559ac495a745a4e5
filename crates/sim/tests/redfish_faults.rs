//! Faults injected in front of any persona: 503 with `Retry-After`, 202 task monitors,
//! sessions expiring mid-flow, dropped connections, latency, media that cannot be fetched, and
//! many BMCs at once.

use std::time::{Duration, Instant};

use serde_json::json;

use bootsmith_sim::redfish::{Persona, RedfishConfig, RedfishFaults, RedfishSim};

mod rf;
use rf::{media, start, start_with, until, Client};

const SYS: &str = "/redfish/v1/Systems/1";

#[tokio::test]
async fn injected_503s_carry_retry_after() {
    let sim = start(Persona::Xcc).await;
    let c = Client::logged_in(&sim).await;
    sim.set_faults(RedfishFaults {
        fail_next: 2,
        retry_after: Some(3),
        ..Default::default()
    });
    for _ in 0..2 {
        let a = c.get(SYS).await;
        assert_eq!(a.status, 503);
        assert_eq!(a.header("retry-after").as_deref(), Some("3"));
        assert!(!a.message_id().is_empty());
    }
    assert_eq!(c.get(SYS).await.status, 200);
}

#[tokio::test]
async fn actions_through_a_task_monitor() {
    let sim = start(Persona::Cimc).await;
    let m = media().await;
    let c = Client::logged_in(&sim).await;
    sim.set_faults(RedfishFaults {
        task_polls: 3,
        ..Default::default()
    });
    let iso = format!("{}boot.iso", m.share());
    let a = c
        .post(
            "/redfish/v1/Managers/CIMC/VirtualMedia/0/Actions/VirtualMedia.InsertMedia",
            Some(json!({"Image": iso})),
        )
        .await;
    assert_eq!(a.status, 202);
    assert_eq!(a.header("retry-after").as_deref(), Some("1"));
    let monitor = a.header("location").expect("a task monitor");
    // Nothing happens until the monitor is followed.
    assert!(!sim.slot("0").unwrap().inserted);
    assert_eq!(c.get(&monitor).await.status, 202);
    assert_eq!(c.get(&monitor).await.status, 202);
    let done = c.get(&monitor).await;
    assert_eq!(done.status, 204);
    assert!(sim.slot("0").unwrap().inserted);
    assert_eq!(c.get(&monitor).await.status, 404);
    // An action that fails gives its error at the end.
    let a = c
        .post(
            &format!(
                "/redfish/v1/Systems/{}/Actions/ComputerSystem.Reset",
                bootsmith_sim::redfish::CIMC_SERIAL
            ),
            Some(json!({"ResetType": "GracefulRestart"})),
        )
        .await;
    assert_eq!(a.status, 202);
    let monitor = a.header("location").unwrap();
    c.get(&monitor).await;
    c.get(&monitor).await;
    assert_eq!(c.get(&monitor).await.status, 400);
}

#[tokio::test]
async fn sessions_expire_after_n_requests_or_a_ttl() {
    let sim = start(Persona::Idrac9).await;
    sim.set_faults(RedfishFaults {
        session_requests: Some(3),
        ..Default::default()
    });
    let sys = "/redfish/v1/Systems/System.Embedded.1";
    let mut c = Client::logged_in(&sim).await;
    for _ in 0..3 {
        assert_eq!(c.get(sys).await.status, 200);
    }
    let expired = c.get(sys).await;
    assert_eq!(expired.status, 401);
    assert!(expired.message_id().ends_with("NoValidSession"));
    // Log in again once, as a client should.
    c.login().await;
    assert_eq!(c.get(sys).await.status, 200);
    sim.set_faults(RedfishFaults {
        session_ttl: Some(Duration::from_millis(150)),
        ..Default::default()
    });
    c.login().await;
    assert_eq!(c.get(sys).await.status, 200);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(c.get(sys).await.status, 401);
    // And expire_sessions() ends them all.
    sim.set_faults(RedfishFaults::default());
    c.login().await;
    sim.expire_sessions();
    assert_eq!(c.get(sys).await.status, 401);
}

#[tokio::test]
async fn dropped_connections_and_latency() {
    let sim = start(Persona::Supermicro).await;
    let c = Client::logged_in(&sim).await;
    sim.set_faults(RedfishFaults {
        drop_next: 1,
        ..Default::default()
    });
    let r = c
        .http
        .get(format!("{}{SYS}", sim.address()))
        .header("X-Auth-Token", c.token.clone().unwrap())
        .send()
        .await;
    let failed = match r {
        Err(_) => true,
        Ok(r) => r.bytes().await.is_err(),
    };
    assert!(failed, "the connection should have been cut");
    sim.set_faults(RedfishFaults {
        latency: Duration::from_millis(80),
        ..Default::default()
    });
    let t = Instant::now();
    assert_eq!(c.get(SYS).await.status, 200);
    assert!(t.elapsed() >= Duration::from_millis(80));
}

#[tokio::test]
async fn media_that_cannot_be_fetched_is_reported_not_connected() {
    let sim = start(Persona::Idrac9).await;
    let m = media().await;
    let c = Client::logged_in(&sim).await;
    let vm = "/redfish/v1/Systems/System.Embedded.1/VirtualMedia";
    let missing = format!("{}nothere.iso", m.share());
    let a = c
        .post(
            &format!("{vm}/1/Actions/VirtualMedia.InsertMedia"),
            Some(json!({"Image": missing})),
        )
        .await;
    assert_eq!(a.status, 204);
    until("fetch failed", || !sim.fetch_log().is_empty()).await;
    let f = &sim.fetch_log()[0];
    assert_eq!(f.slot, "1");
    assert!(f.result.as_ref().unwrap_err().contains("404"), "{f:?}");
    let s = sim.slot("1").unwrap();
    assert!(!s.inserted);
    assert_eq!(s.connected_via.as_deref(), Some("NotConnected"));
    assert_eq!(m.requests_for("/svc/nothere.iso"), ["HEAD"]);
}

#[tokio::test]
async fn fifty_bmcs_at_fifty_ms_start_cheaply() {
    let persona = Persona::Ilo5;
    let t = Instant::now();
    let mut sims = Vec::new();
    for i in 0..50 {
        let sim = start_with(RedfishConfig {
            faults: RedfishFaults {
                latency: Duration::from_millis(50),
                ..Default::default()
            },
            serial: Some(format!("SIM{i:04}")),
            ..RedfishConfig::new(persona)
        })
        .await;
        sims.push(sim);
    }
    let started = t.elapsed();
    let t = Instant::now();
    let answers = futures::future::join_all(sims.iter().map(|s| async move {
        let c = Client::logged_in(s).await;
        c.get(s.system_path()).await.body["SerialNumber"].clone()
    }))
    .await;
    for (i, serial) in answers.iter().enumerate() {
        assert_eq!(serial, &json!(format!("SIM{i:04}")));
    }
    assert!(
        started < Duration::from_secs(10),
        "starting took {started:?}"
    );
    // Two requests of 50 ms each, all BMCs in parallel.
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
}

#[tokio::test]
async fn a_missing_capture_is_an_error() {
    let nowhere = std::path::PathBuf::from("/nonexistent/mockups");
    assert!(!RedfishSim::available(Persona::Ilo5, &nowhere));
    assert!(RedfishSim::available(Persona::Cimc, &nowhere));
    let cfg = RedfishConfig {
        mockups: nowhere.clone(),
        ..RedfishConfig::new(Persona::Ilo7)
    };
    let err = RedfishSim::start(cfg)
        .await
        .err()
        .expect("no capture, no iLO");
    assert_eq!(err.kind(), std::io::ErrorKind::NotFound);
    assert!(err.to_string().contains("/nonexistent/mockups"), "{err}");
}
