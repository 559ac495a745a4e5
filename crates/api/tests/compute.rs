//! Server groups talking to their manager: REST → core → client → simulator, over real HTTP.

mod common;

use std::time::Duration;

use bootsmith_sim::{Faults, Sim, SimConfig};
use common::*;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

async fn sim(cfg: SimConfig) -> Sim {
    Sim::start(SimConfig {
        effect_delay: Duration::from_millis(150),
        ..cfg
    })
    .await
    .unwrap()
}

fn sim_group(name: &str, kind: &str, sim: &Sim, password: &str) -> Value {
    json!({"name": name, "type": kind, "credentials": {"ip": sim.address(), "user": "admin", "password": password}})
}

async fn setup() -> (Server, Sim) {
    let s = Server::start().await;
    let u = sim(SimConfig::ucsm()).await;
    let r = s
        .post("/api/v2/servers", sim_group("pod1", "ucsm", &u, "password"))
        .await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    (s, u)
}

#[tokio::test]
async fn creating_a_group_checks_the_login() {
    let s = Server::start().await;
    let u = sim(SimConfig::ucsm()).await;
    let r = s
        .post("/api/v2/servers", sim_group("pod1", "ucsm", &u, "wrong"))
        .await;
    assert_error(&r, 401, "ucs_login_failed");
    assert_eq!(r.1["ucs_code"], "551");
    assert!(
        !r.1.to_string().contains("wrong"),
        "the password is not echoed"
    );
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut nowhere = sim_group("pod1", "ucsm", &u, "password");
    nowhere["credentials"]["ip"] = json!(format!("http://127.0.0.1:{port}"));
    assert_error(
        &s.post("/api/v2/servers", nowhere.clone()).await,
        502,
        "ucs_unreachable",
    );
    assert_eq!(
        s.get("/api/v2/servers").await.1["servers"],
        json!([]),
        "nothing stored after a failed check"
    );
    nowhere["check_login"] = json!(false);
    assert_eq!(
        s.post("/api/v2/servers", nowhere).await.0,
        StatusCode::CREATED,
        "stored offline on request"
    );

    let r = s
        .post("/api/v2/servers", sim_group("pod2", "ucsm", &u, "password"))
        .await;
    assert_eq!(r.0, StatusCode::CREATED);
    // An update that changes the password to a wrong one is refused and keeps the old one.
    let mut upd = sim_group("pod2", "ucsm", &u, "bad");
    upd["id"] = r.1["id"].clone();
    assert_error(
        &s.put("/api/v2/servers", upd).await,
        401,
        "ucs_login_failed",
    );
    assert_eq!(
        s.get("/api/v2/servers/pod2/templates").await.0,
        StatusCode::OK
    );
}

#[tokio::test]
async fn inventory_lists_every_server_with_the_selection() {
    let (s, _u) = setup().await;
    s.post(
        "/api/v2/servers/pod1/servers",
        json!({"servers": {"blades": ["1/2"], "rack": ["1"]}}),
    )
    .await;
    let (status, body) = s.get("/api/v2/servers/pod1/servers").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let servers = body["servers"].as_array().unwrap();
    assert_eq!(servers.len(), 10);
    let b = servers
        .iter()
        .find(|x| x["dn"] == "sys/chassis-1/blade-1")
        .unwrap();
    for field in [
        "association",
        "chassis_id",
        "dn",
        "label",
        "model",
        "num_cores",
        "num_cpus",
        "oper_power",
        "ram",
        "ram_speed",
        "service_profile",
        "slot",
        "type",
    ] {
        assert!(b[field].is_string(), "{field} missing in {b}");
    }
    assert_eq!(
        (
            b["chassis_id"].as_str(),
            b["slot"].as_str(),
            b["type"].as_str()
        ),
        (Some("1"), Some("1"), Some("blade"))
    );
    assert_eq!(b["service_profile"], "org-root/ls-existing-sp");
    assert_eq!(b["association"], "associated");
    let selected: Vec<&str> = servers
        .iter()
        .filter(|x| x["selected"] == true)
        .map(|x| x["id"].as_str().unwrap())
        .collect();
    assert_eq!(selected, ["1/2", "1"]);
    let (_, t) = s.get("/api/v2/servers/pod1/templates").await;
    assert_eq!(
        t["templates"][0],
        json!({"name": "org-root/ls-c7-template", "dn": "org-root/ls-c7-template",
               "short_name": "c7-template", "type": "updating-template"})
    );
}

#[tokio::test]
async fn power_actions_pick_the_right_object_and_report_state() {
    let (s, u) = setup().await;
    let sel = json!({"servers": {"blades": ["1/1", "2/3"], "rack_servers": ["2"]}});
    // Blade 1/1 runs a profile Bootsmith did not create: not powered off without `force`,
    // and the refusal names it, its profile and its power state; nothing is powered off.
    let r = s.put("/api/v2/servers/pod1/power/off", sel.clone()).await;
    assert_in_use(&r, FOREIGN_BLADE);
    assert!(!r.1["error"].as_str().unwrap().contains("2/3"), "{}", r.1);
    assert_eq!(
        u.get("org-root/ls-existing-sp/power").unwrap().get("state"),
        "up"
    );
    assert_eq!(
        u.get("sys/chassis-2/blade-3").unwrap().get("adminPower"),
        "policy"
    );
    let mut forced = sel.clone();
    forced["force"] = json!(true);
    let r = s.put("/api/v2/servers/pod1/power/off", forced).await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    assert_eq!(r.1["status"]["blades"].as_array().unwrap().len(), 2);
    assert!(r.1["status"]["blades"][0]
        .as_str()
        .unwrap()
        .starts_with("1/1: "));
    assert!(r.1["status"]["rack_servers"][0]
        .as_str()
        .unwrap()
        .starts_with("2: "));
    assert_eq!(
        u.get("org-root/ls-existing-sp/power").unwrap().get("state"),
        "down",
        "through the profile"
    );
    assert_eq!(
        u.get("sys/chassis-2/blade-3").unwrap().get("adminPower"),
        "admin-down",
        "on the bare blade"
    );

    let r = s
        .put(
            "/api/v2/servers/pod1/power/on",
            json!({"servers": {"blades": ["2/3"], "rack": ["2"]}}),
        )
        .await;
    assert_eq!(r.0, StatusCode::OK);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (_, st) = s
        .call(Method::GET, "/api/v2/servers/pod1/powerstat", Some(sel))
        .await;
    assert_eq!(
        st,
        json!({"status": {"blades": ["1/1: off", "2/3: on"], "rack_servers": ["2: on"]}})
    );
    // No selector: every server of the manager while the group has none selected, and the
    // group's selected servers once it has (the seed's "all servers of the group").
    let ids = |st: &Value| -> Vec<String> {
        st["status"]["blades"]
            .as_array()
            .unwrap()
            .iter()
            .chain(st["status"]["rack_servers"].as_array().unwrap())
            .map(|l| l.as_str().unwrap().split(':').next().unwrap().to_owned())
            .collect()
    };
    let (_, all) = s.get("/api/v2/servers/pod1/powerstat").await;
    assert_eq!(ids(&all).len(), 10, "{all}");
    let r = s
        .post(
            "/api/v2/servers/pod1/servers",
            json!({"servers": {"blades": ["1/2"], "rack_servers": ["1"]}}),
        )
        .await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    let (_, group) = s.get("/api/v2/servers/pod1/powerstat").await;
    assert_eq!(ids(&group), ["1/2", "1"], "{group}");

    let r = s
        .put("/api/v2/servers/pod1/power/sideways", json!({}))
        .await;
    assert_error(&r, 400, "unknown_power_action");
    let r = s
        .put(
            "/api/v2/servers/pod1/power/on",
            json!({"servers": {"blades": ["9/9", "1/1"], "rack_servers": ["7"]}}),
        )
        .await;
    assert_error(&r, 404, "server_not_found");
    assert!(
        r.1["error"].as_str().unwrap().contains("blade 9/9")
            && r.1["error"].as_str().unwrap().contains("rack server 7")
    );
    assert_error(
        &s.put(
            "/api/v2/servers/pod1/power/on",
            json!({"servers": {"blades": ["x"]}}),
        )
        .await,
        400,
        "invalid_selection",
    );
}

#[tokio::test]
async fn disk_reset_really_resets_and_answers_with_the_new_state() {
    let (s, u) = setup().await;
    let sel = json!({"servers": {"blades": ["1/2"]}});
    let (_, before) = s
        .call(Method::GET, "/api/v2/servers/pod1/disks", Some(sel.clone()))
        .await;
    let states: Vec<&str> = field_of_each(&before["blades"]["1/2"], "state");
    assert_eq!(states, ["online", "jbod"]);
    let (status, after) = s
        .call(Method::DELETE, "/api/v2/servers/pod1/disks", Some(sel))
        .await;
    assert_eq!(status, StatusCode::OK, "{after}");
    assert!(
        after["blades"]["1/2"]
            .as_array()
            .unwrap()
            .iter()
            .all(|d| d["state"] == "unconfigured-good"),
        "{after}"
    );
    assert_eq!(
        u.get("sys/chassis-1/blade-3/board/storage-SAS-1/disk-1")
            .unwrap()
            .get("diskState"),
        "online",
        "other servers untouched"
    );
    // The reference path is an alias.
    let (_, alias) = s
        .call(
            Method::GET,
            "/api/v2/pod1/disks",
            Some(json!({"servers": {"rack_servers": ["1"]}})),
        )
        .await;
    assert_eq!(alias["rack_servers"]["1"].as_array().unwrap().len(), 2);
}

/// The NICs of the selected servers, in the manager's order with their MACs as a host's
/// `macs` take them (lower case) and their link: what an operator names a host's NICs from.
#[tokio::test]
async fn the_nics_list_gives_each_servers_macs_in_order() {
    let (s, u) = setup().await;
    let (st, nics) = s
        .call(
            Method::GET,
            "/api/v2/servers/pod1/nics",
            Some(json!({"servers": {"blades": ["1/2"]}})),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{nics}");
    let mac = |n: u8| {
        u.get(&format!("sys/chassis-1/blade-2/adaptor-1/host-eth-{n}"))
            .unwrap()
            .get("mac")
            .to_ascii_lowercase()
    };
    assert_eq!(
        nics,
        json!({"blades": {"1/2": [
            {"name": "eth0", "mac": mac(1), "link_up": true},
            {"name": "eth1", "mac": mac(2), "link_up": false}]},
            "rack_servers": {}})
    );
    // Only the servers selected: none other is listed.
    let (_, all) = s.get("/api/v2/servers/pod1/nics").await;
    assert!(
        all["rack_servers"]["1"]
            .as_array()
            .is_some_and(|l| l.len() == 2),
        "{all}"
    );
}

#[tokio::test]
async fn a_server_running_someone_elses_profile_is_marked_and_left_alone_without_force() {
    let (s, u) = setup().await;
    // Inventory marks it with the profile; servers without one, or with ours, are not marked.
    let (_, inv) = s.get("/api/v2/servers/pod1/servers").await;
    let marked: Vec<(&str, &str)> = inv["servers"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|x| Some((x["id"].as_str()?, x["in_use_by"].as_str()?)))
        .collect();
    assert_eq!(marked, [("1/1", "org-root/ls-existing-sp")]);

    // Selecting it, resetting its disks and restarting it each need force; without it
    // nothing happens and the answer names the server, its profile and its power state.
    let disk = "sys/chassis-1/blade-1/board/storage-SAS-1/disk-1";
    let before = u.get(disk).unwrap().get("diskState").to_owned();
    assert_ne!(before, "unconfigured-good");
    let one = json!({"servers": {"blades": ["1/1"]}});
    for (method, path) in [
        (Method::POST, "/api/v2/servers/pod1/servers"),
        (Method::DELETE, "/api/v2/servers/pod1/disks"),
        (Method::PUT, "/api/v2/servers/pod1/power/hardreset"),
        (Method::PUT, "/api/v2/servers/pod1/power/softreset"),
    ] {
        let r = s.call(method, path, Some(one.clone())).await;
        assert_in_use(&r, FOREIGN_BLADE);
    }
    assert_eq!(u.get(disk).unwrap().get("diskState"), before);
    assert_eq!(
        s.get("/api/v2/servers/pod1").await.1["server_pool"]["blades"],
        json!([])
    );
    // Powering it on harms nothing: no force needed.
    let r = s.put("/api/v2/servers/pod1/power/on", one.clone()).await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);

    let mut forced = one;
    forced["force"] = json!(true);
    let r = s
        .call(
            Method::DELETE,
            "/api/v2/servers/pod1/disks",
            Some(forced.clone()),
        )
        .await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    assert_eq!(u.get(disk).unwrap().get("diskState"), "unconfigured-good");
    let r = s.post("/api/v2/servers/pod1/servers", forced).await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    assert_eq!(r.1["servers"]["blades"], json!(["1/1"]));
}

#[tokio::test]
async fn fsm_stages_are_sorted_and_grouped() {
    let (s, _u) = setup().await;
    s.put(
        "/api/v2/servers/pod1/power/hardreset",
        json!({"servers": {"blades": ["1/3"]}}),
    )
    .await;
    let (status, body) = s
        .call(
            Method::GET,
            "/api/v2/servers/pod1/fsm",
            Some(json!({"servers": {"blades": ["1/3"]}})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let names: Vec<&str> = field_of_each(&body["stages"], "name");
    assert_eq!(
        names,
        ["HardresetBegin", "HardresetExecute", "HardresetSuccess"]
    );
    let first = &body["stages"][0];
    for field in [
        "descr",
        "last_update_time",
        "name",
        "order",
        "retry",
        "stage_status",
    ] {
        assert!(first[field].is_string(), "{field}");
    }
    assert_eq!(
        body["servers"]["blades"]["1/3"]["stages"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    let (_, alias) = s
        .call(
            Method::GET,
            "/api/v2/fsm",
            Some(json!({"server_group": "pod1", "servers": {"blades": ["1/3"]}})),
        )
        .await;
    assert_eq!(alias["stages"], body["stages"]);
}

#[tokio::test]
async fn expired_sessions_and_transient_faults_do_not_reach_the_user() {
    let (s, u) = setup().await;
    assert_eq!(
        s.get("/api/v2/servers/pod1/servers").await.0,
        StatusCode::OK
    );
    u.expire_sessions();
    assert_eq!(
        s.get("/api/v2/servers/pod1/servers").await.0,
        StatusCode::OK,
        "re-login is transparent"
    );
    u.set_faults(Faults {
        fail_next: 2,
        ..Faults::default()
    });
    assert_eq!(
        s.get("/api/v2/servers/pod1/powerstat").await.0,
        StatusCode::OK,
        "retried"
    );
    u.set_faults(Faults {
        fail_next: 3,
        ..Faults::default()
    });
    assert_error(
        &s.get("/api/v2/servers/pod1/powerstat").await,
        502,
        "ucs_unreachable",
    );
    u.set_faults(Faults {
        drop_next: 2,
        ..Faults::default()
    });
    assert_eq!(
        s.get("/api/v2/servers/pod1/powerstat").await.0,
        StatusCode::OK,
        "dropped connections are retried"
    );
    u.set_faults(Faults::default());
    // A UCS error travels to the caller with its code: a profile that vanished under the blade.
    u.with_tree(|t| {
        t.get_mut("sys/chassis-1/blade-1")
            .unwrap()
            .set("assignedToDn", "org-root/ls-vanished")
    });
    let r = s
        .put(
            "/api/v2/servers/pod1/power/on",
            json!({"servers": {"blades": ["1/1"]}}),
        )
        .await;
    assert_error(&r, 502, "ucs_error");
    assert_eq!(r.1["ucs_code"], "102");
    assert!(u.open_sessions() >= 1);
    let _dir = s.stop().await;
    assert_eq!(
        u.open_sessions(),
        0,
        "closing the app logs out of every manager"
    );
}

#[tokio::test]
async fn an_imc_group_lists_and_powers_its_rack_server() {
    let s = Server::start().await;
    let imc = sim(SimConfig::imc()).await;
    let r = s
        .post(
            "/api/v2/servers",
            sim_group("c220", "imc", &imc, "password"),
        )
        .await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    let (_, inv) = s.get("/api/v2/servers/c220/servers").await;
    assert_eq!(inv["servers"].as_array().unwrap().len(), 1);
    assert_eq!(
        (
            inv["servers"][0]["type"].as_str(),
            inv["servers"][0]["rack_id"].as_str()
        ),
        (Some("rack"), Some("1"))
    );
    let r = s.put("/api/v2/servers/c220/power/on", json!({})).await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    assert_eq!(imc.get("sys/rack-unit-1").unwrap().get("adminPower"), "up");
    let (_, disks) = s
        .call(Method::DELETE, "/api/v2/servers/c220/disks", None)
        .await;
    // Its drives are reset; the RAID 0 virtual drive over disk 1 is listed too, and is no
    // drive a reset names.
    let listed = disks["rack_servers"]["1"].as_array().unwrap();
    let (drives, vds): (Vec<&Value>, Vec<&Value>) =
        listed.iter().partition(|d| d["kind"] == "drive");
    assert!(
        drives.len() == 2 && drives.iter().all(|d| d["state"] == "Unconfigured Good"),
        "{disks}"
    );
    assert_eq!(
        vds.iter()
            .map(|d| (d["id"].as_str(), d["raid"].as_str()))
            .collect::<Vec<_>>(),
        [(Some("vd-0"), Some("raid0"))],
        "{disks}"
    );
    assert_eq!(
        s.get("/api/v2/servers/c220/templates").await.1,
        json!({"templates": []})
    );
    assert_eq!(
        s.get("/api/v2/servers/c220/fsm").await.1["stages"],
        json!([])
    );
}

#[tokio::test]
async fn self_signed_certificates_are_pinned_once_the_operator_accepts_them() {
    let s = Server::start().await;
    let u = Sim::start_tls(SimConfig::ucsm()).await.unwrap();
    assert!(u.address().starts_with("https://"));
    let r = s
        .post("/api/v2/servers", sim_group("pod1", "ucsm", &u, "password"))
        .await;
    assert_error(&r, 422, "untrusted_certificate");
    let fp = r.1["fingerprint"].as_str().unwrap().to_owned();
    assert_eq!(fp, u.fingerprint().unwrap());
    assert!(r.1["error"].as_str().unwrap().contains(&fp));

    let mut accepted = sim_group("pod1", "ucsm", &u, "password");
    accepted["fingerprint"] = json!(fp.to_lowercase().replace(':', ""));
    let r = s.post("/api/v2/servers", accepted).await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    assert_eq!(
        (r.1["fingerprint"].as_str(), r.1["insecure"].as_bool()),
        (Some(fp.as_str()), Some(false))
    );
    assert_eq!(
        s.get("/api/v2/servers/pod1/servers").await.1["servers"]
            .as_array()
            .unwrap()
            .len(),
        10
    );

    // Another manager behind the same pinned fingerprint is refused: its certificate differs.
    let other = Sim::start_tls(SimConfig::ucsm()).await.unwrap();
    let mut moved = sim_group("pod2", "ucsm", &other, "password");
    moved["fingerprint"] = json!(fp);
    assert_error(
        &s.post("/api/v2/servers", moved).await,
        502,
        "certificate_changed",
    );

    // The explicit switch skips verification, and the record says so.
    let mut insecure = sim_group("pod3", "ucsm", &other, "password");
    insecure["insecure"] = json!(true);
    let r = s.post("/api/v2/servers", insecure).await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    assert_eq!(r.1["insecure"], true);

    let mut bad = sim_group("pod4", "ucsm", &other, "password");
    bad["fingerprint"] = json!("AB:CD");
    assert_error(
        &s.post("/api/v2/servers", bad).await,
        400,
        "invalid_server_group",
    );
}

/// The console button's call: the manager's own page for the server, never a credential in it.
#[tokio::test]
async fn the_console_page_is_the_managers_kvm_launcher_or_web_interface() {
    let (s, u) = setup().await;
    let r = s.get("/api/v2/servers/pod1/console?server=1/2").await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    assert_eq!(r.1["url"], format!("{}/ucsm/kvm.html", u.address()));
    assert_eq!(
        (r.1["server_group"].as_str(), r.1["server"].as_str()),
        (Some("pod1"), Some("1/2"))
    );
    let note = r.1["note"].as_str().unwrap();
    assert!(
        note.contains("KVM launcher") && note.contains("blade 1/2"),
        "{note}"
    );
    assert!(!r.1.to_string().contains("password"), "{}", r.1);

    assert_error(
        &s.get("/api/v2/servers/pod1/console").await,
        400,
        "missing_server",
    );
    assert_error(
        &s.get("/api/v2/servers/pod1/console?server=x").await,
        400,
        "invalid_server",
    );
    assert_error(
        &s.get("/api/v2/servers/pod1/console?server=9/9").await,
        404,
        "server_not_found",
    );
    assert_error(
        &s.get("/api/v2/servers/nope/console?server=1/1").await,
        404,
        "server_group_not_found",
    );

    let imc = sim(SimConfig::imc()).await;
    let r = s
        .post(
            "/api/v2/servers",
            sim_group("c220", "imc", &imc, "password"),
        )
        .await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    let r = s.get("/api/v2/servers/c220/console?server=1").await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    assert_eq!(r.1["url"], format!("{}/", imc.address()));
    assert!(r.1["note"].as_str().unwrap().contains("IMC"), "{}", r.1);
}
