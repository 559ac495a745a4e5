//! Which disk each host installs on, named in the plan before anything is written: the
//! host's install-disk hint (else its server group's, else the default rule) resolved
//! against the disks its server's manager reports. A host bound to a server is resolved on
//! it; one the pool places, on every server of the pool (any may get it). No match, or more
//! than one, refuses the run (`409 install_disk_not_found` / `install_disk_ambiguous`). A
//! hint whose installer cannot resolve one of its keys (a WWN in WinPE, a Linux device path on
//! ESXi) is refused first, whether or not the server is known (`install_disk_unsupported`).

use std::path::Path;

use bootsmith_media::disk_scripts::unsupported;
use bootsmith_media::install_disk::kept_to;
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::{Error, Result};
use crate::managers::{DeploySpec, InstallDisk, Server};
use crate::media::answers;
use crate::records::hosts::Host;
use bootsmith_model::catalog::{Catalog, Family};
use bootsmith_model::install_disk::{self, DiskFacts, InstallDiskHint};

/// The disk a host installs on, on one server it may run on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct HostDisk {
    /// Host name.
    pub host: String,
    /// The server (`1/3`, `2`): the host's own, or one of its group's pool.
    pub server: String,
    /// The disk the install goes on.
    pub disk: DiskFacts,
    /// How many other disks the installer sees on the server (a virtual drive's members not
    /// counted, their virtual drive is), untouched.
    pub others: usize,
    /// The plan's line: `kube01: install disk 480 GB Micron 5300, S/N 21033A4E, slot 1 of
    /// server 1/3 (2 other disks untouched)`, or saying why the answer file may touch others.
    pub line: String,
}

/// The disk of every host whose server is known, and warnings for what could not be
/// resolved here (a manager whose disks cannot be read, a server that reports none).
pub(super) fn resolve(
    spec: &DeploySpec,
    servers: &[Server],
    disks: Result<Vec<InstallDisk>>,
    catalog: &Catalog,
    svc_dir: &Path,
) -> Result<(Vec<HostDisk>, Vec<String>)> {
    refuse_unresolvable(spec, catalog, svc_dir)?;
    let disks = match disks {
        Ok(d) => d,
        Err(e) => {
            return Ok((
                Vec::new(),
                vec![format!(
                    "The disks of {}'s servers could not be read ({e}): the plan names no install disk, and each installer takes the disk its answer file names",
                    spec.group.name
                )],
            ))
        }
    };
    let mut out = Vec::new();
    let mut warnings = Vec::new();
    let mut refused: Vec<(String, install_disk::DiskRefusal)> = Vec::new();
    for h in &spec.hosts {
        let hint = h.install_disk.as_ref().or(spec.group.install_disk.as_ref());
        // A host with neither a server nor a pool gets one only at association: its
        // installer goes by the hint alone.
        for s in places_of(h, spec, servers) {
            let mine: Vec<DiskFacts> = disks
                .iter()
                .filter(|d| d.server_dn == s.dn)
                .map(|d: &InstallDisk| d.facts.clone())
                .collect();
            if mine.is_empty() {
                warnings.push(format!(
                    "{}: server {} reports no disks, so the plan cannot name its install disk",
                    h.name, s.id
                ));
                continue;
            }
            match install_disk::resolve(hint, &mine) {
                Ok(d) => {
                    warnings.extend(esxi_serial_caveat(h, hint, d, s, catalog));
                    let keeps = keeping(h, catalog, svc_dir);
                    out.push(host_disk(h, s, d, seen_besides(&mine), hint, keeps));
                }
                Err(r) => refused.push((format!("{} on server {}", h.name, s.id), r)),
            }
        }
    }
    if let Some((_, first)) = refused.first() {
        let code = first.code();
        let each: Vec<String> = refused
            .iter()
            .map(|(who, r)| format!("{who}: {r}"))
            .collect();
        return Err(Error::conflict(code, each.join(" ")));
    }
    Ok((out, warnings))
}

/// How many disks the installer sees besides the one it installs on: a virtual drive's members
/// are not seen (their virtual drive is counted instead).
fn seen_besides(disks: &[DiskFacts]) -> usize {
    disks
        .iter()
        .filter(|d| d.member_of.is_none())
        .count()
        .saturating_sub(1)
}

/// `409 install_disk_unsupported` naming every host whose installer cannot resolve a key of
/// its hint: guessing there would be installing on a disk the plan did not name.
fn refuse_unresolvable(spec: &DeploySpec, catalog: &Catalog, svc_dir: &Path) -> Result<()> {
    let mut each = Vec::new();
    for h in &spec.hosts {
        let Some(hint) = h.install_disk.as_ref().or(spec.group.install_disk.as_ref()) else {
            continue;
        };
        let Some(os) = catalog.get(&h.os) else {
            continue;
        };
        // An operator's ESXi ks replaces the disk program too; Windows' disk program is
        // always the default one (svc/<os>.tmpl replaces autounattend.xml only).
        if os.family == Family::Esxi && answers::overridden(svc_dir, &os.id) {
            continue;
        }
        if let Some(why) = unsupported(hint, os.family) {
            each.push(format!("{} ({}): {why}.", h.name, family_words(os.family)));
        }
    }
    if each.is_empty() {
        return Ok(());
    }
    Err(Error::conflict(
        bootsmith_model::ErrorCode::InstallDiskUnsupported,
        each.join(" "),
    ))
}

/// ESXi shows a disk's serial only inside a `t10.` device id; a disk with a WWN it names
/// `naa.<WWN>`, so a serial hint that the plan resolves to such a disk will not be found by
/// the installer. Said before the run, with the hint that would work.
fn esxi_serial_caveat(
    h: &Host,
    hint: Option<&InstallDiskHint>,
    d: &DiskFacts,
    s: &Server,
    catalog: &Catalog,
) -> Option<String> {
    let serial = hint?.serial()?;
    let wwn = d.wwn.as_deref()?;
    (catalog.get(&h.os)?.family == Family::Esxi).then(|| {
        format!(
            "{}: ESXi names disk {} of server {} by its WWN, where its serial does not show, so its installer will not find serial {serial} and will stop; give install_disk {{\"wwn\": \"{wwn}\"}} instead",
            h.name, d.slot, s.id
        )
    })
}

/// The servers host `h` may run on: its own, else every server of its group's pool.
pub(super) fn places_of<'s>(h: &Host, spec: &DeploySpec, servers: &'s [Server]) -> Vec<&'s Server> {
    match &h.server {
        Some(id) => servers.iter().filter(|s| s.id == *id).collect(),
        None => servers
            .iter()
            .filter(|s| spec.group.server_pool.contains(&s.id))
            .collect(),
    }
}

/// Whether a host's answer file keeps its installer to the plan's disk.
enum Keeping {
    /// The default answer file does: every other disk is untouched.
    Yes,
    /// The operator's `svc/<os>.tmpl` decides which disks it wipes.
    Override(String),
    /// The family's default answer file still chooses its own disk.
    NotYet(Family),
    /// The host's OS is not in the catalog (the plan refuses it elsewhere).
    Unknown,
}

fn keeping(h: &Host, catalog: &Catalog, svc_dir: &Path) -> Keeping {
    match catalog.get(&h.os) {
        None => Keeping::Unknown,
        Some(os) if answers::overridden(svc_dir, &os.id) => Keeping::Override(os.id.clone()),
        Some(os) if kept_to(os.family) => Keeping::Yes,
        Some(os) => Keeping::NotYet(os.family),
    }
}

fn host_disk(
    h: &Host,
    s: &Server,
    d: &DiskFacts,
    others: usize,
    hint: Option<&InstallDiskHint>,
    keeps: Keeping,
) -> HostDisk {
    let by = match hint {
        Some(_) => "",
        None => " (the default: the smallest local disk)",
    };
    let others_words = match others {
        0 => "no other disks".to_owned(),
        1 => "1 other disk".to_owned(),
        n => format!("{n} other disks"),
    };
    let (untouched, caveat) = match keeps {
        Keeping::Yes if others > 0 => (" untouched", String::new()),
        Keeping::Yes | Keeping::Unknown => ("", String::new()),
        Keeping::Override(os) => (
            "",
            format!("; svc/{os}.tmpl replaces the default answer file, and decides which disks it wipes"),
        ),
        Keeping::NotYet(f) => (
            "",
            format!(
                "; the {} answer file does not keep to it yet and may wipe other disks",
                family_words(f)
            ),
        ),
    };
    HostDisk {
        host: h.name.to_string(),
        server: s.id.to_string(),
        disk: d.clone(),
        others,
        line: format!(
            "{}: install disk {}{by} of server {} ({others_words}{untouched}){caveat}",
            h.name,
            install_disk::describe(d),
            s.id
        ),
    }
}

/// A family as the plan names it.
fn family_words(f: Family) -> &'static str {
    match f {
        Family::Rhel => "RHEL",
        Family::Rhvh => "RHV-H",
        Family::Esxi => "ESXi",
        Family::Ubuntu => "Ubuntu",
        Family::Windows => "Windows",
    }
}
