//! HPE iLO 5 (DL360 Gen10 Plus) and iLO 7 (DL380a Gen12) personas, served from the real
//! captures: the full virtual-media install flow, and the quirks a client must handle.

use serde_json::json;

use bootsmith_sim::redfish::Persona;

mod rf;
use rf::{assert_fetched, media, start, until, Client};

const VM: &str = "/redfish/v1/Managers/1/VirtualMedia";
const SYS: &str = "/redfish/v1/Systems/1";

#[tokio::test]
async fn service_root_is_open_and_the_rest_needs_credentials() {
    let sim = start(Persona::Ilo5).await;
    let c = Client::new(&sim);
    let root = c.get("/redfish/v1/").await;
    assert_eq!(root.status, 200);
    assert_eq!(
        root.body["Oem"]["Hpe"]["Manager"][0]["ManagerType"],
        "iLO 5"
    );
    assert_eq!(c.get(SYS).await.status, 401);
    // Basic works; a wrong password is 401 with a Redfish error body.
    let ok = c
        .http
        .get(format!("{}{SYS}", sim.address()))
        .basic_auth("admin", Some("password"))
        .send()
        .await
        .unwrap();
    assert_eq!(ok.status(), 200);
    let bad = c
        .http
        .get(format!("{}{SYS}", sim.address()))
        .basic_auth("admin", Some("nope"))
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), 401);
    let body: serde_json::Value = bad.json().await.unwrap();
    assert!(body["error"]["@Message.ExtendedInfo"][0]["MessageId"].is_string());
    assert!(body["error"]["message"].is_string());
}

#[tokio::test]
async fn session_from_body_credentials_alone_with_location_and_logout() {
    let sim = start(Persona::Ilo5).await;
    let mut c = Client::new(&sim);
    let a = c.login().await;
    let loc = a.header("location").expect("iLO sends Location");
    assert!(loc.starts_with("/redfish/v1/SessionService/Sessions/"));
    assert!(c.token.is_some());
    assert_eq!(c.get(SYS).await.status, 200);
    assert_eq!(sim.open_sessions(), 1);
    assert_eq!(c.delete(&loc).await.status, 204);
    assert_eq!(c.get(SYS).await.status, 401);
    // A wrong password in the body: 401.
    let bad = c
        .post(
            "/redfish/v1/SessionService/Sessions",
            Some(json!({"UserName": "admin", "Password": "x"})),
        )
        .await;
    assert_eq!(bad.status, 401);
}

#[tokio::test]
async fn ilo5_full_install_flow_with_quirks() {
    let sim = start(Persona::Ilo5).await;
    let m = media().await;
    let c = Client::logged_in(&sim).await;
    // Virtual media is only under the Manager; slot 1 starts inserted with HPE's lab URL.
    let s1 = c.get(&format!("{VM}/1")).await;
    assert_eq!(s1.body["Inserted"], true);
    assert!(s1.body["Image"].as_str().unwrap().contains("172.18.58.146"));
    assert!(s1.header("etag").unwrap().starts_with("W/\""));
    assert_eq!(c.get(&format!("{SYS}/VirtualMedia")).await.status, 404);
    // EjectMedia without a body: 415. With {}: ejected.
    let eject1 = format!("{VM}/1/Actions/VirtualMedia.EjectMedia");
    assert_eq!(c.post(&eject1, None).await.status, 415);
    assert!(sim.slot("1").unwrap().inserted);
    assert_eq!(c.post(&eject1, Some(json!({}))).await.status, 200);
    assert!(!sim.slot("1").unwrap().inserted);
    // Insert the ISO in slot 2 (CD/DVD) and the image in slot 1 (Floppy/USBStick).
    let iso = format!("{}boot.iso", m.share());
    let img = format!("{}oemdrv.img", m.share());
    let a = c
        .post(
            &format!("{VM}/2/Actions/VirtualMedia.InsertMedia"),
            Some(json!({"Image": iso, "Inserted": true, "WriteProtected": true})),
        )
        .await;
    assert_eq!(a.status, 200, "{a:?}");
    let a = c
        .post(
            &format!("{VM}/1/Actions/VirtualMedia.InsertMedia"),
            Some(json!({"Image": img})),
        )
        .await;
    assert_eq!(a.status, 200, "{a:?}");
    let back = c.get(&format!("{VM}/2")).await;
    assert_eq!(back.body["Image"], iso.as_str());
    assert_eq!(back.body["Inserted"], true);
    assert_eq!(back.body["ImageName"], "boot.iso");
    // The BMC fetched both: HEAD, then a range read.
    until("both fetched", || sim.fetch_log().len() == 2).await;
    assert!(sim.fetch_log().iter().all(|f| f.result == Ok(1 << 20)));
    assert_fetched(&m, "/svc/boot.iso");
    assert_fetched(&m, "/svc/oemdrv.img");
    // One-time boot through HPE's slot flag; slot 1 has no such flag.
    let tag = c.get(&format!("{VM}/2")).await.header("etag").unwrap();
    let flag = json!({"Oem": {"Hpe": {"BootOnNextServerReset": true}}});
    assert_eq!(
        c.patch(&format!("{VM}/2"), flag.clone(), Some(&tag))
            .await
            .status,
        200
    );
    assert_eq!(sim.slot("2").unwrap().boot_on_next_reset, Some(true));
    assert_eq!(c.patch(&format!("{VM}/1"), flag, None).await.status, 400);
    // Reset: an invalid type, and On while On, are refused as iLO refuses them.
    let reset = format!("{SYS}/Actions/ComputerSystem.Reset");
    let bad = c.post(&reset, Some(json!({"ResetType": "ForceOn"}))).await;
    assert_eq!(bad.status, 400);
    assert!(bad.message().contains("Invalid ResetType"), "{bad:?}");
    let on = c.post(&reset, Some(json!({"ResetType": "On"}))).await;
    assert_eq!(on.status, 400);
    assert_eq!(on.message_id(), "iLO.2.25.InvalidOperationForSystemState");
    assert_eq!(
        c.post(&reset, Some(json!({"ResetType": "ForceRestart"})))
            .await
            .status,
        200
    );
    assert_eq!(sim.power_state(), "Off");
    until("power on", || sim.power_state() == "On").await;
    let boots = sim.boots();
    assert_eq!(boots.len(), 1);
    assert_eq!(boots[0].target, "BootOnNextServerReset");
    assert_eq!(boots[0].image.as_deref(), Some(iso.as_str()));
    assert_eq!(sim.slot("2").unwrap().boot_on_next_reset, Some(false));
    // Eject both at the end.
    for s in ["1", "2"] {
        let a = c
            .post(
                &format!("{VM}/{s}/Actions/VirtualMedia.EjectMedia"),
                Some(json!({})),
            )
            .await;
        assert_eq!(a.status, 200);
        let slot = sim.slot(s).unwrap();
        assert!(!slot.inserted && slot.image.is_none(), "{slot:?}");
    }
}

#[tokio::test]
async fn ilo_boot_override_once_is_cleared_by_a_reset_and_power_moves() {
    let sim = start(Persona::Ilo7).await;
    let m = media().await;
    let c = Client::logged_in(&sim).await;
    let root = c.get("/redfish/v1").await;
    assert!(root.body["Product"]
        .as_str()
        .unwrap()
        .contains("DL380a Gen12"));
    // iLO 7's slots start empty.
    assert!(sim.slots().iter().all(|s| !s.inserted));
    let iso = format!("{}boot.iso", m.share());
    c.post(
        &format!("{VM}/2/Actions/VirtualMedia.InsertMedia"),
        Some(json!({"Image": iso})),
    )
    .await;
    // A target outside AllowableValues is refused; Cd/Once is taken and read back.
    let sys = c.get(SYS).await;
    let tag = sys.header("etag").unwrap();
    let bad = c
        .patch(
            SYS,
            json!({"Boot": {"BootSourceOverrideTarget": "UsbCd"}}),
            Some(&tag),
        )
        .await;
    assert_eq!(bad.status, 400);
    let ok = c
        .patch(
            SYS,
            json!({"Boot": {"BootSourceOverrideTarget": "Cd", "BootSourceOverrideEnabled": "Once",
                            "BootSourceOverrideMode": "UEFI"}}),
            Some(&tag),
        )
        .await;
    assert_eq!(ok.status, 200);
    // The old ETag is stale now.
    let stale = c.patch(SYS, json!({"AssetTag": "x"}), Some(&tag)).await;
    assert_eq!(stale.status, 412);
    let back = c.get(SYS).await;
    assert_eq!(back.body["Boot"]["BootSourceOverrideEnabled"], "Once");
    assert_ne!(back.header("etag"), Some(tag));
    assert_eq!(
        back.body["@odata.etag"].as_str(),
        back.header("etag").as_deref()
    );
    // Power off, then on: PoweringOn, then On, booting the virtual CD once.
    let reset = format!("{SYS}/Actions/ComputerSystem.Reset");
    assert_eq!(
        c.post(&reset, Some(json!({"ResetType": "ForceOff"})))
            .await
            .status,
        200
    );
    until("off", || sim.power_state() == "Off").await;
    let off_again = c.post(&reset, Some(json!({"ResetType": "ForceOff"}))).await;
    assert_eq!(
        off_again.message_id(),
        "iLO.2.25.InvalidOperationForSystemState"
    );
    c.post(&reset, Some(json!({"ResetType": "On"}))).await;
    assert_eq!(sim.power_state(), "PoweringOn");
    until("on", || sim.power_state() == "On").await;
    let last = sim.boots().pop().unwrap();
    assert_eq!(last.target, "Cd");
    assert_eq!(last.image.as_deref(), Some(iso.as_str()));
    assert_eq!(sim.boot().enabled, "Disabled");
}

#[tokio::test]
async fn ilo_storage_and_system_inventory_from_the_capture() {
    let sim = start(Persona::Ilo7).await;
    let c = Client::logged_in(&sim).await;
    let sys = c.get(SYS).await.body;
    assert!(sys["ProcessorSummary"]["Count"].as_u64().unwrap() >= 1);
    assert!(sys["MemorySummary"]["TotalSystemMemoryGiB"].is_number());
    assert!(sys["SerialNumber"].is_string() && sys["BiosVersion"].is_string());
    let vol = "/redfish/v1/Systems/1/Storage/DE010000/Volumes/1";
    assert_eq!(c.get(vol).await.status, 200);
    assert_eq!(c.delete(vol).await.status, 204);
    assert_eq!(c.get(vol).await.status, 404);
    let coll = c
        .get("/redfish/v1/Systems/1/Storage/DE010000/Volumes")
        .await;
    assert_eq!(coll.body["Members"].as_array().unwrap().len(), 0);
}
