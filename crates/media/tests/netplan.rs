//! Ubuntu's network section passes netplan's own parser: `netplan generate` (Debian's
//! netplan.io) turns the `network:` of every rendered user-data into systemd-networkd files,
//! for a matrix of hosts (the first NIC with a link; one NIC by MAC; a bond of two with VLAN
//! and MTU; routes and IPv6), and those files say what the host's records say. The whole
//! user-data is read as YAML too, and its storage names the one disk the early-commands pick.

mod answer_vars;

use std::path::Path;
use std::process::Command;

use bootsmith_media::templates::{render, BondVars, Family, Vars};
use bootsmith_sim::fixture;
use saphyr::{LoadableYamlNode, Yaml};

const NIC1: &str = "52:54:00:12:34:01";
const NIC2: &str = "52:54:00:12:34:02";

fn ubuntu() -> Vars {
    answer_vars::vars("ubuntu24.04", "ubuntu", "24.04", 24)
}

/// The `network:` mapping of the user-data, as a netplan file of its own.
fn netplan_file(user_data: &str) -> String {
    let start = user_data.find("\n  network:\n").expect("a network section") + 1;
    let rest = &user_data[start..];
    // The section ends at the next key of `autoinstall` (two spaces, then a letter).
    let end = rest[1..]
        .find("\n  ")
        .map(|_| {
            rest.match_indices('\n')
                .map(|(i, _)| i)
                .find(|&i| {
                    let line = &rest[i + 1..];
                    line.starts_with("  ")
                        && line.as_bytes().get(2).is_some_and(u8::is_ascii_alphabetic)
                })
                .unwrap_or(rest.len())
        })
        .unwrap();
    rest[..end]
        .lines()
        .map(|l| l.strip_prefix("  ").unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// `netplan generate` on `file`: the networkd files it wrote, by name, with their text.
fn generate(root: &Path, file: &str) -> Vec<(String, String)> {
    std::fs::create_dir_all(root.join("etc/netplan")).unwrap();
    let conf = root.join("etc/netplan/50-bootsmith.yaml");
    std::fs::write(&conf, file).unwrap();
    std::os::unix::fs::PermissionsExt::set_mode(
        &mut std::fs::metadata(&conf).unwrap().permissions(),
        0o600,
    );
    let o = Command::new("netplan")
        .arg("generate")
        .arg("--root-dir")
        .arg(root)
        .output()
        .expect("netplan runs");
    assert!(
        o.status.success(),
        "netplan generate refused:\n{file}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let dir = root.join("run/systemd/network");
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("netplan wrote nothing in {}: {e}", dir.display()))
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read_to_string(e.path()).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

fn netplan() -> bool {
    let found = Command::new("netplan").arg("--help").output().is_ok();
    if !found {
        fixture::missing(
            &fixture::test_name(),
            "netplan (Debian's netplan.io)",
            "Run scripts/setup.sh (or apt-get install netplan.io).",
        );
    }
    found
}

/// Render `v`'s user-data, check it is YAML whose storage takes the picked disk only, and
/// generate its network: the networkd files, all their text joined.
fn networkd(v: &Vars) -> String {
    let files = render(Family::Ubuntu, v, None).unwrap();
    let user_data = String::from_utf8(files[0].contents.clone()).unwrap();
    let docs = Yaml::load_from_str(&user_data).unwrap_or_else(|e| panic!("{e}\n{user_data}"));
    let auto = &docs[0]["autoinstall"];
    assert_eq!(
        auto["storage"]["layout"]["match"]["path"].as_str(),
        Some("/dev/BOOTSMITH_INSTALL_DISK"),
        "{user_data}"
    );
    let early = auto["early-commands"][0].as_str().unwrap();
    assert!(
        early.contains("sed -i \"s|/dev/BOOTSMITH_INSTALL_DISK|/dev/$disk|\" /autoinstall.yaml")
            && early.contains("\nBOOTSMITH_DISK\n"),
        "{early}"
    );
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path(), &netplan_file(&user_data))
        .into_iter()
        .map(|(name, text)| format!("## {name}\n{text}"))
        .collect()
}

#[test]
fn without_macs_the_first_nic_with_a_link_gets_the_address() {
    if !netplan() {
        return;
    }
    let mut v = ubuntu();
    v.network.vlan = None;
    let out = networkd(&v);
    assert!(out.contains("Name=en*"), "{out}");
    assert!(
        out.contains("Address=192.0.2.21/24") && out.contains("Gateway=192.0.2.1"),
        "{out}"
    );
    assert!(out.contains("DNS=192.0.2.53"), "{out}");
}

#[test]
fn one_mac_is_that_nic_with_its_mtu_routes_and_ipv6() {
    if !netplan() {
        return;
    }
    let mut v = ubuntu();
    v.network.vlan = None;
    v.host.macs = vec![NIC2.into()];
    v.network.mtu = Some(9000);
    v.host.ipv6 = Some("2001:db8::21/64".into());
    v.network.ipv6_gateway = Some("2001:db8::1".into());
    v.network.routes = vec![answer_vars::route("10.0.0.0/8", "192.0.2.1")];
    let out = networkd(&v);
    assert!(out.contains(&format!("MACAddress={NIC2}")), "{out}");
    assert!(out.contains("MTUBytes=9000"), "{out}");
    assert!(
        out.contains("Address=2001:db8::21/64") && out.contains("Gateway=2001:db8::1"),
        "{out}"
    );
    assert!(
        out.contains("Destination=10.0.0.0/8") && out.contains("Gateway=192.0.2.1"),
        "{out}"
    );
    assert!(!out.contains("Name=en*"), "no wildcard NIC: {out}");
}

#[test]
fn two_macs_are_the_bond_of_the_network_and_the_vlan_rides_on_it() {
    if !netplan() {
        return;
    }
    let mut v = ubuntu();
    v.host.macs = vec![NIC1.into(), NIC2.into()];
    v.network.mtu = Some(9000);
    v.network.bond = Some(BondVars {
        mode: "802.3ad".into(),
        lacp_rate: Some("fast".into()),
        xmit_hash_policy: Some("layer3+4".into()),
        opts: "mode=802.3ad,miimon=100,lacp_rate=fast,xmit_hash_policy=layer3+4".into(),
    });
    let out = networkd(&v);
    for want in [
        &format!("MACAddress={NIC1}")[..],
        &format!("MACAddress={NIC2}"),
        "Bond=bond0",
        "Kind=bond",
        "Mode=802.3ad",
        "LACPTransmitRate=fast",
        "TransmitHashPolicy=layer3+4",
        "MIIMonitorSec=100ms",
        "Kind=vlan",
        "Id=30",
        "VLAN=vlan30",
        "Address=192.0.2.21/24",
    ] {
        assert!(out.contains(want), "{want}: {out}");
    }
    // The address is on the VLAN, not on the bond or its ports.
    let vlan = out
        .split("## ")
        .find(|f| f.starts_with("10-netplan-vlan30.network"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(vlan.contains("Address=192.0.2.21/24"), "{vlan}");
}
