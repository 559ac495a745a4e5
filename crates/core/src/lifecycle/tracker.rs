//! The one task that moves hosts through their stages and stores it: it reads what svc
//! served (attributing each fetch to a host by its file name or the fetcher's address), the
//! moves Bootsmith itself makes (build, deploy, power, callbacks) and the clock (stage
//! timeouts), and writes status, timeline and access rows in one transaction a second.

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::time::{Duration, Instant};

use tokio::sync::{mpsc, oneshot};

use super::timeouts::Timeouts;
use crate::error::Result;
use bootsmith_model::stage::Stage;
use bootsmith_model::time::{Millis, Time};
use bootsmith_store::lifecycle::{self as rows, AccessRow, EventRow, StatusRow, Write};
use bootsmith_store::{self as store, Store};

/// One answer of svc, as the listener saw it.
#[derive(Debug, Clone)]
pub struct Fetch {
    /// Who asked.
    pub peer: IpAddr,
    /// The file, below svc (`node01.img`, `rocky9/BaseOS/Packages/x.rpm`).
    pub path: String,
    /// Bytes answered.
    pub bytes: u64,
    /// The `Range` asked for, if any.
    pub range: Option<String>,
}

/// What the task is told.
#[derive(Debug)]
pub(super) enum Msg {
    /// svc answered.
    Fetch(Fetch),
    /// Move `host` to `to`; `ack` hears whether it moved, once it is stored.
    Set {
        host: String,
        to: Stage,
        detail: String,
        ack: Option<oneshot::Sender<bool>>,
    },
    /// Add a line to `host`'s timeline at its current stage (something done after installed).
    Note { host: String, detail: String },
    /// Store what is pending and end (the store is about to close); `ack` hears when done.
    Stop { ack: oneshot::Sender<()> },
}

/// What the task knows of one host.
#[derive(Debug, Clone)]
struct Host {
    name: String,
    os: String,
    role: String,
}

/// Whose management controller an address is: learnt from fetches of per-host media.
#[derive(Debug, Clone, PartialEq)]
enum Controller {
    Of(String),
    /// It fetched several hosts' media (a shared address, as in a simulator): attributes nothing.
    Shared,
}

struct Tracker {
    store: Store,
    version: i64,
    hosts: HashMap<String, Host>,
    by_ip: HashMap<IpAddr, String>,
    live: HashMap<String, StatusRow>,
    controllers: HashMap<IpAddr, Controller>,
    /// Shared media (a boot ISO) fetched by an address not known yet: a BMC often reads the
    /// boot ISO before the host's own image, which is what tells whose controller it is.
    unclaimed: HashMap<IpAddr, Vec<(Instant, Fetch)>>,
    access: HashMap<(String, String, String), AccessRow>,
    dirty: HashSet<String>,
    /// A host changed stage since the last store.
    moved: bool,
    writes: Vec<Write>,
    acks: Vec<(oneshot::Sender<bool>, bool)>,
}

/// How long, and how many, fetches of shared media by an unknown address wait to be claimed.
const UNCLAIMED_FOR: Duration = Duration::from_secs(600);
const UNCLAIMED_KEPT: usize = 64;
const UNCLAIMED_PEERS: usize = 1024;

/// Now, as lifecycle times are kept (to the millisecond).
pub(super) fn now() -> Time<Millis> {
    Time::now()
}

/// Start the task; it ends when every sender is gone.
pub(super) async fn spawn(store: Store) -> Result<mpsc::UnboundedSender<Msg>> {
    let mut t = Tracker {
        store,
        version: -1,
        hosts: HashMap::new(),
        by_ip: HashMap::new(),
        live: HashMap::new(),
        controllers: HashMap::new(),
        unclaimed: HashMap::new(),
        access: HashMap::new(),
        dirty: HashSet::new(),
        moved: false,
        writes: Vec::new(),
        acks: Vec::new(),
    };
    for row in rows::statuses(t.store.reader()).await? {
        t.live.insert(row.host.to_lowercase(), row);
    }
    t.reload().await?;
    let (tx, mut rx) = mpsc::unbounded_channel::<Msg>();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(1));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut batch = Vec::new();
        loop {
            tokio::select! {
                n = rx.recv_many(&mut batch, 1024) => {
                    if n == 0 {
                        t.flush().await;
                        return;
                    }
                    let urgent = batch.iter().any(|m| matches!(m, Msg::Set { .. } | Msg::Note { .. }));
                    if urgent {
                        // A move names a host that may have just been stored.
                        t.reload_logged().await;
                    }
                    let mut stop = None;
                    for m in batch.drain(..) {
                        match m {
                            Msg::Stop { ack } => stop = Some(ack),
                            m => t.handle(m),
                        }
                    }
                    // A host that changed stage is stored at once, so whoever reads it next
                    // (a job following installs, the window) sees it; counts wait for the tick.
                    if urgent || stop.is_some() || t.moved {
                        t.flush().await;
                    }
                    if let Some(ack) = stop {
                        let _ = ack.send(());
                        return;
                    }
                }
                _ = tick.tick() => {
                    t.reload_logged().await;
                    t.expire().await;
                    t.flush().await;
                }
            }
        }
    });
    Ok(tx)
}

impl Tracker {
    async fn reload_logged(&mut self) {
        if let Err(e) = self.reload().await {
            tracing::error!(error = %e, "the host list could not be read for the install lifecycle");
        }
    }

    /// Read the host list again when the store changed.
    async fn reload(&mut self) -> Result<()> {
        let version = self.store.version().await?;
        if version == self.version {
            return Ok(());
        }
        self.version = version;
        let list = store::hosts::list(self.store.reader()).await?;
        self.hosts.clear();
        self.by_ip.clear();
        for h in list {
            let key = h.name.to_lowercase();
            let ip: Option<IpAddr> = h.ip.parse().ok();
            if let Some(ip) = ip {
                self.by_ip.insert(ip, key.clone());
            }
            self.hosts.insert(
                key,
                Host {
                    name: h.name,
                    os: h.os,
                    role: h.role,
                },
            );
        }
        Ok(())
    }

    fn handle(&mut self, m: Msg) {
        match m {
            Msg::Fetch(f) => self.fetched(f),
            Msg::Set {
                host,
                to,
                detail,
                ack,
            } => {
                let moved = self.set(&host.to_lowercase(), to, detail);
                if let Some(ack) = ack {
                    self.acks.push((ack, moved));
                }
            }
            Msg::Stop { .. } => {}
            Msg::Note { host, detail } => {
                let key = host.to_lowercase();
                if let Some(stage) = self.stage(&key) {
                    tracing::info!(host = %host, detail = %detail, "install lifecycle");
                    self.writes.push(Write::Event {
                        host: self.display(&key),
                        event: EventRow {
                            seq: 0,
                            at: now(),
                            state: stage.as_str().to_owned(),
                            detail: Some(detail),
                        },
                    });
                }
            }
        }
    }

    /// Attribute one answer of svc to a host, if it belongs to one, and move it on.
    fn fetched(&mut self, f: Fetch) {
        let own = per_host_file(&f.path).filter(|o| {
            let host = o.host();
            // `svc/<dir>/…` of a host named like an OS of the hosts (`rocky9`) is that OS's tree.
            let tree = f.path.contains('/')
                && self.hosts.values().any(|h| h.os.eq_ignore_ascii_case(host));
            self.hosts.contains_key(host) && !tree
        });
        let peer_host = self.by_ip.get(&f.peer).cloned();
        if let Some(Own::Answer(host)) = own {
            // Its installer runs: the server booted the media. Whoever fetches it is not the
            // controller (an installer's address, perhaps from DHCP), so nothing is learnt.
            self.account(&host, &f, f.path.clone());
            let detail = format!("the installer at {} fetched {}", f.peer, f.path);
            self.set(&host, Stage::Booting, detail);
        } else if let Some(Own::Medium(host)) = own {
            if peer_host.is_none() {
                let new = !self.controllers.contains_key(&f.peer);
                let learnt = self
                    .controllers
                    .entry(f.peer)
                    .or_insert_with(|| Controller::Of(host.clone()));
                if *learnt != Controller::Of(host.clone()) {
                    *learnt = Controller::Shared;
                }
                // What it fetched before it was known counts for the host now.
                let earlier = self.unclaimed.remove(&f.peer).unwrap_or_default();
                if new {
                    for (at, e) in earlier {
                        if at.elapsed() < UNCLAIMED_FOR {
                            self.account(&host, &e, e.path.clone());
                        }
                    }
                }
            }
            self.account(&host, &f, f.path.clone());
            let detail = format!("{} fetched {}", f.peer, f.path);
            self.set(&host, Stage::MediaMounted, detail);
        } else if let Some(host) = peer_host {
            let tree = match f.path.split_once('/') {
                Some((top, _)) => format!("{top}/"),
                None => f.path.clone(),
            };
            self.account(&host, &f, tree.clone());
            let at = now();
            let first_part = f.range.as_deref().is_none_or(range_starts_at_zero);
            if let Some(live) = self.live.get_mut(&host) {
                if !live_is_final(live) {
                    live.bytes += f.bytes as i64;
                    live.files += i64::from(first_part);
                    live.last_fetch = Some(at);
                    self.dirty.insert(host.clone());
                }
            }
            let detail = format!("the installer at {} fetches {tree}", f.peer);
            // The first fetch starts the count; one after the install ended changes nothing.
            if self.stage(&host) != Some(Stage::Installing)
                && self.set(&host, Stage::Installing, detail)
            {
                if let Some(live) = self.live.get_mut(&host) {
                    live.bytes = f.bytes as i64;
                    live.files = i64::from(first_part);
                    live.last_fetch = Some(now());
                }
            }
        } else if let Some(known) = self.controllers.get(&f.peer).cloned() {
            if let Controller::Of(host) = known {
                if !f.path.contains('/') && self.hosts.contains_key(&host) {
                    self.account(&host, &f, f.path.clone());
                }
            }
        } else if !f.path.contains('/') {
            if self.unclaimed.len() >= UNCLAIMED_PEERS && !self.unclaimed.contains_key(&f.peer) {
                self.unclaimed
                    .retain(|_, v| v.last().is_some_and(|(at, _)| at.elapsed() < UNCLAIMED_FOR));
                if self.unclaimed.len() >= UNCLAIMED_PEERS {
                    return;
                }
            }
            let kept = self.unclaimed.entry(f.peer).or_default();
            kept.retain(|(at, _)| at.elapsed() < UNCLAIMED_FOR);
            if kept.len() < UNCLAIMED_KEPT {
                kept.push((Instant::now(), f));
            }
        }
    }

    fn stage(&self, host: &str) -> Option<Stage> {
        self.live.get(host).and_then(|l| Stage::parse(&l.state))
    }

    fn account(&mut self, host: &str, f: &Fetch, what: String) {
        let at = now();
        let name = self.display(host);
        let row = self
            .access
            .entry((host.to_owned(), f.peer.to_string(), what.clone()))
            .or_insert_with(|| AccessRow {
                host: name,
                peer: f.peer.to_string(),
                what,
                first_at: at,
                last_at: at,
                requests: 0,
                bytes: 0,
                last_range: None,
            });
        row.last_at = at;
        row.requests += 1;
        row.bytes += f.bytes as i64;
        if f.range.is_some() {
            row.last_range = f.range.clone();
        }
    }

    fn display(&self, host: &str) -> String {
        self.hosts
            .get(host)
            .map(|h| h.name.clone())
            .or_else(|| self.live.get(host).map(|l| l.host.clone()))
            .unwrap_or_else(|| host.to_owned())
    }

    /// Move `host` to `to` if the lifecycle allows it; true when it moved.
    fn set(&mut self, host: &str, to: Stage, detail: String) -> bool {
        let from = self.stage(host);
        if !to.may_follow(from) {
            return false;
        }
        if from == Some(to) && to == Stage::Installing {
            return false;
        }
        let at = now();
        let name = self.display(host);
        let (bytes, files) = match (to, self.live.get(host)) {
            // A new run counts from zero.
            (Stage::MediaReady, _) | (_, None) => (0, 0),
            (_, Some(l)) => (l.bytes, l.files),
        };
        if to == Stage::MediaReady {
            self.controllers
                .retain(|_, c| *c != Controller::Of(host.to_owned()));
            self.access.retain(|(h, _, _), _| h != host);
            self.writes.push(Write::ForgetAccess(name.clone()));
        }
        if to == Stage::Installed && bytes > 0 {
            if let Some(h) = self.hosts.get(host) {
                self.writes.push(Write::Size {
                    os: h.os.clone(),
                    role: h.role.clone(),
                    bytes,
                    files,
                });
            }
        }
        let last_fetch = self.live.get(host).and_then(|l| l.last_fetch);
        self.live.insert(
            host.to_owned(),
            StatusRow {
                host: name.clone(),
                state: to.as_str().to_owned(),
                since: at,
                detail: Some(detail.clone()),
                bytes,
                files,
                last_fetch: if to == Stage::MediaReady {
                    None
                } else {
                    last_fetch
                },
            },
        );
        self.dirty.insert(host.to_owned());
        self.moved = true;
        self.writes.push(Write::Event {
            host: name.clone(),
            event: EventRow {
                seq: 0,
                at,
                state: to.as_str().to_owned(),
                detail: Some(detail.clone()),
            },
        });
        // A failed install is what the operator must see: "at least warn" in the Logs screen.
        if to == Stage::Failed {
            tracing::warn!(host = %name, stage = %to, detail = %detail, "install failed");
        } else {
            tracing::info!(host = %name, stage = %to, detail = %detail, "install lifecycle");
        }
        true
    }

    /// Fail the hosts whose stage ran out of time.
    async fn expire(&mut self) {
        let limits = match Timeouts::load(&self.store).await {
            Ok(l) => l,
            Err(e) => {
                tracing::error!(error = %e, "the stage timeouts could not be read");
                return;
            }
        };
        let now = chrono::Utc::now();
        let mut failing = Vec::new();
        for (key, live) in &self.live {
            let Some(stage) = Stage::parse(&live.state) else {
                continue;
            };
            let Some(limit) = limits.of(stage) else {
                continue;
            };
            // An install is measured from its last fetch: a big one may take hours, a stuck one stops fetching.
            let from = match stage {
                Stage::Installing => live.last_fetch.unwrap_or(live.since),
                _ => live.since,
            };
            let waited = now.signed_duration_since(from.at());
            if waited.num_seconds() >= i64::from(limit) * 60 {
                failing.push((key.clone(), Timeouts::sentence(stage, limit)));
            }
        }
        for (key, why) in failing {
            self.set(&key, Stage::Failed, why);
        }
    }

    /// Store what changed, in one transaction, then tell whoever waits.
    async fn flush(&mut self) {
        self.moved = false;
        let mut writes = std::mem::take(&mut self.writes);
        for key in self.dirty.drain() {
            if let Some(live) = self.live.get(&key) {
                writes.push(Write::Status(live.clone()));
            }
        }
        for (_, row) in self.access.drain() {
            writes.push(Write::Access(row));
        }
        if !writes.is_empty() {
            if let Err(e) = rows::write(&self.store, &writes).await {
                tracing::error!(error = %e, "the install lifecycle could not be stored");
            }
        }
        for (ack, moved) in self.acks.drain(..) {
            let _ = ack.send(moved);
        }
    }
}

fn live_is_final(live: &StatusRow) -> bool {
    Stage::parse(&live.state).is_some_and(Stage::is_final)
}

/// A file of svc that belongs to one host (lowercase), known by its name alone.
#[derive(Debug, PartialEq)]
enum Own {
    /// What its controller mounts: `<host>.img`, `<host>.iso`, `<host>/boot.iso`.
    Medium(String),
    /// An answer file its installer fetches over HTTP: `<host>/ks.cfg`, `<host>/user-data`.
    Answer(String),
}

impl Own {
    fn host(&self) -> &str {
        match self {
            Own::Medium(h) | Own::Answer(h) => h,
        }
    }
}

/// Which host's a file is: a top-level `<host>.img` or `<host>.iso`, or a file directly in
/// `<host>/` (the single-device media); whether that host exists is the caller's to check.
fn per_host_file(path: &str) -> Option<Own> {
    if let Some((dir, file)) = path.split_once('/') {
        if file.is_empty() || file.contains('/') || dir.contains('.') {
            return None;
        }
        let host = dir.to_lowercase();
        return Some(if file == crate::media::layout::SINGLE_DEVICE_ISO {
            Own::Medium(host)
        } else {
            Own::Answer(host)
        });
    }
    let (stem, ext) = path.rsplit_once('.')?;
    (ext.eq_ignore_ascii_case("img") || ext.eq_ignore_ascii_case("iso"))
        .then(|| Own::Medium(stem.to_lowercase()))
}

fn range_starts_at_zero(range: &str) -> bool {
    range
        .trim()
        .strip_prefix("bytes=")
        .is_some_and(|r| r.trim_start().starts_with("0-"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_host_media_are_known_by_name() {
        let medium = |h: &str| Some(Own::Medium(h.into()));
        assert_eq!(per_host_file("Node01.img"), medium("node01"));
        assert_eq!(per_host_file("esx01.iso"), medium("esx01"));
        assert_eq!(per_host_file("rocky9/images/install.img"), None);
        assert_eq!(per_host_file("ks.cfg"), None);
        // Single-device media: the ISO in the host's directory, its answer files beside it.
        assert_eq!(per_host_file("node01/boot.iso"), medium("node01"));
        assert_eq!(
            per_host_file("Node01/ks.cfg"),
            Some(Own::Answer("node01".into()))
        );
        assert_eq!(
            per_host_file("ubu01/user-data"),
            Some(Own::Answer("ubu01".into()))
        );
        assert_eq!(per_host_file("centos7.4/.treeinfo"), None);
        assert_eq!(per_host_file("node01/"), None);
        assert!(range_starts_at_zero("bytes=0-1023"));
        assert!(!range_starts_at_zero("bytes=1024-2047"));
    }
}
