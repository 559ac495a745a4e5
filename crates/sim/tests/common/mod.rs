//! What the simulator's tests share: sending XML over real HTTP, building a
//! `configConfMos`, reading error codes, and the objects both modes write.

#![allow(dead_code)]

use bootsmith_sim::Sim;
use bootsmith_ucs::xml::Mo;

/// POST `xml` to `path` on the simulator: the HTTP status and the body.
pub async fn post_raw(sim: &Sim, path: &str, xml: &str) -> (u16, String) {
    let r = reqwest::Client::new()
        .post(format!("{}{path}", sim.address()))
        .body(xml.to_owned())
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    (status, r.text().await.unwrap())
}

/// The reply as an object; a body that is not XML fails the test.
pub fn parse_reply(body: &str) -> Mo {
    Mo::parse(body).unwrap_or_else(|e| panic!("reply is not XML ({e}): {body}"))
}

/// The cookie of a successful `aaaLogin` reply; an error reply fails the test.
pub fn cookie_of(login_reply: &Mo) -> String {
    let r = login_reply;
    assert_eq!(r.attr("errorCode"), None, "{r:?}");
    r.get("outCookie").to_owned()
}

/// A `configConfMos` writing `objs`, each keyed by its dn, in one transaction.
pub fn conf_mos(cookie: &str, objs: Vec<Mo>) -> Mo {
    let mut configs = Mo::new("inConfigs");
    for o in objs {
        configs = configs.child(Mo::new("pair").with("key", o.get("dn")).child(o));
    }
    Mo::new("configConfMos")
        .with("cookie", cookie)
        .with("inHierarchical", "false")
        .child(configs)
}

/// A `configResolveClass` of every blade, not hierarchical.
pub fn every_blade(cookie: &str) -> String {
    format!(
        r#"<configResolveClass cookie="{cookie}" classId="computeBlade" inHierarchical="false"/>"#
    )
}

/// The reply's error code, if it is an error.
pub fn error_code(m: &Mo) -> Option<&str> {
    m.attr("errorCode")
}

/// Fails unless the reply carries no error code.
#[track_caller]
pub fn assert_accepted(r: &Mo) {
    assert_eq!(error_code(r), None, "{}", r.to_xml());
}

/// The service profile `org-root/ls-{name}`, with only its dn set.
pub fn profile(name: &str) -> Mo {
    Mo::new("lsServer").with("dn", format!("org-root/ls-{name}"))
}

/// A service profile instantiated from the template `tmpl`.
pub fn instance(name: &str) -> Mo {
    profile(name)
        .with("name", name)
        .with("type", "instance")
        .with("srcTemplName", "tmpl")
}

/// The updating template `tmpl`, requiring the pool `pool1`.
pub fn template() -> Mo {
    profile("tmpl")
        .with("name", "tmpl")
        .with("type", "updating-template")
        .child(
            Mo::new("lsRequirement")
                .with("rn", "pn-req")
                .with("name", "pool1"),
        )
}

/// Power the blade of `org-root/ls-existing-sp` to `state` through its profile.
pub fn existing_sp_power(state: &str) -> Mo {
    Mo::new("lsPower")
        .with("dn", "org-root/ls-existing-sp/power")
        .with("state", state)
}

/// The mount entry `boot` of a vMedia policy: `file` under `http://{ip}/svc/`.
pub fn boot_mount_entry(ip: &str, file: &str) -> Mo {
    Mo::new("cimcvmediaConfigMountEntry")
        .with("rn", "cfg-mnt-entry-boot")
        .with("mappingName", "boot")
        .with("deviceType", "cdd")
        .with("mountProtocol", "http")
        .with("remoteIpAddress", ip)
        .with("imagePath", "/svc/")
        .with("imageFileName", file)
        .with("imageNameVariable", "none")
}

/// `(method, path, range header)` of each request a [`MediaServer`] answered, in order.
pub type Seen = std::sync::Arc<std::sync::Mutex<Vec<(String, String, Option<String>)>>>;

/// A media server on loopback, as the managers' controllers fetch from: `GET` and `HEAD` of
/// `/svc/<name>` with byte ranges, for the files given; it keeps every request it answered.
pub struct MediaServer {
    /// `127.0.0.1:<port>`.
    pub addr: std::net::SocketAddr,
    /// What it answered.
    pub seen: Seen,
}

impl MediaServer {
    /// Serve `files` (name, contents).
    pub async fn start(files: &[(&str, Vec<u8>)]) -> MediaServer {
        use axum::extract::{Path, State};
        use axum::http::{header, HeaderMap, Method, StatusCode};
        use axum::response::{IntoResponse, Response};
        type Files = std::sync::Arc<std::collections::BTreeMap<String, Vec<u8>>>;

        async fn serve(
            State((files, seen)): State<(Files, Seen)>,
            method: Method,
            Path(name): Path<String>,
            headers: HeaderMap,
        ) -> Response {
            let range = headers
                .get(header::RANGE)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned);
            seen.lock()
                .unwrap()
                .push((method.to_string(), format!("/svc/{name}"), range.clone()));
            let Some(data) = files.get(&name) else {
                return StatusCode::NOT_FOUND.into_response();
            };
            let len = data.len();
            let parsed = range.as_deref().and_then(|r| {
                let (a, b) = r.strip_prefix("bytes=")?.split_once('-')?;
                let a: usize = a.parse().ok()?;
                let b: usize = b.parse::<usize>().ok()?.min(len - 1);
                (a <= b).then_some((a, b))
            });
            match parsed {
                Some((a, b)) => (
                    StatusCode::PARTIAL_CONTENT,
                    [
                        (header::CONTENT_RANGE, format!("bytes {a}-{b}/{len}")),
                        (header::CONTENT_LENGTH, (b - a + 1).to_string()),
                    ],
                    data[a..=b].to_vec(),
                )
                    .into_response(),
                None => ([(header::CONTENT_LENGTH, len.to_string())], data.clone()).into_response(),
            }
        }

        let files: Files = std::sync::Arc::new(
            files
                .iter()
                .map(|(n, d)| ((*n).to_owned(), d.clone()))
                .collect(),
        );
        let seen: Seen = Default::default();
        let app = axum::Router::new()
            .route("/svc/{name}", axum::routing::get(serve))
            .with_state((files, seen.clone()));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            axum::serve(listener, app).await.unwrap();
        });
        MediaServer { addr, seen }
    }

    /// The requests for `path`: `"HEAD"`, `"GET bytes=0-…"`.
    pub fn requests_for(&self, path: &str) -> Vec<String> {
        self.seen
            .lock()
            .unwrap()
            .iter()
            .filter(|(_, p, _)| p == path)
            .map(|(m, _, r)| match r {
                Some(r) => format!("{m} {r}"),
                None => m.clone(),
            })
            .collect()
    }
}

/// A loopback port nothing listens on (bound, then let go).
pub fn closed_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}
