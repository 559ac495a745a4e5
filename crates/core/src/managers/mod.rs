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
//! Drivers today: [`ucsm`], [`imc`] and [`ucsc`] (UCS Central), all over `bootsmith_ucs`
//! (the XML API's transport and objects), sharing what they speak alike in [`ucs`]; and
//! [`redfish`] (any vendor's BMCs) over `bootsmith_redfish`.

mod imc;
mod meaning;
pub mod model;
mod pool;
mod redfish;
mod ucs;
mod ucsc;
mod ucsm;

use std::sync::Arc;

use async_trait::async_trait;
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::{Error, ErrorCode, Result};
use crate::jobs::JobCtx;
pub use bootsmith_model::group_kind::{password_missing, GroupKind};
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

/// How a manager numbers its servers, which decides the form of the ids selectors and hosts
/// use for them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Numbering {
    /// One domain: blades `<chassis>/<slot>`, rack servers `<number>`.
    Domain,
    /// Several domains under a central manager: blades `<domain>/<chassis>/<slot>`, rack
    /// servers `<domain>/<number>`.
    Central,
}

impl Numbering {
    /// The form blade ids take, for messages.
    pub fn blade_form(self) -> &'static str {
        match self {
            Numbering::Domain => "<chassis>/<slot>, like 1/3",
            Numbering::Central => "<domain>/<chassis>/<slot>, like 1009/1/3",
        }
    }

    /// The form rack server ids take, for messages.
    pub fn rack_form(self) -> &'static str {
        match self {
            Numbering::Domain => "<number>, like 2",
            Numbering::Central => "<domain>/<number>, like 1009/2",
        }
    }

    /// Refuse ids of the other form, naming the first such id and the form to use.
    pub fn check(self, group: &str, sel: &bootsmith_model::selector::ServerSelector) -> Result<()> {
        let central = self == Numbering::Central;
        let title = match self {
            Numbering::Domain => "a single UCS domain",
            Numbering::Central => "a central manager of several domains",
        };
        let wrong = sel
            .blades
            .iter()
            .find(|b| b.domain.is_some() != central)
            .map(|b| format!("blade '{b}'; use {}", self.blade_form()))
            .or_else(|| {
                sel.rack_servers
                    .iter()
                    .find(|r| r.domain.is_some() != central)
                    .map(|r| format!("rack server '{r}'; use {}", self.rack_form()))
            });
        match wrong {
            None => Ok(()),
            Some(what) => Err(Error::bad(
                ErrorCode::InvalidSelection,
                format!(
                    "Server group '{group}' is {title}, so its servers are not named like {what}"
                ),
            )),
        }
    }
}

/// One manager kind: what it can do and how to connect to it.
pub struct Driver {
    /// The group type it serves.
    pub kind: GroupKind,
    /// How it numbers its servers.
    pub numbering: Numbering,
    /// What it can do.
    pub capabilities: &'static [Capability],
    /// Make a connection (no network yet: sessions are opened on first use).
    pub connect: fn(&Connection) -> Result<Arc<dyn Manager>>,
}

/// What a driver of servers behind their own controllers (IMC, Redfish BMCs) can do: no
/// templates, FSM stages or association to follow.
const ONE_SERVER_CAPABILITIES: &[Capability] = &[
    Capability::Inventory,
    Capability::Power,
    Capability::Disks,
    Capability::DiskReset,
    Capability::InstallMedia,
    Capability::Deploy,
    Capability::Undeploy,
];

/// Every manager kind Bootsmith can drive: one line per kind.
pub const DRIVERS: &[&Driver] = &[&ucsm::DRIVER, &imc::DRIVER, &ucsc::DRIVER, &redfish::DRIVER];

/// The driver of a group type, if there is one yet.
pub fn driver(kind: GroupKind) -> Option<&'static Driver> {
    DRIVERS.iter().copied().find(|d| d.kind == kind)
}

/// Log in with login data not stored yet (and log out): proves the address, the trust and the
/// credentials of group `group`, refused for a type without a driver yet.
pub async fn check_login(kind: GroupKind, group: &str, login: &Connection) -> Result<()> {
    let Some(driver) = driver(kind) else {
        return Err(Error::not_implemented(format!(
            "Logging in to a {} (server group '{}'; store it with \"check_login\": false to keep it until then)",
            kind.title(),
            group
        )));
    };
    let manager = (driver.connect)(login)?;
    let info = manager.identify().await?;
    tracing::info!(group = %group, address = login.address.as_str(), version = %info.version, "login to the manager checked");
    Ok(())
}

/// How a group type's manager numbers its servers (a type without a driver yet: as one domain).
pub fn numbering(kind: GroupKind) -> Numbering {
    driver(kind).map_or(Numbering::Domain, |d| d.numbering)
}

/// What a group's manager can do (nothing for a type without a driver yet).
pub fn capabilities(kind: GroupKind) -> &'static [Capability] {
    driver(kind).map_or(&[], |d| d.capabilities)
}

/// The refusal of an action the group's manager cannot do.
pub fn not_supported(group: &ManagedGroup, action: Capability) -> Error {
    let title = group.kind.title();
    Error::Unprocessable {
        code: ErrorCode::NotSupported,
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

/// What a manager did to take an installed host's virtual media away.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unmounted {
    /// The objects that mapped the host's media were changed (how many).
    Objects(usize),
    /// The host's own objects were changed: what was done, in words.
    Done(String),
    /// The mapping stays, as it is not Bootsmith's to change (why, and what the operator can
    /// do, in words): the host's own media must leave svc instead, so the mapping finds
    /// nothing to boot.
    Shared(String),
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

    /// Every disk of every server: its drives (each naming the virtual drive it is a member
    /// of), the RAID virtual drives, and the LUNs a profile boots it from over a SAN.
    async fn disks(&self) -> Result<Vec<Disk>>;

    /// Every host NIC of every server, in the order its firmware lists them (what a host's
    /// `macs` are checked against). By default not known: the plan says so.
    async fn host_nics(&self) -> Result<Vec<HostNic>> {
        Err(Error::Unprocessable {
            code: ErrorCode::NotImplemented,
            message: "this manager's driver does not read its servers' NICs".into(),
            details: Vec::new(),
        })
    }

    /// Every disk of every server for install-disk hints: by default its [`Manager::disks`]
    /// (a virtual drive's members among them, marked, so the plan can say why it never takes
    /// one); a driver adds what its manager lists apart (UCS's SD cards).
    async fn install_disks(&self) -> Result<Vec<InstallDisk>> {
        Ok(self
            .disks()
            .await?
            .into_iter()
            .map(|d| InstallDisk {
                server_dn: d.server_dn,
                facts: d.facts,
            })
            .collect())
    }

    /// Ask for the disks to be reset to unconfigured-good (the manager takes its time).
    async fn reset_disks(&self, disks: &[&Disk]) -> Result<()>;

    /// Progress stages of the servers (a manager may answer for more), sorted by server and order.
    async fn stages(&self, servers: &[&Server]) -> Result<Vec<Stage>>;

    /// Refuse a run that cannot work before a job starts (e.g. hosts need a server pool).
    fn check(&self, _spec: &DeploySpec, _what: What) -> Result<()> {
        Ok(())
    }

    /// What a run would write; `recorded` is what earlier runs created (for removal).
    async fn plan(&self, spec: &DeploySpec, what: What, recorded: &[Recorded]) -> Result<Plan>;

    /// Write what the run wants, as one transaction where the manager allows; what it wrote.
    /// A manager that works host by host (a BMC each) reports each host's steps on `job`.
    async fn apply(
        &self,
        spec: &DeploySpec,
        what: What,
        recorded: &[Recorded],
        job: &JobCtx,
    ) -> Result<Plan>;

    /// Refuse removing the objects earlier deploys of `group` created before anything is
    /// sent, where the manager would apply the removal later than the operator expects.
    async fn check_removal(&self, _group: &str, _recorded: &[Recorded]) -> Result<()> {
        Ok(())
    }

    /// What removing the objects earlier deploys created would do.
    async fn plan_removal(&self, recorded: &[Recorded]) -> Result<Plan>;

    /// Remove the objects earlier deploys created; what it removed.
    async fn remove(&self, recorded: &[Recorded]) -> Result<Plan>;

    /// The hosts whose server can mount one image only (a BMC with one virtual-media
    /// device): the run builds each a single-device ISO and hands its URL over in
    /// [`DeploySpec::single_device`]. Managers that always have two devices have none.
    async fn single_device_hosts(&self, _spec: &DeploySpec) -> Result<Vec<String>> {
        Ok(Vec::new())
    }

    /// Each host's server now, where it has one (to power-cycle it onto new media).
    async fn host_servers(&self, spec: &DeploySpec) -> Result<Vec<Option<Server>>>;

    /// Follow every host until its server has its install media, reporting steps on `job`:
    /// its profile until associated or failed, then (each `media` step) whether the server's
    /// controller mounted the media; where the media mount as soon as they are written
    /// ([`Manager::mounts_when_written`]), only that.
    async fn follow(&self, spec: &DeploySpec, job: &JobCtx) -> Result<Vec<HostProgress>>;

    /// Take `host`'s virtual media away once it is installed, so a reboot cannot reinstall it.
    async fn unmount(
        &self,
        spec: &DeploySpec,
        host: &crate::records::hosts::Host,
    ) -> Result<Unmounted>;

    /// The manager mounts the media as soon as a run writes them (an IMC's mappings): every
    /// run follows them, not only one that follows association.
    fn mounts_when_written(&self) -> bool {
        false
    }

    /// The page of the manager where a person opens `server`'s KVM console in a browser;
    /// None where the manager has no such page (the core turns that into `not_supported`).
    fn console(&self, _server: &Server) -> Option<ConsolePage> {
        None
    }

    /// End the session (at shutdown, or when the group's login changes).
    async fn logout(&self);
}

/// Where a server's KVM console opens, and what the person does there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConsolePage {
    /// The page's URL (the manager's, never carrying a credential).
    pub url: String,
    /// What the page is and what to do on it, in words.
    pub note: String,
}

/// `https://<address>/` for a manager's or BMC's address as operators write it (a scheme
/// given is kept, a path dropped): its web interface.
pub(crate) fn web_root(address: &str) -> String {
    let (scheme, rest) = address.split_once("://").unwrap_or(("https", address));
    let authority = rest.split(['/', '?', '#']).next().unwrap_or(rest);
    if authority.parse::<std::net::Ipv6Addr>().is_ok() {
        format!("{scheme}://[{authority}]/")
    } else {
        format!("{scheme}://{authority}/")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_web_root_is_https_unless_the_address_says_otherwise() {
        assert_eq!(web_root("10.0.0.5"), "https://10.0.0.5/");
        assert_eq!(web_root("bmc1.lab:8443"), "https://bmc1.lab:8443/");
        assert_eq!(
            web_root("http://127.0.0.1:9000/redfish/v1"),
            "http://127.0.0.1:9000/"
        );
        assert_eq!(web_root("fd00::5"), "https://[fd00::5]/");
        assert_eq!(web_root("[fd00::5]:443"), "https://[fd00::5]:443/");
    }
}
