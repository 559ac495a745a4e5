//! Opening the app: the directories and their locks, the sweep of what crashed
//! runs left in svc, the data key and the store, then the registries' tasks (the jobs' writer,
//! the install lifecycle). Above every service, so the app itself names none.

use std::path::{Path, PathBuf};

use crate::app::{blocking, App, Config, Parts};
use crate::error::{Error, ErrorCode, Result};
use crate::media::svc;
use crate::secrets::{self, Cipher, SecretString};
use bootsmith_store::Store;

const KEY_CHECK: &str = "key_check";
const KEY_CHECK_TEXT: &str = "bootsmith data key check";

/// Open the data dir (creating it), load the key and the catalog (with the packs of
/// `svc/catalog.d/`), migrate the store.
pub async fn open(config: Config) -> Result<App> {
    let data_dir = make_dir(&config.data_dir, "data")?;
    let svc_dir = make_dir(&config.svc_dir, "svc")?;
    if data_dir.starts_with(&svc_dir) {
        return Err(Error::bad(
            ErrorCode::SvcContainsData,
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
    let sd = svc_dir.clone();
    let (catalog, packs) = blocking(move || crate::packs::open(&sd)).await?;
    let dd = data_dir.clone();
    let use_keyring = config.use_keyring;
    let (key, key_location) =
        blocking(move || secrets::load_or_create_key(&dd, use_keyring)).await?;
    let cipher = Cipher::new(&key);
    let store = Store::open(&data_dir).await?;
    check_key(&store, &cipher).await?;
    tracing::info!(data_dir = %data_dir.display(), svc_dir = %svc_dir.display(), key = %key_location, "store opened");
    let app = App::new(Parts {
        store,
        cipher,
        catalog,
        packs,
        data_dir,
        svc_dir,
        key_location,
        svc_claim,
        data_claim,
    });
    crate::jobs::open(app.jobs(), app.store(), alone).await?;
    app.lifecycle().open(app.store()).await?;
    Ok(app)
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
