//! Server groups of type `ucsc` (UCS Central, several UCS domains) end to end: REST → core →
//! client → the simulator's Central mode over real HTTP, which refuses objects outside
//! Cisco's UCS Central object model (ucscsdk).

mod common;

use std::time::Duration;

use bootsmith_sim::{Sim, SimConfig};
use common::*;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

/// A listening server with a `ucsc` group `central` on a Central of `domains` domains, the
/// boot-server address and a network group `mgmt`.
async fn central(domains: u32) -> (Server, Sim) {
    let s = Server::listening().await;
    let u = Sim::start(SimConfig {
        effect_delay: Duration::from_millis(150),
        ..SimConfig::ucsc(domains)
    })
    .await
    .unwrap();
    managed_group(&s, "central", "ucsc", &u.address()).await;
    (s, u)
}

fn servers(s: &Value) -> Vec<Value> {
    s.as_array().cloned().unwrap_or_default()
}

/// A selection of the blades `ids`.
fn blades(ids: &[&str]) -> Value {
    json!({"servers": {"blades": ids}})
}

async fn act(s: &Server, method: Method, path: &str, body: Value) -> (StatusCode, Value) {
    s.call(
        method,
        &format!("/api/v2/servers/central/{path}"),
        Some(body),
    )
    .await
}

#[tokio::test]
async fn inventory_spans_every_domain_with_domain_ids_and_templates_keep_their_org() {
    let (s, u) = central(3).await;
    let before = u.requests();
    let (st, list) = s.get("/api/v2/servers/central/servers").await;
    assert_eq!(st, StatusCode::OK, "{list}");
    assert!(
        u.requests() - before <= 3,
        "one or two requests (and a login): {}",
        u.requests() - before
    );
    let list = servers(&list["servers"]);
    assert_eq!(
        list.len(),
        3 * (2 * 4 + 1),
        "every blade and rack unit of 3 domains"
    );
    let ids: Vec<&str> = list.iter().map(|s| s["id"].as_str().unwrap()).collect();
    for id in ["1001/1/1", "1002/2/4", "1003/1/1", "1001/1", "1003/1"] {
        assert!(ids.contains(&id), "{id} in {ids:?}");
    }
    let blade = list.iter().find(|s| s["id"] == "1002/2/3").unwrap();
    assert_eq!(blade["type"], "blade");
    assert_eq!(blade["dn"], "compute/sys-1002/chassis-2/blade-3");
    assert_eq!(
        (&blade["domain_id"], &blade["chassis_id"], &blade["slot"]),
        (&json!("1002"), &json!("2"), &json!("3"))
    );
    assert_eq!(blade["domain_name"], "ucs-1002");
    assert_eq!(blade["domain_reachable"], true);
    for field in [
        "model",
        "serial",
        "num_cpus",
        "num_cores",
        "ram",
        "oper_power",
    ] {
        assert!(
            !blade[field].as_str().unwrap_or("").is_empty(),
            "{field}: {blade}"
        );
    }
    let rack = list.iter().find(|s| s["id"] == "1003/1").unwrap();
    assert_eq!(
        (&rack["type"], &rack["rack_id"]),
        (&json!("rack"), &json!("1"))
    );
    let taken = list.iter().find(|s| s["id"] == "1001/1/1").unwrap();
    assert_eq!(taken["association"], "associated");
    assert_eq!(taken["service_profile"], "org-root/ls-existing-sp");

    let (st, t) = s.get("/api/v2/servers/central/templates").await;
    assert_eq!(st, StatusCode::OK, "{t}");
    let names: Vec<&str> = field_of_each(&t["templates"], "name");
    assert!(
        names.contains(&"org-root/ls-c7-template")
            && names.contains(&"org-root/org-Dept1/ls-dept-template"),
        "{names:?}"
    );
    let (_, g) = s.get("/api/v2/servers/central").await;
    assert!(
        g["capabilities"]
            .as_array()
            .unwrap()
            .contains(&json!("deploy")),
        "{g}"
    );
}

#[tokio::test]
async fn selection_power_disks_and_fsm_take_three_part_ids_and_refuse_the_other_forms() {
    let (s, u) = central(2).await;
    // The group's selection: blades of two domains and a rack unit.
    let sel = json!({"servers": {"blades": ["1001/1/2", "1002/1/3"], "rack_servers": ["1002/1"]}});
    let (st, body) = act(&s, Method::POST, "servers", sel).await;
    assert_eq!(st, StatusCode::OK, "{body}");
    let (_, list) = s.get("/api/v2/servers/central/servers").await;
    let list = servers(&list["servers"]);
    let mut picked: Vec<&str> = list
        .iter()
        .filter(|s| s["selected"] == true)
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    picked.sort_unstable();
    assert_eq!(picked, ["1001/1/2", "1002/1", "1002/1/3"]);

    // Ids of a single domain's form (also when saving the selection), and an unknown domain.
    let r = act(&s, Method::POST, "servers", blades(&["1/2"])).await;
    assert_error(&r, 400, "invalid_selection");
    let r = act(&s, Method::GET, "powerstat", blades(&["1/2"])).await;
    assert_error(&r, 400, "invalid_selection");
    let text = r.1["error"].as_str().unwrap();
    assert!(
        text.contains("'1/2'") && text.contains("<domain>/<chassis>/<slot>"),
        "{text}"
    );
    let r = act(
        &s,
        Method::GET,
        "powerstat",
        json!({"servers": {"rack_servers": ["1"]}}),
    )
    .await;
    assert_error(&r, 400, "invalid_selection");
    assert!(
        r.1["error"].as_str().unwrap().contains("<domain>/<number>"),
        "{}",
        r.1
    );
    let r = act(&s, Method::GET, "powerstat", blades(&["1999/1/1"])).await;
    assert_error(&r, 404, "domain_not_found");
    assert!(r.1["error"].as_str().unwrap().contains("1999"), "{}", r.1);
    let r = act(&s, Method::GET, "powerstat", blades(&["1001/9/9"])).await;
    assert_error(&r, 404, "server_not_found");

    // Power: the seed's shapes, with the three-part ids; the blade really comes on.
    let one = blades(&["1002/1/3"]);
    let (st, p) = act(&s, Method::GET, "powerstat", one.clone()).await;
    assert_eq!(st, StatusCode::OK, "{p}");
    assert_eq!(p["status"]["blades"], json!(["1002/1/3: off"]));
    let (st, p) = act(&s, Method::PUT, "power/on", one.clone()).await;
    assert!(st.is_success(), "{p}");
    sim_until(&u, "power on", |u| {
        u.get("compute/sys-1002/chassis-1/blade-3")
            .is_some_and(|b| b.get("operPower") == "on")
    })
    .await;
    let (_, p) = act(&s, Method::GET, "powerstat", one.clone()).await;
    assert_eq!(p["status"]["blades"], json!(["1002/1/3: on"]));

    // Disks: listed under the three-part id, and really reset.
    let (st, d) = act(&s, Method::GET, "disks", one.clone()).await;
    assert_eq!(st, StatusCode::OK, "{d}");
    let disks = d["blades"]["1002/1/3"].as_array().unwrap();
    assert!(disks.iter().any(|d| d["state"] == "jbod"), "{d}");
    let (st, d) = act(&s, Method::DELETE, "disks", one.clone()).await;
    assert_eq!(st, StatusCode::OK, "{d}");
    assert!(
        d["blades"]["1002/1/3"]
            .as_array()
            .unwrap()
            .iter()
            .all(|d| d["state"] == "unconfigured-good"),
        "{d}"
    );

    // FSM stages, read from the blade's domain through Central.
    let (st, f) = act(&s, Method::GET, "fsm", one).await;
    assert_eq!(st, StatusCode::OK, "{f}");
    let stages = f["servers"]["blades"]["1002/1/3"]["stages"]
        .as_array()
        .unwrap();
    assert!(!stages.is_empty(), "{f}");
    assert!(f["stages"]
        .as_array()
        .unwrap()
        .iter()
        .all(|s| s["server"] == "1002/1/3"));
}

/// A `409 domain_unreachable` whose sentence has each of `words` in it and does not name
/// `spared` (a server of a reachable domain).
fn refused_for_lost_domain(r: &(StatusCode, Value), words: &[&str], spared: &str) {
    assert_error(r, 409, "domain_unreachable");
    let text = r.1["error"].as_str().unwrap_or_default();
    for w in words {
        assert!(text.contains(w), "{w:?} in {text}");
    }
    assert!(!text.contains(spared), "{spared} not in {text}");
}

#[tokio::test]
async fn a_lost_domain_s_records_are_marked_with_when_they_were_last_read() {
    let (s, u) = central(2).await;
    u.set_domain_reachable(1002, false);
    let read = u
        .get("extpol/reg/clients/client-1002")
        .unwrap()
        .get("lastPollTs")
        .to_owned();
    assert!(!read.is_empty());
    let (st, list) = s.get("/api/v2/servers/central/servers").await;
    assert_eq!(st, StatusCode::OK, "{list}");
    let list = servers(&list["servers"]);
    let (lost, kept): (Vec<&Value>, Vec<&Value>) =
        list.iter().partition(|s| s["domain_id"] == "1002");
    assert_eq!((lost.len(), kept.len()), (9, 9));
    for r in &lost {
        assert_eq!(r["domain_reachable"], false, "{r}");
        assert_eq!(r["domain_state"], "lost-visibility", "{r}");
        assert_eq!(r["domain_last_read"], read.as_str(), "{r}");
        let note = r["stale_note"].as_str().unwrap_or_default();
        assert!(note.contains("1002") && note.contains(&read), "{r}");
        // Every field the record had stays.
        for f in ["id", "dn", "model", "serial", "oper_power", "association"] {
            assert!(r.get(f).is_some(), "{f}: {r}");
        }
    }
    for r in &kept {
        assert_eq!(r["domain_reachable"], true, "{r}");
        assert_eq!(r["domain_state"], "registered", "{r}");
        assert!(r.get("stale_note").is_none(), "{r}");
    }
}

#[tokio::test]
async fn a_selection_names_the_servers_that_could_not_be_checked() {
    let (s, u) = central(2).await;
    u.set_domain_reachable(1002, false);
    let r = act(
        &s,
        Method::POST,
        "servers",
        blades(&["1001/1/2", "1002/1/3"]),
    )
    .await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    let warnings = r.1["warnings"].to_string();
    assert!(
        warnings.contains("blade 1002/1/3 (domain 1002, last read at")
            && warnings.contains("could not be checked")
            && !warnings.contains("1001/1/2"),
        "{}",
        r.1
    );

    // A group stored offline: every server it keeps is named as not checked.
    let offline = json!({"name": "away", "type": "ucsc", "check_login": false,
        "credentials": {"ip": format!("127.0.0.1:{}", closed_port()), "user": "admin", "password": "password"}});
    assert_eq!(
        s.post("/api/v2/servers", offline).await.0,
        StatusCode::CREATED
    );
    let r = s
        .post(
            "/api/v2/servers/away/servers",
            json!({"servers": {"blades": ["1001/1/2"], "rack_servers": ["1002/1"]}}),
        )
        .await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    let w = r.1["warnings"][0].as_str().unwrap_or_default();
    assert!(
        w.starts_with(
            "blade 1001/1/2, rack server 1002/1 were not checked against the manager of 'away'"
        ),
        "{}",
        r.1
    );
}

#[tokio::test]
async fn power_and_disks_on_a_lost_domain_are_refused_before_anything_is_sent() {
    let (s, u) = central(2).await;
    u.set_domain_reachable(1002, false);
    let both = blades(&["1001/1/2", "1002/1/2"]);
    let (_, p) = act(&s, Method::GET, "powerstat", both.clone()).await;
    assert_eq!(
        p["status"]["blades"],
        json!(["1001/1/2: off", "1002/1/2: unreachable"])
    );
    let sent = confmos(&u);
    // A selection across both domains: refused whole, naming the lost server and domain,
    // since when, and what to do; the reachable blade is not powered either.
    let r = act(&s, Method::PUT, "power/on", both.clone()).await;
    refused_for_lost_domain(
        &r,
        &[
            "blade 1002/1/2",
            "domain 1002",
            "lost-visibility",
            "last read at",
            "nothing was sent",
            "Leave those servers out",
        ],
        "1001/1/2",
    );
    let r = act(&s, Method::DELETE, "disks", both.clone()).await;
    refused_for_lost_domain(&r, &["disks", "blade 1002/1/2"], "1001/1/2");
    assert_eq!(confmos(&u), sent, "nothing written to Central");
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(
        u.get("compute/sys-1001/chassis-1/blade-2")
            .unwrap()
            .get("operPower"),
        "off"
    );
    let (_, d) = act(&s, Method::GET, "disks", both.clone()).await;
    assert!(
        d["blades"]["1001/1/2"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["state"] == "jbod"),
        "{d}"
    );
    assert_eq!(d["unreachable"], json!(["1002/1/2"]));

    // The reachable domain alone still works.
    let (st, p) = act(&s, Method::PUT, "power/on", blades(&["1001/1/2"])).await;
    assert!(st.is_success(), "{p}");
    sim_until(&u, "power on in the reachable domain", |u| {
        u.get("compute/sys-1001/chassis-1/blade-2")
            .is_some_and(|b| b.get("operPower") == "on")
    })
    .await;
    let (st, f) = act(&s, Method::GET, "fsm", both).await;
    assert_eq!(st, StatusCode::OK, "{f}");
    assert_eq!(f["unreachable"], json!(["1002/1/2"]));
    assert!(!f["servers"]["blades"]["1001/1/2"]["stages"]
        .as_array()
        .unwrap()
        .is_empty());

    // Read again, the domain's servers act again.
    u.set_domain_reachable(1002, true);
    let (st, p) = act(&s, Method::PUT, "power/on", blades(&["1002/1/2"])).await;
    assert!(st.is_success(), "{p}");
}

/// A Central of two domains whose group `central` has the blades `pool` selected and two
/// hosts: node01 from the pool, node02 bound to blade 1002/1/3; their media in svc.
async fn central_with_hosts(pool: &[&str]) -> (Server, Sim) {
    let (s, u) = central(2).await;
    svc_files(&s, &["rhel8.4-boot.iso", "node01.img", "node02.img"]);
    let hosts = json!([
        {"name": "node01", "ip": "192.0.2.21", "os": "rhel8.4", "role": "generic", "network_group": "mgmt", "server_group": "central"},
        {"name": "node02", "ip": "192.0.2.22", "os": "rhel8.4", "role": "generic", "network_group": "mgmt", "server_group": "central", "server": "1002/1/3"}
    ]);
    let r = s.post("/api/v2/hosts", hosts).await;
    assert!(r.0.is_success(), "{}", r.1);
    assert_eq!(
        act(&s, Method::POST, "servers", blades(pool)).await.0,
        StatusCode::OK
    );
    (s, u)
}

#[tokio::test]
async fn a_deploy_that_reaches_a_lost_domain_is_refused_before_anything_is_written() {
    let (s, u) = central_with_hosts(&["1001/1/2", "1002/2/1"]).await;
    u.set_domain_reachable(1002, false);
    let before = confmos(&u);
    for query in ["?dry_run=true", ""] {
        let r = deploy(&s, "deploy", query).await;
        refused_for_lost_domain(
            &r,
            &[
                "blade 1002/1/3 (host node02)",
                "blade 1002/2/1 (selected for the pool)",
                "domain 1002",
                "last read at",
                "nothing was sent",
            ],
            "1001/1/2",
        );
    }
    // A media run would point node02's profile at new media: refused alike (no pool in it).
    let r = deploy(&s, "vmedia", "").await;
    refused_for_lost_domain(
        &r,
        &["set up install media", "blade 1002/1/3 (host node02)"],
        "selected for the pool",
    );
    assert_eq!(confmos(&u), before, "nothing written to Central");
    assert!(u.get("org-root/ls-node01").is_none());

    // Once the domain is read again, the same deploy goes through.
    u.set_domain_reachable(1002, true);
    let (st, done) = deploy(&s, "deploy", "").await;
    assert_eq!(st, StatusCode::OK, "{done}");
    assert!(u.get("org-root/ls-node02").is_some());
}

#[tokio::test]
async fn an_undeploy_that_reaches_a_lost_domain_is_refused_before_anything_is_sent() {
    let (s, u) = central_with_hosts(&["1001/1/2"]).await;
    let (st, done) = deploy(&s, "deploy", "?until=associated").await;
    assert_eq!(st, StatusCode::OK, "{done}");

    // node02's profile runs on a blade of the domain Central has lost: removing it would
    // take the profile off that blade whenever the domain comes back.
    u.set_domain_reachable(1002, false);
    let before = confmos(&u);
    for query in ["?dry_run=true", ""] {
        let r = s
            .call(
                Method::DELETE,
                &format!("/api/v2/servers/central/deploy{query}"),
                None,
            )
            .await;
        refused_for_lost_domain(
            &r,
            &[
                "remove what its deploys created",
                "blade 1002/1/3 (service profile org-root/ls-node02)",
                "domain 1002",
                "lost-visibility",
                "last read at",
                "nothing was sent",
            ],
            "1001/1/2",
        );
    }
    assert_eq!(confmos(&u), before, "nothing written to Central");
    for dn in ["org-root/ls-node01", "org-root/ls-node02"] {
        assert!(u.get(dn).is_some(), "{dn} kept");
    }

    // Once the domain is read again, the same undeploy goes through.
    u.set_domain_reachable(1002, true);
    let (st, gone) = s
        .call(Method::DELETE, "/api/v2/servers/central/deploy", None)
        .await;
    assert_eq!(st, StatusCode::OK, "{gone}");
    assert!(u.get("org-root/ls-node02").is_none());
}

#[tokio::test]
async fn a_ucsm_group_refuses_central_ids() {
    let s = Server::start().await;
    let u = Sim::start(SimConfig::ucsm()).await.unwrap();
    let group = json!({"name": "pod1", "type": "ucsm",
        "credentials": {"ip": u.address(), "user": "admin", "password": "password"}});
    assert_eq!(
        s.post("/api/v2/servers", group).await.0,
        StatusCode::CREATED
    );
    let r = s
        .call(
            Method::GET,
            "/api/v2/servers/pod1/powerstat",
            Some(blades(&["1009/1/3"])),
        )
        .await;
    assert_error(&r, 400, "invalid_selection");
    assert!(
        r.1["error"].as_str().unwrap().contains("<chassis>/<slot>"),
        "{}",
        r.1
    );
}

async fn deploy(s: &Server, what: &str, query: &str) -> (StatusCode, Value) {
    s.call(
        Method::POST,
        &format!("/api/v2/servers/central/{what}{query}"),
        None,
    )
    .await
}

#[tokio::test]
async fn deploy_spans_domains_once_follows_association_and_undeploys() {
    let (s, u) = central(2).await;
    svc_files(
        &s,
        &["rhel8.4-boot.iso", "node01.img", "node02.img", "node03.img"],
    );
    // A host's server in a single domain's form is refused on saving, naming the form to use.
    let bad = json!([{"name": "node09", "ip": "192.0.2.29", "os": "rhel8.4", "role": "generic",
        "network_group": "mgmt", "server_group": "central", "server": "7"}]);
    let r = s.post("/api/v2/hosts", bad).await;
    assert_eq!(r.0, StatusCode::BAD_REQUEST, "{}", r.1);
    assert!(r.1.to_string().contains("<domain>/<number>"), "{}", r.1);
    // Pooled; bound to a blade of the second domain; its own global template, in a sub-org.
    let hosts = json!([
        {"name": "node01", "ip": "192.0.2.21", "os": "rhel8.4", "role": "generic", "network_group": "mgmt", "server_group": "central"},
        {"name": "node02", "ip": "192.0.2.22", "os": "rhel8.4", "role": "generic", "network_group": "mgmt", "server_group": "central", "server": "1002/1/3"},
        {"name": "node03", "ip": "192.0.2.23", "os": "rhel8.4", "role": "generic", "network_group": "mgmt", "server_group": "central",
         "service_profile_template": "org-root/org-Dept1/ls-dept-template", "server": "1002/1"}
    ]);
    let r = s.post("/api/v2/hosts", hosts).await;
    assert!(r.0.is_success(), "{}", r.1);
    let sel = blades(&["1001/1/2"]);
    assert_eq!(
        act(&s, Method::POST, "servers", sel).await.0,
        StatusCode::OK
    );

    // The plan: global policies, a global pool naming its domain, bindings to Central's DNs.
    let before = confmos(&u);
    let (st, plan) = deploy(&s, "deploy", "?dry_run=true").await;
    assert_eq!(st, StatusCode::OK, "{plan}");
    assert_eq!(confmos(&u), before);
    let dns = object_dns(&plan);
    for dn in [
        "org-root/mnt-cfg-policy-SVC_rhel84",
        "org-root/boot-policy-SVC_rhel84",
        "org-root/compute-pool-SVC_rhel84/system-1001-blade-1-2",
        "org-root/ls-SVC_rhel84/pn-req",
        "org-root/ls-node01",
        "org-root/ls-node02/pn",
        "org-root/org-Dept1/ls-node03/pn",
    ] {
        assert!(dns.contains(&dn), "{dn} in {dns:?}");
    }

    // Apply, following each host to association: one transaction, valid in Central's model.
    let (st, done) = deploy(&s, "deploy", "?until=associated").await;
    assert_eq!(st, StatusCode::OK, "{done}");
    assert_eq!(confmos(&u), before + 1);
    assert_eq!(
        u.get("org-root/ls-node02/pn").unwrap().get("pnDn"),
        "compute/sys-1002/chassis-1/blade-3"
    );
    let result: Vec<[&str; 3]> = done["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| ["host", "association", "server"].map(|k| h[k].as_str().unwrap()))
        .collect();
    assert_eq!(
        result,
        [
            ["node01", "associated", "compute/sys-1001/chassis-1/blade-2"],
            ["node02", "associated", "compute/sys-1002/chassis-1/blade-3"],
            ["node03", "associated", "compute/sys-1002/rack-unit-1"],
        ],
        "{done}"
    );
    // Each server's controller, in its own domain, mounted the media from our listener.
    let port = port_of(&s);
    for (i, host) in ["node01", "node02", "node03"].into_iter().enumerate() {
        assert_eq!(
            done["hosts"][i]["media"],
            json!({"state": "mounted", "urls": [
                format!("http://{SVC_IP}:{port}/svc/rhel8.4-boot.iso"),
                format!("http://{SVC_IP}:{port}/svc/{host}.img"),
            ]}),
            "{done}"
        );
    }
    assert_eq!(
        u.get_remote(
            1002,
            "sys/chassis-1/blade-3/mgmt/actual-mount-list/actual-mount-entry-1"
        )
        .unwrap()
        .get("operMountStatus"),
        "mounted"
    );

    // Again: nothing to write.
    let (st, again) = deploy(&s, "deploy", "").await;
    assert_eq!(st, StatusCode::OK, "{again}");
    assert!(every_object_is(&again, "unchanged"), "{again}");
    assert_eq!(confmos(&u), before + 1, "no duplicate writes");

    // Undeploy removes what the deploy made, and only that.
    let (st, gone) = s
        .call(Method::DELETE, "/api/v2/servers/central/deploy", None)
        .await;
    assert_eq!(st, StatusCode::OK, "{gone}");
    assert!(u.get("org-root/ls-node01").is_none());
    assert!(u.get("org-root/compute-pool-SVC_rhel84").is_none());
    assert!(u.get("org-root/ls-existing-sp").is_some());
    sim_until(&u, "blade freed", |u| {
        u.get("compute/sys-1002/chassis-1/blade-3")
            .is_some_and(|b| b.get("association") == "none")
    })
    .await;
}

#[tokio::test]
async fn a_central_with_a_self_signed_certificate_is_pinned_or_skipped_as_for_ucs_manager() {
    let s = Server::start().await;
    let u = Sim::start_tls(SimConfig::ucsc(1)).await.unwrap();
    let group = |name: &str| {
        json!({"name": name, "type": "ucsc",
            "credentials": {"ip": u.address(), "user": "admin", "password": "password"}})
    };
    let r = s.post("/api/v2/servers", group("central")).await;
    assert_error(&r, 422, "untrusted_certificate");
    let fp = r.1["fingerprint"].as_str().unwrap().to_owned();
    assert_eq!(fp, u.fingerprint().unwrap());
    let mut pinned = group("central");
    pinned["fingerprint"] = json!(fp);
    let r = s.post("/api/v2/servers", pinned).await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    let (st, list) = s.get("/api/v2/servers/central/servers").await;
    assert_eq!(st, StatusCode::OK, "{list}");
    assert_eq!(servers(&list["servers"]).len(), 9);
    let mut skipped = group("central2");
    skipped["insecure"] = json!(true);
    assert_eq!(
        s.post("/api/v2/servers", skipped).await.0,
        StatusCode::CREATED
    );
}

/// UCS Central hands consoles over to each domain's manager: the console call says so.
#[tokio::test]
async fn a_central_server_has_no_console_page_of_its_own() {
    let (s, _u) = central(1).await;
    let r = s
        .get("/api/v2/servers/central/console?server=1001/1/1")
        .await;
    assert_error(&r, 422, "not_supported");
    assert!(
        r.1["error"].as_str().unwrap().contains("UCS Manager"),
        "{}",
        r.1
    );
}

/// The window, in headless Chromium (`ui/e2e/ucsc.mjs`, which serves the page built from
/// `ui/` and passes `/api/` through to this listener): a lost domain's servers are greyed with
/// the reason on hover, in the group's inventory and on the Power screen, and cannot be chosen
/// there nor as a host's server, the reason (domain, since when) on the tick or the choice.
/// (tests/browser.rs needs the WebKit build; this needs only the page.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_window_greys_a_lost_domain_s_servers_and_says_why() {
    let (s, u) = central(2).await;
    let host = json!([{"name": "node01", "ip": "192.0.2.21", "os": "rhel8.4", "role": "generic",
        "network_group": "mgmt", "server_group": "central"}]);
    let r = s.post("/api/v2/hosts", host).await;
    assert!(r.0.is_success(), "{}", r.1);
    u.set_domain_reachable(1002, false);
    let ui = concat!(env!("CARGO_MANIFEST_DIR"), "/../../ui");
    let run = move |args: &[&str], env: &[(&str, &str)]| {
        let mut c = std::process::Command::new(args[0]);
        c.args(&args[1..]).current_dir(ui);
        for (k, v) in env {
            c.env(k, v);
        }
        let out = c
            .output()
            .expect("npm and node run (scripts/setup.sh installs them)");
        eprintln!("{}", String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success(), "{args:?} failed");
        out.stdout
    };
    run(&["npm", "run", "build"], &[]);
    let base = s.base().to_owned();
    let token = s.token.clone();
    let out = tokio::task::spawn_blocking(move || {
        run(
            &["node", "e2e/ucsc.mjs"],
            &[("BOOTSMITH_URL", &base), ("BOOTSMITH_TOKEN", &token)],
        )
    })
    .await
    .unwrap();
    let seen: Value = serde_json::from_slice(&out).unwrap();
    for table in ["inventory", "power"] {
        let rows = seen[table].as_array().unwrap();
        assert_eq!(rows.len(), 18, "{table}: {rows:?}");
        let plain = &rows.iter().find(|r| r["stale"] == false).unwrap()["background"];
        for r in rows {
            let lost = r["text"].as_str().unwrap().contains("1002/");
            assert_eq!(r["stale"], lost, "{table}: {r}");
            let title = r["title"].as_str().unwrap();
            assert_eq!(r["pickable"], !lost, "{table}: {r}");
            let why = r["why"].as_str().unwrap();
            if lost {
                assert!(
                    title.contains("cannot reach domain 1002") && title.contains("last read at"),
                    "{table}: {r}"
                );
                assert_ne!(&r["background"], plain, "greyed: {r}");
                assert!(
                    why.starts_with("Domain 1002 (ucs-1002) unreachable since 20"),
                    "{table}: {r}"
                );
            } else {
                assert_eq!(title, "", "{table}: {r}");
                assert_eq!(why, "", "{table}: {r}");
            }
        }
    }
    // The boxes over the ticks choose the reachable domain's nine servers only.
    for (all, prefix) in [("inventoryAll", "pick-"), ("powerAll", "power-pick-")] {
        let ticked: Vec<String> = seen[all]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_owned())
            .collect();
        assert_eq!(ticked.len(), 9, "{all}: {ticked:?}");
        assert!(
            ticked
                .iter()
                .all(|id| id.starts_with(&format!("{prefix}1001-"))),
            "{all}: {ticked:?}"
        );
    }
    let offered = seen["hostServers"].as_array().unwrap();
    assert_eq!(offered.len(), 18, "{offered:?}");
    for o in offered {
        let lost = o["value"].as_str().unwrap().starts_with("1002/");
        assert_eq!(o["disabled"], lost, "{o}");
        if lost {
            assert!(
                o["title"]
                    .as_str()
                    .unwrap()
                    .starts_with("Domain 1002 (ucs-1002) unreachable since"),
                "{o}"
            );
            assert!(
                o["label"]
                    .as_str()
                    .unwrap()
                    .contains("(domain unreachable)"),
                "{o}"
            );
        }
    }
}
