//! The core `App`: the handles every service function may use (store, cipher, catalog, paths
//! and the registries of managers, jobs and installs), passed in explicitly. It is opened by
//! [`crate::startup`] and names no service.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::error::{Error, Result};
use crate::jobs::Jobs;
use crate::managers::Managers;
use crate::media::svc;
use crate::secrets::{Cipher, KeyLocation};
use bootsmith_model::catalog::Catalog;
use bootsmith_store::Store;

/// Where the app keeps its files and how it finds its key.
#[derive(Debug, Clone)]
pub struct Config {
    /// Database, key file, logs.
    pub data_dir: PathBuf,
    /// ISO files and generated media, served read-only to the servers.
    pub svc_dir: PathBuf,
    /// Try the OS keyring for the data key before a key file.
    pub use_keyring: bool,
}

/// Handle on the running core; cheap to clone.
#[derive(Debug, Clone)]
pub struct App {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    store: Store,
    cipher: Cipher,
    /// The base catalog with the packs applied; swapped whole when the packs change.
    catalog: std::sync::RwLock<Arc<Catalog>>,
    packs: crate::packs::state::Packs,
    data_dir: PathBuf,
    svc_dir: PathBuf,
    key_location: KeyLocation,
    managers: Managers,
    jobs: Jobs,
    lifecycle: crate::lifecycle::Lifecycle,
    svc_port: std::sync::atomic::AtomicU16,
    svc_listen_ip: std::sync::Mutex<Option<std::net::IpAddr>>,
    token: crate::secrets::TokenCache,
    /// Held while open, so a second process on the same svc does not sweep this one's work.
    _svc_claim: Option<svc::Claim>,
    /// A shared lock on the data directory, held for the app's life: see [`claim_data`].
    _data_claim: Option<std::fs::File>,
}

/// What an app is made of: [`crate::startup::open`] opens each part.
pub(crate) struct Parts {
    pub store: Store,
    pub cipher: Cipher,
    pub catalog: Catalog,
    pub packs: crate::packs::state::Packs,
    pub data_dir: PathBuf,
    pub svc_dir: PathBuf,
    pub key_location: KeyLocation,
    pub svc_claim: Option<svc::Claim>,
    pub data_claim: Option<std::fs::File>,
}

impl App {
    /// An app over opened parts, its registries empty (startup starts their tasks).
    pub(crate) fn new(p: Parts) -> Self {
        App {
            inner: Arc::new(Inner {
                store: p.store,
                cipher: p.cipher,
                catalog: std::sync::RwLock::new(Arc::new(p.catalog)),
                packs: p.packs,
                data_dir: p.data_dir,
                svc_dir: p.svc_dir,
                key_location: p.key_location,
                managers: Managers::default(),
                jobs: Jobs::default(),
                lifecycle: Default::default(),
                svc_port: Default::default(),
                svc_listen_ip: Default::default(),
                token: Default::default(),
                _svc_claim: p.svc_claim,
                _data_claim: p.data_claim,
            }),
        }
    }

    /// Where the records live; every SQL statement goes through it.
    pub fn store(&self) -> &Store {
        &self.inner.store
    }
    /// Encrypts and decrypts the passwords the records keep, with this installation's data key.
    pub fn cipher(&self) -> &Cipher {
        &self.inner.cipher
    }
    /// The operating systems Bootsmith can install now: the compiled-in catalog with the
    /// catalog packs applied. A snapshot: a pack added later is in the next call's answer.
    pub fn catalog(&self) -> Arc<Catalog> {
        self.inner
            .catalog
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// Put a new catalog (checked whole) in place of the current one.
    pub(crate) fn set_catalog(&self, catalog: Catalog) {
        *self
            .inner
            .catalog
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Arc::new(catalog);
    }

    /// The catalog packs applied (and refused) and the lock their changes take.
    pub(crate) fn packs(&self) -> &crate::packs::state::Packs {
        &self.inner.packs
    }
    /// The data directory (canonical).
    pub fn data_dir(&self) -> &Path {
        &self.inner.data_dir
    }
    /// The svc directory (canonical).
    pub fn svc_dir(&self) -> &Path {
        &self.inner.svc_dir
    }
    /// Where the data key lives.
    pub fn key_location(&self) -> &KeyLocation {
        &self.inner.key_location
    }

    /// Connections to the server groups' managers.
    pub fn managers(&self) -> &Managers {
        &self.inner.managers
    }

    /// The background jobs (image creation, deploy) of this process.
    pub fn jobs(&self) -> &Jobs {
        &self.inner.jobs
    }

    /// Each host's install lifecycle: where svc reports what it served.
    pub fn lifecycle(&self) -> &crate::lifecycle::Lifecycle {
        &self.inner.lifecycle
    }

    /// The API token as last checked (see [`crate::auth::check`]).
    pub(crate) fn token_cache(&self) -> &crate::secrets::TokenCache {
        &self.inner.token
    }

    /// The port where this process serves svc over HTTP (0 until a listener is up).
    pub fn svc_port(&self) -> u16 {
        self.inner
            .svc_port
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Record the port of the HTTP listener that serves svc; install media point servers at it.
    pub fn set_svc_port(&self, port: u16) {
        self.inner
            .svc_port
            .store(port, std::sync::atomic::Ordering::Relaxed);
    }

    /// Record the address the HTTP listener that serves svc is bound to (its port too).
    pub fn set_svc_listener(&self, addr: std::net::SocketAddr) {
        self.set_svc_port(addr.port());
        *self
            .inner
            .svc_listen_ip
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(addr.ip());
    }

    /// The address the svc listener is bound to (`0.0.0.0` for every address), if one is up.
    pub fn svc_listen_ip(&self) -> Option<std::net::IpAddr> {
        *self
            .inner
            .svc_listen_ip
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Log out of every manager, store the install lifecycle and the jobs' last reports, then
    /// flush and close the store.
    pub async fn close(&self) {
        self.inner.managers.logout_all().await;
        self.inner.lifecycle.stop().await;
        self.inner.jobs.flush().await;
        self.inner.store.close().await;
    }
}

/// Run blocking file work off the async threads.
pub(crate) async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T> + Send + 'static,
) -> Result<T> {
    tokio::task::spawn_blocking(f).await.map_err(|e| {
        Error::io(
            "a background task failed",
            std::io::Error::other(e.to_string()),
        )
    })?
}
