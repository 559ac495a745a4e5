//! Browser mode, for real: `bootsmith serve` with the simulator behind it, its `/ui/` page in
//! headless Chromium driven by playwright-core (`ui/e2e/browser.mjs`): the token asked for,
//! the records shown, an ISO uploaded and mapped, images made, a deploy previewed and applied.

mod common;

use std::process::Command;

use common::{sample_iso, seeded, start, token};
use serde_json::Value;

// Multi-threaded: the simulator must keep answering while this thread waits for the server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_browser_page_does_the_install_flow_against_serve() {
    let (dir, sim) = seeded().await;
    let svc = dir.path().join("svc");
    // The ISO is on the operator's machine, not in svc: the page uploads it.
    let iso = dir.path().join("CentOS-7-x86_64-Minimal-1708.iso");
    sample_iso(&iso);
    let tok = token(dir.path());
    let server = start(dir.path(), &["serve"]);
    let shot = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-deploy.png");
    // ui/e2e/layout.mjs's pictures of the Hosts and Power screens at 1024×700 and 1280×900.
    let layout_shots = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("layout");
    std::fs::create_dir_all(&layout_shots).unwrap();
    // Two Redfish BMCs of different vendors, pasted into the page as rows.
    let persona = |p| {
        bootsmith_sim::redfish::RedfishSim::start(bootsmith_sim::redfish::RedfishConfig::new(p))
    };
    let ilo = persona(bootsmith_sim::redfish::Persona::Ilo5)
        .await
        .unwrap();
    let xcc = persona(bootsmith_sim::redfish::Persona::Xcc).await.unwrap();
    // A manager whose certificate nobody trusted: its refusal is the Logs screen's long line.
    let tls = bootsmith_sim::Sim::start_tls(bootsmith_sim::SimConfig::ucsm())
        .await
        .unwrap();
    let tls_manager = tls.address();
    let bmcs = format!(
        "{},admin,password\n{},admin,password",
        ilo.address(),
        xcc.address()
    );

    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/ui/e2e/browser.mjs");
    let out = tokio::task::spawn_blocking({
        let base = server.base.clone();
        let shot = shot.clone();
        let iso = iso.clone();
        let layout_shots = layout_shots.clone();
        move || {
            Command::new("node")
                .arg(script)
                .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/ui"))
                .env("BOOTSMITH_URL", base)
                .env("BOOTSMITH_TOKEN", tok)
                .env("ISO", iso)
                .env("SCREENSHOT", shot)
                .env("LAYOUT_SHOTS", layout_shots)
                .env("REDFISH_BMCS", bmcs)
                .env("UCSM_TLS", tls_manager)
                .env(
                    "KUBAM_YAML",
                    concat!(
                        env!("CARGO_MANIFEST_DIR"),
                        "/crates/api/tests/fixtures/kubam/full/kubam.yaml"
                    ),
                )
                .env(
                    "KUBAM_KEY",
                    concat!(
                        env!("CARGO_MANIFEST_DIR"),
                        "/crates/api/tests/fixtures/kubam/full/.kubam"
                    ),
                )
                .output()
                .expect("node runs (scripts/setup.sh installs what is needed)")
        }
    })
    .await
    .unwrap();
    // The run's own timeline (seconds per stage), for when it is slow.
    eprintln!("{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "the browser run failed");
    let seen: Value = serde_json::from_slice(&out.stdout).unwrap();
    let said = |k: &str| seen[k].as_str().unwrap_or_default().to_owned();

    assert!(
        said("before").contains("this request needs the API token"),
        "without a token the page says why: {seen}"
    );
    assert!(
        said("hosts").contains("kube-master-01") && said("hosts").contains("192.0.2.22"),
        "{seen}"
    );
    assert!(said("groups").contains("1/2, 1/3"), "{seen}");
    // Redfish BMCs pasted as rows: a wrong password is named and nothing is saved; then both
    // BMCs are listed with their vendor and the vendor rules in force.
    assert!(
        said("redfishRefused").contains("refused the credentials"),
        "{seen}"
    );
    let rf = said("redfishInventory");
    assert!(
        rf.contains("HPE") && rf.contains("Lenovo") && rf.contains("lenovo-patch-insert"),
        "{seen}"
    );
    assert!(
        said("fieldError").contains("10.0.0") && !said("fieldError").contains('{'),
        "{seen}"
    );
    assert!(said("networks").contains("lab-oob"), "{seen}");
    assert_eq!(
        said("upload"),
        "/svc/CentOS-7-x86_64-Minimal-1708.iso uploaded into svc and mapped to centos7.4.",
        "{seen}"
    );
    assert_eq!(
        std::fs::read(svc.join("CentOS-7-x86_64-Minimal-1708.iso")).unwrap(),
        std::fs::read(&iso).unwrap(),
        "the upload is the file, byte for byte"
    );
    assert!(said("isos").contains("centos7.4"), "{seen}");
    assert!(
        said("wrongDrop").contains("not esxi6.7"),
        "a drop on the wrong OS says why: {seen}"
    );
    assert!(said("drop").contains("redhat7.4"), "{seen}");
    assert!(
        seen["imageLinks"]
            .as_array()
            .unwrap()
            .contains(&Value::from("/svc/kube-node-01.img")),
        "results link to the served files: {seen}"
    );
    assert!(
        said("images").starts_with("Done: 2 answer images, 1 boot ISO."),
        "{seen}"
    );
    assert!(
        said("plan").starts_with("centos7.4 on pod-east: 16 to create, 0 to modify"),
        "{seen}"
    );
    assert!(
        said("planRows").contains("Host kube-node-01")
            && said("planRows").contains("profile kube-node-01 from template SVC_c74: create"),
        "{seen}"
    );
    // The plan by host and meaning; the class and DN one click away (issue 17).
    assert!(
        !said("planRawHidden").contains("org-root/ls-kube-node-01")
            && said("planRaw").contains("lsServer")
            && said("planRaw").contains("org-root/ls-kube-node-01"),
        "{seen}"
    );
    // Virtual media only asks first, after a preview; the preview alone does not deploy.
    assert!(
        said("vmediaAsk").contains("Write the virtual-media settings of pod-east"),
        "{seen}"
    );
    assert_eq!(seen["deployAfterVmediaPreview"], true, "{seen}");
    assert!(
        said("logs").contains("for pod-east") && !said("logs").contains("Some("),
        "log fields read as words: {seen}"
    );
    assert!(
        said("recentJobs").contains("Deploy (pod-east) succeeded") && said("nextSteps").is_empty(),
        "{seen}"
    );
    assert!(
        said("deploy").contains("16 of 16 objects written")
            && said("deploy").contains("kube-master-01 associated on sys/chassis-1/blade-2"),
        "{seen}"
    );
    assert!(
        said("log").contains("kube-node-01: association done (sys/chassis-1/blade-3)"),
        "the job's events came over SSE: {seen}"
    );
    assert_eq!(said("afterReload"), "ok", "the token stays in the browser");
    assert!(
        said("asked").contains("blade 1/2: power"),
        "the window's own dialog named the server first: {seen}"
    );
    assert!(
        seen["nativeDialog"].is_null(),
        "no webview confirm() or alert(): {seen}"
    );
    assert_eq!(
        said("power"),
        "Hard reset: sent to blade 1/2.",
        "the blade of kube-master-01: {seen}"
    );
    assert_eq!(
        sim.get("org-root/ls-kube-master-01/power")
            .unwrap()
            .get("state"),
        "hard-reset-immediate"
    );
    assert_eq!(
        said("screenAfterReload"),
        "screen-power",
        "and the screen too"
    );
    assert_eq!(
        sim.get("org-root/ls-kube-node-01")
            .unwrap()
            .get("assocState"),
        "associated"
    );
    // KUBAM's files imported from the page: the plan first, then the records.
    assert!(
        said("kubamPlanRows").contains("Lab Pod/2 → Lab Pod-2")
            && said("kubamPlanRows").contains("node_05"),
        "{seen}"
    );
    assert!(said("kubamImport").starts_with("Imported:"), "{seen}");
    assert!(
        said("kubamGroups").contains("pod1") && said("kubamGroups").contains("UCS Central"),
        "{seen}"
    );
    assert!(std::fs::read(&shot).unwrap().starts_with(b"\x89PNG"));
    // At 1024×700 with 200 hosts (ui/e2e/layout.mjs): the page never scrolls sideways or down
    // (only a screen's own box does), Refresh and the power actions are in view, the sheet keeps
    // Name and IP in view scrolled right and while tabbing, its last row takes a click, a row's
    // error reads within the visible sheet; and the lists' search, selection and units.
    let yes = |k: &str| seen[k].as_bool() == Some(true);
    assert_eq!(
        seen["layoutOverflow"].as_object().map(|o| o.len()),
        Some(0),
        "{seen}"
    );
    assert!(seen["layoutHostsRows"].as_u64() >= Some(200), "{seen}");
    for k in [
        "layoutRefreshInView",
        "layoutNameWhenRight",
        "layoutIpWhenRight",
        "layoutRemoveWhenRight",
        "layoutTabbedVisible",
        "layoutNameWhileTabbing",
        "layoutBackTabbedVisible",
        "layoutLastRowReachable",
        "layoutRowErrorInView",
        "layoutFormAboveInventory",
        "layoutPowerActionsInView",
        "layoutColumnsHidden",
    ] {
        assert!(yes(k), "{k}: {seen}");
    }
    assert_eq!(said("layoutLastRowRemoved"), "removed", "{seen}");
    assert!(
        said("layoutRowError").contains("192.0.2.999"),
        "saved by Ctrl+S: {seen}"
    );
    assert_eq!(said("layoutSlashFocus"), "hosts-search", "{seen}");
    assert!(said("layoutHostsSearch").contains(" of "), "{seen}");
    assert!(said("layoutHostsBulk").ends_with("selected"), "{seen}");
    assert!(said("layoutShortcuts").contains("Ctrl+S"), "{seen}");
    assert_eq!(said("layoutAlt2"), "screen-isos", "{seen}");
    assert!(
        said("layoutInventory").contains(" GiB") && !said("layoutInventory").contains(" MB"),
        "{seen}"
    );
    assert!(
        said("layoutDisks").contains("iB"),
        "disk sizes with units: {seen}"
    );
    // What an install-disk hint matches on: the serial and the kind of each disk.
    assert!(
        said("layoutDisks").contains("MICRON MTFDDAK480TDS")
            && said("layoutDisks").contains("SSD")
            && said("layoutDisks").contains("HDD"),
        "disk serials and kinds: {seen}"
    );
    assert!(seen["layoutPageError"].is_null(), "{seen}");
    // Issue 27 (ui/e2e/screens.mjs), at 1024×700 and 1280×900.
    let sc = &seen["screens"];
    let at = |k: &str, size: &str| sc[k][size].clone();
    assert!(
        said("noKeyImages").contains("nobody can log in")
            && said("noKeyImages").contains("kube-node-01")
            && said("noKeyDeploy").contains("nobody can log in"),
        "with no SSH key, images and deploy ask first: {seen}"
    );
    assert_eq!(sc["refusal"], "untrusted_certificate", "{seen}");
    for size in ["1024", "1280"] {
        // Logs: the fingerprint (over 90 characters, one word) wraps; the columns stay on
        // screen and Details is in view; the refusal's code is not broken.
        let logs = at("logs", size);
        assert!(logs["longest"].as_u64() > Some(90), "{seen}");
        assert_eq!(logs["table"]["inside"], true, "logs at {size}: {seen}");
        assert_eq!(logs["table"]["overflowing"], 0, "logs at {size}: {seen}");
        assert_eq!(logs["details"], true, "logs at {size}: {seen}");
        assert_eq!(logs["codeWhole"], true, "logs at {size}: {seen}");
        assert_eq!(
            logs["scroll"],
            serde_json::json!({"x": 0, "y": 0}),
            "{seen}"
        );
        // Settings: each timeout's unit on its input's line.
        let units = at("settings", size);
        assert!(
            units.as_array().is_some_and(|u| u.len() == 4
                && u.iter()
                    .all(|i| i["sameLine"] == true && i["unit"] == "min")),
            "timeouts at {size}: {seen}"
        );
        // Deploy followed to association: the table inside the screen, one line a host, no
        // word broken, a finished FSM reads as done.
        let follow = at("follow", size);
        assert_eq!(follow["table"]["inside"], true, "follow at {size}: {seen}");
        assert_eq!(follow["oneLine"], true, "follow at {size}: {seen}");
        assert_eq!(follow["words"], true, "follow at {size}: {seen}");
        assert!(
            !follow["fsm"].to_string().contains('%'),
            "follow at {size}: {seen}"
        );
    }
    let fsm = seen["followFsm"].as_array().cloned().unwrap_or_default();
    assert!(
        fsm.len() == 2 && fsm.iter().all(|f| f == "done" || f == "…"),
        "a finished FSM reads as done: {seen}"
    );
    let sc_said = |k: &str| sc[k].as_str().unwrap_or_default().to_owned();
    assert!(
        sc_said("svcWarning").contains("127.0.0.1 is this machine's loopback address"),
        "{seen}"
    );
    // Power, every server of the manager: one outside the group keeps its state after the
    // live poll, and the dialog names it.
    assert!(
        ["on", "off"].contains(&sc_said("powerOutside").as_str()),
        "{seen}"
    );
    assert_eq!(
        sc_said("powerAsked"),
        format!("blade 2/1: power {}", sc_said("powerOutside")),
        "{seen}"
    );
    assert!(
        sc_said("planWarnings").contains("will accept no login once installed"),
        "{seen}"
    );
    // The preview names the install disk the plan resolved on each pool server.
    assert!(
        sc_said("planDisks")
            .contains("kube-node-01: install disk 480 GB MICRON MTFDDAK480TDS, S/N MSA121"),
        "{seen}"
    );
    // A server group's install disk is set in its form and kept when the group is edited.
    assert_eq!(sc_said("groupDiskShown"), "MSA11 false", "{seen}");
    assert_eq!(sc_said("groupDiskKept"), "MSA11", "{seen}");
    // And the NICs: these hosts name no MAC, so the first with a link, with the server's NICs.
    assert!(
        sc_said("planNics")
            .contains("kube-node-01: network on the first NIC with a link of server 1/")
            && sc_said("planNics").contains("(the host names no MAC); its NICs: eth0 00:25:b5:"),
        "{seen}"
    );
    assert!(
        sc_said("restartAsked").starts_with("Restart the servers of pod-east")
            && sc_said("restartAsked").contains("kube-master-01: blade 1/"),
        "restart asks in the Power screen's dialog, naming the servers: {seen}"
    );
    assert_eq!(sc["jobsAfterCancel"], 0, "cancelled, nothing runs: {seen}");
    assert!(
        sc_said("followDetails").contains("Association done: sys/chassis-1/blade-"),
        "{seen}"
    );
    // Networks: a subnet without a netmask is enough; a network in use says so, no question.
    assert_eq!(sc_said("subnetOnly"), "Network lab-sub created.", "{seen}");
    assert!(
        sc_said("subnetNetmask").contains("198.51.100.0/24"),
        "{seen}"
    );
    assert_eq!(sc["inUseAsked"], false, "{seen}");
    assert!(
        sc_said("inUse")
            .starts_with("Network lab-mgmt is in use by 2 hosts kube-master-01, kube-node-01"),
        "{seen}"
    );
    // Adding a manager: a wrong password is said at the password field; the certificate
    // trusted before stays trusted, so the corrected form saves; its servers are in view.
    assert!(
        sc_said("passwordError").contains("failed")
            && sc_said("passwordError").contains("Check the user and this password"),
        "{seen}"
    );
    assert_eq!(sc["untrustedAgain"], false, "{seen}");
    assert_eq!(
        sc_said("afterFix"),
        "Server group tls-pod created: login works.",
        "{seen}"
    );
    assert_eq!(sc["inventoryInView"], true, "{seen}");
    assert!(sc["pageError"].is_null(), "{seen}");
    for name in [
        "hosts-1024x700",
        "power-1024x700",
        "hosts-1280x900",
        "power-1280x900",
    ] {
        let png = std::fs::read(layout_shots.join(format!("{name}.png"))).unwrap();
        assert!(png.starts_with(b"\x89PNG"), "{name}");
    }
    server.stop();
}

/// A deploy followed to "installed" in which one host's install fails, watched in the page
/// (`ui/e2e/failures.mjs`): the Overview keeps up by itself and ends the job as "finished with
/// failures", warning of the failed install; the Deploy screen lists the failed host first, in
/// red, with its next actions; the installed host's spent media read as used, never as stale.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_install_stands_out_in_the_page() {
    let (dir, _sim) = seeded().await;
    let svc = dir.path().join("svc");
    std::fs::create_dir_all(&svc).unwrap();
    sample_iso(&svc.join("CentOS-7-x86_64-Minimal-1708.iso"));
    let tok = token(dir.path());
    let server = start(dir.path(), &["serve"]);
    let http = reqwest::Client::new();
    let call = |method: reqwest::Method, path: &str, body: Option<Value>| {
        let mut r = http
            .request(method, format!("{}{path}", server.base))
            .bearer_auth(&tok);
        if let Some(b) = body {
            r = r.json(&b);
        }
        let path = path.to_owned();
        async move {
            let r = r.send().await.unwrap();
            let status = r.status();
            let body: Value = r.json().await.unwrap_or(Value::Null);
            assert!(status.is_success(), "{path}: {status} {body}");
            body
        }
    };
    let map = serde_json::json!({"iso_map": [{"file": "/svc/CentOS-7-x86_64-Minimal-1708.iso", "os": "centos7.4"}]});
    call(reqwest::Method::POST, "/api/v1/isos/map", Some(map)).await;
    call(reqwest::Method::POST, "/api/v2/deploy/images", None).await;
    let accepted = call(
        reqwest::Method::POST,
        "/api/v2/servers/pod-east/deploy?until=installed&wait=false",
        None,
    )
    .await;
    let job = accepted["job"].as_str().unwrap().to_owned();

    let shot = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-failed-install.png");
    let small =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-failed-install-1024.png");
    let seen = e2e(
        "failures.mjs",
        &[
            ("BOOTSMITH_URL", server.base.clone()),
            ("BOOTSMITH_TOKEN", tok.clone()),
            ("FAILING", "kube-node-01".into()),
            ("SUCCEEDING", "kube-master-01".into()),
            ("SCREENSHOT", shot.display().to_string()),
            ("SCREENSHOT_SMALL", small.display().to_string()),
        ],
    )
    .await;
    let said = |k: &str| seen[k].as_str().unwrap_or_default().to_owned();

    let done = call(reqwest::Method::GET, &format!("/api/v2/jobs/{job}"), None).await;
    assert_eq!(done["state"], "finished_with_failures", "{done}");
    assert_eq!(
        done["result"]["outcomes"],
        serde_json::json!({"installed": 1, "failed": 1}),
        "{done}"
    );
    assert!(
        said("jobWhileRunning").contains("Deploy (pod-east) running"),
        "{seen}"
    );
    assert!(
        said("jobAfter").contains("Deploy (pod-east) finished with failures")
            && said("jobClass").contains("finished_with_failures"),
        "the Overview kept up by itself: {seen}"
    );
    assert!(
        said("warnings").contains("The install of kube-node-01 failed"),
        "{seen}"
    );
    assert!(
        said("firstRow").starts_with("kube-node-01") && said("firstRow").contains("no disk found"),
        "the failed host first: {seen}"
    );
    assert!(said("firstRowClass").contains("failed"), "{seen}");
    assert_eq!(said("firstRowColor"), "rgb(181, 43, 39)", "in red: {seen}");
    let actions = seen["firstRowActions"].to_string();
    assert!(
        actions.contains("Timeline") && actions.contains("Rebuild images"),
        "its next actions: {seen}"
    );
    assert!(
        said("succeededRow").contains("used by the install of")
            && !seen["badges"].to_string().contains("media stale"),
        "spent media are no alarm: {seen}"
    );
    // The failed host shows the end of the log its installer sent last (20 lines), and its
    // timeline links every log it sent, each opening as text.
    let why = said("why");
    assert!(
        said("whyTitle").contains("anaconda.log")
            && why
                .trim_end()
                .ends_with("ERROR anaconda: no usable disks have been found")
            && why.lines().count() == 20
            && !why.contains("step 20\n"),
        "{seen}"
    );
    assert_eq!(
        seen["logLinks"],
        serde_json::json!(["program.log", "anaconda.log"]),
        "{seen}"
    );
    assert_eq!(
        said("opened").trim_end(),
        "program: nothing to see",
        "{seen}"
    );
    assert_eq!(
        seen["sideways"], false,
        "no sideways scroll at 1024x700: {seen}"
    );
    for png in [&shot, &small] {
        assert!(std::fs::read(png).unwrap().starts_with(b"\x89PNG"));
    }
    server.stop();
}

/// Where the browser checks put their pictures of the window (made here when missing).
fn layout_shots() -> std::path::PathBuf {
    let shots = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("layout");
    std::fs::create_dir_all(&shots).unwrap();
    shots
}

/// [`e2e`] against `base` with the token, its screenshots in [`layout_shots`].
async fn e2e_with_shots(script: &str, base: &str, token: String) -> Value {
    let shots = layout_shots();
    e2e(
        script,
        &[
            ("BOOTSMITH_URL", base.to_owned()),
            ("BOOTSMITH_TOKEN", token),
            ("LAYOUT_SHOTS", shots.display().to_string()),
        ],
    )
    .await
}

/// Run `ui/e2e/<script>` with node and `env`, and read the JSON it prints of what the page
/// showed; its timeline (stderr) is shown, and a failed run fails the test.
async fn e2e(script: &str, env: &[(&str, String)]) -> Value {
    let script = format!("{}/ui/e2e/{script}", env!("CARGO_MANIFEST_DIR"));
    let env: Vec<(String, String)> = env
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect();
    let out = tokio::task::spawn_blocking(move || {
        Command::new("node")
            .arg(&script)
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/ui"))
            .envs(env)
            .output()
            .expect("node runs (scripts/setup.sh installs what is needed)")
    })
    .await
    .unwrap();
    eprintln!("{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "the browser run failed");
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The host's network as records in the window (`ui/e2e/netrecords.mjs`, which checks what it
/// sees and fails naming it; issue 29): the Networks screen edits the MTU, the bond (its options
/// only where the mode takes them), routes (a refused router under its row) and the IPv6
/// gateway; the Hosts sheet takes MACs and IPv6, marks a NIC given to two hosts, and reads
/// them back as stored; it picks a host's install disk and NIC from its server's inventory.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_networks_screen_and_hosts_sheet_take_the_hosts_network() {
    let (dir, _sim) = seeded().await;
    let tok = token(dir.path());
    let server = start(dir.path(), &["serve"]);
    // Pictures of the inventory pick at 1280×900 and 1024×700, beside layout.mjs's.
    let seen = e2e_with_shots("netrecords.mjs", &server.base, tok).await;
    assert_eq!(
        seen["stored"],
        serde_json::json!({"mtu": 9000,
            "bond": {"mode": "802.3ad", "lacp_rate": "fast", "xmit_hash_policy": "layer3+4"},
            "routes": [{"to": "10.0.0.0/8", "via": "192.0.2.254"},
                       {"to": "172.16.0.0/12", "via": "192.0.2.253"}],
            "ipv6_gateway": "fe80::1"}),
        "{seen}"
    );
    assert_eq!(
        seen["macsRead"], "aa:bb:cc:00:00:01, aa:bb:cc:00:00:02",
        "{seen}"
    );
    // Picked from blade 1/2's inventory: the disk by its serial alone, the ticked NIC's MAC.
    let stored = &seen["pickedStored"];
    assert_eq!(stored["server"], "1/2", "{seen}");
    assert_eq!(
        stored["install_disk"]
            .as_object()
            .map(|o| o.keys().collect::<Vec<_>>()),
        Some(vec![&"serial".to_owned()]),
        "{seen}"
    );
    assert_eq!(stored["macs"].as_array().map(Vec::len), Some(1), "{seen}");
    server.stop();
}

/// Template parameters in the window (`ui/e2e/params.mjs`, which checks what it sees and fails
/// naming it; issue 30): the defaults on Settings, a network group's on Networks, a host's (a
/// secret among them) on the Hosts sheet, kept masked through another save, and the answer
/// preview naming where each came from; screenshots at 1280×900 and 1024×700.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn template_parameters_are_edited_per_record_and_the_preview_says_where_each_came_from() {
    let (dir, _sim) = seeded().await;
    let tok = token(dir.path());
    let server = start(dir.path(), &["serve"]);
    let seen = e2e_with_shots("params.mjs", &server.base, tok).await;
    assert_eq!(
        seen["hostParams"],
        serde_json::json!({"repo_password": {"value": "********", "secret": true}, "timezone": "Asia/Tokyo"}),
        "{seen}"
    );
    // CentOS 7's kickstart names its NTP server on the same line.
    assert_eq!(
        seen["zoneLine"], "timezone Asia/Tokyo --utc --ntpservers=192.0.2.123",
        "{seen}"
    );
    // The secret went in encrypted: no file of the data dir holds it.
    let mut stack = vec![dir.path().to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            if e.path().is_dir() {
                stack.push(e.path());
            } else if let Ok(bytes) = std::fs::read(e.path()) {
                assert!(
                    !bytes.windows(19).any(|w| w == b"s3cret-for-the-repo"),
                    "{} holds the secret",
                    e.path().display()
                );
            }
        }
    }
    server.stop();
}

/// The Hosts sheet in an operator's day (`ui/e2e/hostsheet.mjs`, which checks what it sees and
/// fails naming it): edits kept across screens and marked unsaved, every problem of a save at
/// once, addresses for pasted rows and ranges, a new row like the one above, the install status
/// in view at 1280×900 and 1024×700.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_hosts_sheet_keeps_edits_and_names_every_problem() {
    let (dir, _sim) = seeded().await;
    let tok = token(dir.path());
    let server = start(dir.path(), &["serve"]);
    let seen = e2e(
        "hostsheet.mjs",
        &[
            ("BOOTSMITH_URL", server.base.clone()),
            ("BOOTSMITH_TOKEN", tok),
        ],
    )
    .await;
    assert_eq!(seen["leaveAsks"], true, "{seen}");
    assert_eq!(
        seen["pastedIps"],
        serde_json::json!(["198.51.100.2", "198.51.100.3"]),
        "{seen}"
    );
    server.stop();
}

/// Settings → Catalog in a browser (`ui/e2e/packs.mjs`, which checks what it sees and fails
/// naming it; issue 30): a pack that breaks a rule is refused with the reason, the example
/// pack of docs/packs is added and its entry shown with its source and end of life, offered at
/// once on the Hosts sheet, then removed; pictures at 1280×900 and 1024×700.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_settings_catalog_adds_a_pack_and_shows_its_entry() {
    let (dir, _sim) = seeded().await;
    let server = start(dir.path(), &["serve"]);
    let shots = layout_shots();
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/packs/rocky10.1.json");
    let env = [
        ("BOOTSMITH_URL", server.base.clone()),
        ("BOOTSMITH_TOKEN", token(dir.path())),
        ("PACK", example.to_owned()),
        ("LAYOUT_SHOTS", shots.display().to_string()),
    ];
    let seen = e2e("packs.mjs", &env).await;
    assert!(
        seen["entryRow"]
            .as_str()
            .is_some_and(|r| r.contains("pack site-os 3")),
        "{seen}"
    );
    assert!(
        !dir.path().join("svc/catalog.d/site-os.json").exists(),
        "the removed pack's file is gone"
    );
    for size in ["1280x900", "1024x700"] {
        let png = std::fs::read(shots.join(format!("settings-catalog-{size}.png"))).unwrap();
        assert!(png.starts_with(b"\x89PNG"));
    }
    server.stop();
}
