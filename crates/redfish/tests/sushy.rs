//! The client against sushy-tools' real emulator (`--fake`): identity, inventory, both media
//! inserted and really fetched from our loopback server, one-time boot, power, disks, and the
//! Basic-auth fallback (sushy has no sessions). Skipped loudly when sushy-tools is missing, and
//! failed under CI.

mod common;

use std::time::Duration;

use bootsmith_redfish::vmedia::reread;
use bootsmith_redfish::*;
use common::{media_server, Sushy};

fn config(url: &str, password: &str) -> Config {
    let mut c = Config::new(url, "admin", password);
    c.timeout = Duration::from_secs(20);
    c.backoff = Duration::from_millis(200);
    c
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sushy_full_flow() {
    let Some(sushy) = Sushy::start("sushy_full_flow") else {
        return;
    };
    let media = media_server(vec![
        ("/m/boot.iso", vec![0x42; 64 * 1024]),
        ("/m/oemdrv.img", vec![0x17; 16 * 1024]),
    ])
    .await;

    // A wrong password is Unauthorized, not a retry loop.
    let bad = Client::new(config(&sushy.url, "wrong")).unwrap();
    match identify(&bad).await {
        Err(Error::Unauthorized { .. }) => {}
        other => panic!("expected Unauthorized, got {other:?}"),
    }

    let client = Client::new(config(&sushy.url, "password")).unwrap();
    let id = identify(&client).await.unwrap();
    assert_eq!(id.vendor, Vendor::Other);
    assert_eq!(id.systems.len(), 1, "{id:?}");
    assert!(!id.managers.is_empty());
    assert!(id.redfish_version.is_some());
    assert!(client.quirks().rules.is_empty());
    assert!(client
        .applied_quirks()
        .contains(&"basic_auth_fallback".to_owned()));
    assert_eq!(client.login().await.unwrap(), AuthMode::Basic);

    let all = systems(&client).await.unwrap();
    assert_eq!(all.len(), 1);
    let sys = &all[0];
    assert_eq!(sys.path, id.systems[0]);
    assert!(sys.virtual_media.is_some());
    assert!(!sys.managed_by.is_empty());
    assert!(sys.boot.allowed_targets.iter().any(|t| t == "Cd"));
    assert!(sys.reset_target.is_some());
    assert!(sys.power_state.is_some());

    // Slots: Cd (CD, DVD) for the ISO and Floppy (Floppy, USBStick) for the image.
    let found = slots(&client, sys).await.unwrap();
    assert_eq!(found.len(), 2, "{found:?}");
    let choice = choose_slots(&found, client.has_quirk(Effect::IsoSlot1));
    let (iso, img) = (choice.iso.unwrap(), choice.image.unwrap());
    assert_eq!((iso.id.as_str(), img.id.as_str()), ("Cd", "Floppy"));

    let iso_url = format!("{}/m/boot.iso", media.url);
    let img_url = format!("{}/m/oemdrv.img", media.url);
    let out = insert(&client, &iso, &iso_url, MediaKind::Iso)
        .await
        .unwrap();
    assert_eq!(out.rungs, vec!["full"]);
    assert!(!out.via_patch);
    let out = insert(&client, &img, &img_url, MediaKind::Image)
        .await
        .unwrap();
    assert_eq!(out.slot, "Floppy");
    let log = media.log.lock().unwrap().clone();
    assert!(log.contains(&"GET /m/boot.iso".to_owned()), "{log:?}");
    assert!(log.contains(&"GET /m/oemdrv.img".to_owned()), "{log:?}");
    let now = reread(&client, &iso).await.unwrap();
    assert!(now.inserted && now.image.as_deref() == Some(iso_url.as_str()));

    // Inserting again ejects first and fetches again.
    insert(&client, &iso, &iso_url, MediaKind::Iso)
        .await
        .unwrap();
    let fetched = media
        .log
        .lock()
        .unwrap()
        .iter()
        .filter(|l| *l == "GET /m/boot.iso")
        .count();
    assert_eq!(fetched, 2);

    // Boot once from the CD: sushy stores the target but ignores Once (a warning says so).
    let b = boot_once_cd(&client, &sys.path, None, Some(&iso))
        .await
        .unwrap();
    assert_eq!(b.target, "Cd");
    assert_eq!(b.via, "system");
    assert_eq!(b.read_target.as_deref(), Some("Cd"));
    assert!(!b.warnings.is_empty(), "{b:?}");

    // Power: on, wait; off, wait (sushy takes a random 1-11 s).
    let sent = reset(&client, &sys.path, PowerAction::On).await.unwrap();
    assert_eq!(sent.as_deref(), Some("On"));
    wait_power(&client, &sys.path, PowerState::On, Duration::from_secs(40))
        .await
        .unwrap();
    assert_eq!(
        reset(&client, &sys.path, PowerAction::On).await.unwrap(),
        None,
        "already on: nothing sent"
    );
    let sent = reset(&client, &sys.path, PowerAction::Off).await.unwrap();
    assert_eq!(sent.as_deref(), Some("ForceOff"));
    wait_power(&client, &sys.path, PowerState::Off, Duration::from_secs(40))
        .await
        .unwrap();

    // After the install: eject both, clear the override.
    eject(&client, &iso).await.unwrap();
    eject(&client, &img).await.unwrap();
    let now = reread(&client, &img).await.unwrap();
    assert!(!now.inserted && now.image.is_none(), "{now:?}");
    clear_boot_override(&client, &sys.path).await.unwrap();
    // Cleared means the target is gone: sushy reports Continuous whatever it is told.
    let back = system(&client, &sys.path).await.unwrap();
    assert_eq!(back.boot.target.as_deref(), Some("None"), "{:?}", back.boot);

    // Disks: sushy's fake driver has no storage and says so with a 500 (after the read
    // retries); the error carries its own message.
    match storage(&client, sys).await {
        Ok(st) => eprintln!("sushy storage: {st:?}"),
        Err(Error::Refused {
            status, message, ..
        }) => assert!(status == 500 && message.contains("storage"), "{message}"),
        Err(e) => panic!("unexpected {e:?}"),
    }

    // A 404 insert URL is the emulator's refusal with its own message.
    let missing = format!("{}/m/missing.iso", media.url);
    match insert(&client, &iso, &missing, MediaKind::Iso).await {
        Err(Error::Refused {
            status, message, ..
        }) => {
            assert_eq!(status, 400);
            assert!(message.contains("404"), "{message}");
        }
        other => panic!("expected Refused, got {other:?}"),
    }

    // The whole mount in one call: both slots chosen, ejected, filled and read back.
    let m = mount(&client, sys, &iso_url, Some(&img_url)).await.unwrap();
    assert_eq!(m.iso.slot, "Cd");
    assert_eq!(m.image.as_ref().map(|i| i.slot.as_str()), Some("Floppy"));
    assert!(m.skipped.is_empty());
    let log = media.log.lock().unwrap().clone();
    assert_eq!(
        log.iter().filter(|l| *l == "GET /m/boot.iso").count(),
        3,
        "{log:?}"
    );
    assert_eq!(
        log.iter().filter(|l| *l == "GET /m/oemdrv.img").count(),
        2,
        "{log:?}"
    );
    client.logout().await;
}

#[tokio::test]
async fn unreachable_address_is_unreachable() {
    let port = common::free_port();
    let client = Client::new(config(&format!("http://127.0.0.1:{port}"), "x")).unwrap();
    match client.service_root().await {
        Err(Error::Unreachable { address, .. }) => assert!(address.contains(&port.to_string())),
        other => panic!("expected Unreachable, got {other:?}"),
    }
}
