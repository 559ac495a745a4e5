//! What a manager reports and is asked to do, in the core's own terms: every driver
//! translates its manager's objects into these, so nothing above the seam knows a UCS class
//! name or a Redfish URI.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::records::hosts::Host;
use crate::secrets::SecretString;
use bootsmith_model::catalog::OsEntry;
use bootsmith_model::selector::ServerSelector;
use bootsmith_model::types::{Name, NodeId, OrgDn};
use uuid::Uuid;

use super::GroupKind;
use crate::error::ErrorCode;

/// A server group as the seam sees it: its manager's kind, how to reach it, and the servers
/// deploys may pick from (made from the stored record by `ServerGroup::managed`).
#[derive(Debug, Clone)]
pub struct ManagedGroup {
    /// The group's id.
    pub id: Uuid,
    /// Its name.
    pub name: Name,
    /// Which kind of manager.
    pub kind: GroupKind,
    /// The manager's address.
    pub address: String,
    /// Login name.
    pub user: String,
    /// The stored (encrypted) password.
    pub password: String,
    /// No password known yet (imported without its key).
    pub password_missing: bool,
    /// Skip certificate verification.
    pub insecure: bool,
    /// The accepted certificate fingerprint.
    pub fingerprint: Option<String>,
    /// The servers selected for deployment.
    pub server_pool: ServerSelector,
    /// A Redfish group's further BMCs, after the one above (none for other kinds).
    pub more: Vec<Login>,
}

/// One more management controller of a group, as stored (the password encrypted).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Login {
    /// Its address.
    pub address: String,
    /// Login name.
    pub user: String,
    /// The stored (encrypted) password.
    pub password: String,
    /// Skip certificate verification.
    pub insecure: bool,
    /// The accepted certificate fingerprint.
    pub fingerprint: Option<String>,
}

/// How to reach and log in to a manager, with the password in clear (only in memory).
#[derive(Debug, Clone)]
pub struct Connection {
    /// Address (IP or name, optional port and scheme).
    pub address: String,
    /// User name.
    pub user: String,
    /// Password.
    pub password: SecretString,
    /// Skip certificate verification (the operator's explicit choice).
    pub insecure: bool,
    /// The certificate fingerprint the operator accepted.
    pub fingerprint: Option<String>,
    /// Further controllers of the same group (a Redfish group's other BMCs), each with no
    /// `more` of its own.
    pub more: Vec<Connection>,
}

/// What a manager says about itself on login.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Identity {
    /// Firmware or software version.
    pub version: String,
}

/// A server as its manager reports it (seed §2.3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Server {
    /// The id selectors use: `1/3` for a blade, `2` for a rack server (`1009/1/3` and
    /// `1009/2` under a central manager).
    pub id: NodeId,
    /// The manager's own name for it (a UCS DN).
    pub dn: String,
    /// Model.
    pub model: String,
    /// Serial number.
    pub serial: String,
    /// The system's UUID, where the manager reports one (Redfish).
    pub uuid: Option<String>,
    /// CPU sockets.
    pub num_cpus: String,
    /// Cores.
    pub num_cores: String,
    /// Memory, MB.
    pub ram: String,
    /// Memory speed, MHz.
    pub ram_speed: String,
    /// `on`, `off`, …
    pub oper_power: String,
    /// `none`, `associated`, … (empty where the manager has no profiles).
    pub association: String,
    /// The manager's name of the profile assigned to it, or empty.
    pub service_profile: String,
    /// User label.
    pub label: String,
    /// The domain it is in, under a central manager.
    pub domain: Option<ServerDomain>,
    /// The BMC it is behind, for a Redfish group.
    pub bmc: Option<BmcInfo>,
}

/// What a Redfish BMC said about itself, and the vendor rules Bootsmith follows for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct BmcInfo {
    /// Its address, as the group names it.
    pub address: String,
    /// Vendor as the BMC names it: an open set, examples: `HPE`, `Dell`, `Supermicro`.
    pub vendor: String,
    /// Product or model of the BMC's system.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub product: Option<String>,
    /// Firmware of its manager.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub firmware: Option<String>,
    /// Redfish version of its service.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub redfish_version: Option<String>,
    /// The vendor rules (`crates/redfish/quirks.json`) in force for it, by id.
    pub quirks: Vec<String>,
}

/// The domain a server of a central manager is in, as the central manager sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerDomain {
    /// The domain's id (the first part of its servers' ids).
    pub id: u32,
    /// Its name.
    pub name: String,
    /// The central manager reaches it now; when not, what it reports of its servers is the
    /// last it knew, and nothing sent to them happens until the domain is back.
    pub reachable: bool,
    /// Its registration state as the central manager words it (`registered`, `lost-visibility`).
    pub state: String,
    /// When the central manager last read it (`YYYY-MM-DDTHH:MM:SS.mmm`, UTC), where it says.
    pub last_read: Option<String>,
}

impl ServerDomain {
    /// The domain as a sentence names it: `1002 (ucs-1002, lost-visibility, last read at
    /// 2026-01-01T10:00:00.000 UTC)`.
    pub fn words(&self) -> String {
        let mut parts = Vec::new();
        if !self.name.is_empty() {
            parts.push(self.name.clone());
        }
        if !self.state.is_empty() {
            parts.push(self.state.clone());
        }
        parts.push(match &self.last_read {
            Some(t) => format!("last read at {t} UTC"),
            None => "no time of its last reading given".into(),
        });
        format!("{} ({})", self.id, parts.join(", "))
    }
}

/// 409 `domain_unreachable`: server group `group` will not `doing` because `lost` (a server
/// as operators name it, `blade 1002/1/3`, with its domain) are in domains its central
/// manager cannot reach now. Such a manager accepts the request and carries it out whenever
/// the domain comes back, which nobody expects, so nothing is sent; `then` says what to do.
pub fn domain_unreachable(
    group: &str,
    doing: &str,
    lost: &[(String, &ServerDomain)],
    then: &str,
) -> crate::error::Error {
    let mut domains: Vec<&ServerDomain> = lost.iter().map(|(_, d)| *d).collect();
    domains.sort_by_key(|d| d.id);
    domains.dedup_by_key(|d| d.id);
    let each: Vec<String> = domains
        .iter()
        .map(|d| {
            let names: Vec<&str> = lost
                .iter()
                .filter(|(_, x)| x.id == d.id)
                .map(|(n, _)| n.as_str())
                .collect();
            format!("domain {} with {}", d.words(), names.join(", "))
        })
        .collect();
    crate::error::Error::conflict(
        ErrorCode::DomainUnreachable,
        format!(
            "Server group '{group}' will not {doing}: its manager has lost {}. What it shows of those servers is as it last read them, and anything sent would only take effect whenever the domain comes back, so nothing was sent. {then}.",
            each.join("; and ")
        ),
    )
}

impl Server {
    /// The server as operators name it: `blade 1002/1/3`, `rack server 1002/1`.
    pub fn words(&self) -> String {
        let kind = if self.is_blade() {
            "blade"
        } else {
            "rack server"
        };
        format!("{kind} {}", self.id)
    }

    /// False for a server of a domain its central manager cannot reach now.
    pub fn reachable(&self) -> bool {
        self.domain.as_ref().is_none_or(|d| d.reachable)
    }

    /// True for a blade in a chassis.
    pub fn is_blade(&self) -> bool {
        matches!(self.id, NodeId::Blade(_))
    }
}

/// A service-profile template's kind, as UCS names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum TemplateType {
    /// Profiles made from it are copies, not bound to later changes.
    InitialTemplate,
    /// Profiles made from it follow its changes.
    UpdatingTemplate,
}

impl TemplateType {
    /// The kind UCS writes in an `lsServer`'s `type`, if it is a template's.
    pub fn parse(ucs_type: &str) -> Option<TemplateType> {
        match ucs_type {
            "initial-template" => Some(TemplateType::InitialTemplate),
            "updating-template" => Some(TemplateType::UpdatingTemplate),
            _ => None,
        }
    }
}

/// A service-profile template (or whatever a manager makes profiles from).
#[derive(Debug, Clone)]
pub struct Template {
    /// The manager's full name for it (a DN with its org).
    pub dn: String,
    /// The short name people use.
    pub name: String,
    /// Initial or updating.
    pub kind: TemplateType,
}

/// A local disk of a server.
#[derive(Debug, Clone)]
pub struct Disk {
    /// The manager's name for it.
    pub dn: String,
    /// The manager's name of the server it is in.
    pub server_dn: String,
    /// Disk id on its controller.
    pub id: String,
    /// State (`online`, `jbod`, `unconfigured-good`, …).
    pub state: String,
    /// Model.
    pub model: String,
    /// Size as the manager reports it.
    pub size: String,
}

impl Disk {
    /// Reset already: the state a disk reset leads to.
    pub fn is_unconfigured_good(&self) -> bool {
        self.state.eq_ignore_ascii_case("unconfigured-good")
            || self.state.eq_ignore_ascii_case("unconfigured good")
    }
}

/// One step of a manager's long operation on a server (a UCS FSM stage).
#[derive(Debug, Clone)]
pub struct Stage {
    /// The manager's name of the server.
    pub server_dn: String,
    /// Stage name.
    pub name: String,
    /// Position in the operation.
    pub order: String,
    /// Retries so far.
    pub retry: String,
    /// `success`, `inProgress`, `skip`, …
    pub stage_status: String,
    /// Description.
    pub descr: String,
    /// Last change, `YYYY-MM-DDTHH:MM:SS.mmm`.
    pub last_update_time: String,
}

pub use bootsmith_model::power::PowerAction;

/// What an operator checks when servers cannot fetch what svc serves.
pub const ADVICE: &str =
    "check the boot-server address on the Settings screen and that Bootsmith listens on it";

/// Where the manager's servers fetch install media from: our own `/svc` over HTTP.
#[derive(Debug, Clone)]
pub struct MediaServer {
    /// The boot-server address.
    pub ip: String,
    /// The port `/svc` is served on.
    pub port: u16,
    /// The path of svc (`/svc/`).
    pub path: String,
}

impl MediaServer {
    /// `http://<ip>:<port><path>`, with an IPv6 address in brackets.
    pub fn url(&self) -> String {
        let host = if self.ip.contains(':') {
            format!("[{}]", self.ip)
        } else {
            self.ip.clone()
        };
        format!("http://{host}:{}{}", self.port, self.path)
    }
}

/// The files in svc one host installs from, relative to [`MediaServer::path`]: named once
/// by the svc layout when the spec is made, so a driver only mounts what it is given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HostMedia {
    /// Its CD: the OS's shared boot ISO, its own ISO (ESXi) or the WinPE ISO (Windows).
    pub boot: String,
    /// Its HDD, the answer-file disk; None where the kickstart is on its boot ISO (ESXi).
    pub answer: Option<String>,
    /// The ISO it mounts alone on a BMC with one virtual-media device (built on demand).
    pub single_device: String,
}

/// Stands in for the media of a host the spec does not hold: no file at all.
static NO_MEDIA: HostMedia = HostMedia {
    boot: String::new(),
    answer: None,
    single_device: String::new(),
};

/// A group checked and ready to deploy: its record, its hosts and their one OS.
#[derive(Debug, Clone)]
pub struct DeploySpec {
    /// The group.
    pub group: ManagedGroup,
    /// The org the group's objects go under: its own, else the default org, else org-root.
    pub org: OrgDn,
    /// The group's hosts, in the operator's order.
    pub hosts: Vec<Host>,
    /// Their one OS.
    pub os: OsEntry,
    /// Where install media are fetched from.
    pub media: MediaServer,
    /// The name of the group's generated objects (`SVC_<code>`).
    pub svc_name: String,
    /// Each host's media files, by host name.
    pub host_media: std::collections::BTreeMap<String, HostMedia>,
    /// The boot ISO all the hosts share, None when each has its own (ESXi): what a vMedia
    /// policy of the whole group mounts as its CD.
    pub shared_boot: Option<String>,
    /// Hosts whose server has one virtual-media device, each with the URL of the one image it
    /// mounts instead of boot ISO and answer image (its single-device ISO); filled in by the
    /// deploy job from [`Manager::single_device_hosts`](super::Manager::single_device_hosts).
    pub single_device: std::collections::BTreeMap<String, String>,
    /// Hosts whose install runs from their current media, each with its stage (`booting` or
    /// `installing`): their server has spent its one-time boot on those media, and setting it
    /// again would start the installer once more at the install's closing reboot.
    pub running: std::collections::BTreeMap<String, crate::lifecycle::Stage>,
}

impl DeploySpec {
    /// The media of host `name`; none when it is not one of the spec's hosts.
    pub fn media_of(&self, name: &str) -> &HostMedia {
        self.host_media.get(name).unwrap_or(&NO_MEDIA)
    }

    /// The URL servers fetch `file` of svc at.
    pub fn url(&self, file: &str) -> String {
        format!("{}{file}", self.media.url())
    }
}

/// Which writes a deploy run makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum What {
    /// Only what mounts the install media (virtual media).
    Media,
    /// Everything the hosts need (profiles, policies, media).
    Deploy,
}

/// An object a deploy created on a manager, as recorded for undeploy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recorded {
    /// Its name on the manager.
    pub dn: String,
    /// Its class.
    pub class: String,
}

/// What a run does to one object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ObjectAction {
    /// Made new.
    Create,
    /// Changed in place.
    Modify,
    /// Removed.
    Delete,
    /// Already as wanted.
    Unchanged,
}

/// One object of a deploy plan, as the manager sees it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PlannedObject {
    /// Distinguished name.
    pub dn: String,
    /// The manager's class.
    pub class: String,
    /// `create`, `modify`, `delete` or `unchanged`.
    pub action: ObjectAction,
    /// What changes (`property: 'old' -> 'new'`), for `modify`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub changed: Vec<String>,
    /// The host the object is for, where it is one host's (absent for what the group shares).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    /// What the object means, in the operator's words (`boot policy SVC_c74`, `profile kube01
    /// from template SVC_c74, bound to blade 1/2`).
    pub what: String,
}

/// What a run writes (or would write), and what it left out and why.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    /// Every object considered, in write order.
    pub objects: Vec<PlannedObject>,
    /// What was left out and why.
    pub warnings: Vec<String>,
}

/// How far a host got, as a deploy that follows it reports it: its profile's association
/// (managers with profiles), and whether its server mounted its install media.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HostProgress {
    /// Host (= service-profile) name.
    pub host: String,
    /// The profile's association as the manager words it: an open set, examples: `associated`,
    /// `associating`, `failed`; empty where the manager has no profiles (IMC).
    pub association: String,
    /// The server it is associated with (on an IMC, its rack server).
    pub server: String,
    /// The server's power as the manager words it: an open set, examples: `on`, `off`.
    pub power: String,
    /// Whether the server's management controller mounted the host's install media, as the
    /// manager reports it; absent when it mounted none (no association, or a vMedia policy
    /// with nothing to mount).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub media: Option<MediaProgress>,
}

/// Where the mounting of a host's install media got to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum MediaState {
    /// Every image is mounted.
    Mounted,
    /// The controller could not mount an image (its URL did not answer, the file is
    /// missing, …): the server cannot boot its installer.
    Failed,
    /// Still mounting when the wait ran out.
    Mounting,
}

/// A host's install media as its server's management controller mounted them.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MediaProgress {
    /// `mounted`, `failed` or `mounting`.
    pub state: MediaState,
    /// The URL of each image the controller was given.
    pub urls: Vec<String>,
    /// What went wrong, in a sentence naming the host, the URL and the reason.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}
