//! Supermicro X12 persona: one `CD1` slot, `{Image}`-only inserts, no insert over a set
//! `Image`, `ImageName` never cleared, `UsbCd` to boot virtual media and the full Boot triple.

use serde_json::json;

use bootsmith_sim::redfish::Persona;

mod rf;
use rf::{assert_fetched, media, start, until, Client};

const SYS: &str = "/redfish/v1/Systems/1";
const CD1: &str = "/redfish/v1/Managers/1/VirtualMedia/CD1";

#[tokio::test]
async fn inserted_or_write_protected_in_the_body_is_property_unknown() {
    let sim = start(Persona::Supermicro).await;
    let m = media().await;
    let c = Client::logged_in(&sim).await;
    let coll = c.get("/redfish/v1/Managers/1/VirtualMedia").await.body;
    assert_eq!(coll["Members"].as_array().unwrap().len(), 1);
    let iso = format!("{}boot.iso", m.share());
    let ins = format!("{CD1}/Actions/VirtualMedia.InsertMedia");
    for body in [
        json!({"Image": iso, "Inserted": true}),
        json!({"Image": iso, "WriteProtected": true}),
    ] {
        let a = c.post(&ins, Some(body)).await;
        assert_eq!(a.status, 400);
        assert!(a.message_id().ends_with("PropertyUnknown"), "{a:?}");
        assert!(a.message().contains("is not valid"));
    }
    assert_eq!(c.post(&ins, Some(json!({"Image": iso}))).await.status, 204);
    // Insert again while Image is set: refused.
    let again = c.post(&ins, Some(json!({"Image": iso}))).await;
    assert_eq!(again.status, 400);
    until("fetched", || sim.fetch_log().len() == 1).await;
    assert_fetched(&m, "/svc/boot.iso");
    // Eject: ImageName stays, ConnectedVia says it is empty.
    let e = c
        .post(
            &format!("{CD1}/Actions/VirtualMedia.EjectMedia"),
            Some(json!({})),
        )
        .await;
    assert_eq!(e.status, 204);
    let s = sim.slot("CD1").unwrap();
    assert_eq!(s.image_name.as_deref(), Some("boot.iso"));
    assert_eq!(s.connected_via.as_deref(), Some("NotConnected"));
    assert!(!s.inserted);
    assert_eq!(c.post(&ins, Some(json!({"Image": iso}))).await.status, 204);
}

#[tokio::test]
async fn boot_needs_the_full_triple_and_only_usbcd_boots_virtual_media() {
    let sim = start(Persona::Supermicro).await;
    let m = media().await;
    let c = Client::logged_in(&sim).await;
    let iso = format!("{}boot.iso", m.share());
    c.post(
        &format!("{CD1}/Actions/VirtualMedia.InsertMedia"),
        Some(json!({"Image": iso})),
    )
    .await;
    // Without Mode: 400.
    let partial = c
        .patch(
            SYS,
            json!({"Boot": {"BootSourceOverrideTarget": "UsbCd", "BootSourceOverrideEnabled": "Once"}}),
            None,
        )
        .await;
    assert_eq!(partial.status, 400);
    assert!(partial.message_id().ends_with("PropertyMissing"));
    // Cd is accepted, but boots the physical drive.
    let full = |t: &str| {
        json!({"Boot": {"BootSourceOverrideTarget": t, "BootSourceOverrideEnabled": "Once",
                        "BootSourceOverrideMode": "UEFI"}})
    };
    assert_eq!(c.patch(SYS, full("Cd"), None).await.status, 204);
    let reset = format!("{SYS}/Actions/ComputerSystem.Reset");
    c.post(&reset, Some(json!({"ResetType": "On"}))).await;
    until("on", || sim.power_state() == "On").await;
    let b = sim.boots().pop().unwrap();
    assert_eq!((b.target.as_str(), b.image.clone()), ("Cd", None));
    // UsbCd boots the virtual CD.
    assert_eq!(c.patch(SYS, full("UsbCd"), None).await.status, 204);
    c.post(&reset, Some(json!({"ResetType": "ForceRestart"})))
        .await;
    until("second boot", || sim.boots().len() == 2).await;
    let b = sim.boots().pop().unwrap();
    assert_eq!(
        (b.target.as_str(), b.image.as_deref()),
        ("UsbCd", Some(iso.as_str()))
    );
    assert_eq!(sim.boot().enabled, "Disabled");
}
