//! Transport for one BMC: the HTTP client (TLS trust as configured), login (session or Basic),
//! one re-login on 401, bounded retries honouring `Retry-After`, task monitors for 202
//! answers, and the ETag memory behind `If-Match`.

use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::net::Ipv6Addr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex as StdMutex;
use std::time::{Duration, Instant, SystemTime};

use reqwest::header::{HeaderMap, HeaderValue};
use serde_json::{json, Value};

use crate::error::{bmc_message, Error, Result};
use crate::quirks::{Effect, Quirks};
use crate::request::{etag_ladder, IfMatch, Method, Request};
use crate::session::{session_uri, to_path, Auth, AuthMode, SessionUriFrom};
use crate::tls::{self, Failure, Seen, Trust};

/// The standard session collection, used when the service root names none.
pub const SESSIONS: &str = "/redfish/v1/SessionService/Sessions";

/// How to reach and log in to one BMC.
#[derive(Clone)]
pub struct Config {
    /// `10.0.0.5`, `bmc.lab:8443` or `http://127.0.0.1:8000` (HTTPS on 443 by default).
    pub address: String,
    /// Login name.
    pub user: String,
    /// Login password.
    pub password: String,
    /// Certificate trust.
    pub trust: Trust,
    /// Per-request timeout.
    pub timeout: Duration,
    /// Attempts per request for retryable failures (at least 1).
    pub attempts: u32,
    /// First backoff between attempts; doubled each time.
    pub backoff: Duration,
    /// The longest `Retry-After` honoured (a BMC asking for more is waited this long).
    pub retry_after_cap: Duration,
    /// How long a task monitor may keep answering 202.
    pub task_timeout: Duration,
}

impl Config {
    /// A configuration with the defaults: verified TLS, 30 s per request, 3 attempts from 1 s,
    /// `Retry-After` capped at 30 s, tasks up to 10 minutes.
    pub fn new(
        address: impl Into<String>,
        user: impl Into<String>,
        password: impl Into<String>,
    ) -> Config {
        Config {
            address: address.into(),
            user: user.into(),
            password: password.into(),
            trust: Trust::Verify,
            timeout: Duration::from_secs(30),
            attempts: 3,
            backoff: Duration::from_secs(1),
            retry_after_cap: Duration::from_secs(30),
            task_timeout: Duration::from_secs(600),
        }
    }
}

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Config")
            .field("address", &self.address)
            .field("user", &self.user)
            .field("password", &"<redacted>")
            .field("trust", &self.trust)
            .field("timeout", &self.timeout)
            .finish()
    }
}

/// An answer from the BMC: status, headers and JSON body (`Null` when empty).
#[derive(Debug, Clone)]
pub struct Reply {
    /// HTTP status.
    pub status: u16,
    /// Response headers.
    pub headers: HeaderMap,
    /// Parsed JSON body; a non-JSON body is kept as a (shortened) string.
    pub body: Value,
}

impl Reply {
    /// A header's value as text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The resource's ETag: the header, else the body's `@odata.etag`; empty counts as none.
    pub fn etag(&self) -> Option<String> {
        self.header("etag")
            .map(str::to_owned)
            .or_else(|| {
                self.body
                    .get("@odata.etag")
                    .and_then(Value::as_str)
                    .map(str::to_owned)
            })
            .filter(|e| !e.trim().is_empty())
    }

    /// The methods named by the `Allow` header (upper case).
    pub fn allow(&self) -> Vec<String> {
        self.header("allow")
            .map(|a| {
                a.split(',')
                    .map(|m| m.trim().to_ascii_uppercase())
                    .filter(|m| !m.is_empty())
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// A connection to one BMC.
pub struct Client {
    cfg: Config,
    base: String,
    http: reqwest::Client,
    seen: Seen,
    auth: tokio::sync::Mutex<Auth>,
    etags: StdMutex<HashMap<String, String>>,
    quirks: StdMutex<Quirks>,
    applied: StdMutex<BTreeSet<String>>,
    /// Send `Accept-Encoding: identity` (dropped after a 406, as HPE Gen10 Plus wants).
    identity_encoding: AtomicBool,
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("cfg", &self.cfg)
            .field("base", &self.base)
            .finish()
    }
}

/// `https://<address>` for an address as operators write it (a scheme given is kept).
pub fn base_url(address: &str) -> String {
    if address.contains("://") {
        address.trim_end_matches('/').to_owned()
    } else if address.parse::<Ipv6Addr>().is_ok() {
        format!("https://[{address}]")
    } else {
        format!("https://{address}")
    }
}

/// The wait a `Retry-After` header asks for (delta seconds or an HTTP date), capped.
pub fn retry_after(headers: &HeaderMap, cap: Duration) -> Option<Duration> {
    let v = headers.get("retry-after")?.to_str().ok()?.trim();
    let wait = if let Ok(secs) = v.parse::<u64>() {
        Duration::from_secs(secs)
    } else {
        let at = httpdate::parse_http_date(v).ok()?;
        at.duration_since(SystemTime::now())
            .unwrap_or(Duration::ZERO)
    };
    Some(wait.min(cap))
}

/// True for answers that say "busy, try again" even to a write: 503, and iDRAC's SYS518
/// ("iDRAC is currently unable to display any information").
fn busy(status: u16, body: &Value) -> bool {
    if status == 503 {
        return true;
    }
    if status < 400 {
        return false;
    }
    let (message, id, _) = bmc_message(body);
    id.is_some_and(|i| i.contains("SYS518")) || message.contains("SYS518")
}

impl Client {
    /// A client; nothing is sent until the first call.
    pub fn new(mut cfg: Config) -> Result<Client> {
        if let Trust::Pinned(p) = &cfg.trust {
            let fp = tls::normalize_fingerprint(p)
                .ok_or_else(|| Error::Invalid(format!("not a SHA-256 fingerprint: {p}")))?;
            cfg.trust = Trust::Pinned(fp);
        }
        cfg.attempts = cfg.attempts.max(1);
        let (tls, seen) = tls::client_config(cfg.trust.clone());
        let http = reqwest::Client::builder()
            .use_preconfigured_tls(tls)
            .timeout(cfg.timeout)
            .connect_timeout(cfg.timeout.min(Duration::from_secs(10)))
            // sushy: "some BMCs choke at long-running persistent HTTP connections".
            .pool_max_idle_per_host(0)
            .build()
            .map_err(|e| Error::Invalid(format!("cannot build an HTTP client: {e}")))?;
        Ok(Client {
            base: base_url(&cfg.address),
            cfg,
            http,
            seen,
            auth: tokio::sync::Mutex::new(Auth::None),
            etags: StdMutex::new(HashMap::new()),
            quirks: StdMutex::new(Quirks::default()),
            applied: StdMutex::new(BTreeSet::new()),
            identity_encoding: AtomicBool::new(true),
        })
    }

    /// The BMC's address as configured.
    pub fn address(&self) -> &str {
        &self.cfg.address
    }

    /// The configuration (the password stays inside; `Debug` redacts it).
    pub fn config(&self) -> &Config {
        &self.cfg
    }

    /// The vendor quirks in force (set by [`crate::identify`]).
    pub fn quirks(&self) -> Quirks {
        self.quirks.lock().expect("quirks lock").clone()
    }

    /// Replace the vendor quirks in force.
    pub fn set_quirks(&self, q: Quirks) {
        *self.quirks.lock().expect("quirks lock") = q;
    }

    /// True when a rule with this effect is in force (does not record it as applied).
    pub fn has_quirk(&self, effect: Effect) -> bool {
        self.quirks.lock().expect("quirks lock").has(effect)
    }

    /// Record that a quirk or fallback (by its id) changed what the client did.
    pub fn note_applied(&self, id: &str) {
        tracing::debug!(address = %self.cfg.address, quirk = id, "quirk applied");
        self.applied
            .lock()
            .expect("applied lock")
            .insert(id.to_owned());
    }

    /// Quirk and fallback ids that changed what the client did so far, sorted.
    pub fn applied_quirks(&self) -> Vec<String> {
        self.applied
            .lock()
            .expect("applied lock")
            .iter()
            .cloned()
            .collect()
    }

    /// The ETag remembered for a path from its last GET.
    pub fn etag(&self, path: &str) -> Option<String> {
        self.etags
            .lock()
            .expect("etag lock")
            .get(&to_path(path))
            .cloned()
    }

    /// `GET /redfish/v1/` without authentication (with it, when the BMC insists).
    pub async fn service_root(&self) -> Result<Value> {
        match self.execute(Request::get("/redfish/v1/").anonymous()).await {
            // The spec leaves the root open, but some BMCs guard it: ask again logged in.
            Err(e) if matches!(e.status(), Some(401 | 403)) => {
                Ok(self.execute(Request::get("/redfish/v1/")).await?.body)
            }
            other => Ok(other?.body),
        }
    }

    /// Log in afresh: a session when the BMC grants one, else HTTP Basic (checked with a GET
    /// of `/redfish/v1/Systems`). A wrong password is [`Error::Unauthorized`].
    pub async fn login(&self) -> Result<AuthMode> {
        let mut guard = self.auth.lock().await;
        if let Auth::Session { token, uri } = std::mem::take(&mut *guard) {
            self.send_logout(&token, uri.as_deref()).await;
        }
        let auth = self.create_auth().await?;
        let mode = match auth {
            Auth::Session { .. } => AuthMode::Session,
            _ => AuthMode::Basic,
        };
        *guard = auth;
        Ok(mode)
    }

    /// Delete the session, if there is one; errors are only logged (sessions expire anyway).
    pub async fn logout(&self) {
        let mut guard = self.auth.lock().await;
        if let Auth::Session { token, uri } = std::mem::take(&mut *guard) {
            self.send_logout(&token, uri.as_deref()).await;
        }
    }

    /// `GET path`, remembering its ETag; the body.
    pub async fn get(&self, path: &str) -> Result<Value> {
        Ok(self.get_reply(path).await?.body)
    }

    /// `GET path`, remembering its ETag; the whole answer (for `Allow`, `ETag`).
    pub async fn get_reply(&self, path: &str) -> Result<Reply> {
        self.execute(Request::get(path)).await
    }

    /// Send a request: authentication, one re-login on 401, retries, task monitors, and for
    /// `IfMatch::Remembered` the ETag ladder (original, `W/` stripped, none, then a re-GET).
    pub async fn execute(&self, req: Request) -> Result<Reply> {
        if req.if_match != IfMatch::Remembered {
            return self.execute_once(&req).await;
        }
        if self.etag(&req.path).is_none() {
            if let Some(id) = self.quirks().rule_id(Effect::IfMatchRequired) {
                // These BMCs refuse a PATCH without If-Match: read the resource first.
                self.note_applied(id);
                self.execute_once(&Request::get(&req.path)).await?;
            }
        }
        let mut refreshed = false;
        let mut ladder = etag_ladder(self.etag(&req.path).as_deref());
        let mut i = 0;
        loop {
            let mut rung = req.clone();
            rung.if_match = match &ladder[i] {
                Some(v) => IfMatch::Value(v.clone()),
                None => IfMatch::Never,
            };
            match self.execute_once(&rung).await {
                Err(e) if matches!(e.status(), Some(412 | 428)) => {
                    i += 1;
                    if i < ladder.len() {
                        self.note_applied("etag_ladder");
                        continue;
                    }
                    if refreshed {
                        return Err(e);
                    }
                    // Our ETag is stale or we had none: read the resource again for a fresh one.
                    refreshed = true;
                    self.note_applied("etag_refetch");
                    self.execute_once(&Request::get(&req.path)).await?;
                    let fresh = self.etag(&req.path);
                    if fresh.is_none() {
                        return Err(e);
                    }
                    ladder = etag_ladder(fresh.as_deref());
                    i = 0;
                }
                other => return other,
            }
        }
    }

    /// One request with its retries, re-login and task monitor, the If-Match as given.
    async fn execute_once(&self, req: &Request) -> Result<Reply> {
        let mut relogged = false;
        let mut attempt = 0;
        loop {
            attempt += 1;
            let auth = if req.authenticated {
                self.current_auth().await?
            } else {
                Auth::None
            };
            let reply = match self.send(req, &auth).await {
                Ok(r) => r,
                Err((e, connect)) => {
                    // A write that may have reached the BMC is not repeated blindly.
                    if (req.is_read() || connect) && e.is_transient() && attempt < self.cfg.attempts
                    {
                        self.backoff(attempt, None, &e).await;
                        continue;
                    }
                    return Err(e);
                }
            };
            if reply.status == 406 && self.identity_encoding.swap(false, Ordering::Relaxed) {
                self.note_applied("drop_identity_encoding");
                continue;
            }
            if reply.status == 401 && req.authenticated {
                if !relogged {
                    relogged = true;
                    tracing::info!(address = %self.cfg.address, "401: logging in again once");
                    self.reauth(&auth).await?;
                    continue;
                }
                let (message, _, _) = bmc_message(&reply.body);
                return Err(Error::Unauthorized {
                    address: self.cfg.address.clone(),
                    reason: if message.is_empty() {
                        "HTTP 401".into()
                    } else {
                        message
                    },
                });
            }
            let retryable = if req.is_read() {
                reply.status >= 500
            } else {
                busy(reply.status, &reply.body)
            };
            if retryable && attempt < self.cfg.attempts {
                let wait = retry_after(&reply.headers, self.cfg.retry_after_cap);
                let e = self.refused(req, &reply);
                self.backoff(attempt, wait, &e).await;
                continue;
            }
            if reply.status == 202 && !req.is_read() {
                return self.follow_task(req, reply).await;
            }
            if !(200..300).contains(&reply.status) {
                return Err(self.refused(req, &reply));
            }
            let mut etags = self.etags.lock().expect("etag lock");
            match reply.etag() {
                Some(e) if req.is_read() || req.method == Method::Patch => {
                    etags.insert(to_path(&req.path), e);
                }
                // A change makes the remembered ETag stale: better none than a sure 412.
                _ if req.method == Method::Patch => {
                    etags.remove(&to_path(&req.path));
                }
                _ => {}
            }
            drop(etags);
            return Ok(reply);
        }
    }

    async fn backoff(&self, attempt: u32, asked: Option<Duration>, e: &Error) {
        let wait = asked.unwrap_or(self.cfg.backoff * 2u32.pow(attempt - 1));
        tracing::debug!(address = %self.cfg.address, error = %e, attempt, ?wait, "retrying");
        tokio::time::sleep(wait).await;
    }

    /// Poll a task monitor until it stops answering 202; its last answer is the result.
    async fn follow_task(&self, req: &Request, first: Reply) -> Result<Reply> {
        let Some(monitor) = first.header("location").map(to_path) else {
            return Err(self.protocol(&format!(
                "{} {} answered 202 without a Location to follow",
                req.method.as_str(),
                req.path
            )));
        };
        self.note_applied("task_monitor");
        let deadline = Instant::now() + self.cfg.task_timeout;
        let mut wait =
            retry_after(&first.headers, self.cfg.retry_after_cap).unwrap_or(Duration::from_secs(1));
        let mut relogged = false;
        loop {
            if Instant::now() + wait > deadline {
                return Err(Error::Timeout {
                    address: self.cfg.address.clone(),
                    what: format!("the task of {} {}", req.method.as_str(), req.path),
                    secs: self.cfg.task_timeout.as_secs(),
                });
            }
            tokio::time::sleep(wait).await;
            let poll = Request::get(&monitor);
            let auth = self.current_auth().await?;
            let reply = match self.send(&poll, &auth).await {
                Ok(r) => r,
                Err((e, _)) if e.is_transient() => {
                    tracing::debug!(address = %self.cfg.address, error = %e, "task monitor poll failed; polling on");
                    continue;
                }
                Err((e, _)) => return Err(e),
            };
            match reply.status {
                202 => {
                    wait = retry_after(&reply.headers, self.cfg.retry_after_cap)
                        .unwrap_or(Duration::from_secs(1));
                }
                401 if !relogged => {
                    // Long tasks can outlive a session: log in again, once.
                    relogged = true;
                    self.reauth(&auth).await?;
                    wait = Duration::ZERO;
                }
                s if (200..300).contains(&s) => {
                    // A Task resource that ended badly is a refusal too.
                    let state = reply.body.get("TaskState").and_then(Value::as_str);
                    if matches!(state, Some("Exception" | "Killed" | "Cancelled")) {
                        let messages: Vec<&str> = reply
                            .body
                            .get("Messages")
                            .and_then(Value::as_array)
                            .map(|m| {
                                m.iter()
                                    .filter_map(|x| x.get("Message").and_then(Value::as_str))
                                    .collect()
                            })
                            .unwrap_or_default();
                        return Err(Error::Refused {
                            address: self.cfg.address.clone(),
                            request: format!("{} {}", req.method.as_str(), to_path(&req.path)),
                            status: s,
                            message: format!(
                                "task {}: {}",
                                state.unwrap_or(""),
                                messages.join("; ")
                            ),
                            message_id: None,
                            related: vec![],
                        });
                    }
                    return Ok(reply);
                }
                _ => return Err(self.refused(req, &reply)),
            }
        }
    }

    /// The authentication to use now, logging in first when there is none.
    async fn current_auth(&self) -> Result<Auth> {
        let mut guard = self.auth.lock().await;
        if matches!(*guard, Auth::None) {
            *guard = self.create_auth().await?;
        }
        Ok(guard.clone())
    }

    /// Replace the authentication that got a 401 (unless another task already did).
    async fn reauth(&self, failed: &Auth) -> Result<()> {
        let mut guard = self.auth.lock().await;
        let same = match (&*guard, failed) {
            (Auth::Session { token: a, .. }, Auth::Session { token: b, .. }) => a == b,
            (Auth::Basic, Auth::Basic) => true,
            _ => false,
        };
        if same {
            *guard = self.create_auth().await?;
        }
        Ok(())
    }

    /// Create a session; fall back to Basic when the BMC has no usable session service.
    async fn create_auth(&self) -> Result<Auth> {
        let req = Request::action(
            SESSIONS,
            json!({"UserName": self.cfg.user, "Password": self.cfg.password}),
        )
        .anonymous();
        let attempt = self.send(&req, &Auth::None).await;
        match attempt {
            Ok(reply) if (200..300).contains(&reply.status) => {
                let token = reply
                    .header("x-auth-token")
                    .filter(|t| !t.is_empty())
                    .map(str::to_owned);
                if let Some(token) = token {
                    let uri = match session_uri(&reply.headers, &reply.body) {
                        Some((uri, from)) => {
                            if from != SessionUriFrom::Location {
                                self.note_applied("session_uri_in_body");
                            }
                            Some(uri)
                        }
                        None => None,
                    };
                    tracing::debug!(address = %self.cfg.address, session = ?uri, "session created");
                    return Ok(Auth::Session { token, uri });
                }
                tracing::debug!(address = %self.cfg.address, "session answer without X-Auth-Token; using Basic");
            }
            Ok(reply) if matches!(reply.status, 401 | 403) => {
                // Some BMCs want Basic on the session POST too; the Basic check below decides.
                tracing::debug!(address = %self.cfg.address, status = reply.status, "session refused; trying Basic");
            }
            Ok(reply) => {
                tracing::debug!(address = %self.cfg.address, status = reply.status, "no session service; using Basic");
            }
            Err((e, _)) => return Err(e),
        }
        self.note_applied("basic_auth_fallback");
        let check = self
            .send(&Request::get("/redfish/v1/Systems"), &Auth::Basic)
            .await
            .map_err(|(e, _)| e)?;
        if matches!(check.status, 401 | 403) {
            let (message, _, _) = bmc_message(&check.body);
            return Err(Error::Unauthorized {
                address: self.cfg.address.clone(),
                reason: if message.is_empty() {
                    format!("HTTP {} to a session and to Basic", check.status)
                } else {
                    message
                },
            });
        }
        Ok(Auth::Basic)
    }

    async fn send_logout(&self, token: &str, uri: Option<&str>) {
        let Some(uri) = uri else { return };
        let auth = Auth::Session {
            token: token.to_owned(),
            uri: None,
        };
        match self.send(&Request::delete(uri), &auth).await {
            Ok(r) if (200..300).contains(&r.status) => {
                tracing::debug!(address = %self.cfg.address, "logged out")
            }
            Ok(r) => {
                tracing::debug!(address = %self.cfg.address, status = r.status, "logout refused")
            }
            Err((e, _)) => {
                tracing::debug!(address = %self.cfg.address, error = %e, "logout failed")
            }
        }
    }

    fn url(&self, path: &str) -> String {
        if path.contains("://") {
            path.to_owned()
        } else {
            format!("{}{}", self.base, path)
        }
    }

    /// One HTTP exchange. The error says whether the connection was never made (safe to repeat).
    async fn send(&self, req: &Request, auth: &Auth) -> std::result::Result<Reply, (Error, bool)> {
        let method = match req.method {
            Method::Get => reqwest::Method::GET,
            Method::Post => reqwest::Method::POST,
            Method::Patch => reqwest::Method::PATCH,
            Method::Delete => reqwest::Method::DELETE,
        };
        let mut b = self
            .http
            .request(method, self.url(&req.path))
            .header("OData-Version", "4.0")
            .header("Accept", "application/json");
        if self.identity_encoding.load(Ordering::Relaxed) {
            // sushy: compression makes BMCs emit weak ETags.
            b = b.header("Accept-Encoding", "identity");
        }
        match auth {
            Auth::Session { token, .. } => {
                let mut v = HeaderValue::from_str(token).map_err(|_| {
                    (
                        self.protocol("the session token is not a valid header"),
                        true,
                    )
                })?;
                v.set_sensitive(true);
                b = b.header("X-Auth-Token", v);
            }
            Auth::Basic => b = b.basic_auth(&self.cfg.user, Some(&self.cfg.password)),
            Auth::None => {}
        }
        if let IfMatch::Value(v) = &req.if_match {
            b = b.header("If-Match", v.as_str());
        }
        if let Some(body) = &req.body {
            b = b.json(body);
        }
        let resp = b.send().await.map_err(|e| {
            let connect = e.is_connect();
            (self.transport_error(e), connect)
        })?;
        let status = resp.status().as_u16();
        let headers = resp.headers().clone();
        let bytes = resp
            .bytes()
            .await
            .map_err(|e| (self.transport_error(e), false))?;
        let body = if bytes.iter().all(u8::is_ascii_whitespace) {
            Value::Null
        } else {
            serde_json::from_slice(&bytes).unwrap_or_else(|_| {
                Value::String(String::from_utf8_lossy(&bytes).chars().take(300).collect())
            })
        };
        Ok(Reply {
            status,
            headers,
            body,
        })
    }

    pub(crate) fn refused(&self, req: &Request, reply: &Reply) -> Error {
        let (message, message_id, related) = bmc_message(&reply.body);
        Error::Refused {
            address: self.cfg.address.clone(),
            request: format!("{} {}", req.method.as_str(), to_path(&req.path)),
            status: reply.status,
            message,
            message_id,
            related,
        }
    }

    pub(crate) fn protocol(&self, reason: &str) -> Error {
        Error::Protocol {
            address: self.cfg.address.clone(),
            reason: reason.to_owned(),
        }
    }

    pub(crate) fn not_supported(&self, what: &str) -> Error {
        Error::NotSupported {
            address: self.cfg.address.clone(),
            what: what.to_owned(),
        }
    }

    pub(crate) fn timeout(&self, what: &str, after: Duration) -> Error {
        Error::Timeout {
            address: self.cfg.address.clone(),
            what: what.to_owned(),
            secs: after.as_secs(),
        }
    }

    fn transport_error(&self, e: reqwest::Error) -> Error {
        let address = self.cfg.address.clone();
        if e.is_timeout() {
            return Error::Timeout {
                address,
                what: "the request".into(),
                secs: self.cfg.timeout.as_secs(),
            };
        }
        match tls::classify(&e, &self.cfg.trust, &self.seen) {
            Failure::Certificate {
                presented,
                pinned,
                reason,
            } => Error::Tls {
                address,
                fingerprint: presented,
                pinned,
                reason,
            },
            Failure::Unreachable { reason } => Error::Unreachable { address, reason },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_become_urls() {
        assert_eq!(base_url("10.0.0.5"), "https://10.0.0.5");
        assert_eq!(base_url("http://127.0.0.1:9000/"), "http://127.0.0.1:9000");
        assert_eq!(base_url("fe80::1"), "https://[fe80::1]");
    }

    #[test]
    fn retry_after_reads_seconds_and_dates() {
        let mut h = HeaderMap::new();
        h.insert("retry-after", "5".parse().unwrap());
        assert_eq!(
            retry_after(&h, Duration::from_secs(30)),
            Some(Duration::from_secs(5))
        );
        h.insert("retry-after", "3600".parse().unwrap());
        assert_eq!(
            retry_after(&h, Duration::from_secs(30)),
            Some(Duration::from_secs(30))
        );
        let soon = httpdate::fmt_http_date(SystemTime::now() + Duration::from_secs(10));
        h.insert("retry-after", soon.parse().unwrap());
        let w = retry_after(&h, Duration::from_secs(30)).unwrap();
        assert!(
            w <= Duration::from_secs(10) && w >= Duration::from_secs(8),
            "{w:?}"
        );
        h.insert(
            "retry-after",
            "Wed, 21 Oct 2015 07:28:00 GMT".parse().unwrap(),
        );
        assert_eq!(
            retry_after(&h, Duration::from_secs(30)),
            Some(Duration::ZERO)
        );
    }

    #[test]
    fn sys518_is_busy() {
        let body = serde_json::json!({"error": {"@Message.ExtendedInfo": [{"MessageId": "IDRAC.2.8.SYS518",
            "Message": "iDRAC is currently unable to display any information."}]}});
        assert!(busy(500, &body));
        assert!(busy(503, &Value::Null));
        assert!(!busy(500, &Value::Null));
        assert!(!busy(
            400,
            &serde_json::json!({"error": {"message": "bad"}})
        ));
    }
}
