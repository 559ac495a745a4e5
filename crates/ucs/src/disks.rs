//! Local disks and their reset to unconfigured-good.

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
        let number = self.size.trim().trim_end_matches("MB").trim();
        number.parse::<u64>().ok()?.checked_mul(1024 * 1024)
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
