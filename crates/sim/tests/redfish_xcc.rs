//! Lenovo XCC2 persona: PATCH-only virtual media under the System (`EXT1..4`, no actions),
//! `If-Match` required on every PATCH (428), stale tags refused (412), ETags on every GET.

use serde_json::json;

use bootsmith_sim::redfish::Persona;

mod rf;
use rf::{assert_fetched, media, start, until, Client};

const SYS: &str = "/redfish/v1/Systems/1";
const VM: &str = "/redfish/v1/Systems/1/VirtualMedia";

#[tokio::test]
async fn slots_have_no_actions_and_take_patch() {
    let sim = start(Persona::Xcc).await;
    let c = Client::logged_in(&sim).await;
    let coll = c.get(VM).await.body;
    let ids: Vec<&str> = coll["Members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["@odata.id"].as_str().unwrap().rsplit('/').next().unwrap())
        .collect();
    assert_eq!(ids, ["EXT1", "EXT2", "EXT3", "EXT4"]);
    let s = c.get(&format!("{VM}/EXT1")).await;
    assert!(s.body.get("Actions").is_none());
    assert_eq!(s.header("allow").as_deref(), Some("GET, PATCH"));
    let a = c
        .post(
            &format!("{VM}/EXT1/Actions/VirtualMedia.InsertMedia"),
            Some(json!({"Image": "http://x/boot.iso"})),
        )
        .await;
    assert_eq!(a.status, 404);
}

#[tokio::test]
async fn patch_without_if_match_is_428_and_a_stale_one_412() {
    let sim = start(Persona::Xcc).await;
    let m = media().await;
    let c = Client::logged_in(&sim).await;
    let iso = format!("{}boot.iso", m.share());
    let slot = format!("{VM}/EXT1");
    let body = json!({"Image": iso, "Inserted": true, "WriteProtected": true,
                      "TransferProtocolType": "HTTP"});
    let a = c.patch(&slot, body.clone(), None).await;
    assert_eq!(a.status, 428);
    assert!(a.message_id().ends_with("PreconditionHeaderMissing"));
    assert_eq!(
        c.patch(SYS, json!({"AssetTag": "a"}), None).await.status,
        428
    );
    let tag = c.get(&slot).await.header("etag").unwrap();
    assert_eq!(c.patch(&slot, body.clone(), Some(&tag)).await.status, 204);
    // The tag changed with the insert: the old one is stale.
    let now = c.get(&slot).await;
    assert_ne!(now.header("etag").as_deref(), Some(tag.as_str()));
    assert_eq!(now.body["Inserted"], true);
    assert_eq!(now.body["Image"], iso.as_str());
    let stale = c
        .patch(&slot, json!({"Image": null, "Inserted": false}), Some(&tag))
        .await;
    assert_eq!(stale.status, 412);
    until("fetched", || sim.fetch_log().len() == 1).await;
    assert_fetched(&m, "/svc/boot.iso");
    // Eject by PATCH with the fresh tag.
    let fresh = now.header("etag").unwrap();
    let e = c
        .patch(
            &slot,
            json!({"Image": null, "Inserted": false}),
            Some(&fresh),
        )
        .await;
    assert_eq!(e.status, 204);
    assert!(!sim.slot("EXT1").unwrap().inserted);
}

#[tokio::test]
async fn happy_path_two_slots_cd_once_and_reset() {
    let sim = start(Persona::Xcc).await;
    let m = media().await;
    let c = Client::logged_in(&sim).await;
    for (slot, file) in [("EXT1", "boot.iso"), ("EXT2", "oemdrv.img")] {
        let p = format!("{VM}/{slot}");
        let tag = c.get(&p).await.header("etag").unwrap();
        let a = c
            .patch(
                &p,
                json!({"Image": format!("{}{file}", m.share()), "Inserted": true,
                       "WriteProtected": true}),
                Some(&tag),
            )
            .await;
        assert_eq!(a.status, 204);
    }
    until("fetched", || sim.fetch_log().len() == 2).await;
    assert_fetched(&m, "/svc/oemdrv.img");
    let tag = c.get(SYS).await.header("etag").unwrap();
    let b =
        json!({"Boot": {"BootSourceOverrideTarget": "Cd", "BootSourceOverrideEnabled": "Once"}});
    assert_eq!(c.patch(SYS, b, Some(&tag)).await.status, 204);
    c.post(
        &format!("{SYS}/Actions/ComputerSystem.Reset"),
        Some(json!({"ResetType": "On"})),
    )
    .await;
    until("on", || sim.power_state() == "On").await;
    let last = sim.boots().pop().unwrap();
    assert_eq!(last.image, Some(format!("{}boot.iso", m.share())));
}
