//! WebKitWebDriver driving the app's real window: the window test (tests/gui.rs) and the
//! footprint bench (benches/footprint.rs) start the app through it.
#![allow(dead_code)] // each user takes a part

use std::ffi::OsStr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::{json, Value};

/// The W3C WebDriver key of an element reference.
pub const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// WebKitWebDriver, which starts the app in a window for each session.
pub struct Driver {
    /// The WebKitWebDriver process (the app is its child).
    pub child: Child,
    /// Its address, `http://127.0.0.1:<port>`.
    pub base: String,
    /// The client every call goes through.
    pub client: reqwest::Client,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Driver {
    /// WebKitWebDriver, passing what it inherits on to the app.
    pub async fn start() -> Driver {
        Driver::start_with(std::iter::empty::<(&str, &str)>()).await
    }

    /// WebKitWebDriver with `env` added to what it passes on to the app.
    pub async fn start_with<K: AsRef<OsStr>, V: AsRef<OsStr>>(
        env: impl IntoIterator<Item = (K, V)>,
    ) -> Driver {
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
            .env_remove("RUST_LOG")
            .envs(env)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("WebKitWebDriver (Debian package webkit2gtk-driver) must be installed: run scripts/setup.sh");
        let d = Driver {
            child,
            base: format!("http://127.0.0.1:{port}"),
            // A WebDriver call that hangs fails the test, naming the call, instead of stalling it.
            client: reqwest::Client::builder()
                .timeout(Duration::from_secs(90))
                .build()
                .unwrap(),
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

    pub async fn call(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Value {
        let mut req = self.client.request(method, format!("{}{path}", self.base));
        if let Some(b) = body {
            req = req.json(&b);
        }
        let resp: Value = req
            .send()
            .await
            .unwrap_or_else(|e| panic!("WebDriver {path}: {e}"))
            .json()
            .await
            .unwrap();
        if let Some(err) = resp["value"].get("error") {
            panic!("WebDriver {path}: {err} {}", resp["value"]["message"]);
        }
        resp["value"].clone()
    }

    /// Call a Tauri command from the page; the result, or the error object it rejected with.
    pub async fn invoke(&self, session: &str, command: &str, args: Value) -> Value {
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

    /// The WebDriver id of the element `css` selects, asked for every 10 ms for up to 30 s.
    pub async fn element(&self, session: &str, css: &str) -> String {
        let start = Instant::now();
        loop {
            let resp: Value = self
                .client
                .post(format!("{}/session/{session}/element", self.base))
                .json(&json!({"using": "css selector", "value": css}))
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            if let Some(id) = resp["value"][ELEMENT].as_str() {
                return id.to_owned();
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "no element {css}: {}",
                resp["value"]
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// Click the element `css` selects.
    pub async fn click(&self, session: &str, css: &str) {
        let id = self.element(session, css).await;
        // The screens scroll in their own box (the page never does), which WebKit's driver
        // does not scroll for us: bring the element into view as a person would.
        self.call(
            reqwest::Method::POST,
            &format!("/session/{session}/execute/sync"),
            Some(json!({
                "script": "arguments[0].scrollIntoView({block: 'center', inline: 'nearest'})",
                "args": [{ ELEMENT: id }],
            })),
        )
        .await;
        self.call(
            reqwest::Method::POST,
            &format!("/session/{session}/element/{id}/click"),
            Some(json!({})),
        )
        .await;
    }

    /// Run a script in the page; what it returns.
    pub async fn execute(&self, session: &str, script: &str) -> Value {
        self.call(
            reqwest::Method::POST,
            &format!("/session/{session}/execute/sync"),
            Some(json!({"script": script, "args": []})),
        )
        .await
    }

    /// What the window shows, as PNG; WebKit paints after the DOM changes, so wait a moment.
    pub async fn screenshot(&self, session: &str) -> Vec<u8> {
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
    pub async fn wait_for(&self, session: &str, css: &str, wanted: &str, secs: u64) -> String {
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

    /// Type `text` into the element `css` selects, as a person would (after clearing it).
    pub async fn type_text(&self, session: &str, css: &str, text: &str) {
        let id = self.element(session, css).await;
        let el = format!("/session/{session}/element/{id}");
        self.call(
            reqwest::Method::POST,
            &format!("{el}/clear"),
            Some(json!({})),
        )
        .await;
        self.call(
            reqwest::Method::POST,
            &format!("{el}/value"),
            Some(json!({"text": text})),
        )
        .await;
    }

    /// Set an input's or select's value and tell the page (input and change events), the way
    /// a paste or a pick from a list does.
    pub async fn fill(&self, session: &str, css: &str, value: &str) {
        let script = "const el = document.querySelector(arguments[0]);
            if (!el) throw new Error('no element ' + arguments[0]);
            el.value = arguments[1];
            el.dispatchEvent(new Event('input', {bubbles: true}));
            el.dispatchEvent(new Event('change', {bubbles: true}));";
        self.call(
            reqwest::Method::POST,
            &format!("/session/{session}/execute/sync"),
            Some(json!({"script": script, "args": [css, value]})),
        )
        .await;
    }

    /// Go to a screen through the navigation, and wait until it shows.
    pub async fn nav(&self, session: &str, screen: &str) {
        self.click(session, &format!("#nav-{screen}")).await;
        self.element(session, &format!("#screen-{screen}")).await;
    }

    /// The text the element `css` selects shows.
    pub async fn text(&self, session: &str, css: &str) -> String {
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
