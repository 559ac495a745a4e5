//! Dell iDRAC 9 (≥ 6.00) persona: VirtualMedia under the System, the `.iso`/`.img` rule,
//! 412 on actions carrying `If-Match`, the asynchronous eject, and a `Cd` boot of the virtual CD.

use std::time::Duration;

use serde_json::json;

use bootsmith_sim::redfish::{Persona, RedfishConfig};

mod rf;
use rf::{assert_fetched, media, start, start_with, until, Client};

const SYS: &str = "/redfish/v1/Systems/System.Embedded.1";
const VM: &str = "/redfish/v1/Systems/System.Embedded.1/VirtualMedia";

fn insert(slot: &str) -> String {
    format!("{VM}/{slot}/Actions/VirtualMedia.InsertMedia")
}
fn eject(slot: &str) -> String {
    format!("{VM}/{slot}/Actions/VirtualMedia.EjectMedia")
}

#[tokio::test]
async fn layout_is_system_embedded_with_two_cd_dvd_usb_slots() {
    let sim = start(Persona::Idrac9).await;
    let c = Client::logged_in(&sim).await;
    let root = c.get("/redfish/v1").await;
    assert_eq!(root.body["Vendor"], "Dell");
    let systems = c.get("/redfish/v1/Systems").await;
    assert_eq!(systems.body["Members"][0]["@odata.id"], SYS);
    let sys = c.get(SYS).await.body;
    assert_eq!(sys["VirtualMedia"]["@odata.id"], VM);
    assert_eq!(
        sys["Links"]["ManagedBy"][0]["@odata.id"],
        "/redfish/v1/Managers/iDRAC.Embedded.1"
    );
    for s in ["1", "2"] {
        let slot = c.get(&format!("{VM}/{s}")).await.body;
        assert_eq!(slot["MediaTypes"], json!(["CD", "DVD", "USBStick"]));
    }
    // Storage: two drives, a volume that can be deleted, SecureErase on drives.
    let st = c
        .get(&format!("{SYS}/Storage/RAID.Integrated.1-1"))
        .await
        .body;
    let drive = st["Drives"][0]["@odata.id"].as_str().unwrap().to_owned();
    assert_eq!(st["Drives"].as_array().unwrap().len(), 2);
    let erase = c
        .post(
            &format!("{drive}/Actions/Drive.SecureErase"),
            Some(json!({})),
        )
        .await;
    assert_eq!(erase.status, 204);
    let vol =
        format!("{SYS}/Storage/RAID.Integrated.1-1/Volumes/Disk.Virtual.0:RAID.Integrated.1-1");
    assert_eq!(c.delete(&vol).await.status, 204);
}

#[tokio::test]
async fn urls_must_end_in_iso_or_img() {
    let sim = start(Persona::Idrac9).await;
    let m = media().await;
    let c = Client::logged_in(&sim).await;
    for bad in [
        format!("{}boot", m.share()),
        format!("{}boot.iso?token=1", m.share()),
        format!("{}boot.bin", m.share()),
    ] {
        let a = c.post(&insert("1"), Some(json!({"Image": bad}))).await;
        assert_eq!(a.status, 400, "{bad}");
        assert!(a.message_id().ends_with("RAC0720"), "{a:?}");
        assert!(a
            .message()
            .contains("Unable to locate the ISO or IMG image file"));
    }
    assert!(sim.slots().iter().all(|s| !s.inserted));
}

#[tokio::test]
async fn if_match_on_an_action_is_412() {
    let sim = start(Persona::Idrac9).await;
    let c = Client::logged_in(&sim).await;
    let tag = c.get(&format!("{VM}/1")).await.header("etag").unwrap();
    let a = c
        .send(
            reqwest::Method::POST,
            &eject("1"),
            Some(json!({})),
            &[("If-Match", &tag)],
        )
        .await;
    assert_eq!(a.status, 412);
    // Eject without a body: 400 (sushy sends {}).
    assert_eq!(c.post(&eject("1"), None).await.status, 400);
    assert_eq!(c.post(&eject("1"), Some(json!({}))).await.status, 204);
}

#[tokio::test]
async fn eject_is_asynchronous_and_an_early_insert_is_busy() {
    let sim = start_with(RedfishConfig {
        eject_lag: Duration::from_millis(400),
        power_delay: Duration::from_millis(50),
        ..RedfishConfig::new(Persona::Idrac9)
    })
    .await;
    let m = media().await;
    let c = Client::logged_in(&sim).await;
    let iso = format!("{}boot.iso", m.share());
    assert_eq!(
        c.post(&insert("1"), Some(json!({"Image": iso})))
            .await
            .status,
        204
    );
    assert_eq!(c.post(&eject("1"), Some(json!({}))).await.status, 204);
    // Still reported inserted for a while; an insert now is a 500.
    assert_eq!(c.get(&format!("{VM}/1")).await.body["Inserted"], true);
    let busy = c.post(&insert("1"), Some(json!({"Image": iso}))).await;
    assert_eq!(busy.status, 500);
    assert!(busy.message_id().ends_with("SYS518"), "{busy:?}");
    until("eject done", || !sim.slot("1").unwrap().inserted).await;
    assert_eq!(
        c.post(&insert("1"), Some(json!({"Image": iso})))
            .await
            .status,
        204
    );
}

#[tokio::test]
async fn happy_path_with_cd_boot_of_the_virtual_cd() {
    let sim = start(Persona::Idrac9).await;
    let m = media().await;
    let c = Client::logged_in(&sim).await;
    let iso = format!("{}boot.iso", m.share());
    let img = format!("{}oemdrv.img", m.share());
    c.post(
        &insert("1"),
        Some(json!({"Image": iso, "Inserted": true, "WriteProtected": true})),
    )
    .await;
    c.post(
        &insert("2"),
        Some(json!({"Image": img, "Inserted": true, "WriteProtected": false})),
    )
    .await;
    until("both fetched", || sim.fetch_log().len() == 2).await;
    assert_fetched(&m, "/svc/boot.iso");
    assert_fetched(&m, "/svc/oemdrv.img");
    assert_eq!(sim.slot("2").unwrap().image.as_deref(), Some(img.as_str()));
    let tag = c.get(SYS).await.header("etag").unwrap();
    let p = c
        .patch(
            SYS,
            json!({"Boot": {"BootSourceOverrideTarget": "Cd", "BootSourceOverrideEnabled": "Once"}}),
            Some(&tag),
        )
        .await;
    assert_eq!(p.status, 204);
    assert_eq!(sim.power_state(), "Off");
    let r = c
        .post(
            &format!("{SYS}/Actions/ComputerSystem.Reset"),
            Some(json!({"ResetType": "On"})),
        )
        .await;
    assert_eq!(r.status, 204);
    until("on", || sim.power_state() == "On").await;
    let b = sim.boots().pop().unwrap();
    assert_eq!(
        (b.target.as_str(), b.image.as_deref()),
        ("Cd", Some(iso.as_str()))
    );
    assert_eq!(sim.boot().enabled, "Disabled");
}
