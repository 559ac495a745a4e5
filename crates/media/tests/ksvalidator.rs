//! Every kickstart Bootsmith makes passes the installer's own parser: pykickstart's
//! `ksvalidator` (from PyPI, `scripts/pykickstart-venv.sh`) with the syntax of the OS's
//! release, for every RHEL-family entry of the catalog and a matrix of hosts (install-disk
//! hints; one NIC by MAC, a bond, VLAN and MTU, routes, IPv6). Each file is checked twice:
//! as rendered (with its `%include`s), and as Anaconda reads it after `%pre`: the `%pre` runs
//! under bash on a machine laid out in a directory (two NICs, two disks) and the files it
//! writes replace the `%include` lines.

mod answer_vars;
mod fake_sys;

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::process::Command;

use bootsmith_media::install_disk::DiskVars;
use bootsmith_media::templates::{render, BondVars, Family, Vars};
use bootsmith_model::catalog::{Catalog, OsEntry};
use bootsmith_model::install_disk::InstallDiskHint;
use bootsmith_sim::fixture;
use serde_json::{json, Value};

/// `ksvalidator`: `BOOTSMITH_KSVALIDATOR` when set (and then it must work), else the venv of
/// `scripts/pykickstart-venv.sh`.
fn ksvalidator() -> Option<PathBuf> {
    let explicit = std::env::var("BOOTSMITH_KSVALIDATOR")
        .ok()
        .map(PathBuf::from);
    let path = explicit.clone().or_else(|| {
        let home = std::env::var("HOME").ok()?;
        Some(PathBuf::from(home).join(".cache/bootsmith/pykickstart-venv/bin/ksvalidator"))
    })?;
    let works = Command::new(&path)
        .arg("-l")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("RHEL9"));
    assert!(
        works || explicit.is_none(),
        "BOOTSMITH_KSVALIDATOR={} does not run: run scripts/pykickstart-venv.sh",
        path.display()
    );
    works.then_some(path)
}

/// The syntax version ksvalidator checks an OS against: its RHEL release (RHV-H 4 is built on
/// RHEL 7).
fn syntax(family: Family, major: u32) -> String {
    match family {
        Family::Rhvh => "RHEL7".into(),
        _ => format!("RHEL{major}"),
    }
}

/// A host of the matrix: its install-disk hint, MACs and network settings.
#[derive(Clone, Copy)]
struct Case {
    name: &'static str,
    hint: Option<&'static str>,
    macs: &'static [&'static str],
    bond: Option<&'static str>,
    vlan: Option<&'static str>,
    mtu: Option<u16>,
    routes: &'static [(&'static str, &'static str)],
    ipv6: Option<(&'static str, &'static str)>,
}

const NIC1: &str = "52:54:00:12:34:01";
const NIC2: &str = "52:54:00:12:34:02";

const PLAIN: Case = Case {
    name: "default",
    hint: None,
    macs: &[],
    bond: None,
    vlan: None,
    mtu: None,
    routes: &[],
    ipv6: None,
};

/// The matrix, with what each case's `%pre` must write: (case, lines the network and disk
/// files must hold).
fn cases() -> Vec<(Case, &'static [&'static str])> {
    vec![
        (PLAIN, &["--device=link ", "ignoredisk --only-use=sdb"]),
        (
            Case { name: "serial-one-nic", hint: Some(r#"{"serial": "21033A4E"}"#), macs: &[NIC2], ..PLAIN },
            &["--device=ens4 ", "ignoredisk --only-use=sdb"],
        ),
        (
            Case {
                name: "size-range-lacp-bond",
                hint: Some(r#"{"size_gb": {"min": 400, "max": 500}, "rotational": false}"#),
                macs: &[NIC1, NIC2],
                bond: Some("mode=802.3ad,miimon=100,lacp_rate=fast,xmit_hash_policy=layer3+4"),
                ..PLAIN
            },
            &[
                "--device=bond0 --bondslaves=ens3,ens4 --bondopts=mode=802.3ad,miimon=100,lacp_rate=fast,xmit_hash_policy=layer3+4 ",
                "ignoredisk --only-use=sdb",
            ],
        ),
        (
            Case {
                name: "wwn-vlan-mtu",
                hint: Some(r#"{"wwn": "0x5000c500a1b2c3d4", "model": "ST1000NX0423"}"#),
                macs: &[NIC1],
                vlan: Some("30"),
                mtu: Some(9000),
                ..PLAIN
            },
            &["--device=ens3 ", " --vlanid=30 --mtu=9000 ", "ignoredisk --only-use=sdc"],
        ),
        (
            Case {
                name: "routes",
                macs: &[NIC1],
                routes: &[("10.0.0.0/8", "192.0.2.1"), ("2001:db8:100::/48", "2001:db8::1")],
                ..PLAIN
            },
            &["--device=ens3 "],
        ),
        (
            Case { name: "ipv6", ipv6: Some(("2001:db8::21/64", "2001:db8::1")), ..PLAIN },
            &[" --ipv6=2001:db8::21/64 --ipv6gateway=2001:db8::1 "],
        ),
        (
            Case {
                name: "everything",
                hint: Some(r#"{"serial": "ZBS1A2B3"}"#),
                macs: &[NIC1, NIC2],
                bond: Some("mode=active-backup,miimon=100"),
                vlan: Some("30"),
                mtu: Some(9000),
                routes: &[("10.0.0.0/8", "192.0.2.1")],
                ipv6: Some(("2001:db8::21/64", "2001:db8::1")),
            },
            &[
                "--device=bond0 --bondslaves=ens3,ens4 --bondopts=mode=active-backup,miimon=100 ",
                " --vlanid=30 --mtu=9000 --ipv6=2001:db8::21/64 ",
                "ignoredisk --only-use=sdc",
            ],
        ),
    ]
}

/// The answer-file variables of `case` for `os`.
fn case_vars(case: &Case, os: &OsEntry, major: u32) -> Vars {
    let mut v = answer_vars::vars(&os.id, os.family.as_str(), &os.version, major);
    let hint = case.hint.map(|h| {
        let json: Value = serde_json::from_str(h).unwrap();
        InstallDiskHint::parse(&json, "install_disk").unwrap()
    });
    v.disk = DiskVars::new(hint.as_ref(), os.family);
    v.host.macs = case.macs.iter().map(|m| m.to_string()).collect();
    v.network.bond = case.bond.map(|opts| BondVars {
        mode: opts
            .split(',')
            .next()
            .unwrap()
            .trim_start_matches("mode=")
            .into(),
        lacp_rate: None,
        xmit_hash_policy: None,
        opts: opts.into(),
    });
    v.network.vlan = case.vlan.map(Into::into);
    v.network.mtu = case.mtu;
    v.network.routes = case
        .routes
        .iter()
        .map(|(to, via)| answer_vars::route(to, via))
        .collect();
    if let Some((addr, gw)) = case.ipv6 {
        v.host.ipv6 = Some(addr.into());
        v.network.ipv6_gateway = Some(gw.into());
    }
    v
}

/// What `ks`'s `%pre` writes for each `%include`, run under bash on a server with two NICs
/// (ens3, ens4) and two disks (a 447 GiB Micron SSD, sdb; a 931 GiB Seagate, sdc).
fn run_pre(ks: &str, case: &str) -> Vec<(String, String)> {
    let dir = tempfile::tempdir().unwrap();
    let disks = [
        fake_sys::disk(
            "sdb",
            447,
            json!({"serial": "21033A4E", "model": "MTFDDAK480TDS", "vendor": "MICRON"}),
        ),
        fake_sys::disk(
            "sdc",
            931,
            json!({"serial": "ZBS1A2B3", "model": "ST1000NX0423", "vendor": "SEAGATE", "wwn": "0x5000c500a1b2c3d4", "rotational": true}),
        ),
    ];
    fake_sys::lay_out(dir.path(), &disks, &[("ens3", NIC1), ("ens4", NIC2)]);
    let start = ks.find("\n%pre ").expect("a %pre section") + 1;
    let body = start + ks[start..].find('\n').unwrap() + 1;
    let end = body + ks[body..].find("\n%end").unwrap();
    let pre = dir.path().join("pre.sh");
    std::fs::write(&pre, &ks[body..end]).unwrap();
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let path = format!(
        "{}:{}",
        dir.path().join("bin").display(),
        std::env::var("PATH").unwrap()
    );
    let o = Command::new("bash")
        .arg(&pre)
        .env("BOOTSMITH_SYS", dir.path().join("sys"))
        .env("BOOTSMITH_DEV", dir.path().join("dev"))
        .env("BOOTSMITH_TMP", &tmp)
        .env("PATH", path)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{case}: %pre failed:\n{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    ["bootsmith-network.ks", "bootsmith-disks.ks"]
        .iter()
        .map(|file| {
            let written = std::fs::read_to_string(tmp.join(file))
                .unwrap_or_else(|e| panic!("{case}: %pre wrote no {file}: {e}"));
            (
                format!("%include /tmp/{file}"),
                written.trim_end().to_owned(),
            )
        })
        .collect()
}

#[test]
fn every_rhel_family_kickstart_passes_ksvalidator() {
    let Some(tool) = ksvalidator() else {
        return fixture::missing(
            &fixture::test_name(),
            "pykickstart's ksvalidator",
            "Run scripts/pykickstart-venv.sh (or make test), or set BOOTSMITH_KSVALIDATOR.",
        );
    };
    let dir = tempfile::tempdir().unwrap();
    let catalog = Catalog::embedded().unwrap();
    // One ksvalidator run per syntax version, with every file of that version.
    let mut by_syntax: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    // Each case's %pre is the same for every OS: run once.
    let mut included: HashMap<&str, Vec<(String, String)>> = HashMap::new();
    for os in catalog
        .entries()
        .iter()
        .filter(|o| matches!(o.family, Family::Rhel | Family::Rhvh))
    {
        let major: u32 = os
            .version
            .split('.')
            .next()
            .and_then(|m| m.parse().ok())
            .unwrap();
        for (case, wanted) in cases() {
            let v = case_vars(&case, os, major);
            let files = render(os.family, &v, None).unwrap();
            let ks = String::from_utf8(files[0].contents.clone()).unwrap();
            assert!(
                ks.contains("%pre --erroronfail") && !ks.contains("clearpart --all --initlabel\n"),
                "{}: the kickstart wipes only the disk its %pre names\n{ks}",
                os.id
            );
            let lines = included
                .entry(case.name)
                .or_insert_with(|| run_pre(&ks, case.name));
            let mut read = ks.clone();
            for (include, written) in lines.iter() {
                read = read.replace(include, written);
            }
            for want in wanted {
                assert!(
                    read.contains(want),
                    "{} {}: {want:?} in\n{read}",
                    os.id,
                    case.name
                );
            }
            for (to, via) in case.routes {
                assert!(
                    read.contains(&format!("={to},{via}' "))
                        || read.contains(&format!("'{to} via {via}'")),
                    "{}: route {to} in %post",
                    case.name
                );
            }
            for (variant, text) in [("as-rendered", ks), ("after-pre", read)] {
                let path = dir
                    .path()
                    .join(format!("{}-{}-{variant}.ks", os.id, case.name));
                std::fs::write(&path, text).unwrap();
                by_syntax
                    .entry(syntax(os.family, major))
                    .or_default()
                    .push(path);
            }
        }
    }
    for version in ["RHEL7", "RHEL8", "RHEL9", "RHEL10"] {
        assert!(
            by_syntax.contains_key(version),
            "the catalog's {version} kickstarts are checked: {by_syntax:?}"
        );
    }
    for (version, files) in by_syntax {
        let o = Command::new(&tool)
            .arg("-v")
            .arg(&version)
            .args(&files)
            .output()
            .unwrap();
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(
            o.status.success() && !said.to_lowercase().contains("warning"),
            "ksvalidator -v {version} refused ({} files):\n{said}",
            files.len()
        );
    }
}
