//! Apps on temporary directories, and an in-memory manager ([`FakeManager`]) to put
//! behind their server groups, for the tests of every crate.
//!
//! Built for this crate's unit tests, and for other targets with the `testing` feature: the
//! crates that test with it enable it as a dev-dependency feature (this crate's own
//! integration tests through a dev-dependency on itself). Every app here keeps its files
//! the same way: `<dir>/data` and `<dir>/svc`, the data key in a file (never the OS
//! keyring), which is also the layout the end-to-end tests give the `bootsmith` binary.

mod fake_manager;

pub use fake_manager::{FakeManager, FakeWrite};

use std::ops::Deref;
use std::path::Path;

use tempfile::TempDir;

use crate::{App, Config};

/// The configuration of an app on `dir`: `<dir>/data`, `<dir>/svc`, no keyring.
pub fn config(dir: &Path) -> Config {
    Config {
        data_dir: dir.join("data"),
        svc_dir: dir.join("svc"),
        use_keyring: false,
    }
}

/// Open the app on `dir` (see [`config`]), creating what is missing; panics if it cannot.
pub async fn open(dir: &Path) -> App {
    crate::startup::open(config(dir))
        .await
        .unwrap_or_else(|e| panic!("the app opens on {}: {e}", dir.display()))
}

/// An open [`App`] and the temporary directory that holds its files, deleted when this is
/// dropped. Derefs to the `App`, so `&temp_app` goes where `&App` is wanted.
#[derive(Debug)]
pub struct TempApp {
    /// The app (dropped before the directory).
    pub app: App,
    /// `data` and `svc` are in here.
    pub dir: TempDir,
}

impl TempApp {
    /// An app on a fresh temporary directory.
    pub async fn new() -> TempApp {
        TempApp::open_in(tempfile::tempdir().expect("a temporary directory")).await
    }

    /// The app on `dir`: an empty one, or one that [`TempApp::close`] gave back (a restart).
    pub async fn open_in(dir: TempDir) -> TempApp {
        TempApp {
            app: open(dir.path()).await,
            dir,
        }
    }

    /// The temporary directory.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Close the app (managers logged out, store flushed and closed) and keep its files: the
    /// directory, for [`TempApp::open_in`] or for a look at what is on disk.
    pub async fn close(self) -> TempDir {
        self.app.close().await;
        self.dir
    }
}

impl Deref for TempApp {
    type Target = App;

    fn deref(&self) -> &App {
        &self.app
    }
}
