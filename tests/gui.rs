//! The desktop window, driven for real: WebKitWebDriver starts the app in a
//! WebKitGTK window (on the display `make test` provides with xvfb-run) and we
//! read what the page shows. Records are seeded through the core beforehand.

use std::time::Duration;

use serde_json::{json, Value};

mod common;
mod webdriver;

use common::{sample_iso, BIN};
use webdriver::Driver;

/// A started app window and its WebDriver session.
/// A UCS Central from the window: a `ucsc` group added and checked, its inventory shown and
/// filtered by domain, servers picked from two domains, and a deploy across them followed
/// to association.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_operator_deploys_across_the_domains_of_a_ucs_central() {
    let dir = tempfile::tempdir().unwrap();
    let (data, svc) = (dir.path().join("data"), dir.path().join("svc"));
    let sim = bootsmith_sim::Sim::start(bootsmith_sim::SimConfig {
        effect_delay: Duration::from_millis(500),
        ..bootsmith_sim::SimConfig::ucsc(2)
    })
    .await
    .unwrap();
    let w = Window::open(&data, &svc).await;
    let ok = w
        .invoke(
            "settings_set_svc_ip",
            // The window listens on 127.0.0.1: the servers' media URLs must reach it.
            json!({"address": {"svc_ip": "127.0.0.1"}}),
        )
        .await;
    // Saved, with what it means for real servers (loopback reaches only this machine).
    assert_eq!(ok["svc_ip"], "127.0.0.1", "{ok}");
    assert!(
        ok["warnings"][0]
            .as_str()
            .is_some_and(|w| w.contains("loopback")),
        "{ok}"
    );
    let net = json!({"name": "mgmt", "netmask": "24", "gateway": "192.0.2.1",
        "nameserver": "192.0.2.53", "ntpserver": "192.0.2.123"});
    let made = w.invoke("networks_create", json!({"network": net})).await;
    assert_eq!(made["name"], "mgmt", "{made}");

    w.nav("server-groups").await;
    w.fill_form(
        "group",
        &[
            ("name", "central"),
            ("type", "ucsc"),
            ("ip", &sim.address()),
            ("user", "admin"),
            ("password", "password"),
        ],
    )
    .await;
    w.click("#group-save").await;
    w.wait_for("#group-detail-status", "Login works: 18 servers", 20)
        .await;
    // The window opens at 1000×640, smaller than a 1024×700 screen: the new group's servers,
    // below the form, are brought into view (its heading at the top, its list begun).
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let at = w
        .driver
        .execute(
            &w.sid,
            "const h = document.querySelector('#group-servers').getBoundingClientRect(); \
             const t = document.querySelector('#inventory').getBoundingClientRect(); \
             return [h.top, t.top, window.innerHeight]",
        )
        .await;
    let [heading, list, height] = [0, 1, 2].map(|i| at[i].as_f64().unwrap_or(-1.0));
    assert!(
        heading >= 0.0 && heading < height / 3.0 && list < height - 60.0,
        "the new group's servers are out of view: {at}"
    );
    // Every server shows its domain; the list can show one domain.
    let all = w.text("#inventory tbody").await;
    assert!(
        all.contains("blade 1001/1/2") && all.contains("ucs-1002") && all.contains("rack 1002/1"),
        "{all}"
    );
    w.fill("#inventory-domain", "1002").await;
    let one = w.wait_for("#inventory tbody", "blade 1002/1/3", 10).await;
    assert!(!one.contains("1001/"), "{one}");
    w.click("#pick-1002-1-3").await;
    w.fill("#inventory-domain", "").await;
    w.wait_for("#inventory tbody", "blade 1001/1/2", 10).await;
    w.click("#pick-1001-1-2").await;
    w.click("#group-select-save").await;
    w.wait_for("#group-detail-status", "2 servers selected", 10)
        .await;
    w.picture("server-groups-central").await;

    // Two hosts that get their servers from the pool, and their install media in svc.
    let host = |n: u32| {
        json!({"name": format!("edge0{n}"), "ip": format!("192.0.2.3{n}"), "os": "rhel8.4",
        "role": "generic", "network_group": "mgmt", "server_group": "central"})
    };
    let hosts = w
        .invoke("hosts_replace", json!({"hosts": [host(1), host(2)]}))
        .await;
    assert_eq!(hosts.as_array().map(Vec::len), Some(2), "{hosts}");
    for f in ["rhel8.4-boot.iso", "edge01.img", "edge02.img"] {
        std::fs::write(svc.join(f), b"x").unwrap();
    }

    w.nav("deploy").await;
    w.fill("#deploy-group", "central").await;
    w.click("#deploy-preview").await;
    w.wait_for("#deploy-status", "to create", 20).await;
    // The plan by meaning (the DNs sit behind a click).
    let plan = w.text("#deploy-plan").await;
    assert!(
        plan.contains("server pool SVC_rhel84: blade 1001/1/2")
            && plan.contains("server pool SVC_rhel84: blade 1002/1/3"),
        "{plan}"
    );
    w.click("#deploy-apply").await;
    // No SSH key in this window: it asks first, naming the hosts nobody could log in to.
    let asked = w.wait_for("#confirm", "nobody can log in", 10).await;
    assert!(
        asked.contains("edge01") && asked.contains("edge02"),
        "{asked}"
    );
    w.click("#confirm-yes").await;
    let done = w
        .wait_for("#deploy-status", "Deployed to central", 60)
        .await;
    assert!(
        done.contains("associated on compute/sys-1001/chassis-1/blade-2")
            && done.contains("associated on compute/sys-1002/chassis-1/blade-3"),
        "{done}"
    );
    assert_eq!(
        sim.get("compute/sys-1002/chassis-1/blade-3")
            .unwrap()
            .get("association"),
        "associated"
    );
    w.close().await;
}

struct Window {
    driver: Driver,
    sid: String,
}

impl Window {
    async fn open(data: &std::path::Path, svc: &std::path::Path) -> Window {
        // WebKit's DMA-BUF renderer kept on, as with a GPU: without one the app paints into
        // shared memory (src-tauri/src/painting.rs), where WebKit's own snapshots of the
        // window, which this test takes, hang now and then.
        Window::start(
            Driver::start_with([("WEBKIT_DISABLE_DMABUF_RENDERER", "0")]).await,
            data,
            svc,
        )
        .await
    }

    /// The app's window in a session of `driver`, once its status says ok.
    async fn start(driver: Driver, data: &std::path::Path, svc: &std::path::Path) -> Window {
        let caps = json!({"capabilities": {"alwaysMatch": {"webkitgtk:browserOptions": {
            "binary": BIN,
            "args": ["--data-dir", data, "--svc-dir", svc, "--listen", "127.0.0.1:0"],
        }}}});
        let session = driver
            .call(reqwest::Method::POST, "/session", Some(caps))
            .await;
        let sid = session["sessionId"].as_str().unwrap().to_owned();
        let w = Window { driver, sid };
        w.wait_for("#status", "ok", 30).await;
        w
    }

    async fn nav(&self, screen: &str) {
        self.driver.nav(&self.sid, screen).await;
    }
    async fn click(&self, css: &str) {
        self.driver.click(&self.sid, css).await;
    }
    async fn fill(&self, css: &str, value: &str) {
        self.driver.fill(&self.sid, css, value).await;
    }
    async fn type_text(&self, css: &str, text: &str) {
        self.driver.type_text(&self.sid, css, text).await;
    }
    /// Fill the fields `#<prefix>-<field>` of a form.
    async fn fill_form(&self, prefix: &str, fields: &[(&str, &str)]) {
        for (field, value) in fields {
            self.fill(&format!("#{prefix}-{field}"), value).await;
        }
    }
    async fn text(&self, css: &str) -> String {
        self.driver.text(&self.sid, css).await
    }
    async fn wait_for(&self, css: &str, wanted: &str, secs: u64) -> String {
        self.driver.wait_for(&self.sid, css, wanted, secs).await
    }
    /// Save the filled `form`: the window marks `field` with its bad value `shown`; with
    /// `fixed` in it instead, the save goes through and `table` lists `name`.
    async fn save_after_fixing(
        &self,
        form: &str,
        field: &str,
        shown: &str,
        fixed: &str,
        table: &str,
        name: &str,
    ) {
        self.click(&format!("#{form}-save")).await;
        self.wait_for(&format!("#{form}-{field}-error"), shown, 10)
            .await;
        self.fill(&format!("#{form}-{field}"), fixed).await;
        self.click(&format!("#{form}-save")).await;
        self.wait_for(&format!("{table} tbody"), name, 10).await;
    }
    async fn execute(&self, script: &str) {
        self.driver.execute(&self.sid, script).await;
    }
    async fn invoke(&self, command: &str, args: Value) -> Value {
        self.driver.invoke(&self.sid, command, args).await
    }
    /// Keep a picture of the window for the README (`target/tmp/screens/<name>.png`).
    async fn picture(&self, name: &str) {
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("screens");
        std::fs::create_dir_all(&dir).unwrap();
        // The page never scrolls: the screen (main) does, on its own.
        self.execute("document.querySelector('main')?.scrollTo(0, 0)")
            .await;
        let png = self.driver.screenshot(&self.sid).await;
        std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
    }
    async fn close(self) {
        let _ = self
            .driver
            .client
            .delete(format!("{}/session/{}", self.driver.base, self.sid))
            .send()
            .await;
    }
}

/// The whole install flow from the window with no terminal: settings, keys, a network, a
/// server group checked against the (simulated) manager with servers picked from its
/// inventory, hosts pasted from a spreadsheet, an ISO dropped on the window, install media,
/// a deploy followed to association, a power cycle and a disk reset, the log.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_operator_installs_from_the_window() {
    let dir = tempfile::tempdir().unwrap();
    let (data, svc) = (dir.path().join("data"), dir.path().join("svc"));
    let desktop = dir.path().join("Desktop");
    std::fs::create_dir_all(&desktop).unwrap();
    // Hardware that takes a while (association, power, disks), so a deploy is still running
    // when the operator looks at another screen.
    let sim = bootsmith_sim::Sim::start(bootsmith_sim::SimConfig {
        effect_delay: Duration::from_secs(2),
        ..bootsmith_sim::SimConfig::ucsm()
    })
    .await
    .unwrap();
    let w = Window::open(&data, &svc).await;

    // Overview: where the API listens, and what is missing before an install can work.
    let overview = w.text("#overview").await;
    assert!(overview.contains("http://127.0.0.1:"), "{overview}");
    let warnings = w.text("#warnings").await;
    assert!(!warnings.is_empty(), "a fresh app says what to do first");
    w.click("#token-show").await;
    let token = w.text("#api-token").await;
    assert!(
        token.starts_with("bst_") && !token.contains('•'),
        "the token is shown on request: {token:?}"
    );
    let at = overview.find("http://127.0.0.1:").unwrap() + "http://127.0.0.1:".len();
    let port: String = overview[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let api = format!("http://127.0.0.1:{port}");
    let status = reqwest::Client::new()
        .get(format!("{api}/api/v2/hosts"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .status();
    assert_eq!(
        status, 200,
        "the window's process serves the REST API with that token"
    );

    // Settings: a bad address is refused next to the field, a good one stored.
    w.nav("settings").await;
    w.type_text("#svc-ip", "192.0.2.300").await;
    w.click("#settings-save").await;
    let err = w.wait_for("#svc-ip-error", "192.0.2.300", 10).await;
    assert!(!err.contains('{'), "words, not JSON: {err}");
    // Where the window listens: the deploy below checks the media URLs there.
    w.type_text("#svc-ip", "127.0.0.1").await;
    w.fill("#settings-proxy", "http://proxy.lab:3128").await;
    w.fill("#settings-org", "lab").await;
    w.click("#settings-save").await;
    let saved = w.wait_for("#settings-status", "is now 127.0.0.1", 10).await;
    assert!(
        saved.contains("http://proxy.lab:3128") && saved.contains("org-root/org-lab"),
        "the defaults are stored (a bare org name completed): {saved}"
    );
    w.fill("#settings-org", "").await;
    w.click("#settings-save").await;
    w.wait_for("#settings-status", "use org-root", 10).await;

    // SSH keys.
    w.nav("keys").await;
    w.fill("#keys-new", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJRsCR05CTCVLtFICOdFoTw56mQeLuHhOQNlJKwXUwaI ops@example").await;
    w.click("#keys-add").await;
    let keys = w.wait_for("#keys tbody", "ops@example", 10).await;
    // What `ssh-keygen -lf` prints for this key, so the operator can compare.
    assert!(
        keys.contains("SHA256:aV+FM+tH6KI7XAAlo+dkMxZdP5hInt4raKJKU74EHbA")
            && keys.contains("ssh-ed25519"),
        "{keys}"
    );

    // A network: the server's objection shows at the field, then it is stored.
    w.nav("networks").await;
    w.fill_form(
        "network",
        &[
            ("name", "lab-mgmt"),
            ("netmask", "255.255.255.0"),
            ("gateway", "10.0.0"),
            ("nameserver", "192.0.2.53"),
            ("ntpserver", "192.0.2.123"),
        ],
    )
    .await;
    w.save_after_fixing(
        "network",
        "gateway",
        "10.0.0",
        "192.0.2.1",
        "#networks",
        "lab-mgmt",
    )
    .await;
    assert!(w.text("#networks-status").await.contains("created"));

    // An ACI fabric: a name APIC would refuse is marked at its field; then stored and edited
    // (the password left blank keeps the stored one).
    w.nav("aci").await;
    w.fill_form(
        "aci",
        &[
            ("name", "fabric1"),
            ("ip", "192.0.2.30"),
            ("user", "admin"),
            ("password", "secret"),
            ("tenant", "bad tenant!"),
            ("vrf", "vrf1"),
            ("bd", "bd1"),
        ],
    )
    .await;
    w.save_after_fixing("aci", "tenant", "bad tenant!", "lab", "#aci", "fabric1")
        .await;
    w.click("button[aria-label='Edit ACI instance fabric1']")
        .await;
    w.fill("#aci-vrf", "vrf2").await;
    w.click("#aci-save").await;
    w.wait_for("#aci-status", "ACI instance fabric1 updated", 10)
        .await;
    assert!(w.text("#aci tbody").await.contains("vrf2"));

    // A server group: a wrong password is the manager's refusal in words; then the login works
    // and the inventory opens, where the blades for the pool are ticked.
    w.nav("server-groups").await;
    w.fill_form(
        "group",
        &[
            ("name", "pod-east"),
            ("ip", &sim.address()),
            ("user", "admin"),
            ("password", "wrong"),
            ("description", "east wing, row 4"),
        ],
    )
    .await;
    w.click("#group-save").await;
    let refused = w
        .wait_for("#groups-status", "Authentication failed", 20)
        .await;
    assert!(!refused.contains('{'), "words, not JSON: {refused}");
    w.fill("#group-password", "password").await;
    w.click("#group-save").await;
    w.wait_for("#groups-status", "login works", 20).await;
    w.wait_for("#group-detail-status", "Login works: 10 servers", 20)
        .await;
    let inventory = w.text("#inventory tbody").await;
    assert!(
        inventory.contains("blade 1/2") && inventory.contains("rack 1"),
        "{inventory}"
    );
    w.click("#pick-1-2").await;
    w.click("#pick-1-3").await;
    w.click("#group-select-save").await;
    w.wait_for("#group-detail-status", "2 servers selected", 10)
        .await;
    let groups = w.wait_for("#server-groups tbody", "1/2, 1/3", 10).await;
    assert!(groups.contains("east wing, row 4"), "{groups}");
    assert!(!w.text("#server-groups").await.contains("enc:v1"));
    w.picture("server-groups").await;

    // A rack server whose IMC has a self-signed certificate (as they all do out of the box):
    // the window shows its fingerprint, and trusting it pins it.
    let imc = bootsmith_sim::Sim::start_tls(bootsmith_sim::SimConfig::imc())
        .await
        .unwrap();
    w.fill_form(
        "group",
        &[
            ("name", "rack-7"),
            ("type", "imc"),
            ("ip", &imc.address()),
            ("user", "admin"),
            ("password", "password"),
        ],
    )
    .await;
    w.click("#group-save").await;
    let shown = w.wait_for("#certificate-fingerprint", ":", 20).await;
    assert_eq!(shown, imc.fingerprint().unwrap());
    w.click("#certificate-trust").await;
    w.wait_for("#groups-status", "rack-7 created: login works", 20)
        .await;
    w.wait_for("#group-detail-status", "Login works: 1 server.", 20)
        .await;

    // Hosts pasted from a spreadsheet: a bad row is marked and nothing is stored; fixed, saved.
    w.nav("hosts").await;
    let sheet = "name\tip\tos\trole\tnetwork\tserver group\n\
        kube-master-01\t192.0.2.21\tcentos7.4\tk8s master\tlab-mgmt\tpod-east\n\
        kube-node-01\t192.0.2.999\tcentos7.4\tk8s node\tlab-mgmt\tpod-east\n";
    w.fill("#hosts-paste", sheet).await;
    w.click("#hosts-paste-add").await;
    w.click("#hosts-save").await;
    let row_err = w
        .wait_for("#hosts-edit .row-error", "192.0.2.999", 10)
        .await;
    assert!(!row_err.contains('{'), "{row_err}");
    let stored: Value = reqwest::Client::new()
        .get(format!("{api}/api/v2/hosts"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(stored["hosts"], json!([]), "a rejected save stores nothing");
    w.fill("#hosts-edit [aria-invalid=true]", "192.0.2.22")
        .await;
    w.click("#hosts-save").await;
    w.wait_for("#hosts-status", "Saved 2 hosts", 10).await;
    w.picture("hosts").await;

    // An ISO dropped on the window (through the drop handler's own code path): linked into
    // svc, recognised and mapped.
    let iso = desktop.join("CentOS-7-x86_64-Minimal-1708.iso");
    sample_iso(&iso);
    w.nav("isos").await;
    w.execute(&format!(
        "window.bootsmithDrop([{:?}])",
        iso.to_str().unwrap()
    ))
    .await;
    w.wait_for(
        "#import-status",
        "linked into svc and mapped to centos7.4.",
        30,
    )
    .await;
    use std::os::unix::fs::MetadataExt;
    assert_eq!(
        std::fs::metadata(svc.join("CentOS-7-x86_64-Minimal-1708.iso"))
            .unwrap()
            .ino(),
        std::fs::metadata(&iso).unwrap().ino(),
        "same filesystem: a hard link, no copy"
    );
    // The same ISO from another filesystem (tmpfs) is copied, with byte progress; centos7.4
    // keeps the ISO it has.
    let shm = tempfile::tempdir_in("/dev/shm").unwrap();
    let other = shm.path().join("centos-copy.iso");
    std::fs::copy(&iso, &other).unwrap();
    w.execute(&format!(
        "window.bootsmithDrop([{:?}])",
        other.to_str().unwrap()
    ))
    .await;
    let copied = w.wait_for("#import-status", "copied into svc", 30).await;
    assert!(copied.contains("not mapped"), "{copied}");
    assert_eq!(
        std::fs::read(svc.join("centos-copy.iso")).unwrap(),
        std::fs::read(&other).unwrap()
    );
    w.wait_for("#isos tbody", "centos7.4", 10).await;
    w.wait_for("#os-centos7\\.4", "CentOS-7-x86_64-Minimal-1708.iso", 10)
        .await;
    w.picture("isos").await;

    // Install media for every host.
    w.nav("images").await;
    w.click("#make-images").await;
    w.wait_for("#images-status", "Done: 2 answer images, 1 boot ISO.", 60)
        .await;
    w.wait_for("#images-files", "kube-node-01.img", 5).await;
    w.wait_for("#images-steps", "centos7.4: extract", 5).await;
    // Each host's media are listed with their build, and what is in svc.
    let media = w.wait_for("#images-hosts tbody", "ready (built", 10).await;
    assert!(media.contains("/svc/kube-node-01.img"), "{media}");

    // Deploy: the preview lists what would be written; Deploy writes it and follows each host.
    w.nav("deploy").await;
    w.click("#deploy-preview").await;
    let counts = w.wait_for("#deploy-status", "to create", 20).await;
    assert!(
        counts.starts_with("centos7.4 on pod-east: 16 to create, 0 to modify"),
        "{counts}"
    );
    // The plan by host and meaning (the DNs sit behind a click).
    let plan = w.text("#deploy-plan").await;
    assert!(
        plan.contains("Host kube-master-01")
            && plan.contains("profile kube-master-01 from template SVC_c74")
            && plan.contains("server pool SVC_c74: blade 1/3")
            && !plan.contains("already as wanted"),
        "{plan}"
    );
    assert!(
        sim.get("org-root/ls-kube-master-01").is_none(),
        "a preview writes nothing"
    );
    w.click("#deploy-apply").await;
    // The operator looks elsewhere while it runs; the header says work goes on, and the deploy
    // screen shows the same job when they come back.
    w.nav("hosts").await;
    w.wait_for("#working", "working", 5).await;
    w.nav("deploy").await;
    let done = w
        .wait_for("#deploy-status", "Deployed to pod-east", 60)
        .await;
    assert!(
        done.contains("16 of 16 objects written")
            && done.contains("kube-master-01 associated on sys/chassis-1/blade-2")
            && done.contains("kube-node-01 associated on sys/chassis-1/blade-3"),
        "{done}"
    );
    let log = w.text("#deploy-log").await;
    assert!(
        log.contains("kube-node-01: association done (sys/chassis-1/blade-3)"),
        "{log}"
    );
    // Each host's stages side by side, one short line (profile, association, FSM stage,
    // media, power); the messages open under the host.
    let node = w.text("#deploy-hosts tbody tr:last-child").await;
    assert!(
        node.starts_with("kube-node-01") && node.contains("done") && !node.contains('%'),
        "{node}"
    );
    w.click("#deploy-hosts tbody tr:last-child button").await;
    let node = w
        .wait_for(
            "#deploy-hosts tr.stage-details",
            "sys/chassis-1/blade-3",
            10,
        )
        .await;
    assert!(
        node.contains("Association done: sys/chassis-1/blade-3") && node.contains("Power done: on"),
        "{node}"
    );
    // Where each host's install is: its controller fetched its media from the window's svc,
    // with the timeline one click away.
    let installs = w
        .wait_for("#deploy-installs tbody tr:last-child", "media-mounted", 15)
        .await;
    assert!(installs.starts_with("kube-node-01"), "{installs}");
    w.click("#deploy-installs tbody tr:last-child button").await;
    let timeline = w
        .wait_for("#deploy-installs .host-timeline", "media-mounted", 10)
        .await;
    assert!(
        timeline.contains("media built")
            && timeline.contains("deployed")
            && timeline.contains("fetched kube-node-01.img"),
        "{timeline}"
    );
    w.execute("document.querySelector('#deploy-status').scrollIntoView()")
        .await;
    let shot = w.driver.screenshot(&w.sid).await;
    std::fs::write(
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("screens/deploy.png"),
        shot,
    )
    .unwrap();

    // Power lists the group's servers; the rest of the manager's on request. Blade 1/1 runs a
    // profile Bootsmith did not create: the window's own dialog names it, its profile and its
    // power state before a power-off, and Cancel leaves it running.
    w.nav("power").await;
    w.wait_for("#power-servers tbody", "blade 1/2", 20).await;
    assert!(!w.text("#power-servers tbody").await.contains("blade 1/1"));
    w.click("#power-show-all").await;
    w.wait_for("#power-servers tbody", "blade 1/1", 10).await;
    w.click("#power-pick-1-1").await;
    w.click("#power-off").await;
    let asked = w.wait_for("#confirm", "org-root/ls-existing-sp", 10).await;
    assert!(
        asked.contains("blade 1/1: power on, runs service profile org-root/ls-existing-sp, which Bootsmith did not create"),
        "{asked}"
    );
    w.click("#confirm-no").await;
    assert_eq!(
        sim.get("org-root/ls-existing-sp/power")
            .map(|p| p.get("state").to_owned()),
        Some("up".to_owned()),
        "cancelled: still running"
    );
    w.click("#power-pick-1-1").await;
    w.click("#power-show-all").await;

    // Blade 1/2 hard-reset through its profile, its state shown live; its disks reset.
    w.click("#power-pick-1-2").await;
    w.click("#power-hardreset").await;
    w.wait_for("#confirm", "blade 1/2", 10).await;
    w.click("#confirm-yes").await;
    w.wait_for("#power-status", "Hard reset: sent to blade 1/2", 20)
        .await;
    assert_eq!(
        sim.get("org-root/ls-kube-master-01/power")
            .unwrap()
            .get("state"),
        "hard-reset-immediate"
    );
    w.click("#disks-show").await;
    let disks = w.wait_for("#disks tbody", "1/2", 20).await;
    w.click("#disks-reset").await;
    w.wait_for("#confirm", "Their data and RAID configuration are lost", 10)
        .await;
    w.click("#confirm-yes").await;
    w.wait_for("#power-status", "The disks of blade 1/2 are reset", 60)
        .await;
    let after = w.text("#disks tbody").await;
    assert!(after.contains("unconfigured-good"), "{disks}\n→\n{after}");
    w.picture("power").await;

    // Errors reach the page as {error, code} (the shape every screen words).
    let err = w
        .invoke(
            "compute_power",
            json!({"group": "pod-east", "action": "explode"}),
        )
        .await;
    assert_eq!(err["code"], "unknown_power_action", "{err}");

    // Deploy can be taken back: what deploys created is listed, confirmed, and removed.
    w.nav("deploy").await;
    w.click("#deploy-remove").await;
    let asked = w
        .wait_for("#confirm", "service profile kube-node-01: remove", 30)
        .await;
    assert!(asked.contains("Remove the 6 objects"), "{asked}");
    w.click("#confirm-yes").await;
    let removed = w
        .wait_for("#deploy-status", "Removed from pod-east", 60)
        .await;
    // Six top objects (policies, pool, template, two profiles); their children go with them.
    assert!(removed.contains("6 objects"), "{removed}");
    assert!(sim.get("org-root/ls-kube-node-01").is_none());
    assert!(
        sim.get("org-root/ls-existing-sp").is_some(),
        "what it did not create stays"
    );

    // The log: what happened, filterable.
    w.nav("logs").await;
    w.fill("#logs-q", "job").await;
    w.click("#logs-search").await;
    w.wait_for("#logs tbody", "job", 20).await;

    // Overview again: counts and the jobs just run.
    w.nav("overview").await;
    w.wait_for("#recent-jobs", "Deploy (pod-east) succeeded", 10)
        .await;
    let counts = w.text("#counts").await;
    assert!(
        counts.contains("2 hosts") && counts.contains("2 server groups"),
        "{counts}"
    );
    w.picture("overview").await;
    w.close().await;
}

/// Closing the window with input not saved asks first, in the window's own dialog, naming what
/// would be lost; Cancel keeps the window and the input.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closing_the_window_with_unsaved_input_asks_first() {
    let dir = tempfile::tempdir().unwrap();
    let (data, svc) = (dir.path().join("data"), dir.path().join("svc"));
    let w = Window::open(&data, &svc).await;
    w.nav("networks").await;
    w.fill("#network-name", "half-typed").await;
    w.nav("settings").await;
    w.fill("#svc-ip", "198.51.100.9").await;
    w.nav("hosts").await;
    let marked = w
        .driver
        .execute(
            &w.sid,
            "return !!document.querySelector('#nav-networks-unsaved')",
        )
        .await;
    assert_eq!(marked, true, "the menu marks the form: {marked}");
    // What Tauri tells the page when the window manager's close button is pressed.
    let close = "window.__TAURI_INTERNALS__.invoke('plugin:event|emit', {event: 'tauri://close-requested', payload: null})";
    w.execute(close).await;
    let asked = w.wait_for("#confirm", "without saving", 10).await;
    assert!(
        asked.contains("a new network") && asked.contains("the boot-server address"),
        "{asked}"
    );
    w.click("#confirm-no").await;
    w.nav("networks").await;
    let kept = w
        .driver
        .execute(
            &w.sid,
            "return document.querySelector('#network-name').value",
        )
        .await;
    assert_eq!(kept, "half-typed", "{kept}");

    // With nothing unsaved it closes at once: the window may close itself.
    w.fill("#network-name", "").await;
    w.nav("settings").await;
    w.fill("#svc-ip", "").await;
    w.execute(close).await;
    let title = format!("{}/session/{}/title", w.driver.base, w.sid);
    let gone = async {
        loop {
            match w.driver.client.get(&title).send().await {
                Err(_) => return,
                Ok(r) => {
                    let v: Value = r.json().await.unwrap_or_default();
                    if v["value"].get("error").is_some() {
                        return;
                    }
                }
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(15), gone)
        .await
        .expect("the window closes when nothing is unsaved");
    w.close().await;
}

/// Without a GPU the window's web process paints into shared memory (src-tauri/src/painting.rs:
/// software-drawn GPU buffers grew it by a third over a day's screens); with one, WebKit's default
/// stays. Read from the environment WebKit's web process was started with.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_gpu_the_window_paints_into_shared_memory() {
    let dir = tempfile::tempdir().unwrap();
    let (data, svc) = (dir.path().join("data"), dir.path().join("svc"));
    // As an operator starts it: with what this environment has (normally nothing).
    let w = Window::start(Driver::start().await, &data, &svc).await;
    let web = processes_under(w.driver.child.id())
        .into_iter()
        .find(|p| {
            std::fs::read_to_string(format!("/proc/{p}/comm"))
                .is_ok_and(|c| c.starts_with("WebKitWebProces"))
        })
        .expect("the window's web process runs");
    let environ = std::fs::read(format!("/proc/{web}/environ")).unwrap();
    let set: Vec<String> = environ
        .split(|b| *b == 0)
        .map(|v| String::from_utf8_lossy(v).into_owned())
        .filter(|v| v.starts_with("WEBKIT_DISABLE_DMABUF_RENDERER="))
        .collect();
    let gpu = std::fs::read_dir("/dev/dri").is_ok_and(|d| {
        d.flatten()
            .any(|e| e.file_name().to_string_lossy().starts_with("renderD"))
    });
    let wanted: Vec<String> = match std::env::var("WEBKIT_DISABLE_DMABUF_RENDERER") {
        // The operator's own choice always wins.
        Ok(own) => vec![format!("WEBKIT_DISABLE_DMABUF_RENDERER={own}")],
        Err(_) if gpu => vec![],
        Err(_) => vec!["WEBKIT_DISABLE_DMABUF_RENDERER=1".to_owned()],
    };
    assert_eq!(set, wanted, "GPU render node: {gpu}");
    w.close().await;
}

/// On a 1024×700 screen the ISOs screen's file chooser fits the screen (GTK's own chooser
/// opens at 1096×822 there): the window is started on a display of that size of its own, and
/// the dialog's size is read from the X server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_file_chooser_fits_a_1024_by_700_screen() {
    let dir = tempfile::tempdir().unwrap();
    let (data, svc) = (dir.path().join("data"), dir.path().join("svc"));
    let screen = SmallScreen::start(1024, 700);
    let driver = Driver::start_with([
        ("DISPLAY", screen.display.as_str()),
        ("WEBKIT_DISABLE_DMABUF_RENDERER", "0"),
    ])
    .await;
    let w = Window::start(driver, &data, &svc).await;
    w.nav("isos").await;
    // Clicked from a script: WebDriver's own click would wait for the modal dialog to end.
    w.execute("setTimeout(() => document.querySelector('#iso-choose').click(), 0)")
        .await;
    let mut size = None;
    for _ in 0..100 {
        size = screen.window_size("Choose ISO files to bring into svc");
        if size.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let (width, height) = size.expect("the file chooser opens");
    assert!(
        width <= 1024 && height <= 700,
        "the file chooser is {width}×{height} on a 1024×700 screen"
    );
    // The operator types the ISO's path and presses Enter: the file is brought in as a
    // dropped one would be.
    let iso = dir.path().join("CentOS-7-x86_64-Minimal-1708.iso");
    sample_iso(&iso);
    // Keys sent before GTK's chooser is ready to take them are lost: sent again, up to three
    // times, until the dialog closes.
    for _ in 0..3 {
        screen.type_into("Choose ISO files to bring into svc", iso.to_str().unwrap());
        let mut open = true;
        for _ in 0..50 {
            open = screen
                .window_size("Choose ISO files to bring into svc")
                .is_some();
            if !open {
                break;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        if !open {
            break;
        }
    }
    w.wait_for("#import-status", "mapped to centos7.4.", 30)
        .await;
    assert!(svc.join("CentOS-7-x86_64-Minimal-1708.iso").exists());
    w.close().await;
}

/// An X display of a given size of its own (Xvfb), stopped when dropped.
struct SmallScreen {
    display: String,
    server: std::process::Child,
}

impl SmallScreen {
    fn start(width: u32, height: u32) -> SmallScreen {
        // Xvfb picks a free display number and writes it to the descriptor given (stdout).
        let mut server = std::process::Command::new("Xvfb")
            .args(["-displayfd", "1", "-nolisten", "tcp", "-screen", "0"])
            .arg(format!("{width}x{height}x24"))
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("Xvfb (Debian package xvfb) must be installed: run scripts/setup.sh");
        let mut number = String::new();
        let out = server.stdout.take().unwrap();
        std::io::BufRead::read_line(&mut std::io::BufReader::new(out), &mut number).unwrap();
        SmallScreen {
            display: format!(":{}", number.trim()),
            server,
        }
    }

    /// Type `text` and Enter into the window called `title` (xdotool, as keyboard input).
    fn type_into(&self, title: &str, text: &str) {
        let status = std::process::Command::new("xdotool")
            .env("DISPLAY", &self.display)
            .args(["search", "--sync", "--name", title, "windowfocus", "--sync"])
            .args(["sleep", "0.5", "key", "ctrl+l", "ctrl+a", "sleep", "0.5"])
            .args(["type", "--delay", "20", text])
            .status()
            .expect("xdotool (Debian package xdotool) must be installed: run scripts/setup.sh");
        assert!(status.success());
        // GTK's location field completes what was typed; Enter then opens the file.
        std::thread::sleep(Duration::from_millis(500));
        let status = std::process::Command::new("xdotool")
            .env("DISPLAY", &self.display)
            .args(["key", "Return"])
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// The size of the window called `title`, from `xwininfo`, once it is mapped.
    fn window_size(&self, title: &str) -> Option<(u32, u32)> {
        let out = std::process::Command::new("xwininfo")
            .args(["-display", &self.display, "-name", title])
            .output()
            .expect("xwininfo (Debian package x11-utils) must be installed: run scripts/setup.sh");
        let text = String::from_utf8_lossy(&out.stdout);
        let field = |name: &str| -> Option<u32> {
            text.lines()
                .find_map(|l| l.trim().strip_prefix(name))
                .and_then(|v| v.trim().parse().ok())
        };
        let mapped = text.contains("Map State: IsViewable");
        mapped.then_some((field("Width:")?, field("Height:")?))
    }
}

impl Drop for SmallScreen {
    fn drop(&mut self) {
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}

/// Every process started under `pid`, from `/proc/<pid>/stat`.
fn processes_under(pid: u32) -> Vec<u32> {
    let parents: Vec<(u32, u32)> = std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let p: u32 = e.file_name().to_string_lossy().parse().ok()?;
            let stat = std::fs::read_to_string(e.path().join("stat")).ok()?;
            let ppid = stat
                .rsplit_once(')')?
                .1
                .split_whitespace()
                .nth(1)?
                .parse()
                .ok()?;
            Some((p, ppid))
        })
        .collect();
    let mut out = Vec::new();
    let mut todo = vec![pid];
    while let Some(p) = todo.pop() {
        for (c, _) in parents.iter().filter(|(_, pp)| *pp == p) {
            out.push(*c);
            todo.push(*c);
        }
    }
    out
}
