//! Redfish groups end to end over real HTTP: BMCs of several vendors (the simulator's personas:
//! HPE iLO 5 and iLO 7 from real captures, Dell iDRAC 9 and before 6.00, Cisco CIMC, Lenovo
//! XCC, Supermicro; and sushy-tools' emulator) checked on save, listed with their identity and
//! quirks, powered, their disks read, and deployed: each BMC really fetches the host's boot
//! ISO and answer image from our svc, the one-time boot is set, the server boots its media;
//! undeploy ejects everything.

mod common;

use std::time::Duration;

use bootsmith_sim::redfish::{Persona, RedfishConfig, RedfishSim};
use common::*;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

/// A persona with short power changes; a missing capture fails (it is part of the repository).
async fn bmc(persona: Persona) -> RedfishSim {
    let cfg = RedfishConfig {
        power_delay: Duration::from_millis(100),
        eject_lag: Duration::from_millis(300),
        ..RedfishConfig::new(persona)
    };
    assert!(
        RedfishSim::available(persona, &cfg.mockups),
        "the iLO captures in crates/sim/fixtures/ilo are part of the repository"
    );
    RedfishSim::start(cfg).await.unwrap()
}

/// An HPE iLO 5, a Dell iDRAC 9, a Cisco CIMC, a Lenovo XCC and an HPE iLO 7, in that order.
async fn five_vendors() -> [RedfishSim; 5] {
    [
        bmc(Persona::Ilo5).await,
        bmc(Persona::Idrac9).await,
        bmc(Persona::Cimc).await,
        bmc(Persona::Xcc).await,
        bmc(Persona::Ilo7).await,
    ]
}

fn row(sim: &RedfishSim) -> Value {
    json!({"ip": sim.address(), "user": "admin", "password": "password"})
}

/// The boot-server address, network `mgmt` and `count` CentOS hosts `<prefix>1…` of `group`,
/// host n on server n; a CentOS ISO mapped and the images made.
async fn hosts_with_images(s: &Server, group: &str, prefix: &str, count: u32) {
    set_svc_ip(s, "127.0.0.1").await;
    add_network(s, "mgmt", "24", "192.0.2.1", "192.0.2.53", "192.0.2.123").await;
    let hosts: Vec<Value> = (1..=count)
        .map(|n| {
            json!({"name": format!("{prefix}{n}"), "ip": format!("192.0.2.{}", 40 + n),
            "os": "centos7.4", "role": "generic", "network_group": "mgmt",
            "server_group": group, "server": n.to_string()})
        })
        .collect();
    let r = s.post("/api/v2/hosts", json!(hosts)).await;
    assert!(r.0.is_success(), "{}", r.1);
    bootable_centos_iso(s);
    let map = json!({"iso_map": [{"file": "/svc/c7.iso", "os": "centos7.4"}]});
    assert_eq!(s.post("/api/v1/isos/map", map).await.0, StatusCode::OK);
    let (st, built) = s.call(Method::POST, "/api/v2/deploy/images", None).await;
    assert_eq!(st, StatusCode::OK, "{built}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_group_of_several_vendors_bmcs_deploys_end_to_end() {
    let [ilo, idrac, cimc, xcc, ilo7] = five_vendors().await;
    let sims = [&ilo, &idrac, &cimc, &xcc, &ilo7];
    let s = Server::listening().await;

    // A wrong password on one BMC refuses the whole group, storing nothing.
    let mut bad = row(&idrac);
    bad["password"] = json!("Not-The-Password-7");
    let r = s
        .post(
            "/api/v2/servers",
            json!({"name": "lab", "type": "redfish", "bmcs": [row(&ilo), bad]}),
        )
        .await;
    assert_error(&r, 401, "bmc_login_failed");
    assert!(!r.1.to_string().contains("Not-The-Password-7"), "{}", r.1);
    assert_eq!(s.get("/api/v2/servers").await.1["servers"], json!([]));
    // An address where nothing answers: 502, naming it.
    let nowhere = format!("http://127.0.0.1:{}", closed_port());
    let r = s
        .post(
            "/api/v2/servers",
            json!({"name": "lab", "type": "redfish",
                "credentials": {"ip": nowhere, "user": "admin", "password": "x"}}),
        )
        .await;
    assert_error(&r, 502, "bmc_unreachable");

    // Saved with the logins checked; each server shows its BMC's identity and quirks.
    let rows: Vec<Value> = sims.iter().map(|b| row(b)).collect();
    let r = s
        .post(
            "/api/v2/servers",
            json!({"name": "lab", "type": "redfish", "bmcs": rows}),
        )
        .await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    assert!(r.1["capabilities"]
        .as_array()
        .unwrap()
        .contains(&json!("install_media")));
    let (st, inv) = s.get("/api/v2/servers/lab/servers").await;
    assert_eq!(st, StatusCode::OK, "{inv}");
    let servers = inv["servers"].as_array().unwrap();
    assert_eq!(
        field_of_each(&inv["servers"], "id"),
        ["1", "2", "3", "4", "5"]
    );
    let vendors: Vec<&str> = servers
        .iter()
        .map(|s| s["bmc"]["vendor"].as_str().unwrap())
        .collect();
    assert!(vendors[0].contains("HPE"), "{vendors:?}");
    assert!(vendors[1].contains("Dell"), "{vendors:?}");
    assert!(vendors[2].contains("Cisco"), "{vendors:?}");
    assert!(vendors[3].contains("Lenovo"), "{vendors:?}");
    assert!(vendors[4].contains("HPE"), "{vendors:?}");
    let quirks = |i: usize| servers[i]["bmc"]["quirks"].to_string();
    assert!(quirks(0).contains("hpe-"), "{}", quirks(0));
    assert!(
        quirks(1).contains("dell-iso-img-extensions"),
        "{}",
        quirks(1)
    );
    assert!(quirks(2).contains("cisco-"), "{}", quirks(2));
    assert!(quirks(3).contains("lenovo-patch-insert"), "{}", quirks(3));
    assert_eq!(
        servers[0]["model"],
        ilo.get(ilo.system_path()).unwrap()["Model"]
    );

    // Power: off, then the power status says so.
    let sel = json!({"servers": {"rack_servers": ["2", "3"]}});
    let (st, p) = s
        .call(Method::PUT, "/api/v2/servers/lab/power/off", Some(sel))
        .await;
    // The answer comes once the BMCs show the new state (polled), and says it.
    assert_eq!(st, StatusCode::OK, "{p}");
    assert_eq!(
        p["status"]["rack_servers"],
        json!(["2: off", "3: off"]),
        "{p}"
    );
    assert_eq!(
        (idrac.power_state(), cimc.power_state()),
        ("Off".into(), "Off".into())
    );
    assert_eq!(ilo.power_state(), "On", "not selected, not touched");

    // Disks: the iLO's drives and volume, read through Storage.
    let (st, disks) = s
        .call(
            Method::GET,
            "/api/v2/servers/lab/disks",
            Some(json!({"servers": {"rack_servers": ["1"]}})),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{disks}");
    assert!(
        !disks["rack_servers"]["1"].as_array().unwrap().is_empty(),
        "{disks}"
    );
    // The iDRAC's RAID 1 volume over both its drives: a virtual drive, and each drive names
    // it (no longer told apart by a `volume ` prefix of its id).
    let (st, disks) = s
        .call(
            Method::GET,
            "/api/v2/servers/lab/disks",
            Some(json!({"servers": {"rack_servers": ["2"]}})),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{disks}");
    let volume = "Disk.Virtual.0:RAID.Integrated.1-1";
    assert_eq!(
        disk_kinds(&disks["rack_servers"]["2"]),
        [
            (volume, "virtual_drive", Some("raid1"), None),
            (
                "Disk.Bay.0:Enclosure.Internal.0-1:RAID.Integrated.1-1",
                "drive",
                None,
                Some(volume)
            ),
            (
                "Disk.Bay.1:Enclosure.Internal.0-1:RAID.Integrated.1-1",
                "drive",
                None,
                Some(volume)
            ),
        ],
        "{disks}"
    );

    // Hosts on each server, their media built, deployed: every BMC fetches both files.
    hosts_with_images(&s, "lab", "rf0", 5).await;

    let (st, plan) = s
        .call(
            Method::POST,
            "/api/v2/servers/lab/deploy?dry_run=true",
            None,
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{plan}");
    assert!(
        object_dns(&plan).iter().any(|d| d.contains("VirtualMedia")),
        "{plan}"
    );

    let (st, done) = s
        .call(
            Method::POST,
            "/api/v2/servers/lab/deploy?restart=true",
            None,
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{done}");
    let job = latest_job(&s).await;
    for (i, b) in sims.iter().enumerate() {
        let host = format!("rf0{}", i + 1);
        let fetched: Vec<String> = b
            .fetch_log()
            .iter()
            .filter(|f| f.result.is_ok())
            .map(|f| f.url.rsplit('/').next().unwrap().to_owned())
            .collect();
        assert!(
            fetched.contains(&"centos7.4-boot.iso".to_owned())
                && fetched.contains(&format!("{host}.img")),
            "{:?} fetched {fetched:?}",
            b.persona()
        );
        // The media outcome the job reports for the host.
        assert_eq!(media_outcome(&job, &host).0, "done", "{host}: {job}");
    }
    // Each server booted its virtual CD once (HPE by its slot's flag, the others by Cd).
    until("every server booted its media", || {
        sims.iter().all(|b| {
            b.boots().iter().any(|r| {
                r.image
                    .as_deref()
                    .is_some_and(|i| i.ends_with("centos7.4-boot.iso"))
            })
        })
    })
    .await;
    // Deployed again once they booted: no BMC ejects or inserts anything (the servers
    // install from those media now). (Whether a spent one-time boot is set again depends on
    // how far each host got: a_deploy_leaves_the_spent_boot_of_a_running_install_alone.)
    let before: Vec<usize> = sims.iter().map(|b| b.writes().len()).collect();
    let (st, again) = s
        .call(Method::POST, "/api/v2/servers/lab/deploy", None)
        .await;
    assert_eq!(st, StatusCode::OK, "{again}");
    let unchanged_media = again["objects"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["class"] == "VirtualMedia" && o["action"] == "unchanged")
        .count();
    assert_eq!(unchanged_media, 10, "both media of each host: {again}");
    for (b, n) in sims.iter().zip(before) {
        let written = b.writes()[n..].to_vec();
        let media: Vec<&String> = written
            .iter()
            .filter(|w| {
                w.contains("InsertMedia")
                    || w.contains("EjectMedia")
                    || (b.persona() == Persona::Xcc && w.contains("VirtualMedia"))
            })
            .collect();
        assert!(media.is_empty(), "{:?}: {media:?}", b.persona());
    }
    // svc saw the controllers fetch: the hosts are media-mounted (or further).
    let (_, list) = s.get("/api/v2/hosts").await;
    for h in list["hosts"].as_array().unwrap() {
        let state = h["status"]["state"].as_str().unwrap_or("");
        assert!(
            ["media-mounted", "booting", "deployed"].contains(&state),
            "{}: {state}",
            h["name"]
        );
    }

    // Undeploy: every slot it filled is ejected, the one-time boot cleared, the sessions ended.
    let (st, gone) = s
        .call(Method::DELETE, "/api/v2/servers/lab/deploy", None)
        .await;
    assert_eq!(st, StatusCode::OK, "{gone}");
    for b in sims {
        until("slots empty", || {
            b.slots()
                .iter()
                .all(|sl| !sl.inserted || !sl.image.as_deref().unwrap_or("").contains("/svc/"))
        })
        .await;
        assert_eq!(b.open_sessions(), 0, "{:?} keeps a session", b.persona());
    }
    // The job told each host's steps: its BMC and rules, the media read back, the boot set.
    let steps = host_steps(&job, "rf01");
    for step in ["session", "virtual-media", "boot-once", "power", "media"] {
        assert!(
            steps
                .iter()
                .any(|(s, state, _)| s == step && state == "done"),
            "{step} not done in {steps:?}"
        );
    }
}

/// A deploy of a group whose BMCs already hold the hosts' media and one-time boot writes
/// nothing to them (a re-insert while a server installs breaks that install): every object is
/// `unchanged`, the job's steps say so, and no BMC received a write. The plan says so first.
#[tokio::test(flavor = "multi_thread")]
async fn a_second_deploy_of_an_unchanged_group_writes_nothing() {
    let [ilo, idrac, cimc, xcc, ilo7] = five_vendors().await;
    let sims = [&ilo, &idrac, &cimc, &xcc, &ilo7];
    let s = Server::listening().await;
    let rows: Vec<Value> = sims.iter().map(|b| row(b)).collect();
    let r = s
        .post(
            "/api/v2/servers",
            json!({"name": "again", "type": "redfish", "bmcs": rows}),
        )
        .await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    hosts_with_images(&s, "again", "ag0", 5).await;
    let (st, first) = s
        .call(Method::POST, "/api/v2/servers/again/deploy", None)
        .await;
    assert_eq!(st, StatusCode::OK, "{first}");
    assert!(!every_object_is(&first, "unchanged"), "{first}");
    let before: Vec<Vec<String>> = sims.iter().map(|b| b.writes()).collect();
    assert!(before.iter().all(|w| !w.is_empty()), "{before:?}");

    let (st, plan) = s
        .call(
            Method::POST,
            "/api/v2/servers/again/deploy?dry_run=true",
            None,
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{plan}");
    assert!(every_object_is(&plan, "unchanged"), "{plan}");

    let (st, again) = s
        .call(Method::POST, "/api/v2/servers/again/deploy", None)
        .await;
    assert_eq!(st, StatusCode::OK, "{again}");
    assert!(every_object_is(&again, "unchanged"), "{again}");
    for (b, was) in sims.iter().zip(&before) {
        let now = b.writes();
        assert_eq!(
            &now[..],
            &was[..],
            "{:?} was written to again: {:?}",
            b.persona(),
            &now[was.len().min(now.len())..]
        );
    }
    let job = latest_job(&s).await;
    for n in 1..=5 {
        let steps = host_steps(&job, &format!("ag0{n}"));
        for step in ["virtual-media", "boot-once"] {
            assert!(
                steps
                    .iter()
                    .any(|(s, st, m)| s == step && st == "done" && m.contains("unchanged")),
                "ag0{n}: {step} not unchanged in {steps:?}"
            );
        }
    }
    // Another image (the boot-server address moved): the media change, and are written.
    set_svc_ip(&s, "127.0.0.2").await;
    let (_, plan) = s
        .call(
            Method::POST,
            "/api/v2/servers/again/deploy?dry_run=true",
            None,
        )
        .await;
    assert_eq!(
        dns_with_action(&plan, "create").len(),
        10,
        "both media of each host: {plan}"
    );
}

/// A host whose install runs from the media a deploy left has spent its one-time boot on them
/// (the BMC clears a `Once` override at power-on): a deploy meanwhile leaves that boot alone, as
/// setting it again would start the installer once more at the install's closing reboot. Once
/// its images are made again (a new install), a deploy sets it again.
#[tokio::test(flavor = "multi_thread")]
async fn a_deploy_leaves_the_spent_boot_of_a_running_install_alone() {
    let cimc = bmc(Persona::Cimc).await;
    let s = Server::listening().await;
    let r = s
        .post(
            "/api/v2/servers",
            json!({"name": "run", "type": "redfish", "bmcs": [row(&cimc)]}),
        )
        .await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    set_svc_ip(&s, "127.0.0.1").await;
    add_network(
        &s,
        "lo",
        "255.0.0.0",
        "127.0.0.1",
        "127.0.0.53",
        "127.0.0.123",
    )
    .await;
    let host = json!([{"name": "run01", "ip": "127.0.0.2", "os": "centos7.4", "role": "generic",
        "network_group": "lo", "server_group": "run", "server": "1"}]);
    let r = s.post("/api/v2/hosts", host).await;
    assert!(r.0.is_success(), "{}", r.1);
    bootable_centos_iso(&s);
    let map = json!({"iso_map": [{"file": "/svc/c7.iso", "os": "centos7.4"}]});
    assert_eq!(s.post("/api/v1/isos/map", map).await.0, StatusCode::OK);
    let build = || s.call(Method::POST, "/api/v2/deploy/images", None);
    assert_eq!(build().await.0, StatusCode::OK);
    let deploy = || s.call(Method::POST, "/api/v2/servers/run/deploy", None);
    let (st, first) = deploy().await;
    assert_eq!(st, StatusCode::OK, "{first}");
    assert_eq!(cimc.boot().enabled, "Once", "{first}");

    // The server boots its media (the override is spent) and the installer fetches the tree.
    let sel = json!({"servers": {"rack_servers": ["1"]}});
    for action in ["off", "on"] {
        let (st, p) = s
            .call(
                Method::PUT,
                &format!("/api/v2/servers/run/power/{action}"),
                Some(sel.clone()),
            )
            .await;
        assert_eq!(st, StatusCode::OK, "{p}");
    }
    assert_ne!(
        cimc.boot().enabled,
        "Once",
        "the power-on spent the one-time boot"
    );
    let installer = reqwest::Client::builder()
        .local_address("127.0.0.2".parse::<std::net::IpAddr>().unwrap())
        .build()
        .unwrap();
    let rpm = installer
        .get(format!("{}/svc/centos7.4/Packages/a.rpm", s.base()))
        .send()
        .await
        .unwrap();
    assert!(rpm.status().is_success());
    until_state(&s, "run01", "installing").await;

    let writes = cimc.writes();
    let (st, plan) = s
        .call(
            Method::POST,
            "/api/v2/servers/run/deploy?dry_run=true",
            None,
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{plan}");
    assert!(every_object_is(&plan, "unchanged"), "{plan}");
    let (st, again) = deploy().await;
    assert_eq!(st, StatusCode::OK, "{again}");
    assert!(every_object_is(&again, "unchanged"), "{again}");
    assert_eq!(cimc.writes(), writes, "nothing is written to the BMC");
    assert_ne!(cimc.boot().enabled, "Once");
    let steps = host_steps(&latest_job(&s).await, "run01");
    assert!(
        steps.iter().any(|(step, st, m)| step == "boot-once"
            && st == "done"
            && m.contains("the install runs from these media (installing)")),
        "{steps:?}"
    );

    // Asked to restart too, it leaves that server running: a restart would cut the install off.
    let boots = cimc.boots().len();
    let (st, restarted) = s
        .call(
            Method::POST,
            "/api/v2/servers/run/deploy?restart=true",
            None,
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{restarted}");
    assert_eq!(cimc.boots().len(), boots, "{restarted}");
    assert_eq!(cimc.writes(), writes, "nothing is written to the BMC");
    let steps = host_steps(&latest_job(&s).await, "run01");
    assert!(
        steps.iter().any(|(step, st, m)| step == "power"
            && st == "skipped"
            && m.starts_with("not restarted: its install runs")),
        "{steps:?}"
    );

    // A new install: new images, and the deploy sets the one-time boot again.
    assert_eq!(build().await.0, StatusCode::OK);
    let (st, third) = deploy().await;
    assert_eq!(st, StatusCode::OK, "{third}");
    assert_eq!(cimc.boot().enabled, "Once", "{third}");
}

/// A Supermicro has one virtual-media slot: its host boots a single-device ISO of its own,
/// whose boot entries fetch the kickstart over HTTP from svc; the BMC is driven its way
/// (`{Image}` only, `UsbCd`, the full Boot triple).
#[tokio::test(flavor = "multi_thread")]
async fn a_bmc_with_one_device_boots_the_hosts_single_device_iso() {
    let sm = bmc(Persona::Supermicro).await;
    let s = Server::listening().await;
    let r = s
        .post(
            "/api/v2/servers",
            json!({"name": "sm", "type": "redfish", "credentials": row(&sm)}),
        )
        .await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    hosts_with_images(&s, "sm", "x11-0", 1).await;
    // The plan says so before anything is written.
    let (st, plan) = s
        .call(Method::POST, "/api/v2/servers/sm/deploy?dry_run=true", None)
        .await;
    assert_eq!(st, StatusCode::OK, "{plan}");
    assert!(
        plan["warnings"]
            .to_string()
            .contains("one virtual media device"),
        "{plan}"
    );
    // The host names no MAC: inventory gives its server's first NIC with its link up, which
    // its boot goes on with its own address, so no DHCP server is needed; none is warned of.
    let nics = &plan["install_nics"][0];
    assert_eq!(nics["from_inventory"], true, "{plan}");
    assert_eq!(nics["nics"][0]["mac"], "b8:ce:f6:5a:10:01", "{plan}");
    assert!(!plan["warnings"].to_string().contains("DHCP"), "{plan}");

    let (st, done) = s
        .call(Method::POST, "/api/v2/servers/sm/deploy?restart=true", None)
        .await;
    assert_eq!(st, StatusCode::OK, "{done}");
    let job = latest_job(&s).await;
    let steps = host_steps(&job, "x11-01");
    assert!(
        steps.iter().any(|(s, st, m)| s == "single-device"
            && st == "done"
            && m.contains("/svc/x11-01/boot.iso")),
        "{steps:?}"
    );
    let iso = s.svc().join("x11-01/boot.iso");
    assert!(
        bootsmith_media::boot::boot_configs_mention(
            &iso,
            "ifname=bootnet0:b8:ce:f6:5a:10:01 ip=192.0.2.41::192.0.2.1:255.255.255.0:x11-01:bootnet0:none nameserver=192.0.2.53"
        )
        .unwrap(),
        "the single-device ISO boots with the host's address on its inventory NIC"
    );
    // CD1 holds the host's own ISO, fetched by the BMC; it booted it by UsbCd.
    let cd = sm.slot("CD1").unwrap();
    assert!(
        cd.inserted
            && cd
                .image
                .as_deref()
                .unwrap()
                .ends_with("/svc/x11-01/boot.iso"),
        "{cd:?}"
    );
    until("the Supermicro fetched the ISO", || {
        sm.fetch_log()
            .iter()
            .any(|f| f.url.ends_with("/svc/x11-01/boot.iso") && f.result.is_ok())
    })
    .await;
    until("it booted its virtual CD", || {
        sm.boots().iter().any(|b| {
            b.target == "UsbCd" && b.image.as_deref().is_some_and(|i| i.ends_with("boot.iso"))
        })
    })
    .await;
    // Deployed again while it boots its media: they stay in (a re-insert would break the
    // install), and so does the one-time boot it spent (set again, it would boot the
    // installer once more at the install's closing reboot).
    until_state(&s, "x11-01", "booting").await;
    let before = sm.writes();
    let (st, again) = s
        .call(Method::POST, "/api/v2/servers/sm/deploy", None)
        .await;
    assert_eq!(st, StatusCode::OK, "{again}");
    assert_eq!(
        dns_with_action(&again, "unchanged"),
        [
            format!("{}/redfish/v1/Managers/1/VirtualMedia/CD1", sm.address()),
            format!("{}/redfish/v1/Systems/1", sm.address())
        ],
        "{again}"
    );
    assert_eq!(sm.writes(), before, "nothing is written to the BMC");

    // The kickstart its boot entries name is served, with the host's callback.
    let ks = reqwest::get(format!("{}/svc/x11-01/ks.cfg", s.base()))
        .await
        .unwrap();
    assert_eq!(ks.status(), StatusCode::OK);
    let ks = ks.text().await.unwrap();

    // Installed (the kickstart's own %post line, run by a shell): the BMC's slot is ejected
    // and its one-time boot cleared, so a reboot cannot install again.
    let (st, _) = s
        .put(
            "/api/v2/settings/install",
            json!({"unmount_after_install": true}),
        )
        .await;
    assert_eq!(st, StatusCode::OK);
    let line = ks
        .lines()
        .find(|l| l.starts_with("curl ") && l.contains("/x11-01/installed"))
        .unwrap_or_else(|| panic!("no installed callback in\n{ks}"))
        .to_owned();
    run_in_shell(line).await;
    until("CD1 ejected after the install", || {
        sm.slot("CD1").is_some_and(|c| !c.inserted)
    })
    .await;
    // The second deploy set the one-time boot again: the unmount (after the eject) clears it.
    until("its one-time boot cleared after the install", || {
        let b = sm.boot();
        b.enabled == "Disabled" && b.target == "None"
    })
    .await;
}

/// Deploys through what real BMCs do to a client: 202 task monitors with `Retry-After` for every
/// action, 503s with `Retry-After`, a session that expires in the middle of the flow, a dropped
/// connection, latency. The run still mounts both media on each BMC.
#[tokio::test(flavor = "multi_thread")]
async fn a_deploy_gets_through_task_monitors_busy_answers_and_expiring_sessions() {
    use bootsmith_sim::redfish::RedfishFaults;
    let with = |persona, faults| async move {
        let cfg = RedfishConfig {
            power_delay: Duration::from_millis(100),
            eject_lag: Duration::from_millis(300),
            faults,
            ..RedfishConfig::new(persona)
        };
        RedfishSim::start(cfg).await.unwrap()
    };
    // Every action a task (polled twice), and 20 ms per request.
    let tasks = with(
        Persona::Idrac9,
        RedfishFaults {
            task_polls: 2,
            latency: Duration::from_millis(20),
            ..Default::default()
        },
    )
    .await;
    // The session dies after 6 requests: the client logs in again, once each time.
    let expiring = with(
        Persona::Cimc,
        RedfishFaults {
            session_requests: Some(6),
            ..Default::default()
        },
    )
    .await;
    let s = Server::listening().await;
    let r = s
        .post(
            "/api/v2/servers",
            json!({"name": "faulty", "type": "redfish", "bmcs": [row(&tasks), row(&expiring)]}),
        )
        .await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    hosts_with_images(&s, "faulty", "ft0", 2).await;
    // Busy just as the deploy starts: two 503s asking to wait a second, and a dropped answer.
    tasks.set_faults(RedfishFaults {
        task_polls: 2,
        latency: Duration::from_millis(20),
        fail_next: 2,
        retry_after: Some(1),
        ..Default::default()
    });
    expiring.set_faults(RedfishFaults {
        session_requests: Some(6),
        drop_next: 1,
        ..Default::default()
    });
    let (st, done) = s
        .call(Method::POST, "/api/v2/servers/faulty/deploy", None)
        .await;
    assert_eq!(st, StatusCode::OK, "{done}");
    for (b, host) in [(&tasks, "ft01"), (&expiring, "ft02")] {
        let inserted: Vec<String> = b
            .slots()
            .iter()
            .filter(|sl| sl.inserted)
            .filter_map(|sl| sl.image.clone())
            .collect();
        assert!(
            inserted.iter().any(|i| i.ends_with("centos7.4-boot.iso"))
                && inserted.iter().any(|i| i.ends_with(&format!("{host}.img"))),
            "{:?}: {inserted:?}",
            b.persona()
        );
    }
    assert!(
        expiring.open_sessions() <= 1,
        "expired sessions are not piled up"
    );
}

/// Against sushy-tools' emulator (OpenStack's, not ours): the group checked on save (it has no
/// sessions: HTTP Basic), its one system listed, a deploy whose media the emulator really
/// downloads from our svc (seen in the host's access record), and undeploy.
#[tokio::test(flavor = "multi_thread")]
async fn sushy_tools_downloads_both_media_from_svc() {
    let Some(sushy) =
        bootsmith_sim::sushy::Sushy::start("sushy_tools_downloads_both_media_from_svc")
    else {
        return;
    };
    let s = Server::listening().await;
    let r = s
        .post(
            "/api/v2/servers",
            json!({"name": "sushy", "type": "redfish",
                "credentials": {"ip": sushy.url, "user": "admin", "password": "password"}}),
        )
        .await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    let (st, inv) = s.get("/api/v2/servers/sushy/servers").await;
    assert_eq!(st, StatusCode::OK, "{inv}");
    assert_eq!(field_of_each(&inv["servers"], "id"), ["1"], "{inv}");
    // The system carries its UUID, and the serial number its chassis holds (sushy's system
    // has none of its own), so it can be matched to the asset.
    let (system, chassis) = sushy_system_and_chassis(&sushy).await;
    assert_eq!(inv["servers"][0]["uuid"], system["UUID"], "{inv}");
    assert!(system["SerialNumber"].is_null(), "{system}");
    assert!(chassis["SerialNumber"].is_string(), "{chassis}");
    assert_eq!(
        inv["servers"][0]["serial"], chassis["SerialNumber"],
        "{inv}"
    );

    hosts_with_images(&s, "sushy", "vm0", 1).await;
    let (st, done) = s
        .call(
            Method::POST,
            "/api/v2/servers/sushy/deploy?restart=true",
            None,
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{done}");
    assert_eq!(media_outcome(&latest_job(&s).await, "vm01").0, "done");

    // The emulator fetched the whole boot ISO and the answer image from svc: svc's access
    // record of the host says so, and the host is media-mounted.
    let mut t = Value::Null;
    for _ in 0..50 {
        t = s.get("/api/v2/hosts/vm01/timeline").await.1;
        let got = |f: &str| {
            t["access"]
                .as_array()
                .unwrap()
                .iter()
                .any(|a| a["what"] == f && a["bytes"].as_u64().unwrap_or(0) > 0)
        };
        if got("/svc/centos7.4-boot.iso") && got("/svc/vm01.img") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let files: Vec<&str> = t["access"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["what"].as_str().unwrap())
        .collect();
    assert!(
        files.contains(&"/svc/centos7.4-boot.iso") && files.contains(&"/svc/vm01.img"),
        "{t}"
    );
    // The emulator fetched while Bootsmith inserted: the run's end does not take the host
    // back to deployed; the restart moved it on to booting.
    let stages: Vec<&str> = t["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["state"].as_str().unwrap())
        .collect();
    assert_eq!(stages, ["media-ready", "media-mounted", "booting"], "{t}");

    // Deployed again, unchanged: the emulator receives no write (it held media and override).
    let before = sushy.writes();
    assert!(
        before.iter().any(|w| w.contains("InsertMedia")),
        "{before:?}"
    );
    let (st, again) = s
        .call(Method::POST, "/api/v2/servers/sushy/deploy", None)
        .await;
    assert_eq!(st, StatusCode::OK, "{again}");
    assert!(every_object_is(&again, "unchanged"), "{again}");
    assert_eq!(sushy.writes(), before, "the second deploy wrote");

    let (st, gone) = s
        .call(Method::DELETE, "/api/v2/servers/sushy/deploy", None)
        .await;
    assert_eq!(st, StatusCode::OK, "{gone}");
    // The override is gone, not left on Cd (sushy reports Enabled Continuous whatever it is
    // told): the next boot is the disk's.
    let (system, _) = sushy_system_and_chassis(&sushy).await;
    assert_eq!(
        system["Boot"]["BootSourceOverrideTarget"], "None",
        "{}",
        system["Boot"]
    );
}

/// sushy-tools' one system and its chassis, read straight from the emulator.
async fn sushy_system_and_chassis(sushy: &bootsmith_sim::sushy::Sushy) -> (Value, Value) {
    let http = reqwest::Client::new();
    let get = |path: String| {
        let http = http.clone();
        let url = format!("{}{path}", sushy.url);
        async move {
            http.get(url)
                .basic_auth("admin", Some("password"))
                .send()
                .await
                .unwrap()
                .json::<Value>()
                .await
                .unwrap()
        }
    };
    let list = get("/redfish/v1/Systems".into()).await;
    let system = get(list["Members"][0]["@odata.id"].as_str().unwrap().into()).await;
    let chassis = get(system["Links"]["Chassis"][0]["@odata.id"]
        .as_str()
        .unwrap()
        .into())
    .await;
    (system, chassis)
}

/// A Dell iDRAC 9 before 6.00 (the simulator's `idrac9-legacy` persona, firmware 4.40.00.00)
/// deployed end to end over real HTTP: the standard `Cd` override would boot its physical
/// drive, so the one-time boot from the virtual CD is set with Dell's OEM
/// ImportSystemConfiguration job (`shared/reference/redfish.md` §2 ★1), and the server boots
/// the host's ISO from the Manager's `CD` slot, the answer image in `RemovableDisk`.
#[tokio::test(flavor = "multi_thread")]
async fn an_idrac_before_6_boots_the_virtual_cd_through_dells_oem_import() {
    let idrac = bmc(Persona::Idrac9Legacy).await;
    let s = Server::listening().await;
    let r = s
        .post(
            "/api/v2/servers",
            json!({"name": "dell", "type": "redfish", "bmcs": [row(&idrac)]}),
        )
        .await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    let (st, inv) = s.get("/api/v2/servers/dell/servers").await;
    assert_eq!(st, StatusCode::OK, "{inv}");
    let quirks = inv["servers"][0]["bmc"]["quirks"].to_string();
    assert!(quirks.contains("dell-legacy-virtual-boot"), "{quirks}");

    hosts_with_images(&s, "dell", "r640-0", 1).await;

    let (st, done) = s
        .call(
            Method::POST,
            "/api/v2/servers/dell/deploy?restart=true",
            None,
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{done}");
    let job = latest_job(&s).await;
    assert_eq!(media_outcome(&job, "r640-01").0, "done", "{job}");

    // The ISO went to the Manager's CD slot, the answer image to RemovableDisk.
    let cd = idrac.slot("CD").unwrap();
    assert!(
        cd.inserted
            && cd
                .image
                .as_deref()
                .is_some_and(|i| i.ends_with("centos7.4-boot.iso")),
        "{cd:?}"
    );
    let usb = idrac.slot("RemovableDisk").unwrap();
    assert!(
        usb.image
            .as_deref()
            .is_some_and(|i| i.ends_with("r640-01.img")),
        "{usb:?}"
    );

    // The job's boot-once step says how the boot was set.
    let steps = host_steps(&job, "r640-01");
    assert!(
        steps.iter().any(|(s, st, m)| s == "boot-once"
            && st == "done"
            && m.contains("VCD-DVD")
            && m.contains("dell_oem_import")),
        "{steps:?}"
    );
    // The server booted its virtual CD once, by the OEM import (not by the standard Cd, which
    // this firmware would have spent on the physical drive).
    until("the iDRAC booted its virtual CD", || {
        idrac.boots().iter().any(|b| {
            b.target == "VCD-DVD"
                && b.enabled == "Once"
                && b.image
                    .as_deref()
                    .is_some_and(|i| i.ends_with("centos7.4-boot.iso"))
        })
    })
    .await;
    assert!(
        idrac.boots().iter().all(|b| b.target != "Cd"),
        "{:?}",
        idrac.boots()
    );
    // The standard override was never set.
    assert_eq!(idrac.boot().target, "None");
    // The warning that the OEM boot cannot be read back is in the deploy's answer or job.
    let said = format!("{done}{job}");
    assert!(said.contains("ImportSystemConfiguration"), "{said}");

    let (st, gone) = s
        .call(Method::DELETE, "/api/v2/servers/dell/deploy", None)
        .await;
    assert_eq!(st, StatusCode::OK, "{gone}");
    assert_eq!(idrac.open_sessions(), 0);
}

/// A BMC with a self-signed certificate, as BMCs ship: refused until the operator trusts its
/// fingerprint (422, the fingerprint in the answer), then pinned; a changed certificate is
/// refused as changed, naming the BMC, until trusted again.
#[tokio::test(flavor = "multi_thread")]
async fn a_bmc_certificate_is_trusted_by_its_fingerprint_and_a_change_is_refused() {
    let tls = |persona| async move {
        RedfishSim::start(RedfishConfig {
            https: true,
            ..RedfishConfig::new(persona)
        })
        .await
        .unwrap()
    };
    let idrac = tls(Persona::Idrac9).await;
    let s = Server::start().await;
    let group = |fp: Option<&str>| {
        let mut g = json!({"name": "tls", "type": "redfish", "credentials": row(&idrac)});
        if let Some(fp) = fp {
            g["fingerprint"] = json!(fp);
        }
        g
    };
    let r = s.post("/api/v2/servers", group(None)).await;
    assert_error(&r, 422, "untrusted_certificate");
    let fp = idrac.fingerprint().unwrap();
    assert_eq!(r.1["fingerprint"], fp, "{}", r.1);
    let r = s.post("/api/v2/servers", group(Some(fp))).await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    let (st, inv) = s.get("/api/v2/servers/tls/servers").await;
    assert_eq!(st, StatusCode::OK, "{inv}");

    // The same address now presents another certificate (a replaced or spoofed BMC).
    let addr = idrac.addr();
    idrac.stop();
    let listener = loop {
        match tokio::net::TcpListener::bind(addr).await {
            Ok(l) => break l,
            Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    };
    let other = RedfishSim::start_on(
        RedfishConfig {
            https: true,
            ..RedfishConfig::new(Persona::Idrac9)
        },
        listener,
    )
    .await
    .unwrap();
    let r = s.get("/api/v2/servers/tls/servers").await;
    assert_error(&r, 422, "certificate_changed");
    assert!(
        r.1["error"].as_str().unwrap().contains(&other.address()),
        "{}",
        r.1
    );
}

/// The console button of a Redfish server opens its BMC's own web interface.
#[tokio::test]
async fn a_bmcs_console_is_its_web_interface() {
    let idrac = bmc(Persona::Idrac9).await;
    let s = Server::start().await;
    let r = s
        .post(
            "/api/v2/servers",
            json!({"name": "lab", "type": "redfish", "bmcs": [row(&idrac)]}),
        )
        .await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    let r = s.get("/api/v2/servers/lab/console?server=1").await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    assert_eq!(r.1["url"], format!("{}/", idrac.address()));
    assert!(r.1["note"].as_str().unwrap().contains("Dell"), "{}", r.1);
}
