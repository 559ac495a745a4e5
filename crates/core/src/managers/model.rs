//! What a manager reports and is asked to do, in the core's own terms: every driver
//! translates its manager's objects into these, so nothing above the seam knows a UCS class
//! name or a Redfish URI.

use bootsmith_model::install_disk::{DiskFacts, DiskKind, Transport};
use std::fmt;
use std::str::FromStr;

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
    /// The install-disk hint of the group's hosts that give none of their own.
    pub install_disk: Option<bootsmith_model::install_disk::InstallDiskHint>,
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
    pub num_cpus: Reported<u32>,
    /// Cores.
    pub num_cores: Reported<u32>,
    /// Memory, MB.
    pub ram: Reported<u64>,
    /// Memory speed, MHz.
    pub ram_speed: Reported<u32>,
    /// Its power; None where the manager reports none.
    pub oper_power: Option<PowerState>,
    /// Its profile's association; None where the manager has no profiles (an IMC, a Redfish
    /// BMC).
    pub association: Option<Association>,
    /// The manager's name of the profile assigned to it, or empty.
    pub service_profile: String,
    /// User label.
    pub label: String,
    /// The domain it is in, under a central manager.
    pub domain: Option<ServerDomain>,
    /// The BMC it is behind, for a Redfish group.
    pub bmc: Option<BmcInfo>,
}

/// A number a manager reports where it may give none: the number, or the text it gave in its
/// place, kept as said (UCS's `unspecified` or `not-applicable`; empty where it said nothing),
/// so that what is shown of the server is what its manager showed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reported<T> {
    /// The number.
    Number(T),
    /// No number: the manager's text in its place, empty when it gave none.
    Text(String),
}

impl<T> Reported<T> {
    /// Nothing reported.
    pub fn none() -> Reported<T> {
        Reported::Text(String::new())
    }
}

impl<T: Copy> Reported<T> {
    /// The number, when the manager gave one.
    pub fn number(&self) -> Option<T> {
        match self {
            Reported::Number(n) => Some(*n),
            Reported::Text(_) => None,
        }
    }
}

impl<T: FromStr + fmt::Display> Reported<T> {
    /// Read the manager's text: a number that reads back as written (`2`; not `+2` or `02`)
    /// is the number; anything else (`unspecified`, empty) is kept as it is.
    pub fn parse(text: &str) -> Reported<T> {
        match text.parse::<T>() {
            Ok(n) if n.to_string() == text => Reported::Number(n),
            _ => Reported::Text(text.to_owned()),
        }
    }
}

impl<T> From<Option<T>> for Reported<T> {
    /// The number, or nothing reported.
    fn from(n: Option<T>) -> Reported<T> {
        n.map_or_else(Reported::none, Reported::Number)
    }
}

impl<T: fmt::Display> fmt::Display for Reported<T> {
    /// The number, or the manager's text in its place.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reported::Number(n) => n.fmt(f),
            Reported::Text(t) => f.write_str(t),
        }
    }
}

/// A server's power as its manager reports it: an open set, a word not known here is kept as
/// the manager said it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PowerState {
    /// `on`.
    On,
    /// `off`.
    Off,
    /// Another word of the manager's, as said: UCS's `unknown`, `test`, `degraded`,
    /// `power-save`, …; a Redfish `PowerState` in lower case, `poweringon`, `paused`, ….
    Other(String),
}

impl PowerState {
    /// Read the manager's word (UCS's `operPower`; a Redfish `PowerState` the driver has put
    /// in lower case); None when it gave none (empty).
    pub fn from_word(word: &str) -> Option<PowerState> {
        match word {
            "" => None,
            "on" => Some(PowerState::On),
            "off" => Some(PowerState::Off),
            other => Some(PowerState::Other(other.to_owned())),
        }
    }

    /// The manager's word.
    pub fn word(&self) -> &str {
        match self {
            PowerState::On => "on",
            PowerState::Off => "off",
            PowerState::Other(w) => w,
        }
    }

    /// The word of `power`, empty when there is none.
    pub fn word_of(power: Option<&PowerState>) -> &str {
        power.map_or("", PowerState::word)
    }
}

impl fmt::Display for PowerState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// Where the association of a server's service profile is, as its manager reports it (UCS's
/// `association`): an open set, a word not known here is kept as the manager said it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Association {
    /// `none`: no profile is associated.
    Unassociated,
    /// `establishing`: a profile is being associated.
    Establishing,
    /// `associated`.
    Associated,
    /// `removing`: the profile is being disassociated.
    Removing,
    /// `failed`.
    Failed,
    /// `throttled`: the manager holds the association back for now.
    Throttled,
    /// Another word of the manager's, as said.
    Other(String),
}

impl Association {
    /// Read the manager's word; None when it gave none (empty: a manager without profiles).
    pub fn from_word(word: &str) -> Option<Association> {
        Some(match word {
            "" => return None,
            "none" => Association::Unassociated,
            "establishing" => Association::Establishing,
            "associated" => Association::Associated,
            "removing" => Association::Removing,
            "failed" => Association::Failed,
            "throttled" => Association::Throttled,
            other => Association::Other(other.to_owned()),
        })
    }

    /// The manager's word.
    pub fn word(&self) -> &str {
        match self {
            Association::Unassociated => "none",
            Association::Establishing => "establishing",
            Association::Associated => "associated",
            Association::Removing => "removing",
            Association::Failed => "failed",
            Association::Throttled => "throttled",
            Association::Other(w) => w,
        }
    }
}

impl fmt::Display for Association {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
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

    /// True when its manager reports it powered off.
    pub fn is_off(&self) -> bool {
        self.oper_power == Some(PowerState::Off)
    }

    /// True when its manager reports a profile associated with it.
    pub fn is_associated(&self) -> bool {
        self.association == Some(Association::Associated)
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

/// A disk of a server as its manager lists it: a drive, a RAID virtual drive, or a LUN its
/// profile boots from over a SAN.
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
    /// What an install-disk hint matches on, as the installer will see the disk.
    pub facts: DiskFacts,
}

/// A disk an installer may see on a server: the server's DN with what a hint matches on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstallDisk {
    /// The manager's name of the server.
    pub server_dn: String,
    /// The disk.
    pub facts: DiskFacts,
}

/// A NIC of a server that a host's network may go on, as its manager lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostNic {
    /// The manager's name of the server.
    pub server_dn: String,
    /// The NIC's name there (`eth0`, `NIC.Integrated.1-1-1`).
    pub name: String,
    /// Its MAC, lower case with colons, as hosts' `macs` are kept.
    pub mac: String,
    /// Whether its link is up, where the manager says.
    pub link_up: Option<bool>,
}

impl Disk {
    /// A drive of the server's own controllers, which a disk reset sets to unconfigured-good;
    /// a virtual drive or a SAN LUN is no such drive.
    pub fn resettable(&self) -> bool {
        self.facts.kind == DiskKind::Drive && self.facts.transport == Transport::Local
    }

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn power_words_read_once_and_read_back_as_said() {
        assert_eq!(PowerState::from_word("on"), Some(PowerState::On));
        assert_eq!(PowerState::from_word("off"), Some(PowerState::Off));
        // UCS's other words and a Redfish state in lower case are kept as said.
        for word in [
            "unknown",
            "power-save",
            "test",
            "degraded",
            "poweringon",
            "paused",
        ] {
            let p = PowerState::from_word(word).unwrap();
            assert_eq!(p, PowerState::Other(word.into()));
            assert_eq!(p.word(), word);
            assert_eq!(p.to_string(), word);
        }
        assert_eq!(PowerState::from_word(""), None, "nothing reported");
        assert_eq!(PowerState::word_of(None), "");
        assert_eq!(PowerState::word_of(Some(&PowerState::On)), "on");
        // Words are the manager's: another case is not one of ours.
        assert_eq!(
            PowerState::from_word("On"),
            Some(PowerState::Other("On".into()))
        );
    }

    #[test]
    fn association_words_read_once_and_read_back_as_said() {
        let known = [
            ("none", Association::Unassociated),
            ("establishing", Association::Establishing),
            ("associated", Association::Associated),
            ("removing", Association::Removing),
            ("failed", Association::Failed),
            ("throttled", Association::Throttled),
        ];
        for (word, a) in known {
            assert_eq!(Association::from_word(word), Some(a.clone()));
            assert_eq!(a.word(), word);
        }
        let other = Association::from_word("associating").unwrap();
        assert_eq!(other, Association::Other("associating".into()));
        assert_eq!(other.to_string(), "associating");
        assert_eq!(
            Association::from_word(""),
            None,
            "a manager without profiles"
        );
    }

    #[test]
    fn a_number_is_read_and_anything_else_is_kept_as_said() {
        assert_eq!(Reported::<u32>::parse("2"), Reported::Number(2));
        assert_eq!(Reported::<u64>::parse("393216"), Reported::Number(393216));
        assert_eq!(Reported::<u32>::parse("0"), Reported::Number(0));
        // What UCS says in place of a memory speed, nothing at all, and numbers that would
        // not read back as written: each shown as the manager gave it.
        for text in [
            "unspecified",
            "not-applicable",
            "",
            "+2",
            "02",
            " 2",
            "2.5",
            "-1",
        ] {
            let r = Reported::<u32>::parse(text);
            assert_eq!(r, Reported::Text(text.into()), "{text:?}");
            assert_eq!(r.number(), None);
            assert_eq!(r.to_string(), text);
        }
        // Beyond the type: kept rather than lost.
        assert_eq!(
            Reported::<u32>::parse("4294967296"),
            Reported::Text("4294967296".into())
        );
        assert_eq!(Reported::<u32>::parse("2400").number(), Some(2400));
        assert_eq!(Reported::<u32>::parse("2400").to_string(), "2400");
        assert_eq!(Reported::from(Some(16u32)), Reported::Number(16));
        assert_eq!(Reported::<u32>::from(None), Reported::none());
        assert_eq!(Reported::<u32>::none().to_string(), "");
    }
}
