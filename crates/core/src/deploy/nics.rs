//! The NICs each host's network goes on, named in the plan before anything is written: the
//! host's `macs` found among its server's NICs (its own server, or each server of the pool),
//! or, where it names none, the first NIC with a link, with the server's NICs listed so the
//! operator can name them. A MAC the server does not list is a warning, not a refusal: on
//! UCS a service profile gives a server its vNICs' MACs only when it is associated.
//!
//! A host that names no MAC but has its own server takes that server's NIC from inventory: the
//! first the manager lists with its link up (UCS lists vNICs in their placement order, Redfish
//! its `EthernetInterfaces`). Its single-device boot then goes on that NIC with a static
//! address rather than asking DHCP.

use serde::Serialize;
use utoipa::ToSchema;

use super::install_disks::places_of;
use crate::error::Result;
use crate::managers::{DeploySpec, HostNic, Server};
use crate::records::hosts::Host;
use crate::records::networks::NetworkGroup;

/// One of a host's MACs, and the server's NIC that has it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct PlannedNic {
    /// The MAC, lower case with colons.
    pub mac: String,
    /// The server's name of the NIC with that MAC (`eth0`); none when the server lists no
    /// such NIC.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Whether its link is up, where the manager says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link_up: Option<bool>,
}

/// The NICs a host's network goes on, on one server it may run on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct HostNics {
    /// Host name.
    pub host: String,
    /// The server (`1/3`, `2`): the host's own, or one of its group's pool.
    pub server: String,
    /// The host's MACs with the server's NIC of each; where the host names none, the NIC
    /// inventory gives its own server (`from_inventory`), or nothing (its installer takes the
    /// first NIC with a link).
    pub nics: Vec<PlannedNic>,
    /// The host names no MAC and `nics` is its server's NIC as inventory tells it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub from_inventory: bool,
    /// The plan's line: `kube01: network on 00:25:b5:00:00:1a (eth0), 00:25:b5:00:00:1b
    /// (eth1) of server 1/3 as bond0 (802.3ad), VLAN 120, MTU 9000`.
    pub line: String,
}

/// The NICs of every host whose server is known, and warnings: MACs a server does not
/// list, several MACs without a bond, NICs that could not be read.
pub(super) fn resolve(
    spec: &DeploySpec,
    servers: &[Server],
    nics: Result<Vec<HostNic>>,
    nets: &[NetworkGroup],
) -> (Vec<HostNics>, Vec<String>) {
    let mut warnings = warnings(&spec.hosts, nets);
    let nics = match nics {
        Ok(read) => read,
        Err(e) => {
            warnings.push(format!(
                "The NICs of {}'s servers could not be read ({e}): the plan cannot check the hosts' MACs",
                spec.group.name
            ));
            return (Vec::new(), warnings);
        }
    };
    let mut out = Vec::new();
    for h in &spec.hosts {
        let net = nets.iter().find(|n| n.name == h.network_group);
        for s in places_of(h, spec, servers) {
            let mine: Vec<&HostNic> = nics.iter().filter(|n| n.server_dn == s.dn).collect();
            // Only a host's own server tells its NIC: a pool's servers are chosen later.
            let inventory = match (h.macs.is_empty(), &h.server) {
                (true, Some(_)) => inventory_nic(&mine),
                _ => None,
            };
            let planned: Vec<PlannedNic> = match inventory {
                Some(n) => vec![PlannedNic {
                    mac: n.mac.clone(),
                    name: Some(n.name.clone()),
                    link_up: n.link_up,
                }],
                None => h
                    .macs
                    .iter()
                    .map(|m| {
                        let mac = m.to_string();
                        let nic = mine.iter().find(|n| n.mac == mac);
                        PlannedNic {
                            name: nic.map(|n| n.name.clone()),
                            link_up: nic.and_then(|n| n.link_up),
                            mac,
                        }
                    })
                    .collect(),
            };
            let unknown: Vec<&str> = planned
                .iter()
                .filter(|p| p.name.is_none())
                .map(|p| p.mac.as_str())
                .collect();
            if !unknown.is_empty() {
                warnings.push(format!(
                    "{}: server {} lists no NIC with MAC {} (its NICs: {}); the installer stops there unless the server has that MAC by then (a UCS service profile's vNIC)",
                    h.name,
                    s.id,
                    unknown.join(", "),
                    listed(&mine)
                ));
            }
            out.push(HostNics {
                line: line(h, &s.id.to_string(), &planned, &mine, net),
                host: h.name.to_string(),
                server: s.id.to_string(),
                nics: planned,
                from_inventory: inventory.is_some(),
            });
        }
    }
    (out, warnings)
}

/// The plan's line for host `h` on server `server`.
fn line(
    h: &Host,
    server: &str,
    planned: &[PlannedNic],
    listed_nics: &[&HostNic],
    net: Option<&NetworkGroup>,
) -> String {
    let mut extras = Vec::new();
    let bonded = planned.len() > 1 && net.is_some_and(|n| n.bond.is_some());
    if let Some(b) = net.and_then(|n| n.bond.as_ref()).filter(|_| bonded) {
        extras.push(format!("as bond0 ({})", b.mode()));
    }
    if let Some(v) = net.and_then(|n| n.vlan.as_ref()) {
        extras.push(format!("VLAN {v}"));
    }
    if let Some(m) = net.and_then(|n| n.mtu) {
        extras.push(format!("MTU {}", m.get()));
    }
    let extras = if extras.is_empty() {
        String::new()
    } else {
        format!(" {}", extras.join(", "))
    };
    if h.macs.is_empty() {
        let by_inventory = match planned.first() {
            Some(p) => format!(
                ", by inventory {} {}",
                p.name.as_deref().unwrap_or_default(),
                p.mac
            ),
            None => String::new(),
        };
        return format!(
            "{}: network on the first NIC with a link of server {server} (the host names no MAC){by_inventory}{extras}; its NICs: {}",
            h.name,
            listed(listed_nics)
        );
    }
    let used = if bonded { planned } else { &planned[..1] };
    let nics: Vec<String> = used
        .iter()
        .map(|p| match &p.name {
            Some(n) => format!("{} ({n})", p.mac),
            None => format!("{} (not listed)", p.mac),
        })
        .collect();
    format!(
        "{}: network on {} of server {server}{extras}",
        h.name,
        nics.join(", ")
    )
}

/// The NIC a host that names no MAC installs over, as inventory tells it: the first listed
/// with its link up. None where no NIC says its link is up: the first listed could be an
/// unplugged port, and a boot on it would never reach Bootsmith, so the installer's own rule
/// stands.
fn inventory_nic<'n>(nics: &[&'n HostNic]) -> Option<&'n HostNic> {
    nics.iter().find(|n| n.link_up == Some(true)).copied()
}

/// A server's NICs in words: `eth0 00:25:b5:00:13:01 (link up), eth1 …`.
fn listed(nics: &[&HostNic]) -> String {
    if nics.is_empty() {
        return "none listed".into();
    }
    nics.iter()
        .map(|n| {
            let link = match n.link_up {
                Some(true) => " (link up)",
                Some(false) => " (link down)",
                None => "",
            };
            format!("{} {}{link}", n.name, n.mac)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A warning for each of `hosts` whose MACs make no bond: two or more, but its network group
/// (among `nets`) has no `bond`.
fn warnings(hosts: &[Host], nets: &[NetworkGroup]) -> Vec<String> {
    hosts
        .iter()
        .filter(|h| h.macs.len() > 1)
        .filter(|h| {
            nets.iter()
                .find(|n| n.name == h.network_group)
                .is_some_and(|n| n.bond.is_none())
        })
        .map(|h| {
            format!(
                "{}: names {} MACs, but its network group {} has no bond, so it installs over the first only ({}); give the network group a bond to use them all",
                h.name,
                h.macs.len(),
                h.network_group,
                h.macs[0]
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nic(name: &str, link_up: Option<bool>) -> HostNic {
        HostNic {
            server_dn: "sys/rack-unit-1".into(),
            name: name.into(),
            mac: format!("00:25:b5:00:00:{:02x}", name.len()),
            link_up,
        }
    }

    #[test]
    fn inventory_gives_the_first_nic_with_its_link_up() {
        let (a, b, c) = (
            nic("eth0", Some(false)),
            nic("eth1", Some(true)),
            nic("eth2", Some(true)),
        );
        assert_eq!(
            inventory_nic(&[&a, &b, &c]).map(|n| &n.name[..]),
            Some("eth1")
        );
    }

    #[test]
    fn without_a_link_known_up_inventory_tells_no_nic() {
        // A manager that says no link state: the first listed may be an unplugged port.
        let (a, b) = (nic("eth0", None), nic("eth1", None));
        assert_eq!(inventory_nic(&[&a, &b]), None);
        let (c, d) = (nic("eth0", Some(false)), nic("eth1", None));
        assert_eq!(inventory_nic(&[&c, &d]), None);
        assert_eq!(inventory_nic(&[]), None);
    }
}
