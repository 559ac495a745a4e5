//! The client against the simulator over real HTTP.

use std::time::Duration;

use bootsmith_sim::{Faults, Sim, SimConfig};
use bootsmith_ucs::{Endpoint, Error, Kind, PowerAction, ServerKind, Target, Trust};

fn target(sim: &Sim, kind: Kind, password: &str) -> Target {
    Target {
        kind,
        address: sim.address(),
        user: "admin".into(),
        password: password.into(),
        trust: Trust::Verify,
        timeout: Duration::from_secs(5),
    }
}

async fn ucsm() -> (Sim, Endpoint) {
    let mut cfg = SimConfig::ucsm();
    cfg.effect_delay = Duration::from_millis(100);
    let sim = Sim::start(cfg).await.unwrap();
    let ep = Endpoint::new(target(&sim, Kind::Ucsm, "password")).unwrap();
    (sim, ep)
}

#[tokio::test]
async fn login_checks_credentials_and_reach() {
    let (sim, ep) = ucsm().await;
    let info = ep.login().await.unwrap();
    assert_eq!(info.version, "4.2(3d)");
    let bad = Endpoint::new(target(&sim, Kind::Ucsm, "wrong")).unwrap();
    match bad.login().await {
        Err(Error::LoginFailed { code, .. }) => assert_eq!(code, "551"),
        other => panic!("{other:?}"),
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let nowhere = Endpoint::new(Target {
        address: format!("http://127.0.0.1:{port}"),
        ..target(&sim, Kind::Ucsm, "password")
    })
    .unwrap();
    assert!(matches!(
        nowhere.login().await,
        Err(Error::Unreachable { .. })
    ));
    ep.logout().await;
    assert_eq!(sim.open_sessions(), 0, "logout ends the session");
}

#[tokio::test]
async fn inventory_is_one_request_after_login() {
    let (sim, ep) = ucsm().await;
    let servers = ep.servers().await.unwrap();
    assert_eq!(servers.len(), 10);
    let b = servers
        .iter()
        .find(|s| s.dn == "sys/chassis-1/blade-1")
        .unwrap();
    assert_eq!(
        (b.kind, b.chassis_id, b.slot),
        (ServerKind::Blade, Some(1), Some(1))
    );
    assert_eq!(b.service_profile, "org-root/ls-existing-sp");
    assert_eq!(b.oper_power, "on");
    let r = servers.iter().find(|s| s.dn == "sys/rack-unit-2").unwrap();
    assert_eq!((r.kind, r.rack_id), (ServerKind::Rack, Some(2)));
    let counts = sim.method_counts();
    assert_eq!(counts.get("aaaLogin"), Some(&1));
    assert_eq!(counts.get("configResolveClasses"), Some(&1));
    assert_eq!(sim.requests(), 2);
    let templates = ep.templates().await.unwrap();
    let names: Vec<&str> = templates.iter().map(|t| t.dn.as_str()).collect();
    assert_eq!(
        names,
        ["org-root/ls-c7-template", "org-root/ls-esxi-template"]
    );
}

#[tokio::test]
async fn power_uses_the_profile_when_there_is_one() {
    let (sim, ep) = ucsm().await;
    let servers = ep.servers().await.unwrap();
    let with_sp = servers
        .iter()
        .find(|s| s.dn == "sys/chassis-1/blade-1")
        .unwrap();
    let bare = servers
        .iter()
        .find(|s| s.dn == "sys/chassis-2/blade-3")
        .unwrap();
    let rack = servers.iter().find(|s| s.dn == "sys/rack-unit-1").unwrap();
    ep.set_power(&[with_sp, bare, rack], PowerAction::Off)
        .await
        .unwrap();
    assert_eq!(
        sim.get("org-root/ls-existing-sp/power")
            .unwrap()
            .get("state"),
        "down"
    );
    assert_eq!(
        sim.get("sys/chassis-2/blade-3").unwrap().get("adminPower"),
        "admin-down"
    );
    assert_eq!(
        sim.method_counts().get("configConfMos"),
        Some(&1),
        "one transaction for all"
    );
    ep.set_power(&[bare, rack], PowerAction::On).await.unwrap();
    tokio::time::sleep(Duration::from_millis(400)).await;
    let after = ep.servers().await.unwrap();
    let power = |dn: &str| {
        after
            .iter()
            .find(|s| s.dn == dn)
            .unwrap()
            .oper_power
            .clone()
    };
    assert_eq!(power("sys/chassis-1/blade-1"), "off");
    assert_eq!(power("sys/chassis-2/blade-3"), "on");
    assert_eq!(power("sys/rack-unit-1"), "on");
    let stages = ep.fsm_stages().await.unwrap();
    let blade: Vec<_> = stages
        .iter()
        .filter(|s| s.server_dn == "sys/chassis-2/blade-3")
        .collect();
    assert_eq!(
        blade.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(),
        ["TurnupBegin", "TurnupExecute", "TurnupSuccess"]
    );
    assert!(blade.iter().all(|s| s.stage_status == "success"));
}

#[tokio::test]
async fn disks_are_listed_and_really_reset() {
    let (_sim, ep) = ucsm().await;
    let disks = ep.local_disks().await.unwrap();
    // Two on each of the 10 servers, and the twin SSD rack server 2 mirrors its first with.
    assert_eq!(disks.len(), 21);
    let mine: Vec<_> = disks
        .iter()
        .filter(|d| d.server_dn == "sys/chassis-1/blade-2")
        .collect();
    assert_eq!(
        mine.iter().map(|d| d.state.as_str()).collect::<Vec<_>>(),
        ["online", "jbod"]
    );
    // What an install-disk hint matches on: serial, vendor, model, size, spinning or not.
    let facts: Vec<_> = mine
        .iter()
        .map(|d| {
            (
                d.serial.as_str(),
                d.vendor.as_str(),
                d.model.as_str(),
                d.size_bytes(),
                d.rotational(),
                d.protocol.as_str(),
            )
        })
        .collect();
    assert_eq!(
        facts,
        [
            (
                "MSA121",
                "MICRON",
                "MTFDDAK480TDS",
                Some(457_862 << 20),
                Some(false),
                "SATA"
            ),
            (
                "ZBS122",
                "SEAGATE",
                "ST1000NX0423",
                Some(915_715 << 20),
                Some(true),
                "SAS"
            )
        ]
    );
    // A rack server's FlexFlash SD card is listed apart: never reset with the disks.
    let cards = ep.sd_cards().await.unwrap();
    let card = cards
        .iter()
        .find(|c| c.server_dn == "sys/rack-unit-1")
        .unwrap();
    assert!(card.sd_card);
    assert_eq!(
        (card.serial.as_str(), card.size_bytes()),
        ("FF11", Some(30_436 << 20))
    );
    assert!(cards.iter().all(|c| !c.server_dn.contains("blade")));
    // The NICs a host's network is matched to, by MAC, in the firmware's order.
    let nics = ep.host_nics().await.unwrap();
    let blade: Vec<_> = nics
        .iter()
        .filter(|n| n.server_dn == "sys/chassis-1/blade-2")
        .map(|n| (n.name.as_str(), n.mac.as_str(), n.order, n.link_up))
        .collect();
    assert_eq!(
        blade,
        [
            ("eth0", "00:25:B5:00:0C:01", Some(1), Some(true)),
            ("eth1", "00:25:B5:00:0C:02", Some(2), Some(false))
        ]
    );
    ep.reset_disks(&mine).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let after = ep.local_disks().await.unwrap();
    assert!(after
        .iter()
        .filter(|d| d.server_dn == "sys/chassis-1/blade-2")
        .all(|d| d.state == "unconfigured-good"));
    assert!(after
        .iter()
        .filter(|d| d.server_dn == "sys/chassis-1/blade-3")
        .all(|d| d.state != "unconfigured-good"));
}

/// What the installed system sees besides single disks: rack server 2's RAID 1 virtual drive
/// (in place of its member disks 1 and 3) and the LUN the seeded profile boots blade 1/1 from.
#[tokio::test]
async fn virtual_drives_with_their_members_and_san_boot_luns_are_listed() {
    let (sim, ep) = ucsm().await;
    let vds = ep.virtual_drives().await.unwrap();
    assert_eq!(vds.len(), 1, "{vds:?}");
    let vd = &vds[0];
    let ctl = "sys/rack-unit-2/board/storage-SAS-1";
    assert_eq!(
        (
            vd.dn.as_str(),
            vd.server_dn.as_str(),
            vd.name.as_str(),
            vd.raid.as_str(),
            vd.size_bytes()
        ),
        (
            &*format!("{ctl}/vd-0"),
            "sys/rack-unit-2",
            "Boot",
            "mirror",
            Some(457_862 << 20)
        )
    );
    assert_eq!(
        vd.members,
        [format!("{ctl}/disk-1"), format!("{ctl}/disk-3")]
    );
    let disks = ep.local_disks().await.unwrap();
    assert!(
        vd.members.iter().all(|m| disks.iter().any(|d| &d.dn == m)),
        "each member is a disk the controller lists"
    );

    let luns = ep.san_luns().await.unwrap();
    let got: Vec<_> = luns
        .iter()
        .map(|l| {
            (
                l.server_dn.as_str(),
                l.profile_dn.as_str(),
                l.lun,
                l.target.as_str(),
                l.image.as_str(),
                l.path.as_str(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [(
            "sys/chassis-1/blade-1",
            "org-root/ls-existing-sp",
            Some(0),
            "50:06:01:60:3E:A0:12:34",
            "primary",
            "primary"
        )]
    );

    // A profile's own boot definition is the one in force: its path, not the policy's.
    let own = "org-root/ls-existing-sp/boot-policy";
    sim.with_tree(|t| {
        use bootsmith_sim::tree::Obj;
        t.put(own, Obj::new("lsbootDef", &[("bootMode", "legacy")]));
        t.put(
            format!("{own}/san"),
            Obj::new("lsbootSan", &[("order", "1")]),
        );
        t.put(
            format!("{own}/san/sanimg-secondary"),
            Obj::new("lsbootSanCatSanImage", &[("type", "secondary")]),
        );
        t.put(
            format!("{own}/san/sanimg-secondary/sanimgpath-primary"),
            Obj::new(
                "lsbootSanCatSanImagePath",
                &[
                    ("type", "primary"),
                    ("wwn", "50:06:01:68:3E:A0:12:34"),
                    ("lun", "7"),
                ],
            ),
        );
    });
    let luns = ep.san_luns().await.unwrap();
    assert_eq!(
        luns.iter()
            .map(|l| (l.dn.as_str(), l.lun, l.image.as_str()))
            .collect::<Vec<_>>(),
        [(
            "org-root/ls-existing-sp/boot-policy/san/sanimg-secondary/sanimgpath-primary",
            Some(7),
            "secondary"
        )]
    );

    // Released from its server, the profile presents no LUN to any.
    sim.with_tree(|t| t.update("org-root/ls-existing-sp", &[("pnDn", "")]));
    assert!(ep.san_luns().await.unwrap().is_empty());
}

#[tokio::test]
async fn an_expired_session_is_replaced_transparently() {
    let (sim, ep) = ucsm().await;
    ep.servers().await.unwrap();
    sim.expire_sessions();
    assert_eq!(ep.servers().await.unwrap().len(), 10);
    assert_eq!(sim.method_counts().get("aaaLogin"), Some(&2));
}

#[tokio::test]
async fn sessions_are_refreshed_before_they_run_out() {
    let mut cfg = SimConfig::ucsm();
    cfg.refresh_period = 2;
    let sim = Sim::start(cfg).await.unwrap();
    let ep = Endpoint::new(target(&sim, Kind::Ucsm, "password")).unwrap();
    ep.servers().await.unwrap();
    tokio::time::sleep(Duration::from_millis(1200)).await;
    ep.servers().await.unwrap();
    let counts = sim.method_counts();
    assert_eq!(
        (counts.get("aaaLogin"), counts.get("aaaRefresh")),
        (Some(&1), Some(&1))
    );
}

#[tokio::test]
async fn transient_failures_are_retried_and_errors_carry_the_ucs_code() {
    let (sim, ep) = ucsm().await;
    ep.login().await.unwrap();
    sim.set_faults(Faults {
        fail_next: 2,
        ..Faults::default()
    });
    assert_eq!(
        ep.servers().await.unwrap().len(),
        10,
        "two 503s, then success"
    );
    sim.set_faults(Faults {
        fail_next: 3,
        ..Faults::default()
    });
    let r = ep.servers().await;
    assert!(matches!(r, Err(Error::Http { status: 503, .. })), "{r:?}");
    sim.set_faults(Faults::default());
    let err = ep.resolve_class("noSuchClass", None).await.unwrap_err();
    assert_eq!(err.ucs_code(), Some("ERR-xml-parse-error"));
    let bad = bootsmith_ucs::xml::Mo::new("lsPower")
        .with("dn", "org-root/ls-existing-sp/power")
        .with("state", "sideways");
    let err = ep.configure(vec![bad]).await.unwrap_err();
    assert_eq!(err.ucs_code(), Some("101"), "{err}");
}

#[tokio::test]
async fn imc_requests_stay_within_two_at_a_time() {
    let mut cfg = SimConfig::imc();
    cfg.faults.latency = Duration::from_millis(30);
    cfg.effect_delay = Duration::from_millis(100);
    let sim = Sim::start(cfg).await.unwrap();
    let ep = Endpoint::new(target(&sim, Kind::Imc, "password")).unwrap();
    let calls = (0..12).map(|_| ep.servers());
    for r in futures::future::join_all(calls).await {
        assert_eq!(r.unwrap().len(), 1);
    }
    assert_eq!(
        sim.max_in_flight(),
        2,
        "parallel calls, but never more than two at once"
    );
    assert_eq!(sim.open_sessions(), 1);
    let server = ep.servers().await.unwrap().remove(0);
    assert_eq!((server.kind, server.rack_id), (ServerKind::Rack, Some(1)));
    ep.set_power(&[&server], PowerAction::On).await.unwrap();
    assert_eq!(sim.get("sys/rack-unit-1").unwrap().get("adminPower"), "up");
    let disks = ep.local_disks().await.unwrap();
    assert_eq!(
        disks.iter().map(|d| d.state.as_str()).collect::<Vec<_>>(),
        ["Online", "JBOD"]
    );
    // An IMC names the same facts differently (driveSerialNumber, mediaType, `952720 MB`).
    assert_eq!(
        disks
            .iter()
            .map(|d| (d.serial.as_str(), d.size_bytes(), d.rotational()))
            .collect::<Vec<_>>(),
        [
            ("MSA11", Some(457_862 << 20), Some(false)),
            ("ZBS12", Some(915_715 << 20), Some(true))
        ]
    );
    let cards = ep.sd_cards().await.unwrap();
    assert_eq!(
        cards
            .iter()
            .map(|c| (c.serial.as_str(), c.size_bytes(), c.sd_card))
            .collect::<Vec<_>>(),
        [("FF11", Some(30_436 << 20), true)]
    );
    // Its boot disk 1 is the single member of a RAID 0 virtual drive (`raidLevel`, `MB`).
    let vds = ep.virtual_drives().await.unwrap();
    assert_eq!(
        vds.iter()
            .map(|v| (
                v.dn.as_str(),
                v.raid.as_str(),
                v.size_bytes(),
                v.members.clone()
            ))
            .collect::<Vec<_>>(),
        [(
            "sys/rack-unit-1/board/storage-SAS-MRAID/vd-0",
            "0",
            Some(457_862 << 20),
            vec!["sys/rack-unit-1/board/storage-SAS-MRAID/pd-1".to_owned()]
        )]
    );
    let asked = sim.requests();
    assert!(
        ep.san_luns().await.unwrap().is_empty(),
        "an IMC has no profiles"
    );
    assert_eq!(sim.requests(), asked, "and is not asked for them");
    let nics = ep.host_nics().await.unwrap();
    assert_eq!(
        nics.iter()
            .map(|n| (n.name.as_str(), n.mac.as_str(), n.link_up))
            .collect::<Vec<_>>(),
        [
            ("eth0", "00:25:B5:00:01:01", None),
            ("eth1", "00:25:B5:00:01:02", None)
        ]
    );
    ep.reset_disks(&disks.iter().collect::<Vec<_>>())
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(ep
        .local_disks()
        .await
        .unwrap()
        .iter()
        .all(|d| d.state == "Unconfigured Good"));
    assert!(ep.fsm_stages().await.unwrap().is_empty());
    assert!(ep.templates().await.unwrap().is_empty());
}

#[tokio::test]
async fn dropped_connections_are_retried_and_slow_managers_time_out() {
    let (sim, ep) = ucsm().await;
    ep.login().await.unwrap();
    sim.set_faults(Faults {
        drop_next: 2,
        ..Faults::default()
    });
    assert_eq!(
        ep.servers().await.unwrap().len(),
        10,
        "two dropped connections, then success"
    );
    sim.set_faults(Faults {
        latency: Duration::from_millis(1500),
        ..Faults::default()
    });
    let slow = Endpoint::new(Target {
        timeout: Duration::from_millis(300),
        ..target(&sim, Kind::Ucsm, "password")
    })
    .unwrap();
    assert!(matches!(slow.login().await, Err(Error::Timeout { .. })));
}

#[tokio::test]
async fn logging_out_of_a_manager_that_does_not_answer_takes_seconds_not_minutes() {
    let (sim, ep) = ucsm().await;
    ep.login().await.unwrap();
    sim.set_faults(Faults {
        latency: Duration::from_secs(60),
        ..Faults::default()
    });
    let started = std::time::Instant::now();
    ep.logout().await;
    let took = started.elapsed();
    assert!(
        took >= bootsmith_ucs::endpoint::LOGOUT_WAIT && took < Duration::from_secs(10),
        "one short try, no retries: {took:?}"
    );
}

#[tokio::test]
async fn central_profiles_present_their_san_boot_luns() {
    let sim = Sim::start(SimConfig::ucsc(2)).await.unwrap();
    let ep = Endpoint::new(target(&sim, Kind::Ucsc, "password")).unwrap();
    let luns = ep.san_luns().await.unwrap();
    assert_eq!(
        luns.iter()
            .map(|l| (l.server_dn.as_str(), l.lun, l.target.as_str()))
            .collect::<Vec<_>>(),
        [(
            "compute/sys-1001/chassis-1/blade-1",
            Some(0),
            "50:06:01:60:3E:A0:12:34"
        )]
    );
    assert!(ep.virtual_drives().await.unwrap().is_empty());
}

#[tokio::test]
async fn central_domains_say_whether_and_when_central_last_read_them() {
    let sim = Sim::start(SimConfig::ucsc(3)).await.unwrap();
    let ep = Endpoint::new(target(&sim, Kind::Ucsc, "password")).unwrap();
    sim.set_domain_reachable(1002, false);
    // A registration Central never polled says `never`: no time, not the word.
    sim.with_tree(|t| t.update("extpol/reg/clients/client-1003", &[("lastPollTs", "never")]));
    let polled = |id: u32| {
        sim.get(&format!("extpol/reg/clients/client-{id}"))
            .unwrap()
            .get("lastPollTs")
            .to_owned()
    };
    let got: Vec<(u32, bool, String, Option<String>)> = ep
        .central_domains()
        .await
        .unwrap()
        .into_iter()
        .map(|d| (d.id, d.reachable, d.state, d.last_read))
        .collect();
    assert_eq!(
        got,
        [
            (1001, true, "registered".into(), Some(polled(1001))),
            (1002, false, "lost-visibility".into(), Some(polled(1002))),
            (1003, true, "registered".into(), None),
        ]
    );
}
