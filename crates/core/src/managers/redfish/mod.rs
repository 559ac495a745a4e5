//! The Redfish driver: a group of BMCs of any vendor (Dell iDRAC, HPE iLO, Supermicro, Lenovo
//! XCC, Cisco CIMC…), one server each, over `bootsmith_redfish`. It has no service profiles,
//! templates or FSM: a deploy (and a media run, the same thing here) mounts each host's boot
//! ISO and answer image from svc on its server's BMC, with the vendor's quirks, and sets a
//! one-time boot from the virtual CD; the run then powers the servers on or cycles them.
//!
//! Servers are numbered as rack servers `1…n` over the group's BMCs in order (a BMC with
//! several systems gives each its number). A host names its server (`"server": "2"`); hosts
//! that name none take the group's selected servers (else all of them) in order.
//!
//! This file holds the sessions, the servers, power and disks; `deploy` holds what a deploy
//! writes on the BMCs.

mod deploy;

use bootsmith_model::install_disk::{
    virtual_drive_words, DiskFacts, DiskKind, RaidLevel, Transport,
};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use bootsmith_redfish as rf;
use futures::future::join_all;

use super::model::*;
use super::{
    ConsolePage, Driver, GroupKind, Manager, Numbering, Unmounted, ONE_SERVER_CAPABILITIES,
    REQUEST_TIMEOUT,
};
use crate::error::{Error, ErrorCode, Result};
use crate::jobs::JobCtx;
use crate::records::hosts::Host;
use bootsmith_model::types::{NodeId, RackId};
use deploy::removal;

/// Redfish BMCs: no templates, FSM stages or association to follow.
pub(super) const DRIVER: Driver = Driver {
    kind: GroupKind::Redfish,
    numbering: Numbering::Domain,
    capabilities: ONE_SERVER_CAPABILITIES,
    connect: Redfish::connect,
};

/// How long a power action waits for the BMC to show the new state.
const POWER_WAIT: Duration = Duration::from_secs(20);

/// One BMC of the group and what it said about itself (read once per connection).
struct Bmc {
    client: rf::Client,
    identity: tokio::sync::OnceCell<rf::Identity>,
}

impl Bmc {
    /// Its identity, read on first use; reading it puts the vendor's quirks in force.
    async fn identity(&self) -> Result<&rf::Identity> {
        Ok(self
            .identity
            .get_or_try_init(|| rf::identify(&self.client))
            .await?)
    }

    fn info(&self, id: &rf::Identity) -> BmcInfo {
        BmcInfo {
            address: self.client.address().to_owned(),
            vendor: id.vendor_name.clone(),
            product: id.product.clone().or_else(|| id.model.clone()),
            firmware: id.firmware.clone(),
            redfish_version: id.redfish_version.clone(),
            quirks: self.client.quirks().ids(),
        }
    }
}

/// A server of the group: the BMC it is behind (by position) and its system.
#[derive(Clone)]
struct Placed {
    bmc: usize,
    system: rf::System,
    server: Server,
}

/// The group's BMCs.
pub(super) struct Redfish {
    bmcs: Vec<Bmc>,
    /// The servers as last read, for the calls that name servers by DN.
    last: Mutex<Vec<Placed>>,
}

fn config(c: &Connection) -> rf::Config {
    let mut cfg = rf::Config::new(c.address.clone(), c.user.clone(), c.password.expose());
    cfg.trust = if c.insecure {
        rf::Trust::Insecure
    } else {
        c.fingerprint
            .clone()
            .map_or(rf::Trust::Verify, rf::Trust::Pinned)
    };
    cfg.timeout = REQUEST_TIMEOUT;
    cfg
}

impl Redfish {
    /// A client per BMC; nothing is sent until the first call.
    pub fn connect(c: &Connection) -> Result<Arc<dyn Manager>> {
        let bmcs = std::iter::once(c)
            .chain(&c.more)
            .map(|c| {
                Ok(Bmc {
                    client: rf::Client::new(config(c))?,
                    identity: tokio::sync::OnceCell::new(),
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Arc::new(Redfish {
            bmcs,
            last: Mutex::new(Vec::new()),
        }))
    }

    /// Every system of every BMC, numbered in order.
    async fn placed(&self) -> Result<Vec<Placed>> {
        let read = join_all(self.bmcs.iter().map(|b| async move {
            let id = b.identity().await?;
            // The systems' paths came with the identity (read once per connection): only the
            // systems are read again (power, boot), not the service root and the collection.
            let systems = rf::systems_at(&b.client, &id.systems).await?;
            Ok::<_, Error>((b.info(id), systems))
        }))
        .await;
        let mut out = Vec::new();
        for (i, r) in read.into_iter().enumerate() {
            let (info, systems) = r?;
            for system in systems {
                let n = out.len() as u32 + 1;
                out.push(Placed {
                    bmc: i,
                    server: server(n, &info, &system),
                    system,
                });
            }
        }
        *self.last.lock().expect("redfish servers lock") = out.clone();
        Ok(out)
    }

    /// The placed servers of `servers` (read before), by DN.
    fn find(&self, servers: &[&Server]) -> Vec<Placed> {
        let last = self.last.lock().expect("redfish servers lock");
        servers
            .iter()
            .filter_map(|s| last.iter().find(|p| p.server.dn == s.dn).cloned())
            .collect()
    }

    /// Each host of `spec` with the server it installs on, or why it has none.
    async fn hosts_on<'a>(
        &self,
        spec: &'a DeploySpec,
    ) -> Result<Vec<(&'a Host, std::result::Result<Placed, String>)>> {
        let placed = self.placed().await?;
        let named: Vec<&NodeId> = spec
            .hosts
            .iter()
            .filter_map(|h| h.server.as_ref())
            .collect();
        // Hosts without a server take the selected servers (else all) no host names, in order.
        let pool: Vec<&Placed> = placed
            .iter()
            .filter(|p| {
                spec.group.server_pool.rack_servers.is_empty()
                    || matches!(&p.server.id, NodeId::Rack(r) if spec.group.server_pool.rack_servers.contains(r))
            })
            .filter(|p| !named.contains(&&p.server.id))
            .collect();
        let mut free = pool.into_iter();
        Ok(spec
            .hosts
            .iter()
            .map(|h| {
                let found = match &h.server {
                    Some(id) => placed
                        .iter()
                        .find(|p| &p.server.id == id)
                        .cloned()
                        .ok_or_else(|| {
                            format!("server {id} is not one of the group's BMCs' servers")
                        }),
                    None => free.next().cloned().ok_or_else(|| {
                        "no server is left for it: name one (\"server\") or select more".to_owned()
                    }),
                };
                (h, found)
            })
            .collect())
    }

    fn client(&self, p: &Placed) -> &rf::Client {
        &self.bmcs[p.bmc].client
    }

    /// The BMC whose objects `dn` names (`<address><path>`), and the path.
    fn by_dn<'a>(&self, dn: &'a str) -> Option<(&rf::Client, &'a str)> {
        self.bmcs.iter().find_map(|b| {
            dn.strip_prefix(b.client.address())
                .filter(|p| p.starts_with('/'))
                .map(|p| (&b.client, p))
        })
    }
}

/// The core's server for a system: rack server `n`, named by its BMC's address and path.
fn server(n: u32, info: &BmcInfo, s: &rf::System) -> Server {
    Server {
        id: NodeId::Rack(RackId::local(n)),
        dn: format!("{}{}", info.address, s.path),
        model: s.model.clone().unwrap_or_default(),
        serial: s.serial.clone().unwrap_or_default(),
        uuid: s.uuid.clone(),
        num_cpus: count(s.processors.count),
        num_cores: count(s.processors.cores),
        ram: s.memory_gib.map(|g| (g * 1024.0).round() as u64).into(),
        // Redfish sums up no memory speed (each DIMM has its own).
        ram_speed: Reported::none(),
        // Its `PowerState` in lower case, as UCS words power (`on`, `off`, `poweringon`).
        oper_power: s
            .power_state
            .as_deref()
            .and_then(|p| PowerState::from_word(&p.to_ascii_lowercase())),
        association: None,
        service_profile: String::new(),
        // What the seed's label holds elsewhere, Redfish has as BIOS version and boot mode.
        label: [
            s.bios_version.as_ref().map(|b| format!("BIOS {b}")),
            s.boot.mode.as_ref().map(|m| format!("{m} boot")),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" · "),
        domain: None,
        bmc: Some(info.clone()),
    }
}

/// A count a system reports (`ProcessorSummary`'s `Count`, `CoreCount`), where it does; one
/// too large to be a count is shown as the BMC gave it.
fn count(n: Option<u64>) -> Reported<u32> {
    match n {
        None => Reported::none(),
        Some(n) => {
            u32::try_from(n).map_or_else(|_| Reported::Text(n.to_string()), Reported::Number)
        }
    }
}

/// A refusal that names the host and its BMC, keeping the BMC's own words.
fn for_host(h: &Host, p: &Placed, e: Error) -> Error {
    let inner = match e.downcast::<rf::Error>() {
        Ok(inner) => inner,
        Err(e) => return e,
    };
    match inner {
        rf::Error::NotSupported { address, what } => Error::Unprocessable {
            code: ErrorCode::NotSupported,
            message: format!("host {}: its BMC {address} does not support {what}", h.name),
            details: Vec::new(),
        },
        rf::Error::Refused {
            address,
            request,
            status,
            message,
            message_id,
            related,
        } => rf::Error::Refused {
            address: format!("{address} (host {}, {})", h.name, p.server.id),
            request,
            status,
            message,
            message_id,
            related,
        }
        .into(),
        other => other.into(),
    }
}

#[async_trait]
impl Manager for Redfish {
    async fn identify(&self) -> Result<Identity> {
        let ids = join_all(self.bmcs.iter().map(|b| async move {
            let id = b.identity().await.map(|i| b.info(i));
            b.client.logout().await;
            id
        }))
        .await;
        let words = ids
            .into_iter()
            .map(|i| {
                i.map(|i| {
                    format!(
                        "{} {} {}, firmware {}, Redfish {}",
                        i.address,
                        i.vendor,
                        i.product.unwrap_or_default(),
                        i.firmware.unwrap_or_else(|| "?".into()),
                        i.redfish_version.unwrap_or_else(|| "?".into())
                    )
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Identity {
            version: words.join("; "),
        })
    }

    async fn servers(&self) -> Result<Vec<Server>> {
        Ok(self.placed().await?.into_iter().map(|p| p.server).collect())
    }

    async fn templates(&self) -> Result<Vec<Template>> {
        Ok(Vec::new())
    }

    async fn set_power(&self, servers: &[&Server], action: PowerAction) -> Result<()> {
        // On and off are awaited (the BMC's state polled until it shows them, up to
        // POWER_WAIT); a restart passes through off and cannot be told from its state.
        let want = match action {
            PowerAction::On => Some(rf::PowerState::On),
            PowerAction::Off => Some(rf::PowerState::Off),
            _ => None,
        };
        let done = join_all(self.find(servers).into_iter().map(|p| async move {
            let client = self.client(&p);
            let sent = rf::reset(client, &p.system.path, action).await?;
            if let (Some(_), Some(want)) = (sent, want) {
                match rf::wait_power(client, &p.system.path, want, POWER_WAIT).await {
                    Err(rf::Error::Timeout { .. }) => tracing::warn!(
                        server = %p.server.dn,
                        "power {} asked; the BMC does not show it yet",
                        want.as_str()
                    ),
                    other => other?,
                }
            }
            Ok::<_, Error>(())
        }))
        .await;
        for r in done {
            r?;
        }
        Ok(())
    }

    async fn host_nics(&self) -> Result<Vec<HostNic>> {
        let placed = self.placed().await?;
        let read = join_all(placed.iter().map(|p| async move {
            rf::ethernet_interfaces(self.client(p), &p.system)
                .await
                .map(|n| (p, n))
        }))
        .await;
        let mut out = Vec::new();
        for r in read {
            let (p, nics) = r?;
            out.extend(nics.into_iter().filter_map(|n| {
                Some(HostNic {
                    server_dn: p.server.dn.clone(),
                    name: n.id,
                    mac: n.mac?.to_ascii_lowercase(),
                    link_up: n.link_up,
                })
            }));
        }
        Ok(out)
    }

    async fn disks(&self) -> Result<Vec<Disk>> {
        let placed = self.placed().await?;
        let read =
            join_all(placed.iter().map(|p| async move {
                rf::storage(self.client(p), &p.system).await.map(|s| (p, s))
            }))
            .await;
        let mut out = Vec::new();
        for r in read {
            let (p, storage) = r?;
            let addr = self.client(p).address();
            for st in &storage {
                for v in &st.volumes {
                    let raid = v.raid.as_deref().and_then(raid_level);
                    out.push(Disk {
                        facts: DiskFacts {
                            kind: DiskKind::VirtualDrive,
                            raid,
                            size_bytes: v.capacity_bytes,
                            name: v.name.clone(),
                            ..DiskFacts::local(v.id.clone())
                        },
                        dn: format!("{addr}{}", v.path),
                        server_dn: p.server.dn.clone(),
                        id: v.id.clone(),
                        state: v.status.clone().unwrap_or_default(),
                        model: virtual_drive_words(raid),
                        size: v.capacity_bytes.map(size_words).unwrap_or_default(),
                    });
                }
                for d in &st.drives {
                    let volume = st.volumes.iter().find(|v| v.drives.contains(&d.path));
                    out.push(Disk {
                        facts: DiskFacts {
                            member_of: volume.map(|v| v.id.clone()),
                            ..drive_facts(d)
                        },
                        dn: format!("{addr}{}", d.path),
                        server_dn: p.server.dn.clone(),
                        id: d.id.clone(),
                        // Redfish drives have no RAID state of their own: one outside every
                        // volume is what a UCS controller calls unconfigured-good.
                        state: match volume {
                            Some(v) => format!("in volume {}", v.id),
                            None => "unconfigured-good".into(),
                        },
                        model: [&d.name, &d.protocol, &d.media_type]
                            .into_iter()
                            .flatten()
                            .cloned()
                            .collect::<Vec<_>>()
                            .join(" "),
                        size: d.capacity_bytes.map(size_words).unwrap_or_default(),
                    });
                }
            }
        }
        Ok(out)
    }

    async fn reset_disks(&self, disks: &[&Disk]) -> Result<()> {
        let placed = self.placed().await?;
        let targets: Vec<&Placed> = placed
            .iter()
            .filter(|p| disks.iter().any(|d| d.server_dn == p.server.dn))
            .collect();
        let done = join_all(
            targets
                .iter()
                .map(|p| async move { rf::reset_disks(self.client(p), &p.system).await }),
        )
        .await;
        for r in done {
            r?;
        }
        Ok(())
    }

    async fn stages(&self, _servers: &[&Server]) -> Result<Vec<Stage>> {
        Ok(Vec::new())
    }

    fn check(&self, spec: &DeploySpec, _what: What) -> Result<()> {
        if spec.hosts.is_empty() {
            return Err(Error::bad(
                ErrorCode::DeployNotReady,
                format!("Server group {} has no hosts to deploy", spec.group.name),
            ));
        }
        Ok(())
    }

    async fn plan(&self, spec: &DeploySpec, _what: What, recorded: &[Recorded]) -> Result<Plan> {
        self.media_plan(spec, recorded).await
    }

    async fn apply(
        &self,
        spec: &DeploySpec,
        _what: What,
        recorded: &[Recorded],
        job: &JobCtx,
    ) -> Result<Plan> {
        self.media_apply(spec, recorded, job).await
    }

    async fn plan_removal(&self, recorded: &[Recorded]) -> Result<Plan> {
        Ok(Plan {
            objects: removal(recorded),
            warnings: Vec::new(),
        })
    }

    async fn remove(&self, recorded: &[Recorded]) -> Result<Plan> {
        self.media_remove(recorded).await
    }

    async fn single_device_hosts(&self, spec: &DeploySpec) -> Result<Vec<String>> {
        self.one_device_hosts(spec).await
    }

    async fn host_servers(&self, spec: &DeploySpec) -> Result<Vec<Option<Server>>> {
        Ok(self
            .hosts_on(spec)
            .await?
            .into_iter()
            .map(|(_, p)| p.ok().map(|p| p.server))
            .collect())
    }

    async fn follow(&self, spec: &DeploySpec, job: &JobCtx) -> Result<Vec<HostProgress>> {
        self.follow_mounts(spec, job).await
    }

    async fn unmount(&self, spec: &DeploySpec, host: &Host) -> Result<Unmounted> {
        self.media_unmount(spec, host).await
    }

    fn mounts_when_written(&self) -> bool {
        true
    }

    fn console(&self, server: &Server) -> Option<ConsolePage> {
        let bmc = server.bmc.as_ref()?;
        Some(ConsolePage {
            url: super::web_root(&bmc.address),
            note: format!(
                "the {} BMC's web interface: sign in, then open its remote console",
                bmc.vendor
            ),
        })
    }

    async fn logout(&self) {
        join_all(self.bmcs.iter().map(|b| b.client.logout())).await;
    }
}

/// A byte count as disks are sold: `480 GB`.
fn size_words(bytes: u64) -> String {
    format!("{} GB", bytes / 1_000_000_000)
}

/// A volume's RAID level from its `RAIDType` (`RAID1`), or the few older `VolumeType`s that
/// name one.
fn raid_level(word: &str) -> Option<RaidLevel> {
    match word {
        "NonRedundant" => Some(RaidLevel::Raid0),
        "Mirrored" => Some(RaidLevel::Raid1),
        "SpannedMirrors" => Some(RaidLevel::Raid10),
        other => RaidLevel::parse(other),
    }
}

/// What a hint matches on of a Redfish drive: USB and storage-network protocols make it no
/// local disk.
fn drive_facts(d: &rf::Drive) -> DiskFacts {
    let transport = match d.protocol.as_deref() {
        Some("USB") => Transport::Usb,
        Some("FC" | "FCoE" | "FCP" | "iSCSI" | "NVMeOverFabrics") => Transport::Remote,
        _ => Transport::Local,
    };
    DiskFacts {
        size_bytes: d.capacity_bytes,
        model: d.model.clone(),
        vendor: d.manufacturer.clone(),
        serial: d.serial.clone(),
        wwn: d.wwn.clone(),
        rotational: d.rotational(),
        transport,
        ..DiskFacts::local(d.id.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bmc() -> BmcInfo {
        BmcInfo {
            address: "https://192.0.2.11".into(),
            vendor: "HPE".into(),
            product: None,
            firmware: None,
            redfish_version: None,
            quirks: Vec::new(),
        }
    }

    #[test]
    fn a_system_is_read_into_numbers_and_words_once() {
        let mut sys = rf::System {
            path: "/redfish/v1/Systems/1".into(),
            power_state: Some("On".into()),
            memory_gib: Some(256.0),
            ..Default::default()
        };
        sys.processors.count = Some(2);
        sys.processors.cores = Some(48);
        let s = server(1, &bmc(), &sys);
        assert_eq!(s.num_cpus, Reported::Number(2));
        assert_eq!(s.num_cores, Reported::Number(48));
        assert_eq!(s.ram, Reported::Number(262144), "MB");
        assert_eq!(s.ram_speed, Reported::none(), "Redfish sums up no speed");
        assert_eq!(s.oper_power, Some(PowerState::On));
        assert_eq!(s.association, None, "a BMC has no profiles");

        // A state in passing is kept in lower case; what the system does not say is empty.
        let quiet = rf::System {
            power_state: Some("PoweringOn".into()),
            ..Default::default()
        };
        let s = server(1, &bmc(), &quiet);
        assert_eq!(s.oper_power, Some(PowerState::Other("poweringon".into())));
        assert_eq!(
            (s.num_cpus.to_string(), s.ram.to_string()),
            (String::new(), String::new())
        );
        let off = rf::System {
            power_state: Some("Off".into()),
            ..Default::default()
        };
        assert!(server(1, &bmc(), &off).is_off());
        assert_eq!(server(1, &bmc(), &rf::System::default()).oper_power, None);
    }

    #[test]
    fn a_count_too_large_for_one_is_shown_as_given() {
        assert_eq!(count(Some(2)), Reported::Number(2));
        assert_eq!(count(None), Reported::none());
        assert_eq!(
            count(Some(1 << 40)),
            Reported::Text((1u64 << 40).to_string())
        );
    }
}
