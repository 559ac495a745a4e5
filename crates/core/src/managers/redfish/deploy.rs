//! What a deploy writes on each BMC: the host's media inserted in its virtual-media slots
//! (or its single-device ISO alone where the BMC has one slot), its one-time boot set, the
//! mounts followed until the BMC shows them, and all of it taken away again on undeploy.

use std::time::{Duration, Instant};

use bootsmith_redfish as rf;
use futures::future::join_all;

use super::{for_host, Placed, Redfish};
use crate::error::{Error, ErrorCode, Result};
use crate::jobs::{JobCtx, JobStep, StepState};
use crate::managers::model::*;
use crate::managers::{meaning, Manager, Unmounted};
use crate::records::hosts::Host;
use bootsmith_model::catalog::BootMode;

/// The class names a run's objects carry (what undeploy acts on).
const SLOT: &str = "VirtualMedia";
const BOOT: &str = "ComputerSystem.Boot";

/// How long a run waits for the BMCs to show the media inserted.
const MOUNT_WAIT: Duration = Duration::from_secs(120);
const POLL: Duration = Duration::from_millis(500);

impl Redfish {
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
            .map_err(|why| Error::bad(ErrorCode::DeployNotReady, format!("host {name}: {why}")))?;
        let bmc = &self.bmcs[p.bmc];
        let client = &bmc.client;
        let id = bmc.identity().await.map_err(|e| for_host(h, &p, e))?;
        let info = bmc.info(id);
        job.step(
            Some(name),
            JobStep::Session,
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
                code: ErrorCode::BmcChanged,
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
            JobStep::VirtualMedia,
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
        job.step(Some(name), JobStep::BootOnce, StepState::Done, Some(&said));
        Ok(mounted_objects(client, h, &p, &m, &boot))
    }

    /// What a run would do on each host's BMC: its slots (as they hold now) and its boot.
    pub(super) async fn media_plan(
        &self,
        spec: &DeploySpec,
        recorded: &[Recorded],
    ) -> Result<Plan> {
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
    pub(super) async fn media_apply(
        &self,
        spec: &DeploySpec,
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
                    JobStep::VirtualMedia,
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
                code: ErrorCode::BmcError,
                message: failed
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("; "),
                details: Vec::new(),
            }),
        }
    }

    /// Eject every slot earlier runs filled, clear the one-time boot of their systems and end
    /// the sessions.
    pub(super) async fn media_remove(&self, recorded: &[Recorded]) -> Result<Plan> {
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
    pub(super) async fn one_device_hosts(&self, spec: &DeploySpec) -> Result<Vec<String>> {
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

    /// Read each host's slots back until its BMC shows both media inserted from our URLs.
    pub(super) async fn follow_mounts(
        &self,
        spec: &DeploySpec,
        job: &JobCtx,
    ) -> Result<Vec<HostProgress>> {
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
            job.step(Some(name), JobStep::Media, step, Some(&said));
            Ok::<_, Error>(Some(HostProgress {
                host: name.to_owned(),
                association: String::new(),
                server: p.server.id.to_string(),
                power: PowerState::word_of(p.server.oper_power.as_ref()).to_owned(),
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
    pub(super) async fn media_unmount(&self, spec: &DeploySpec, host: &Host) -> Result<Unmounted> {
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

/// What mounting one host's media did, as objects of the run.
fn mounted_objects(
    client: &rf::Client,
    h: &Host,
    p: &Placed,
    m: &rf::vmedia::Mounted,
    boot: &rf::BootOutcome,
) -> (Vec<PlannedObject>, Vec<String>) {
    let object = |dn: String, class: &str, action, changed: Vec<String>| PlannedObject {
        what: meaning::object(class, &dn, None, ""),
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

/// Undeploy's objects: every recorded slot, ejected.
pub(super) fn removal(recorded: &[Recorded]) -> Vec<PlannedObject> {
    recorded
        .iter()
        .filter(|r| r.class == SLOT)
        .map(|r| PlannedObject {
            what: meaning::object(&r.class, &r.dn, None, ""),
            dn: r.dn.clone(),
            class: r.class.clone(),
            action: ObjectAction::Delete,
            changed: vec!["ejected".into()],
            host: None,
        })
        .collect()
}
