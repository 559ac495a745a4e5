//! A server's disks: listing them per server (drives, the RAID virtual drives built from them,
//! SAN boot LUNs), and resetting its drives to unconfigured-good with a bounded wait for the
//! manager to report it.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde::Serialize;
use utoipa::ToSchema;

use crate::app::App;
use crate::error::Result;
use crate::managers::{Capability, Disk, Server};
use bootsmith_model::install_disk::{DiskKind, RaidLevel, Transport};

use super::{by_server, connect, ours, refuse_foreign, refuse_unreachable, select, SelectorBody};

/// How long a disk reset may take before we answer with the state as it is.
pub const DISK_RESET_WAIT: Duration = Duration::from_secs(60);

/// One disk of a server: a drive, a RAID virtual drive, or a SAN boot LUN.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DiskRecord {
    /// Disk id on its controller (`vd-0` for a virtual drive, `LUN 0 via <target WWPN>
    /// (primary)` for a SAN boot LUN).
    pub id: String,
    /// DN.
    pub dn: String,
    /// The disk's state as the manager words it: an open set, examples: `online`, `jbod`,
    /// `unconfigured-good`.
    pub state: String,
    /// Model.
    pub model: String,
    /// Size as the manager reports it.
    pub size: String,
    /// Size in bytes, where the manager's size reads as one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size_bytes: Option<u64>,
    /// Vendor, where reported.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vendor: Option<String>,
    /// Serial number, where reported: what an install-disk hint names one disk by.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub serial: Option<String>,
    /// World-wide name, where reported.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wwn: Option<String>,
    /// Spinning (true) or solid state (false), where reported.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rotational: Option<bool>,
    /// How it reaches the server: `local`, `remote` (a SAN LUN), `usb` or `sd_card`.
    pub transport: Transport,
    /// A drive, or a virtual drive its RAID controller presents.
    pub kind: DiskKind,
    /// A virtual drive's RAID level, where the manager says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raid: Option<RaidLevel>,
    /// The id of the virtual drive this drive is a member of: the installed system sees that,
    /// not this drive.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub member_of: Option<String>,
}

/// Disks per server id.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct Disks {
    /// By blade id.
    pub blades: BTreeMap<String, Vec<DiskRecord>>,
    /// By rack server id.
    pub rack_servers: BTreeMap<String, Vec<DiskRecord>>,
    /// Servers of a domain their central manager cannot reach now: their disks are as it
    /// last knew them, and nothing was sent to them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unreachable: Vec<String>,
}

fn disks_of(servers: &[&Server], disks: &[Disk]) -> Disks {
    let by = by_server(
        servers,
        disks,
        |d| &d.server_dn,
        |d| DiskRecord {
            id: d.id.clone(),
            dn: d.dn.clone(),
            state: d.state.clone(),
            model: d.model.clone(),
            size: d.size.clone(),
            size_bytes: d.facts.size_bytes,
            vendor: d.facts.vendor.clone(),
            serial: d.facts.serial.clone(),
            wwn: d.facts.wwn.clone(),
            rotational: d.facts.rotational,
            transport: d.facts.transport,
            kind: d.facts.kind,
            raid: d.facts.raid,
            member_of: d.facts.member_of.clone(),
        },
    );
    Disks {
        blades: by.blades,
        rack_servers: by.rack_servers,
        unreachable: by.unreachable,
    }
}

/// The disks of the selected servers: drives, virtual drives and SAN boot LUNs.
pub async fn disks(app: &App, group: &str, which: Option<SelectorBody>) -> Result<Disks> {
    let (g, m) = connect(app, group, Capability::Disks).await?;
    let servers = m.servers().await?;
    let picked = select(&g, &servers, which)?;
    Ok(disks_of(&picked, &m.disks().await?))
}

/// Reset every disk of the selected servers to unconfigured-good, wait until the manager reports
/// it (up to [`DISK_RESET_WAIT`]), and answer with the disks' state then.
pub async fn reset_disks(app: &App, group: &str, which: Option<SelectorBody>) -> Result<Disks> {
    let (g, m) = connect(app, group, Capability::DiskReset).await?;
    let servers = m.servers().await?;
    let force = which.as_ref().is_some_and(|w| w.force);
    let picked = select(&g, &servers, which)?;
    refuse_unreachable(group, &picked, "reset the disks of its servers")?;
    refuse_foreign(
        group,
        &picked,
        &ours(app).await?,
        "reset the disks of",
        force,
    )?;
    let all = m.disks().await?;
    let targets: Vec<&Disk> = all
        .iter()
        .filter(|d| {
            d.resettable()
                && picked.iter().any(|s| s.dn == d.server_dn)
                && !d.is_unconfigured_good()
        })
        .collect();
    if !targets.is_empty() {
        m.reset_disks(&targets).await?;
        tracing::info!(group, disks = targets.len(), "disk reset sent");
    }
    let dns: Vec<String> = targets.iter().map(|d| d.dn.clone()).collect();
    let deadline = Instant::now() + DISK_RESET_WAIT;
    loop {
        let now = m.disks().await?;
        let done = now
            .iter()
            .filter(|d| dns.contains(&d.dn))
            .all(Disk::is_unconfigured_good);
        if done || Instant::now() >= deadline {
            if !done {
                tracing::warn!(
                    group,
                    "disk reset still in progress after {} s",
                    DISK_RESET_WAIT.as_secs()
                );
            }
            return Ok(disks_of(&picked, &now));
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
}
