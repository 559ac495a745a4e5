//! One manager (UCS Manager, UCS Central or standalone IMC): transport, session and calls.
//!
//! One session per endpoint, logged in on first use, refreshed before it
//! runs out, re-established once when the manager says the cookie is no
//! longer valid, and logged out on shutdown. Concurrency is bounded (an IMC
//! allows very few sessions and little parallel work); transient failures are
//! retried with backoff.

use std::fmt;
use std::net::Ipv6Addr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tokio::sync::{Mutex, Semaphore};

use crate::error::{Error, Result};
use crate::tls::{self, Failure, Seen, Trust};
use crate::xml::Mo;

/// Which API dialect the endpoint speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// UCS Manager.
    Ucsm,
    /// Standalone Cisco IMC.
    Imc,
    /// UCS Central: one API over several UCS domains, split into services (DMEs) that each
    /// take requests at their own path.
    Ucsc,
}

/// A UCS Central service (DME), each answering at `/xmlIM/<name>`. ucscsdk posts sessions,
/// queries and configuration to `central-mgr` (its default everywhere); reading a domain's
/// own objects through Central (`configRemoteResolveChildren`) goes to `resource-mgr`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dme {
    /// Sessions, queries, configuration.
    Central,
    /// A registered domain's own objects, read through Central.
    Resource,
}

impl Dme {
    fn path(self) -> &'static str {
        match self {
            Dme::Central => "central-mgr",
            Dme::Resource => "resource-mgr",
        }
    }
}

/// How to reach and log in to a manager.
#[derive(Clone)]
pub struct Target {
    /// Dialect.
    pub kind: Kind,
    /// `10.0.0.5`, `10.0.0.5:8443` or `http://127.0.0.1:9000` (HTTPS on 443 by default).
    pub address: String,
    /// Login name.
    pub user: String,
    /// Login password.
    pub password: String,
    /// Certificate trust.
    pub trust: Trust,
    /// Per-request timeout.
    pub timeout: Duration,
}

impl fmt::Debug for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Target")
            .field("kind", &self.kind)
            .field("address", &self.address)
            .field("user", &self.user)
            .field("password", &"<redacted>")
            .field("trust", &self.trust)
            .finish()
    }
}

/// What a login told about the manager.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoginInfo {
    /// Firmware version (`outVersion`).
    pub version: String,
    /// Privileges (`outPriv`).
    pub privileges: String,
}

#[derive(Debug)]
struct Session {
    cookie: String,
    refresh_at: Instant,
}

/// A connection to one manager.
pub struct Endpoint {
    target: Target,
    base: String,
    url: String,
    client: reqwest::Client,
    seen: Seen,
    session: Mutex<Option<Session>>,
    permits: Semaphore,
    requests: AtomicU64,
}

impl fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Endpoint")
            .field("target", &self.target)
            .field("url", &self.url)
            .finish()
    }
}

const RETRIES: u32 = 3;

/// How long a logout may take.
pub const LOGOUT_WAIT: Duration = Duration::from_secs(3);

/// `POST` URL of the XML API for an address as operators write it (UCS Central's default
/// service for a Central).
pub fn api_url(address: &str, kind: Kind) -> String {
    let base = base_url(address);
    match kind {
        Kind::Ucsc => format!("{base}/xmlIM/{}", Dme::Central.path()),
        Kind::Ucsm | Kind::Imc => format!("{base}/nuova"),
    }
}

/// `https://<address>` for an address as operators write it (a scheme given is kept).
fn base_url(address: &str) -> String {
    if address.contains("://") {
        address.trim_end_matches('/').to_owned()
    } else if address.parse::<Ipv6Addr>().is_ok() {
        format!("https://[{address}]")
    } else {
        format!("https://{address}")
    }
}

impl Endpoint {
    /// An endpoint; nothing is sent until the first call.
    pub fn new(target: Target) -> Result<Endpoint> {
        let (tls, seen) = tls::client_config(target.trust.clone());
        let client = reqwest::Client::builder()
            .use_preconfigured_tls(tls)
            .timeout(target.timeout)
            .connect_timeout(target.timeout.min(Duration::from_secs(10)))
            .pool_max_idle_per_host(4)
            .build()
            .map_err(|e| Error::Invalid(format!("cannot build an HTTP client: {e}")))?;
        let parallel = match target.kind {
            Kind::Imc => 2,
            Kind::Ucsm | Kind::Ucsc => 8,
        };
        Ok(Endpoint {
            base: base_url(&target.address),
            url: api_url(&target.address, target.kind),
            target,
            client,
            seen,
            session: Mutex::new(None),
            permits: Semaphore::new(parallel),
            requests: AtomicU64::new(0),
        })
    }

    /// The dialect.
    pub fn kind(&self) -> Kind {
        self.target.kind
    }

    /// The manager's address as configured.
    pub fn address(&self) -> &str {
        &self.target.address
    }

    /// HTTP requests sent so far (for benchmarks).
    pub fn requests(&self) -> u64 {
        self.requests.load(Ordering::Relaxed)
    }

    /// Log in afresh to check the credentials and reach; keeps the session for later calls.
    pub async fn login(&self) -> Result<LoginInfo> {
        let _permit = self
            .permits
            .acquire()
            .await
            .expect("semaphore never closed");
        let mut guard = self.session.lock().await;
        if let Some(old) = guard.take() {
            self.send_logout(&old.cookie).await;
        }
        let (session, info) = self.do_login().await?;
        *guard = Some(session);
        Ok(info)
    }

    /// Log out (at shutdown); errors are ignored, the session dies on its own anyway.
    pub async fn logout(&self) {
        let mut guard = self.session.lock().await;
        if let Some(s) = guard.take() {
            self.send_logout(&s.cookie).await;
        }
    }

    /// Call a method: sets the cookie, retries transient failures, re-logs in once on an invalid session.
    pub async fn call(&self, request: Mo) -> Result<Mo> {
        self.call_at(&self.url, request).await
    }

    /// [`Endpoint::call`] of a non-hierarchical `method` taking `input`, a list of ids or
    /// objects, as its one child.
    pub(crate) async fn call_list(&self, method: &str, input: Mo) -> Result<Mo> {
        self.call(Mo::new(method).with("inHierarchical", "false").child(input))
            .await
    }

    /// [`Endpoint::call`] on one of UCS Central's services (only a Central has them).
    pub async fn call_on(&self, dme: Dme, request: Mo) -> Result<Mo> {
        if self.kind() != Kind::Ucsc {
            return Err(Error::Invalid(format!(
                "{} is not a UCS Central: it has no {} service",
                self.target.address,
                dme.path()
            )));
        }
        let url = format!("{}/xmlIM/{}", self.base, dme.path());
        self.call_at(&url, request).await
    }

    async fn call_at(&self, url: &str, request: Mo) -> Result<Mo> {
        let _permit = self
            .permits
            .acquire()
            .await
            .expect("semaphore never closed");
        let mut relogged = false;
        loop {
            let cookie = self.cookie().await?;
            let reply = self
                .post(url, &request.clone().with("cookie", cookie.as_str()))
                .await?;
            match api_error(&reply) {
                None => return Ok(reply),
                Some((code, _)) if code == "552" && !relogged => {
                    tracing::info!(address = %self.target.address, "session no longer valid; logging in again");
                    relogged = true;
                    let mut guard = self.session.lock().await;
                    if guard.as_ref().is_some_and(|s| s.cookie == cookie) {
                        *guard = None;
                    }
                }
                Some((code, descr)) => {
                    return Err(Error::Api {
                        method: request.class.clone(),
                        code,
                        descr,
                    })
                }
            }
        }
    }

    /// A valid cookie: log in when there is no session, refresh when it is due.
    async fn cookie(&self) -> Result<String> {
        let mut guard = self.session.lock().await;
        match guard.as_ref() {
            Some(s) if Instant::now() < s.refresh_at => return Ok(s.cookie.clone()),
            Some(s) => {
                let old = s.cookie.clone();
                match self.do_refresh(&old).await {
                    Ok(new) => {
                        *guard = Some(new);
                    }
                    Err(e) if e.is_transient() => return Err(e),
                    Err(_) => {
                        let (s, _) = self.do_login().await?;
                        *guard = Some(s);
                    }
                }
            }
            None => {
                let (s, _) = self.do_login().await?;
                *guard = Some(s);
            }
        }
        Ok(guard.as_ref().expect("set above").cookie.clone())
    }

    async fn do_login(&self) -> Result<(Session, LoginInfo)> {
        let req = Mo::new("aaaLogin")
            .with("inName", self.target.user.as_str())
            .with("inPassword", self.target.password.as_str());
        let reply = self.post(&self.url, &req).await?;
        if let Some((code, descr)) = api_error(&reply) {
            return Err(Error::LoginFailed {
                address: self.target.address.clone(),
                code,
                descr,
            });
        }
        let session = self.session_from(&reply)?;
        tracing::debug!(address = %self.target.address, "logged in");
        Ok((
            session,
            LoginInfo {
                version: reply.get("outVersion").to_owned(),
                privileges: reply.get("outPriv").to_owned(),
            },
        ))
    }

    async fn do_refresh(&self, cookie: &str) -> Result<Session> {
        let req = Mo::new("aaaRefresh")
            .with("inName", self.target.user.as_str())
            .with("inPassword", self.target.password.as_str())
            .with("inCookie", cookie);
        let reply = self.post(&self.url, &req).await?;
        if let Some((code, descr)) = api_error(&reply) {
            return Err(Error::Api {
                method: "aaaRefresh".into(),
                code,
                descr,
            });
        }
        self.session_from(&reply)
    }

    fn session_from(&self, reply: &Mo) -> Result<Session> {
        let cookie = reply.get("outCookie");
        if cookie.is_empty() {
            return Err(self.protocol("the login answer has no cookie"));
        }
        let period: u64 = reply.get("outRefreshPeriod").parse().unwrap_or(600);
        // Refresh a minute early, or halfway for very short periods.
        let ahead = (period / 2).min(60);
        Ok(Session {
            cookie: cookie.to_owned(),
            refresh_at: Instant::now() + Duration::from_secs(period - ahead),
        })
    }

    /// One try, briefly: logging out happens on shutdown, which must not wait for a manager
    /// that does not answer (the session expires there on its own).
    async fn send_logout(&self, cookie: &str) {
        let req = Mo::new("aaaLogout").with("inCookie", cookie);
        match tokio::time::timeout(LOGOUT_WAIT, self.post_once(&self.url, &req.to_xml())).await {
            Ok(Ok(_)) => {}
            Ok(Err(e)) => {
                tracing::debug!(address = %self.target.address, error = %e, "logout failed")
            }
            Err(_) => {
                tracing::debug!(address = %self.target.address, "logout got no answer in time; the session expires on the manager")
            }
        }
    }

    /// POST with retries and backoff for transient failures.
    async fn post(&self, url: &str, req: &Mo) -> Result<Mo> {
        let body = req.to_xml();
        let mut attempt = 0;
        loop {
            attempt += 1;
            match self.post_once(url, &body).await {
                Err(e) if e.is_transient() && attempt < RETRIES => {
                    let wait = Duration::from_millis(100 * 3u64.pow(attempt - 1));
                    tracing::debug!(address = %self.target.address, error = %e, attempt, "retrying");
                    tokio::time::sleep(wait).await;
                }
                other => return other,
            }
        }
    }

    async fn post_once(&self, url: &str, body: &str) -> Result<Mo> {
        self.requests.fetch_add(1, Ordering::Relaxed);
        let resp = self
            .client
            .post(url)
            .header(
                reqwest::header::CONTENT_TYPE,
                "application/x-www-form-urlencoded",
            )
            .body(body.to_owned())
            .send()
            .await
            .map_err(|e| self.transport_error(e))?;
        let status = resp.status();
        if !status.is_success() {
            return Err(Error::Http {
                address: self.target.address.clone(),
                status: status.as_u16(),
            });
        }
        let text = resp.text().await.map_err(|e| self.transport_error(e))?;
        Mo::parse(&text).map_err(|e| self.protocol(&format!("the answer is not XML: {e}")))
    }

    fn protocol(&self, reason: &str) -> Error {
        Error::Protocol {
            address: self.target.address.clone(),
            reason: reason.to_owned(),
        }
    }

    fn transport_error(&self, e: reqwest::Error) -> Error {
        let address = self.target.address.clone();
        if e.is_timeout() {
            return Error::Timeout {
                address,
                secs: self.target.timeout.as_secs(),
            };
        }
        match tls::classify(&e, &self.target.trust, &self.seen) {
            Failure::Certificate {
                presented,
                pinned: Some(pinned),
                ..
            } => Error::FingerprintMismatch {
                address,
                pinned,
                presented,
            },
            Failure::Certificate {
                presented, reason, ..
            } => Error::Untrusted {
                address,
                fingerprint: presented,
                reason,
            },
            Failure::Unreachable { reason } => Error::Unreachable { address, reason },
        }
    }
}

/// `errorCode`/`errorDescr` of a reply, or of an `<error>` root.
pub fn api_error(reply: &Mo) -> Option<(String, String)> {
    let code = reply.attr("errorCode")?;
    Some((code.to_owned(), reply.get("errorDescr").to_owned()))
}

/// The objects of a reply's `outConfigs` (none when it has none).
pub(crate) fn out_configs(reply: &Mo) -> &[Mo] {
    reply
        .find("outConfigs")
        .map(|o| o.children.as_slice())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::{api_url, Kind};

    #[test]
    fn addresses_become_urls() {
        assert_eq!(api_url("10.0.0.5", Kind::Ucsm), "https://10.0.0.5/nuova");
        assert_eq!(
            api_url("10.0.0.5:8443", Kind::Ucsm),
            "https://10.0.0.5:8443/nuova"
        );
        assert_eq!(
            api_url("http://127.0.0.1:9000", Kind::Ucsm),
            "http://127.0.0.1:9000/nuova"
        );
        assert_eq!(api_url("fe80::1", Kind::Ucsm), "https://[fe80::1]/nuova");
        assert_eq!(
            api_url("[fe80::1]:443", Kind::Ucsm),
            "https://[fe80::1]:443/nuova"
        );
        assert_eq!(api_url("ucsm.lab", Kind::Ucsm), "https://ucsm.lab/nuova");
        assert_eq!(
            api_url("ucsc.lab", Kind::Ucsc),
            "https://ucsc.lab/xmlIM/central-mgr"
        );
    }
}
