//! The handle on the lifecycle task that the app holds: what svc, the deploys and the
//! installers' callbacks hand it, and its start and stop.

use std::sync::OnceLock;

use tokio::sync::{mpsc, oneshot};

use super::tracker::{self, Fetch};
use crate::error::Result;
use bootsmith_model::stage::Stage;
use bootsmith_store::Store;

/// The handle on the lifecycle task; part of the app.
#[derive(Debug, Default)]
pub struct Lifecycle {
    tx: OnceLock<mpsc::UnboundedSender<tracker::Msg>>,
}

impl Lifecycle {
    /// Start the task that moves hosts through their stages and stores it in `store`.
    pub(crate) async fn open(&self, store: &Store) -> Result<()> {
        let tx = tracker::spawn(store.clone()).await?;
        let _ = self.tx.set(tx);
        Ok(())
    }

    /// svc answered a request: the task attributes it to a host, if it belongs to one. Cheap:
    /// one channel send, so the listener is not held up.
    pub fn fetched(&self, f: Fetch) {
        if let Some(tx) = self.tx.get() {
            let _ = tx.send(tracker::Msg::Fetch(f));
        }
    }

    /// Store what is pending and stop the task, before the store closes.
    pub(crate) async fn stop(&self) {
        let Some(tx) = self.tx.get() else { return };
        let (ack, done) = oneshot::channel();
        if tx.send(tracker::Msg::Stop { ack }).is_ok() {
            let _ = done.await;
        }
    }

    /// Add a line to `host`'s timeline without a change of stage.
    pub(crate) fn note(&self, host: &str, detail: impl Into<String>) {
        if let Some(tx) = self.tx.get() {
            let _ = tx.send(tracker::Msg::Note {
                host: host.to_owned(),
                detail: detail.into(),
            });
        }
    }

    /// Move `host` to `to` (if the lifecycle allows) and wait until it is stored; true when it moved.
    pub(crate) async fn set(&self, host: &str, to: Stage, detail: impl Into<String>) -> bool {
        let Some(tx) = self.tx.get() else {
            return false;
        };
        let (ack, done) = oneshot::channel();
        let msg = tracker::Msg::Set {
            host: host.to_owned(),
            to,
            detail: detail.into(),
            ack: Some(ack),
        };
        if tx.send(msg).is_err() {
            return false;
        }
        done.await.unwrap_or(false)
    }
}
