//! What an OS family's default answer file cannot do, or does late, of a host's network, said
//! in the plan before anything is written: ESXi's standard vSwitch has no LACP and only two
//! ways to spread traffic, and its teaming, MTU, routes and IPv6 are set in `%firstboot`;
//! Windows sets everything past the address at the first logon, with LBFO's modes. The RHEL
//! family and Ubuntu take every setting as given (kickstart and netplan), so they say nothing.

use std::path::Path;

use bootsmith_model::catalog::{Catalog, Family};
use bootsmith_model::network::BondMode;

use super::nics::HostNics;
use crate::media::answers;
use crate::records::hosts::Host;
use crate::records::networks::NetworkGroup;

/// The plan's warnings for every one of `hosts` whose OS's default answer file (no
/// `svc/<os>.tmpl` of the operator's) leaves part of its network out or sets it late.
pub(super) fn warnings(
    hosts: &[Host],
    nets: &[NetworkGroup],
    catalog: &Catalog,
    svc_dir: &Path,
) -> Vec<String> {
    let mut out = Vec::new();
    for h in hosts {
        let Some(os) = catalog.get(&h.os) else {
            continue;
        };
        let Some(net) = nets.iter().find(|n| n.name == h.network_group) else {
            continue;
        };
        if !answers::overridden(svc_dir, &os.id) {
            out.extend(limits(os.family, h, net));
        }
    }
    out
}

/// The plan's warnings for host `h` of `family` on network group `net`, where the family's
/// default answer file is used (an operator's template decides for itself).
fn limits(family: Family, h: &Host, net: &NetworkGroup) -> Vec<String> {
    let bond = net.bond.as_ref().filter(|_| h.macs.len() > 1);
    let late = [
        (bond.is_some(), "the bond"),
        (net.mtu.is_some(), "the MTU"),
        (!net.routes.is_empty(), "the routes"),
        (h.ipv6.is_some(), "the IPv6 address"),
    ]
    .into_iter()
    .filter(|(set, _)| *set)
    .map(|(_, what)| what)
    .collect::<Vec<_>>();
    let name = &h.name;
    let mut out = Vec::new();
    match family {
        Family::Esxi => {
            if let Some(b) = bond {
                let mode = b.mode();
                let how = match mode {
                    BondMode::Lacp => Some("a standard vSwitch has no LACP: ESXi teams the NICs by IP hash, so the switch ports must be a static port channel, and the LACP rate is not used"),
                    BondMode::BalanceXor | BondMode::ActiveBackup => None,
                    BondMode::BalanceRr | BondMode::Broadcast | BondMode::BalanceTlb | BondMode::BalanceAlb => Some("ESXi has no such teaming: every NIC is active, chosen by originating port"),
                };
                if let Some(how) = how {
                    out.push(format!("{name}: bond mode {mode} on ESXi: {how}"));
                }
                if b.xmit_hash_policy().is_some() {
                    out.push(format!(
                        "{name}: ESXi hashes by IP address and port only, so the bond's xmit_hash_policy is not used"
                    ));
                }
            }
            if !late.is_empty() {
                out.push(format!(
                    "{name}: ESXi sets {} in %firstboot, after the install; %firstboot does not run where UEFI Secure Boot is on, so set those by hand there",
                    and_list(&late)
                ));
            }
        }
        Family::Windows => {
            if let Some(b) = bond {
                let mode = b.mode();
                if matches!(mode, BondMode::BalanceRr | BondMode::Broadcast) {
                    out.push(format!(
                        "{name}: Windows' LBFO teaming has no mode {mode}: the team is switch-independent"
                    ));
                }
            }
            let mut after = late;
            if net.vlan.is_some() {
                after.push("the VLAN");
            }
            if !after.is_empty() {
                out.push(format!(
                    "{name}: Windows Setup (WinPE) cannot set {}: they are set at the first logon, and until then the host is on its first NIC only{}",
                    and_list(&after),
                    if net.vlan.is_some() && bond.is_none() {
                        "; a VLAN without a bond needs a NIC driver that takes a VLAN id, else the install is reported failed"
                    } else {
                        ""
                    }
                ));
            }
        }
        Family::Rhel | Family::Rhvh | Family::Ubuntu => {}
    }
    out
}

/// A warning for each of `hosts` named in `single` (its server has one virtual-media device, so
/// its installer fetches its answer file over HTTP before any answer file has set up the
/// network) that will ask DHCP for that fetch: a RHEL-family host that names no MAC and whose
/// NIC inventory does not tell (`nics`), and every Ubuntu host (subiquity is not given a
/// static address at boot yet).
pub(super) fn dhcp_boots(
    hosts: &[Host],
    single: &[String],
    nics: &[HostNics],
    catalog: &Catalog,
) -> Vec<String> {
    let mut out = Vec::new();
    for h in hosts
        .iter()
        .filter(|h| single.iter().any(|s| s == h.name.as_str()))
    {
        let static_nic = !h.macs.is_empty()
            || nics
                .iter()
                .any(|n| n.host == h.name.as_str() && n.from_inventory);
        match catalog.get(&h.os).map(|o| o.family) {
            Some(Family::Rhel | Family::Rhvh) if !static_nic => out.push(format!(
                "{}: its server has one virtual-media device, so its installer fetches the kickstart over the network first, and with no MAC named and none from inventory it asks DHCP for an address to do so; name the host's macs to boot with its own address",
                h.name
            )),
            Some(Family::Ubuntu) => out.push(format!(
                "{}: its server has one virtual-media device, so its installer fetches the autoinstall over the network first, and Ubuntu's boot asks DHCP for an address to do so (Bootsmith gives a static boot address to the RHEL family only)",
                h.name
            )),
            _ => {}
        }
    }
    out
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bootsmith_model::types::{HostName, IpAddress, Name, NodeId};

    fn host(name: &str, os: &str) -> Host {
        Host {
            name: HostName::parse(name).unwrap(),
            ip: IpAddress::parse("192.0.2.21").unwrap(),
            os: os.into(),
            role: "generic".into(),
            network_group: Name::parse("mgmt").unwrap(),
            server_group: Some(Name::parse("sm").unwrap()),
            service_profile_template: None,
            server: Some(NodeId::parse("1").unwrap()),
            install_disk: None,
            macs: Vec::new(),
            ipv6: None,
            params: Default::default(),
        }
    }

    #[test]
    fn a_single_device_boot_that_would_ask_dhcp_is_said_and_no_other() {
        let catalog = Catalog::embedded().unwrap();
        let hosts = [
            host("rhel-inv", "rhel9.4"),
            host("rhel-dhcp", "rhel9.4"),
            host("ubu", "ubuntu24.04"),
            host("two-devices", "rhel9.4"),
        ];
        let single: Vec<String> = ["rhel-inv", "rhel-dhcp", "ubu"].map(String::from).to_vec();
        let nics = [HostNics {
            host: "rhel-inv".into(),
            server: "1".into(),
            nics: Vec::new(),
            from_inventory: true,
            line: String::new(),
        }];
        let said = dhcp_boots(&hosts, &single, &nics, &catalog);
        let who: Vec<&str> = said.iter().map(|w| w.split(':').next().unwrap()).collect();
        assert_eq!(who, ["rhel-dhcp", "ubu"], "{said:?}");
        assert!(said[0].contains("name the host's macs"), "{said:?}");
    }

    #[test]
    fn a_list_reads_as_words() {
        assert_eq!(and_list(&["the MTU"]), "the MTU");
        assert_eq!(and_list(&["a", "b"]), "a and b");
        assert_eq!(and_list(&["a", "b", "c"]), "a, b and c");
    }
}
