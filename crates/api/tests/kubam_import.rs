//! Moving over from KUBAM: `POST /api/v2/import/kubam` with kubam.yaml files in KUBAM's own
//! shapes (tests/fixtures/kubam, made with Python's cryptography Fernet as KUBAM made them).

mod common;

use bootsmith_sim::{Sim, SimConfig};
use common::*;
use reqwest::StatusCode;
use serde_json::{json, Value};

fn fixture(path: &str) -> String {
    let full = format!("{}/tests/fixtures/kubam/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

fn body(yaml: &str, key: Option<&str>) -> Value {
    match key {
        Some(k) => json!({"yaml": yaml, "key": k}),
        None => json!({"yaml": yaml}),
    }
}

/// The plan entry of `kind` named `name`.
fn entry<'a>(report: &'a Value, kind: &str, name: &str) -> &'a Value {
    report["records"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["kind"] == kind && r["name"] == name)
        .unwrap_or_else(|| panic!("no {kind} {name} in {report:#}"))
}

fn notes(item: &Value) -> String {
    item["notes"].to_string()
}

/// Every record the API lists, to compare before and after.
async fn everything(s: &Server) -> Vec<Value> {
    let mut all = Vec::new();
    for p in [
        "/api/v1/ip",
        "/api/v1/keys",
        "/api/v1/proxy",
        "/api/v1/org",
        "/api/v1/isos/map",
        "/api/v2/servers",
        "/api/v2/networks",
        "/api/v2/aci",
        "/api/v2/hosts",
    ] {
        all.push(s.get(p).await.1);
    }
    all
}

#[tokio::test]
async fn everything_kubam_kept_is_imported_and_the_passwords_decrypted() {
    let s = Server::start().await;
    centos_iso(&s.svc(), "CentOS-7-x86_64-Minimal-1708.iso");
    let yaml = fixture("full/kubam.yaml");
    let key = fixture("full/.kubam");
    let (status, report) = s
        .post("/api/v2/import/kubam", body(&yaml, Some(&key)))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{report:#}");
    assert_eq!(report["written"], true);
    assert_eq!(report["dry_run"], false);
    // 3 settings, 2 keys, 1 mapping, 4 groups (one renamed), 2 networks, 1 ACI, 4 hosts;
    // skipped: the missing ISO and the host named node_05.
    assert_eq!(
        report["summary"],
        json!({"create": 16, "rename": 1, "unchanged": 0, "skip": 2, "conflict": 0}),
        "{report:#}"
    );

    // Settings.
    assert_eq!(s.get("/api/v1/ip").await.1["svc_ip"], "192.0.2.10");
    assert_eq!(
        s.get("/api/v1/proxy").await.1["proxy"],
        "http://proxy.lab.example:3128"
    );
    assert_eq!(s.get("/api/v1/org").await.1["org"], "org-root/org-lab");
    assert_eq!(
        s.get("/api/v1/keys").await.1["keys"],
        json!([KEY_A.replace("alice@lab", "ops@lab"), KEY_B]),
        "keys PyYAML folded over two lines read back whole"
    );

    // ISOs: /kubam/ is svc; the one not copied over is listed as missing.
    assert_eq!(
        s.get("/api/v1/isos/map").await.1["iso_map"],
        json!([{"file": "/svc/CentOS-7-x86_64-Minimal-1708.iso", "os": "centos7.4"}])
    );
    assert_eq!(
        report["missing_isos"],
        json!(["/kubam/Vmware-ESXi-6.5.0-4564106-Custom-Cisco-6.5.0.2.iso"])
    );
    let esx = entry(&report, "iso_map", "esxi6.5");
    assert_eq!(esx["action"], "skip");
    assert!(
        esx["reason"].as_str().unwrap().contains("is not in svc"),
        "{esx}"
    );

    // Server groups: every shape of selection, the renamed one, ucsc kept; passwords stored
    // with Bootsmith's encryption and decrypting to what KUBAM was given.
    let groups = s.get("/api/v2/servers").await.1["servers"].clone();
    let by_name = |n: &str| {
        groups
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["name"] == n)
            .unwrap_or_else(|| panic!("no group {n} in {groups:#}"))
            .clone()
    };
    let pod1 = by_name("pod1");
    assert_eq!(pod1["type"], "ucsm");
    assert_eq!(pod1["org"], "org-root/org-lab");
    assert_eq!(pod1["description"], "Lab pod 1");
    assert_eq!(
        pod1["server_pool"],
        json!({"blades": ["1/1", "1/2"], "rack_servers": ["1"]})
    );
    assert!(pod1["credentials"]["password"]
        .as_str()
        .unwrap()
        .starts_with("enc:v1:"));
    assert_eq!(pod1["password_missing"], false);
    let kubam_id = yaml
        .lines()
        .skip_while(|l| !l.contains("description: Lab pod 1"))
        .find_map(|l| l.trim().strip_prefix("id: "))
        .unwrap();
    assert_eq!(pod1["id"], kubam_id, "KUBAM's id is kept for its clients");
    let pod2 = by_name("Lab Pod-2");
    assert_eq!(
        pod2["server_pool"],
        json!({"blades": ["1/2"], "rack_servers": ["3"]}),
        "the UI's list of server objects: the selected ones"
    );
    assert_eq!(pod2["vlan"], "default");
    let renamed = entry(&report, "server_group", "Lab Pod/2");
    assert_eq!(renamed["action"], "rename");
    assert_eq!(renamed["new_name"], "Lab Pod-2");
    assert_eq!(by_name("imc01")["type"], "imc");
    assert_eq!(by_name("central")["type"], "ucsc");
    assert!(!notes(entry(&report, "server_group", "central")).contains("not yet supported"));
    assert!(notes(entry(&report, "server_group", "central")).contains("sp_template"));
    for (group, password) in [
        ("pod1", "password"),
        ("Lab Pod-2", "C1sco12345"),
        ("imc01", "imc-Secret-9"),
        ("central", "central-Secret-7"),
    ] {
        assert_eq!(stored_password(&s, group).await, password, "{group}");
    }

    // Networks and ACI.
    let nets = s.get("/api/v2/networks").await.1["networks"].clone();
    assert_eq!(nets.as_array().unwrap().len(), 2);
    assert_eq!(nets[0]["name"], "mgmt");
    assert_eq!(nets[0]["vlan"], "30");
    assert!(notes(entry(&report, "network_group", "storage")).contains("aci_group"));
    let aci = s.get("/api/v2/aci").await.1["aci"].clone();
    assert_eq!(aci[0]["name"], "aci01");
    assert_eq!(aci[0]["password_missing"], false);
    let aci_list = bootsmith_core::records::aci::list(&s.app).await.unwrap();
    assert_eq!(
        s.app
            .cipher()
            .decrypt(&aci_list[0].credentials.password)
            .unwrap()
            .expose(),
        "aci-Secret-3"
    );

    // Hosts: the renamed group followed; the custom template reported; node_05 never renamed.
    let hosts = s.get("/api/v2/hosts").await.1["hosts"].clone();
    let names: Vec<&str> = field_of_each(&hosts, "name");
    assert_eq!(names, ["kube01", "kube02", "esx01", "win01"]);
    assert_eq!(hosts[1]["server"], "1/2");
    assert_eq!(hosts[2]["server_group"], "Lab Pod-2");
    assert_eq!(
        hosts[2]["service_profile_template"],
        "org-root/org-lab/ls-esx-tmpl"
    );
    let node05 = entry(&report, "host", "node_05");
    assert_eq!(node05["action"], "skip");
    assert!(
        node05["reason"]
            .as_str()
            .unwrap()
            .contains("the import never renames a host"),
        "{node05}"
    );
    assert_eq!(
        report["custom_templates"],
        json!([{"host": "win01", "template": "/kubam/win2016-custom.tmpl"}])
    );
    assert!(notes(entry(&report, "host", "win01")).contains("svc/<os>.tmpl"));

    // No password and no key in the answer.
    let text = report.to_string();
    for secret in [
        "C1sco12345",
        "imc-Secret-9",
        "central-Secret-7",
        "aci-Secret-3",
        key.trim(),
        "gAAAAA",
    ] {
        assert!(!text.contains(secret), "{secret} in the report");
    }
}

#[tokio::test]
async fn the_decrypted_password_logs_in_to_the_manager() {
    let s = Server::start().await;
    let sim = Sim::start(SimConfig::ucsm()).await.unwrap();
    let yaml = fixture("full/kubam.yaml").replace("192.0.2.20", &sim.address());
    let r = s
        .post(
            "/api/v2/import/kubam",
            body(&yaml, Some(&fixture("full/.kubam"))),
        )
        .await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    // The inventory needs a login with the stored password: the simulator's "password".
    let (status, inv) = s.get("/api/v2/servers/pod1/servers").await;
    assert_eq!(status, StatusCode::OK, "{inv}");
    let selected: Vec<&str> = inv["servers"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["selected"] == true)
        .map(|x| x["id"].as_str().unwrap())
        .collect();
    assert_eq!(selected, ["1/1", "1/2", "1"]);
}

#[tokio::test]
async fn a_file_written_by_kubams_put_imports_its_clear_passwords() {
    let s = Server::start().await;
    let sim = Sim::start(SimConfig::ucsm()).await.unwrap();
    let yaml = fixture("put/kubam.yaml").replace("192.0.2.20", &sim.address());
    let (status, report) = s.post("/api/v2/import/kubam", body(&yaml, None)).await;
    assert_eq!(status, StatusCode::CREATED, "{report:#}");
    assert!(notes(entry(&report, "server_group", "pod1")).contains("in clear"));
    assert_eq!(stored_password(&s, "pod1").await, "password");
    assert_eq!(
        s.get("/api/v2/servers/pod1/templates").await.0,
        StatusCode::OK
    );
    let aci = bootsmith_core::records::aci::list(&s.app).await.unwrap();
    assert_eq!(
        s.app
            .cipher()
            .decrypt(&aci[0].credentials.password)
            .unwrap()
            .expose(),
        "aci-clear-1"
    );
    assert!(!report.to_string().contains("aci-clear-1"));
}

#[tokio::test]
async fn without_the_key_file_groups_wait_for_their_password() {
    let s = Server::start().await;
    let (status, report) = s
        .post(
            "/api/v2/import/kubam",
            body(&fixture("full/kubam.yaml"), None),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{report:#}");
    assert!(notes(entry(&report, "server_group", "pod1")).contains("no key file"));
    let groups = s.get("/api/v2/servers").await.1["servers"].clone();
    assert!(groups
        .as_array()
        .unwrap()
        .iter()
        .all(|g| g["password_missing"] == true));
    assert_eq!(
        s.get("/api/v2/aci").await.1["aci"][0]["password_missing"],
        true
    );
    // Using the group says what to do, naming it; it is not a login failure.
    let r = s.get("/api/v2/servers/pod1/servers").await;
    assert_error(&r, 422, "password_missing");
    assert!(r.1["error"].as_str().unwrap().contains("'pod1'"), "{}", r.1);
    let r = s
        .call(reqwest::Method::PUT, "/api/v2/servers/pod1/power/on", None)
        .await;
    assert_error(&r, 422, "password_missing");
    let overview = s.get("/api/v2/overview").await.1;
    assert!(
        overview["warnings"]
            .to_string()
            .contains("pod1 has no password"),
        "{overview}"
    );
    // An update without a password still cannot check the login, and says why.
    let pod1 = groups
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == "pod1")
        .unwrap()
        .clone();
    let mut upd = json!({"id": pod1["id"], "name": "pod1", "type": "ucsm",
        "credentials": {"ip": "192.0.2.20", "user": "admin", "password": ""}});
    assert_error(
        &s.put("/api/v2/servers", upd.clone()).await,
        422,
        "password_missing",
    );
    // Entering it ends the wait.
    upd["credentials"]["password"] = json!("password");
    upd["check_login"] = json!(false);
    let r = s.put("/api/v2/servers", upd).await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    assert_eq!(r.1["password_missing"], false);
    assert_eq!(stored_password(&s, "pod1").await, "password");
}

#[tokio::test]
async fn a_key_file_that_does_not_decrypt_the_passwords_is_refused_naming_them() {
    let s = Server::start().await;
    let before = everything(&s).await;
    let r = s
        .post(
            "/api/v2/import/kubam",
            body(
                &fixture("full/kubam.yaml"),
                Some(&fixture("full/wrong.kubam")),
            ),
        )
        .await;
    assert_error(&r, 400, "kubam_key_mismatch");
    let msg = r.1["error"].as_str().unwrap();
    for name in ["'pod1'", "'Lab Pod/2'", "'imc01'", "'central'", "'aci01'"] {
        assert!(msg.contains(name), "{name} not named: {msg}");
    }
    assert_eq!(r.1["details"].as_array().unwrap().len(), 5);
    assert_eq!(everything(&s).await, before, "nothing written");
    // A key file that is no key at all, and never echoed.
    let r = s
        .post(
            "/api/v2/import/kubam",
            body(&fixture("full/kubam.yaml"), Some("secret-but-not-a-key")),
        )
        .await;
    assert_error(&r, 400, "invalid_kubam_key");
    assert!(!r.1.to_string().contains("secret-but-not-a-key"));
    assert_eq!(everything(&s).await, before, "nothing written");
}

#[tokio::test]
async fn hosts_whose_groups_are_missing_are_skipped_with_the_reason() {
    let s = Server::start().await;
    let mut existing = group("existing", "pw");
    existing["server_pool"] = json!({});
    assert_eq!(
        s.post("/api/v2/servers", existing).await.0,
        StatusCode::CREATED
    );
    let (status, report) = s
        .post(
            "/api/v2/import/kubam",
            body(&fixture("missing-groups/kubam.yaml"), None),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{report:#}");
    let reason = |name: &str| {
        let e = entry(&report, "host", name);
        assert_eq!(e["action"], "skip", "{e}");
        e["reason"].as_str().unwrap().to_owned()
    };
    assert!(
        reason("lost01").contains("no network group named 'nowhere', in the file or in Bootsmith"),
        "{report:#}"
    );
    assert!(reason("lost02").contains("no server group named 'pod9', in the file or in Bootsmith"));
    assert!(reason("lost03").contains("'broken' is in the file but"));
    assert!(reason("bad.name").contains("the import never renames a host"));
    assert!(reason("old01").contains("'centos7.8' is not an OS of the catalog"));
    let broken = entry(&report, "server_group", "broken");
    assert_eq!(broken["action"], "skip");
    assert!(broken["reason"]
        .as_str()
        .unwrap()
        .contains("credentials.ip"));
    let joined = entry(&report, "host", "joins01");
    assert_eq!(joined["action"], "create");
    assert!(notes(joined).contains("joins the existing server group 'existing'"));
    let hosts = s.get("/api/v2/hosts").await.1["hosts"].clone();
    assert_eq!(hosts.as_array().unwrap().len(), 1);
    assert_eq!(hosts[0]["server_group"], "existing");
}

#[tokio::test]
async fn bad_yaml_and_shapes_kubam_never_wrote_are_400s_naming_line_and_key() {
    let s = Server::start().await;
    let before = everything(&s).await;
    let r = s
        .post(
            "/api/v2/import/kubam",
            body(&fixture("bad/kubam.yaml"), None),
        )
        .await;
    assert_error(&r, 400, "invalid_kubam_yaml");
    assert!(r.1["error"].as_str().unwrap().contains("line 5"), "{}", r.1);

    let r = s
        .post(
            "/api/v2/import/kubam",
            body(&fixture("shape/kubam.yaml"), None),
        )
        .await;
    assert_error(&r, 400, "invalid_kubam_file");
    let details: Vec<(String, String)> = r.1["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["field"].as_str().unwrap().to_owned(),
                d["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(details.len(), 3, "{details:#?}");
    assert_eq!(details[0].0, "server_groups");
    assert!(
        details[0].1.starts_with("line 3: expected a list"),
        "{details:#?}"
    );
    assert_eq!(details[1].0, "network_groups[0].netmask");
    assert!(details[1].1.starts_with("line 7:"), "{details:#?}");
    assert_eq!(details[2].0, "kubam_version");
    assert!(details[2].1.starts_with("line 8:"), "{details:#?}");

    for bad in [
        json!({}),
        json!({"yaml": ""}),
        json!({"yaml": "- a list\n"}),
    ] {
        let r = s.post("/api/v2/import/kubam", bad).await;
        assert_eq!(r.0, StatusCode::BAD_REQUEST, "{}", r.1);
    }
    assert_eq!(everything(&s).await, before, "nothing written");
}

#[tokio::test]
async fn a_dry_run_answers_the_plan_and_writes_nothing() {
    let s = Server::start().await;
    let before = everything(&s).await;
    let yaml = fixture("full/kubam.yaml");
    let key = fixture("full/.kubam");
    let (status, plan) = s
        .post("/api/v2/import/kubam?dry_run=true", body(&yaml, Some(&key)))
        .await;
    assert_eq!(status, StatusCode::OK, "{plan:#}");
    assert_eq!(
        (plan["dry_run"].clone(), plan["written"].clone()),
        (json!(true), json!(false))
    );
    assert_eq!(plan["summary"]["create"], 15, "{plan:#}");
    assert_eq!(everything(&s).await, before, "a dry run writes nothing");
    // The import then does exactly what the plan said.
    let (status, done) = s
        .post("/api/v2/import/kubam", body(&yaml, Some(&key)))
        .await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(done["records"], plan["records"]);
    // A second dry run finds every record there already.
    let (_, again) = s
        .post("/api/v2/import/kubam?dry_run=true", body(&yaml, Some(&key)))
        .await;
    assert_eq!(again["summary"]["create"], 0, "{again:#}");
    assert_eq!(
        again["summary"]["conflict"], 11,
        "groups and hosts: {again:#}"
    );
    assert_eq!(
        again["summary"]["unchanged"], 5,
        "settings and keys: {again:#}"
    );
}

#[tokio::test]
async fn names_bootsmith_has_already_are_conflicts_never_overwritten() {
    let s = Server::start().await;
    let mut pod1 = group("pod1", "mine");
    pod1["install_disk"] = json!({"size_gb": {"min": 200}});
    assert_eq!(s.post("/api/v2/servers", pod1).await.0, StatusCode::CREATED);
    assert_eq!(
        s.post("/api/v2/networks", network("lab")).await.0,
        StatusCode::CREATED
    );
    let mut kube01 = host("kube01", "10.1.0.21", "centos7.4", "lab");
    kube01["server_group"] = json!("pod1");
    kube01["install_disk"] = json!({"serial": "21033A4E"});
    assert_eq!(
        s.post("/api/v2/hosts", json!([kube01])).await.0,
        StatusCode::CREATED
    );
    assert_eq!(
        s.post("/api/v1/ip", json!({"svc_ip": "192.0.2.99"}))
            .await
            .0,
        StatusCode::OK
    );
    let before = everything(&s).await;
    let yaml = fixture("full/kubam.yaml");
    let key = fixture("full/.kubam");

    let r = s
        .post("/api/v2/import/kubam", body(&yaml, Some(&key)))
        .await;
    assert_error(&r, 409, "kubam_conflicts");
    let fields: Vec<&str> = field_of_each(&r.1["details"], "field");
    assert_eq!(fields, ["svc_ip", "server_groups[0].name", "hosts[0].name"]);
    assert_eq!(everything(&s).await, before, "nothing written");

    let (status, plan) = s
        .post("/api/v2/import/kubam?dry_run=true", body(&yaml, Some(&key)))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(plan["summary"]["conflict"], 3, "{plan:#}");
    assert_eq!(entry(&plan, "server_group", "pod1")["action"], "conflict");

    let (status, done) = s
        .post(
            "/api/v2/import/kubam?skip_existing=true",
            body(&yaml, Some(&key)),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{done:#}");
    let kept = entry(&done, "server_group", "pod1");
    assert_eq!(kept["action"], "skip");
    assert!(kept["reason"].as_str().unwrap().contains("kept"), "{kept}");
    assert_eq!(
        stored_password(&s, "pod1").await,
        "mine",
        "never overwritten"
    );
    assert_eq!(s.get("/api/v1/ip").await.1["svc_ip"], "192.0.2.99");
    let kube02 = entry(&done, "host", "kube02");
    assert_eq!(kube02["action"], "create");
    assert!(
        notes(kube02).contains("joins the existing server group 'pod1'"),
        "{kube02}"
    );
    let hosts = s.get("/api/v2/hosts").await.1["hosts"].clone();
    assert_eq!(hosts[0]["ip"], "10.1.0.21", "the stored kube01 stays");
    assert_eq!(hosts[0]["install_disk"], json!({"serial": "21033A4E"}));
    assert_eq!(hosts[1]["name"], "kube02");
    assert_eq!(hosts[1]["server_group"], "pod1");
    assert!(
        hosts[1].get("install_disk").is_none(),
        "KUBAM names no disk"
    );
    assert_eq!(
        s.get("/api/v2/servers/pod1").await.1["install_disk"],
        json!({"size_gb": {"min": 200}}),
        "the kept group keeps its hint"
    );
}
