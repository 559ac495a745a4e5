//! The core `App`: everything a service function needs, passed in explicitly.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::catalog::Catalog;
use crate::error::{Error, Result};
use crate::jobs::Jobs;
use crate::managers::Managers;
use crate::secrets::{self, Cipher, KeyLocation, SecretString};
use crate::store::Store;
use crate::svc;

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
    catalog: Catalog,
    data_dir: PathBuf,
    svc_dir: PathBuf,
    key_location: KeyLocation,
    managers: Managers,
    jobs: Jobs,
    lifecycle: crate::lifecycle::Lifecycle,
    svc_port: std::sync::atomic::AtomicU16,
    svc_listen_ip: std::sync::Mutex<Option<std::net::IpAddr>>,
    token: crate::auth::TokenCache,
    /// Held while open, so a second process on the same svc does not sweep this one's work.
    _svc_claim: Option<svc::Claim>,
    /// A shared lock on the data directory, held for the app's life: see [`claim_data`].
    _data_claim: Option<std::fs::File>,
}

const KEY_CHECK: &str = "key_check";
const KEY_CHECK_TEXT: &str = "bootsmith data key check";

impl App {
    /// Open the data dir (creating it), load the key and the catalog, migrate the store.
    pub async fn open(config: Config) -> Result<Self> {
        let data_dir = make_dir(&config.data_dir, "data")?;
        let svc_dir = make_dir(&config.svc_dir, "svc")?;
        if data_dir.starts_with(&svc_dir) {
            return Err(Error::bad(
                "svc_contains_data",
                format!(
                    "the svc directory {} would contain the data directory {}; svc is served to the network, so keep the database and key outside it",
                    svc_dir.display(),
                    data_dir.display()
                ),
            ));
        }
        let sd = svc_dir.clone();
        let svc_claim = blocking(move || Ok(claim_svc(&sd))).await?;
        let dd = data_dir.clone();
        let (data_claim, alone) = blocking(move || Ok(claim_data(&dd))).await?;
        let catalog = Catalog::embedded()?;
        let dd = data_dir.clone();
        let use_keyring = config.use_keyring;
        let (key, key_location) =
            blocking(move || secrets::load_or_create_key(&dd, use_keyring)).await?;
        let cipher = Cipher::new(&key);
        let store = Store::open(&data_dir).await?;
        check_key(&store, &cipher).await?;
        tracing::info!(data_dir = %data_dir.display(), svc_dir = %svc_dir.display(), key = %key_location, "store opened");
        let app = App {
            inner: Arc::new(Inner {
                store,
                cipher,
                catalog,
                data_dir,
                svc_dir,
                key_location,
                managers: Managers::default(),
                jobs: Jobs::default(),
                lifecycle: Default::default(),
                svc_port: Default::default(),
                svc_listen_ip: Default::default(),
                token: Default::default(),
                _svc_claim: svc_claim,
                _data_claim: data_claim,
            }),
        };
        crate::jobs::open(&app, alone).await?;
        crate::lifecycle::open(&app).await?;
        Ok(app)
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.inner.store
    }
    /// The secret cipher.
    pub fn cipher(&self) -> &Cipher {
        &self.inner.cipher
    }
    /// The OS catalog.
    pub fn catalog(&self) -> &Catalog {
        &self.inner.catalog
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
    pub(crate) fn token_cache(&self) -> &crate::auth::TokenCache {
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
        crate::jobs::flush(self).await;
        self.inner.store.close().await;
    }
}

fn make_dir(path: &Path, what: &str) -> Result<PathBuf> {
    std::fs::create_dir_all(path).map_err(|e| {
        Error::io(
            format!("creating the {what} directory {}", path.display()),
            e,
        )
    })?;
    path.canonicalize().map_err(|e| {
        Error::io(
            format!("resolving the {what} directory {}", path.display()),
            e,
        )
    })
}

/// Claim svc and sweep what crashed runs left there ([`svc::claim`]). A svc that cannot be
/// locked (a filesystem without `flock`) is still used, unswept: nothing else needs the lock.
fn claim_svc(svc_dir: &Path) -> Option<svc::Claim> {
    match svc::claim(svc_dir) {
        Ok((claim, _)) => Some(claim),
        Err(e) => {
            tracing::warn!(error = %e, "cannot lock the svc directory: leftovers of interrupted runs are not swept");
            None
        }
    }
}

/// Hold the data directory for this process: true when no other Bootsmith process uses it (the
/// window beside `serve`, `bootsmith token`), so what the store says is running was cut off by
/// a process that is gone, not running elsewhere. The lock is shared once taken, so processes
/// started later see the directory in use; the kernel drops it when the process dies.
fn claim_data(data_dir: &Path) -> (Option<std::fs::File>, bool) {
    let dir = match std::fs::File::open(data_dir) {
        Ok(d) => d,
        Err(e) => {
            tracing::warn!(error = %e, "cannot lock the data directory: jobs left running are not marked interrupted");
            return (None, false);
        }
    };
    let alone = dir.try_lock().is_ok();
    if let Err(e) = dir.lock_shared() {
        tracing::warn!(error = %e, "cannot lock the data directory");
        return (None, false);
    }
    (Some(dir), alone)
}

/// A database written with another key must not be silently re-keyed: refuse to start.
async fn check_key(store: &Store, cipher: &Cipher) -> Result<()> {
    match store.setting(KEY_CHECK).await? {
        Some(token) => match cipher.decrypt(&token) {
            Ok(text) if text.expose() == KEY_CHECK_TEXT => Ok(()),
            _ => Err(Error::Secret(
                "the data key does not match this database: the key it was written with (OS keyring entry or secret.key file) is missing or was replaced".into(),
            )),
        },
        None => {
            Ok(store
                .set_setting(KEY_CHECK, &cipher.encrypt(&SecretString::new(KEY_CHECK_TEXT)))
                .await?)
        }
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
