//! What a Redfish simulator keeps between requests: its resource tree (the documents are the
//! state: power, boot override, slots), its sessions, the media fetches its BMC made, the boots
//! it performed and the task monitors it answers. Also the read-only views tests inspect.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::http::{HeaderMap, Method};
use serde_json::Value;

use super::faults::RedfishFaults;
use super::persona::{Persona, Quirks};
use super::tree::Tree;

/// One fetch of a media URL by the simulated BMC: `HEAD`, then a range read of the first part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchRecord {
    /// The slot's id (`2`, `CD1`, `EXT1`, …).
    pub slot: String,
    /// The URL fetched.
    pub url: String,
    /// The image's size, or why the BMC could not mount it.
    pub result: Result<u64, String>,
}

/// What the host booted from at a power-on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BootRecord {
    /// The boot override target in effect (`Cd`, `UsbCd`, `None`,
    /// `BootOnNextServerReset` for HPE's slot flag, or Dell's OEM `VCD-DVD`/`VFDD`).
    pub target: String,
    /// The override's `BootSourceOverrideEnabled` then (`Once`, `Continuous`, `Disabled`).
    pub enabled: String,
    /// The virtual-media image booted, if the target booted the virtual CD; None when it
    /// booted a disk, the network or a physical drive (Supermicro's and iDRAC < 6's `Cd`).
    pub image: Option<String>,
}

/// A VirtualMedia slot as the BMC reports it.
#[derive(Debug, Clone, PartialEq)]
pub struct SlotState {
    /// The slot's id.
    pub id: String,
    /// `Image` (None when null or empty).
    pub image: Option<String>,
    /// `ImageName`.
    pub image_name: Option<String>,
    /// `Inserted`.
    pub inserted: bool,
    /// `ConnectedVia` (`URI`, `NotConnected`, …).
    pub connected_via: Option<String>,
    /// HPE's `Oem.Hpe.BootOnNextServerReset`, on slots that have it.
    pub boot_on_next_reset: Option<bool>,
}

/// The System's boot override.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BootState {
    /// `BootSourceOverrideTarget`.
    pub target: String,
    /// `BootSourceOverrideEnabled`.
    pub enabled: String,
    /// `BootSourceOverrideMode`, if the System has one.
    pub mode: Option<String>,
}

pub(crate) struct Session {
    pub id: String,
    pub token: String,
    pub user: String,
    pub created: Instant,
    pub requests: u32,
}

/// A request kept to be answered later (an action behind a task monitor).
#[derive(Clone)]
pub(crate) struct Req {
    pub method: Method,
    pub path: String,
    pub headers: HeaderMap,
    pub body: Bytes,
}

pub(crate) struct Task {
    pub polls_left: u32,
    pub req: Req,
}

/// A one-time (or persistent) boot set by Dell's OEM configuration import.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DellBoot {
    /// `ServerBoot.1#FirstBootDevice`: `VCD-DVD` or `VFDD`.
    pub device: String,
    /// `ServerBoot.1#BootOnce` Enabled.
    pub once: bool,
}

/// A Dell import job: Running while polls are left, then its outcome (applied once).
pub(crate) struct DellJob {
    pub polls_left: u32,
    pub outcome: Result<DellBoot, String>,
    pub ended: Option<Result<(), String>>,
}

pub(crate) struct State {
    pub tree: Tree,
    pub sessions: Vec<Session>,
    pub faults: RedfishFaults,
    pub requests: u64,
    /// Every write the BMC received (`PATCH <path>`, `POST <path>`, `DELETE <path>`), sessions
    /// left out: what tests count to prove a run wrote nothing.
    pub writes: Vec<String>,
    pub fetches: Vec<FetchRecord>,
    /// The fetch each slot waits on: a fetch whose number is no longer here was overtaken by
    /// an eject or another insert, and changes nothing.
    pub fetch_seq: HashMap<String, u64>,
    pub boots: Vec<BootRecord>,
    /// The power transition running: a later one overtakes it.
    pub power_seq: u64,
    /// Slots whose eject has not yet taken effect (iDRAC's eject lag).
    pub ejecting: HashSet<String>,
    pub tasks: HashMap<String, Task>,
    /// Dell import jobs by id (`JID_…`).
    pub dell_jobs: HashMap<String, DellJob>,
    /// The boot the last completed Dell import set, spent at the next power-on when once.
    pub dell_boot: Option<DellBoot>,
    /// Numbers for sessions, fetches, transitions and tasks.
    pub next_id: u64,
}

impl State {
    pub fn next(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }
}

pub(crate) struct Shared {
    pub state: Mutex<State>,
    pub persona: Persona,
    pub q: Quirks,
    pub user: String,
    pub password: String,
    pub power_delay: Duration,
    pub eject_lag: Duration,
    /// What the BMC fetches media with.
    pub http: reqwest::Client,
}

impl Shared {
    pub fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().expect("redfish sim lock")
    }
}

/// A slot document as a [`SlotState`].
pub(crate) fn slot_state(doc: &Value) -> SlotState {
    let s = |k: &str| {
        doc.get(k)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
    };
    SlotState {
        id: s("Id").unwrap_or_default(),
        image: s("Image"),
        image_name: s("ImageName"),
        inserted: doc["Inserted"].as_bool().unwrap_or(false),
        connected_via: s("ConnectedVia"),
        boot_on_next_reset: doc["Oem"]["Hpe"]["BootOnNextServerReset"].as_bool(),
    }
}
