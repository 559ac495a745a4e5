//! The client against the simulator's iDRAC 9 < 6.00 persona: the one-time boot from the
//! virtual CD goes through Dell's OEM ImportSystemConfiguration job (redfish.md §2 ★1), and an
//! import refused with RAC0679 ("job running") is retried until the running job ends.

use std::time::Duration;

use bootsmith_redfish::dell::{self, BusyRetry};
use bootsmith_redfish::*;
use bootsmith_sim::redfish::{Persona, RedfishConfig, RedfishSim};

const SYS: &str = "/redfish/v1/Systems/System.Embedded.1";

async fn sim() -> RedfishSim {
    RedfishSim::start(RedfishConfig {
        power_delay: Duration::from_millis(50),
        ..RedfishConfig::new(Persona::Idrac9Legacy)
    })
    .await
    .unwrap()
}

fn client(sim: &RedfishSim) -> Client {
    let mut c = Config::new(sim.address(), "admin", "password");
    c.timeout = Duration::from_secs(10);
    c.backoff = Duration::from_millis(50);
    Client::new(c).unwrap()
}

#[tokio::test]
async fn boot_once_uses_the_oem_import_and_says_it_cannot_be_read_back() {
    let sim = sim().await;
    let c = client(&sim);
    let id = identify(&c).await.unwrap();
    assert_eq!(id.vendor, Vendor::Dell);
    assert!(c.has_quirk(Effect::DellOemVirtualBoot));
    let out = boot_once_cd(&c, SYS, Some("UEFI"), None).await.unwrap();
    assert_eq!(out.via, "dell_oem_import");
    assert_eq!(out.target, "VCD-DVD");
    assert_eq!(out.read_target, None);
    assert!(out.quirks.contains(&"dell-legacy-virtual-boot".to_owned()));
    assert!(
        out.warnings.iter().any(|w| w.contains("not read back")),
        "{out:?}"
    );
    assert!(c.applied_quirks().contains(&"task_monitor".to_owned()));
    // The standard override was left alone (it would boot the physical drive).
    assert_eq!(sim.boot().target, "None");
    reset(&c, SYS, PowerAction::On).await.unwrap();
    for _ in 0..100 {
        if !sim.boots().is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let b = sim.boots().pop().expect("booted");
    assert_eq!((b.target.as_str(), b.enabled.as_str()), ("VCD-DVD", "Once"));
}

#[tokio::test]
async fn a_running_job_is_waited_out_and_the_import_retried() {
    let sim = sim().await;
    let c = client(&sim);
    identify(&c).await.unwrap();
    // Another job is running: start one by hand and let it end only when polled, later.
    let first = c
        .execute(Request::action(
            format!("{}/Actions/Oem/{}", dell::MANAGER, dell::IMPORT_ACTION),
            dell::import_body(dell::VIRTUAL_CD),
        ))
        .await;
    // `execute` followed the job's Location once: it reads Running.
    let job = first.unwrap().body;
    assert_eq!(job["JobState"], "Running", "{job}");
    let path = job["@odata.id"].as_str().unwrap().to_owned();
    let poller = {
        let c2 = client(&sim);
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(400)).await;
            for _ in 0..3 {
                let _ = c2.get(&path).await;
            }
        })
    };
    let done = dell::import_boot_once(
        &c,
        dell::MANAGER,
        dell::VIRTUAL_CD,
        BusyRetry {
            attempts: 20,
            wait: Duration::from_millis(100),
        },
    )
    .await
    .unwrap();
    poller.await.unwrap();
    assert!(done.busy_retries >= 1, "{done:?}");
    assert!(done.job.as_deref().unwrap().starts_with("JID_"));
    assert!(c
        .applied_quirks()
        .contains(&"dell_import_busy_retry".to_owned()));
    // With one attempt only, the refusal itself comes back while a job runs.
    c.execute(Request::action(
        format!("{}/Actions/Oem/{}", dell::MANAGER, dell::IMPORT_ACTION),
        dell::import_body(dell::VIRTUAL_CD),
    ))
    .await
    .unwrap();
    let once = BusyRetry {
        attempts: 1,
        wait: Duration::ZERO,
    };
    let e = dell::import_boot_once(&c, dell::MANAGER, dell::VIRTUAL_CD, once)
        .await
        .unwrap_err();
    assert!(dell::is_busy(&e), "{e}");
    assert!(e.to_string().contains("already running"), "{e}");
}
