//! What the Redfish persona tests share: starting a persona (an iLO one from the captures in
//! `crates/sim/fixtures`), a small Redfish client over real HTTP, a media server serving
//! `boot.iso` and `oemdrv.img`, and waiting for state that changes after a delay.

#![allow(dead_code)]

use std::time::{Duration, Instant};

use bootsmith_sim::media::MediaServer;
use bootsmith_sim::redfish::{default_mockups, Persona, RedfishConfig, RedfishSim};
use reqwest::header::HeaderMap;
use serde_json::Value;

/// The persona with default settings and a short power delay; a missing capture fails the test
/// (the captures are part of the repository, not a fixture to install).
pub async fn start(persona: Persona) -> RedfishSim {
    start_with(RedfishConfig {
        power_delay: Duration::from_millis(100),
        ..RedfishConfig::new(persona)
    })
    .await
}

/// As [`start`], with a config of the test's own.
pub async fn start_with(cfg: RedfishConfig) -> RedfishSim {
    assert!(
        RedfishSim::available(cfg.persona, &cfg.mockups),
        "{:?}: no iLO capture under {} (it is part of the repository)",
        cfg.persona,
        default_mockups().display()
    );
    RedfishSim::start(cfg).await.expect("simulator starts")
}

/// An answer: status, headers, JSON body (Null when empty or not JSON).
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: HeaderMap,
    pub body: Value,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<String> {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    }

    /// The first `@Message.ExtendedInfo` MessageId of an error body.
    pub fn message_id(&self) -> String {
        self.body["error"]["@Message.ExtendedInfo"][0]["MessageId"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    pub fn message(&self) -> String {
        self.body["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }
}

/// A Redfish client: a session token once logged in.
pub struct Client {
    pub http: reqwest::Client,
    pub base: String,
    pub token: Option<String>,
}

impl Client {
    pub fn new(sim: &RedfishSim) -> Client {
        Client {
            http: reqwest::Client::builder().no_proxy().build().unwrap(),
            base: sim.address(),
            token: None,
        }
    }

    /// Log in with the body credentials (admin/password); the session answer.
    pub async fn login(&mut self) -> Answer {
        let a = self
            .send(
                reqwest::Method::POST,
                "/redfish/v1/SessionService/Sessions",
                Some(serde_json::json!({"UserName": "admin", "Password": "password"})),
                &[],
            )
            .await;
        assert_eq!(a.status, 201, "login: {a:?}");
        self.token = a.header("x-auth-token");
        a
    }

    /// A logged-in client.
    pub async fn logged_in(sim: &RedfishSim) -> Client {
        let mut c = Client::new(sim);
        c.login().await;
        c
    }

    pub async fn send(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
        headers: &[(&str, &str)],
    ) -> Answer {
        let mut r = self.http.request(method, format!("{}{path}", self.base));
        if let Some(t) = &self.token {
            r = r.header("X-Auth-Token", t);
        }
        for (k, v) in headers {
            r = r.header(*k, *v);
        }
        if let Some(b) = body {
            r = r.json(&b);
        }
        let resp = r.send().await.expect("request answered");
        let status = resp.status().as_u16();
        let headers = resp.headers().clone();
        let text = resp.text().await.unwrap_or_default();
        Answer {
            status,
            headers,
            body: serde_json::from_str(&text).unwrap_or(Value::Null),
        }
    }

    pub async fn get(&self, path: &str) -> Answer {
        self.send(reqwest::Method::GET, path, None, &[]).await
    }

    /// POST with a JSON body (None: no body at all).
    pub async fn post(&self, path: &str, body: Option<Value>) -> Answer {
        self.send(reqwest::Method::POST, path, body, &[]).await
    }

    pub async fn patch(&self, path: &str, body: Value, if_match: Option<&str>) -> Answer {
        let h: Vec<(&str, &str)> = if_match.map(|m| ("If-Match", m)).into_iter().collect();
        self.send(reqwest::Method::PATCH, path, Some(body), &h)
            .await
    }

    pub async fn delete(&self, path: &str) -> Answer {
        self.send(reqwest::Method::DELETE, path, None, &[]).await
    }
}

/// A media server with a 1 MiB `boot.iso` and a 1 MiB `oemdrv.img`.
pub async fn media() -> MediaServer {
    MediaServer::start(&[
        ("boot.iso", vec![0x43; 1 << 20]),
        ("oemdrv.img", vec![0xEB; 1 << 20]),
    ])
    .await
    .unwrap()
}

/// Wait until `f` holds (at most 5 s).
pub async fn until(what: &str, mut f: impl FnMut() -> bool) {
    let start = Instant::now();
    while !f() {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "timed out: {what}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The media server saw a HEAD and a range GET of `path`.
pub fn assert_fetched(m: &MediaServer, path: &str) {
    let seen = m.requests_for(path);
    assert!(
        seen.first().map(String::as_str) == Some("HEAD")
            && seen.iter().any(|r| r.starts_with("GET bytes=0-")),
        "{path}: {seen:?}"
    );
}
