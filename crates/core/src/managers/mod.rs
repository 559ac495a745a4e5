//! The manager seam: everything the core asks of a server group's manager goes through the
//! [`Manager`] trait, in the core's own terms ([`model`]), and a group's `type` picks the
//! driver that answers.
//!
//! Why a seam: a UCS Manager domain, a standalone IMC, a UCS Central and a Redfish BMC do
//! the same jobs (list servers, power, disks, progress, mount install media, make what the
//! hosts need, undo it) with entirely different objects. The core (`compute`, `deploy`,
//! `server_groups`) keeps the rules every manager shares: selections, refusing empty ones,
//! waiting for disks, the deploy job and its steps, recording what was created. A driver
//! only translates.
//!
//! Adding a manager kind is one module implementing [`Manager`] and one line in
//! [`DRIVERS`] (plus its `type` in [`GroupKind`], which the store keeps). Each driver
//! declares its [`Capability`]s; the core checks them before connecting, so an action a
//! manager cannot do is one clear `422 not_supported` naming the manager and the action,
//! never a 500 and never a silent no-op. Listings are the exception: a manager without
//! templates or FSM stages truthfully has none, and lists none. The REST API and the window list a group's
//! capabilities, and nothing in them changes for a new kind.
//!
//! Drivers today: [`ucsm`] and [`imc`], both over `bootsmith_ucs` (the XML API's transport
//! and objects), sharing what the two speak alike in [`ucs`].

mod imc;
mod kind;
pub mod model;
mod pool;
mod ucs;
mod ucsm;

use std::sync::Arc;

use async_trait::async_trait;
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::{Error, Result};
use crate::jobs::JobCtx;
pub use kind::{password_missing, GroupKind};
pub use model::*;
pub use pool::{Managers, REQUEST_TIMEOUT};

/// Something a manager can do; drivers declare theirs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Capability {
    /// List its servers.
    Inventory,
    /// List service-profile templates.
    Templates,
    /// Power servers on, off and reset.
    Power,
    /// List local disks.
    Disks,
    /// Reset local disks to unconfigured-good.
    DiskReset,
    /// Report progress stages of its servers (UCS FSM).
    Progress,
    /// Mount install media on servers (virtual media).
    InstallMedia,
    /// Make what the hosts need (profiles, policies, media).
    Deploy,
    /// Remove what deploys made.
    Undeploy,
    /// Follow each host's profile until it is associated.
    FollowAssociation,
}

impl Capability {
    /// What the capability does, in words that finish "cannot …".
    fn words(self) -> &'static str {
        match self {
            Capability::Inventory => "list its servers",
            Capability::Templates => "have service-profile templates",
            Capability::Power => "power servers on or off",
            Capability::Disks => "list local disks",
            Capability::DiskReset => "reset local disks",
            Capability::Progress => "report FSM progress stages",
            Capability::InstallMedia => "mount install media",
            Capability::Deploy => "deploy hosts",
            Capability::Undeploy => "remove a deploy",
            Capability::FollowAssociation => {
                "follow profile association (it has no service profiles)"
            }
        }
    }
}

/// One manager kind: what it can do and how to connect to it.
pub struct Driver {
    /// The group type it serves.
    pub kind: GroupKind,
    /// What it can do.
    pub capabilities: &'static [Capability],
    /// Make a connection (no network yet: sessions are opened on first use).
    pub connect: fn(&Connection) -> Result<Arc<dyn Manager>>,
}

/// Every manager kind Bootsmith can drive: one line per kind.
pub const DRIVERS: &[&Driver] = &[&ucsm::DRIVER, &imc::DRIVER];

/// The driver of a group type, if there is one yet.
pub fn driver(kind: GroupKind) -> Option<&'static Driver> {
    DRIVERS.iter().copied().find(|d| d.kind == kind)
}

/// What a group's manager can do (nothing for a type without a driver yet).
pub fn capabilities(kind: GroupKind) -> &'static [Capability] {
    driver(kind).map_or(&[], |d| d.capabilities)
}

/// The refusal of an action the group's manager cannot do.
pub fn not_supported(group: &ManagedGroup, action: Capability) -> Error {
    let title = group.kind.title();
    Error::Unprocessable {
        code: "not_supported",
        message: format!(
            "Server group '{}' is a {title} (type {}), which cannot {}",
            group.name,
            group.kind.as_str(),
            action.words()
        ),
        details: Vec::new(),
    }
}

/// Refuse `action` unless the group's manager can do it.
pub fn require(group: &ManagedGroup, action: Capability) -> Result<&'static Driver> {
    let Some(d) = driver(group.kind) else {
        return Err(group.kind.not_supported_yet(&group.name));
    };
    if d.capabilities.contains(&action) {
        Ok(d)
    } else {
        Err(not_supported(group, action))
    }
}

/// A server group's manager, in the core's terms. Methods a driver's capabilities leave out
/// keep their default, which refuses; the core checks capabilities before calling anyway.
#[async_trait]
pub trait Manager: Send + Sync {
    /// Log in (and out): proves address, trust and credentials.
    async fn identify(&self) -> Result<Identity>;

    /// Every server, blades first by chassis and slot, then rack servers.
    async fn servers(&self) -> Result<Vec<Server>>;

    /// Service-profile templates.
    async fn templates(&self) -> Result<Vec<Template>>;

    /// Apply a power action to the servers, in one write where the manager allows.
    async fn set_power(&self, servers: &[&Server], action: PowerAction) -> Result<()>;

    /// Every local disk of every server.
    async fn disks(&self) -> Result<Vec<Disk>>;

    /// Ask for the disks to be reset to unconfigured-good (the manager takes its time).
    async fn reset_disks(&self, disks: &[&Disk]) -> Result<()>;

    /// Progress stages of every server, sorted by server and order.
    async fn stages(&self) -> Result<Vec<Stage>>;

    /// Refuse a run that cannot work before a job starts (e.g. hosts need a server pool).
    fn check(&self, _spec: &DeploySpec, _what: What) -> Result<()> {
        Ok(())
    }

    /// What a run would write; `recorded` is what earlier runs created (for removal).
    async fn plan(&self, spec: &DeploySpec, what: What, recorded: &[Recorded]) -> Result<Plan>;

    /// Write what the run wants, as one transaction where the manager allows; what it wrote.
    async fn apply(&self, spec: &DeploySpec, what: What, recorded: &[Recorded]) -> Result<Plan>;

    /// What removing the objects earlier deploys created would do.
    async fn plan_removal(&self, recorded: &[Recorded]) -> Result<Plan>;

    /// Remove the objects earlier deploys created; what it removed.
    async fn remove(&self, recorded: &[Recorded]) -> Result<Plan>;

    /// Each host's server now, where it has one (to power-cycle it onto new media).
    async fn host_servers(&self, spec: &DeploySpec) -> Result<Vec<Option<Server>>>;

    /// Follow every host's profile until associated or failed, reporting steps on `job`.
    async fn follow(&self, spec: &DeploySpec, job: &JobCtx) -> Result<Vec<HostProgress>>;

    /// End the session (at shutdown, or when the group's login changes).
    async fn logout(&self);
}
