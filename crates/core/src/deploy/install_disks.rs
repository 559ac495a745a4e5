//! Which disk each host installs on, named in the plan before anything is written: the
//! host's install-disk hint (else its server group's, else the default rule) resolved
//! against the disks its server's manager reports. A host bound to a server is resolved on
//! it; one the pool places, on every server of the pool (any may get it). No match, or more
//! than one, refuses the run (`409 install_disk_not_found` / `install_disk_ambiguous`).

use serde::Serialize;
use utoipa::ToSchema;

use crate::error::{Error, Result};
use crate::managers::{DeploySpec, InstallDisk, Manager, Server};
use crate::records::hosts::Host;
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
    /// How many other disks the server has, untouched.
    pub others: usize,
    /// The plan's line: `kube01: install disk 480 GB Micron 5300, S/N 21033A4E, slot 1 of
    /// server 1/3 (2 other disks); …`, saying too that the answer files do not keep to it yet.
    pub line: String,
}

/// The disk of every host whose server is known, and warnings for what could not be
/// resolved here (a manager whose disks cannot be read, a server that reports none).
pub(super) async fn resolve(
    manager: &dyn Manager,
    spec: &DeploySpec,
) -> Result<(Vec<HostDisk>, Vec<String>)> {
    let servers = manager.servers().await?;
    let disks = match manager.install_disks().await {
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
        for s in places_of(h, spec, &servers) {
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
                Ok(d) => out.push(host_disk(h, s, d, mine.len() - 1, hint)),
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

/// The servers host `h` may run on: its own, else every server of its group's pool.
fn places_of<'s>(h: &Host, spec: &DeploySpec, servers: &'s [Server]) -> Vec<&'s Server> {
    match &h.server {
        Some(id) => servers.iter().filter(|s| s.id == *id).collect(),
        None => servers
            .iter()
            .filter(|s| spec.group.server_pool.contains(&s.id))
            .collect(),
    }
}

fn host_disk(
    h: &Host,
    s: &Server,
    d: &DiskFacts,
    others: usize,
    hint: Option<&InstallDiskHint>,
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
    HostDisk {
        host: h.name.to_string(),
        server: s.id.to_string(),
        disk: d.clone(),
        others,
        // Said until the answer files keep the installer on this disk: today they still
        // choose their own, and the RHEL family's wipes every disk but the answer disk.
        line: format!(
            "{}: install disk {}{by} of server {} ({others_words}); the answer file does not keep to it yet",
            h.name,
            install_disk::describe(d),
            s.id
        ),
    }
}
