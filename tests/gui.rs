//! The desktop window, driven for real: WebKitWebDriver starts the app in a
//! WebKitGTK window (on the display `make test` provides with xvfb-run) and we
//! read what the page shows. Records are seeded through the core beforehand.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::{json, Value};

const BIN: &str = env!("CARGO_BIN_EXE_bootsmith");
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

    async fn text(&self, session: &str, css: &str) -> String {
        let el = self
            .call(
                reqwest::Method::POST,
                &format!("/session/{session}/element"),
                Some(json!({"using": "css selector", "value": css})),
            )
            .await;
        let id = el[ELEMENT].as_str().unwrap().to_owned();
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

async fn seed(data: &std::path::Path, svc: &std::path::Path, manager: &str) {
    use bootsmith_core::{hosts, networks, server_groups, settings, App, Config};
    let app = App::open(Config {
        data_dir: data.into(),
        svc_dir: svc.into(),
        use_keyring: false,
    })
    .await
    .unwrap();
    settings::set_svc_ip(
        &app,
        settings::SvcIpInput {
            svc_ip: Some("192.0.2.10".into()),
        },
    )
    .await
    .unwrap();
    let net: networks::NetworkInput =
        serde_json::from_value(json!({"name": "lab-mgmt", "netmask": "255.255.255.0",
        "gateway": "192.0.2.1", "nameserver": "192.0.2.53", "ntpserver": "192.0.2.123"}))
        .unwrap();
    networks::create(&app, net).await.unwrap();
    let group: server_groups::ServerGroupInput = serde_json::from_value(json!({"name": "pod-east", "type": "ucsm",
        "credentials": {"ip": manager, "user": "admin", "password": "password"}, "server_pool": {"blades": ["1/1", "1/2"]}})).unwrap();
    server_groups::create(&app, group).await.unwrap();
    let list: Vec<hosts::HostInput> = serde_json::from_value(json!([
        {"name": "kube-master-01", "ip": "192.0.2.21", "os": "centos7.4", "role": "k8s master", "network_group": "lab-mgmt", "server_group": "pod-east"},
        {"name": "kube-node-01", "ip": "192.0.2.22", "os": "centos7.4", "role": "k8s node", "network_group": "lab-mgmt", "server_group": "pod-east"}
    ])).unwrap();
    hosts::replace(&app, list).await.unwrap();
    app.close().await;
}

#[tokio::test]
async fn the_window_shows_the_stored_records() {
    let dir = tempfile::tempdir().unwrap();
    let (data, svc) = (dir.path().join("data"), dir.path().join("svc"));
    let sim = bootsmith_sim::Sim::start(bootsmith_sim::SimConfig::ucsm())
        .await
        .unwrap();
    seed(&data, &svc, &sim.address()).await;

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
        groups.contains("pod-east") && groups.contains("1/1, 1/2"),
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
    let button = driver
        .call(
            reqwest::Method::POST,
            &format!("/session/{sid}/element"),
            Some(json!({"using": "css selector", "value": "#make-images"})),
        )
        .await;
    let button = button[ELEMENT].as_str().unwrap().to_owned();
    driver
        .call(
            reqwest::Method::POST,
            &format!("/session/{sid}/element/{button}/click"),
            Some(json!({})),
        )
        .await;
    let start = Instant::now();
    loop {
        let shown = driver.text(&sid, "#images-status").await;
        if shown.contains("map an ISO to centos7.4") {
            assert!(shown.starts_with("Images cannot be made yet"), "{shown}");
            assert!(!shown.contains('{'), "words, not JSON: {shown}");
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the refusal never showed: {shown:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    // WebKit paints after the DOM changes; give the compositor a moment so the picture shows the data.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let png = driver
        .call(
            reqwest::Method::GET,
            &format!("/session/{sid}/screenshot"),
            None,
        )
        .await;
    let png = base64::engine::general_purpose::STANDARD
        .decode(png.as_str().unwrap())
        .unwrap();
    assert!(png.starts_with(b"\x89PNG"));
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("gui-overview.png");
    std::fs::write(&out, png).unwrap();

    let _ = driver
        .client
        .delete(format!("{}/session/{sid}", driver.base))
        .send()
        .await;
}
