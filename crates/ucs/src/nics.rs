//! The host NICs of every server's adapters, with their MACs: what a host's network is
//! matched to when its answer file names NICs by MAC.

use crate::endpoint::{Endpoint, Kind};
use crate::error::Result;

/// One host-facing NIC of an adapter.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HostNic {
    /// Its DN.
    pub dn: String,
    /// DN of the server whose adapter it is on.
    pub server_dn: String,
    /// Its name on the adapter (`eth0`).
    pub name: String,
    /// Its MAC, upper case with colons (`00:25:B5:00:13:01`).
    pub mac: String,
    /// Where the server's firmware lists it (UCS Manager's `order`), lowest first.
    pub order: Option<u32>,
    /// Whether its link is up, where the manager says.
    pub link_up: Option<bool>,
}

/// The server DN a NIC's DN belongs to (`…/blade-3/adaptor-1/host-eth-1` → `…/blade-3`).
pub fn server_of_nic(dn: &str) -> &str {
    dn.find("/adaptor-").map_or(dn, |i| &dn[..i])
}

impl Endpoint {
    /// Every host NIC of every server, in one request, ordered by server then NIC order.
    pub async fn host_nics(&self) -> Result<Vec<HostNic>> {
        let mos = self.resolve_class("adaptorHostEthIf", None).await?;
        let imc = self.kind() == Kind::Imc;
        let mut nics: Vec<HostNic> = mos
            .iter()
            .filter(|m| !m.get("mac").is_empty() && m.get("mac") != "0")
            .map(|m| HostNic {
                dn: m.get("dn").to_owned(),
                server_dn: server_of_nic(m.get("dn")).to_owned(),
                name: m.get("name").to_owned(),
                mac: m.get("mac").to_ascii_uppercase(),
                order: m.get("order").parse().ok(),
                // An IMC's host NICs say nothing of their link.
                link_up: match (imc, m.get("linkState")) {
                    (true, _) | (false, "") => None,
                    (false, state) => Some(state == "up"),
                },
            })
            .collect();
        nics.sort_by(|a, b| {
            (
                a.server_dn.as_str(),
                a.order.unwrap_or(u32::MAX),
                a.name.as_str(),
            )
                .cmp(&(
                    b.server_dn.as_str(),
                    b.order.unwrap_or(u32::MAX),
                    b.name.as_str(),
                ))
        });
        Ok(nics)
    }
}
