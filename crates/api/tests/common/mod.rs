//! The API over a real SQLite file in a temp dir (`bootsmith_core::testing`), reached one of
//! two ways, chosen by how a test starts it:
//!
//! - [`Server::start`] (and `start_in`, `start_with_cors`): **in-process**. Each request is
//!   handed to the service's `Router` (`bootsmith_api::router`, the one `serve` runs: auth,
//!   body limit, CORS, fallbacks) with `tower::ServiceExt::oneshot`, in a task of its own as a
//!   connection would be: no port, no socket. Right for the REST contract: statuses, JSON
//!   bodies, headers. The app's svc port stays 0.
//! - [`Server::listening`] (and `listening_in`): a **real listener** on loopback
//!   (`bootsmith_api::serve`), for what only a socket shows: `/svc` fetched as a management
//!   controller does (HEAD, byte ranges, curl, raw TCP), Server-Sent Events read while a job
//!   runs, an upload cut off mid-body, and every test that hands our svc URL to the simulator
//!   or QEMU (deploy, images, boot), since install media point servers at the listener's port.
//!
//! Either way the helpers are the same: [`Server::call`] and `get`/`post`/`put`/`delete`/`raw`
//! send with the token and give the status and the JSON body; [`Server::request`] builds any
//! other request (no token unless asked). [`Call::open`] (an event stream, unread),
//! [`Server::start_job`], [`Server::base`] and [`Server::client`] (reqwest) are for listening
//! servers only, and say so when called on an in-process one.

#![allow(dead_code)] // each test file uses a part

use std::path::PathBuf;

use axum::body::{Body, Bytes};
use bootsmith_api::ApiState;
use bootsmith_core::testing::TempApp;
use bootsmith_core::App;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue, CONTENT_TYPE};
use reqwest::{Method, StatusCode};
use serde_json::Value;
use tokio::sync::oneshot;
use tower::ServiceExt;

pub struct Server {
    pub token: String,
    pub app: App,
    pub dir: tempfile::TempDir,
    transport: Transport,
}

enum Transport {
    /// Requests go straight to the router.
    InProcess(axum::Router),
    /// `serve` on a loopback port.
    Listening {
        base: String,
        client: reqwest::Client,
        stop: oneshot::Sender<()>,
        task: tokio::task::JoinHandle<()>,
    },
}

impl Server {
    /// In-process, on a fresh temp dir, with token auth.
    pub async fn start() -> Server {
        Self::start_in(tempfile::tempdir().unwrap(), true).await
    }

    /// In-process, on `dir` (fresh, or given back by [`Server::stop`]), auth on or off.
    pub async fn start_in(dir: tempfile::TempDir, auth: bool) -> Server {
        Self::start_with_cors(dir, auth, &[]).await
    }

    /// In-process, letting browser pages from `origins` call it.
    pub async fn start_with_cors(dir: tempfile::TempDir, auth: bool, origins: &[&str]) -> Server {
        let (app, dir, state) = state(dir, auth, origins).await;
        let token = token(&app).await;
        Server {
            token,
            app,
            dir,
            transport: Transport::InProcess(bootsmith_api::router(state)),
        }
    }

    /// On a real loopback listener, on a fresh temp dir, with token auth.
    pub async fn listening() -> Server {
        Self::listening_in(tempfile::tempdir().unwrap(), true).await
    }

    /// On a real loopback listener, on `dir`, auth on or off.
    pub async fn listening_in(dir: tempfile::TempDir, auth: bool) -> Server {
        Self::listening_on(dir, auth, "127.0.0.1:0").await
    }

    /// On a real listener on every address of the machine (`0.0.0.0`), so that 127.0.0.1 and
    /// 127.0.0.2 both reach it: a boot-server address that moves and still works.
    pub async fn listening_everywhere() -> Server {
        Self::listening_on(tempfile::tempdir().unwrap(), true, "0.0.0.0:0").await
    }

    /// On a real listener bound to `bind`, reached at 127.0.0.1, on `dir`, auth on or off.
    async fn listening_on(dir: tempfile::TempDir, auth: bool, bind: &str) -> Server {
        let (app, dir, state) = state(dir, auth, &[]).await;
        let token = token(&app).await;
        let listener = tokio::net::TcpListener::bind(bind).await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let base = format!("http://127.0.0.1:{port}");
        let (stop, rx) = oneshot::channel();
        let task = tokio::spawn(async move {
            bootsmith_api::serve(listener, state, async {
                let _ = rx.await;
            })
            .await
            .unwrap();
        });
        Server {
            token,
            app,
            dir,
            transport: Transport::Listening {
                base,
                client: reqwest::Client::new(),
                stop,
                task,
            },
        }
    }

    /// Stop serving and close the store; returns the temp dir for a restart.
    pub async fn stop(self) -> tempfile::TempDir {
        if let Transport::Listening { stop, task, .. } = self.transport {
            let _ = stop.send(());
            task.await.unwrap();
        }
        TempApp {
            app: self.app,
            dir: self.dir,
        }
        .close()
        .await
    }

    /// `http://127.0.0.1:<port>` of a listening server.
    pub fn base(&self) -> &str {
        match &self.transport {
            Transport::Listening { base, .. } => base,
            Transport::InProcess(_) => {
                panic!("an in-process server has no address: start it with Server::listening()")
            }
        }
    }

    /// A reqwest client for a listening server's [`Server::base`].
    pub fn client(&self) -> &reqwest::Client {
        match &self.transport {
            Transport::Listening { client, .. } => client,
            Transport::InProcess(_) => panic!(
                "an in-process server has no socket: use Server::request, or Server::listening()"
            ),
        }
    }

    pub fn svc(&self) -> PathBuf {
        self.app.svc_dir().to_owned()
    }

    pub fn data(&self) -> PathBuf {
        self.app.data_dir().to_owned()
    }

    /// A request to `path`, without the token unless [`Call::token`] adds it.
    pub fn request(&self, method: Method, path: &str) -> Call<'_> {
        Call {
            server: self,
            method,
            path: path.to_owned(),
            headers: HeaderMap::new(),
            body: Vec::new(),
        }
    }

    /// Send with the token; JSON body with the JSON content type.
    pub async fn call(
        &self,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let req = self.request(method, path).token();
        match body {
            Some(b) => req.json(&b),
            None => req,
        }
        .read()
        .await
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
    /// stream (listening servers): the 202 answer and the stream's response.
    pub async fn start_job(&self, path: &str, body: Value) -> (Value, reqwest::Response) {
        let (status, accepted) = self.post(path, body).await;
        assert_eq!(status, StatusCode::ACCEPTED, "{accepted}");
        let events = self
            .request(Method::GET, accepted["events"].as_str().unwrap())
            .token()
            .open()
            .await;
        (accepted, events)
    }

    /// Send raw bytes with the token and a given content type (or none).
    pub async fn raw(
        &self,
        method: Method,
        path: &str,
        content_type: Option<&str>,
        body: Vec<u8>,
    ) -> (StatusCode, Value) {
        let req = self.request(method, path).token().body(body);
        match content_type {
            Some(ct) => req.header("content-type", ct),
            None => req,
        }
        .read()
        .await
    }
}

/// The app on `dir` and the API state over it.
async fn state(
    dir: tempfile::TempDir,
    auth: bool,
    origins: &[&str],
) -> (App, tempfile::TempDir, ApiState) {
    let TempApp { app, dir } = TempApp::open_in(dir).await;
    let origins = origins
        .iter()
        .map(|o| bootsmith_api::cors::CorsOrigin::parse(o).unwrap())
        .collect();
    let state = ApiState::new(app.clone(), auth)
        .await
        .unwrap()
        .with_cors(origins);
    (app, dir, state)
}

async fn token(app: &App) -> String {
    bootsmith_core::auth::token(app)
        .await
        .unwrap()
        .expose()
        .to_owned()
}

/// A request being built; the same calls as reqwest's builder, sent either way.
pub struct Call<'a> {
    server: &'a Server,
    method: Method,
    path: String,
    headers: HeaderMap,
    body: Vec<u8>,
}

impl Call<'_> {
    /// With the server's token.
    pub fn token(self) -> Self {
        let token = self.server.token.clone();
        self.bearer_auth(&token)
    }

    pub fn bearer_auth(self, token: &str) -> Self {
        self.header("authorization", &format!("Bearer {token}"))
    }

    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.append(
            HeaderName::from_bytes(name.as_bytes()).unwrap(),
            HeaderValue::from_str(value).unwrap(),
        );
        self
    }

    /// `body` as JSON, with the JSON content type.
    pub fn json(self, body: &Value) -> Self {
        self.header("content-type", "application/json")
            .body(serde_json::to_vec(body).unwrap())
    }

    pub fn body(mut self, body: Vec<u8>) -> Self {
        self.body = body;
        self
    }

    /// Send and read the whole answer.
    pub async fn send(self) -> Answer {
        let Transport::InProcess(router) = &self.server.transport else {
            let resp = self.open().await;
            return Answer {
                status: resp.status(),
                headers: resp.headers().clone(),
                body: resp.bytes().await.unwrap(),
            };
        };
        let mut req = axum::http::Request::builder()
            .method(self.method)
            .uri(self.path);
        *req.headers_mut().unwrap() = self.headers;
        if !self.body.is_empty() {
            req = req.header("content-length", self.body.len());
        }
        let req = req.body(Body::from(self.body)).unwrap();
        // A task per request, as hyper runs a connection: concurrent calls run in parallel.
        let resp = tokio::spawn(router.clone().oneshot(req))
            .await
            .unwrap()
            .unwrap();
        let (parts, body) = resp.into_parts();
        Answer {
            status: parts.status,
            headers: parts.headers,
            body: axum::body::to_bytes(body, usize::MAX).await.unwrap(),
        }
    }

    /// Send to a listening server and give back the response unread, to read an event
    /// stream as it comes.
    pub async fn open(self) -> reqwest::Response {
        self.server
            .client()
            .request(self.method, format!("{}{}", self.server.base(), self.path))
            .headers(self.headers)
            .body(self.body)
            .send()
            .await
            .unwrap()
    }

    /// Send, and read the answer as [`read`] does.
    pub async fn read(self) -> (StatusCode, Value) {
        read(self.send().await)
    }
}

/// A whole answer.
#[derive(Debug)]
pub struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Bytes,
}

/// Every answer must be JSON; a non-JSON body fails the test.
pub fn read(answer: Answer) -> (StatusCode, Value) {
    let status = answer.status;
    let ct = answer
        .headers
        .get(CONTENT_TYPE)
        .map(|v| v.to_str().unwrap().to_owned());
    let text = String::from_utf8_lossy(&answer.body);
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
/// The simulator's blade 1/1 as a refusal names it: it runs a profile Bootsmith did not create.
pub const FOREIGN_BLADE: &str = "blade 1/1 (profile org-root/ls-existing-sp, power on)";

/// A `409 server_in_use` refusal whose sentence names `server` (as [`FOREIGN_BLADE`]) and says
/// how to go ahead anyway.
pub fn assert_in_use(resp: &(StatusCode, Value), server: &str) {
    assert_error(resp, 409, "server_in_use");
    let said = resp.1["error"].as_str().unwrap();
    assert!(
        said.contains(server) && said.contains("force: true"),
        "{said}"
    );
}

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

/// The clear password the store keeps for the server group `name`.
pub async fn stored_password(s: &Server, name: &str) -> String {
    let g = bootsmith_core::records::server_groups::get(&s.app, name)
        .await
        .unwrap();
    bootsmith_core::records::server_groups::password(&s.app, &g)
        .unwrap()
        .expose()
        .to_owned()
}

/// Sets the boot server's address; fails unless it is accepted.
pub async fn set_svc_ip(s: &Server, ip: &str) {
    let r = s
        .post("/api/v1/ip", serde_json::json!({ "svc_ip": ip }))
        .await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
}

/// Adds the network group `name` with the gateway `gateway` and DNS and NTP servers on
/// `nameserver` and `ntpserver`, netmask `netmask`; fails unless it is created.
pub async fn add_network(
    s: &Server,
    name: &str,
    netmask: &str,
    gateway: &str,
    nameserver: &str,
    ntpserver: &str,
) {
    let net = serde_json::json!({"name": name, "netmask": netmask, "gateway": gateway,
        "nameserver": nameserver, "ntpserver": ntpserver});
    let r = s.post("/api/v2/networks", net).await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
}

/// The boot-server address of tests that deploy: the test's own listener is on it, so the
/// URLs handed to the simulator work (its virtual media fetch them, as controllers do).
pub const SVC_IP: &str = "127.0.0.1";

/// Another loopback address: a listener bound to [`SVC_IP`] refuses connections on it (one
/// from [`Server::listening_everywhere`] takes them).
pub const OTHER_IP: &str = "127.0.0.2";

/// Adds a group `name` of `kind` managed by the simulator at `address`, sets the boot
/// server's address to [`SVC_IP`] and adds the network group `mgmt` on 192.0.2.0/24.
pub async fn managed_group(s: &Server, name: &str, kind: &str, address: &str) {
    let group = serde_json::json!({"name": name, "type": kind,
        "credentials": {"ip": address, "user": "admin", "password": "password"}});
    let r = s.post("/api/v2/servers", group).await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    set_svc_ip(s, SVC_IP).await;
    add_network(s, "mgmt", "24", "192.0.2.1", "192.0.2.53", "192.0.2.123").await;
}

/// Puts a placeholder file of each name in `files` into svc: small, but real files, which
/// svc serves and the simulator's virtual media fetch (`HEAD`, then a range).
pub fn svc_files(s: &Server, files: &[&str]) {
    for f in files {
        std::fs::write(s.svc().join(f), b"x").unwrap();
    }
}

/// The `(step, state, message)` of every event of `job` about `host`, in order.
pub fn host_steps(job: &Value, host: &str) -> Vec<(String, String, String)> {
    job["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["host"] == host)
        .map(|e| {
            (
                e["step"].as_str().unwrap_or_default().to_owned(),
                e["state"].as_str().unwrap_or_default().to_owned(),
                e["message"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

/// The `media` step of `host` that ended it (done, failed or skipped): its state and message.
pub fn media_outcome(job: &Value, host: &str) -> (String, String) {
    host_steps(job, host)
        .into_iter()
        .filter(|(step, state, _)| step == "media" && state != "started")
        .map(|(_, state, message)| (state, message))
        .next_back()
        .unwrap_or_else(|| panic!("no media step of {host} in {job}"))
}

/// A loopback port nothing listens on (bound, then let go).
pub fn closed_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

/// The port of a listening server (the one svc URLs name).
pub fn port_of(s: &Server) -> String {
    s.base().rsplit(':').next().unwrap().to_owned()
}

/// Whether every object of a deploy's plan or result has the action `action`.
pub fn every_object_is(result: &Value, action: &str) -> bool {
    result["objects"]
        .as_array()
        .unwrap()
        .iter()
        .all(|o| o["action"] == action)
}

/// The dns of a deploy's plan or result, in order.
pub fn object_dns(result: &Value) -> Vec<&str> {
    result["objects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["dn"].as_str().unwrap())
        .collect()
}

/// The dns of a deploy's plan or result whose action is `action`.
pub fn dns_with_action<'a>(result: &'a Value, action: &str) -> Vec<&'a str> {
    result["objects"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["action"] == action)
        .map(|o| o["dn"].as_str().unwrap())
        .collect()
}

/// The newest job, with its events.
pub async fn latest_job(s: &Server) -> Value {
    let (_, jobs) = s.get("/api/v2/jobs").await;
    let id = jobs["jobs"][0]["id"].as_str().unwrap();
    s.get(&format!("/api/v2/jobs/{id}")).await.1
}

pub use bootsmith_media::testing::pack_iso;

/// mkisofs arguments for a BIOS boot entry (isolinux) and a UEFI one (images/efiboot.img).
pub fn bios_and_uefi_boot() -> [&'static str; 12] {
    bootsmith_media::testing::bios_and_uefi(
        "isolinux/isolinux.bin",
        "isolinux/boot.cat",
        "images/efiboot.img",
    )
}

/// scripts/sample-iso.sh's look-alike of the catalog OS `id` (or of a point release of it).
pub fn sample_iso_of(path: &std::path::Path, id: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let out = std::process::Command::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../scripts/sample-iso.sh"
    ))
    .arg(path)
    .arg(id)
    .output()
    .expect("scripts/sample-iso.sh runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A small ISO shaped like CentOS 7.4 media, `dir/name`, built with xorriso.
pub fn centos_iso(dir: &std::path::Path, name: &str) {
    let tree = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(tree.path().join("images")).unwrap();
    std::fs::write(
        tree.path().join(".discinfo"),
        "1505340016.186372\n7.4\nx86_64\n",
    )
    .unwrap();
    std::fs::write(tree.path().join("images/install.img"), vec![1u8; 10_000]).unwrap();
    pack_iso(tree.path(), &dir.join(name), "CentOS 7 x86_64", &[]);
}

/// How many `configConfMos` transactions the simulator `u` has been sent.
pub fn confmos(u: &bootsmith_sim::Sim) -> u64 {
    u.method_counts().get("configConfMos").copied().unwrap_or(0)
}

/// The text at `key` of each item of the JSON array `list`, in order.
pub fn field_of_each<'a>(list: &'a Value, key: &str) -> Vec<&'a str> {
    list.as_array()
        .unwrap_or_else(|| panic!("not an array: {list}"))
        .iter()
        .map(|item| item[key].as_str().unwrap())
        .collect()
}

/// What each disk of a server's `disks` list is: (id, kind, RAID level, the virtual drive it
/// is a member of).
pub fn disk_kinds(list: &Value) -> Vec<(&str, &str, Option<&str>, Option<&str>)> {
    list.as_array()
        .unwrap_or_else(|| panic!("not an array: {list}"))
        .iter()
        .map(|d| {
            (
                d["id"].as_str().unwrap(),
                d["kind"].as_str().unwrap(),
                d["raid"].as_str(),
                d["member_of"].as_str(),
            )
        })
        .collect()
}

/// A bootable CentOS-7-shaped installer ISO with BIOS and UEFI entries, in svc as `c7.iso`,
/// with a 300 000-byte package in its tree.
pub fn bootable_centos_iso(s: &Server) {
    let tree = s.dir.path().join("c7-tree");
    for (path, text) in [
        (".discinfo", "1505340016.186372\n7.4\nx86_64\n"),
        (".treeinfo", "[general]\nfamily = CentOS\n"),
        (
            "isolinux/isolinux.cfg",
            "label linux\n  kernel vmlinuz\n  append initrd=initrd.img quiet\n",
        ),
        ("isolinux/isolinux.bin", &"\u{90}".repeat(2048)),
        ("isolinux/vmlinuz", "kernel"),
        ("Packages/a.rpm", &"a".repeat(300_000)),
    ] {
        let p = tree.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    std::fs::create_dir_all(tree.join("images")).unwrap();
    assert!(std::process::Command::new("mkfs.fat")
        .arg("-C")
        .arg(tree.join("images/efiboot.img"))
        .arg("1024")
        .output()
        .unwrap()
        .status
        .success());
    pack_iso(
        &tree,
        &s.svc().join("c7.iso"),
        "CentOS 7 x86_64",
        &bios_and_uefi_boot(),
    );
}

/// The host records of a `GET /api/v2/hosts` list, as they were sent: without each host's
/// install `status` and `media`.
pub fn records_of(hosts: &Value) -> Value {
    let mut list = hosts.clone();
    for h in list.as_array_mut().unwrap() {
        let h = h.as_object_mut().unwrap();
        h.remove("status");
        h.remove("media");
    }
    list
}

/// Run an answer file's callback line with a shell, as the installer does; it must succeed.
pub async fn run_in_shell(line: String) {
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new("sh")
            .arg("-c")
            .arg(&line)
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Wait (up to 10 s) until `f` holds.
pub async fn until(what: &str, mut f: impl FnMut() -> bool) {
    for _ in 0..100 {
        if f() {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("{what} did not happen");
}

/// Wait (up to 10 s) until `check` holds on the simulator (its changes take a moment).
pub async fn sim_until(
    u: &bootsmith_sim::Sim,
    what: &str,
    check: impl Fn(&bootsmith_sim::Sim) -> bool,
) {
    until(what, || check(u)).await;
}

/// `host`'s entry in the host list (with its install status and media).
pub async fn status_of(s: &Server, host: &str) -> Value {
    let (st, list) = s.get("/api/v2/hosts").await;
    assert_eq!(st, StatusCode::OK, "{list}");
    list["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["name"] == host)
        .cloned()
        .unwrap_or_else(|| panic!("{host} not listed: {list}"))
}

/// Wait (up to 10 s) until `host` reaches `state`; its entry then.
pub async fn until_state(s: &Server, host: &str, state: &str) -> Value {
    for _ in 0..100 {
        let h = status_of(s, host).await;
        if h["status"]["state"] == state {
            return h;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("{host} never reached {state}: {}", status_of(s, host).await);
}

/// The kickstart of `host`, read from its answer image in svc.
pub fn kickstart(s: &Server, host: &str) -> String {
    let (_, files) =
        bootsmith_media::fat::read_image(&s.svc().join(format!("{host}.img"))).unwrap();
    let ks = files.iter().find(|f| f.name == "ks.cfg").expect("ks.cfg");
    String::from_utf8(ks.contents.clone()).unwrap()
}

/// Deploy `group`, following its profiles until they are associated; the finished result.
pub async fn deploy_associated(s: &Server, group: &str) -> Value {
    let (st, done) = s
        .call(
            Method::POST,
            &format!("/api/v2/servers/{group}/deploy?until=associated"),
            None,
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{done}");
    done
}

/// Send this test process's events to `<data>/bootsmith.log` in the program's JSON format, so
/// `GET /api/v2/logs` reads what the core logged. Once per test binary (a global subscriber).
pub fn log_to(data: &std::path::Path) {
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::Layer;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(data.join(bootsmith_core::logs::LOG_FILE))
        .unwrap();
    let layer = tracing_subscriber::fmt::layer()
        .json()
        .with_writer(std::sync::Mutex::new(file))
        .with_filter(tracing_subscriber::EnvFilter::new("info"));
    tracing::subscriber::set_global_default(tracing_subscriber::registry().with(layer))
        .expect("one test per binary installs a subscriber");
}
