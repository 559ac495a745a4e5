//! Dell iDRAC 9 before 6.00 persona (`idrac9-legacy`): VirtualMedia under the Manager
//! (`CD`, `RemovableDisk`), the standard `Cd` boot booting the physical drive, and Dell's OEM
//! ImportSystemConfiguration job that sets the one-time boot from the virtual CD
//! (`shared/reference/redfish.md` §2 ★1).

use serde_json::{json, Value};

use bootsmith_sim::redfish::{Persona, RedfishSim};

mod rf;
use rf::{media, start, until, Answer, Client};

const SYS: &str = "/redfish/v1/Systems/System.Embedded.1";
const MGR: &str = "/redfish/v1/Managers/iDRAC.Embedded.1";
const VM: &str = "/redfish/v1/Managers/iDRAC.Embedded.1/VirtualMedia";
const IMPORT: &str =
    "/redfish/v1/Managers/iDRAC.Embedded.1/Actions/Oem/EID_674_Manager.ImportSystemConfiguration";
const GOOD: &str = "<SystemConfiguration><Component FQDD=\"iDRAC.Embedded.1\"><Attribute Name=\"ServerBoot.1#BootOnce\">Enabled</Attribute><Attribute Name=\"ServerBoot.1#FirstBootDevice\">VCD-DVD</Attribute></Component></SystemConfiguration>";

fn import_body(buffer: &str) -> Value {
    json!({"ShareParameters": {"Target": "ALL"}, "ImportBuffer": buffer})
}

/// Insert the ISO into `CD`, waiting for the BMC's fetch.
async fn insert_iso(sim: &RedfishSim, c: &Client, share: &str) -> String {
    let iso = format!("{share}boot.iso");
    let a = c
        .post(
            &format!("{VM}/CD/Actions/VirtualMedia.InsertMedia"),
            Some(json!({"Image": iso, "Inserted": true, "WriteProtected": true})),
        )
        .await;
    assert_eq!(a.status, 204, "{a:?}");
    until("fetched", || !sim.fetch_log().is_empty()).await;
    iso
}

async fn power_on(sim: &RedfishSim, c: &Client) {
    let r = c
        .post(
            &format!("{SYS}/Actions/ComputerSystem.Reset"),
            Some(json!({"ResetType": "On"})),
        )
        .await;
    assert_eq!(r.status, 204, "{r:?}");
    until("on", || sim.power_state() == "On").await;
    until("booted", || !sim.boots().is_empty()).await;
}

/// POST the import and poll its job to the end: (the job's answers in order).
async fn import_and_poll(c: &Client, buffer: &str) -> (String, Vec<Answer>) {
    let a = c.post(IMPORT, Some(import_body(buffer))).await;
    assert_eq!(a.status, 202, "{a:?}");
    let loc = a.header("location").expect("Location of the job");
    assert!(loc.starts_with(&format!("{MGR}/Jobs/JID_")), "{loc}");
    let mut polls = Vec::new();
    for _ in 0..10 {
        let j = c.get(&loc).await;
        assert_eq!(j.status, 200);
        let state = j.body["JobState"].as_str().unwrap().to_owned();
        polls.push(j);
        if state != "Running" {
            break;
        }
    }
    (loc, polls)
}

#[tokio::test]
async fn layout_is_manager_cd_and_removable_disk_on_firmware_4_40() {
    let sim = start(Persona::Idrac9Legacy).await;
    assert_eq!(
        Persona::from_name("idrac9-legacy"),
        Some(Persona::Idrac9Legacy)
    );
    let c = Client::logged_in(&sim).await;
    assert_eq!(c.get("/redfish/v1").await.body["Vendor"], "Dell");
    let mgr = c.get(MGR).await.body;
    assert_eq!(mgr["FirmwareVersion"], "4.40.00.00");
    assert_eq!(mgr["VirtualMedia"]["@odata.id"], VM);
    let oem = &mgr["Actions"]["Oem"]["#OemManager.v1_1_0#OemManager.ImportSystemConfiguration"];
    assert_eq!(oem["target"], IMPORT);
    assert!(c.get(SYS).await.body.get("VirtualMedia").is_none());
    assert_eq!(
        c.get(&format!("{VM}/CD")).await.body["MediaTypes"],
        json!(["CD", "DVD"])
    );
    assert_eq!(
        c.get(&format!("{VM}/RemovableDisk")).await.body["MediaTypes"],
        json!(["USBStick"])
    );
}

#[tokio::test]
async fn standard_cd_boot_boots_the_physical_drive() {
    let sim = start(Persona::Idrac9Legacy).await;
    let c = Client::logged_in(&sim).await;
    let m = media().await;
    insert_iso(&sim, &c, &m.share()).await;
    let tag = c.get(SYS).await.header("etag").unwrap();
    let p = c
        .patch(
            SYS,
            json!({"Boot": {"BootSourceOverrideTarget": "Cd", "BootSourceOverrideEnabled": "Once"}}),
            Some(&tag),
        )
        .await;
    assert_eq!(p.status, 204, "accepted, as the real firmware does");
    assert_eq!(sim.boot().target, "Cd");
    power_on(&sim, &c).await;
    let b = sim.boots().pop().unwrap();
    assert_eq!(b.target, "Cd");
    assert_eq!(
        b.image, None,
        "Cd boots the physical drive, not the virtual CD"
    );
}

#[tokio::test]
async fn oem_import_job_runs_then_boots_the_virtual_cd_once() {
    let sim = start(Persona::Idrac9Legacy).await;
    let c = Client::logged_in(&sim).await;
    let m = media().await;
    let iso = insert_iso(&sim, &c, &m.share()).await;
    // iDRAC answers 412 to an action carrying If-Match.
    let a = c
        .send(
            reqwest::Method::POST,
            IMPORT,
            Some(import_body(GOOD)),
            &[("If-Match", "\"x\"")],
        )
        .await;
    assert_eq!(a.status, 412);
    let (loc, polls) = import_and_poll(&c, GOOD).await;
    let states: Vec<&str> = polls
        .iter()
        .map(|p| p.body["JobState"].as_str().unwrap())
        .collect();
    assert_eq!(states, ["Running", "Completed"]);
    // An ended job reads the same on every later poll.
    assert_eq!(c.get(&loc).await.body["JobState"], "Completed");
    // The standard Boot object does not show the OEM boot.
    assert_eq!(sim.boot().enabled, "Disabled");
    power_on(&sim, &c).await;
    let b = sim.boots().pop().unwrap();
    assert_eq!(
        (b.target.as_str(), b.enabled.as_str(), b.image.as_deref()),
        ("VCD-DVD", "Once", Some(iso.as_str()))
    );
    // Once: the next power-on boots normally.
    let r = c
        .post(
            &format!("{SYS}/Actions/ComputerSystem.Reset"),
            Some(json!({"ResetType": "ForceRestart"})),
        )
        .await;
    assert_eq!(r.status, 204);
    until("second boot", || sim.boots().len() == 2).await;
    assert_eq!(sim.boots()[1].image, None);
}

#[tokio::test]
async fn a_second_import_while_a_job_runs_is_rac0679() {
    let sim = start(Persona::Idrac9Legacy).await;
    let c = Client::logged_in(&sim).await;
    let a = c.post(IMPORT, Some(import_body(GOOD))).await;
    assert_eq!(a.status, 202);
    let b = c.post(IMPORT, Some(import_body(GOOD))).await;
    assert_eq!(b.status, 400);
    assert!(b.message_id().ends_with("RAC0679"), "{b:?}");
}

#[tokio::test]
async fn whitespace_or_a_missing_device_fails_the_job() {
    let sim = start(Persona::Idrac9Legacy).await;
    let c = Client::logged_in(&sim).await;
    let m = media().await;
    insert_iso(&sim, &c, &m.share()).await;
    let pretty = GOOD.replace("><", ">\n  <");
    let (_, polls) = import_and_poll(&c, &pretty).await;
    let last = &polls.last().unwrap().body;
    assert_eq!(last["JobState"], "Failed");
    assert!(
        last["Message"].as_str().unwrap().contains("whitespace"),
        "{last}"
    );
    let no_device = GOOD.replace(
        "<Attribute Name=\"ServerBoot.1#FirstBootDevice\">VCD-DVD</Attribute>",
        "",
    );
    let (_, polls) = import_and_poll(&c, &no_device).await;
    let last = &polls.last().unwrap().body;
    assert_eq!(last["JobState"], "Failed");
    assert!(
        last["Message"]
            .as_str()
            .unwrap()
            .contains("FirstBootDevice"),
        "{last}"
    );
    // A bad target is refused at once.
    let bad = c
        .post(
            IMPORT,
            Some(json!({"ShareParameters": {"Target": "BIOS"}, "ImportBuffer": GOOD})),
        )
        .await;
    assert_eq!(bad.status, 400);
    power_on(&sim, &c).await;
    assert_eq!(sim.boots().pop().unwrap().image, None, "nothing was set");
}
