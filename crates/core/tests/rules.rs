//! The compute and deploy rules an operator relies on, through the core's service functions
//! against an in-memory manager (`testing::FakeManager`): which servers an action touches,
//! what needs `force`, the group's pool, a second deploy writing nothing, one host's failure
//! reported as its own, a dry run writing nothing. Fast versions of rules the end-to-end
//! simulator tests in `crates/api/tests` check over HTTP (those stay).

use std::sync::Arc;

use bootsmith_core::compute::{self, PowerReading, SelectorBody, ServerType};
use bootsmith_core::deploy::{self, DeployRequest, JobOrPlan, ObjectAction, Until};
use bootsmith_core::jobs::{self, Job, JobEvent, JobState, JobStep, StepState};
use bootsmith_core::managers::{PowerAction, PowerState};
use bootsmith_core::testing::{FakeManager, FakeWrite, TempApp};
use bootsmith_core::{
    records::hosts, records::networks, records::server_groups, records::settings, App, Error,
    ErrorKind,
};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Group `pod1` of type `kind` (stored without a login check; a Redfish group with three
/// BMCs), answered by `fake`.
async fn group(app: &App, kind: &str, fake: FakeManager) -> Arc<FakeManager> {
    let login = |ip: &str| json!({"ip": ip, "user": "admin", "password": "secret"});
    let input = if kind == "redfish" {
        json!({"name": "pod1", "type": kind, "check_login": false,
            "bmcs": [login("192.0.2.11"), login("192.0.2.12"), login("192.0.2.13")]})
    } else {
        json!({"name": "pod1", "type": kind, "check_login": false, "credentials": login("192.0.2.5")})
    };
    server_groups::create(app, serde_json::from_value(input).unwrap())
        .await
        .unwrap();
    let fake = Arc::new(fake);
    let managed = server_groups::get(app, "pod1").await.unwrap().managed();
    app.managers().insert_for_tests(&managed, fake.clone());
    fake
}

/// A UCS domain: blades 1/1 (running a profile Bootsmith did not make, on), 1/2 and 2/3,
/// rack server 2, each with disks.
fn domain() -> FakeManager {
    FakeManager::new()
        .server("2")
        .server("2/3")
        .server("1/2")
        .server("1/1")
        .running("1/1", "org-root/ls-db")
        .powered("1/1", "on")
        .disk("1/1", "1", "online")
        .disk("1/2", "1", "online")
        .disk("1/2", "2", "jbod")
        .disk("1/2", "3", "unconfigured-good")
        .disk("2/3", "1", "online")
        .disk("2", "1", "online")
}

fn servers(sel: Value) -> Option<SelectorBody> {
    Some(serde_json::from_value(sel).unwrap())
}

fn code(e: &Error) -> String {
    serde_json::to_value(e.code())
        .unwrap()
        .as_str()
        .unwrap()
        .to_owned()
}

/// Power writes as [`FakeManager::power_writes`] lists them.
fn power(each: &[(&str, PowerAction)]) -> Vec<(String, PowerAction)> {
    each.iter().map(|(s, a)| ((*s).to_owned(), *a)).collect()
}

/// The servers of kind `kind` in a power answer: each id with what is known of its power.
fn power_of(st: &compute::PowerStatus, kind: ServerType) -> Vec<(String, PowerReading)> {
    st.servers
        .iter()
        .filter(|s| s.kind() == kind)
        .map(|s| (s.id.to_string(), s.state.clone()))
        .collect()
}

fn ids(st: &compute::PowerStatus, kind: ServerType) -> Vec<String> {
    power_of(st, kind).into_iter().map(|(id, _)| id).collect()
}

/// `(id, state)` of a server its manager reports in `state`.
fn reported(id: &str, state: PowerState) -> (String, PowerReading) {
    (id.to_owned(), PowerReading::Reported(Some(state)))
}

#[tokio::test]
async fn power_reaches_only_the_servers_chosen() {
    let app = TempApp::new().await;
    let fake = group(&app, "ucsm", domain()).await;
    let st = compute::power(
        &app,
        "pod1",
        "on",
        servers(json!({"servers": {"blades": ["1/2"], "rack_servers": ["2"]}})),
    )
    .await
    .unwrap();
    assert_eq!(
        fake.power_writes(),
        power(&[("1/2", PowerAction::On), ("2", PowerAction::On)])
    );
    assert_eq!(
        power_of(&st, ServerType::Blade),
        [reported("1/2", PowerState::On)]
    );
    assert_eq!(
        power_of(&st, ServerType::Rack),
        [reported("2", PowerState::On)]
    );
}

#[tokio::test]
async fn stopping_a_server_that_runs_someone_elses_profile_needs_force() {
    let app = TempApp::new().await;
    let fake = group(&app, "ucsm", domain()).await;
    let both = json!({"servers": {"blades": ["1/1", "1/2"]}});
    for action in ["off", "hardreset", "softreset"] {
        let e = compute::power(&app, "pod1", action, servers(both.clone()))
            .await
            .unwrap_err();
        assert_eq!(code(&e), "server_in_use", "{action}: {e}");
        assert!(
            e.to_string()
                .contains("blade 1/1 (profile org-root/ls-db, power on)"),
            "{e}"
        );
    }
    assert_eq!(fake.writes(), [], "the whole request is refused, 1/2 too");
    // Powering on harms nothing: no force needed.
    compute::power(
        &app,
        "pod1",
        "on",
        servers(json!({"servers": {"blades": ["1/1"]}})),
    )
    .await
    .unwrap();
    let mut forced = both;
    forced["force"] = json!(true);
    compute::power(&app, "pod1", "off", servers(forced))
        .await
        .unwrap();
    assert_eq!(
        fake.power_writes(),
        power(&[
            ("1/1", PowerAction::On),
            ("1/1", PowerAction::Off),
            ("1/2", PowerAction::Off)
        ])
    );
}

#[tokio::test]
async fn a_disk_reset_resets_the_chosen_servers_disks_that_need_it() {
    let app = TempApp::new().await;
    let fake = group(&app, "ucsm", domain()).await;
    let out = compute::reset_disks(
        &app,
        "pod1",
        servers(json!({"servers": {"blades": ["1/2"]}})),
    )
    .await
    .unwrap();
    let reset: Vec<FakeWrite> = ["1", "2"]
        .iter()
        .map(|d| FakeWrite::DiskReset {
            server: "1/2".into(),
            disk: (*d).into(),
        })
        .collect();
    assert_eq!(
        fake.writes(),
        reset,
        "disk 3 was reset already; other servers untouched"
    );
    let states: Vec<&str> = out.blades["1/2"].iter().map(|d| d.state.as_str()).collect();
    assert_eq!(states, ["unconfigured-good"; 3]);
    assert_eq!(out.blades.len(), 1, "answers for the chosen servers only");

    let e = compute::reset_disks(
        &app,
        "pod1",
        servers(json!({"servers": {"blades": ["1/1"]}})),
    )
    .await
    .unwrap_err();
    assert_eq!(code(&e), "server_in_use", "{e}");
    assert_eq!(fake.writes(), reset, "nothing more without force");
    compute::reset_disks(
        &app,
        "pod1",
        servers(json!({"servers": {"blades": ["1/1"]}, "force": true})),
    )
    .await
    .unwrap();
    assert_eq!(
        fake.writes().last(),
        Some(&FakeWrite::DiskReset {
            server: "1/1".into(),
            disk: "1".into()
        })
    );
}

#[tokio::test]
async fn without_a_selection_an_action_means_the_groups_pool_or_every_server() {
    let app = TempApp::new().await;
    let fake = group(&app, "ucsm", domain()).await;
    let all = compute::power_status(&app, "pod1", None).await.unwrap();
    assert_eq!(ids(&all, ServerType::Blade), ["1/1", "1/2", "2/3"]);
    assert_eq!(ids(&all, ServerType::Rack), ["2"]);

    let pool = json!({"servers": {"blades": ["2/3"], "rack_servers": ["2"]}});
    server_groups::select_servers(&app, "pod1", serde_json::from_value(pool).unwrap())
        .await
        .unwrap();
    compute::power(&app, "pod1", "off", None).await.unwrap();
    assert_eq!(
        fake.power_writes(),
        power(&[("2/3", PowerAction::Off), ("2", PowerAction::Off)]),
        "the pool only, so 1/1 (someone else's) is not even asked about"
    );
}

#[tokio::test]
async fn a_selection_naming_nothing_or_an_unknown_server_writes_nothing() {
    let app = TempApp::new().await;
    let fake = group(&app, "ucsm", domain()).await;
    let cases = [
        (json!({"servers": {}}), "empty_selection"),
        (
            json!({"servers": {"blades": ["9/9", "1/2"]}}),
            "server_not_found",
        ),
        (
            json!({"servers": {"blades": ["1009/1/2"]}}),
            "invalid_selection",
        ),
    ];
    for (sel, want) in cases {
        let e = compute::power(&app, "pod1", "off", servers(sel.clone()))
            .await
            .unwrap_err();
        assert_eq!(code(&e), want, "{sel}: {e}");
        let e = compute::reset_disks(&app, "pod1", servers(sel.clone()))
            .await
            .unwrap_err();
        assert_eq!(code(&e), want, "{sel}: {e}");
    }
    assert_eq!(fake.writes(), []);
}

#[tokio::test]
async fn selecting_a_server_that_runs_someone_elses_profile_needs_force() {
    let app = TempApp::new().await;
    group(&app, "ucsm", domain()).await;
    let pick = |sel: Value| serde_json::from_value(sel).unwrap();
    let e = server_groups::select_servers(
        &app,
        "pod1",
        pick(json!({"servers": {"blades": ["1/1", "1/2"]}})),
    )
    .await
    .unwrap_err();
    assert_eq!(code(&e), "server_in_use", "{e}");
    let e =
        server_groups::select_servers(&app, "pod1", pick(json!({"servers": {"blades": ["3/1"]}})))
            .await
            .unwrap_err();
    assert_eq!(code(&e), "unknown_servers", "{e}");
    let g = server_groups::get(&app, "pod1").await.unwrap();
    assert!(g.server_pool.is_empty(), "a refused selection is not kept");
    let s = server_groups::select_servers(
        &app,
        "pod1",
        pick(json!({"servers": {"blades": ["1/1", "1/2"]}, "force": true})),
    )
    .await
    .unwrap();
    assert_eq!(s.servers.blades.len(), 2);
}

#[tokio::test]
async fn a_refused_login_fails_the_action_and_writes_nothing() {
    let app = TempApp::new().await;
    let fake = group(&app, "ucsm", domain()).await;
    fake.set_login_fails(true);
    let e = compute::power(&app, "pod1", "on", None).await.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UpstreamAuth, "{e}");
    assert_eq!(code(&e), "ucs_login_failed");
    let e = compute::reset_disks(&app, "pod1", None).await.unwrap_err();
    assert_eq!(code(&e), "ucs_login_failed");
    assert_eq!(fake.writes(), []);
    fake.set_login_fails(false);
    compute::power(&app, "pod1", "on", None).await.unwrap();
    assert_eq!(fake.power_writes().len(), 4, "the next call logs in again");
}

// ---- deploys ----

/// Answers `HEAD /svc/<file>` with the size of the file in `app`'s svc, as the REST
/// listener does, so a run's preflight finds its URLs; sets the app's svc port to it.
async fn serve_svc(app: &App) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    app.set_svc_port(listener.local_addr().unwrap().port());
    let svc = app.svc_dir().to_owned();
    tokio::spawn(async move {
        loop {
            let Ok((mut conn, _)) = listener.accept().await else {
                return;
            };
            let svc = svc.clone();
            tokio::spawn(async move {
                let mut buf = vec![0u8; 4096];
                let n = conn.read(&mut buf).await.unwrap_or(0);
                let head = String::from_utf8_lossy(&buf[..n]);
                let path = head.split(' ').nth(1).unwrap_or("");
                let file = path.strip_prefix("/svc/").unwrap_or("");
                let answer = match std::fs::metadata(svc.join(file)) {
                    Ok(m) if !file.is_empty() => format!(
                        "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                        m.len()
                    ),
                    _ => "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                        .to_owned(),
                };
                let _ = conn.write_all(answer.as_bytes()).await;
            });
        }
    });
}

/// A deployable `pod1` of `kind` behind `fake`: its hosts `names` (CentOS 7.4, the n-th
/// bound to `bound[n]` where given, the others from a pool of blade 2/3), their media in
/// svc, the boot server on 127.0.0.1.
async fn deployable(
    app: &App,
    kind: &str,
    fake: FakeManager,
    names: &[&str],
    bound: &[&str],
) -> Arc<FakeManager> {
    let fake = group(app, kind, fake).await;
    settings::set_svc_ip(
        app,
        serde_json::from_value(json!({"svc_ip": "127.0.0.1"})).unwrap(),
    )
    .await
    .unwrap();
    serve_svc(app).await;
    networks::create(app, serde_json::from_value(json!({"name": "mgmt", "netmask": "24", "gateway": "192.0.2.1", "nameserver": "192.0.2.53", "ntpserver": "192.0.2.123"})).unwrap()).await.unwrap();
    set_hosts(app, names, bound).await;
    if names.len() > bound.len() {
        select(app, json!({"blades": ["2/3"]})).await;
    }
    std::fs::write(app.svc_dir().join("centos7.4-boot.iso"), b"boot iso").unwrap();
    fake
}

/// Select `servers` into pod1's pool.
async fn select(app: &App, servers: Value) {
    let input = json!({ "servers": servers });
    server_groups::select_servers(app, "pod1", serde_json::from_value(input).unwrap())
        .await
        .unwrap();
}

/// The group's hosts become `names` (the n-th bound to `bound[n]` where given), each with
/// its answer image in svc.
async fn set_hosts(app: &App, names: &[&str], bound: &[&str]) {
    let rows: Vec<Value> = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let mut h = json!({"name": n, "ip": format!("192.0.2.{}", 21 + i), "os": "centos7.4",
                "role": "generic", "network_group": "mgmt", "server_group": "pod1"});
            if let Some(s) = bound.get(i) {
                h["server"] = json!(s);
            }
            std::fs::write(app.svc_dir().join(format!("{n}.img")), b"answers").unwrap();
            h
        })
        .collect();
    hosts::replace(app, serde_json::from_value(Value::Array(rows)).unwrap())
        .await
        .unwrap();
}

/// Media are never built by the images job here, so the run is told to go ahead.
fn run() -> DeployRequest {
    DeployRequest {
        allow_stale: true,
        ..DeployRequest::default()
    }
}

fn dry() -> DeployRequest {
    DeployRequest {
        dry_run: true,
        ..DeployRequest::default()
    }
}

/// The plan's objects as (dn, action).
async fn plan(app: &App) -> Vec<(String, ObjectAction)> {
    let JobOrPlan::Plan(p) = deploy::deploy(app, "pod1", dry()).await.unwrap() else {
        panic!("a dry run answers with its plan");
    };
    p.objects.into_iter().map(|o| (o.dn, o.action)).collect()
}

/// Start a job and wait for its end.
async fn finished(started: bootsmith_core::Result<JobOrPlan>, app: &App) -> Job {
    let JobOrPlan::Job(id) = started.unwrap() else {
        panic!("a run answers with its job");
    };
    jobs::wait(app, id).await.unwrap()
}

/// Each host's `step` as (host, state), in order.
fn steps(job: &Job, step: JobStep) -> Vec<(String, StepState)> {
    job.events
        .iter()
        .filter_map(|e| match &e.event {
            JobEvent::Step {
                host: Some(h),
                step: s,
                state,
                ..
            } if *s == step => Some((h.clone(), *state)),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn a_dry_run_plans_every_object_and_writes_nothing() {
    let app = TempApp::new().await;
    let fake = deployable(&app, "ucsm", domain(), &["node01", "node02"], &[]).await;
    let planned = plan(&app).await;
    assert_eq!(planned.len(), 6, "{planned:?}");
    assert!(
        planned.iter().all(|(_, a)| *a == ObjectAction::Create),
        "{planned:?}"
    );
    let JobOrPlan::Plan(_) = deploy::vmedia(&app, "pod1", dry()).await.unwrap() else {
        panic!("a dry run answers with its plan");
    };
    let JobOrPlan::Plan(_) = deploy::undeploy(&app, "pod1", dry()).await.unwrap() else {
        panic!("a dry run answers with its plan");
    };
    assert_eq!(fake.writes(), []);
    assert_eq!(fake.object_names(), Vec::<String>::new());
}

#[tokio::test]
async fn a_second_deploy_of_the_same_hosts_writes_nothing() {
    let app = TempApp::new().await;
    let fake = deployable(&app, "ucsm", domain(), &["node01", "node02"], &[]).await;
    let job = finished(deploy::deploy(&app, "pod1", run()).await, &app).await;
    assert_eq!(job.state, JobState::Succeeded, "{job:?}");
    let first = fake.object_writes();
    assert_eq!(first.len(), 6, "{first:?}");
    assert!(plan(&app)
        .await
        .iter()
        .all(|(_, a)| *a == ObjectAction::Unchanged));
    let again = finished(deploy::deploy(&app, "pod1", run()).await, &app).await;
    assert_eq!(again.state, JobState::Succeeded, "{again:?}");
    assert_eq!(fake.object_writes(), first, "the second run wrote nothing");
    assert_eq!(
        steps(&again, JobStep::ServiceProfile),
        [
            ("node01".to_owned(), StepState::Skipped),
            ("node02".to_owned(), StepState::Skipped)
        ]
    );
}

#[tokio::test]
async fn a_host_whose_write_fails_is_named_and_the_others_are_written() {
    let app = TempApp::new().await;
    let bmcs = FakeManager::new().server("1").server("2").server("3");
    let hosts = ["node01", "node02", "node03"];
    let fake = deployable(&app, "redfish", bmcs, &hosts, &["1", "2", "3"]).await;
    fake.fail_writes_for("node02");
    let job = finished(deploy::deploy(&app, "pod1", run()).await, &app).await;
    assert_eq!(job.state, JobState::Failed, "{job:?}");
    assert!(
        job.error.as_ref().unwrap().error.contains("node02"),
        "{:?}",
        job.error
    );
    assert_eq!(
        steps(&job, JobStep::VirtualMedia),
        [
            ("node01".to_owned(), StepState::Done),
            ("node02".to_owned(), StepState::Failed),
            ("node03".to_owned(), StepState::Done)
        ]
    );
    let held = fake.object_names();
    assert!(held.iter().any(|dn| dn.ends_with("-node01")), "{held:?}");
    assert!(held.iter().any(|dn| dn.ends_with("-node03")), "{held:?}");
    assert!(!held.iter().any(|dn| dn.contains("node02")), "{held:?}");
}

#[tokio::test]
async fn a_restart_powers_only_the_hosts_servers() {
    let app = TempApp::new().await;
    let fake = deployable(
        &app,
        "ucsm",
        domain().powered("1/2", "on"),
        &["node01", "node02"],
        &["2/3", "1/2"],
    )
    .await;
    let request = DeployRequest {
        restart: true,
        ..run()
    };
    let job = finished(deploy::deploy(&app, "pod1", request).await, &app).await;
    assert_eq!(job.state, JobState::Succeeded, "{job:?}");
    assert_eq!(
        fake.power_writes(),
        power(&[("2/3", PowerAction::On), ("1/2", PowerAction::HardReset)]),
        "off servers are powered on, running ones cycled; no other server is touched"
    );
}

#[tokio::test]
async fn a_later_deploy_and_undeploy_remove_only_what_deploys_made() {
    let app = TempApp::new().await;
    let fake = deployable(&app, "ucsm", domain(), &["node01", "node02"], &[]).await;
    finished(deploy::deploy(&app, "pod1", run()).await, &app).await;
    set_hosts(&app, &["node01"], &[]).await;
    let job = finished(deploy::deploy(&app, "pod1", run()).await, &app).await;
    assert_eq!(job.state, JobState::Succeeded, "{job:?}");
    let deleted: Vec<String> = fake
        .object_writes()
        .into_iter()
        .filter(|(_, a)| *a == ObjectAction::Delete)
        .map(|(dn, _)| dn)
        .collect();
    assert_eq!(
        deleted,
        ["org-root/ls-node02", "org-root/mnt-cfg-policy-node02"],
        "the host that left the group loses what deploys made for it"
    );
    let job = finished(
        deploy::undeploy(&app, "pod1", DeployRequest::default()).await,
        &app,
    )
    .await;
    assert_eq!(job.state, JobState::Succeeded, "{job:?}");
    assert_eq!(fake.object_names(), Vec::<String>::new());
}

#[tokio::test]
async fn following_association_is_refused_where_the_manager_has_none() {
    let app = TempApp::new().await;
    let fake = deployable(
        &app,
        "imc",
        FakeManager::new().server("1"),
        &["node01"],
        &["1"],
    )
    .await;
    let request = DeployRequest {
        until: Until::Associated,
        ..run()
    };
    let e = deploy::deploy(&app, "pod1", request).await.unwrap_err();
    assert_eq!(code(&e), "not_supported", "{e}");
    assert_eq!(fake.writes(), []);
}

#[tokio::test]
async fn a_server_running_a_profile_a_deploy_made_needs_no_force() {
    let app = TempApp::new().await;
    let fake = deployable(&app, "ucsm", domain(), &["node01"], &["1/2"]).await;
    finished(deploy::deploy(&app, "pod1", run()).await, &app).await;
    assert_eq!(fake.server_now("1/2").service_profile, "org-root/ls-node01");
    let inv = compute::inventory(&app, "pod1").await.unwrap();
    let in_use: Vec<(&str, Option<&str>)> = inv
        .iter()
        .filter(|s| !s.service_profile.is_empty())
        .map(|s| (s.id.as_str(), s.in_use_by.as_deref()))
        .collect();
    assert_eq!(
        in_use,
        [("1/1", Some("org-root/ls-db")), ("1/2", None)],
        "only someone else's profile marks a server in use"
    );
    compute::power(
        &app,
        "pod1",
        "hardreset",
        servers(json!({"servers": {"blades": ["1/2"]}})),
    )
    .await
    .unwrap();
    assert_eq!(
        fake.power_writes(),
        power(&[("1/2", PowerAction::HardReset)])
    );
}

#[tokio::test]
async fn an_object_someone_else_made_is_changed_but_never_removed() {
    let app = TempApp::new().await;
    let fake = deployable(
        &app,
        "ucsm",
        domain().existing("org-root/ls-node01", "lsServer"),
        &["node01"],
        &[],
    )
    .await;
    let planned = plan(&app).await;
    assert!(
        planned.contains(&("org-root/ls-node01".into(), ObjectAction::Modify)),
        "{planned:?}"
    );
    finished(deploy::deploy(&app, "pod1", run()).await, &app).await;
    let job = finished(
        deploy::undeploy(&app, "pod1", DeployRequest::default()).await,
        &app,
    )
    .await;
    assert_eq!(job.state, JobState::Succeeded, "{job:?}");
    assert_eq!(
        fake.object_names(),
        ["org-root/ls-node01"],
        "the undeploy removed what the deploy created, and only that"
    );
}

#[tokio::test]
async fn power_and_disks_on_a_lost_domain_are_refused_before_anything_is_sent() {
    let app = TempApp::new().await;
    let central = FakeManager::new()
        .server("1001/1/2")
        .server("1002/1/2")
        .disk("1001/1/2", "1", "jbod")
        .disk("1002/1/2", "1", "jbod")
        .lost_domain(1002);
    let fake = group(&app, "ucsc", central).await;
    let both = json!({"servers": {"blades": ["1001/1/2", "1002/1/2"]}});
    let st = compute::power_status(&app, "pod1", servers(both.clone()))
        .await
        .unwrap();
    assert_eq!(
        power_of(&st, ServerType::Blade),
        [
            reported("1001/1/2", PowerState::Off),
            ("1002/1/2".to_owned(), PowerReading::Unreachable)
        ]
    );
    let e = compute::power(&app, "pod1", "on", servers(both.clone()))
        .await
        .unwrap_err();
    assert_eq!(code(&e), "domain_unreachable", "{e}");
    assert!(e.to_string().contains("blade 1002/1/2"), "{e}");
    let e = compute::reset_disks(&app, "pod1", servers(both.clone()))
        .await
        .unwrap_err();
    assert_eq!(code(&e), "domain_unreachable", "{e}");
    assert_eq!(
        fake.writes(),
        [],
        "the reachable blade is not acted on either"
    );
    let d = compute::disks(&app, "pod1", servers(both)).await.unwrap();
    assert_eq!(d.unreachable, ["1002/1/2"]);
    compute::power(
        &app,
        "pod1",
        "on",
        servers(json!({"servers": {"blades": ["1001/1/2"]}})),
    )
    .await
    .unwrap();
    assert_eq!(fake.power_writes(), power(&[("1001/1/2", PowerAction::On)]));
}

#[tokio::test]
async fn a_virtual_media_run_writes_the_media_only_and_follows_nothing() {
    let app = TempApp::new().await;
    let fake = deployable(&app, "ucsm", domain(), &["node01", "node02"], &[]).await;
    let request = DeployRequest {
        until: Until::Associated,
        ..run()
    };
    let e = deploy::vmedia(&app, "pod1", request).await.unwrap_err();
    assert_eq!(code(&e), "invalid_request", "{e}");
    assert_eq!(fake.writes(), []);
    let job = finished(deploy::vmedia(&app, "pod1", run()).await, &app).await;
    assert_eq!(job.state, JobState::Succeeded, "{job:?}");
    assert_eq!(
        fake.object_writes(),
        [
            (
                "org-root/mnt-cfg-policy-node01".to_owned(),
                ObjectAction::Create
            ),
            (
                "org-root/mnt-cfg-policy-node02".to_owned(),
                ObjectAction::Create
            )
        ]
    );
}

#[tokio::test]
async fn pooled_hosts_need_selected_servers_and_follow_the_selection() {
    let app = TempApp::new().await;
    let fake = deployable(&app, "ucsm", domain(), &["node01"], &["1/2"]).await;
    set_hosts(&app, &["node01", "node02"], &["1/2"]).await;
    let e = deploy::deploy(&app, "pod1", run()).await.unwrap_err();
    assert_eq!(code(&e), "deploy_not_ready", "{e}");
    assert!(e.to_string().contains("cannot be deployed yet"), "{e}");
    assert_eq!(fake.writes(), [], "refused before a job starts");

    select(&app, json!({"blades": ["2/3"]})).await;
    finished(deploy::deploy(&app, "pod1", run()).await, &app).await;
    select(&app, json!({"blades": ["2/3"], "rack_servers": ["2"]})).await;
    let planned = plan(&app).await;
    let changed: Vec<&(String, ObjectAction)> = planned
        .iter()
        .filter(|(_, a)| *a != ObjectAction::Unchanged)
        .collect();
    assert_eq!(
        changed,
        [&(
            "org-root/compute-pool-SVC_c74".to_owned(),
            ObjectAction::Modify
        )],
        "a new selection changes the pool and nothing else"
    );
}

#[tokio::test]
async fn one_run_at_a_time_per_group() {
    let app = TempApp::new().await;
    let fake = deployable(&app, "ucsm", domain(), &["node01"], &[]).await;
    fake.hold_runs();
    let JobOrPlan::Job(first) = deploy::deploy(&app, "pod1", run()).await.unwrap() else {
        panic!("a run answers with its job");
    };
    for second in [
        deploy::deploy(&app, "pod1", run()).await,
        deploy::vmedia(&app, "pod1", run()).await,
        deploy::undeploy(&app, "pod1", DeployRequest::default()).await,
    ] {
        let e = second.map(|_| ()).unwrap_err();
        assert_eq!(code(&e), "job_running", "{e}");
    }
    let JobOrPlan::Plan(_) = deploy::deploy(&app, "pod1", dry()).await.unwrap() else {
        panic!("a dry run answers with its plan");
    };
    assert_eq!(fake.writes(), [], "nothing written while the run waits");
    fake.release_runs();
    let job = jobs::wait(&app, first).await.unwrap();
    assert_eq!(job.state, JobState::Succeeded, "{job:?}");
    assert_eq!(fake.object_writes().len(), 4);
}

#[tokio::test]
async fn a_run_that_follows_association_names_the_hosts_that_did_not_get_there() {
    let app = TempApp::new().await;
    // node02 is pooled: the fake associates only profiles bound to a server.
    let fake = deployable(&app, "ucsm", domain(), &["node01", "node02"], &["1/2"]).await;
    let request = DeployRequest {
        until: Until::Associated,
        ..run()
    };
    let job = finished(deploy::deploy(&app, "pod1", request).await, &app).await;
    assert_eq!(job.state, JobState::FinishedWithFailures, "{job:?}");
    let result = job.result.unwrap();
    assert_eq!(result["failed_hosts"], json!(["node02"]), "{result}");
    assert_eq!(
        result["outcomes"],
        json!({"associated": 1, "timed_out": 1}),
        "{result}"
    );
    assert_eq!(fake.object_writes().len(), 6, "both hosts were written");
}

#[tokio::test]
async fn an_undeploy_dry_run_lists_what_deploys_made_and_removes_nothing() {
    let app = TempApp::new().await;
    let fake = deployable(
        &app,
        "ucsm",
        domain().existing("org-root/ls-db", "lsServer"),
        &["node01"],
        &[],
    )
    .await;
    finished(deploy::deploy(&app, "pod1", run()).await, &app).await;
    let written = fake.writes();
    let JobOrPlan::Plan(p) = deploy::undeploy(&app, "pod1", dry()).await.unwrap() else {
        panic!("a dry run answers with its plan");
    };
    let mut listed: Vec<(String, ObjectAction)> =
        p.objects.into_iter().map(|o| (o.dn, o.action)).collect();
    listed.sort_by(|a, b| a.0.cmp(&b.0));
    let mut made: Vec<(String, ObjectAction)> = written
        .iter()
        .filter_map(|w| match w {
            FakeWrite::Object { dn, .. } => Some((dn.clone(), ObjectAction::Delete)),
            _ => None,
        })
        .collect();
    made.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        listed, made,
        "what the deploy created, and not org-root/ls-db"
    );
    assert_eq!(fake.writes(), written, "nothing removed");
}
