//! The simulator in UCS Central mode over real HTTP: DMEs, the inventory of
//! several domains, a domain's own objects through configRemoteResolveChildren,
//! writes checked against Central's model, and deploys ending on the hardware.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use bootsmith_sim::meta::Model;
use bootsmith_sim::{Domain, Faults, Sim, SimConfig};
use bootsmith_ucs::xml::Mo;

mod common;
use common::{
    assert_accepted, boot_mount_entry, check_tree, conf_mos, cookie_of, error_code, every_blade,
    existing_sp_power, instance, parse_reply, post_raw, profile, template,
};

async fn post(sim: &Sim, dme: &str, xml: &str) -> Mo {
    let (status, body) = post_raw(sim, &format!("/xmlIM/{dme}"), xml).await;
    assert_eq!(status, 200, "{body}");
    parse_reply(&body)
}

async fn login(sim: &Sim) -> String {
    cookie_of(&post(sim, "central-mgr", LOGIN).await)
}

async fn conf_all(sim: &Sim, cookie: &str, objs: Vec<Mo>) -> Mo {
    post(sim, "central-mgr", &conf_mos(cookie, objs).to_xml()).await
}

async fn conf(sim: &Sim, cookie: &str, obj: Mo) -> Mo {
    conf_all(sim, cookie, vec![obj]).await
}

const LOGIN: &str = r#"<aaaLogin inName="admin" inPassword="password"/>"#;

fn remote_children(cookie: &str, domain: &str, dn: &str) -> String {
    format!(
        r#"<configRemoteResolveChildren cookie="{cookie}" inDn="{dn}" inDomainId="{domain}" inHierarchical="true"><inFilter/></configRemoteResolveChildren>"#
    )
}

/// The children of `dn` in `domain`, asked of resource-mgr.
async fn remote_resolve(sim: &Sim, cookie: &str, domain: &str, dn: &str) -> Mo {
    post(sim, "resource-mgr", &remote_children(cookie, domain, dn)).await
}

/// Poll until `done` holds or two seconds pass.
async fn eventually(sim: &Sim, done: impl Fn(&Sim) -> bool) -> bool {
    for _ in 0..100 {
        if done(sim) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    done(sim)
}

fn prop(sim: &Sim, dn: &str, k: &str) -> String {
    sim.get(dn)
        .unwrap_or_else(|| panic!("{dn} missing"))
        .get(k)
        .to_owned()
}

fn quick(domains: u32) -> SimConfig {
    SimConfig {
        effect_delay: Duration::from_millis(200),
        ..SimConfig::ucsc(domains)
    }
}

const BLADE1: &str = "compute/sys-1001/chassis-1/blade-1";

#[tokio::test]
async fn central_answers_on_xmlim_dmes_only() {
    let sim = Sim::start(quick(2)).await.unwrap();
    let (status, _) = post_raw(&sim, "/nuova", "<aaaLogin/>").await;
    assert_eq!(status, 404, "UCS Central has no /nuova");
    let (status, _) = post_raw(&sim, "/xmlIM/flying-mgr", "<aaaLogin/>").await;
    assert_eq!(status, 404, "unknown DME");

    let r = post(&sim, "central-mgr", LOGIN).await;
    assert_eq!(r.get("outVersion"), "2.0(1p)");
    let c = r.get("outCookie").to_owned();
    // One session table behind every DME.
    let r = post(
        &sim,
        "resource-mgr",
        &format!(r#"<aaaKeepAlive cookie="{c}"/>"#),
    )
    .await;
    assert_accepted(&r);
    let r = post(
        &sim,
        "operation-mgr",
        &format!(r#"<aaaRefresh inName="admin" inPassword="password" inCookie="{c}"/>"#),
    )
    .await;
    let c = r.get("outCookie").to_owned();
    assert!(!c.is_empty(), "{}", r.to_xml());

    let q = format!(r#"<configResolveDn cookie="{c}" dn="sys"/>"#);
    let r = post(&sim, "central-mgr", &q).await;
    let top = &r.find("outConfig").unwrap().children[0];
    assert_eq!(
        (top.class.as_str(), top.get("name")),
        ("topSystem", "sim-ucsc")
    );
    for dme in ["resource-mgr", "policy-mgr"] {
        let r = post(&sim, dme, &q).await;
        assert_eq!(
            r.class,
            "error",
            "queries live on central-mgr: {}",
            r.to_xml()
        );
    }

    sim.set_faults(Faults {
        fail_next: 1,
        ..Faults::default()
    });
    let (status, _) = post_raw(&sim, "/xmlIM/central-mgr", &q).await;
    assert_eq!(status, 503, "faults apply to /xmlIM as to /nuova");
    assert_eq!(error_code(&post(&sim, "central-mgr", &q).await), None);

    let r = post(
        &sim,
        "policy-mgr",
        &format!(r#"<aaaLogout inCookie="{c}"/>"#),
    )
    .await;
    assert_eq!(r.get("outStatus"), "success");
    assert_eq!(
        error_code(&post(&sim, "central-mgr", &q).await),
        Some("552")
    );
}

#[tokio::test]
async fn inventory_spans_every_domain_and_fsms_stay_in_the_domains() {
    let sim = Sim::start(quick(3)).await.unwrap();
    let c = login(&sim).await;
    let r = post(&sim, "central-mgr", &every_blade(&c)).await;
    let blades = &r.find("outConfigs").unwrap().children;
    assert_eq!(blades.len(), 3 * 2 * 4);
    let systems: BTreeSet<&str> = blades
        .iter()
        .map(|b| b.get("dn").split('/').nth(1).unwrap())
        .collect();
    assert_eq!(
        systems.into_iter().collect::<Vec<_>>(),
        ["sys-1001", "sys-1002", "sys-1003"]
    );
    let serials: BTreeSet<&str> = blades.iter().map(|b| b.get("serial")).collect();
    assert_eq!(serials.len(), blades.len(), "serials are unique");
    let blade = blades.iter().find(|b| b.get("dn") == BLADE1).unwrap();
    assert_eq!(
        (blade.get("association"), blade.get("assignedToDn")),
        ("associated", "org-root/ls-existing-sp")
    );

    let r = post(
        &sim,
        "central-mgr",
        &format!(r#"<configResolveClass cookie="{c}" classId="extpolClient"/>"#),
    )
    .await;
    let clients = &r.find("outConfigs").unwrap().children;
    assert_eq!(clients.len(), 3);
    assert!(clients.iter().all(|m| m.get("operState") == "registered"
        && m.get("connectionState") == "connected"
        && m.get("type") == "managed-endpoint"));
    assert_eq!(clients[1].get("ip"), "10.10.2.10");

    let r = post(
        &sim,
        "central-mgr",
        &format!(r#"<configResolveClass cookie="{c}" classId="computeBladeFsmStage"/>"#),
    )
    .await;
    assert_eq!(r.class, "error", "Central's model has no server FSMs");

    let r = post(
        &sim,
        "central-mgr",
        &format!(r#"<configResolveClass cookie="{c}" classId="lsServer"><inFilter><eq class="lsServer" property="type" value="updating-template"/></inFilter></configResolveClass>"#),
    )
    .await;
    let dns: Vec<&str> = r
        .find("outConfigs")
        .unwrap()
        .children
        .iter()
        .map(|m| m.get("dn"))
        .collect();
    assert_eq!(
        dns,
        [
            "org-root/ls-c7-template",
            "org-root/ls-esxi-template",
            "org-root/org-Dept1/ls-dept-template"
        ]
    );
}

#[tokio::test]
async fn remote_children_come_from_the_domain_while_it_is_reachable() {
    let sim = Sim::start(quick(2)).await.unwrap();
    let c = login(&sim).await;
    let r = remote_resolve(&sim, &c, "1002", "sys/chassis-1/blade-3/fsm").await;
    assert_accepted(&r);
    assert_eq!(r.class, "configRemoteResolveChildren");
    let stages = &r.find("outConfigs").unwrap().children;
    assert_eq!(stages.len(), 4);
    assert!(stages
        .iter()
        .all(|s| s.class == "computeBladeFsmStage" && !s.get("order").is_empty()));
    assert_eq!(
        stages[0].get("dn"),
        "sys/chassis-1/blade-3/fsm/stage-DiscoverBegin"
    );

    let r = post(
        &sim,
        "central-mgr",
        &remote_children(&c, "1002", "sys/chassis-1/blade-3/fsm"),
    )
    .await;
    assert_eq!(
        r.class,
        "error",
        "only resource-mgr knows it: {}",
        r.to_xml()
    );

    let r = remote_resolve(&sim, &c, "4711", "sys/chassis-1/blade-3/fsm").await;
    assert_eq!(error_code(&r), Some("102"), "{}", r.to_xml());
    assert!(r.get("errorDescr").contains("4711"));

    assert!(sim.set_domain_reachable(1002, false));
    assert!(!sim.set_domain_reachable(4711, false));
    let client = sim.get("extpol/reg/clients/client-1002").unwrap();
    assert_eq!(
        (
            client.get("operState"),
            client.get("connectionState"),
            client.get("lossVisibilitySource")
        ),
        ("lost-visibility", "lost-connectivity", "polling")
    );
    // The time of the last poll that reached it stays while it is lost.
    let last = client.get("lastPollTs").to_owned();
    assert_eq!(last.len(), "2026-01-01T00:00:00.000".len(), "{last}");
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    sim.set_domain_reachable(1002, false);
    assert_eq!(
        prop(&sim, "extpol/reg/clients/client-1002", "lastPollTs"),
        last
    );
    let r = remote_resolve(&sim, &c, "1002", "sys/chassis-1/blade-3/fsm").await;
    assert_eq!(error_code(&r), Some("503"), "{}", r.to_xml());
    assert!(r.get("errorDescr").contains("unreachable"));
    // Central keeps what it last knew.
    let r = post(
        &sim,
        "central-mgr",
        &format!(r#"<configResolveDn cookie="{c}" dn="compute/sys-1002/chassis-1/blade-3"/>"#),
    )
    .await;
    assert_eq!(r.find("outConfig").unwrap().children.len(), 1);

    sim.set_domain_reachable(1002, true);
    assert_eq!(
        prop(&sim, "extpol/reg/clients/client-1002", "operState"),
        "registered"
    );
    assert!(prop(&sim, "extpol/reg/clients/client-1002", "lastPollTs") > last);
    let r = remote_resolve(&sim, &c, "1002", "sys/chassis-1/blade-3/fsm").await;
    assert_accepted(&r);
}

#[tokio::test]
async fn writes_that_central_rejects_are_rejected() {
    let sim = Sim::start(quick(2)).await.unwrap();
    let c = login(&sim).await;
    let pool = "org-root/compute-pool-p1";
    let r = conf(
        &sim,
        &c,
        Mo::new("computePool").with("dn", pool).with("name", "p1"),
    )
    .await;
    assert_accepted(&r);
    let disk = "compute/sys-1001/chassis-1/blade-2/board/storage-SAS-1/disk-2";
    let cases = [
        // UCSM's pooled-slot rn, without the domain
        (
            Mo::new("computePooledSlot")
                .with("dn", format!("{pool}/blade-1-2"))
                .with("chassisId", "1")
                .with("slotId", "2"),
            "101",
        ),
        // read-only property
        (profile("node01").with("assocState", "associated"), "101"),
        // name breaking the pattern (2 to 32 of [-.:_a-zA-Z0-9])
        (profile("x"), "101"),
        (Mo::new("lsServer").with("dn", "org-root/ls-node 01"), "101"),
        // a server FSM is no Central class
        (
            Mo::new("computeBladeFsm").with("dn", format!("{BLADE1}/fsm")),
            "ERR-xml-parse-error",
        ),
        // disks are read-only in Central: they change through remote-oper
        (
            Mo::new("storageLocalDisk")
                .with("dn", disk)
                .with("adminAction", "unconfigured-good"),
            "101",
        ),
        (
            Mo::new("storageLocalDiskOperation")
                .with("dn", format!("{disk}/remote-oper"))
                .with("lc", "shiny"),
            "101",
        ),
        // instances are Central's own doing
        (
            Mo::new("computeInstance").with("dn", "org-root/req-existing-sp/inst-1002"),
            "101",
        ),
        // an operation object cannot be made where none exists
        (
            Mo::new("lsServerOperation")
                .with("dn", "org-root/req-ghost/inst-1001/remote-oper")
                .with("state", "admin-up"),
            "102",
        ),
        // blades are hardware
        (
            Mo::new("computeBlade")
                .with("dn", BLADE1)
                .with("adminPower", "admin-up"),
            "101",
        ),
    ];
    let before = sim.with_tree(|t| t.len());
    for (obj, code) in cases {
        let xml = obj.to_xml();
        let r = conf(&sim, &c, obj).await;
        assert_eq!(error_code(&r), Some(code), "{xml} → {}", r.to_xml());
    }
    assert_eq!(sim.with_tree(|t| t.len()), before, "nothing was written");

    let slot = pooled_blade("dn", format!("{pool}/system-1001-blade-1-2"));
    let r = conf(&sim, &c, slot).await;
    assert_accepted(&r);
    let rack = pooled_rack("dn", format!("{pool}/system-1002-rack-1"));
    assert_eq!(error_code(&conf(&sim, &c, rack).await), None);

    // A vMedia policy with dotted IPv4 servers is fine; the model's pattern refuses .0 hosts.
    let policy = |ip: &str| {
        Mo::new("cimcvmediaMountConfigPolicy")
            .with("dn", "org-root/mnt-cfg-policy-SVC_c7")
            .with("name", "SVC_c7")
            .with("retryOnMountFail", "yes")
            .child(boot_mount_entry(ip, "c7-boot.iso"))
    };
    assert_eq!(
        error_code(&conf(&sim, &c, policy("192.0.2.10")).await),
        None
    );
    assert_eq!(
        error_code(&conf(&sim, &c, policy("10.1.1.0")).await),
        Some("101")
    );
    let boot = Mo::new("lsbootPolicy")
        .with("dn", "org-root/boot-policy-SVC_c7")
        .with("name", "SVC_c7")
        .child(
            Mo::new("lsbootStorage")
                .with("rn", "storage")
                .with("order", "1")
                .child(
                    Mo::new("lsbootLocalStorage")
                        .with("rn", "local-storage")
                        .child(
                            Mo::new("lsbootDefaultLocalImage")
                                .with("rn", "local-any")
                                .with("order", "1"),
                        ),
                ),
        )
        .child(
            Mo::new("lsbootVirtualMedia")
                .with("rn", "read-only-remote-cimc-vm")
                .with("access", "read-only-remote-cimc")
                .with("order", "2"),
        );
    let r = conf(&sim, &c, boot).await;
    assert_accepted(&r);
}

/// Blade 1/2 of domain 1001 as a pool member, placed by `key` ("dn" or "rn").
fn pooled_blade(key: &str, place: String) -> Mo {
    Mo::new("computePooledSlot")
        .with(key, place)
        .with("systemId", "1001")
        .with("chassisId", "1")
        .with("slotId", "2")
}

/// Rack unit 1 of domain 1002 as a pool member, placed by `key` ("dn" or "rn").
fn pooled_rack(key: &str, place: String) -> Mo {
    Mo::new("computePooledRackUnit")
        .with(key, place)
        .with("systemId", "1002")
        .with("id", "1")
}

/// A pool with a blade of each domain, a template requiring it; in one transaction.
fn pool_and_template() -> Vec<Mo> {
    let pool = Mo::new("computePool")
        .with("dn", "org-root/compute-pool-pool1")
        .with("name", "pool1")
        .child(pooled_blade("rn", "system-1001-blade-1-2".into()))
        .child(pooled_rack("rn", "system-1002-rack-1".into()));
    vec![pool, template()]
}

#[tokio::test]
async fn deploys_take_pool_servers_and_bindings_with_fsm_stages_in_the_domain() {
    let sim = Sim::start(SimConfig {
        effect_delay: Duration::from_millis(400),
        ..SimConfig::ucsc(2)
    })
    .await
    .unwrap();
    let c = login(&sim).await;
    let mut objs = pool_and_template();
    objs.push(instance("sp-a"));
    objs.push(instance("sp-b"));
    objs.push(instance("sp-c"));
    objs.push(
        profile("bound").with("name", "bound").child(
            Mo::new("lsBinding")
                .with("rn", "pn")
                .with("pnDn", "compute/sys-1002/chassis-2/blade-4"),
        ),
    );
    // Bound to the blade existing-sp holds.
    objs.push(
        profile("thief")
            .with("name", "thief")
            .child(Mo::new("lsBinding").with("rn", "pn").with("pnDn", BLADE1)),
    );
    let r = conf_all(&sim, &c, objs).await;
    assert_accepted(&r);

    let blade = "compute/sys-1001/chassis-1/blade-2";
    assert_eq!(prop(&sim, "org-root/ls-sp-a", "pnDn"), blade);
    assert_eq!(
        prop(&sim, "org-root/ls-sp-b", "pnDn"),
        "compute/sys-1002/rack-unit-1"
    );
    assert_eq!(
        prop(&sim, "org-root/ls-sp-c", "configQualifier"),
        "insufficient-resources"
    );
    let thief = sim.get("org-root/ls-thief").unwrap();
    assert_eq!(
        (thief.get("configState"), thief.get("configQualifier")),
        ("failed-to-apply", "compute-unavailable")
    );
    assert_eq!(
        prop(&sim, BLADE1, "assignedToDn"),
        "org-root/ls-existing-sp"
    );
    assert_eq!(
        prop(&sim, "org-root/ls-sp-a/remote-oper", "state"),
        "up",
        "operation objects exist on every profile"
    );

    // The association passes through its FSM stages in the domain's own tree.
    let mut seen: Vec<String> = Vec::new();
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(3) {
        let r = remote_resolve(&sim, &c, "1001", "sys/chassis-1/blade-2/fsm").await;
        if let Some(s) = r
            .find("outConfigs")
            .unwrap()
            .children
            .iter()
            .find(|s| s.get("stageStatus") == "inProgress")
        {
            if seen.last().map(String::as_str) != Some(s.get("name")) {
                seen.push(s.get("name").to_owned());
            }
        }
        if prop(&sim, "org-root/ls-sp-a", "assocState") == "associated" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(15)).await;
    }
    assert_eq!(
        seen,
        [
            "AssociatePnuOSIdent",
            "AssociateConfigPnuOS",
            "AssociatePowerOn"
        ]
    );
    assert!(
        eventually(&sim, |s| ["sp-a", "sp-b", "bound"].iter().all(|n| prop(
            s,
            &format!("org-root/ls-{n}"),
            "assocState"
        )
            == "associated"))
        .await
    );
    let b = sim.get(blade).unwrap();
    assert_eq!(
        (
            b.get("association"),
            b.get("assignedToDn"),
            b.get("operState"),
            b.get("availability"),
            b.get("operPower")
        ),
        ("associated", "org-root/ls-sp-a", "ok", "unavailable", "on")
    );
    let inst = sim.get("org-root/req-sp-a/inst-1001").unwrap();
    assert_eq!(
        (
            inst.class.as_str(),
            inst.get("assocState"),
            inst.get("physDn")
        ),
        ("computeInstance", "associated", blade)
    );
    assert!(sim.get("org-root/req-sp-a/inst-1001/remote-oper").is_some());
    assert!(sim.get("org-root/req-sp-a/inst-1001/power").is_some());
    assert_eq!(
        prop(&sim, "org-root/req-bound/inst-1002", "physDn"),
        "compute/sys-1002/chassis-2/blade-4"
    );
    assert_eq!(
        sim.get_remote(1001, "sys/chassis-1/blade-2/fsm/stage-AssociateSuccess")
            .unwrap()
            .get("stageStatus"),
        "success"
    );
}

#[tokio::test]
async fn power_goes_through_the_profile_or_its_instance() {
    let sim = Sim::start(quick(2)).await.unwrap();
    let c = login(&sim).await;
    assert_eq!(prop(&sim, BLADE1, "operPower"), "on");
    let r = conf(&sim, &c, existing_sp_power("down")).await;
    assert_accepted(&r);
    assert_eq!(prop(&sim, BLADE1, "operPower"), "on", "not at once");
    assert!(eventually(&sim, |s| prop(s, BLADE1, "operPower") == "off").await);

    // As KUBAM did it: the instance's remote-oper.
    let instance_oper = |state: &str| {
        Mo::new("lsServerOperation")
            .with("dn", "org-root/req-existing-sp/inst-1001/remote-oper")
            .with("state", state)
    };
    let r = conf(&sim, &c, instance_oper("admin-up")).await;
    assert_accepted(&r);
    assert_eq!(
        sim.get_remote(1001, "sys/chassis-1/blade-1/fsm/stage-TurnupExecute")
            .unwrap()
            .get("stageStatus"),
        "inProgress"
    );
    assert!(eventually(&sim, |s| prop(s, BLADE1, "operPower") == "on").await);
    let r = conf(&sim, &c, instance_oper("hard-reset-immediate")).await;
    assert_accepted(&r);
    assert!(
        eventually(&sim, |s| s
            .get_remote(1001, "sys/chassis-1/blade-1/fsm/stage-HardresetSuccess")
            .is_some_and(|o| o.get("stageStatus") == "success"))
        .await
    );
}

#[tokio::test]
async fn disks_reset_through_their_remote_oper() {
    let sim = Sim::start(quick(1)).await.unwrap();
    let c = login(&sim).await;
    let disk = "compute/sys-1001/chassis-2/blade-3/board/storage-SAS-1/disk-2";
    assert_eq!(prop(&sim, disk, "diskState"), "jbod");
    let r = conf(
        &sim,
        &c,
        Mo::new("storageLocalDiskOperation")
            .with("dn", format!("{disk}/remote-oper"))
            .with("lc", "unconfigured-good")
            .with("status", "created,modified"),
    )
    .await;
    assert_accepted(&r);
    assert!(eventually(&sim, |s| prop(s, disk, "diskState") == "unconfigured-good").await);
}

#[tokio::test]
async fn deleting_a_profile_frees_its_server() {
    let sim = Sim::start(quick(1)).await.unwrap();
    let c = login(&sim).await;
    assert!(sim.get("org-root/req-existing-sp/inst-1001").is_some());
    let r = conf(&sim, &c, profile("existing-sp").with("status", "deleted")).await;
    assert_accepted(&r);
    assert!(eventually(&sim, |s| prop(s, BLADE1, "association") == "none").await);
    let b = sim.get(BLADE1).unwrap();
    assert_eq!(
        (b.get("assignedToDn"), b.get("availability")),
        ("", "available")
    );
    assert!(sim.get("org-root/req-existing-sp").is_none());
}

#[tokio::test]
async fn changes_for_an_unreachable_domain_wait_for_it() {
    let sim = Sim::start(quick(2)).await.unwrap();
    let c = login(&sim).await;
    sim.set_domain_reachable(1002, false);
    let server = "compute/sys-1002/chassis-1/blade-1";
    let r = conf(
        &sim,
        &c,
        profile("later")
            .with("name", "later")
            .child(Mo::new("lsBinding").with("rn", "pn").with("pnDn", server)),
    )
    .await;
    assert_eq!(
        error_code(&r),
        None,
        "global config is accepted: {}",
        r.to_xml()
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(prop(&sim, server, "association"), "none");
    assert!(sim.get("org-root/req-later").is_none());

    // A pool does not hand out servers of a domain Central cannot reach.
    let mut objs = pool_and_template();
    objs.push(instance("pooled"));
    let r = conf_all(&sim, &c, objs).await;
    assert_accepted(&r);
    assert_eq!(
        prop(&sim, "org-root/ls-pooled", "pnDn"),
        "compute/sys-1001/chassis-1/blade-2"
    );

    sim.set_domain_reachable(1002, true);
    assert!(eventually(&sim, |s| prop(s, server, "association") == "associated").await);
    assert_eq!(prop(&sim, "org-root/req-later/inst-1002", "physDn"), server);
}

#[test]
fn the_built_objects_follow_the_central_and_domain_models() {
    let domain = Domain::ucsc(3);
    let tree = domain.build();
    check_tree(&Model::ucsc(), &tree, &["org-root", "domaingroup-root"]);
    let remote = domain.build_remote();
    assert_eq!(
        remote.keys().copied().collect::<Vec<_>>(),
        [1001, 1002, 1003]
    );
    let ucsm = Model::ucsm();
    for t in remote.values() {
        check_tree(&ucsm, t, &[]);
        assert_eq!(t.of_class("computeBladeFsmStage").count(), 2 * 4 * 4);
    }
    let ids: Vec<&str> = tree
        .of_class("computeBlade")
        .chain(tree.of_class("computeRackUnit"))
        .flat_map(|(_, o)| [o.get("serial"), o.get("uuid")])
        .collect();
    let unique: BTreeSet<&str> = ids.iter().copied().collect();
    assert_eq!(
        unique.len(),
        ids.len(),
        "serials and uuids unique across domains"
    );
}

#[tokio::test]
async fn eight_hundred_blades_build_and_answer_quickly() {
    let started = Instant::now();
    let sim = Sim::start(SimConfig {
        domain: Domain {
            chassis: 20,
            blades_per_chassis: 8,
            ..Domain::ucsc(5)
        },
        ..SimConfig::ucsc(5)
    })
    .await
    .unwrap();
    let c = login(&sim).await;
    let r = post(&sim, "central-mgr", &every_blade(&c)).await;
    assert_eq!(r.find("outConfigs").unwrap().children.len(), 800);
    let r = remote_resolve(&sim, &c, "1005", "sys/chassis-20/blade-8/fsm").await;
    assert_eq!(r.find("outConfigs").unwrap().children.len(), 4);
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "took {:?}",
        started.elapsed()
    );
}
