//! The Redfish driver: a group of BMCs of any vendor (Dell iDRAC, HPE iLO, Supermicro, Lenovo
//! XCC, Cisco CIMC…), one server each, over `bootsmith_redfish`. It has no service profiles,
//! templates or FSM: a deploy (and a media run, the same thing here) mounts each host's boot
//! ISO and answer image from svc on its server's BMC, with the vendor's quirks, and sets a
//! one-time boot from the virtual CD; the run then powers the servers on or cycles them.
//!
//! Servers are numbered as rack servers `1…n` over the group's BMCs in order (a BMC with
//! several systems gives each its number). A host names its server (`"server": "2"`); hosts
//! that name none take the group's selected servers (else all of them) in order.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use bootsmith_redfish as rf;
use futures::future::join_all;

use super::model::*;
use super::{
    Capability, ConsolePage, Driver, GroupKind, Manager, Numbering, Unmounted, REQUEST_TIMEOUT,
};
use crate::catalog::BootMode;
use crate::error::{Error, Result};
use crate::hosts::Host;
use crate::jobs::{JobCtx, StepState};
use crate::types::{NodeId, RackId};

/// Redfish BMCs: no templates, FSM stages or association to follow.
pub(super) const DRIVER: Driver = Driver {
    kind: GroupKind::Redfish,
    numbering: Numbering::Domain,
    capabilities: &[
        Capability::Inventory,
        Capability::Power,
        Capability::Disks,
        Capability::DiskReset,
        Capability::InstallMedia,
        Capability::Deploy,
        Capability::Undeploy,
    ],
    connect: Redfish::connect,
};

/// The class names a run's objects carry (what undeploy acts on).
const SLOT: &str = "VirtualMedia";
const BOOT: &str = "ComputerSystem.Boot";

/// How long a run waits for the BMCs to show the media inserted.
const MOUNT_WAIT: Duration = Duration::from_secs(120);
const POLL: Duration = Duration::from_millis(500);
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

    /// One host's run on its BMC: identity and quirks, both media ejected, inserted and read
    /// back, the one-time boot set and read back; its objects and warnings.
    async fn mount_one(
        &self,
        spec: &DeploySpec,
        h: &Host,
        found: &std::result::Result<Placed, String>,
        recorded: &[Recorded],
        job: &JobCtx,
    ) -> Result<(Vec<PlannedObject>, Vec<String>)> {
        let name = h.name.as_str();
        let p = found
            .clone()
            .map_err(|why| Error::bad("deploy_not_ready", format!("host {name}: {why}")))?;
        let bmc = &self.bmcs[p.bmc];
        let client = &bmc.client;
        let id = bmc.identity().await.map_err(|e| for_host(h, &p, e))?;
        let info = bmc.info(id);
        job.step(
            Some(name),
            "session",
            StepState::Done,
            Some(&format!(
                "{} {} {}; vendor rules: {}",
                info.address,
                info.vendor,
                info.firmware.as_deref().unwrap_or(""),
                if info.quirks.is_empty() {
                    "none".to_owned()
                } else {
                    info.quirks.join(", ")
                }
            )),
        );
        let (iso, image) = urls(spec, h);
        // Media a run of ours left in place are not inserted again: the BMC would eject them
        // under a server that may be installing from them.
        let now = rf::vmedia::slots(client, &p.system)
            .await
            .map_err(|e| for_host(h, &p, e.into()))?;
        let m = match held_by_us(client, &now, &iso, image.as_deref(), recorded) {
            Some(m) => m,
            None => rf::vmedia::mount_in(client, &now, &iso, image.as_deref())
                .await
                .map_err(|e| for_host(h, &p, e.into()))?,
        };
        if image.is_some() && m.image.is_none() {
            // Its slots changed since the run looked (single_device_hosts).
            return Err(Error::Conflict {
                code: "bmc_changed",
                message: format!(
                    "host {name}: its BMC {} no longer offers a second virtual media device for the answer image {}; run the deploy again",
                    client.address(),
                    image.unwrap_or_default()
                ),
                details: Vec::new(),
            });
        }
        let slots = std::iter::once(format!("boot ISO in slot {}", m.iso.slot))
            .chain(
                m.image
                    .as_ref()
                    .map(|i| format!("answer image in slot {}", i.slot)),
            )
            .collect::<Vec<_>>()
            .join(", ");
        job.step(
            Some(name),
            "virtual-media",
            StepState::Done,
            Some(&if m.unchanged {
                format!("unchanged: the BMC holds them already ({slots}); nothing written")
            } else {
                format!("ejected, inserted and read back: {slots}")
            }),
        );
        let left = running_install(spec, h, m.unchanged);
        let boot = match &left {
            Some(why) => rf::BootOutcome {
                via: "unchanged".into(),
                unchanged: true,
                warnings: vec![why.clone()],
                ..rf::BootOutcome::default()
            },
            None => rf::ensure_boot_once_cd(
                client,
                &p.system.path,
                Some(boot_mode(spec)),
                Some(&m.iso_slot),
            )
            .await
            .map_err(|e| for_host(h, &p, e.into()))?,
        };
        let said = if let Some(why) = left {
            format!("unchanged: one-time boot {why}; nothing written")
        } else if boot.unchanged {
            format!(
                "unchanged: the BMC boots once from the virtual CD already ({}); nothing written",
                boot.warnings.join("; ")
            )
        } else {
            format!(
                "{} via {}, reads back {} / {}; rules and fallbacks applied: {}",
                boot.target,
                boot.via,
                boot.read_target.as_deref().unwrap_or("?"),
                boot.read_enabled.as_deref().unwrap_or("?"),
                match client.applied_quirks() {
                    a if a.is_empty() => "none".to_owned(),
                    a => a.join(", "),
                }
            )
        };
        job.step(Some(name), "boot-once", StepState::Done, Some(&said));
        Ok(mounted_objects(client, h, &p, &m, &boot))
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
        num_cpus: s
            .processors
            .count
            .map(|c| c.to_string())
            .unwrap_or_default(),
        num_cores: s
            .processors
            .cores
            .map(|c| c.to_string())
            .unwrap_or_default(),
        ram: s
            .memory_gib
            .map(|g| ((g * 1024.0).round() as u64).to_string())
            .unwrap_or_default(),
        ram_speed: String::new(),
        oper_power: s
            .power_state
            .as_deref()
            .map(str::to_ascii_lowercase)
            .unwrap_or_default(),
        association: String::new(),
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

/// The URLs of a host's media: its boot ISO and (where its family has one) its answer image;
/// on a server with one device, its single-device ISO alone.
fn urls(spec: &DeploySpec, h: &Host) -> (String, Option<String>) {
    if let Some(url) = spec.single_device.get(h.name.as_str()) {
        return (url.clone(), None);
    }
    let media = spec.media_of(h.name.as_str());
    (
        spec.url(&media.boot),
        media.answer.as_deref().map(|f| spec.url(f)),
    )
}

/// The host's media as `slots` hold them, when they hold both and earlier runs of the group
/// recorded those slots (media someone else inserted are not taken as ours).
fn held_by_us(
    client: &rf::Client,
    slots: &[rf::vmedia::Slot],
    iso: &str,
    image: Option<&str>,
    recorded: &[Recorded],
) -> Option<rf::vmedia::Mounted> {
    let held = rf::vmedia::held(slots, iso, image)?;
    let ours = |s: &rf::vmedia::Slot| {
        let dn = format!("{}{}", client.address(), s.path);
        recorded.iter().any(|r| r.class == SLOT && r.dn == dn)
    };
    let all_ours = held.iso.iter().chain(held.image.iter()).all(ours);
    all_ours.then(|| rf::vmedia::Mounted::held(held)).flatten()
}

/// Why the one-time boot of `h` is left as it is, when its install runs from the media its BMC
/// holds (`media_held`): its server spent that boot on them, and setting it again would start
/// the installer once more at the install's closing reboot.
fn running_install(spec: &DeploySpec, h: &Host, media_held: bool) -> Option<String> {
    let stage = spec.running.get(h.name.as_str()).filter(|_| media_held)?;
    Some(format!(
        "left as it is: the install runs from these media ({stage}); its server spent the one-time boot on them, and setting it again would start the installer once more at the install's closing reboot"
    ))
}

/// True when the slots leave nowhere for an answer image beside the boot ISO.
fn one_device(client: &rf::Client, slots: &[rf::vmedia::Slot]) -> bool {
    rf::vmedia::choose_slots(slots, client.has_quirk(rf::Effect::IsoSlot1))
        .image
        .is_none()
}

fn boot_mode(spec: &DeploySpec) -> &'static str {
    match spec.os.boot {
        BootMode::Uefi => "UEFI",
        _ => "Legacy",
    }
}

/// A refusal that names the host and its BMC, keeping the BMC's own words.
fn for_host(h: &Host, p: &Placed, e: Error) -> Error {
    let Error::Redfish(inner) = e else {
        return e;
    };
    match *inner {
        rf::Error::NotSupported { address, what } => Error::Unprocessable {
            code: "not_supported",
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

/// What mounting one host's media did, as objects of the run.
fn mounted_objects(
    client: &rf::Client,
    h: &Host,
    p: &Placed,
    m: &rf::vmedia::Mounted,
    boot: &rf::BootOutcome,
) -> (Vec<PlannedObject>, Vec<String>) {
    let object = |dn: String, class: &str, action, changed: Vec<String>| PlannedObject {
        what: super::meaning::object(class, &dn, None, ""),
        dn,
        class: class.to_owned(),
        action,
        changed,
        host: Some(h.name.to_string()),
    };
    let addr = client.address();
    let slot_path = |id: &str| {
        if m.iso_slot.id == id {
            m.iso_slot.path.clone()
        } else {
            format!(
                "{}/{id}",
                m.iso_slot.path.rsplit_once('/').map_or("", |(a, _)| a)
            )
        }
    };
    let inserted = |what: &str, o: &rf::InsertOutcome| {
        if m.unchanged {
            (
                ObjectAction::Unchanged,
                vec![format!("{what} held already")],
            )
        } else {
            (
                ObjectAction::Create,
                vec![format!("{what} inserted ({})", o.rungs.join(" → "))],
            )
        }
    };
    let (action, changed) = inserted("boot ISO", &m.iso);
    let mut objects = vec![object(
        format!("{addr}{}", m.iso_slot.path),
        SLOT,
        action,
        changed,
    )];
    if let Some(img) = &m.image {
        let (action, changed) = inserted("answer image", img);
        objects.push(object(
            format!("{addr}{}", slot_path(&img.slot)),
            SLOT,
            action,
            changed,
        ));
    }
    let (action, changed) = if boot.unchanged {
        (ObjectAction::Unchanged, boot.warnings.clone())
    } else {
        (
            ObjectAction::Modify,
            vec![format!(
                "one-time boot from {} via {} (reads back {} / {})",
                boot.target,
                boot.via,
                boot.read_target.as_deref().unwrap_or("?"),
                boot.read_enabled.as_deref().unwrap_or("?")
            )],
        )
    };
    objects.push(object(
        format!("{addr}{}", p.system.path),
        BOOT,
        action,
        changed,
    ));
    let mut warnings: Vec<String> = if boot.unchanged {
        Vec::new()
    } else {
        boot.warnings
            .iter()
            .map(|w| format!("{}: {w}", h.name))
            .collect()
    };
    if !m.skipped.is_empty() {
        warnings.push(format!(
            "{}: slots {} of {addr} refused media and were skipped",
            h.name,
            m.skipped.join(", ")
        ));
    }
    (objects, warnings)
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
        let act = match action {
            PowerAction::On => rf::PowerAction::On,
            PowerAction::Off => rf::PowerAction::Off,
            PowerAction::HardReset => rf::PowerAction::HardReset,
            PowerAction::SoftReset => rf::PowerAction::SoftReset,
        };
        // On and off are awaited (the BMC's state polled until it shows them, up to
        // POWER_WAIT); a restart passes through off and cannot be told from its state.
        let want = match action {
            PowerAction::On => Some(rf::PowerState::On),
            PowerAction::Off => Some(rf::PowerState::Off),
            _ => None,
        };
        let done = join_all(self.find(servers).into_iter().map(|p| async move {
            let client = self.client(&p);
            let sent = rf::reset(client, &p.system.path, act).await?;
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
            let in_volume = storage.iter().any(|s| !s.volumes.is_empty());
            for st in &storage {
                for v in &st.volumes {
                    out.push(Disk {
                        dn: format!("{addr}{}", v.path),
                        server_dn: p.server.dn.clone(),
                        id: format!("volume {}", v.id),
                        state: format!("volume {}", v.raid.as_deref().unwrap_or(""))
                            .trim()
                            .into(),
                        model: v.name.clone().unwrap_or_default(),
                        size: v.capacity_bytes.map(size_words).unwrap_or_default(),
                    });
                }
                for d in &st.drives {
                    out.push(Disk {
                        dn: format!("{addr}{}", d.path),
                        server_dn: p.server.dn.clone(),
                        id: d.id.clone(),
                        // Redfish drives have no RAID state of their own: one outside every
                        // volume is what a UCS controller calls unconfigured-good.
                        state: if in_volume {
                            "in a volume"
                        } else {
                            "unconfigured-good"
                        }
                        .into(),
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
                "deploy_not_ready",
                format!("Server group {} has no hosts to deploy", spec.group.name),
            ));
        }
        Ok(())
    }

    /// What a run would do on each host's BMC: its slots (as they hold now) and its boot.
    async fn plan(&self, spec: &DeploySpec, _what: What, recorded: &[Recorded]) -> Result<Plan> {
        let mut plan = Plan::default();
        for (h, found) in self.hosts_on(spec).await? {
            let p = match found {
                Ok(p) => p,
                Err(why) => {
                    plan.warnings.push(format!("{}: {why}", h.name));
                    continue;
                }
            };
            let client = self.client(&p);
            let slots = rf::vmedia::slots(client, &p.system)
                .await
                .map_err(|e| for_host(h, &p, e.into()))?;
            let choice = rf::vmedia::choose_slots(&slots, client.has_quirk(rf::Effect::IsoSlot1));
            let (mut iso, mut image) = urls(spec, h);
            if image.is_some() && one_device(client, &slots) {
                let file = &spec.media_of(h.name.as_str()).single_device;
                plan.warnings.push(format!(
                    "{}: its BMC {} has one virtual media device: the run builds /svc/{file}, whose boot entries fetch the answer file over HTTP, and mounts it alone",
                    h.name,
                    client.address()
                ));
                iso = spec.url(file);
                image = None;
            }
            let addr = client.address();
            // Held already: the run writes nothing there (see mount_one).
            let held = held_by_us(client, &slots, &iso, image.as_deref(), recorded);
            let choice = match &held {
                Some(m) => rf::vmedia::SlotChoice {
                    image: m.image.as_ref().and_then(|i| {
                        slots
                            .iter()
                            .find(|s| s.id == i.slot && s.path != m.iso_slot.path)
                            .cloned()
                    }),
                    iso: Some(m.iso_slot.clone()),
                },
                None => choice,
            };
            let mut slot = |s: Option<&rf::vmedia::Slot>, url: String, what: &str| match s {
                Some(s) => plan.objects.push(PlannedObject {
                    what: format!("{what} in virtual-media slot {}", s.id),
                    dn: format!("{addr}{}", s.path),
                    class: SLOT.into(),
                    action: if held.is_some() {
                        ObjectAction::Unchanged
                    } else {
                        ObjectAction::Create
                    },
                    changed: vec![if held.is_some() {
                        format!("{what} {url} held already")
                    } else {
                        format!(
                            "{what} {url} (now {})",
                            s.image.as_deref().unwrap_or("empty")
                        )
                    }],
                    host: Some(h.name.to_string()),
                }),
                None => plan.warnings.push(format!(
                    "{}: {addr} has no virtual media slot for its {what}",
                    h.name
                )),
            };
            slot(choice.iso.as_ref(), iso, "boot ISO");
            if let Some(url) = image {
                slot(choice.image.as_ref(), url, "answer image");
            }
            // HPE's slot flag survives only where the slot is not inserted again.
            let boot_held = match running_install(spec, h, held.is_some()) {
                Some(why) => Some(format!("one-time boot from the virtual CD {why}")),
                None => rf::boot_once_held(
                    client,
                    &p.system,
                    Some(boot_mode(spec)),
                    held.as_ref().map(|m| &m.iso_slot),
                )
                .map(|b| format!("one-time boot from the virtual CD held already: {b}")),
            };
            plan.objects.push(PlannedObject {
                what: "one-time boot from the virtual CD".into(),
                dn: format!("{addr}{}", p.system.path),
                class: BOOT.into(),
                action: if boot_held.is_some() {
                    ObjectAction::Unchanged
                } else {
                    ObjectAction::Modify
                },
                changed: vec![boot_held.unwrap_or_else(|| {
                    format!("one-time boot from the virtual CD ({})", boot_mode(spec))
                })],
                host: Some(h.name.to_string()),
            });
        }
        Ok(plan)
    }

    /// Mount each host's media and set its one-time boot, every BMC at once, reporting each
    /// host's steps (`session`, `virtual-media`, `boot-once`); a host whose BMC refuses fails
    /// the run naming the host, after the others are done.
    async fn apply(
        &self,
        spec: &DeploySpec,
        _what: What,
        recorded: &[Recorded],
        job: &JobCtx,
    ) -> Result<Plan> {
        let hosts = self.hosts_on(spec).await?;
        let runs = join_all(hosts.iter().map(|(h, found)| async move {
            let name = h.name.as_str();
            let outcome = self.mount_one(spec, h, found, recorded, job).await;
            if let Err(e) = &outcome {
                job.step(
                    Some(name),
                    "virtual-media",
                    StepState::Failed,
                    Some(&e.to_string()),
                );
            }
            outcome
        }))
        .await;
        let mut plan = Plan::default();
        let mut failed = Vec::new();
        for r in runs {
            match r {
                Ok((objects, warnings)) => {
                    plan.objects.extend(objects);
                    plan.warnings.extend(warnings);
                }
                Err(e) => failed.push(e),
            }
        }
        match failed.len() {
            0 => Ok(plan),
            1 => Err(failed.remove(0)),
            _ => Err(Error::Unprocessable {
                code: "bmc_error",
                message: failed
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("; "),
                details: Vec::new(),
            }),
        }
    }

    async fn plan_removal(&self, recorded: &[Recorded]) -> Result<Plan> {
        Ok(Plan {
            objects: removal(recorded),
            warnings: Vec::new(),
        })
    }

    /// Eject every slot earlier runs filled, clear the one-time boot of their systems and end
    /// the sessions.
    async fn remove(&self, recorded: &[Recorded]) -> Result<Plan> {
        let slots: Vec<&Recorded> = recorded.iter().filter(|r| r.class == SLOT).collect();
        let ejected = join_all(slots.iter().map(|r| async move {
            let Some((client, path)) = self.by_dn(&r.dn) else {
                return Ok(());
            };
            let slot = rf::vmedia::reread(
                client,
                &rf::vmedia::Slot {
                    path: path.to_owned(),
                    ..Default::default()
                },
            )
            .await?;
            rf::vmedia::eject(client, &slot).await
        }))
        .await;
        for r in ejected {
            r?;
        }
        let placed = self.placed().await?;
        for p in &placed {
            let client = self.client(p);
            if slots.iter().any(|r| r.dn.starts_with(client.address())) {
                rf::clear_boot_override(client, &p.system.path).await?;
            }
        }
        // Nothing more to do there: end the sessions (BMCs allow few; the next call logs in).
        self.logout().await;
        Ok(Plan {
            objects: removal(recorded),
            warnings: Vec::new(),
        })
    }

    /// Hosts with an answer image whose BMC has no second slot for it (Supermicro's one CD).
    async fn single_device_hosts(&self, spec: &DeploySpec) -> Result<Vec<String>> {
        if spec.host_media.values().all(|m| m.answer.is_none()) {
            return Ok(Vec::new()); // ESXi: its own ISO holds its kickstart already
        }
        let hosts = self.hosts_on(spec).await?;
        let found = join_all(hosts.iter().map(|(h, found)| async move {
            let Ok(p) = found else {
                return Ok(None);
            };
            let client = self.client(p);
            self.bmcs[p.bmc].identity().await?;
            let slots = rf::vmedia::slots(client, &p.system)
                .await
                .map_err(|e| for_host(h, p, e.into()))?;
            Ok::<_, Error>(one_device(client, &slots).then(|| h.name.to_string()))
        }))
        .await;
        let mut out = Vec::new();
        for r in found {
            out.extend(r?);
        }
        Ok(out)
    }

    async fn host_servers(&self, spec: &DeploySpec) -> Result<Vec<Option<Server>>> {
        Ok(self
            .hosts_on(spec)
            .await?
            .into_iter()
            .map(|(_, p)| p.ok().map(|p| p.server))
            .collect())
    }

    /// Read each host's slots back until its BMC shows both media inserted from our URLs.
    async fn follow(&self, spec: &DeploySpec, job: &JobCtx) -> Result<Vec<HostProgress>> {
        let hosts = self.hosts_on(spec).await?;
        let progress = join_all(hosts.iter().map(|(h, found)| async move {
            let name = h.name.as_str();
            let Ok(p) = found else {
                return Ok(None);
            };
            let client = self.client(p);
            let (iso, image) = urls(spec, h);
            let wanted: Vec<String> = std::iter::once(iso).chain(image).collect();
            let deadline = Instant::now() + MOUNT_WAIT;
            let state = loop {
                let slots = rf::vmedia::slots(client, &p.system).await?;
                let inserted = |u: &String| {
                    slots
                        .iter()
                        .any(|s| s.inserted && s.image.as_deref() == Some(u.as_str()))
                };
                if wanted.iter().all(inserted) {
                    break (MediaState::Mounted, None);
                }
                if Instant::now() >= deadline {
                    let missing: Vec<&str> = wanted
                        .iter()
                        .filter(|u| !inserted(u))
                        .map(String::as_str)
                        .collect();
                    break (
                        MediaState::Failed,
                        Some(format!(
                            "host {name}: its BMC {} does not show {} inserted (it could not fetch the URL, or dropped the media)",
                            client.address(),
                            missing.join(" and ")
                        )),
                    );
                }
                tokio::time::sleep(POLL).await;
            };
            let step = match state.0 {
                MediaState::Mounted => StepState::Done,
                _ => StepState::Failed,
            };
            let said = state.1.clone().unwrap_or_else(|| {
                format!(
                    "{} shows {} inserted",
                    client.address(),
                    wanted
                        .iter()
                        .map(|u| u.rsplit('/').next().unwrap_or(u))
                        .collect::<Vec<_>>()
                        .join(" and ")
                )
            });
            job.step(Some(name), "media", step, Some(&said));
            Ok::<_, Error>(Some(HostProgress {
                host: name.to_owned(),
                association: String::new(),
                server: p.server.id.to_string(),
                power: p.server.oper_power.clone(),
                media: Some(MediaProgress {
                    state: state.0,
                    urls: wanted,
                    error: state.1,
                }),
            }))
        }))
        .await;
        let mut out = Vec::new();
        for r in progress {
            out.extend(r?);
        }
        Ok(out)
    }

    /// Eject the slots holding the host's media and clear its one-time boot.
    async fn unmount(&self, spec: &DeploySpec, host: &Host) -> Result<Unmounted> {
        let Some((_, Ok(p))) = self
            .hosts_on(spec)
            .await?
            .into_iter()
            .find(|(h, _)| h.name == host.name)
        else {
            return Ok(Unmounted::Objects(0));
        };
        let client = self.client(&p);
        let (iso, image) = urls(spec, host);
        // Its single-device ISO too: the spec of a later call does not say it had one.
        let single = spec.url(&spec.media_of(host.name.as_str()).single_device);
        let mine: Vec<String> = [iso, single].into_iter().chain(image).collect();
        let mut n = 0;
        for s in rf::vmedia::slots(client, &p.system).await? {
            if s.image.as_ref().is_some_and(|i| mine.contains(i)) {
                rf::vmedia::eject(client, &s).await?;
                n += 1;
            }
        }
        rf::clear_boot_override(client, &p.system.path).await?;
        Ok(Unmounted::Objects(n + 1))
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

/// Undeploy's objects: every recorded slot, ejected.
fn removal(recorded: &[Recorded]) -> Vec<PlannedObject> {
    recorded
        .iter()
        .filter(|r| r.class == SLOT)
        .map(|r| PlannedObject {
            what: super::meaning::object(&r.class, &r.dn, None, ""),
            dn: r.dn.clone(),
            class: r.class.clone(),
            action: ObjectAction::Delete,
            changed: vec!["ejected".into()],
            host: None,
        })
        .collect()
}

/// A byte count as disks are sold: `480 GB`.
fn size_words(bytes: u64) -> String {
    format!("{} GB", bytes / 1_000_000_000)
}
