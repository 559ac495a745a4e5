//! Cisco IMC 4.x persona: the serial as System id, sessions without `Location` and at most
//! four of them, the reduced ResetType list, slots 0 (CD/DVD) and 1 (Virtual HDD).

use serde_json::json;

use bootsmith_sim::redfish::{Persona, CIMC_SERIAL};

mod rf;
use rf::{assert_fetched, media, start, until, Client};

const VM: &str = "/redfish/v1/Managers/CIMC/VirtualMedia";

#[tokio::test]
async fn session_without_location_and_a_fifth_session_refused() {
    let sim = start(Persona::Cimc).await;
    let mut clients = Vec::new();
    for _ in 0..4 {
        let mut c = Client::new(&sim);
        let a = c.login().await;
        assert_eq!(a.header("location"), None);
        let uri = a.body["@odata.id"].as_str().unwrap().to_owned();
        assert!(uri.starts_with("/redfish/v1/SessionService/Sessions/"));
        clients.push((c, uri));
    }
    let fifth = Client::new(&sim)
        .post(
            "/redfish/v1/SessionService/Sessions",
            Some(json!({"UserName": "admin", "Password": "password"})),
        )
        .await;
    assert_eq!(fifth.status, 503);
    assert!(fifth.message_id().ends_with("SessionLimitExceeded"));
    assert!(!fifth.message().is_empty());
    // Logging one out frees a place.
    let (c, uri) = &clients[0];
    assert_eq!(c.delete(uri).await.status, 204);
    Client::new(&sim).login().await;
}

#[tokio::test]
async fn reset_types_are_cimcs_and_the_flow_works() {
    let sim = start(Persona::Cimc).await;
    let m = media().await;
    let c = Client::logged_in(&sim).await;
    let systems = c.get("/redfish/v1/Systems").await.body;
    let sys = format!("/redfish/v1/Systems/{CIMC_SERIAL}");
    assert_eq!(systems["Members"][0]["@odata.id"], sys.as_str());
    let slot1 = c.get(&format!("{VM}/1")).await.body;
    assert_eq!(slot1["MediaTypes"], json!(["Floppy", "USBStick"]));
    assert_eq!(slot1["Description"], "Virtual HDD");
    let iso = format!("{}boot.iso", m.share());
    let img = format!("{}oemdrv.img", m.share());
    // Inserted may only be true.
    let no = c
        .post(
            &format!("{VM}/0/Actions/VirtualMedia.InsertMedia"),
            Some(json!({"Image": iso, "Inserted": false})),
        )
        .await;
    assert_eq!(no.status, 400);
    for (s, u) in [("0", &iso), ("1", &img)] {
        let a = c
            .post(
                &format!("{VM}/{s}/Actions/VirtualMedia.InsertMedia"),
                Some(json!({"Image": u, "Inserted": true, "WriteProtected": true,
                           "TransferMethod": "Stream"})),
            )
            .await;
        assert_eq!(a.status, 204, "{a:?}");
    }
    until("fetched", || sim.fetch_log().len() == 2).await;
    assert_fetched(&m, "/svc/boot.iso");
    assert_fetched(&m, "/svc/oemdrv.img");
    let reset = format!("{sys}/Actions/ComputerSystem.Reset");
    for t in ["GracefulRestart", "ForceOn"] {
        let a = c.post(&reset, Some(json!({"ResetType": t}))).await;
        assert_eq!(a.status, 400, "{t}");
    }
    let tag = c.get(&sys).await.header("etag").unwrap();
    let b =
        json!({"Boot": {"BootSourceOverrideTarget": "Cd", "BootSourceOverrideEnabled": "Once"}});
    assert_eq!(c.patch(&sys, b, Some(&tag)).await.status, 204);
    assert_eq!(
        c.post(&reset, Some(json!({"ResetType": "On"})))
            .await
            .status,
        204
    );
    until("on", || sim.power_state() == "On").await;
    assert_eq!(sim.boots().pop().unwrap().image, Some(iso));
    assert_eq!(
        c.post(&reset, Some(json!({"ResetType": "PowerCycle"})))
            .await
            .status,
        204
    );
    until("second boot", || sim.boots().len() == 2).await;
    // The Once override was spent by the first boot.
    assert_eq!(sim.boots()[1].target, "None");
}
