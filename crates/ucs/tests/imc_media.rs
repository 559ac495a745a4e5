//! Install media on a standalone IMC, against the simulator over real HTTP: plan, write one
//! object per request, converge, re-point a mapping, and stop cleanly at a bad object.

use std::time::Duration;

use bootsmith_sim::media::MediaServer;
use bootsmith_sim::{Sim, SimConfig};
use bootsmith_ucs::imc_media::{self, ImcMedia, RemoteImage};
use bootsmith_ucs::{Action, Endpoint, Kind, Target, Trust, Wanted};

const SERVER: &str = "sys/rack-unit-1";
const BOOT: &str = "sys/rack-unit-1/boot-precision";

async fn imc() -> (Sim, Endpoint) {
    let mut cfg = SimConfig::imc();
    cfg.effect_delay = Duration::from_millis(100);
    let sim = Sim::start(cfg).await.unwrap();
    let ep = Endpoint::new(Target {
        kind: Kind::Imc,
        address: sim.address(),
        user: "admin".into(),
        password: "password".into(),
        trust: Trust::Verify,
        timeout: Duration::from_secs(5),
    })
    .unwrap();
    (sim, ep)
}

fn image(file: &str) -> RemoteImage {
    image_at("http://192.0.2.10:8080/svc/", file)
}

fn image_at(share: &str, file: &str) -> RemoteImage {
    RemoteImage {
        share: share.into(),
        file: file.into(),
    }
}

fn media(cd: &str, hdd: Option<&str>, uefi: bool) -> ImcMedia {
    ImcMedia {
        cd: image(cd),
        hdd: hdd.map(image),
        uefi,
    }
}

/// Plan and carry out `wanted`; the plan's actions by dn.
async fn converge(ep: &Endpoint, wanted: &[Wanted]) -> Vec<(String, Action)> {
    let (changes, send) = ep.plan(wanted).await.unwrap();
    ep.configure(imc_media::remount(wanted, send))
        .await
        .unwrap();
    changes.into_iter().map(|c| (c.dn, c.action)).collect()
}

fn count(sim: &Sim, method: &str) -> u64 {
    sim.method_counts().get(method).copied().unwrap_or(0)
}

#[tokio::test]
async fn media_are_written_one_object_per_request_and_converge() {
    let (sim, ep) = imc().await;
    // The IMC fetches what it mounts: serve the images.
    let server = MediaServer::start(&[
        ("rhel8.4-boot.iso", vec![1u8; 4096]),
        ("node01.img", vec![2u8; 4096]),
    ])
    .await
    .unwrap();
    let share = server.share();
    let wanted = imc_media::wanted(
        SERVER,
        &ImcMedia {
            cd: image_at(&share, "rhel8.4-boot.iso"),
            hdd: Some(image_at(&share, "node01.img")),
            uefi: false,
        },
    );

    let (changes, send) = ep.plan(&wanted).await.unwrap();
    let actions: Vec<(&str, Action)> = changes.iter().map(|c| (c.dn.as_str(), c.action)).collect();
    assert_eq!(
        actions,
        [
            ("sys/svc-ext/vmedia-svc", Action::Unchanged),
            ("sys/svc-ext/vmedia-svc/vmmap-bootsmith-cd", Action::Create),
            ("sys/svc-ext/vmedia-svc/vmmap-bootsmith-hdd", Action::Create),
            (BOOT, Action::Unchanged),
            (
                "sys/rack-unit-1/boot-precision/hdd-bootsmith-disk",
                Action::Create
            ),
            (
                "sys/rack-unit-1/boot-precision/vm-bootsmith-cd",
                Action::Create
            ),
            (
                "sys/rack-unit-1/boot-precision/vm-bootsmith-hdd",
                Action::Create
            ),
        ]
    );
    assert_eq!(send.len(), 5);
    let written = ep
        .configure(imc_media::remount(&wanted, send))
        .await
        .unwrap();
    assert_eq!(written.len(), 5, "each reply carries its object");
    assert_eq!(count(&sim, "configConfMo"), 5, "one request per object");
    assert_eq!(count(&sim, "configConfMos"), 0);

    // Idempotent: nothing left to do, nothing sent.
    let (again, send) = ep.plan(&wanted).await.unwrap();
    assert!(
        again.iter().all(|c| c.action == Action::Unchanged),
        "{again:?}"
    );
    assert!(send.is_empty());
    ep.configure(send).await.unwrap();
    assert_eq!(count(&sim, "configConfMo"), 5);

    // The boot order reads back disk, CD, HDD.
    let devices = ep
        .resolve_dns(&[
            format!("{BOOT}/hdd-bootsmith-disk"),
            format!("{BOOT}/vm-bootsmith-cd"),
            format!("{BOOT}/vm-bootsmith-hdd"),
        ])
        .await
        .unwrap();
    let order: Vec<(&str, &str, &str)> = devices
        .iter()
        .map(|d| (d.get("order"), d.class.as_str(), d.get("subtype")))
        .collect();
    assert_eq!(
        order,
        [
            ("1", "lsbootHdd", ""),
            ("2", "lsbootVMedia", "cimc-mapped-dvd"),
            ("3", "lsbootVMedia", "cimc-mapped-hdd"),
        ]
    );
    assert!(devices.iter().all(|d| d.get("state") == "Enabled"));
    // The IMC mounts the images after a moment, having fetched each (HEAD, then a range).
    tokio::time::sleep(Duration::from_millis(300)).await;
    for volume in [imc_media::CD_VOLUME, imc_media::HDD_VOLUME] {
        let m = sim.get(&imc_media::mapping_dn(volume)).unwrap();
        assert_eq!(m.get("mappingStatus"), "OK", "{volume}");
    }
    assert_eq!(
        server.requests_for("/svc/node01.img"),
        ["HEAD", "GET bytes=0-4095"]
    );
}

#[tokio::test]
async fn a_new_image_remounts_the_mapping_and_undeploy_unmounts() {
    let (sim, ep) = imc().await;
    let cd = imc_media::mapping_dn(imc_media::CD_VOLUME);
    converge(
        &ep,
        &imc_media::wanted(
            SERVER,
            &media("rhel8.4-boot.iso", Some("node01.img"), false),
        ),
    )
    .await;

    // Another installer: the IMC cannot change the mapping in place...
    let wanted = imc_media::wanted(
        SERVER,
        &media("rhel9.2-boot.iso", Some("node01.img"), false),
    );
    let (changes, send) = ep.plan(&wanted).await.unwrap();
    let modified: Vec<&str> = changes
        .iter()
        .filter(|c| c.action == Action::Modify)
        .map(|c| c.dn.as_str())
        .collect();
    assert_eq!(modified, [cd.as_str()]);
    let err = ep.configure(send).await.unwrap_err();
    assert_eq!(err.ucs_code(), Some("101"), "{err}");
    assert!(err.to_string().contains(&cd), "{err}");
    assert_eq!(sim.get(&cd).unwrap().get("remoteFile"), "rhel8.4-boot.iso");
    // ...so remount deletes it and creates it again.
    let before = count(&sim, "configConfMo");
    converge(&ep, &wanted).await;
    assert_eq!(
        count(&sim, "configConfMo") - before,
        2,
        "delete, then create"
    );
    assert_eq!(sim.get(&cd).unwrap().get("remoteFile"), "rhel9.2-boot.iso");
    let (again, _) = ep.plan(&wanted).await.unwrap();
    assert!(again.iter().all(|c| c.action == Action::Unchanged));

    // UEFI without the HDD image: boot mode changes, the HDD device and mapping go.
    let uefi = imc_media::wanted(SERVER, &media("rhel9.2-boot.iso", None, true));
    let actions = converge(&ep, &uefi).await;
    assert!(actions.contains(&(BOOT.to_owned(), Action::Modify)));
    assert!(actions.contains(&(imc_media::mapping_dn(imc_media::HDD_VOLUME), Action::Delete)));
    assert_eq!(sim.get(BOOT).unwrap().get("configuredBootMode"), "Uefi");
    assert!(sim.get(&format!("{BOOT}/vm-bootsmith-hdd")).is_none());
    assert!(sim
        .get(&imc_media::mapping_dn(imc_media::HDD_VOLUME))
        .is_none());
    let (again, _) = ep.plan(&uefi).await.unwrap();
    assert!(
        again.iter().all(|c| c.action == Action::Unchanged),
        "{again:?}"
    );

    // Undeploy: the media go, the server keeps booting its disk.
    converge(&ep, &imc_media::unwanted(SERVER)).await;
    assert_eq!(sim.with_tree(|t| t.of_class("commVMediaMap").count()), 0);
    assert_eq!(sim.with_tree(|t| t.of_class("lsbootVMedia").count()), 0);
    assert!(sim.get(&format!("{BOOT}/hdd-bootsmith-disk")).is_some());
    let (again, send) = ep.plan(&imc_media::unwanted(SERVER)).await.unwrap();
    assert!(
        again.is_empty() && send.is_empty(),
        "nothing left to remove"
    );
}

#[tokio::test]
async fn a_rejected_object_stops_the_writes_after_the_ones_before_it() {
    let (sim, ep) = imc().await;
    let mut wanted = imc_media::wanted(
        SERVER,
        &media("rhel8.4-boot.iso", Some("node01.img"), false),
    );
    let bad = format!("{BOOT}/vm-bootsmith-cd");
    for w in &mut wanted {
        if w.mo.get("dn") == bad {
            w.mo = w.mo.clone().with("subtype", "cimc-mapped-usb");
        }
    }
    let (_, send) = ep.plan(&wanted).await.unwrap();
    assert_eq!(send.len(), 5);
    let err = ep.configure(send).await.unwrap_err();
    assert_eq!(err.ucs_code(), Some("101"), "an IMC error: {err}");
    let text = err.to_string();
    assert!(
        text.contains(&format!(
            "object 4 of 5, {bad}; the 3 before it stay applied"
        )),
        "{text}"
    );
    // No transaction: the three objects before the bad one are there, it and the rest not.
    for applied in [
        imc_media::mapping_dn(imc_media::CD_VOLUME),
        imc_media::mapping_dn(imc_media::HDD_VOLUME),
        format!("{BOOT}/hdd-bootsmith-disk"),
    ] {
        assert!(sim.get(&applied).is_some(), "{applied}");
    }
    assert!(sim.get(&bad).is_none());
    assert!(sim.get(&format!("{BOOT}/vm-bootsmith-hdd")).is_none());
    assert_eq!(
        count(&sim, "configConfMo"),
        4,
        "nothing sent after the failure"
    );
    // Planning again picks up where it stopped.
    let good = imc_media::wanted(
        SERVER,
        &media("rhel8.4-boot.iso", Some("node01.img"), false),
    );
    let actions = converge(&ep, &good).await;
    let created: Vec<&str> = actions
        .iter()
        .filter(|(_, a)| *a == Action::Create)
        .map(|(dn, _)| dn.as_str())
        .collect();
    assert_eq!(
        created,
        [
            bad.as_str(),
            "sys/rack-unit-1/boot-precision/vm-bootsmith-hdd"
        ]
    );
}
