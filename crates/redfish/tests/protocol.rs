//! Protocol edge cases against a tiny fake BMC (tests/common/fake.rs) that behaves as
//! redfish.md documents real BMCs: session shapes, 401 mid-flow, task monitors,
//! Retry-After, SYS518, ETags, the insert ladder, PATCH insert, vendor boot quirks, disks.

mod common;

use std::time::{Duration, Instant};

use bootsmith_redfish::*;
use common::fake::{answer, redfish_error, start, tree, Sessions};
use serde_json::json;

const SYS: &str = "/redfish/v1/Systems/1";
const VM: &str = "/redfish/v1/Managers/1/VirtualMedia";

fn client(url: &str) -> Client {
    let mut c = Config::new(url, "admin", "password");
    c.timeout = Duration::from_secs(10);
    c.backoff = Duration::from_millis(50);
    c.retry_after_cap = Duration::from_secs(2);
    Client::new(c).unwrap()
}

#[tokio::test]
async fn cimc_session_uri_from_the_body_and_logout() {
    let fake = start(
        tree("Cisco Systems Inc.", "4.1(3d)"),
        Sessions::BodyOdataId,
        |_, _| None,
    )
    .await;
    let c = client(&fake.url);
    assert_eq!(c.login().await.unwrap(), AuthMode::Session);
    let id = identify(&c).await.unwrap();
    assert_eq!(id.vendor, Vendor::Cisco);
    assert_eq!(id.firmware.as_deref(), Some("4.1(3d)"));
    assert!(c
        .quirks()
        .ids()
        .contains(&"cisco-session-uri-in-body".to_owned()));
    assert!(c
        .applied_quirks()
        .contains(&"session_uri_in_body".to_owned()));
    // Every authenticated request carried the token, never Basic.
    assert!(fake
        .log()
        .iter()
        .filter(|s| s.path != "/redfish/v1/" && s.method == "GET")
        .all(|s| s.auth == "token:tok1"));
    c.logout().await;
    assert_eq!(
        fake.seen("DELETE", "/SessionService/Sessions/1").len(),
        1,
        "the session URI from @odata.id was deleted"
    );
    // CIMC has no GracefulRestart: a soft reset of a running system is a ForceRestart.
    let mut on = fake.resource(SYS);
    on["PowerState"] = json!("On");
    fake.put(SYS, on);
    let sent = reset(&c, SYS, PowerAction::SoftReset).await.unwrap();
    assert_eq!(sent.as_deref(), Some("ForceRestart"));
}

#[tokio::test]
async fn hpe_session_uri_from_the_message() {
    let fake = start(tree("HPE", "iLO 5 v3.11"), Sessions::HpeMessage, |_, _| {
        None
    })
    .await;
    let c = client(&fake.url);
    assert_eq!(c.login().await.unwrap(), AuthMode::Session);
    c.logout().await;
    assert_eq!(fake.seen("DELETE", "/SessionService/Sessions/1").len(), 1);
}

#[tokio::test]
async fn standard_session_and_basic_fallback() {
    let fake = start(
        tree("Dell Inc.", "7.00.00.00"),
        Sessions::Location,
        |_, _| None,
    )
    .await;
    let c = client(&fake.url);
    identify(&c).await.unwrap();
    assert!(c.applied_quirks().is_empty(), "{:?}", c.applied_quirks());
    let basic = start(tree("Dell Inc.", "7.00.00.00"), Sessions::None, |_, _| None).await;
    let c = client(&basic.url);
    assert_eq!(c.login().await.unwrap(), AuthMode::Basic);
    c.get(SYS).await.unwrap();
    assert_eq!(basic.seen("GET", SYS)[0].auth, "basic");
}

#[tokio::test]
async fn relogin_once_on_401_then_unauthorized() {
    // The first session dies after one use: the client logs in again once and goes on.
    let fake = start(
        tree("Lenovo", "XCC 2.50"),
        Sessions::Location,
        |s, inner| {
            if s.method == "GET"
                && s.path == SYS
                && s.auth == "token:tok1"
                && inner.bump("expire") > 1
            {
                inner.tokens.retain(|t| t != "tok1");
                return answer(401, &[], json!({}));
            }
            None
        },
    )
    .await;
    let c = client(&fake.url);
    c.get(SYS).await.unwrap();
    c.get(SYS).await.unwrap();
    assert_eq!(fake.seen("POST", "/SessionService/Sessions").len(), 2);

    // A BMC that keeps answering 401: exactly one re-login, then Unauthorized.
    let fake = start(tree("Lenovo", "XCC 2.50"), Sessions::Location, |s, _| {
        (s.path == SYS)
            .then(|| answer(401, &[], json!({})))
            .flatten()
    })
    .await;
    let c = client(&fake.url);
    match c.get(SYS).await {
        Err(Error::Unauthorized { .. }) => {}
        other => panic!("expected Unauthorized, got {other:?}"),
    }
    assert_eq!(fake.seen("POST", "/SessionService/Sessions").len(), 2);
    assert_eq!(fake.seen("GET", SYS).len(), 2);

    // Wrong password: Unauthorized, no secret in the message.
    let mut cfg = Config::new(fake.url.clone(), "admin", "s3cret-wrong");
    cfg.timeout = Duration::from_secs(5);
    let c = Client::new(cfg).unwrap();
    let e = c.get(SYS).await.unwrap_err();
    assert!(matches!(e, Error::Unauthorized { .. }), "{e:?}");
    assert!(!format!("{e} {e:?} {:?}", c.config()).contains("s3cret"));
}

#[tokio::test]
async fn task_monitor_with_retry_after() {
    let fake = start(
        tree("Dell Inc.", "7.00.00.00"),
        Sessions::Location,
        |s, inner| {
            if s.method == "POST" && s.path.ends_with("ComputerSystem.Reset") {
                return answer(
                    202,
                    &[
                        ("location", "/redfish/v1/TaskMonitors/7"),
                        ("retry-after", "1"),
                    ],
                    json!({}),
                );
            }
            if s.path == "/redfish/v1/TaskMonitors/7" {
                return if inner.bump("polls") < 2 {
                    answer(
                        202,
                        &[("retry-after", "0")],
                        json!({"TaskState": "Running"}),
                    )
                } else {
                    answer(
                        200,
                        &[],
                        json!({"TaskState": "Completed", "TaskStatus": "OK"}),
                    )
                };
            }
            if s.method == "POST" && s.path.ends_with("Drive.SecureErase") {
                return answer(202, &[], json!({}));
            }
            None
        },
    )
    .await;
    let c = client(&fake.url);
    let t0 = Instant::now();
    let r = reset(&c, SYS, PowerAction::On).await.unwrap();
    assert_eq!(r.as_deref(), Some("On"));
    assert!(
        t0.elapsed() >= Duration::from_secs(1),
        "Retry-After honoured"
    );
    assert_eq!(fake.seen("GET", "/TaskMonitors/7").len(), 2);
    assert!(c.applied_quirks().contains(&"task_monitor".to_owned()));

    // 202 without Location is a protocol error.
    let e = c
        .execute(Request::action(
            "/redfish/v1/Systems/1/Storage/RAID.1/Drives/0/Actions/Drive.SecureErase",
            json!({}),
        ))
        .await
        .unwrap_err();
    assert!(matches!(e, Error::Protocol { .. }), "{e:?}");
}

#[tokio::test]
async fn failed_task_is_refused_with_its_messages() {
    let fake = start(tree("Dell Inc.", "7.00.00.00"), Sessions::Location, |s, _| {
        if s.method == "POST" && s.path.ends_with("ComputerSystem.Reset") {
            return answer(202, &[("location", "/redfish/v1/TaskService/Tasks/9"), ("retry-after", "0")], json!({}));
        }
        if s.path == "/redfish/v1/TaskService/Tasks/9" {
            return answer(200, &[], json!({"TaskState": "Exception", "Messages": [{"Message": "Unable to power on"}]}));
        }
        None
    })
    .await;
    let c = client(&fake.url);
    let e = reset(&c, SYS, PowerAction::On).await.unwrap_err();
    assert!(e.to_string().contains("Unable to power on"), "{e}");
}

#[tokio::test]
async fn retries_busy_writes_and_failed_reads_only() {
    let fake = start(
        tree("Dell Inc.", "7.00.00.00"),
        Sessions::Location,
        |s, inner| {
            if s.method == "POST"
                && s.path
                    .ends_with("VirtualMedia/2/Actions/VirtualMedia.EjectMedia")
            {
                return match inner.bump("eject") {
                    1 => answer(503, &[("retry-after", "1")], json!({})),
                    2 => answer(
                        500,
                        &[],
                        redfish_error(
                            "IDRAC.2.8.SYS518",
                            "iDRAC is currently unable to display any information.",
                            &[],
                        ),
                    ),
                    _ => None,
                };
            }
            if s.method == "POST"
                && s.path
                    .ends_with("VirtualMedia/1/Actions/VirtualMedia.EjectMedia")
            {
                return answer(
                    500,
                    &[],
                    redfish_error("Base.1.8.InternalError", "internal", &[]),
                );
            }
            if s.method == "GET" && s.path == "/redfish/v1/Managers/1" && inner.bump("mgr") <= 2 {
                return answer(502, &[], json!({}));
            }
            None
        },
    )
    .await;
    let c = client(&fake.url);
    let t0 = Instant::now();
    c.execute(Request::action(
        format!("{VM}/2/Actions/VirtualMedia.EjectMedia"),
        json!({}),
    ))
    .await
    .unwrap();
    assert!(
        t0.elapsed() >= Duration::from_secs(1),
        "Retry-After honoured"
    );
    assert_eq!(
        fake.seen("POST", "/2/Actions/VirtualMedia.EjectMedia")
            .len(),
        3
    );
    // A plain 500 on a write is not repeated.
    let e = c
        .execute(Request::action(
            format!("{VM}/1/Actions/VirtualMedia.EjectMedia"),
            json!({}),
        ))
        .await
        .unwrap_err();
    assert_eq!(e.status(), Some(500));
    assert_eq!(
        fake.seen("POST", "/1/Actions/VirtualMedia.EjectMedia")
            .len(),
        1
    );
    // Reads are retried on 5xx.
    c.get("/redfish/v1/Managers/1").await.unwrap();
    assert_eq!(fake.seen("GET", "/redfish/v1/Managers/1").len(), 3);
}

#[tokio::test]
async fn etag_ladder_and_no_if_match_on_actions() {
    // The BMC sends a weak ETag but accepts only the strong form; actions with If-Match are 412.
    let fake = start(tree("Huawei", "3.0"), Sessions::Location, |s, _| {
        if s.method == "POST" && s.if_match.is_some() {
            return answer(
                412,
                &[],
                redfish_error("Base.1.8.PreconditionFailed", "If-Match on an action", &[]),
            );
        }
        if s.method == "PATCH" && s.path == SYS {
            return match s.if_match.as_deref() {
                None => answer(
                    428,
                    &[],
                    redfish_error("Base.1.8.PreconditionRequired", "If-Match required", &[]),
                ),
                Some("\"e1\"") => None,
                Some(_) => answer(
                    412,
                    &[],
                    redfish_error("Base.1.8.PreconditionFailed", "ETag mismatch", &[]),
                ),
            };
        }
        None
    })
    .await;
    fake.set_headers(SYS, &[("etag", "W/\"e1\"")]);
    let c = client(&fake.url);
    identify(&c).await.unwrap();
    assert!(c.has_quirk(Effect::IfMatchRequired));
    let b = boot_once_cd(&c, SYS, None, None).await.unwrap();
    assert_eq!(b.read_target.as_deref(), Some("Cd"));
    let patches: Vec<_> = fake
        .seen("PATCH", SYS)
        .into_iter()
        .map(|s| s.if_match)
        .collect();
    assert_eq!(
        patches,
        vec![Some("W/\"e1\"".into()), Some("\"e1\"".into())]
    );
    // Reset is an action: no If-Match, so no 412.
    reset(&c, SYS, PowerAction::On).await.unwrap();

    // No ETag known yet and 428: read the resource again and use its ETag.
    let c = client(&fake.url);
    c.execute(Request::patch(SYS, json!({"AssetTag": "x"})))
        .await
        .unwrap();
    assert!(c.applied_quirks().contains(&"etag_refetch".to_owned()));
}

#[tokio::test]
async fn insert_ladder_climbs_only_on_named_properties() {
    // Supermicro-like firmware that rejects Inserted, then wants TransferProtocolType.
    let fake = start(tree("Contoso", "1.0"), Sessions::Location, |s, _| {
        if s.method == "POST" && s.path.ends_with("InsertMedia") {
            if s.body.get("Inserted").is_some() {
                return answer(
                    400,
                    &[],
                    redfish_error(
                        "Base.1.8.ActionParameterUnknown",
                        "The property Inserted is not valid",
                        &["Inserted"],
                    ),
                );
            }
            if s.body.get("TransferProtocolType").is_none() {
                return answer(
                    400,
                    &[],
                    redfish_error(
                        "Base.1.8.ActionParameterMissing",
                        "TransferProtocolType is required",
                        &["TransferProtocolType"],
                    ),
                );
            }
        }
        None
    })
    .await;
    let c = client(&fake.url);
    identify(&c).await.unwrap();
    let sys = system(&c, SYS).await.unwrap();
    let all = slots(&c, &sys).await.unwrap();
    assert!(all.iter().all(|s| s.on_manager), "found under the Manager");
    let choice = choose_slots(&all, false);
    let (iso, img) = (choice.iso.unwrap(), choice.image.unwrap());
    assert_eq!((iso.id.as_str(), img.id.as_str()), ("2", "1"));
    let url = "http://10.0.0.9/m/boot.iso";
    let out = insert(&c, &iso, url, MediaKind::Iso).await.unwrap();
    assert_eq!(
        out.rungs,
        vec!["full", "image_only", "+TransferProtocolType"]
    );
    assert_eq!(fake.resource(&format!("{VM}/2"))["Image"], url);
    // A refusal that names nothing is not climbed.
    let fake = start(tree("Contoso", "1.0"), Sessions::Location, |s, _| {
        (s.method == "POST" && s.path.ends_with("InsertMedia"))
            .then(|| {
                answer(
                    400,
                    &[],
                    redfish_error("Base.1.8.GeneralError", "Cannot download", &[]),
                )
            })
            .flatten()
    })
    .await;
    let c = client(&fake.url);
    let sys = system(&c, SYS).await.unwrap();
    let iso = choose_slots(&slots(&c, &sys).await.unwrap(), false)
        .iso
        .unwrap();
    let e = insert(&c, &iso, url, MediaKind::Iso).await.unwrap_err();
    assert!(e.to_string().contains("Cannot download"), "{e}");
    assert_eq!(fake.seen("POST", "InsertMedia").len(), 1);
}

#[tokio::test]
async fn supermicro_starts_image_only_and_boots_usbcd_with_the_full_triple() {
    let fake = start(
        tree("Supermicro", "01.00.03"),
        Sessions::Location,
        |_, _| None,
    )
    .await;
    let c = client(&fake.url);
    identify(&c).await.unwrap();
    let sys = system(&c, SYS).await.unwrap();
    // Occupied the Supermicro way: Image cleared but still connected.
    fake.put(
        &format!("{VM}/2"),
        json!({"@odata.id": format!("{VM}/2"), "Id": "2", "MediaTypes": ["CD", "DVD"], "Inserted": false,
            "Image": "http://old/x.iso", "ConnectedVia": "URI",
            "Actions": {"#VirtualMedia.InsertMedia": {"target": format!("{VM}/2/Actions/VirtualMedia.InsertMedia")},
                "#VirtualMedia.EjectMedia": {"target": format!("{VM}/2/Actions/VirtualMedia.EjectMedia")}}}),
    );
    let iso = choose_slots(&slots(&c, &sys).await.unwrap(), false)
        .iso
        .unwrap();
    let out = insert(&c, &iso, "http://10.0.0.9/m/boot.iso", MediaKind::Iso)
        .await
        .unwrap();
    assert_eq!(out.rungs, vec!["image_only"]);
    assert!(out
        .quirks
        .contains(&"supermicro-insert-image-only".to_owned()));
    assert_eq!(
        fake.seen("POST", "/2/Actions/VirtualMedia.EjectMedia")
            .len(),
        1,
        "ejected first"
    );
    assert_eq!(
        fake.seen("POST", "InsertMedia")[0].body,
        json!({"Image": "http://10.0.0.9/m/boot.iso"})
    );
    let b = boot_once_cd(&c, SYS, None, Some(&iso)).await.unwrap();
    assert_eq!(b.target, "UsbCd");
    assert_eq!(
        fake.seen("PATCH", SYS)[0].body,
        json!({"Boot": {"BootSourceOverrideTarget": "UsbCd", "BootSourceOverrideEnabled": "Once", "BootSourceOverrideMode": "UEFI"}})
    );
    clear_boot_override(&c, SYS).await.unwrap();
    assert_eq!(
        fake.resource(SYS)["Boot"]["BootSourceOverrideEnabled"],
        "Disabled"
    );
    assert!(c
        .applied_quirks()
        .contains(&"supermicro-boot-usbcd".to_owned()));
}

#[tokio::test]
async fn hpe_boot_on_next_server_reset_when_the_boot_patch_is_refused() {
    let fake = start(tree("HPE", "iLO 5 v3.11"), Sessions::HpeMessage, |s, _| {
        (s.method == "PATCH" && s.path == SYS)
            .then(|| {
                answer(
                    400,
                    &[],
                    redfish_error(
                        "iLO.2.25.UnableToModifyDuringSystemPOST",
                        "busy in POST",
                        &[],
                    ),
                )
            })
            .flatten()
    })
    .await;
    let c = client(&fake.url);
    identify(&c).await.unwrap();
    let sys = system(&c, SYS).await.unwrap();
    let iso = choose_slots(&slots(&c, &sys).await.unwrap(), false)
        .iso
        .unwrap();
    let b = boot_once_cd(&c, SYS, None, Some(&iso)).await.unwrap();
    assert_eq!(b.via, "hpe_boot_on_next_reset");
    assert_eq!(
        fake.resource(&format!("{VM}/2"))["Oem"]["Hpe"]["BootOnNextServerReset"],
        true
    );
}

#[tokio::test]
async fn settings_object_when_the_system_refuses_boot() {
    let fake = start(
        tree("Dell Inc.", "7.10.00.00"),
        Sessions::Location,
        |s, _| {
            (s.method == "PATCH" && s.path == SYS)
                .then(|| {
                    answer(
                        400,
                        &[],
                        redfish_error(
                            "Base.1.8.PropertyNotWritable",
                            "Boot is read-only here",
                            &["Boot"],
                        ),
                    )
                })
                .flatten()
        },
    )
    .await;
    let mut sys = fake.resource(SYS);
    sys["@Redfish.Settings"] =
        json!({"SettingsObject": {"@odata.id": "/redfish/v1/Systems/1/Settings"}});
    fake.put(SYS, sys);
    fake.put("/redfish/v1/Systems/1/Settings", json!({"Boot": {}}));
    let c = client(&fake.url);
    identify(&c).await.unwrap();
    let b = boot_once_cd(&c, SYS, None, None).await.unwrap();
    assert_eq!(b.via, "settings_object");
    assert_eq!(b.read_target.as_deref(), Some("Cd"));
    assert!(b.quirks.contains(&"dell-boot-settings-object".to_owned()));
}

#[tokio::test]
async fn lenovo_patch_insert_and_eject() {
    let fake = start(tree("Lenovo", "XCC 2.50"), Sessions::Location, |_, _| None).await;
    for id in ["1", "2"] {
        let p = format!("{VM}/{id}");
        let mut v = fake.resource(&p);
        v.as_object_mut().unwrap().remove("Actions");
        fake.put(&p, v);
        fake.set_headers(&p, &[("allow", "GET, PATCH"), ("etag", "\"v1\"")]);
    }
    let c = client(&fake.url);
    identify(&c).await.unwrap();
    let sys = system(&c, SYS).await.unwrap();
    let choice = choose_slots(&slots(&c, &sys).await.unwrap(), false);
    let iso = choice.iso.unwrap();
    assert!(iso.patch_allowed && iso.insert_target.is_none());
    let url = "https://10.0.0.9/m/boot.iso";
    let out = insert(&c, &iso, url, MediaKind::Iso).await.unwrap();
    assert!(out.via_patch);
    let p = fake.seen("PATCH", &format!("{VM}/2"));
    assert_eq!(p[0].body["TransferProtocolType"], "HTTPS");
    assert_eq!(p[0].if_match.as_deref(), Some("\"v1\""));
    eject(&c, &iso).await.unwrap();
    assert_eq!(fake.resource(&format!("{VM}/2"))["Inserted"], false);
}

#[tokio::test]
async fn eject_error_is_accepted_when_the_slot_reads_empty() {
    let fake = start(
        tree("Dell Inc.", "7.00.00.00"),
        Sessions::Location,
        |s, inner| {
            if s.method == "POST" && s.path.ends_with("EjectMedia") {
                let slot = s
                    .path
                    .trim_end_matches("/Actions/VirtualMedia.EjectMedia")
                    .to_owned();
                let v = inner.resources.get_mut(&slot).unwrap();
                v["Inserted"] = json!(false);
                v["Image"] = json!(null);
                v["ConnectedVia"] = json!("NotConnected");
                return answer(
                    409,
                    &[],
                    redfish_error("Base.1.8.ResourceInUse", "already ejecting", &[]),
                );
            }
            None
        },
    )
    .await;
    let mut slot = fake.resource(&format!("{VM}/2"));
    slot["Inserted"] = json!(true);
    slot["Image"] = json!("http://x/y.iso");
    fake.put(&format!("{VM}/2"), slot);
    let c = client(&fake.url);
    let sys = system(&c, SYS).await.unwrap();
    let iso = choose_slots(&slots(&c, &sys).await.unwrap(), false)
        .iso
        .unwrap();
    eject(&c, &iso).await.unwrap();
    assert!(c
        .applied_quirks()
        .contains(&"eject_error_but_empty".to_owned()));
}

#[tokio::test]
async fn dell_refuses_wrong_extensions_before_sending() {
    let fake = start(
        tree("Dell Inc.", "7.00.00.00"),
        Sessions::Location,
        |_, _| None,
    )
    .await;
    let c = client(&fake.url);
    identify(&c).await.unwrap();
    let sys = system(&c, SYS).await.unwrap();
    let choice = choose_slots(
        &slots(&c, &sys).await.unwrap(),
        c.has_quirk(Effect::IsoSlot1),
    );
    let e = insert(
        &c,
        &choice.image.unwrap(),
        "http://10.0.0.9/m/oemdrv.iso",
        MediaKind::Image,
    )
    .await
    .unwrap_err();
    assert!(matches!(e, Error::Invalid(_)), "{e:?}");
    assert!(fake.seen("POST", "InsertMedia").is_empty());
}

#[tokio::test]
async fn inventory_and_disks() {
    let fake = start(
        tree("Dell Inc.", "7.00.00.00"),
        Sessions::Location,
        |_, _| None,
    )
    .await;
    fake.set_headers(
        "/redfish/v1/Systems/1/Storage/RAID.1/Volumes/1",
        &[("allow", "GET, DELETE")],
    );
    let c = client(&fake.url);
    let all = systems(&c).await.unwrap();
    let s = &all[0];
    assert_eq!(s.processors.cores, Some(32));
    assert_eq!(s.memory_gib, Some(128.0));
    assert_eq!(s.serial.as_deref(), Some("SN1"));
    let st = storage(&c, s).await.unwrap();
    assert_eq!(st[0].drives[0].capacity_bytes, Some(960_000_000_000));
    assert_eq!(st[0].drives[0].status.as_deref(), Some("OK/Enabled"));
    // What an install-disk hint matches on; the WWN is the NAA name, not the UUID before it.
    let d = &st[0].drives[0];
    assert_eq!(
        (
            d.manufacturer.as_deref(),
            d.model.as_deref(),
            d.serial.as_deref()
        ),
        (Some("Micron"), Some("MTFDDAK960TDS"), Some("21033A4E"))
    );
    assert_eq!(d.wwn.as_deref(), Some("500A07511234ABCD"));
    assert_eq!(d.rotational(), Some(false));
    // The host's NICs by MAC (the permanent one where the current is blank), link as said.
    let nics = bootsmith_redfish::ethernet_interfaces(&c, s).await.unwrap();
    assert_eq!(
        nics.iter()
            .map(|n| (n.id.as_str(), n.mac.as_deref(), n.link_up))
            .collect::<Vec<_>>(),
        [
            (
                "NIC.Integrated.1-1-1",
                Some("B8:CE:F6:5A:10:01"),
                Some(true)
            ),
            (
                "NIC.Integrated.1-2-1",
                Some("B8:CE:F6:5A:10:02"),
                Some(false)
            )
        ]
    );
    assert!(st[0].volumes[0].delete_allowed);
    // A volume names its member drives: the installed system sees the volume, not them.
    assert_eq!(
        (st[0].volumes[0].raid.as_deref(), &st[0].volumes[0].drives),
        (Some("RAID1"), &vec![st[0].drives[0].path.clone()])
    );
    let done = reset_disks(&c, s).await.unwrap();
    assert_eq!(done.volumes_deleted.len(), 1);
    assert_eq!(done.drives_erased.len(), 1);

    // Neither DELETE nor SecureErase: NotSupported naming the BMC.
    let fake = start(
        tree("Dell Inc.", "7.00.00.00"),
        Sessions::Location,
        |_, _| None,
    )
    .await;
    let d = "/redfish/v1/Systems/1/Storage/RAID.1/Drives/0";
    let mut drive = fake.resource(d);
    drive.as_object_mut().unwrap().remove("Actions");
    fake.put(d, drive);
    let c = client(&fake.url);
    let s = system(&c, SYS).await.unwrap();
    match reset_disks(&c, &s).await {
        Err(Error::NotSupported { address, what }) => {
            assert_eq!(address, fake.url);
            assert!(what.contains("SecureErase"));
        }
        other => panic!("expected NotSupported, got {other:?}"),
    }
}

#[tokio::test]
async fn mount_skips_a_slot_that_refuses_and_reports_a_single_device() {
    // CIMC-like: slot 0 (CD) is an internal vKVM slot answering 405; a DVD slot 3 takes the ISO.
    let fake = start(
        tree("Cisco Systems Inc.", "4.1(3d)"),
        Sessions::BodyOdataId,
        |s, _| {
            (s.method == "POST" && s.path.ends_with("/0/Actions/VirtualMedia.InsertMedia"))
                .then(|| answer(405, &[], json!({})))
                .flatten()
        },
    )
    .await;
    let mut zero = fake.resource(&format!("{VM}/2"));
    zero["@odata.id"] = json!(format!("{VM}/0"));
    zero["Id"] = json!("0");
    zero["MediaTypes"] = json!(["CD"]);
    zero["Actions"]["#VirtualMedia.InsertMedia"]["target"] =
        json!(format!("{VM}/0/Actions/VirtualMedia.InsertMedia"));
    fake.put(&format!("{VM}/0"), zero);
    let mut two = fake.resource(&format!("{VM}/2"));
    two["MediaTypes"] = json!(["DVD"]);
    fake.put(&format!("{VM}/2"), two);
    fake.put(
        VM,
        json!({"Members": [{"@odata.id": format!("{VM}/0")}, {"@odata.id": format!("{VM}/1")}, {"@odata.id": format!("{VM}/2")}]}),
    );
    let c = client(&fake.url);
    identify(&c).await.unwrap();
    let sys = system(&c, SYS).await.unwrap();
    let m = mount(
        &c,
        &sys,
        "http://10.0.0.9/m/boot.iso",
        Some("http://10.0.0.9/m/oemdrv.img"),
    )
    .await
    .unwrap();
    assert_eq!(m.skipped, vec!["0"]);
    assert_eq!(m.iso.slot, "2");
    assert_eq!(m.image.unwrap().slot, "1");
    assert_eq!(
        fake.resource(&format!("{VM}/1"))["Image"],
        "http://10.0.0.9/m/oemdrv.img"
    );

    // Supermicro: one CD slot only; the image has nowhere to go and the caller is told.
    let fake = start(
        tree("Supermicro", "01.00.03"),
        Sessions::Location,
        |_, _| None,
    )
    .await;
    fake.put(VM, json!({"Members": [{"@odata.id": format!("{VM}/2")}]}));
    let c = client(&fake.url);
    identify(&c).await.unwrap();
    let sys = system(&c, SYS).await.unwrap();
    let m = mount(
        &c,
        &sys,
        "http://10.0.0.9/m/boot.iso",
        Some("http://10.0.0.9/m/oemdrv.img"),
    )
    .await
    .unwrap();
    assert!(m.image.is_none());
    assert!(c
        .applied_quirks()
        .contains(&"supermicro-single-device".to_owned()));
}

#[tokio::test]
async fn task_monitor_survives_one_expired_session() {
    let fake = start(
        tree("Dell Inc.", "7.00.00.00"),
        Sessions::Location,
        |s, inner| {
            if s.method == "POST" && s.path.ends_with("ComputerSystem.Reset") {
                return answer(
                    202,
                    &[
                        ("location", "/redfish/v1/TaskMonitors/1"),
                        ("retry-after", "0"),
                    ],
                    json!({}),
                );
            }
            if s.path == "/redfish/v1/TaskMonitors/1" {
                if s.auth == "token:tok1" {
                    inner.tokens.retain(|t| t != "tok1");
                    return answer(401, &[], json!({}));
                }
                return answer(200, &[], json!({"TaskState": "Completed"}));
            }
            None
        },
    )
    .await;
    let c = client(&fake.url);
    reset(&c, SYS, PowerAction::On).await.unwrap();
    assert_eq!(fake.seen("POST", "/SessionService/Sessions").len(), 2);
}

#[tokio::test]
async fn tls_verify_pinned_and_insecure() {
    let (fake, fingerprint) = common::fake::start_tls(tree("Dell Inc.", "7.00.00.00")).await;
    let with = |trust: Trust| {
        let mut c = Config::new(fake.url.clone(), "admin", "password");
        c.trust = trust;
        c.timeout = Duration::from_secs(5);
        c.backoff = Duration::from_millis(10);
        Client::new(c).unwrap()
    };
    // A self-signed certificate is not trusted, and the error names its fingerprint.
    match with(Trust::Verify).service_root().await {
        Err(Error::Tls {
            fingerprint: f,
            pinned: None,
            ..
        }) => assert_eq!(f, fingerprint),
        other => panic!("expected Tls, got {other:?}"),
    }
    // Pinned as an operator may type it (lower case, no colons).
    let typed = fingerprint.replace(':', "").to_lowercase();
    with(Trust::Pinned(typed)).service_root().await.unwrap();
    let wrong = "00".repeat(32);
    match with(Trust::Pinned(wrong)).service_root().await {
        Err(Error::Tls {
            fingerprint: f,
            pinned: Some(_),
            ..
        }) => assert_eq!(f, fingerprint),
        other => panic!("expected Tls mismatch, got {other:?}"),
    }
    let c = with(Trust::Insecure);
    identify(&c).await.unwrap();
    assert!(matches!(
        Client::new(Config {
            trust: Trust::Pinned("nope".into()),
            ..Config::new("h", "u", "p")
        }),
        Err(Error::Invalid(_))
    ));
}

#[tokio::test]
async fn restart_of_an_off_system_powers_it_on_and_a_guarded_root_is_read_logged_in() {
    let fake = start(
        tree("Dell Inc.", "7.00.00.00"),
        Sessions::Location,
        |s, _| {
            (s.path == "/redfish/v1/" && s.auth == "none")
                .then(|| answer(401, &[], json!({})))
                .flatten()
        },
    )
    .await;
    let c = client(&fake.url);
    let id = identify(&c).await.unwrap();
    assert_eq!(id.vendor, Vendor::Dell);
    let sent = reset(&c, SYS, PowerAction::HardReset).await.unwrap();
    assert_eq!(sent.as_deref(), Some("On"));
    wait_power(&c, SYS, PowerState::On, Duration::from_secs(5))
        .await
        .unwrap();
    let sent = reset(&c, SYS, PowerAction::HardReset).await.unwrap();
    assert_eq!(sent.as_deref(), Some("ForceRestart"));
    let e = wait_power(&c, SYS, PowerState::Off, Duration::from_millis(10))
        .await
        .unwrap_err();
    assert!(matches!(e, Error::Timeout { .. }), "{e:?}");
}

#[tokio::test]
async fn headers_and_the_identity_encoding_dropped_after_406() {
    let fake = start(tree("HPE", "iLO 5 v3.11"), Sessions::Location, |s, _| {
        (s.path == "/redfish/v1/Managers/1" && s.accept_encoding.as_deref() == Some("identity"))
            .then(|| answer(406, &[], json!({})))
            .flatten()
    })
    .await;
    let c = client(&fake.url);
    c.get(SYS).await.unwrap();
    assert_eq!(
        fake.seen("GET", SYS)[0].accept_encoding.as_deref(),
        Some("identity")
    );
    assert!(fake
        .log()
        .iter()
        .all(|s| s.odata == (Some("4.0".into()), Some("application/json".into()))));
    c.get("/redfish/v1/Managers/1").await.unwrap();
    assert!(c
        .applied_quirks()
        .contains(&"drop_identity_encoding".to_owned()));
    let gets = fake.seen("GET", "/redfish/v1/Managers/1");
    assert_eq!(gets.len(), 2);
    assert_eq!(gets[1].accept_encoding, None);
}

/// Clearing sends the target `None` with `Disabled`, and reads back: a BMC that answers 204
/// and keeps the override is an error naming what it kept (sushy-tools kept `Cd` when told
/// `Disabled` alone).
#[tokio::test]
async fn clearing_the_boot_override_clears_its_target_and_reads_it_back() {
    let fake = start(
        tree("Dell Inc.", "7.00.00.00"),
        Sessions::Location,
        |_, _| None,
    )
    .await;
    let c = client(&fake.url);
    identify(&c).await.unwrap();
    boot_once_cd(&c, SYS, None, None).await.unwrap();
    clear_boot_override(&c, SYS).await.unwrap();
    assert_eq!(
        fake.seen("PATCH", SYS).last().unwrap().body["Boot"]["BootSourceOverrideTarget"],
        "None"
    );
    let boot = system(&c, SYS).await.unwrap().boot;
    assert_eq!(boot.target.as_deref(), Some("None"), "{boot:?}");

    // Now one that says yes and keeps it.
    let kept = start(
        tree("Dell Inc.", "7.00.00.00"),
        Sessions::Location,
        |s, _| {
            (s.method == "PATCH" && s.path == SYS)
                .then(|| answer(204, &[], json!(null)))
                .flatten()
        },
    )
    .await;
    let mut sys = kept.resource(SYS);
    sys["Boot"]["BootSourceOverrideTarget"] = json!("Cd");
    sys["Boot"]["BootSourceOverrideEnabled"] = json!("Continuous");
    kept.put(SYS, sys);
    let c = client(&kept.url);
    identify(&c).await.unwrap();
    let e = clear_boot_override(&c, SYS).await.unwrap_err().to_string();
    assert!(e.contains("Cd") && e.contains("kept"), "{e}");
}

/// A one-time boot the system holds already is not written again: the outcome says unchanged.
#[tokio::test]
async fn a_held_one_time_boot_is_not_written_again() {
    let fake = start(
        tree("Dell Inc.", "7.00.00.00"),
        Sessions::Location,
        |_, _| None,
    )
    .await;
    let c = client(&fake.url);
    identify(&c).await.unwrap();
    let first = ensure_boot_once_cd(&c, SYS, Some("UEFI"), None)
        .await
        .unwrap();
    assert!(!first.unchanged);
    let patches = fake.seen("PATCH", SYS).len();
    let again = ensure_boot_once_cd(&c, SYS, Some("UEFI"), None)
        .await
        .unwrap();
    assert!(again.unchanged, "{again:?}");
    assert_eq!(fake.seen("PATCH", SYS).len(), patches, "written again");
    // Another mode is a change.
    let legacy = ensure_boot_once_cd(&c, SYS, Some("Legacy"), None)
        .await
        .unwrap();
    assert!(!legacy.unchanged);
}
