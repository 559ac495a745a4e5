//! `unmount_after_install` on UCS Manager and UCS Central, over real HTTP against the
//! simulator: once a host is installed, only that host's profile lets go of its virtual media
//! (unbound from `SVC_<code>` with no vMedia policy, or, from an operator's template that
//! leaves vMedia open, with the policy Bootsmith set cleared), the other hosts keep theirs, a
//! template that sets the policy itself is left alone, and a new deploy binds the host again.

mod common;

use std::time::Duration;

use bootsmith_sim::{Sim, SimConfig};
use common::*;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

/// The `installed` callback line of `host`'s kickstart, read from its answer image in svc.
fn installed_line(s: &Server, host: &str) -> String {
    kickstart(s, host)
        .lines()
        .find(|l| l.starts_with("curl ") && l.contains("/installed"))
        .expect("an installed callback")
        .to_owned()
}

/// The last thing `host`'s timeline says.
async fn last_note(s: &Server, host: &str) -> String {
    let (_, t) = s.get(&format!("/api/v2/hosts/{host}/timeline")).await;
    t["events"].as_array().unwrap().last().unwrap()["detail"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// Wait until `host`'s timeline notes what its unmount did (it runs after the callback).
async fn unmount_note(s: &Server, host: &str, says: &str) -> String {
    for _ in 0..100 {
        let note = last_note(s, host).await;
        if note.contains(says) {
            return note;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!(
        "{host}'s timeline never says {says:?}: {}",
        last_note(s, host).await
    );
}

/// A listening server with group `group` of `kind` on `u`, svc on 127.0.0.1, unmount on, and
/// CentOS hosts (each `[name, last byte of its 127.0.0.x address, extra fields]`), images built.
async fn setup(u: &Sim, group: &str, kind: &str, hosts: &[(&str, u8, Value)]) -> Server {
    let s = Server::listening().await;
    managed_group(&s, group, kind, &u.address()).await;
    set_svc_ip(&s, "127.0.0.1").await;
    let list: Vec<Value> = hosts
        .iter()
        .map(|(name, ip, extra)| {
            let mut h = json!({"name": name, "ip": format!("127.0.0.{ip}"), "os": "centos7.4",
                "role": "generic", "network_group": "mgmt", "server_group": group});
            h.as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            h
        })
        .collect();
    let r = s.post("/api/v2/hosts", json!(list)).await;
    assert!(r.0.is_success(), "{}", r.1);
    bootable_centos_iso(&s);
    let map = json!({"iso_map": [{"file": "/svc/c7.iso", "os": "centos7.4"}]});
    assert_eq!(s.post("/api/v1/isos/map", map).await.0, StatusCode::OK);
    let (st, set) = s
        .put(
            "/api/v2/settings/install",
            json!({"unmount_after_install": true}),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{set}");
    let (st, r) = s.call(Method::POST, "/api/v2/deploy/images", None).await;
    assert_eq!(st, StatusCode::OK, "{r}");
    s
}

// Multi-threaded: the kickstart's curl blocks its thread while the server answers.
#[tokio::test(flavor = "multi_thread")]
async fn an_installed_blade_s_profile_lets_go_of_its_media_and_a_new_deploy_binds_it_again() {
    let u = Sim::start(SimConfig::ucsm()).await.unwrap();
    let s = setup(
        &u,
        "pod1",
        "ucsm",
        &[
            ("node01", 2, json!({"server": "1/2"})),
            ("node02", 3, json!({"server": "1/3"})),
            (
                "node03",
                4,
                json!({"server": "1/4", "service_profile_template": "org-root/ls-c7-template"}),
            ),
        ],
    )
    .await;
    deploy_associated(&s, "pod1").await;
    for h in ["node01", "node02", "node03"] {
        until_state(&s, h, "media-mounted").await;
    }
    let mounts = |blade: u32| format!("sys/chassis-1/blade-{blade}/mgmt/actual-mount-list");
    assert!(u.get(&mounts(2)).is_some() && u.get(&mounts(4)).is_some());

    // node01 (from SVC_c74) and node03 (from the operator's template) report their installs.
    run_in_shell(installed_line(&s, "node01")).await;
    run_in_shell(installed_line(&s, "node03")).await;
    until_state(&s, "node01", "installed").await;
    until_state(&s, "node03", "installed").await;

    // node01: unbound from SVC_c74 with no vMedia policy; its boot policy stays in force.
    let note = unmount_note(&s, "node01", "unbound from template SVC_c74").await;
    assert!(
        note.contains("vMedia policy cleared") && note.contains("maintenance policy"),
        "{note}"
    );
    let p = u.get("org-root/ls-node01").unwrap();
    assert_eq!(
        (
            p.get("srcTemplName"),
            p.get("vmediaPolicyName"),
            p.get("bootPolicyName"),
            p.get("operBootPolicyName"),
        ),
        ("", "", "SVC_c74", "org-root/boot-policy-SVC_c74")
    );
    assert_ne!(
        p.get("operVmediaPolicyName"),
        "org-root/mnt-cfg-policy-SVC_c74"
    );
    sim_until(&u, "blade 1/2 lets go of its media", |u| {
        u.get(&mounts(2)).is_none()
    })
    .await;
    // Its media stay in svc: the profile no longer mounts them.
    assert!(s.svc().join("node01.img").exists());

    // node03: its template leaves vMedia open, so only the policy Bootsmith set goes.
    let note = unmount_note(&s, "node03", "leaves it open").await;
    assert!(note.contains("c7-template"), "{note}");
    let p = u.get("org-root/ls-node03").unwrap();
    assert_eq!(
        (p.get("srcTemplName"), p.get("vmediaPolicyName")),
        ("c7-template", "")
    );
    sim_until(&u, "blade 1/4 lets go of its media", |u| {
        u.get(&mounts(4)).is_none()
    })
    .await;

    // node02, not installed yet, keeps its profile, template and mounts.
    let p = u.get("org-root/ls-node02").unwrap();
    assert_eq!(
        (p.get("srcTemplName"), p.get("operVmediaPolicyName")),
        ("SVC_c74", "org-root/mnt-cfg-policy-SVC_c74")
    );
    assert_eq!(
        u.get(&format!("{}/actual-mount-entry-1", mounts(3)))
            .unwrap()
            .get("operMountStatus"),
        "mounted"
    );

    // A reinstall: images built again (a new token), and the plan says node01 is bound again.
    let (st, r) = s.call(Method::POST, "/api/v2/deploy/images", None).await;
    assert_eq!(st, StatusCode::OK, "{r}");
    let (st, plan) = s
        .call(
            Method::POST,
            "/api/v2/servers/pod1/deploy?dry_run=true",
            None,
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{plan}");
    let rebind = plan["objects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["dn"] == "org-root/ls-node01")
        .unwrap_or_else(|| panic!("node01's profile in {plan}"));
    assert_eq!(rebind["action"], "modify", "{rebind}");
    assert!(
        rebind["what"]
            .as_str()
            .unwrap()
            .contains("bound to SVC_c74 again"),
        "{rebind}"
    );
    deploy_associated(&s, "pod1").await;
    let p = u.get("org-root/ls-node01").unwrap();
    assert_eq!(
        (p.get("srcTemplName"), p.get("operVmediaPolicyName")),
        ("SVC_c74", "org-root/mnt-cfg-policy-SVC_c74")
    );
    sim_until(&u, "blade 1/2 mounts its media again", |u| {
        u.get(&format!("{}/actual-mount-entry-1", mounts(2)))
            .is_some_and(|e| e.get("operMountStatus") == "mounted")
    })
    .await;
}

/// UCS Central keeps the same profiles globally: the installed host's global profile is
/// unbound from SVC_c74 with no vMedia policy, and its blade, in its own domain, lets go of
/// the media; the other host's blade, in another domain, keeps them.
#[tokio::test(flavor = "multi_thread")]
async fn an_installed_central_host_s_global_profile_lets_go_of_its_media() {
    let u = Sim::start(SimConfig::ucsc(2)).await.unwrap();
    let s = setup(
        &u,
        "central",
        "ucsc",
        &[
            ("node01", 2, json!({"server": "1002/1/3"})),
            ("node02", 3, json!({"server": "1001/1/2"})),
        ],
    )
    .await;
    deploy_associated(&s, "central").await;
    until_state(&s, "node01", "media-mounted").await;
    until_state(&s, "node02", "media-mounted").await;
    let list = "sys/chassis-1/blade-3/mgmt/actual-mount-list";
    assert!(u.get_remote(1002, list).is_some());

    run_in_shell(installed_line(&s, "node01")).await;
    until_state(&s, "node01", "installed").await;
    let note = unmount_note(&s, "node01", "unbound from template SVC_c74").await;
    assert!(note.contains("(on central)"), "{note}");
    let p = u.get("org-root/ls-node01").unwrap();
    assert_eq!((p.get("srcTemplName"), p.get("vmediaPolicyName")), ("", ""));
    sim_until(&u, "blade 1002/1/3 lets go of its media", |u| {
        u.get_remote(1002, list).is_none()
    })
    .await;
    assert_eq!(
        u.get("org-root/ls-node02").unwrap().get("srcTemplName"),
        "SVC_c74"
    );
    assert_eq!(
        u.get_remote(
            1001,
            "sys/chassis-1/blade-2/mgmt/actual-mount-list/actual-mount-entry-1"
        )
        .unwrap()
        .get("operMountStatus"),
        "mounted"
    );
}
