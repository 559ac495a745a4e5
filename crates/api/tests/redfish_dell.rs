//! A Dell iDRAC 9 before 6.00 (the simulator's `idrac9-legacy` persona, firmware 4.40.00.00)
//! deployed end to end over real HTTP: the standard `Cd` override would boot its physical
//! drive, so the one-time boot from the virtual CD is set with Dell's OEM
//! ImportSystemConfiguration job (`shared/reference/redfish.md` §2 ★1), and the server boots
//! the host's ISO from the Manager's `CD` slot, the answer image in `RemovableDisk`.

mod common;

use std::time::Duration;

use bootsmith_sim::redfish::{Persona, RedfishConfig, RedfishSim};
use common::*;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

async fn bmc(persona: Persona) -> RedfishSim {
    RedfishSim::start(RedfishConfig {
        power_delay: Duration::from_millis(100),
        eject_lag: Duration::from_millis(300),
        ..RedfishConfig::new(persona)
    })
    .await
    .unwrap()
}

fn row(sim: &RedfishSim) -> Value {
    json!({"ip": sim.address(), "user": "admin", "password": "password"})
}

/// Wait (up to 10 s) until `f` holds.
async fn until(what: &str, mut f: impl FnMut() -> bool) {
    for _ in 0..100 {
        if f() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{what} did not happen");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_idrac_before_6_boots_the_virtual_cd_through_dells_oem_import() {
    let idrac = bmc(Persona::Idrac9Legacy).await;
    let s = Server::listening().await;
    let r = s
        .post(
            "/api/v2/servers",
            json!({"name": "dell", "type": "redfish", "bmcs": [row(&idrac)]}),
        )
        .await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    let (st, inv) = s.get("/api/v2/servers/dell/servers").await;
    assert_eq!(st, StatusCode::OK, "{inv}");
    let quirks = inv["servers"][0]["bmc"]["quirks"].to_string();
    assert!(quirks.contains("dell-legacy-virtual-boot"), "{quirks}");

    set_svc_ip(&s, "127.0.0.1").await;
    add_network(&s, "mgmt", "24", "192.0.2.1", "192.0.2.53", "192.0.2.123").await;
    let host = json!([{"name": "r640-01", "ip": "192.0.2.71", "os": "centos7.4",
        "role": "generic", "network_group": "mgmt", "server_group": "dell", "server": "1"}]);
    let r = s.post("/api/v2/hosts", host).await;
    assert!(r.0.is_success(), "{}", r.1);
    bootable_centos_iso(&s);
    let map = json!({"iso_map": [{"file": "/svc/c7.iso", "os": "centos7.4"}]});
    assert_eq!(s.post("/api/v1/isos/map", map).await.0, StatusCode::OK);
    let (st, built) = s.call(Method::POST, "/api/v2/deploy/images", None).await;
    assert_eq!(st, StatusCode::OK, "{built}");

    let (st, done) = s
        .call(
            Method::POST,
            "/api/v2/servers/dell/deploy?restart=true",
            None,
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{done}");
    let job = latest_job(&s).await;
    assert_eq!(media_outcome(&job, "r640-01").0, "done", "{job}");

    // The ISO went to the Manager's CD slot, the answer image to RemovableDisk.
    let cd = idrac.slot("CD").unwrap();
    assert!(
        cd.inserted
            && cd
                .image
                .as_deref()
                .is_some_and(|i| i.ends_with("centos7.4-boot.iso")),
        "{cd:?}"
    );
    let usb = idrac.slot("RemovableDisk").unwrap();
    assert!(
        usb.image
            .as_deref()
            .is_some_and(|i| i.ends_with("r640-01.img")),
        "{usb:?}"
    );

    // The job's boot-once step says how the boot was set.
    let steps = host_steps(&job, "r640-01");
    assert!(
        steps.iter().any(|(s, st, m)| s == "boot-once"
            && st == "done"
            && m.contains("VCD-DVD")
            && m.contains("dell_oem_import")),
        "{steps:?}"
    );
    // The server booted its virtual CD once, by the OEM import (not by the standard Cd, which
    // this firmware would have spent on the physical drive).
    until("the iDRAC booted its virtual CD", || {
        idrac.boots().iter().any(|b| {
            b.target == "VCD-DVD"
                && b.enabled == "Once"
                && b.image
                    .as_deref()
                    .is_some_and(|i| i.ends_with("centos7.4-boot.iso"))
        })
    })
    .await;
    assert!(
        idrac.boots().iter().all(|b| b.target != "Cd"),
        "{:?}",
        idrac.boots()
    );
    // The standard override was never set.
    assert_eq!(idrac.boot().target, "None");
    // The warning that the OEM boot cannot be read back is in the deploy's answer or job.
    let said = format!("{done}{job}");
    assert!(said.contains("ImportSystemConfiguration"), "{said}");

    let (st, gone) = s
        .call(Method::DELETE, "/api/v2/servers/dell/deploy", None)
        .await;
    assert_eq!(st, StatusCode::OK, "{gone}");
    assert_eq!(idrac.open_sessions(), 0);
}
