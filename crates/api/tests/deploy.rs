//! `POST /api/v2/servers/<group>/deploy` and `…/vmedia` against the UCS Manager simulator,
//! which refuses objects outside Cisco's object model: checks first, plan with `dry_run`,
//! idempotent writes, one deploy per group at a time.

mod common;

use bootsmith_sim::tree::Obj;
use bootsmith_sim::{Faults, Sim, SimConfig};
use common::*;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

/// A server with a group `name` of `kind` on a fresh simulator, the boot-server address and
/// a network group `mgmt`.
async fn group(name: &str, kind: &str) -> (Server, Sim) {
    let cfg = if kind == "imc" {
        SimConfig::imc()
    } else {
        SimConfig::ucsm()
    };
    group_on(name, kind, cfg).await
}

/// [`group`] on a simulator started from `cfg`.
async fn group_on(name: &str, kind: &str, cfg: SimConfig) -> (Server, Sim) {
    // Listening: deploy points the managers' virtual media at our svc port.
    let s = Server::listening().await;
    let u = Sim::start(cfg).await.unwrap();
    managed_group(&s, name, kind, &u.address()).await;
    (s, u)
}

async fn setup(os: &str) -> (Server, Sim) {
    let (s, u) = group("pod1", "ucsm").await;
    let hosts = json!([
        {"name": "node01", "ip": "192.0.2.21", "os": os, "role": "generic", "network_group": "mgmt", "server_group": "pod1"},
        {"name": "node02", "ip": "192.0.2.22", "os": os, "role": "generic", "network_group": "mgmt", "server_group": "pod1",
         "service_profile_template": "org-root/org-lab/ls-tmpl"}
    ]);
    let r = s.post("/api/v2/hosts", hosts).await;
    assert!(r.0.is_success(), "{}", r.1);
    (s, u)
}

fn profiles(u: &Sim) {
    u.with_tree(|t| {
        t.put("org-root/org-lab", Obj::new("orgOrg", &[("name", "lab")]));
        for dn in ["org-root/ls-node01", "org-root/org-lab/ls-node02"] {
            let name = dn.rsplit("/ls-").next().unwrap();
            t.put(
                dn,
                Obj::new("lsServer", &[("name", name), ("type", "instance")]),
            );
        }
    });
}

/// POST `/api/v2/servers/pod1/{what}{query}`, `what` being `deploy` or `vmedia`.
async fn pod1(s: &Server, what: &str, query: &str) -> (StatusCode, Value) {
    s.call(
        Method::POST,
        &format!("/api/v2/servers/pod1/{what}{query}"),
        None,
    )
    .await
}

async fn vmedia(s: &Server, query: &str) -> (StatusCode, Value) {
    pod1(s, "vmedia", query).await
}

/// An SSH key, so that a plan has no warning about logins.
async fn with_a_key(s: &Server) {
    let r = s.post("/api/v1/keys", json!({ "keys": [KEY_A] })).await;
    assert!(r.0.is_success(), "{}", r.1);
}

/// The dry-run plan's warnings of a deploy of pod1.
async fn plan_warnings(s: &Server) -> Vec<String> {
    let (st, plan) = pod1(s, "deploy", "?dry_run=true").await;
    assert_eq!(st, StatusCode::OK, "{plan}");
    plan["warnings"]
        .as_array()
        .map(|w| w.iter().map(|s| s.as_str().unwrap().to_owned()).collect())
        .unwrap_or_default()
}

#[tokio::test]
async fn hosts_without_built_media_are_told_to_make_their_images() {
    let (s, u) = group("pod1", "ucsm").await;
    let hosts = json!([{"name": "node01", "ip": "192.0.2.21", "os": "rhel8.4", "role": "generic",
        "network_group": "mgmt", "server_group": "pod1", "server": "1/2"}]);
    assert!(s.post("/api/v2/hosts", hosts).await.0.is_success());
    with_a_key(&s).await;
    // Nothing built: the plan says to make the images, and does not blame the address.
    let said = plan_warnings(&s).await;
    assert_eq!(
        said,
        ["node01: svc/rhel8.4-boot.iso and svc/node01.img missing, not built yet; make the hosts' images on the Images screen first"],
    );
    let refused = pod1(&s, "deploy", "").await;
    assert_error(&refused, 409, "media_missing");
    let error = refused.1["error"].as_str().unwrap();
    assert!(
        error.contains("make the hosts' images") && !error.contains("boot-server address"),
        "{}",
        refused.1
    );
    assert_error(
        &pod1(&s, "deploy", "?allow_stale=true").await,
        409,
        "media_missing",
    );
    assert_eq!(confmos(&u), 0, "nothing written");
    // Half built: only the missing file is named.
    svc_files(&s, &["rhel8.4-boot.iso"]);
    assert_eq!(
        plan_warnings(&s).await,
        ["node01: svc/node01.img missing, not built yet; make the hosts' images on the Images screen first"],
    );
}

#[tokio::test]
async fn a_pool_with_fewer_free_servers_than_hosts_names_those_left_without() {
    let (s, _u) = group("pod1", "ucsm").await;
    let images: Vec<String> = (1..=4).map(|n| format!("node0{n}.img")).collect();
    let mut files: Vec<&str> = images.iter().map(String::as_str).collect();
    files.push("rhel8.4-boot.iso");
    svc_files(&s, &files);
    with_a_key(&s).await;
    let host = |n: u32| json!({"name": format!("node0{n}"), "ip": format!("192.0.2.2{n}"), "os": "rhel8.4", "role": "generic", "network_group": "mgmt", "server_group": "pod1"});
    // node04 names blade 1/3 itself, so the pool has only blade 1/2 free for three hosts.
    let mut own = host(4);
    own["server"] = json!("1/3");
    assert!(s
        .post("/api/v2/hosts", json!([host(1), host(2), host(3), own]))
        .await
        .0
        .is_success());
    let sel = json!({"servers": {"blades": ["1/2", "1/3"]}});
    assert_eq!(
        s.post("/api/v2/servers/pod1/servers", sel).await.0,
        StatusCode::OK
    );
    assert_eq!(
        plan_warnings(&s).await,
        ["The pool SVC_rhel84 has 1 free server for 3 hosts without a server: node02, node03 will get none and stay unassociated; select more servers for pod1 or free some"],
    );
    // Enough servers: nothing to say.
    let sel = json!({"servers": {"blades": ["1/2", "1/3", "1/4", "2/1"]}});
    assert_eq!(
        s.post("/api/v2/servers/pod1/servers", sel).await.0,
        StatusCode::OK
    );
    assert!(plan_warnings(&s).await.is_empty());
}

#[tokio::test]
async fn without_an_ssh_key_the_deploy_plan_says_nobody_can_log_in() {
    let (s, _u) = group("pod1", "ucsm").await;
    svc_files(&s, &["rhel8.4-boot.iso", "node01.img"]);
    let hosts = json!([{"name": "node01", "ip": "192.0.2.21", "os": "rhel8.4", "role": "generic",
        "network_group": "mgmt", "server_group": "pod1", "server": "1/2"}]);
    assert!(s.post("/api/v2/hosts", hosts).await.0.is_success());
    assert_eq!(
        plan_warnings(&s).await,
        ["No SSH key is set: node01 will accept no login once installed (logins are by key; the root password is random and never shown). Add a key on the Keys screen, then make the images."],
    );
    let overview = s.get("/api/v2/overview").await.1;
    assert!(
        overview["warnings"]
            .to_string()
            .contains("No SSH key is set: the hosts will accept no login once installed"),
        "{overview}"
    );
    with_a_key(&s).await;
    assert!(plan_warnings(&s).await.is_empty());
}

#[tokio::test]
async fn rhel_group_gets_its_policy_planned_then_written_once() {
    let (s, u) = setup("rhel8.4").await;

    // Not ready: no images in svc yet, every missing file named, and what to do about it.
    let (st, body) = vmedia(&s, "").await;
    assert_eq!(st, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["code"], "media_missing");
    let text = body["error"].as_str().unwrap();
    assert!(
        text.contains("svc/rhel8.4-boot.iso") && text.contains("svc/node02.img"),
        "{text}"
    );
    svc_files(&s, &["rhel8.4-boot.iso", "node01.img", "node02.img"]);

    // Profiles that do not exist yet are named as warnings; the policy is planned regardless
    // (the operator may make the profiles by hand afterwards, pointing at it).
    let (st, plan) = vmedia(&s, "?dry_run=true").await;
    assert_eq!(st, StatusCode::OK, "{plan}");
    let warnings = plan["warnings"].to_string();
    assert!(
        warnings.contains("org-root/ls-node01") && warnings.contains("org-root/org-lab/ls-node02"),
        "{plan}"
    );
    assert!(
        plan["objects"]
            .as_array()
            .unwrap()
            .iter()
            .all(|o| o["class"] != "lsServer"),
        "{plan}"
    );
    profiles(&u);

    // Dry run: the plan, nothing written.
    let before = confmos(&u);
    let (st, plan) = vmedia(&s, "?dry_run=true").await;
    assert_eq!(st, StatusCode::OK, "{plan}");
    assert_eq!(plan["dry_run"], true);
    assert_eq!(
        object_actions(&plan),
        [
            ("org-root/mnt-cfg-policy-SVC_rhel84", "create"),
            (
                "org-root/mnt-cfg-policy-SVC_rhel84/cfg-mnt-entry-bootsmith-cd",
                "create"
            ),
            (
                "org-root/mnt-cfg-policy-SVC_rhel84/cfg-mnt-entry-bootsmith-hdd",
                "create"
            ),
            ("org-root/ls-node01", "modify"),
            ("org-root/org-lab/ls-node02", "modify"),
        ]
    );
    assert!(u.get("org-root/mnt-cfg-policy-SVC_rhel84").is_none());
    assert_eq!(confmos(&u), before);

    // Apply: one transaction, objects as Cisco's model has them.
    let (st, done) = vmedia(&s, "").await;
    assert_eq!(st, StatusCode::OK, "{done}");
    assert_eq!(done["dry_run"], false);
    assert_eq!(confmos(&u), before + 1);
    let cd = u
        .get("org-root/mnt-cfg-policy-SVC_rhel84/cfg-mnt-entry-bootsmith-cd")
        .expect("CD entry");
    assert_eq!(
        (
            cd.get("deviceType"),
            cd.get("mountProtocol"),
            cd.get("remoteIpAddress")
        ),
        ("cdd", "http", SVC_IP)
    );
    assert_eq!(
        (cd.get("imagePath"), cd.get("imageFileName")),
        ("/svc/", "rhel8.4-boot.iso")
    );
    let port = s.base().rsplit(':').next().unwrap();
    assert_eq!(cd.get("remotePort"), port, "the listener's own port");
    let hdd = u
        .get("org-root/mnt-cfg-policy-SVC_rhel84/cfg-mnt-entry-bootsmith-hdd")
        .unwrap();
    assert_eq!(
        (hdd.get("deviceType"), hdd.get("imageNameVariable")),
        ("hdd", "service-profile-name")
    );
    assert_eq!(
        u.get("org-root/org-lab/ls-node02")
            .unwrap()
            .get("vmediaPolicyName"),
        "SVC_rhel84"
    );

    // Again: nothing to change, nothing sent.
    let (st, again) = vmedia(&s, "").await;
    assert_eq!(st, StatusCode::OK);
    assert!(every_object_is(&again, "unchanged"), "{again}");
    assert_eq!(confmos(&u), before + 1);

    // The boot-server address moves to one where nothing answers: the plan changes only the
    // entries, and warns that the servers could not fetch from there; the run is refused.
    set_svc_ip(&s, OTHER_IP).await;
    let (_, plan) = vmedia(&s, "?dry_run=true").await;
    let modified = dns_with_action(&plan, "modify");
    assert_eq!(modified.len(), 2, "{plan}");
    assert!(
        plan.to_string()
            .contains("remoteIpAddress: '127.0.0.1' -> '127.0.0.2'"),
        "{plan}"
    );
    assert_eq!(
        plan["warnings"][0],
        format!("node01, node02: http://{OTHER_IP}:{port}/svc/rhel8.4-boot.iso does not answer (connection refused): servers could not fetch their install media; check the boot-server address on the Settings screen and that Bootsmith listens on it"),
        "{plan}"
    );
    let refused = vmedia(&s, "").await;
    assert_error(&refused, 409, "svc_unreachable");
    assert_eq!(confmos(&u), before + 1, "nothing written");
}

#[tokio::test]
async fn esxi_hosts_mount_their_own_iso_and_no_answer_disk() {
    let (s, u) = setup("esxi8.0").await;
    svc_files(&s, &["node01.iso", "node02.iso"]);
    profiles(&u);
    let (st, done) = vmedia(&s, "").await;
    assert_eq!(st, StatusCode::OK, "{done}");
    let cd = u
        .get("org-root/mnt-cfg-policy-SVC_esxi80/cfg-mnt-entry-bootsmith-cd")
        .unwrap();
    assert_eq!(
        (
            cd.get("imageNameVariable"),
            cd.get("imageFileName"),
            cd.get("imagePath")
        ),
        ("service-profile-name", "", "/svc/")
    );
    assert!(u
        .get("org-root/mnt-cfg-policy-SVC_esxi80/cfg-mnt-entry-bootsmith-hdd")
        .is_none());
}

#[tokio::test]
async fn a_group_without_hosts_is_refused() {
    let (s, _u) = setup("rhel8.4").await;
    let hosts = json!([
        {"name": "node01", "ip": "192.0.2.21", "os": "rhel8.4", "role": "generic", "network_group": "mgmt"}
    ]);
    assert!(s.post("/api/v2/hosts", hosts).await.0.is_success());
    let (st, body) = vmedia(&s, "").await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("no host is in server group pod1"),
        "{body}"
    );
    assert_error(
        &s.call(Method::POST, "/api/v2/servers/nope/vmedia", None)
            .await,
        404,
        "server_group_not_found",
    );
}

async fn deploy(s: &Server, query: &str) -> (StatusCode, Value) {
    pod1(s, "deploy", query).await
}

#[tokio::test]
async fn deploy_makes_template_pool_profiles_and_bindings_once() {
    let (s, u) = setup("rhel8.4").await;
    svc_files(
        &s,
        &[
            "rhel8.4-boot.iso",
            "node01.img",
            "node02.img",
            "node03.img",
            "node04.img",
        ],
    );
    // Pooled; bound; own template and bound; own template, not bound.
    let hosts = json!([
        {"name": "node01", "ip": "192.0.2.21", "os": "rhel8.4", "role": "generic", "network_group": "mgmt", "server_group": "pod1"},
        {"name": "node02", "ip": "192.0.2.22", "os": "rhel8.4", "role": "generic", "network_group": "mgmt", "server_group": "pod1", "server": "1/3"},
        {"name": "node03", "ip": "192.0.2.23", "os": "rhel8.4", "role": "generic", "network_group": "mgmt", "server_group": "pod1",
         "service_profile_template": "org-root/org-lab/ls-tmpl", "server": "2/1"},
        {"name": "node04", "ip": "192.0.2.24", "os": "rhel8.4", "role": "generic", "network_group": "mgmt", "server_group": "pod1",
         "service_profile_template": "org-root/org-lab/ls-tmpl"}
    ]);
    assert!(s.post("/api/v2/hosts", hosts).await.0.is_success());

    // A template that is not on the manager, then no servers selected for the pool.
    let (st, body) = deploy(&s, "").await;
    assert_eq!(
        (st, body["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("deploy_not_ready")),
        "{body}"
    );
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("select the group's servers"),
        "{body}"
    );
    let sel = json!({"servers": {"blades": ["1/4", "1/2"]}});
    assert_eq!(
        s.post("/api/v2/servers/pod1/servers", sel).await.0,
        StatusCode::OK
    );
    let (st, body) = deploy(&s, "").await;
    assert_eq!(
        (st, body["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("unknown_template")),
        "{body}"
    );
    u.with_tree(|t| {
        t.put("org-root/org-lab", Obj::new("orgOrg", &[("name", "lab")]));
        t.put(
            "org-root/org-lab/ls-tmpl",
            Obj::new(
                "lsServer",
                &[
                    ("name", "tmpl"),
                    ("type", "updating-template"),
                    ("bootPolicyName", "san-boot"),
                ],
            ),
        );
    });

    // The plan, nothing written.
    let before = confmos(&u);
    let (st, plan) = deploy(&s, "?dry_run=true").await;
    assert_eq!(st, StatusCode::OK, "{plan}");
    assert_eq!(confmos(&u), before);
    let dns = object_dns(&plan);
    for dn in [
        "org-root/mnt-cfg-policy-SVC_rhel84",
        "org-root/boot-policy-SVC_rhel84/read-only-remote-cimc-vm",
        "org-root/compute-pool-SVC_rhel84/blade-1-2",
        "org-root/ls-SVC_rhel84",
        "org-root/ls-SVC_rhel84/pn-req",
        "org-root/ls-node01",
        "org-root/ls-node02/pn",
        "org-root/org-lab/ls-node03",
        "org-root/org-lab/ls-node03/pn",
        "org-root/org-lab/ls-node04",
    ] {
        assert!(dns.contains(&dn), "{dn} in {dns:?}");
    }
    assert!(
        !dns.contains(&"org-root/org-lab/ls-node04/pn"),
        "a host with its own template and no server gets no binding: {dns:?}"
    );
    assert!(every_object_is(&plan, "create"), "{plan}");

    // Apply: one transaction, every object valid in Cisco's model (the simulator checks).
    let (st, done) = deploy(&s, "").await;
    assert_eq!(st, StatusCode::OK, "{done}");
    assert_eq!(confmos(&u), before + 1);
    let template = u.get("org-root/ls-SVC_rhel84").unwrap();
    assert_eq!(
        (
            template.get("type"),
            template.get("bootPolicyName"),
            template.get("vmediaPolicyName")
        ),
        ("updating-template", "SVC_rhel84", "SVC_rhel84")
    );
    assert_eq!(
        u.get("org-root/ls-SVC_rhel84/pn-req").unwrap().get("name"),
        "SVC_rhel84"
    );
    assert!(u
        .get("org-root/compute-pool-SVC_rhel84/blade-1-4")
        .is_some());
    assert_eq!(
        u.get("org-root/ls-node01").unwrap().get("srcTemplName"),
        "SVC_rhel84"
    );
    assert_eq!(
        u.get("org-root/ls-node02/pn").unwrap().get("pnDn"),
        "sys/chassis-1/blade-3"
    );
    let n3 = u.get("org-root/org-lab/ls-node03").unwrap();
    assert_eq!(n3.get("srcTemplName"), "tmpl");
    assert_eq!(
        n3.get("vmediaPolicyName"),
        "SVC_rhel84",
        "the template leaves vMedia open"
    );
    assert_eq!(
        n3.get("bootPolicyName"),
        "",
        "the template fixes the boot policy"
    );
    let n4 = u.get("org-root/org-lab/ls-node04").unwrap();
    assert_eq!(
        (n4.get("srcTemplName"), n4.get("operSrcTemplName")),
        ("tmpl", "org-root/org-lab/ls-tmpl")
    );
    let boot = u.get("org-root/boot-policy-SVC_rhel84").unwrap();
    assert_eq!(
        boot.get("bootMode"),
        "uefi",
        "RHEL 8 boots UEFI per the catalog"
    );

    // Again: nothing to write.
    let (st, again) = deploy(&s, "").await;
    assert_eq!(st, StatusCode::OK);
    assert!(every_object_is(&again, "unchanged"), "{again}");
    assert_eq!(confmos(&u), before + 1, "no duplicate writes");

    // One deploy per group at a time.
    u.set_faults(Faults {
        latency: std::time::Duration::from_millis(400),
        ..Faults::default()
    });
    let first = s
        .call(Method::POST, "/api/v2/servers/pod1/deploy?wait=false", None)
        .await;
    assert_eq!(first.0, StatusCode::ACCEPTED, "{}", first.1);
    assert_error(&deploy(&s, "").await, 409, "job_running");
}

#[tokio::test]
async fn name_clashes_are_refused_first_and_a_refused_write_names_the_host() {
    let (s, u) = setup("rhel8.4").await;
    svc_files(&s, &["rhel8.4-boot.iso", "node01.img", "node02.img"]);
    let sel = json!({"servers": {"blades": ["1/2"]}});
    assert_eq!(
        s.post("/api/v2/servers/pod1/servers", sel).await.0,
        StatusCode::OK
    );
    u.with_tree(|t| {
        t.put("org-root/org-lab", Obj::new("orgOrg", &[("name", "lab")]));
        for (dn, name) in [
            ("org-root/org-lab/ls-tmpl", "tmpl"),
            ("org-root/ls-node01", "node01"),
        ] {
            t.put(
                dn,
                Obj::new("lsServer", &[("name", name), ("type", "updating-template")]),
            );
        }
    });
    let before = confmos(&u);
    for query in ["?dry_run=true", ""] {
        let r = deploy(&s, query).await;
        assert_error(&r, 409, "profile_name_taken");
        let msg = r.1["error"].as_str().unwrap();
        assert!(
            msg.contains("node01: org-root/ls-node01 on the manager is a updating-template, not a service profile"),
            "{msg}"
        );
        assert!(!msg.contains("node02"), "{msg}");
    }
    assert_eq!(confmos(&u), before, "nothing written");
    assert_eq!(
        u.get("org-root/ls-node01").unwrap().get("type"),
        "updating-template"
    );

    // The template's name taken by a profile someone made: refused the same way.
    u.with_tree(|t| {
        t.remove_subtree("org-root/ls-node01");
        t.put(
            "org-root/ls-SVC_rhel84",
            Obj::new("lsServer", &[("name", "SVC_rhel84"), ("type", "instance")]),
        );
    });
    let r = deploy(&s, "").await;
    assert_error(&r, 409, "profile_name_taken");
    assert!(
        r.1["error"].as_str().unwrap().contains(
            "org-root/ls-SVC_rhel84 on the manager is a instance, where Bootsmith keeps its updating-template"
        ),
        "{}",
        r.1
    );

    // What only the manager can refuse (node02's template org is gone): one transaction, so
    // nothing is written, and the answer names the host and the manager's words.
    u.with_tree(|t| {
        t.remove_subtree("org-root/ls-SVC_rhel84");
        t.remove_subtree("org-root/org-lab");
        t.put(
            "org-root/org-lab/ls-tmpl",
            Obj::new(
                "lsServer",
                &[("name", "tmpl"), ("type", "updating-template")],
            ),
        );
    });
    let r = deploy(&s, "").await;
    assert_eq!(r.0, StatusCode::BAD_GATEWAY, "{}", r.1);
    let msg = r.1["error"].as_str().unwrap();
    assert!(
        msg.starts_with(
            "deploy of pod1 (nothing was written; configConfMos) failed: host node02: "
        ),
        "{msg}"
    );
    assert!(msg.contains("org-root/org-lab/ls-node02"), "{msg}");
    assert!(r.1["ucs_code"].is_string(), "{}", r.1);
    assert_eq!(confmos(&u), before + 1, "one refused transaction");
    assert!(u.get("org-root/boot-policy-SVC_rhel84").is_none());
}

/// `(dn, action)` of each object of a deploy's plan or result.
fn object_actions(result: &Value) -> Vec<(&str, &str)> {
    result["objects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| (o["dn"].as_str().unwrap(), o["action"].as_str().unwrap()))
        .collect()
}

/// `[host, association, server, power]` of each host a deploy followed.
fn hosts_of(result: &Value) -> Vec<[String; 4]> {
    result["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            ["host", "association", "server", "power"].map(|k| h[k].as_str().unwrap().to_owned())
        })
        .collect()
}

#[tokio::test]
async fn pooled_hosts_get_free_servers_and_the_job_shows_fsm_stages() {
    // Associations take 3 s, so the job's polls see the FSM stages pass.
    let cfg = SimConfig {
        effect_delay: std::time::Duration::from_secs(3),
        ..SimConfig::ucsm()
    };
    let (s, u) = group_on("pod1", "ucsm", cfg).await;
    svc_files(
        &s,
        &["rhel8.4-boot.iso", "node01.img", "node02.img", "node03.img"],
    );
    let host = |n: u32| json!({"name": format!("node0{n}"), "ip": format!("192.0.2.2{n}"), "os": "rhel8.4", "role": "generic", "network_group": "mgmt", "server_group": "pod1"});
    let hosts = json!([host(1), host(2), host(3)]);
    assert!(s.post("/api/v2/hosts", hosts).await.0.is_success());
    // Blade 1/1 runs a profile we did not make: selecting it needs force, and even then the
    // pool leaves it out, saying so.
    let mut sel = json!({"servers": {"blades": ["1/1", "1/2", "1/3"]}});
    let r = s.post("/api/v2/servers/pod1/servers", sel.clone()).await;
    assert_in_use(&r, FOREIGN_BLADE);
    sel["force"] = json!(true);
    assert_eq!(
        s.post("/api/v2/servers/pod1/servers", sel).await.0,
        StatusCode::OK
    );

    with_a_key(&s).await;
    // Every session expires while the job follows the associations: it logs in again, once.
    let (st, plan) = deploy(&s, "?dry_run=true").await;
    assert_eq!(st, StatusCode::OK, "{plan}");
    let pooled: Vec<&str> = plan["objects"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["class"] == "computePooledSlot")
        .map(|o| o["dn"].as_str().unwrap())
        .collect();
    assert_eq!(
        pooled,
        [
            "org-root/compute-pool-SVC_rhel84/blade-1-2",
            "org-root/compute-pool-SVC_rhel84/blade-1-3"
        ]
    );
    // The plan says before the run what association would show: node03 gets no server.
    assert_eq!(
        plan["warnings"],
        json!([
            "blade 1/1 runs service profile org-root/ls-existing-sp, which Bootsmith did not create: it is left out of the pool SVC_rhel84",
            "The pool SVC_rhel84 has 2 free servers for 3 hosts without a server: node03 will get none and stay unassociated; select more servers for pod1 or free some"
        ])
    );
    let logins = || u.method_counts().get("aaaLogin").copied().unwrap_or(0);
    let before = logins();
    let expire = async {
        tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
        u.expire_sessions();
    };
    let ((st, done), ()) = tokio::join!(deploy(&s, "?until=associated"), expire);
    assert_eq!(st, StatusCode::OK, "{done}");
    assert_eq!(logins(), before + 1, "logged in again after the expiry");
    assert_eq!(
        hosts_of(&done),
        [
            ["node01", "associated", "sys/chassis-1/blade-2", "on"],
            ["node02", "associated", "sys/chassis-1/blade-3", "on"],
            ["node03", "failed", "", ""],
        ],
        "two free servers in the pool for three hosts"
    );
    assert_eq!(
        u.get("org-root/ls-node01")
            .unwrap()
            .get("operBootPolicyName"),
        "org-root/boot-policy-SVC_rhel84",
        "the profile runs on the template's boot policy"
    );

    let job = latest_job(&s).await;
    let events = job["events"].as_array().unwrap();
    let of = |host: &str, step: &str| -> Vec<String> {
        events
            .iter()
            .filter(|e| e["host"] == host && e["step"] == step)
            .map(|e| {
                format!(
                    "{} {}",
                    e["state"].as_str().unwrap(),
                    e["message"].as_str().unwrap_or("")
                )
            })
            .collect()
    };
    // The stages seen are UCSM's association stages, in their order.
    let stages: Vec<String> = of("node01", "fsm");
    assert!(!stages.is_empty(), "{job}");
    let order = [
        "AssociatePnuOSIdent",
        "AssociateConfigPnuOS",
        "AssociatePowerOn",
    ];
    let positions: Vec<usize> = stages
        .iter()
        .map(|s| {
            order
                .iter()
                .position(|o| s.starts_with(&format!("started {o} (")))
                .unwrap_or_else(|| panic!("unexpected stage {s}"))
        })
        .collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{stages:?}");
    assert_eq!(
        of("node01", "association").last().unwrap(),
        "done sys/chassis-1/blade-2"
    );
    assert_eq!(of("node01", "power"), ["done on"]);
    let failed = of("node03", "association");
    assert!(
        failed
            .last()
            .unwrap()
            .starts_with("failed insufficient-resources: no free server in the pool; select more servers for pod1"),
        "{failed:?}"
    );
}

#[tokio::test]
async fn deploy_converges_through_errors_and_expired_sessions() {
    let (s, u) = setup("rhel8.4").await;
    svc_files(&s, &["rhel8.4-boot.iso", "node01.img", "node02.img"]);
    let hosts = json!([
        {"name": "node01", "ip": "192.0.2.21", "os": "rhel8.4", "role": "generic", "network_group": "mgmt", "server_group": "pod1", "server": "1/1"},
        {"name": "node02", "ip": "192.0.2.22", "os": "rhel8.4", "role": "generic", "network_group": "mgmt", "server_group": "pod1", "server": "1/2"}
    ]);
    assert!(s.post("/api/v2/hosts", hosts).await.0.is_success());
    // Objects of the classes a deploy writes (association adds FSM objects of its own).
    let count = |u: &Sim| {
        u.with_tree(|t| {
            t.subtree("org-root")
                .filter(|(_, o)| {
                    o.class.starts_with("cimcvmedia")
                        || (o.class.starts_with("lsboot") && o.class != "lsbootDef")
                        || o.class.starts_with("computePool")
                        || ["lsServer", "lsRequirement", "lsBinding"].contains(&o.class.as_str())
                })
                .count()
        })
    };
    let baseline = count(&u);

    // Every session expired before the deploy, and one request in ten failing.
    u.expire_sessions();
    u.set_faults(Faults {
        error_rate: 0.1,
        ..Faults::default()
    });
    let mut ok = false;
    for _ in 0..5 {
        let (st, body) = deploy(&s, "").await;
        if st == StatusCode::OK {
            ok = true;
            break;
        }
        assert!(
            st.is_server_error(),
            "only the manager's failures: {st} {body}"
        );
    }
    assert!(ok, "converged within five runs");
    u.set_faults(Faults::default());
    let after = count(&u);
    let (st, again) = deploy(&s, "").await;
    assert_eq!(st, StatusCode::OK);
    assert!(every_object_is(&again, "unchanged"), "{again}");
    // Policies (3 + 6), the template, two profiles and their bindings.
    assert_eq!(after - baseline, 3 + 6 + 1 + 2 + 2, "each object once");
    assert_eq!(count(&u), after, "a re-run writes nothing, no duplicates");
    assert_eq!(
        u.get("org-root/ls-node02/pn").unwrap().get("pnDn"),
        "sys/chassis-1/blade-2"
    );
    assert!(
        u.get("org-root/ls-SVC_rhel84/pn-req").is_none(),
        "every host has its server: no pool"
    );
    assert!(u.get("org-root/compute-pool-SVC_rhel84").is_none());

    // Following the association: each host's profile associated with its blade, powered on.
    let (st, followed) = deploy(&s, "?until=associated").await;
    assert_eq!(st, StatusCode::OK, "{followed}");
    assert_eq!(
        hosts_of(&followed),
        [
            ["node01", "associated", "sys/chassis-1/blade-1", "on"],
            ["node02", "associated", "sys/chassis-1/blade-2", "on"]
        ]
    );
    let job = latest_job(&s).await;
    let steps: Vec<String> = job["events"]
        .as_array()
        .unwrap()
        .iter()
        // FSM stages show only while an association is still running.
        .filter(|e| e["host"] == "node02" && e["step"] != "fsm")
        .map(|e| {
            format!(
                "{} {}",
                e["step"].as_str().unwrap(),
                e["state"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        steps,
        [
            "service-profile skipped",
            "association started",
            "association done",
            "power done",
            "media done"
        ],
        "{job}"
    );
    // The blade's controller mounted both images from our listener, as UCS Manager reports.
    let port = port_of(&s);
    let urls = [
        format!("http://{SVC_IP}:{port}/svc/rhel8.4-boot.iso"),
        format!("http://{SVC_IP}:{port}/svc/node02.img"),
    ];
    assert_eq!(
        followed["hosts"][1]["media"],
        json!({"state": "mounted", "urls": urls}),
        "{followed}"
    );
    assert_eq!(
        media_outcome(&job, "node02").1,
        format!("mounted {} and {}", urls[0], urls[1])
    );
    let entry = u
        .get("sys/chassis-1/blade-2/mgmt/actual-mount-list/actual-mount-entry-2")
        .unwrap();
    assert_eq!(
        (entry.get("operMountStatus"), entry.get("imageFileName")),
        ("mounted", "node02.img")
    );

    // node02 moves to blade 1/3: only its binding changes, and the profile follows.
    let moved = json!([
        {"name": "node01", "ip": "192.0.2.21", "os": "rhel8.4", "role": "generic", "network_group": "mgmt", "server_group": "pod1", "server": "1/1"},
        {"name": "node02", "ip": "192.0.2.22", "os": "rhel8.4", "role": "generic", "network_group": "mgmt", "server_group": "pod1", "server": "1/3"}
    ]);
    assert!(s.post("/api/v2/hosts", moved).await.0.is_success());
    let (st, followed) = deploy(&s, "?until=associated").await;
    assert_eq!(st, StatusCode::OK, "{followed}");
    let changed: Vec<(&str, &str)> = object_actions(&followed)
        .into_iter()
        .filter(|(_, action)| *action != "unchanged")
        .collect();
    assert_eq!(changed, [("org-root/ls-node02/pn", "modify")]);
    assert_eq!(
        hosts_of(&followed)[1],
        ["node02", "associated", "sys/chassis-1/blade-3", "on"]
    );
    assert_eq!(
        u.get("sys/chassis-1/blade-2").unwrap().get("assignedToDn"),
        "",
        "the old blade is free again"
    );

    // Restart on request: both associated servers reset through their profiles.
    let (st, body) = deploy(&s, "?restart=true").await;
    assert_eq!(st, StatusCode::OK, "{body}");
    assert_eq!(body["restarted"], json!(["node01", "node02"]), "{body}");
    assert_eq!(
        u.get("org-root/ls-node01/power").unwrap().get("state"),
        "hard-reset-immediate"
    );

    // node02 leaves the group: what we made for it goes (its profile, the binding with it).
    let one = json!([
        {"name": "node01", "ip": "192.0.2.21", "os": "rhel8.4", "role": "generic", "network_group": "mgmt", "server_group": "pod1", "server": "1/1"},
        {"name": "node02", "ip": "192.0.2.22", "os": "rhel8.4", "role": "generic", "network_group": "mgmt"}
    ]);
    assert!(s.post("/api/v2/hosts", one).await.0.is_success());
    let (_, plan) = deploy(&s, "?dry_run=true").await;
    let deletes = dns_with_action(&plan, "delete");
    assert_eq!(deletes, ["org-root/ls-node02"], "{plan}");
    assert_eq!(deploy(&s, "").await.0, StatusCode::OK);
    assert!(u.get("org-root/ls-node02").is_none());

    // Undeploy removes exactly what deploys created; a profile we did not make stays.
    u.with_tree(|t| {
        t.put(
            "org-root/ls-someone-else",
            Obj::new(
                "lsServer",
                &[("name", "someone-else"), ("type", "instance")],
            ),
        )
    });
    let (st, plan) = s
        .call(
            Method::DELETE,
            "/api/v2/servers/pod1/deploy?dry_run=true",
            None,
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{plan}");
    assert!(every_object_is(&plan, "delete"), "{plan}");
    assert!(
        u.get("org-root/ls-node01").is_some(),
        "a dry run removes nothing"
    );
    let (st, gone) = s
        .call(Method::DELETE, "/api/v2/servers/pod1/deploy", None)
        .await;
    assert_eq!(st, StatusCode::OK, "{gone}");
    assert_eq!(
        count(&u),
        baseline + 1,
        "every object we made is gone; the foreign profile stays"
    );
    assert!(u.get("org-root/ls-someone-else").is_some());
    let (_, again) = s
        .call(
            Method::DELETE,
            "/api/v2/servers/pod1/deploy?dry_run=true",
            None,
        )
        .await;
    assert_eq!(again["objects"], json!([]), "nothing left to remove");
}

#[tokio::test]
async fn an_imc_server_gets_its_media_mapped_and_boot_order_set() {
    // On every address: the boot-server address moves from 127.0.0.1 to 127.0.0.2 below.
    let s = Server::listening_everywhere().await;
    let imc = Sim::start(SimConfig::imc()).await.unwrap();
    managed_group(&s, "rack1", "imc", &imc.address()).await;
    let hosts = json!([{"name": "c240-01", "ip": "192.0.2.31", "os": "centos7.4", "role": "generic", "network_group": "mgmt", "server_group": "rack1"}]);
    assert!(s.post("/api/v2/hosts", hosts).await.0.is_success());
    svc_files(&s, &["centos7.4-boot.iso", "c240-01.img"]);
    let port = s.base().rsplit(':').next().unwrap().to_owned();

    let (st, done) = s
        .call(Method::POST, "/api/v2/servers/rack1/deploy", None)
        .await;
    assert_eq!(st, StatusCode::OK, "{done}");
    let cd = imc
        .get("sys/svc-ext/vmedia-svc/vmmap-bootsmith-cd")
        .expect("CD mapped");
    assert_eq!(cd.get("map"), "www");
    assert_eq!(
        cd.get("remoteShare"),
        format!("http://{SVC_IP}:{port}/svc/")
    );
    // The IMC mounts a mapping as soon as it is made: the run follows it, and the IMC fetched
    // both images from our listener.
    assert_eq!(cd.get("mappingStatus"), "OK");
    let urls = [
        format!("http://{SVC_IP}:{port}/svc/centos7.4-boot.iso"),
        format!("http://{SVC_IP}:{port}/svc/c240-01.img"),
    ];
    assert_eq!(
        done["hosts"],
        json!([{"host": "c240-01", "association": "", "server": "sys/rack-unit-1", "power": "off",
            "media": {"state": "mounted", "urls": urls}}]),
        "{done}"
    );
    assert_eq!(
        media_outcome(&latest_job(&s).await, "c240-01"),
        (
            "done".into(),
            format!("mounted {} and {}", urls[0], urls[1])
        )
    );
    assert_eq!(cd.get("remoteFile"), "centos7.4-boot.iso");
    let hdd = imc
        .get("sys/svc-ext/vmedia-svc/vmmap-bootsmith-hdd")
        .expect("HDD mapped");
    assert_eq!(hdd.get("remoteFile"), "c240-01.img");
    let boot = imc.get("sys/rack-unit-1/boot-precision").unwrap();
    assert_eq!(
        boot.get("configuredBootMode"),
        "Legacy",
        "CentOS 7 boots legacy per the catalog"
    );
    assert_eq!(
        imc.get("sys/rack-unit-1/boot-precision/vm-bootsmith-cd")
            .unwrap()
            .get("order"),
        "2"
    );
    assert_eq!(
        imc.method_counts().get("configConfMos"),
        None,
        "one object per request on IMC"
    );

    // Idempotent, and a moved boot server re-mounts (IMC cannot edit a mapping in place).
    let writes = || {
        imc.method_counts()
            .get("configConfMo")
            .copied()
            .unwrap_or(0)
    };
    let before = writes();
    let (_, again) = s
        .call(Method::POST, "/api/v2/servers/rack1/vmedia", None)
        .await;
    assert!(every_object_is(&again, "unchanged"), "{again}");
    assert_eq!(writes(), before);
    set_svc_ip(&s, OTHER_IP).await;
    let (st, moved) = s
        .call(Method::POST, "/api/v2/servers/rack1/deploy", None)
        .await;
    assert_eq!(st, StatusCode::OK, "{moved}");
    let cd = imc
        .get("sys/svc-ext/vmedia-svc/vmmap-bootsmith-cd")
        .unwrap();
    assert_eq!(
        (cd.get("remoteShare"), cd.get("mappingStatus")),
        (format!("http://{OTHER_IP}:{port}/svc/").as_str(), "OK")
    );

    // On request the server is restarted to boot from the media: powered on while off,
    // power-cycled once running.
    let power = || imc.get("sys/rack-unit-1").unwrap();
    assert_eq!(power().get("operPower"), "off");
    let restart = || {
        s.call(
            Method::POST,
            "/api/v2/servers/rack1/deploy?restart=true",
            None,
        )
    };
    let (st, body) = restart().await;
    assert_eq!(st, StatusCode::OK, "{body}");
    assert_eq!(body["restarted"], json!(["c240-01"]), "{body}");
    assert_eq!(power().get("adminPower"), "up");
    for _ in 0..50 {
        if power().get("operPower") == "on" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(power().get("operPower"), "on");
    let (st, body) = restart().await;
    assert_eq!(st, StatusCode::OK, "{body}");
    assert_eq!(power().get("adminPower"), "hard-reset-immediate");
    let job = latest_job(&s).await;
    let said: Vec<&str> = job["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["step"] == "power")
        .map(|e| {
            e["message"]
                .as_str()
                .unwrap_or(e["state"].as_str().unwrap())
        })
        .collect();
    assert_eq!(said, ["power cycle", "done"], "{job}");

    // One rack server, one host.
    let two = json!([
        {"name": "c240-01", "ip": "192.0.2.31", "os": "centos7.4", "role": "generic", "network_group": "mgmt", "server_group": "rack1"},
        {"name": "c240-02", "ip": "192.0.2.32", "os": "centos7.4", "role": "generic", "network_group": "mgmt", "server_group": "rack1"}
    ]);
    assert!(s.post("/api/v2/hosts", two).await.0.is_success());
    svc_files(&s, &["c240-02.img"]);
    let (st, body) = s
        .call(Method::POST, "/api/v2/servers/rack1/deploy", None)
        .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("one host"),
        "{body}"
    );
}

#[tokio::test]
async fn vmedia_writes_the_policy_when_the_profiles_do_not_exist_yet() {
    let (s, u) = setup("rhel8.4").await;
    svc_files(&s, &["rhel8.4-boot.iso", "node01.img", "node02.img"]);
    // Only node02's profile exists (made by hand in its template's org).
    u.with_tree(|t| {
        t.put("org-root/org-lab", Obj::new("orgOrg", &[("name", "lab")]));
        t.put(
            "org-root/org-lab/ls-node02",
            Obj::new("lsServer", &[("name", "node02"), ("type", "instance")]),
        );
    });
    let (st, done) = vmedia(&s, "").await;
    assert_eq!(st, StatusCode::OK, "{done}");
    assert!(u.get("org-root/mnt-cfg-policy-SVC_rhel84").is_some());
    assert_eq!(
        u.get("org-root/org-lab/ls-node02")
            .unwrap()
            .get("vmediaPolicyName"),
        "SVC_rhel84"
    );
    assert!(u.get("org-root/ls-node01").is_none(), "no profile is made");
    let warnings = done["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{done}");
    assert!(
        warnings[0].as_str().unwrap().starts_with("node01:")
            && warnings[0].as_str().unwrap().contains("SVC_rhel84"),
        "{done}"
    );
}

#[tokio::test]
async fn deploy_and_vmedia_work_under_the_group_org_and_refuse_a_missing_org_first() {
    let (s, u) = group("pod1", "ucsm").await;
    let hosts = json!([
        {"name": "node01", "ip": "192.0.2.21", "os": "rhel8.4", "role": "generic", "network_group": "mgmt", "server_group": "pod1", "server": "1/3"}
    ]);
    assert!(s.post("/api/v2/hosts", hosts).await.0.is_success());
    svc_files(&s, &["rhel8.4-boot.iso", "node01.img"]);
    let (_, groups) = s.get("/api/v2/servers").await;
    let mut g = groups["servers"][0].clone();
    g["org"] = json!("org-root/org-kubam");
    assert_eq!(s.put("/api/v2/servers", g).await.0, StatusCode::OK);

    // The org is not on the manager: a 404 naming it, nothing written, for both calls.
    let before = confmos(&u);
    for path in ["deploy", "vmedia"] {
        for query in ["", "?dry_run=true"] {
            let r = s
                .call(
                    Method::POST,
                    &format!("/api/v2/servers/pod1/{path}{query}"),
                    None,
                )
                .await;
            assert_error(&r, 404, "unknown_org");
            assert!(
                r.1["error"]
                    .as_str()
                    .unwrap()
                    .contains("org-root/org-kubam"),
                "{}",
                r.1
            );
        }
    }
    assert_eq!(confmos(&u), before);

    u.with_tree(|t| {
        t.put(
            "org-root/org-kubam",
            Obj::new("orgOrg", &[("name", "kubam")]),
        )
    });
    let (st, done) = deploy(&s, "").await;
    assert_eq!(st, StatusCode::OK, "{done}");
    for dn in [
        "org-root/org-kubam/mnt-cfg-policy-SVC_rhel84",
        "org-root/org-kubam/boot-policy-SVC_rhel84",
        "org-root/org-kubam/ls-SVC_rhel84",
        "org-root/org-kubam/ls-node01",
        "org-root/org-kubam/ls-node01/pn",
    ] {
        assert!(u.get(dn).is_some(), "{dn} missing");
    }
    assert!(u.get("org-root/ls-node01").is_none());
    // The default org setting applies to groups without one.
    let (_, groups) = s.get("/api/v2/servers").await;
    let mut g = groups["servers"][0].clone();
    g["org"] = json!("");
    assert_eq!(s.put("/api/v2/servers", g).await.0, StatusCode::OK);
    assert_eq!(
        s.post("/api/v1/org", json!({"org": "kubam"})).await.0,
        StatusCode::OK
    );
    let (st, again) = deploy(&s, "?dry_run=true").await;
    assert_eq!(st, StatusCode::OK, "{again}");
    assert!(
        every_object_is(&again, "unchanged"),
        "the default org is the same org: nothing to change: {again}"
    );
}

/// Each group says what its manager can do; what it cannot is one clear 422 naming the
/// manager and the action, before anything is written.
#[tokio::test]
async fn a_manager_lists_what_it_can_do_and_refuses_the_rest_by_name() {
    let (s, imc) = group("rack1", "imc").await;
    let hosts = json!([{"name": "c240-01", "ip": "192.0.2.31", "os": "centos7.4", "role": "generic", "network_group": "mgmt", "server_group": "rack1"}]);
    assert!(s.post("/api/v2/hosts", hosts).await.0.is_success());
    svc_files(&s, &["centos7.4-boot.iso", "c240-01.img"]);
    let ucsm = Sim::start(SimConfig::ucsm()).await.unwrap();
    let g = json!({"name": "pod1", "type": "ucsm", "credentials": {"ip": ucsm.address(), "user": "admin", "password": "password"}});
    assert_eq!(s.post("/api/v2/servers", g).await.0, StatusCode::CREATED);

    let (_, list) = s.get("/api/v2/servers").await;
    let caps = |name: &str| -> Vec<String> {
        let g = list["servers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["name"] == name)
            .unwrap();
        serde_json::from_value(g["capabilities"].clone()).unwrap()
    };
    assert!(caps("pod1").contains(&"follow_association".to_owned()));
    assert!(caps("pod1").contains(&"templates".to_owned()));
    let imc_caps = caps("rack1");
    assert!(imc_caps.contains(&"deploy".to_owned()) && imc_caps.contains(&"power".to_owned()));
    assert!(
        !imc_caps.contains(&"follow_association".to_owned()),
        "{imc_caps:?}"
    );
    assert_eq!(
        list["server-groups"][0]["capabilities"],
        list["servers"][0]["capabilities"]
    );

    // An IMC has no profiles to follow: asking is refused by name, and nothing is written.
    let (st, body) = s
        .call(
            Method::POST,
            "/api/v2/servers/rack1/deploy?until=associated",
            None,
        )
        .await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["code"], "not_supported");
    let said = body["error"].as_str().unwrap();
    assert!(
        said.contains("rack1") && said.contains("IMC") && said.contains("follow"),
        "{said}"
    );
    assert!(imc
        .get("sys/svc-ext/vmedia-svc/vmmap-bootsmith-cd")
        .is_none());

    // One request type: the other entry points refuse options that mean nothing to them.
    let (st, body) = s
        .call(
            Method::DELETE,
            "/api/v2/servers/rack1/deploy?restart=true",
            None,
        )
        .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{body}");
    let (st, body) = s
        .call(
            Method::POST,
            "/api/v2/servers/rack1/vmedia?until=associated&dry_run=true",
            None,
        )
        .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{body}");
}

/// A web server on `ip`:`port` that is not Bootsmith: `/svc/<name>` of `files` (name, body),
/// 404 for anything else. Dropping the handle stops it.
async fn other_web_server(
    ip: &str,
    port: &str,
    files: &[(&str, &str)],
) -> tokio::task::JoinHandle<()> {
    let mut app = axum::Router::new();
    for (name, body) in files {
        let body = (*body).to_owned();
        app = app.route(
            &format!("/svc/{name}"),
            axum::routing::get(move || async move { body }),
        );
    }
    let listener = tokio::net::TcpListener::bind(format!("{ip}:{port}"))
        .await
        .unwrap();
    tokio::spawn(async move {
        axum::serve(listener, app).await.unwrap();
    })
}

#[tokio::test]
async fn urls_that_do_not_answer_refuse_the_run_naming_host_url_and_why() {
    let (s, u) = group("pod1", "ucsm").await;
    let hosts = json!([{"name": "node01", "ip": "192.0.2.21", "os": "rhel8.4", "role": "generic",
        "network_group": "mgmt", "server_group": "pod1", "server": "1/2"}]);
    assert!(s.post("/api/v2/hosts", hosts).await.0.is_success());
    svc_files(&s, &["rhel8.4-boot.iso", "node01.img"]);
    let port = port_of(&s);
    let advice = "servers could not fetch their install media; check the boot-server address on the Settings screen and that Bootsmith listens on it";
    let iso = format!("http://{OTHER_IP}:{port}/svc/rhel8.4-boot.iso");
    let img = format!("http://{OTHER_IP}:{port}/svc/node01.img");

    // The boot-server address is another machine's web server: it has an ISO of that name,
    // of another size, and no answer disk.
    let other = other_web_server(OTHER_IP, &port, &[("rhel8.4-boot.iso", "abc")]).await;
    set_svc_ip(&s, OTHER_IP).await;
    with_a_key(&s).await;
    let (st, plan) = pod1(&s, "deploy", "?dry_run=true").await;
    assert_eq!(st, StatusCode::OK, "{plan}");
    assert_eq!(
        plan["warnings"],
        json!([
            format!(
                "node01: {iso} answers with 3 bytes where svc/rhel8.4-boot.iso has 1: {advice}"
            ),
            format!("node01: {img} answers HTTP 404 Not Found: {advice}"),
        ]),
        "{plan}"
    );
    let refused = pod1(&s, "deploy", "").await;
    assert_error(&refused, 409, "svc_unreachable");
    assert_eq!(
        refused.1["error"],
        format!("node01: {iso} answers with 3 bytes where svc/rhel8.4-boot.iso has 1; node01: {img} answers HTTP 404 Not Found: {advice}")
    );
    assert_eq!(
        refused.1["details"].as_array().unwrap().len(),
        2,
        "{}",
        refused.1
    );
    assert!(
        refused.1["hint"].as_str().unwrap().contains("/api/v1/ip"),
        "{}",
        refused.1
    );
    assert_error(&pod1(&s, "vmedia", "").await, 409, "svc_unreachable");
    assert_eq!(confmos(&u), 0, "nothing written");
    assert!(u.get("org-root/ls-node01").is_none());

    // Nothing listens there at all.
    other.abort();
    let _ = other.await;
    let refused = pod1(&s, "deploy", "").await;
    assert_error(&refused, 409, "svc_unreachable");
    assert_eq!(
        refused.1["error"],
        format!("node01: {iso} does not answer (connection refused); node01: {img} does not answer (connection refused): {advice}")
    );
    let jobs = s.get("/api/v2/jobs").await.1;
    assert_eq!(jobs["jobs"], json!([]), "no job started");

    // Back on the address Bootsmith listens on, the run goes through and the blade mounts both.
    set_svc_ip(&s, SVC_IP).await;
    let (st, done) = pod1(&s, "deploy", "?until=associated").await;
    assert_eq!(st, StatusCode::OK, "{done}");
    assert!(done.get("warnings").is_none(), "{done}");
    assert_eq!(done["hosts"][0]["media"]["state"], "mounted", "{done}");
}

#[tokio::test]
async fn a_server_that_cannot_mount_its_media_is_reported_with_host_and_url() {
    let (s, u) = group("pod1", "ucsm").await;
    // node02's template names its own vMedia policy, whose image server does not answer.
    let dead = closed_port();
    u.with_tree(|t| {
        t.put(
            "org-root/mnt-cfg-policy-dead",
            Obj::new("cimcvmediaMountConfigPolicy", &[("name", "dead")]),
        );
        t.put(
            "org-root/mnt-cfg-policy-dead/cfg-mnt-entry-iso",
            Obj::new(
                "cimcvmediaConfigMountEntry",
                &[
                    ("mappingName", "iso"),
                    ("deviceType", "cdd"),
                    ("mountProtocol", "http"),
                    ("remoteIpAddress", "127.0.0.1"),
                    ("remotePort", &dead.to_string()),
                    ("imagePath", "/images/"),
                    ("imageFileName", "other.iso"),
                    ("imageNameVariable", "none"),
                ],
            ),
        );
        t.put(
            "org-root/ls-tmpl-dead",
            Obj::new(
                "lsServer",
                &[
                    ("name", "tmpl-dead"),
                    ("type", "updating-template"),
                    ("vmediaPolicyName", "dead"),
                ],
            ),
        );
    });
    let hosts = json!([
        {"name": "node01", "ip": "192.0.2.21", "os": "rhel8.4", "role": "generic", "network_group": "mgmt", "server_group": "pod1", "server": "1/2"},
        {"name": "node02", "ip": "192.0.2.22", "os": "rhel8.4", "role": "generic", "network_group": "mgmt", "server_group": "pod1", "server": "1/3",
         "service_profile_template": "org-root/ls-tmpl-dead"}
    ]);
    assert!(s.post("/api/v2/hosts", hosts).await.0.is_success());
    svc_files(&s, &["rhel8.4-boot.iso", "node01.img", "node02.img"]);

    // Our URLs answer, so the run goes ahead; node02's blade then fails to mount.
    let (st, done) = pod1(&s, "deploy", "?until=associated").await;
    assert_eq!(st, StatusCode::OK, "{done}");
    let url = format!("http://127.0.0.1:{dead}/images/other.iso");
    let said = format!("node02: blade 1/3 could not mount {url} (connection refused), so it cannot boot its installer; check the boot-server address on the Settings screen and that Bootsmith listens on it");
    assert_eq!(done["hosts"][0]["media"]["state"], "mounted", "{done}");
    assert_eq!(
        done["hosts"][1]["media"],
        json!({"state": "failed", "urls": [url], "error": said}),
        "{done}"
    );
    // The job says it per host, as the window's deploy table and log show it.
    let job = latest_job(&s).await;
    assert_eq!(media_outcome(&job, "node02"), ("failed".into(), said));
    assert_eq!(media_outcome(&job, "node01").0, "done");
    // What UCS Manager shows on the blade.
    let entry = u
        .get("sys/chassis-1/blade-3/mgmt/actual-mount-list/actual-mount-entry-1")
        .unwrap();
    assert_eq!(
        (entry.get("operMountStatus"), entry.get("errorType")),
        ("mount-failed", "connection-rejected")
    );
}

#[tokio::test]
async fn an_imc_mapping_whose_image_is_gone_fails_and_the_run_says_so() {
    let s = Server::listening().await;
    let imc = Sim::start(SimConfig {
        effect_delay: std::time::Duration::from_secs(1),
        ..SimConfig::imc()
    })
    .await
    .unwrap();
    managed_group(&s, "rack1", "imc", &imc.address()).await;
    let hosts = json!([{"name": "c240-01", "ip": "192.0.2.31", "os": "centos7.4", "role": "generic", "network_group": "mgmt", "server_group": "rack1"}]);
    assert!(s.post("/api/v2/hosts", hosts).await.0.is_success());
    svc_files(&s, &["centos7.4-boot.iso", "c240-01.img"]);

    // The URLs answer when the run starts; the answer disk is gone when the IMC mounts it.
    let (st, accepted) = s
        .call(
            Method::POST,
            "/api/v2/servers/rack1/deploy?wait=false",
            None,
        )
        .await;
    assert_eq!(st, StatusCode::ACCEPTED, "{accepted}");
    std::fs::remove_file(s.svc().join("c240-01.img")).unwrap();
    let status = accepted["status"].as_str().unwrap();
    let mut job = Value::Null;
    for _ in 0..100 {
        job = s.get(status).await.1;
        if job["state"] != "running" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    // A host whose media failed to mount: the run does not end green.
    assert_eq!(job["state"], "finished_with_failures", "{job}");
    assert_eq!(job["result"]["outcomes"], json!({"failed": 1}), "{job}");
    assert_eq!(job["result"]["failed_hosts"], json!(["c240-01"]), "{job}");
    let url = format!("http://{SVC_IP}:{}/svc/c240-01.img", port_of(&s));
    let said = format!("c240-01: rack server 1 could not mount {url} (HTTP 404 Not Found), so it cannot boot its installer; check the boot-server address on the Settings screen and that Bootsmith listens on it");
    assert_eq!(
        job["result"]["hosts"][0]["media"]["state"], "failed",
        "{job}"
    );
    assert_eq!(job["result"]["hosts"][0]["media"]["error"], said, "{job}");
    assert_eq!(media_outcome(&job, "c240-01"), ("failed".into(), said));
    assert_eq!(
        imc.get("sys/svc-ext/vmedia-svc/vmmap-bootsmith-hdd")
            .unwrap()
            .get("mappingStatus"),
        "ERROR: HTTP 404 Not Found"
    );
    // The job ends at the first failure; the CD's own fetch may still be on its way.
    let cd = || {
        imc.get("sys/svc-ext/vmedia-svc/vmmap-bootsmith-cd")
            .unwrap()
            .get("mappingStatus")
            .to_owned()
    };
    for _ in 0..50 {
        if cd() != "In Progress" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(cd(), "OK");
}

#[tokio::test]
async fn the_plan_says_whose_each_object_is_and_what_it_means() {
    let (s, u) = group("pod1", "ucsm").await;
    svc_files(
        &s,
        &["rhel8.4-boot.iso", "node01.img", "node02.img", "node03.img"],
    );
    // Pooled; bound to a blade; its own template and a blade.
    let hosts = json!([
        {"name": "node01", "ip": "192.0.2.21", "os": "rhel8.4", "role": "generic", "network_group": "mgmt", "server_group": "pod1"},
        {"name": "node02", "ip": "192.0.2.22", "os": "rhel8.4", "role": "generic", "network_group": "mgmt", "server_group": "pod1", "server": "1/3"},
        {"name": "node03", "ip": "192.0.2.23", "os": "rhel8.4", "role": "generic", "network_group": "mgmt", "server_group": "pod1",
         "service_profile_template": "org-root/org-lab/ls-tmpl", "server": "2/1"}
    ]);
    assert!(s.post("/api/v2/hosts", hosts).await.0.is_success());
    let sel = json!({"servers": {"blades": ["1/2"]}});
    assert_eq!(
        s.post("/api/v2/servers/pod1/servers", sel).await.0,
        StatusCode::OK
    );
    u.with_tree(|t| {
        t.put("org-root/org-lab", Obj::new("orgOrg", &[("name", "lab")]));
        t.put(
            "org-root/org-lab/ls-tmpl",
            Obj::new(
                "lsServer",
                &[("name", "tmpl"), ("type", "updating-template")],
            ),
        );
    });

    let (st, plan) = deploy(&s, "?dry_run=true").await;
    assert_eq!(st, StatusCode::OK, "{plan}");
    let of = |dn: &str| -> (Option<&str>, &str) {
        let o = plan["objects"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["dn"] == dn)
            .unwrap_or_else(|| panic!("{dn} not in {plan}"));
        (o["host"].as_str(), o["what"].as_str().unwrap())
    };
    assert_eq!(
        of("org-root/boot-policy-SVC_rhel84"),
        (None, "boot policy SVC_rhel84")
    );
    assert_eq!(
        of("org-root/mnt-cfg-policy-SVC_rhel84"),
        (None, "virtual-media policy SVC_rhel84")
    );
    assert_eq!(
        of("org-root/compute-pool-SVC_rhel84/blade-1-2"),
        (None, "server pool SVC_rhel84: blade 1/2")
    );
    assert_eq!(
        of("org-root/ls-node01"),
        (Some("node01"), "profile node01 from template SVC_rhel84")
    );
    assert_eq!(
        of("org-root/ls-node02"),
        (
            Some("node02"),
            "profile node02 from template SVC_rhel84, bound to blade 1/3"
        )
    );
    assert_eq!(
        of("org-root/ls-node02/pn"),
        (Some("node02"), "profile node02 bound to blade 1/3")
    );
    assert_eq!(
        of("org-root/org-lab/ls-node03"),
        (
            Some("node03"),
            "profile node03 from template tmpl, bound to blade 2/1"
        )
    );
}

#[tokio::test]
async fn virtual_media_only_previews_what_it_would_write_and_writes_nothing() {
    let (s, u) = setup("rhel8.4").await;
    svc_files(&s, &["rhel8.4-boot.iso", "node01.img", "node02.img"]);
    profiles(&u);
    let before = confmos(&u);
    let (st, plan) = vmedia(&s, "?dry_run=true").await;
    assert_eq!(st, StatusCode::OK, "{plan}");
    assert_eq!(plan["dry_run"], true);
    assert_eq!(confmos(&u), before, "a preview writes nothing");
    assert!(u.get("org-root/mnt-cfg-policy-SVC_rhel84").is_none());
    let whats: Vec<&str> = plan["objects"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["action"] != "unchanged")
        .map(|o| o["what"].as_str().unwrap())
        .collect();
    assert!(
        whats.contains(&"virtual-media policy SVC_rhel84"),
        "{whats:?}"
    );
}

#[tokio::test]
async fn vmedia_leaves_a_profile_whose_updating_template_sets_another_vmedia_policy() {
    let (s, u) = setup("rhel8.4").await;
    svc_files(&s, &["rhel8.4-boot.iso", "node01.img", "node02.img"]);
    // node02's profile is bound to the operator's updating template, which names its own policy.
    u.with_tree(|t| {
        t.put("org-root/org-lab", Obj::new("orgOrg", &[("name", "lab")]));
        t.put(
            "org-root/org-lab/ls-tmpl",
            Obj::new(
                "lsServer",
                &[
                    ("name", "tmpl"),
                    ("type", "updating-template"),
                    ("vmediaPolicyName", "theirs"),
                ],
            ),
        );
        t.put(
            "org-root/org-lab/ls-node02",
            Obj::new(
                "lsServer",
                &[
                    ("name", "node02"),
                    ("type", "instance"),
                    ("srcTemplName", "tmpl"),
                    ("operSrcTemplName", "org-root/org-lab/ls-tmpl"),
                ],
            ),
        );
        t.put(
            "org-root/ls-node01",
            Obj::new("lsServer", &[("name", "node01"), ("type", "instance")]),
        );
    });
    // UCS would refuse the whole write: node02 is left out with a warning, node01 is pointed.
    let (st, done) = vmedia(&s, "").await;
    assert_eq!(st, StatusCode::OK, "{done}");
    assert_eq!(
        u.get("org-root/ls-node01").unwrap().get("vmediaPolicyName"),
        "SVC_rhel84"
    );
    assert_eq!(
        u.get("org-root/org-lab/ls-node02")
            .unwrap()
            .get("vmediaPolicyName"),
        ""
    );
    let warnings = done["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{done}");
    let w = warnings[0].as_str().unwrap();
    assert!(
        w.starts_with("node02:") && w.contains("theirs") && w.contains("tmpl"),
        "{done}"
    );
}
