//! The simulator over real HTTP, spoken to with hand-written XML: it must
//! accept what UCS Manager accepts and reject what it rejects.

use std::time::Duration;

use bootsmith_sim::media::MediaServer;
use bootsmith_sim::{Faults, Sim, SimConfig};
use bootsmith_ucs::xml::Mo;

mod common;
use common::{
    assert_accepted, boot_mount_entry, check_tree, closed_port, conf_mos, cookie_of, error_code,
    every_blade, existing_sp_power, instance, parse_reply, post_raw, profile, template,
};

async fn post(sim: &Sim, xml: &str) -> Mo {
    let (_, body) = post_raw(sim, "/nuova", xml).await;
    parse_reply(&body)
}

async fn login(sim: &Sim) -> String {
    cookie_of(&post(sim, r#"<aaaLogin inName="admin" inPassword="password"/>"#).await)
}

async fn conf(sim: &Sim, cookie: &str, obj: Mo) -> Mo {
    conf_all(sim, cookie, vec![obj]).await
}

async fn conf_all(sim: &Sim, cookie: &str, objs: Vec<Mo>) -> Mo {
    post(sim, &conf_mos(cookie, objs).to_xml()).await
}

/// One object in a `configConfMo`, the only write a standalone IMC takes.
async fn conf_one(sim: &Sim, cookie: &str, obj: Mo) -> Mo {
    let req = Mo::new("configConfMo")
        .with("cookie", cookie)
        .with("dn", obj.get("dn"))
        .with("inHierarchical", "false")
        .child(Mo::new("inConfig").child(obj));
    post(sim, &req.to_xml()).await
}

#[tokio::test]
async fn sessions_log_in_refresh_expire_and_log_out() {
    let sim = Sim::start(SimConfig::ucsm()).await.unwrap();
    let bad = post(&sim, r#"<aaaLogin inName="admin" inPassword="nope"/>"#).await;
    assert_eq!(error_code(&bad), Some("551"));
    let cookie = login(&sim).await;
    assert_eq!(cookie.len(), 47, "epoch/uuid like UCSM: {cookie}");
    let q = format!(r#"<configResolveDn cookie="{cookie}" dn="sys"/>"#);
    assert_eq!(
        post(&sim, &q).await.find("outConfig").unwrap().children[0].class,
        "topSystem"
    );

    let r = post(
        &sim,
        &format!(r#"<aaaRefresh inName="admin" inPassword="password" inCookie="{cookie}"/>"#),
    )
    .await;
    let fresh = r.get("outCookie").to_owned();
    assert_ne!(fresh, cookie);
    assert_eq!(
        error_code(&post(&sim, &q).await),
        Some("552"),
        "the old cookie stops working"
    );
    let q2 = format!(r#"<configResolveDn cookie="{fresh}" dn="sys"/>"#);
    assert_eq!(error_code(&post(&sim, &q2).await), None);
    sim.expire_sessions();
    assert_eq!(error_code(&post(&sim, &q2).await), Some("552"));
    let c = login(&sim).await;
    let out = post(&sim, &format!(r#"<aaaLogout inCookie="{c}"/>"#)).await;
    assert_eq!(out.get("outStatus"), "success");
    assert_eq!(sim.open_sessions(), 0);
}

#[tokio::test]
async fn class_queries_and_filters() {
    let sim = Sim::start(SimConfig::ucsm()).await.unwrap();
    let c = login(&sim).await;
    let r = post(&sim, &every_blade(&c)).await;
    assert_eq!(r.find("outConfigs").unwrap().children.len(), 8);
    let r = post(&sim, &format!(
        r#"<configResolveClass cookie="{c}" classId="lsServer"><inFilter><or><eq class="lsServer" property="type" value="initial-template"/><eq class="lsServer" property="type" value="updating-template"/></or></inFilter></configResolveClass>"#
    )).await;
    let names: Vec<&str> = r
        .find("outConfigs")
        .unwrap()
        .children
        .iter()
        .map(|m| m.get("name"))
        .collect();
    assert_eq!(names, ["c7-template", "esxi-template"]);
    let r = post(&sim, &format!(r#"<configResolveClasses cookie="{c}"><inIds><classId value="computeBlade"/><classId value="computeRackUnit"/></inIds></configResolveClasses>"#)).await;
    assert_eq!(r.find("outConfigs").unwrap().children.len(), 10);
    let r = post(
        &sim,
        &format!(r#"<configResolveClass cookie="{c}" classId="noSuchClass"/>"#),
    )
    .await;
    assert_eq!(r.class, "error");
    let r = post(
        &sim,
        &format!(
            r#"<configResolveDn cookie="{c}" dn="sys/chassis-1/blade-2" inHierarchical="true"/>"#
        ),
    )
    .await;
    let blade = &r.find("outConfig").unwrap().children[0];
    assert!(
        blade.descendants("storageLocalDisk").count() == 2,
        "hierarchical answers nest children with rn"
    );
    assert_eq!(blade.find("computeBoard").unwrap().get("rn"), "board");
}

#[tokio::test]
async fn writes_that_ucsm_rejects_are_rejected_and_change_nothing() {
    let sim = Sim::start(SimConfig::ucsm()).await.unwrap();
    let c = login(&sim).await;
    let cases = [
        // unknown class
        (
            Mo::new("lsFlyingCar").with("dn", "org-root/car-1"),
            "ERR-xml-parse-error",
        ),
        // dn does not match the class's rn pattern
        (
            Mo::new("lsServer")
                .with("dn", "org-root/server-x")
                .with("name", "x1"),
            "101",
        ),
        // wrong parent class: a service profile under a blade
        (
            Mo::new("lsServer").with("dn", "sys/chassis-1/blade-2/ls-node01"),
            "101",
        ),
        // parent does not exist
        (
            Mo::new("lsServer").with("dn", "org-root/org-nowhere/ls-node01"),
            "102",
        ),
        // unknown property
        (
            profile("node01").with("colour", "blue"),
            "ERR-xml-parse-error",
        ),
        // read-only property
        (profile("node01").with("assocState", "associated"), "101"),
        // value outside the allowed set
        (profile("node01").with("type", "golden"), "101"),
        // value breaking the pattern (policy names are at most 16 characters)
        (
            profile("node01").with("bootPolicyName", "a-very-long-policy-name"),
            "101",
        ),
        // naming value disagreeing with the rn
        (profile("node01").with("name", "node02"), "101"),
        // invalid status
        (
            profile("node01").with("status", "exploded"),
            "ERR-xml-parse-error",
        ),
        // a class that cannot be created (blades are hardware)
        (
            Mo::new("computeBlade").with("dn", "sys/chassis-1/blade-8"),
            "101",
        ),
        // creating what exists
        (profile("c7-template").with("status", "created"), "103"),
        // modifying what does not exist
        (
            profile("ghost")
                .with("status", "modified")
                .with("descr", "x"),
            "102",
        ),
        // blades cannot be deleted
        (
            Mo::new("computeBlade")
                .with("dn", "sys/chassis-1/blade-2")
                .with("status", "deleted"),
            "101",
        ),
        // a create-only property cannot change
        (profile("c7-template").with("type", "instance"), "101"),
    ];
    let before = sim.with_tree(|t| t.len());
    for (obj, code) in cases {
        let xml = obj.to_xml();
        let r = conf(&sim, &c, obj).await;
        assert_eq!(error_code(&r), Some(code), "{xml} → {}", r.to_xml());
        assert!(r.get("errorDescr").len() > 10);
    }
    // One bad object in a batch rolls back the good ones.
    let good = profile("batch-ok").with("name", "batch-ok");
    let bad = profile("batch-bad").with("type", "golden");
    assert_eq!(
        error_code(&conf_all(&sim, &c, vec![good, bad]).await),
        Some("101")
    );
    assert_eq!(sim.with_tree(|t| t.len()), before, "nothing was written");
    assert!(sim.get("org-root/ls-batch-ok").is_none());
}

#[tokio::test]
async fn valid_nested_writes_are_stored_with_their_children() {
    let sim = Sim::start(SimConfig::ucsm()).await.unwrap();
    let c = login(&sim).await;
    let policy = Mo::new("cimcvmediaMountConfigPolicy")
        .with("dn", "org-root/mnt-cfg-policy-SVC_c74")
        .with("name", "SVC_c74")
        .with("retryOnMountFail", "yes")
        .with("status", "created,modified")
        .child(boot_mount_entry("192.0.2.10", "centos7.4-boot.iso"));
    let r = conf(&sim, &c, policy.clone()).await;
    assert_accepted(&r);
    assert_eq!(
        sim.get("org-root/mnt-cfg-policy-SVC_c74/cfg-mnt-entry-boot")
            .unwrap()
            .get("deviceType"),
        "cdd"
    );
    // The same write again is an idempotent upsert.
    assert_eq!(error_code(&conf(&sim, &c, policy).await), None);
    // A child of the wrong class for its parent is refused.
    let wrong = Mo::new("cimcvmediaMountConfigPolicy")
        .with("dn", "org-root/mnt-cfg-policy-SVC_c74")
        .child(Mo::new("lsPower").with("rn", "power").with("state", "up"));
    assert_eq!(error_code(&conf(&sim, &c, wrong).await), Some("101"));
}

#[tokio::test]
async fn power_changes_happen_after_a_delay_with_fsm_stages() {
    let mut cfg = SimConfig::ucsm();
    cfg.effect_delay = Duration::from_millis(300);
    let sim = Sim::start(cfg).await.unwrap();
    let c = login(&sim).await;
    let r = conf(
        &sim,
        &c,
        Mo::new("computeBlade")
            .with("dn", "sys/chassis-1/blade-2")
            .with("adminPower", "admin-up"),
    )
    .await;
    assert_accepted(&r);
    assert_eq!(
        sim.get("sys/chassis-1/blade-2").unwrap().get("operPower"),
        "off",
        "not at once"
    );
    assert_eq!(
        sim.get("sys/chassis-1/blade-2/fsm/stage-TurnupExecute")
            .unwrap()
            .get("stageStatus"),
        "inProgress"
    );
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(
        sim.get("sys/chassis-1/blade-2").unwrap().get("operPower"),
        "on"
    );
    assert_eq!(
        sim.get("sys/chassis-1/blade-2/fsm/stage-TurnupExecute")
            .unwrap()
            .get("stageStatus"),
        "success"
    );

    // Through the service profile of an associated blade.
    let r = conf(&sim, &c, existing_sp_power("down")).await;
    assert_accepted(&r);
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(
        sim.get("sys/chassis-1/blade-1").unwrap().get("operPower"),
        "off"
    );

    // A disk reset changes the disk state.
    let disk = "sys/chassis-1/blade-2/board/storage-SAS-1/disk-2";
    let r = conf(
        &sim,
        &c,
        Mo::new("storageLocalDisk")
            .with("dn", disk)
            .with("adminAction", "unconfigured-good"),
    )
    .await;
    assert_accepted(&r);
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(sim.get(disk).unwrap().get("diskState"), "unconfigured-good");
}

#[tokio::test]
async fn imc_mode_has_one_rack_server_and_vmedia() {
    let mut cfg = SimConfig::imc();
    cfg.effect_delay = Duration::from_millis(100);
    let sim = Sim::start(cfg).await.unwrap();
    let c = login(&sim).await;
    let r = post(
        &sim,
        &format!(r#"<configResolveClass cookie="{c}" classId="computeRackUnit"/>"#),
    )
    .await;
    assert_eq!(
        r.find("outConfigs").unwrap().children[0].get("dn"),
        "sys/rack-unit-1"
    );
    let media = MediaServer::start(&[("centos7.4-boot.iso", vec![7u8; 100_000])])
        .await
        .unwrap();
    let map = Mo::new("commVMediaMap")
        .with("dn", "sys/svc-ext/vmedia-svc/vmmap-boot")
        .with("volumeName", "boot")
        .with("map", "www")
        .with("remoteShare", media.share())
        .with("remoteFile", "centos7.4-boot.iso")
        .with("status", "created");
    let r = conf(&sim, &c, map.clone()).await;
    assert_eq!(
        r.class,
        "error",
        "an IMC has no configConfMos: {}",
        r.to_xml()
    );
    assert!(sim.get("sys/svc-ext/vmedia-svc/vmmap-boot").is_none());
    let r = conf_one(&sim, &c, map).await;
    assert_accepted(&r);
    assert_eq!(
        r.find("outConfig").unwrap().children[0].get("status"),
        "created"
    );
    assert_eq!(
        sim.get("sys/svc-ext/vmedia-svc/vmmap-boot")
            .unwrap()
            .get("mappingStatus"),
        "In Progress"
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        sim.get("sys/svc-ext/vmedia-svc/vmmap-boot")
            .unwrap()
            .get("mappingStatus"),
        "OK"
    );
    // The IMC fetched the image as a controller does: its size, then its first part by range.
    assert_eq!(
        media.requests_for("/svc/centos7.4-boot.iso"),
        ["HEAD", "GET bytes=0-65535"]
    );
    // A mapping whose URL does not answer fails, in the IMC's words.
    let refused = closed_port();
    for (volume, share, file, status) in [
        (
            "cd2",
            format!("http://127.0.0.1:{refused}/svc/"),
            "centos7.4-boot.iso",
            "ERROR: Connection refused",
        ),
        (
            "cd3",
            media.share(),
            "missing.iso",
            "ERROR: HTTP 404 Not Found",
        ),
    ] {
        let dn = format!("sys/svc-ext/vmedia-svc/vmmap-{volume}");
        let map = Mo::new("commVMediaMap")
            .with("dn", dn.as_str())
            .with("map", "www")
            .with("remoteShare", share)
            .with("remoteFile", file)
            .with("status", "created");
        assert_accepted(&conf_one(&sim, &c, map).await);
        let mut now = String::new();
        for _ in 0..50 {
            tokio::time::sleep(Duration::from_millis(50)).await;
            now = sim.get(&dn).unwrap().get("mappingStatus").to_owned();
            if now != "In Progress" {
                break;
            }
        }
        assert_eq!(now, status, "{volume}");
    }
    // The UCSM class is unknown to an IMC.
    let r = conf_one(&sim, &c, profile("x1")).await;
    assert_eq!(error_code(&r), Some("ERR-xml-parse-error"));
    // IMCs allow few sessions.
    for _ in 0..3 {
        login(&sim).await;
    }
    let r = post(&sim, r#"<aaaLogin inName="admin" inPassword="password"/>"#).await;
    assert_eq!(error_code(&r), Some("572"));
}

#[tokio::test]
async fn imc_mappings_and_boot_devices_follow_the_imc_model() {
    let sim = Sim::start(SimConfig::imc()).await.unwrap();
    let c = login(&sim).await;
    let vmedia = sim.get("sys/svc-ext/vmedia-svc").unwrap();
    assert_eq!(
        (vmedia.class.as_str(), vmedia.get("adminState")),
        ("commVMedia", "enabled")
    );
    let dn = "sys/svc-ext/vmedia-svc/vmmap-cd";
    let map = |dn: &str| {
        Mo::new("commVMediaMap")
            .with("dn", dn)
            .with("map", "www")
            .with("remoteShare", "http://192.0.2.10/svc/")
            .with("remoteFile", "a.iso")
    };
    let long = format!("sys/svc-ext/vmedia-svc/vmmap-{}", "v".repeat(48));
    let rejected = [
        (map(dn).with("map", "ftp"), "101"),
        (map(&long), "101"),
        (
            map("sys/rack-unit-1/vmmap-cd").with("volumeName", "cd"),
            "101",
        ),
        (map(dn).with("shareName", "x"), "ERR-xml-parse-error"),
        (map(dn).with("mappingStatus", "OK"), "101"),
    ];
    for (bad, code) in rejected {
        let r = conf_one(&sim, &c, bad.clone()).await;
        assert_eq!(
            error_code(&r),
            Some(code),
            "{}: {}",
            bad.to_xml(),
            r.to_xml()
        );
    }
    assert_eq!(sim.with_tree(|t| t.of_class("commVMediaMap").count()), 0);

    let r = conf_one(&sim, &c, map(dn).with("status", "created")).await;
    assert_accepted(&r);
    assert_eq!(sim.get(dn).unwrap().get("volumeName"), "cd");
    // A mapping cannot be changed in place; the same values again change nothing.
    let r = conf_one(
        &sim,
        &c,
        map(dn)
            .with("remoteFile", "b.iso")
            .with("status", "modified"),
    )
    .await;
    assert_eq!(error_code(&r), Some("101"), "{}", r.to_xml());
    assert_eq!(sim.get(dn).unwrap().get("remoteFile"), "a.iso");
    let r = conf_one(&sim, &c, map(dn).with("status", "modified")).await;
    assert_accepted(&r);
    // Deleting removes it, although imcsdk's metadata lists no Remove verb.
    let del = Mo::new("commVMediaMap")
        .with("dn", dn)
        .with("status", "deleted");
    let r = conf_one(&sim, &c, del.clone()).await;
    assert_accepted(&r);
    assert!(sim.get(dn).is_none());
    assert_eq!(error_code(&conf_one(&sim, &c, del).await), Some("102"));

    let boot = "sys/rack-unit-1/boot-precision";
    let device = Mo::new("lsbootVMedia")
        .with("dn", format!("{boot}/vm-cd"))
        .with("name", "cd")
        .with("type", "VMEDIA")
        .with("subtype", "cimc-mapped-dvd")
        .with("order", "2")
        .with("state", "Enabled");
    for bad in [
        device.clone().with("subtype", "cimc-mapped-usb"),
        device.clone().with("order", "256"),
        device.clone().with("dn", "sys/rack-unit-1/vm-cd"),
    ] {
        let r = conf_one(&sim, &c, bad.clone()).await;
        assert_eq!(error_code(&r), Some("101"), "{}", bad.to_xml());
    }
    let r = conf_one(&sim, &c, device.with("status", "created")).await;
    assert_accepted(&r);
    assert_eq!(sim.get(&format!("{boot}/vm-cd")).unwrap().get("order"), "2");
    // The precision boot order exists on every rack unit: it is modified, never created.
    let r = conf_one(
        &sim,
        &c,
        Mo::new("lsbootDevPrecision")
            .with("dn", boot)
            .with("configuredBootMode", "Uefi")
            .with("status", "modified"),
    )
    .await;
    assert_accepted(&r);
    assert_eq!(sim.get(boot).unwrap().get("configuredBootMode"), "Uefi");
}

#[tokio::test]
async fn injected_faults_show_up_as_transport_failures() {
    let sim = Sim::start(SimConfig::ucsm()).await.unwrap();
    sim.set_faults(Faults {
        error_rate: 1.0,
        ..Faults::default()
    });
    let r = reqwest::Client::new()
        .post(format!("{}/nuova", sim.address()))
        .body("<aaaLogin/>")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 503);
    sim.set_faults(Faults {
        drop_rate: 1.0,
        ..Faults::default()
    });
    let r = reqwest::Client::new()
        .post(format!("{}/nuova", sim.address()))
        .body("<aaaLogin/>")
        .send()
        .await;
    let failed = match r {
        Err(_) => true,
        Ok(resp) => resp.text().await.is_err(),
    };
    assert!(failed, "a dropped connection is an error for the client");
    sim.set_faults(Faults::default());
    assert!(!login(&sim).await.is_empty());
}

#[tokio::test]
async fn malformed_requests_get_parse_errors() {
    let sim = Sim::start(SimConfig::ucsm()).await.unwrap();
    for body in ["", "<aaaLogin", "not xml", "<a/><b/>"] {
        let r = post(&sim, body).await;
        assert_eq!(r.class, "error", "{body}");
        assert_eq!(r.get("errorCode"), "ERR-xml-parse-error");
    }
    let c = login(&sim).await;
    let r = post(&sim, &format!(r#"<configFlyToMoon cookie="{c}"/>"#)).await;
    assert_eq!(r.class, "error");
}

/// Every seeded object, as a real manager reports it: a class of its model under a parent the
/// model allows, with properties and values the model has (disks, virtual drives and their
/// members, the seeded profiles' SAN boot policy among them).
#[test]
fn every_seeded_object_follows_the_object_model() {
    use bootsmith_sim::meta::Model;
    use bootsmith_sim::Domain;
    check_tree(&Model::ucsm(), &Domain::ucsm().build(), &["org-root"]);
    check_tree(&Model::imc(), &Domain::imc().build(), &[]);
}

/// A pool of `blades`, a template requiring it, policies; in one transaction.
fn pool_and_template(blades: &[(u32, u32)]) -> Vec<Mo> {
    let mut pool = Mo::new("computePool")
        .with("dn", "org-root/compute-pool-pool1")
        .with("name", "pool1");
    for (c, s) in blades {
        pool = pool.child(
            Mo::new("computePooledSlot")
                .with("rn", format!("blade-{c}-{s}"))
                .with("chassisId", c.to_string())
                .with("slotId", s.to_string()),
        );
    }
    vec![
        Mo::new("lsbootPolicy")
            .with("dn", "org-root/boot-policy-boot1")
            .with("name", "boot1"),
        pool,
        template().with("bootPolicyName", "boot1"),
    ]
}

#[tokio::test]
async fn profiles_from_a_template_take_its_policies_and_servers_from_its_pool() {
    let sim = Sim::start(SimConfig {
        effect_delay: Duration::from_millis(300),
        ..SimConfig::ucsm()
    })
    .await
    .unwrap();
    let cookie = login(&sim).await;
    // Blade 1/1 is taken by an explicit binding written in the same transaction.
    let mut objs = pool_and_template(&[(1, 1), (1, 2)]);
    objs.push(instance("sp-a"));
    objs.push(
        instance("bound").child(
            Mo::new("lsBinding")
                .with("rn", "pn")
                .with("pnDn", "sys/chassis-1/blade-1"),
        ),
    );
    objs.push(instance("sp-b"));
    let r = conf_all(&sim, &cookie, objs).await;
    assert_eq!(error_code(&r), None, "{r:?}");

    let a = sim.get("org-root/ls-sp-a").unwrap();
    assert_eq!(a.get("operSrcTemplName"), "org-root/ls-tmpl");
    assert_eq!(a.get("operBootPolicyName"), "org-root/boot-policy-boot1");
    assert_eq!(
        a.get("operVmediaPolicyName"),
        "org-root/mnt-cfg-policy-default",
        "neither names one: the default"
    );
    assert_eq!(
        sim.get("org-root/ls-sp-a/pn-req").unwrap().get("name"),
        "pool1"
    );
    assert_eq!(
        (a.get("assocState"), a.get("pnDn")),
        ("associating", "sys/chassis-1/blade-2"),
        "the bound profile keeps blade 1/1, the pool gives a the next free one"
    );
    let b = sim.get("org-root/ls-sp-b").unwrap();
    assert_eq!(
        (
            b.get("assocState"),
            b.get("configState"),
            b.get("configQualifier")
        ),
        ("unassociated", "failed-to-apply", "insufficient-resources")
    );

    // The association passes through its FSM stages one after the other.
    let fsm = "sys/chassis-1/blade-2/fsm";
    let running = |sim: &Sim| {
        ["PnuOSIdent", "ConfigPnuOS", "PowerOn"]
            .into_iter()
            .find(|name| {
                sim.get(&format!("{fsm}/stage-Associate{name}"))
                    .is_some_and(|o| o.get("stageStatus") == "inProgress")
            })
    };
    let mut seen: Vec<&str> = Vec::new();
    for _ in 0..60 {
        if let Some(s) = running(&sim) {
            if seen.last() != Some(&s) {
                seen.push(s);
            }
        }
        if sim.get("org-root/ls-sp-a").unwrap().get("assocState") == "associated" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(seen, ["PnuOSIdent", "ConfigPnuOS", "PowerOn"]);
    let a = sim.get("org-root/ls-sp-a").unwrap();
    assert_eq!(
        (a.get("assocState"), a.get("configState")),
        ("associated", "applied")
    );
    let blade = sim.get("sys/chassis-1/blade-2").unwrap();
    assert_eq!(
        (blade.get("assignedToDn"), blade.get("operPower")),
        ("org-root/ls-sp-a", "on")
    );
    assert_eq!(
        sim.get("org-root/ls-sp-a/pn-req").unwrap().get("pnDn"),
        "sys/chassis-1/blade-2"
    );
}

/// Wait until the actual mount entry `dn` is no longer `mounting`; its status and error type.
async fn mount_result(sim: &Sim, dn: &str) -> (String, String) {
    for _ in 0..100 {
        if let Some(e) = sim.get(dn) {
            if e.get("operMountStatus") != "mounting" {
                return (
                    e.get("operMountStatus").to_owned(),
                    e.get("errorType").to_owned(),
                );
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{dn} still mounting (or missing): {:?}", sim.get(dn));
}

#[tokio::test]
async fn associated_servers_mount_their_profiles_vmedia_by_fetching_it() {
    let sim = Sim::start(SimConfig {
        effect_delay: Duration::from_millis(100),
        ..SimConfig::ucsm()
    })
    .await
    .unwrap();
    let c = login(&sim).await;
    let media = MediaServer::start(&[
        ("boot.iso", vec![1u8; 200_000]),
        ("sp-m.img", vec![2u8; 1000]),
    ])
    .await
    .unwrap();
    let (ip, port) = (media.addr.ip().to_string(), media.addr.port().to_string());
    // A CD shared by every profile, and each profile's own `<name>.img` as HDD.
    let hdd = Mo::new("cimcvmediaConfigMountEntry")
        .with("rn", "cfg-mnt-entry-hdd")
        .with("mappingName", "hdd")
        .with("deviceType", "hdd")
        .with("mountProtocol", "http")
        .with("remoteIpAddress", ip.as_str())
        .with("remotePort", port.as_str())
        .with("imagePath", "/svc/")
        .with("imageNameVariable", "service-profile-name");
    let policy = Mo::new("cimcvmediaMountConfigPolicy")
        .with("dn", "org-root/mnt-cfg-policy-media")
        .with("name", "media")
        .child(boot_mount_entry(&ip, "boot.iso").with("remotePort", port.as_str()))
        .child(hdd);
    let sp = |name: &str, blade: u32| {
        profile(name)
            .with("name", name)
            .with("vmediaPolicyName", "media")
            .child(
                Mo::new("lsBinding")
                    .with("rn", "pn")
                    .with("pnDn", format!("sys/chassis-1/blade-{blade}")),
            )
    };
    // sp-m's images are both there; sp-x has no image of its own.
    let r = conf_all(&sim, &c, vec![policy, sp("sp-m", 2), sp("sp-x", 3)]).await;
    assert_accepted(&r);
    let list = |blade: u32| format!("sys/chassis-1/blade-{blade}/mgmt/actual-mount-list");
    assert!(
        sim.get(&list(2)).is_none(),
        "nothing is mounted before the association ends"
    );
    let m1 = format!("{}/actual-mount-entry-1", list(2));
    let m2 = format!("{}/actual-mount-entry-2", list(2));
    assert_eq!(
        mount_result(&sim, &m1).await,
        ("mounted".into(), "none".into())
    );
    assert_eq!(
        mount_result(&sim, &m2).await,
        ("mounted".into(), "none".into())
    );
    let hdd = sim.get(&m2).unwrap();
    assert_eq!(
        (hdd.get("mappingName"), hdd.get("imageFileName")),
        ("hdd", "sp-m.img"),
        "the profile's name as file name"
    );
    assert_eq!(
        media.requests_for("/svc/sp-m.img"),
        ["HEAD", "GET bytes=0-999"]
    );
    assert_eq!(
        mount_result(&sim, &format!("{}/actual-mount-entry-2", list(3))).await,
        ("mount-failed".into(), "file-not-found".into())
    );
    // The entries are objects of Cisco's model: a class query finds them.
    let r = post(
        &sim,
        &format!(r#"<configResolveClass cookie="{c}" classId="cimcvmediaActualMountEntry"/>"#),
    )
    .await;
    assert_eq!(r.find("outConfigs").unwrap().children.len(), 4);

    // The boot server moves to an address that does not answer: the associated servers mount
    // again from there, and fail.
    let moved = Mo::new("cimcvmediaConfigMountEntry")
        .with("dn", "org-root/mnt-cfg-policy-media/cfg-mnt-entry-boot")
        .with("remotePort", closed_port().to_string());
    assert_accepted(&conf(&sim, &c, moved).await);
    tokio::time::sleep(Duration::from_millis(20)).await;
    assert_eq!(
        mount_result(&sim, &m1).await,
        ("mount-failed".into(), "connection-rejected".into())
    );

    // Disassociated, the server lets go of its images.
    let unbind = Mo::new("lsBinding")
        .with("dn", "org-root/ls-sp-m/pn")
        .with("status", "deleted");
    assert_accepted(&conf(&sim, &c, unbind).await);
    for _ in 0..40 {
        if sim.get(&m1).is_none() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert!(sim.get(&m1).is_none(), "unmounted");
}
