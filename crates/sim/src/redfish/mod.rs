//! A Redfish BMC simulator over real HTTP, playing one vendor's controller at a time (a
//! [`Persona`]): HPE iLO 5 and iLO 7 from their real captured trees, Dell iDRAC 9 (≥ 6.00 and
//! before 6.00, with Dell's OEM one-time boot), Supermicro
//! X12, Lenovo XCC2 and Cisco IMC 4.x from trees built in code. It keeps the state a BMC keeps
//! (sessions, power, the boot override, virtual-media slots), enforces each vendor's documented
//! quirks so that a client ignoring one fails as it would on the hardware, fetches inserted
//! media as a BMC does (HEAD, then a range read), and injects faults ([`RedfishFaults`]).
//!
//! ```no_run
//! # async fn f() -> std::io::Result<()> {
//! use bootsmith_sim::redfish::{Persona, RedfishConfig, RedfishSim};
//! let bmc = RedfishSim::start(RedfishConfig::new(Persona::Idrac9)).await?;
//! let root = reqwest::get(bmc.base_url()).await.unwrap(); // GET /redfish/v1, no credentials
//! # Ok(()) }
//! ```

mod cimc;
mod errors;
mod faults;
mod idrac;
mod idrac_legacy;
mod ilo;
mod media;
mod persona;
mod power;
mod routes;
mod sessions;
mod state;
mod supermicro;
mod synthetic;
mod tasks;
mod tree;
mod xcc;

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub use cimc::SERIAL as CIMC_SERIAL;
pub use faults::RedfishFaults;
pub use persona::Persona;
pub use state::{BootRecord, BootState, FetchRecord, SlotState};

use state::{Shared, State};

/// Where the captured iLO mockups are by default: `crates/sim/fixtures/ilo/mockups`, in the
/// repository (HPE's captures under their BSD-3 licence, which lies beside them), so the tests
/// need nothing outside the checkout.
pub fn default_mockups() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/ilo/mockups")
}

/// How to start a Redfish simulator.
#[derive(Debug, Clone)]
pub struct RedfishConfig {
    /// The vendor to play.
    pub persona: Persona,
    /// Login name (sessions and Basic).
    pub user: String,
    /// Login password.
    pub password: String,
    /// Initial faults.
    pub faults: RedfishFaults,
    /// How long a power change takes (the in-between state shows meanwhile).
    pub power_delay: Duration,
    /// How long an eject takes to show where the vendor's eject is asynchronous (iDRAC).
    pub eject_lag: Duration,
    /// The directory holding the iLO captures (`DL360/`, `DL380a_Gen12/`).
    pub mockups: PathBuf,
    /// A serial number to report instead of the persona's (to tell many BMCs apart).
    pub serial: Option<String>,
    /// Serve HTTPS with a self-signed certificate, as BMCs ship (else plain HTTP).
    pub https: bool,
}

impl RedfishConfig {
    /// `persona` with user `admin` / password `password`, 200 ms power changes, a 1 s iDRAC
    /// eject lag, the default mockups, no faults.
    pub fn new(persona: Persona) -> RedfishConfig {
        RedfishConfig {
            persona,
            user: "admin".into(),
            password: "password".into(),
            faults: RedfishFaults::default(),
            power_delay: Duration::from_millis(200),
            eject_lag: Duration::from_secs(1),
            mockups: default_mockups(),
            serial: None,
            https: false,
        }
    }
}

/// A running Redfish simulator; dropping it stops it.
pub struct RedfishSim {
    shared: Arc<Shared>,
    addr: std::net::SocketAddr,
    /// The certificate's SHA-256 fingerprint when serving HTTPS.
    fingerprint: Option<String>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl RedfishSim {
    /// Whether the persona can start: the iLO personas need their capture under `mockups`.
    pub fn available(persona: Persona, mockups: &std::path::Path) -> bool {
        persona
            .mockup()
            .is_none_or(|m| mockups.join(m).join("index.json").is_file())
    }

    /// Start on a free loopback port. Fails (NotFound) when an iLO capture is missing.
    pub async fn start(cfg: RedfishConfig) -> std::io::Result<RedfishSim> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        RedfishSim::start_on(cfg, listener).await
    }

    /// Start on a bound listener (plain HTTP).
    pub async fn start_on(
        cfg: RedfishConfig,
        listener: tokio::net::TcpListener,
    ) -> std::io::Result<RedfishSim> {
        let (docs, q) = cfg.persona.load(&cfg.mockups)?;
        let mut tree = tree::Tree::new(docs);
        if let Some(serial) = &cfg.serial {
            if let Some(d) = tree.get_mut(&q.system) {
                d["SerialNumber"] = serial.as_str().into();
            }
        }
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                tree,
                sessions: Vec::new(),
                faults: cfg.faults,
                requests: 0,
                writes: Vec::new(),
                fetches: Vec::new(),
                fetch_seq: HashMap::new(),
                boots: Vec::new(),
                power_seq: 0,
                ejecting: HashSet::new(),
                tasks: HashMap::new(),
                dell_jobs: HashMap::new(),
                dell_boot: None,
                next_id: 0,
            }),
            persona: cfg.persona,
            q,
            user: cfg.user,
            password: cfg.password,
            power_delay: cfg.power_delay,
            eject_lag: cfg.eject_lag,
            http: crate::fetch::client(),
        });
        let addr = listener.local_addr()?;
        let app = axum::Router::new()
            .fallback(routes::handle)
            .with_state(shared.clone());
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let stop = async {
            let _ = rx.await;
        };
        let fingerprint = if cfg.https {
            let cert = crate::tls::SelfSigned::generate();
            let fp = cert.fingerprint.clone();
            let tls = crate::tls::TlsListener::new(listener, cert)?;
            tokio::spawn(async move {
                let _ = axum::serve(tls, app).with_graceful_shutdown(stop).await;
            });
            Some(fp)
        } else {
            tokio::spawn(async move {
                let _ = axum::serve(listener, app)
                    .with_graceful_shutdown(stop)
                    .await;
            });
            None
        };
        Ok(RedfishSim {
            shared,
            addr,
            fingerprint,
            stop: Some(tx),
        })
    }

    /// `127.0.0.1:<port>`.
    pub fn addr(&self) -> std::net::SocketAddr {
        self.addr
    }

    /// `http://127.0.0.1:<port>` (`https://…` with `https`): the BMC's address.
    pub fn address(&self) -> String {
        let scheme = if self.fingerprint.is_some() {
            "https"
        } else {
            "http"
        };
        format!("{scheme}://{}", self.addr)
    }

    /// SHA-256 fingerprint of its certificate, when serving HTTPS.
    pub fn fingerprint(&self) -> Option<&str> {
        self.fingerprint.as_deref()
    }

    /// `http://127.0.0.1:<port>/redfish/v1`: the service root.
    pub fn base_url(&self) -> String {
        format!("{}/redfish/v1", self.address())
    }

    /// The persona played.
    pub fn persona(&self) -> Persona {
        self.shared.persona
    }

    /// The System's path (`/redfish/v1/Systems/1`, `…/System.Embedded.1`, …).
    pub fn system_path(&self) -> &str {
        &self.shared.q.system
    }

    /// The VirtualMedia collection's path.
    pub fn vmedia_path(&self) -> &str {
        &self.shared.q.vmedia
    }

    /// Replace the injected faults.
    pub fn set_faults(&self, faults: RedfishFaults) {
        self.shared.lock().faults = faults;
    }

    /// End every session now, as a BMC reboot or timeout would.
    pub fn expire_sessions(&self) {
        self.shared.lock().sessions.clear();
    }

    /// Sessions currently open.
    pub fn open_sessions(&self) -> usize {
        self.shared.lock().sessions.len()
    }

    /// HTTP requests received so far.
    pub fn requests(&self) -> u64 {
        self.shared.lock().requests
    }

    /// The writes received so far (`PATCH <path>`, `POST <path>`, `DELETE <path>`), oldest
    /// first; logins and logouts are left out.
    pub fn writes(&self) -> Vec<String> {
        self.shared.lock().writes.clone()
    }

    /// A copy of the document at `path` as the BMC holds it now.
    pub fn get(&self, path: &str) -> Option<serde_json::Value> {
        self.shared.lock().tree.get(&tree::normalize(path)).cloned()
    }

    /// The System's `PowerState`.
    pub fn power_state(&self) -> String {
        let st = self.shared.lock();
        st.tree
            .get(&self.shared.q.system)
            .and_then(|d| d["PowerState"].as_str())
            .unwrap_or_default()
            .to_owned()
    }

    /// Set the power at once, without a boot (test set-up).
    pub fn set_power_state(&self, on: bool) {
        let mut st = self.shared.lock();
        st.power_seq += 1;
        if let Some(d) = st.tree.get_mut(&self.shared.q.system) {
            d["PowerState"] = if on { "On" } else { "Off" }.into();
        }
    }

    /// The System's boot override.
    pub fn boot(&self) -> BootState {
        let st = self.shared.lock();
        let b = st
            .tree
            .get(&self.shared.q.system)
            .map(|d| d["Boot"].clone())
            .unwrap_or_default();
        let s = |k: &str| b[k].as_str().map(str::to_owned);
        BootState {
            target: s("BootSourceOverrideTarget").unwrap_or_default(),
            enabled: s("BootSourceOverrideEnabled").unwrap_or_default(),
            mode: s("BootSourceOverrideMode"),
        }
    }

    /// What the host booted at each power-on so far, oldest first.
    pub fn boots(&self) -> Vec<BootRecord> {
        self.shared.lock().boots.clone()
    }

    /// Every VirtualMedia slot, in collection order.
    pub fn slots(&self) -> Vec<SlotState> {
        let st = self.shared.lock();
        st.tree
            .get(&self.shared.q.vmedia)
            .map(power::strings_of_members)
            .unwrap_or_default()
            .iter()
            .filter_map(|p| st.tree.get(p).map(state::slot_state))
            .collect()
    }

    /// The slot `id` (`1`, `CD1`, `EXT2`, …).
    pub fn slot(&self, id: &str) -> Option<SlotState> {
        let path = format!("{}/{id}", self.shared.q.vmedia);
        self.shared.lock().tree.get(&path).map(state::slot_state)
    }

    /// The media fetches the BMC made, in the order they ended.
    pub fn fetch_log(&self) -> Vec<FetchRecord> {
        self.shared.lock().fetches.clone()
    }

    /// Stop serving.
    pub fn stop(mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
    }
}

impl Drop for RedfishSim {
    fn drop(&mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
    }
}
