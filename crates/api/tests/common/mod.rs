//! A real server on loopback over a real SQLite file in a temp dir.

#![allow(dead_code)]

use std::path::PathBuf;

use bootsmith_api::ApiState;
use bootsmith_core::{App, Config};
use reqwest::{Method, StatusCode};
use serde_json::Value;
use tokio::sync::oneshot;

pub struct Server {
    pub base: String,
    pub token: String,
    pub app: App,
    pub client: reqwest::Client,
    pub dir: tempfile::TempDir,
    stop: Option<oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<()>>,
}

pub fn config(dir: &std::path::Path) -> Config {
    Config {
        data_dir: dir.join("data"),
        svc_dir: dir.join("svc"),
        use_keyring: false,
    }
}

impl Server {
    pub async fn start() -> Server {
        Self::start_in(tempfile::tempdir().unwrap(), true).await
    }

    pub async fn start_in(dir: tempfile::TempDir, auth: bool) -> Server {
        Self::start_with_cors(dir, auth, &[]).await
    }

    /// A server that lets browser pages from `origins` call it.
    pub async fn start_with_cors(dir: tempfile::TempDir, auth: bool, origins: &[&str]) -> Server {
        let app = App::open(config(dir.path())).await.expect("app opens");
        let origins = origins
            .iter()
            .map(|o| bootsmith_api::cors::CorsOrigin::parse(o).unwrap())
            .collect();
        let state = ApiState::new(app.clone(), auth)
            .await
            .unwrap()
            .with_cors(origins);
        let token = bootsmith_core::auth::token(&app)
            .await
            .unwrap()
            .expose()
            .to_owned();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let (tx, rx) = oneshot::channel();
        let task = tokio::spawn(async move {
            bootsmith_api::serve(listener, state, async {
                let _ = rx.await;
            })
            .await
            .unwrap();
        });
        Server {
            base,
            token,
            app,
            client: reqwest::Client::new(),
            dir,
            stop: Some(tx),
            task: Some(task),
        }
    }

    /// Stop serving and close the store; returns the temp dir for a restart.
    pub async fn stop(mut self) -> tempfile::TempDir {
        let _ = self.stop.take().unwrap().send(());
        self.task.take().unwrap().await.unwrap();
        self.app.close().await;
        let dir = tempfile::tempdir().unwrap();
        std::mem::replace(&mut self.dir, dir)
    }

    pub fn svc(&self) -> PathBuf {
        self.app.svc_dir().to_owned()
    }

    pub fn data(&self) -> PathBuf {
        self.app.data_dir().to_owned()
    }

    /// Send with the token; JSON body with the JSON content type.
    pub async fn call(
        &self,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let mut req = self
            .client
            .request(method, format!("{}{path}", self.base))
            .bearer_auth(&self.token);
        if let Some(b) = body {
            req = req.json(&b);
        }
        read(req.send().await.unwrap()).await
    }

    pub async fn get(&self, path: &str) -> (StatusCode, Value) {
        self.call(Method::GET, path, None).await
    }
    pub async fn post(&self, path: &str, body: Value) -> (StatusCode, Value) {
        self.call(Method::POST, path, Some(body)).await
    }
    pub async fn put(&self, path: &str, body: Value) -> (StatusCode, Value) {
        self.call(Method::PUT, path, Some(body)).await
    }
    pub async fn delete(&self, path: &str, body: Value) -> (StatusCode, Value) {
        self.call(Method::DELETE, path, Some(body)).await
    }

    /// POST `path` (a `?wait=false` job call) with `body`, expect 202, and open the job's event
    /// stream: the 202 answer and the stream's response.
    pub async fn start_job(&self, path: &str, body: Value) -> (Value, reqwest::Response) {
        let resp = self
            .client
            .post(format!("{}{path}", self.base))
            .bearer_auth(&self.token)
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::ACCEPTED);
        let accepted: Value = resp.json().await.unwrap();
        let events = self
            .client
            .get(format!(
                "{}{}",
                self.base,
                accepted["events"].as_str().unwrap()
            ))
            .bearer_auth(&self.token)
            .send()
            .await
            .unwrap();
        (accepted, events)
    }

    /// Send raw bytes with a given content type (or none).
    pub async fn raw(
        &self,
        method: Method,
        path: &str,
        content_type: Option<&str>,
        body: Vec<u8>,
    ) -> (StatusCode, Value) {
        let mut req = self
            .client
            .request(method, format!("{}{path}", self.base))
            .bearer_auth(&self.token)
            .body(body);
        if let Some(ct) = content_type {
            req = req.header("content-type", ct);
        }
        read(req.send().await.unwrap()).await
    }
}

/// Every answer must be JSON; a non-JSON body fails the test.
pub async fn read(resp: reqwest::Response) -> (StatusCode, Value) {
    let status = resp.status();
    let ct = resp
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_owned());
    let text = resp.text().await.unwrap();
    assert_eq!(
        ct.as_deref(),
        Some("application/json"),
        "status {status}, body {text:?} is not JSON"
    );
    let v: Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("invalid JSON {text:?}: {e}"));
    (status, v)
}

/// Error bodies carry a sentence and a stable code.
pub fn assert_error(resp: &(StatusCode, Value), status: u16, code: &str) {
    assert_eq!(
        resp.0.as_u16(),
        status,
        "unexpected status; body {}",
        resp.1
    );
    assert_eq!(resp.1["code"], code, "unexpected code; body {}", resp.1);
    assert!(
        resp.1["error"].as_str().is_some_and(|s| s.len() > 10),
        "no sentence in {}",
        resp.1
    );
}

pub fn network(name: &str) -> Value {
    serde_json::json!({"name": name, "netmask": "255.255.255.0", "gateway": "10.1.0.1",
        "nameserver": "10.1.0.53", "ntpserver": "pool.ntp.org"})
}

pub fn group(name: &str, password: &str) -> Value {
    serde_json::json!({"name": name, "type": "ucsm",
        "credentials": {"ip": "127.0.0.1:9", "user": "admin", "password": password},
        "check_login": false,
        "server_pool": {"blades": ["1/1", "1/2"]}, "vlan": "default"})
}

pub fn host(name: &str, ip: &str, os: &str, net: &str) -> Value {
    serde_json::json!({"name": name, "ip": ip, "os": os, "role": "generic", "network_group": net})
}

pub const KEY_A: &str =
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJRsCR05CTCVLtFICOdFoTw56mQeLuHhOQNlJKwXUwaI alice@lab";
pub const KEY_B: &str = "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQChVsBWmhmtSPs9/6e9u0I9xWMBYhy5nMKPQNyvB1SCHMSIzcdqIhsFSkRfgMp7nUc4agXfOpQUE6lorlpaGCBCRalgO08xnOigbuvo5vxCSeCDMMSxMfw4gEFtSt7zMazamtqHa5Cl87oksGI0EyAeddNuw4Wq91xFdCtsaG59kcxzY9nZlGHe+pwi8xsBy986PZhAn1eRvzOS/T8sVI08Pu/3YHfWcoOm5ac+6QcnlrPqihY8iqaMcdZ2R+ogh/BB9gozoV5r8IE2TxJD78F0ZBTNc/Z4ZNY0C0awU2MVjiiPQAn/a+OR+2kJD+NdzjfQSE1RCBlENVc8FieXaflP bob@lab";
