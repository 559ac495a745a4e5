//! Every kickstart Bootsmith makes passes the installer's own parser: pykickstart's
//! `ksvalidator` (from PyPI, `scripts/pykickstart-venv.sh`) with the syntax of the OS's
//! release, for every RHEL-family entry of the catalog and a matrix of hosts. Each file is
//! checked twice: as rendered (with `%include /tmp/bootsmith-disks.ks`), and with that line
//! replaced by what its `%pre` writes there, so the disk commands are checked too.

mod answer_vars;

use std::path::PathBuf;
use std::process::Command;

use bootsmith_media::install_disk::DiskVars;
use bootsmith_media::templates::{render, Family};
use bootsmith_model::catalog::Catalog;
use bootsmith_model::install_disk::InstallDiskHint;
use bootsmith_sim::fixture;
use serde_json::json;

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

/// The hosts each kickstart is made for: no hint (the default disk), a serial, a size range,
/// a WWN with a model.
fn hints() -> Vec<(&'static str, Option<InstallDiskHint>)> {
    let h = |v| Some(InstallDiskHint::parse(&v, "install_disk").unwrap());
    vec![
        ("default-disk", None),
        ("serial", h(json!({"serial": "21033A4E"}))),
        (
            "size-range",
            h(json!({"size_gb": {"min": 400, "max": 500}, "rotational": false})),
        ),
        (
            "wwn-model",
            h(json!({"wwn": "0x5000c500a1b2c3d4", "model": "ST1000NX0423"})),
        ),
    ]
}

/// `ks` with its `%include` replaced by the lines its `%pre` writes there, for disk `sdb`.
fn with_disk_lines(ks: &str) -> String {
    let start = ks
        .find("<<BOOTSMITH_DISKS\n")
        .expect("the %pre writes the disk lines")
        + 18;
    let end = start + ks[start..].find("\nBOOTSMITH_DISKS").unwrap();
    let lines = ks[start..end].replace("$disk", "sdb");
    assert!(lines.contains("ignoredisk --only-use=sdb"), "{lines}");
    ks.replace("%include /tmp/bootsmith-disks.ks", &lines)
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
    let mut by_syntax: std::collections::BTreeMap<String, Vec<PathBuf>> = Default::default();
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
        for (case, hint) in hints() {
            let mut v = answer_vars::vars(&os.id, os.family.as_str(), &os.version, major);
            v.disk = DiskVars::new(hint.as_ref(), os.family);
            let files = render(os.family, &v, None).unwrap();
            let ks = String::from_utf8(files[0].contents.clone()).unwrap();
            assert!(
                ks.contains("%pre --erroronfail") && !ks.contains("clearpart --all --initlabel\n"),
                "{}: the kickstart wipes only the disk its %pre names\n{ks}",
                os.id
            );
            for (variant, text) in [
                ("as-rendered", ks.clone()),
                ("disk-lines", with_disk_lines(&ks)),
            ] {
                let path = dir.path().join(format!("{}-{case}-{variant}.ks", os.id));
                std::fs::write(&path, text).unwrap();
                by_syntax
                    .entry(syntax(os.family, major))
                    .or_default()
                    .push(path);
            }
        }
    }
    assert!(
        by_syntax.len() >= 3,
        "RHEL 7, 8 and 9 kickstarts: {by_syntax:?}"
    );
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
