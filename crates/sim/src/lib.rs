//! A UCS Manager / Cisco IMC / UCS Central simulator speaking the XML API over
//! real HTTP, for tests, benchmarks and a demo mode. It holds a managed-object
//! tree, checks every write against Cisco's published object model, makes
//! hardware changes happen after a delay, mounts virtual media by really fetching
//! their URLs over HTTP (failing the mount, as the manager reports it, when a URL
//! does not answer), and can inject faults.
//!
//! UCSM and the IMC answer `POST /nuova`; UCS Central answers
//! `POST /xmlIM/<dme>` (see [`DMES`]): sessions on any of them, queries and
//! configuration on `central-mgr`, `configRemoteResolveChildren` (a domain's
//! own objects, such as server FSMs) on `resource-mgr`.
//!
//! [`redfish`] holds the Redfish side: BMC personas (HPE iLO 5/7 from real captures, Dell
//! iDRAC 9, Supermicro X12, Lenovo XCC2, Cisco IMC 4.x), each enforcing its vendor's quirks.

mod binding;
pub mod config;
pub mod domain;
mod effects;
mod fetch;
pub mod fixture;
pub mod media;
pub mod meta;
mod methods;
pub mod redfish;
pub mod sushy;
mod tls;
pub mod tree;

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::{Path as AxPath, State as AxState};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use bootsmith_ucs::xml::Mo;
use rand::Rng;

pub use domain::{Domain, Kind, FIRST_DOMAIN_ID};
use meta::Model;
use tree::{Obj, Tree};

/// Faults to inject, to test a client's robustness.
#[derive(Debug, Clone, Default)]
pub struct Faults {
    /// Added to every request.
    pub latency: Duration,
    /// Share of requests answered with HTTP 503 (0.0–1.0).
    pub error_rate: f64,
    /// Share of requests whose connection is dropped mid-answer (0.0–1.0).
    pub drop_rate: f64,
    /// Sessions expire this long after login or refresh (default: the refresh period plus a minute).
    pub session_ttl: Option<Duration>,
    /// Answer the next this-many requests with HTTP 503 (deterministic, for tests).
    pub fail_next: u32,
    /// Drop the connection of the next this-many requests (deterministic, for tests).
    pub drop_next: u32,
}

/// How to start a simulator.
#[derive(Debug, Clone)]
pub struct SimConfig {
    /// The domain to simulate.
    pub domain: Domain,
    /// Login name.
    pub user: String,
    /// Login password.
    pub password: String,
    /// Time a hardware change takes (power, association, disks, mounts).
    pub effect_delay: Duration,
    /// `outRefreshPeriod` in seconds.
    pub refresh_period: u32,
    /// Initial faults.
    pub faults: Faults,
}

impl SimConfig {
    /// A UCSM domain with user admin / password `password`.
    pub fn ucsm() -> SimConfig {
        SimConfig {
            domain: Domain::ucsm(),
            user: "admin".into(),
            password: "password".into(),
            effect_delay: Duration::from_millis(200),
            refresh_period: 600,
            faults: Faults::default(),
        }
    }

    /// A standalone IMC with user admin / password `password`.
    pub fn imc() -> SimConfig {
        SimConfig {
            domain: Domain::imc(),
            ..SimConfig::ucsm()
        }
    }

    /// A UCS Central with `domains` registered UCS domains, user admin / password `password`.
    pub fn ucsc(domains: u32) -> SimConfig {
        SimConfig {
            domain: Domain::ucsc(domains),
            ..SimConfig::ucsm()
        }
    }
}

/// The DMEs UCS Central answers on (`POST /xmlIM/<dme>`); any other is HTTP 404.
pub const DMES: [&str; 7] = [
    "central-mgr",
    "resource-mgr",
    "operation-mgr",
    "policy-mgr",
    "identifier-mgr",
    "stats-mgr",
    "service-reg",
];

pub(crate) struct Session {
    pub user: String,
    pub expires: Instant,
}

/// A UCS domain behind UCS Central: its own tree and whether Central can reach it.
pub(crate) struct Remote {
    pub tree: Tree,
    pub reachable: bool,
    /// Hardware changes waiting for the domain to be reachable again.
    pub deferred: Vec<effects::Effect>,
}

pub(crate) struct State {
    pub tree: Tree,
    pub remote: BTreeMap<u32, Remote>,
    pub sessions: HashMap<String, Session>,
    pub faults: Faults,
    pub requests: u64,
    pub methods: BTreeMap<String, u64>,
    pub in_flight: usize,
    pub max_in_flight: usize,
    /// The mount each mount object (by domain and dn) is waiting on: a fetch whose number is
    /// no longer here was overtaken by an unmount or a new mount, and reports nothing.
    pub mount_seq: HashMap<(Option<u32>, String), u64>,
    /// Mounts started so far.
    pub mounts: u64,
}

pub(crate) struct Shared {
    pub state: Mutex<State>,
    pub model: Model,
    /// The model of the domains' own trees (UCS Central only).
    pub remote_model: Option<Model>,
    pub kind: Kind,
    pub user: String,
    pub password: String,
    pub effect_delay: Duration,
    pub refresh_period: u32,
    pub max_sessions: usize,
    /// What virtual-media mounts fetch their images with.
    pub http: reqwest::Client,
}

/// A running simulator.
pub struct Sim {
    shared: Arc<Shared>,
    addr: std::net::SocketAddr,
    scheme: &'static str,
    fingerprint: Option<String>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    runtime: tokio::runtime::Handle,
}

impl Sim {
    /// Start on a free loopback port.
    pub async fn start(cfg: SimConfig) -> std::io::Result<Sim> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        Sim::start_on(cfg, listener).await
    }

    /// Start with HTTPS on a free loopback port, with a new self-signed certificate (as UCSM ships).
    pub async fn start_tls(cfg: SimConfig) -> std::io::Result<Sim> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        Sim::serve(cfg, listener, Some(tls::SelfSigned::generate())).await
    }

    /// Start on a bound listener (plain HTTP).
    pub async fn start_on(
        cfg: SimConfig,
        listener: tokio::net::TcpListener,
    ) -> std::io::Result<Sim> {
        Sim::serve(cfg, listener, None).await
    }

    /// Start on a bound listener with HTTPS and a self-signed certificate.
    pub async fn start_tls_on(
        cfg: SimConfig,
        listener: tokio::net::TcpListener,
    ) -> std::io::Result<Sim> {
        Sim::serve(cfg, listener, Some(tls::SelfSigned::generate())).await
    }

    async fn serve(
        cfg: SimConfig,
        listener: tokio::net::TcpListener,
        tls: Option<tls::SelfSigned>,
    ) -> std::io::Result<Sim> {
        let kind = cfg.domain.kind;
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                tree: cfg.domain.build(),
                remote: cfg
                    .domain
                    .build_remote()
                    .into_iter()
                    .map(|(id, tree)| {
                        (
                            id,
                            Remote {
                                tree,
                                reachable: true,
                                deferred: Vec::new(),
                            },
                        )
                    })
                    .collect(),
                sessions: HashMap::new(),
                faults: cfg.faults,
                requests: 0,
                methods: BTreeMap::new(),
                in_flight: 0,
                max_in_flight: 0,
                mount_seq: HashMap::new(),
                mounts: 0,
            }),
            model: match kind {
                Kind::Ucsm => Model::ucsm(),
                Kind::Imc => Model::imc(),
                Kind::Ucsc => Model::ucsc(),
            },
            remote_model: (kind == Kind::Ucsc).then(Model::ucsm),
            kind,
            user: cfg.user,
            password: cfg.password,
            effect_delay: cfg.effect_delay,
            refresh_period: cfg.refresh_period,
            // UCSM allows many sessions per user; an IMC very few.
            max_sessions: if kind == Kind::Imc { 4 } else { 32 },
            http: fetch::client(),
        });
        let addr = listener.local_addr()?;
        // Each manager answers on its own path only: a client using the wrong one gets a 404.
        let app = match kind {
            Kind::Ucsc => axum::Router::new().route("/xmlIM/{dme}", axum::routing::post(xml_im)),
            Kind::Ucsm | Kind::Imc => {
                axum::Router::new().route("/nuova", axum::routing::post(nuova))
            }
        }
        .with_state(shared.clone());
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let stop = async {
            let _ = rx.await;
        };
        let (scheme, fingerprint) = match tls {
            None => {
                tokio::spawn(async move {
                    let _ = axum::serve(listener, app)
                        .with_graceful_shutdown(stop)
                        .await;
                });
                ("http", None)
            }
            Some(cert) => {
                let fp = cert.fingerprint.clone();
                let tls_listener = tls::TlsListener::new(listener, cert)?;
                tokio::spawn(async move {
                    let _ = axum::serve(tls_listener, app)
                        .with_graceful_shutdown(stop)
                        .await;
                });
                ("https", Some(fp))
            }
        };
        Ok(Sim {
            shared,
            addr,
            scheme,
            fingerprint,
            stop: Some(tx),
            runtime: tokio::runtime::Handle::current(),
        })
    }

    /// Address for a server group's `credentials.ip`: `http://127.0.0.1:<port>` (or `https://…`).
    pub fn address(&self) -> String {
        format!("{}://{}", self.scheme, self.addr)
    }

    /// SHA-256 fingerprint of the certificate, when serving HTTPS.
    pub fn fingerprint(&self) -> Option<&str> {
        self.fingerprint.as_deref()
    }

    /// Replace the injected faults.
    pub fn set_faults(&self, faults: Faults) {
        self.shared.state.lock().expect("sim lock").faults = faults;
    }

    /// End every session now, as a timeout or a manager restart would.
    pub fn expire_sessions(&self) {
        self.shared.state.lock().expect("sim lock").sessions.clear();
    }

    /// Sessions currently open.
    pub fn open_sessions(&self) -> usize {
        let now = Instant::now();
        self.shared
            .state
            .lock()
            .expect("sim lock")
            .sessions
            .values()
            .filter(|s| s.expires > now)
            .count()
    }

    /// HTTP requests received so far.
    pub fn requests(&self) -> u64 {
        self.shared.state.lock().expect("sim lock").requests
    }

    /// Most requests that were being answered at the same time.
    pub fn max_in_flight(&self) -> usize {
        self.shared.state.lock().expect("sim lock").max_in_flight
    }

    /// Calls per XML method so far.
    pub fn method_counts(&self) -> BTreeMap<String, u64> {
        self.shared.state.lock().expect("sim lock").methods.clone()
    }

    /// A copy of the object at `dn`.
    pub fn get(&self, dn: &str) -> Option<Obj> {
        self.shared
            .state
            .lock()
            .expect("sim lock")
            .tree
            .get(dn)
            .cloned()
    }

    /// A copy of the object at `dn` in UCS domain `domain`'s own tree (UCS Central mode).
    pub fn get_remote(&self, domain: u32, dn: &str) -> Option<Obj> {
        self.shared
            .state
            .lock()
            .expect("sim lock")
            .remote
            .get(&domain)
            .and_then(|r| r.tree.get(dn).cloned())
    }

    /// Make UCS Central lose or regain sight of domain `id`; false if there is no such domain.
    ///
    /// Unreachable: its registration (`extpol/reg/clients/client-<id>`) shows
    /// `lost-visibility` / `lost-connectivity` (found by `polling`), its `lastPollTs` stays at
    /// the last poll that reached it, Central keeps answering with the last inventory
    /// it had, `configRemoteResolveChildren` for it fails, and writes touching its servers are
    /// accepted but their hardware effects wait (a deleted profile's server stays assigned and
    /// its requirement stays; pools hand out no server of the domain). Reachable again: the
    /// waiting effects run, in order, each checked against the configuration of that moment (a
    /// binding whose profile is gone or bound elsewhere is dropped; one whose server another
    /// profile took fails with `compute-unavailable`). Effects already running when it went
    /// away finish.
    pub fn set_domain_reachable(&self, id: u32, reachable: bool) -> bool {
        let was = {
            let mut st = self.shared.state.lock().expect("sim lock");
            let Some(r) = st.remote.get_mut(&id) else {
                return false;
            };
            let was = r.reachable;
            r.reachable = reachable;
            if let Some(c) = st.tree.get_mut(&format!("extpol/reg/clients/client-{id}")) {
                c.set(
                    "operState",
                    if reachable {
                        "registered"
                    } else {
                        "lost-visibility"
                    },
                );
                c.set(
                    "connectionState",
                    if reachable {
                        "connected"
                    } else {
                        "lost-connectivity"
                    },
                );
                c.set(
                    "lossVisibilitySource",
                    if reachable { "unknown" } else { "polling" },
                );
                // Losing it, the last poll that reached it was now; while lost, it stays.
                if reachable || was {
                    c.set("lastPollTs", effects::stamp());
                }
            }
            was
        };
        if reachable && !was {
            // Callable from outside the runtime: the effects' timers need its context.
            let _rt = self.runtime.enter();
            effects::resume(&self.shared, id);
        }
        true
    }

    /// Look at or change the tree directly (for test set-up).
    pub fn with_tree<R>(&self, f: impl FnOnce(&mut Tree) -> R) -> R {
        f(&mut self.shared.state.lock().expect("sim lock").tree)
    }

    /// Stop serving.
    pub fn stop(mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
    }
}

impl Drop for Sim {
    fn drop(&mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
    }
}

/// Counts a request as in flight for as long as it lives.
struct InFlight(Arc<Shared>);

impl InFlight {
    fn enter(shared: &Arc<Shared>) -> InFlight {
        let mut st = shared.state.lock().expect("sim lock");
        st.in_flight += 1;
        st.max_in_flight = st.max_in_flight.max(st.in_flight);
        InFlight(shared.clone())
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.state.lock().expect("sim lock").in_flight -= 1;
    }
}

async fn nuova(AxState(shared): AxState<Arc<Shared>>, body: String) -> Response {
    answer(shared, body, None).await
}

async fn xml_im(
    AxState(shared): AxState<Arc<Shared>>,
    AxPath(dme): AxPath<String>,
    body: String,
) -> Response {
    if !DMES.contains(&dme.as_str()) {
        return (StatusCode::NOT_FOUND, "no such DME").into_response();
    }
    answer(shared, body, Some(&dme)).await
}

/// One XML API request, with the injected faults; `dme` is None for `/nuova`.
async fn answer(shared: Arc<Shared>, body: String, dme: Option<&str>) -> Response {
    let _in_flight = InFlight::enter(&shared);
    let (faults, (forced_fail, forced_drop)) = {
        let mut st = shared.state.lock().expect("sim lock");
        st.requests += 1;
        let forced = st.faults.fail_next > 0;
        if forced {
            st.faults.fail_next -= 1;
        }
        let forced_drop = !forced && st.faults.drop_next > 0;
        if forced_drop {
            st.faults.drop_next -= 1;
        }
        (st.faults.clone(), (forced, forced_drop))
    };
    if !faults.latency.is_zero() {
        tokio::time::sleep(faults.latency).await;
    }
    let (fail, drop) = {
        let mut rng = rand::thread_rng();
        (
            forced_fail || rng.gen_bool(faults.error_rate.clamp(0.0, 1.0)),
            forced_drop || rng.gen_bool(faults.drop_rate.clamp(0.0, 1.0)),
        )
    };
    if fail {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            "service unavailable (injected)",
        )
            .into_response();
    }
    if drop {
        // Headers go out, then the body fails: the client sees the connection die mid-answer.
        let broken = futures::stream::once(async {
            Err::<axum::body::Bytes, _>(std::io::Error::other("injected drop"))
        });
        return Response::builder()
            .header(header::CONTENT_TYPE, "text/xml")
            .body(Body::from_stream(broken))
            .expect("static response");
    }
    let answer = match Mo::parse(&body) {
        Ok(req) => methods::dispatch(&shared, &req, dme),
        Err(e) => methods::parse_error(&e),
    };
    ([(header::CONTENT_TYPE, "text/xml")], answer.to_xml()).into_response()
}
