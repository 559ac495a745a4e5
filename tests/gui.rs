//! The desktop window, driven for real: WebKitWebDriver starts the app in a
//! WebKitGTK window (on the display `make test` provides with xvfb-run) and we
//! read what the page shows. Records are seeded through the core beforehand.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::{json, Value};

mod common;

use common::{sample_iso, seeded, BIN};
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

struct Driver {
    child: Child,
    base: String,
    client: reqwest::Client,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Driver {
    async fn start() -> Driver {
        assert!(
            std::env::var_os("DISPLAY").is_some(),
            "the window test needs a display: run it under xvfb-run (make test does)"
        );
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new("WebKitWebDriver")
            .arg(format!("--port={port}"))
            .arg("--host=127.0.0.1")
            .env("TAURI_WEBVIEW_AUTOMATION", "true")
            .env("BOOTSMITH_KEYRING", "off")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("WebKitWebDriver (Debian package webkit2gtk-driver) must be installed: run scripts/setup.sh");
        let d = Driver {
            child,
            base: format!("http://127.0.0.1:{port}"),
            client: reqwest::Client::new(),
        };
        let start = Instant::now();
        while d
            .client
            .get(format!("{}/status", d.base))
            .send()
            .await
            .is_err()
        {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "WebKitWebDriver did not start"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        d
    }

    async fn call(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Value {
        let mut req = self.client.request(method, format!("{}{path}", self.base));
        if let Some(b) = body {
            req = req.json(&b);
        }
        let resp: Value = req.send().await.unwrap().json().await.unwrap();
        if let Some(err) = resp["value"].get("error") {
            panic!("WebDriver {path}: {err} {}", resp["value"]["message"]);
        }
        resp["value"].clone()
    }

    /// Call a Tauri command from the page; the result, or the error object it rejected with.
    async fn invoke(&self, session: &str, command: &str, args: Value) -> Value {
        let script = "const done = arguments[arguments.length - 1];
            window.__TAURI__.core.invoke(arguments[0], arguments[1]).then(ok => done({ok}), err => done({err}));";
        let r = self
            .call(
                reqwest::Method::POST,
                &format!("/session/{session}/execute/async"),
                Some(json!({"script": script, "args": [command, args]})),
            )
            .await;
        if r.get("ok").is_some() {
            r["ok"].clone()
        } else {
            r["err"].clone()
        }
    }

    /// The WebDriver id of the element `css` selects.
    async fn element(&self, session: &str, css: &str) -> String {
        let el = self
            .call(
                reqwest::Method::POST,
                &format!("/session/{session}/element"),
                Some(json!({"using": "css selector", "value": css})),
            )
            .await;
        el[ELEMENT].as_str().unwrap().to_owned()
    }

    /// Click the element `css` selects.
    async fn click(&self, session: &str, css: &str) {
        let id = self.element(session, css).await;
        self.call(
            reqwest::Method::POST,
            &format!("/session/{session}/element/{id}/click"),
            Some(json!({})),
        )
        .await;
    }

    /// Run a script in the page.
    async fn execute(&self, session: &str, script: &str) {
        self.call(
            reqwest::Method::POST,
            &format!("/session/{session}/execute/sync"),
            Some(json!({"script": script, "args": []})),
        )
        .await;
    }

    /// What the window shows, as PNG; WebKit paints after the DOM changes, so wait a moment.
    async fn screenshot(&self, session: &str) -> Vec<u8> {
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let png = self
            .call(
                reqwest::Method::GET,
                &format!("/session/{session}/screenshot"),
                None,
            )
            .await;
        let png = base64::engine::general_purpose::STANDARD
            .decode(png.as_str().unwrap())
            .unwrap();
        assert!(png.starts_with(b"\x89PNG"));
        png
    }

    /// The text of `css` once it contains `wanted` (panics with what it showed after `secs`).
    async fn wait_for(&self, session: &str, css: &str, wanted: &str, secs: u64) -> String {
        let start = Instant::now();
        loop {
            let shown = self.text(session, css).await;
            if shown.contains(wanted) {
                return shown;
            }
            assert!(
                start.elapsed() < Duration::from_secs(secs),
                "{css} never showed {wanted:?}: {shown:?}"
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    async fn text(&self, session: &str, css: &str) -> String {
        let id = self.element(session, css).await;
        self.call(
            reqwest::Method::GET,
            &format!("/session/{session}/element/{id}/text"),
            None,
        )
        .await
        .as_str()
        .unwrap()
        .to_owned()
    }
}

#[tokio::test]
async fn the_window_shows_the_stored_records() {
    let (dir, sim) = seeded().await;
    let (data, svc) = (dir.path().join("data"), dir.path().join("svc"));

    let driver = Driver::start().await;
    let caps = json!({"capabilities": {"alwaysMatch": {"webkitgtk:browserOptions": {
        "binary": BIN,
        "args": ["--data-dir", data, "--svc-dir", svc, "--listen", "127.0.0.1:0"],
    }}}});
    let session = driver
        .call(reqwest::Method::POST, "/session", Some(caps))
        .await;
    let sid = session["sessionId"].as_str().unwrap().to_owned();

    let start = Instant::now();
    loop {
        let status = driver.text(&sid, "#status").await;
        if status == "ok" {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the page never loaded its data: status {status:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let hosts = driver.text(&sid, "#hosts tbody").await;
    assert!(
        hosts.contains("kube-master-01")
            && hosts.contains("192.0.2.22")
            && hosts.contains("k8s master"),
        "{hosts}"
    );
    let groups = driver.text(&sid, "#server-groups tbody").await;
    assert!(
        groups.contains("pod-east") && groups.contains("1/2, 1/3"),
        "{groups}"
    );
    assert!(
        !groups.contains("enc:v1"),
        "the window does not show password material"
    );
    let nets = driver.text(&sid, "#networks tbody").await;
    assert!(
        nets.contains("lab-mgmt") && nets.contains("192.0.2.123"),
        "{nets}"
    );
    let overview = driver.text(&sid, "#overview").await;
    assert!(
        overview.contains("192.0.2.10") && overview.contains("http://127.0.0.1:"),
        "{overview}"
    );
    // The window's process also serves the REST API on the address it shows.
    let at = overview.find("http://127.0.0.1:").unwrap() + "http://127.0.0.1:".len();
    let port: String = overview[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let url = format!("http://127.0.0.1:{port}/");
    let status: Value = reqwest::get(&url).await.unwrap().json().await.unwrap();
    assert_eq!(status["status"], "ok");
    let warnings = driver.text(&sid, "#warnings").await;
    assert!(
        warnings.contains("No ISO is mapped to centos7.4"),
        "{warnings}"
    );

    // The window's commands reach the manager through the core: inventory and a power action.
    let inventory = driver
        .invoke(&sid, "server_inventory", json!({"group": "pod-east"}))
        .await;
    assert_eq!(inventory.as_array().unwrap().len(), 10, "{inventory}");
    let power = driver
        .invoke(
            &sid,
            "power",
            json!({"group": "pod-east", "action": "on", "servers": {"blades": ["2/3"]}}),
        )
        .await;
    assert!(
        power["blades"][0].as_str().unwrap().starts_with("2/3: "),
        "{power}"
    );
    assert_eq!(
        sim.get("sys/chassis-2/blade-3").unwrap().get("adminPower"),
        "admin-up"
    );
    let err = driver
        .invoke(
            &sid,
            "power",
            json!({"group": "pod-east", "action": "explode"}),
        )
        .await;
    assert_eq!(
        err["code"], "unknown_power_action",
        "errors reach the page as {{error, code}}: {err}"
    );

    // Install media from the window: with no ISO mapped, the refusal is shown in words.
    driver.click(&sid, "#make-images").await;
    let shown = driver
        .wait_for(&sid, "#images-status", "map an ISO to centos7.4", 20)
        .await;
    assert!(shown.starts_with("Images cannot be made yet"), "{shown}");
    assert!(!shown.contains('{'), "words, not JSON: {shown}");

    // With an installer ISO mapped (through the REST API the window's process serves), the
    // same button makes the media.
    sample_iso(&svc.join("CentOS-7-x86_64-Minimal-1708.iso"));
    let token = driver.invoke(&sid, "api_token", json!({})).await;
    let mapped = reqwest::Client::new()
        .post(format!("http://127.0.0.1:{port}/api/v1/isos/map"))
        .bearer_auth(token.as_str().unwrap())
        .json(&json!({"iso_map": [{"file": "/svc/CentOS-7-x86_64-Minimal-1708.iso", "os": "centos7.4"}]}))
        .send()
        .await
        .unwrap();
    assert!(mapped.status().is_success());
    driver.click(&sid, "#make-images").await;
    driver
        .wait_for(
            &sid,
            "#images-status",
            "Done: 2 answer images, 1 boot ISOs.",
            60,
        )
        .await;

    // Deploy: the preview lists what would be written; Deploy writes it and follows each host.
    driver.click(&sid, "#deploy-preview").await;
    let counts = driver
        .wait_for(&sid, "#deploy-status", "to create", 20)
        .await;
    assert!(
        counts.starts_with("centos7.4 on pod-east: 16 to create, 0 to modify"),
        "{counts}"
    );
    let plan = driver.text(&sid, "#deploy-plan tbody").await;
    assert!(
        plan.contains("org-root/ls-kube-master-01")
            && plan.contains("org-root/compute-pool-SVC_c74/blade-1-3")
            && !plan.contains("unchanged"),
        "{plan}"
    );
    assert!(
        sim.get("org-root/ls-kube-master-01").is_none(),
        "a preview writes nothing"
    );
    driver.click(&sid, "#deploy-apply").await;
    let done = driver
        .wait_for(&sid, "#deploy-status", "Deployed to pod-east", 60)
        .await;
    assert!(
        done.contains("16 of 16 objects written")
            && done.contains("kube-master-01 associated on sys/chassis-1/blade-2")
            && done.contains("kube-node-01 associated on sys/chassis-1/blade-3"),
        "{done}"
    );
    let log = driver.text(&sid, "#deploy-log").await;
    assert!(
        log.contains("kube-node-01: association done (sys/chassis-1/blade-3)"),
        "{log}"
    );
    assert_eq!(
        sim.get("org-root/ls-kube-node-01")
            .unwrap()
            .get("assocState"),
        "associated"
    );
    // Pictures for the README: the deploy section (docs/deploy.png is a copy), then the top.
    let tmp = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    driver
        .execute(
            &sid,
            "document.querySelector('section[aria-labelledby=h-deploy]').scrollIntoView()",
        )
        .await;
    std::fs::write(tmp.join("gui-deploy.png"), driver.screenshot(&sid).await).unwrap();
    driver.execute(&sid, "window.scrollTo(0, 0)").await;
    std::fs::write(tmp.join("gui-overview.png"), driver.screenshot(&sid).await).unwrap();

    let _ = driver
        .client
        .delete(format!("{}/session/{sid}", driver.base))
        .send()
        .await;
}
