//! Local disks and their reset to unconfigured-good.

use crate::endpoint::{Endpoint, Kind};
use crate::error::Result;
use crate::xml::Mo;

/// One local disk.
#[derive(Debug, Clone, PartialEq, Eq)]
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
            })
            .collect();
        disks.sort_by(|a, b| a.dn.cmp(&b.dn));
        Ok(disks)
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
