//! Local disks, the RAID virtual drives built from them, and the disks' reset to
//! unconfigured-good.

use crate::endpoint::{Endpoint, Kind};
use crate::error::Result;
use crate::xml::Mo;

/// One local disk.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LocalDisk {
    /// Its DN.
    pub dn: String,
    /// DN of the server it belongs to.
    pub server_dn: String,
    /// Disk id on its controller.
    pub id: String,
    /// State: `online`, `jbod`, `unconfigured-good`, … (IMC: `Online`, `JBOD`, …).
    pub state: String,
    /// Model.
    pub model: String,
    /// Size as reported (MB on UCSM, text on IMC).
    pub size: String,
    /// Vendor (`SEAGATE`), where reported.
    pub vendor: String,
    /// Serial number, where reported.
    pub serial: String,
    /// `HDD` or `SSD` (`deviceType`; IMC `mediaType`), or empty/`unspecified`.
    pub media: String,
    /// `SAS`, `SATA` or `NVME` (`connectionProtocol`; IMC `interfaceType`).
    pub protocol: String,
    /// A FlexFlash SD card, not a disk on a storage controller (never reset, never an
    /// install disk unless the operator names it).
    pub sd_card: bool,
}

impl LocalDisk {
    /// The size in bytes: UCS counts in MiB, without a unit on UCS Manager and with `MB` on
    /// an IMC; `not-applicable` and `unknown` give none.
    pub fn size_bytes(&self) -> Option<u64> {
        mib_bytes(&self.size)
    }

    /// Spinning (HDD), solid state (SSD), or unknown.
    pub fn rotational(&self) -> Option<bool> {
        match self.media.to_ascii_uppercase().as_str() {
            "HDD" => Some(true),
            "SSD" => Some(false),
            _ => None,
        }
    }
}

/// A size UCS reports in MiB (`457862` on UCS Manager, `457862 MB` on an IMC) in bytes;
/// `not-applicable` and `unknown` give none.
fn mib_bytes(size: &str) -> Option<u64> {
    let number = size.trim().trim_end_matches("MB").trim();
    number.parse::<u64>().ok()?.checked_mul(1024 * 1024)
}

/// One RAID virtual drive of a storage controller: the disk the installed system sees in place
/// of its member disks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VirtualDrive {
    /// Its DN (`…/storage-SAS-1/vd-0`).
    pub dn: String,
    /// DN of the server it belongs to.
    pub server_dn: String,
    /// Its id on the controller.
    pub id: String,
    /// The name it was given, where any.
    pub name: String,
    /// Its RAID layout as the manager words it: UCS Manager's `type` (`mirror`, `stripe`, …),
    /// an IMC's `raidLevel` (`1`, `RAID 1`).
    pub raid: String,
    /// Size as reported (MB on UCS Manager, text on IMC).
    pub size: String,
    /// Blocks and block size, where reported: the exact size.
    pub blocks: Option<(u64, u64)>,
    /// `driveState` (`optimal`, `degraded`; IMC `Optimal`).
    pub state: String,
    /// The DNs of its member disks.
    pub members: Vec<String>,
}

impl VirtualDrive {
    /// The size in bytes: blocks times block size where reported, else the MiB it reports.
    pub fn size_bytes(&self) -> Option<u64> {
        match self.blocks {
            Some((n, size)) => n.checked_mul(size),
            None => mib_bytes(&self.size),
        }
    }
}

/// The server DN a component DN belongs to (`…/blade-3/board/…` → `…/blade-3`).
pub fn server_of(dn: &str) -> &str {
    match dn.find("/board/").or_else(|| dn.find("/board")) {
        Some(i) => &dn[..i],
        None => dn,
    }
}

impl Endpoint {
    /// Every local disk of every server, in one request.
    pub async fn local_disks(&self) -> Result<Vec<LocalDisk>> {
        let mos = self.resolve_class("storageLocalDisk", None).await?;
        let imc = self.kind() == Kind::Imc;
        let mut disks: Vec<LocalDisk> = mos
            .iter()
            .map(|m| LocalDisk {
                dn: m.get("dn").to_owned(),
                server_dn: server_of(m.get("dn")).to_owned(),
                id: m.get("id").to_owned(),
                state: m.get(if imc { "pdState" } else { "diskState" }).to_owned(),
                model: m.get(if imc { "productId" } else { "model" }).to_owned(),
                size: m.get(if imc { "coercedSize" } else { "size" }).to_owned(),
                vendor: m.get("vendor").trim().to_owned(),
                serial: m
                    .get(if imc { "driveSerialNumber" } else { "serial" })
                    .trim()
                    .to_owned(),
                media: m
                    .get(if imc { "mediaType" } else { "deviceType" })
                    .to_owned(),
                protocol: m
                    .get(if imc {
                        "interfaceType"
                    } else {
                        "connectionProtocol"
                    })
                    .to_owned(),
                sd_card: false,
            })
            .collect();
        disks.sort_by(|a, b| a.dn.cmp(&b.dn));
        Ok(disks)
    }

    /// Every RAID virtual drive of every server, each with its member disks' DNs: UCS Manager
    /// and Central list members as `storageVDMemberEp` (`member-<disk id>`), an IMC as
    /// `storageLocalDiskUsage` (`pd-<disk id>`) and in the drive's `physicalDrivesList`.
    pub async fn virtual_drives(&self) -> Result<Vec<VirtualDrive>> {
        let imc = self.kind() == Kind::Imc;
        let (member_class, disk_rn) = if imc {
            ("storageLocalDiskUsage", "pd-")
        } else {
            ("storageVDMemberEp", "disk-")
        };
        let (drives, members) = tokio::try_join!(
            self.resolve_class("storageVirtualDrive", None),
            self.resolve_class(member_class, None)
        )?;
        let mut out: Vec<VirtualDrive> = drives
            .iter()
            .map(|m| {
                let dn = m.get("dn");
                let controller = dn.rsplit_once('/').map_or("", |(c, _)| c);
                let disk = |id: &str| format!("{controller}/{disk_rn}{}", id.trim());
                let mut ids: Vec<String> = members
                    .iter()
                    .filter_map(|e| e.get("dn").strip_prefix(dn)?.strip_prefix('/'))
                    .filter_map(|rn| rn.strip_prefix(if imc { "pd-" } else { "member-" }))
                    .map(disk)
                    .collect();
                ids.extend(
                    m.get("physicalDrivesList")
                        .split(',')
                        .filter(|id| !id.trim().is_empty())
                        .map(disk),
                );
                ids.sort();
                ids.dedup();
                let number = |k: &str| m.get(k).trim().parse::<u64>().ok();
                VirtualDrive {
                    dn: dn.to_owned(),
                    server_dn: server_of(dn).to_owned(),
                    id: m.get("id").to_owned(),
                    name: m.get("name").trim().to_owned(),
                    raid: m.get(if imc { "raidLevel" } else { "type" }).to_owned(),
                    size: m.get("size").to_owned(),
                    blocks: number("numberOfBlocks").zip(number("blockSize")),
                    state: m.get("driveState").to_owned(),
                    members: ids,
                }
            })
            .collect();
        out.sort_by(|a, b| a.dn.cmp(&b.dn));
        Ok(out)
    }

    /// Every FlexFlash SD card of every server, in one request (UCS Manager and Central:
    /// `storageFlexFlashCard`; an IMC: `storageFlexFlashPhysicalDrive`).
    pub async fn sd_cards(&self) -> Result<Vec<LocalDisk>> {
        let imc = self.kind() == Kind::Imc;
        let class = if imc {
            "storageFlexFlashPhysicalDrive"
        } else {
            "storageFlexFlashCard"
        };
        let mos = self.resolve_class(class, None).await?;
        let pick = |ucs: &str, on_imc: &str| if imc { on_imc } else { ucs }.to_owned();
        let mut cards: Vec<LocalDisk> = mos
            .iter()
            .map(|m| LocalDisk {
                dn: m.get("dn").to_owned(),
                server_dn: server_of(m.get("dn")).to_owned(),
                id: m.get(&pick("slotNumber", "physicalDriveId")).to_owned(),
                state: m.get(&pick("cardState", "cardStatus")).to_owned(),
                model: m.get(&pick("model", "productName")).to_owned(),
                size: m.get(&pick("size", "capacity")).to_owned(),
                vendor: m.get("vendor").trim().to_owned(),
                serial: m.get(&pick("serial", "serialNumber")).trim().to_owned(),
                media: String::new(),
                protocol: String::new(),
                sd_card: true,
            })
            .collect();
        cards.sort_by(|a, b| a.dn.cmp(&b.dn));
        Ok(cards)
    }

    /// Set every given disk to unconfigured-good: one transaction on UCS Manager and UCS
    /// Central, one request per disk on an IMC (see [`Endpoint::configure`]).
    pub async fn reset_disks(&self, disks: &[&LocalDisk]) -> Result<()> {
        let objects = disks
            .iter()
            .map(|d| match self.kind() {
                Kind::Ucsm => Mo::new("storageLocalDisk")
                    .with("dn", d.dn.as_str())
                    .with("adminAction", "unconfigured-good"),
                Kind::Imc => Mo::new("storageLocalDisk")
                    .with("dn", d.dn.as_str())
                    .with("adminAction", "make-unconfigured-good"),
                // Central lets nobody write a disk itself (Get only); its operation object is
                // how a disk is changed, written the way the earlier tool did on a real Central.
                Kind::Ucsc => Mo::new("storageLocalDiskOperation")
                    .with("dn", format!("{}/remote-oper", d.dn))
                    .with("lc", "unconfigured-good")
                    .with("status", "created,modified"),
            })
            .collect();
        self.configure(objects).await.map(|_| ())
    }
}
