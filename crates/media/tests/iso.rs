//! ISO reading and extraction against images built by xorriso (an independent tool).

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::bios_and_uefi;

use bootsmith_media::extract::{extract, identify, mismatch, Extracted, Marker};
use bootsmith_media::iso::{Iso, Platform};

/// A tree shaped like an installer ISO.
fn tree(dir: &Path, version: &str) -> PathBuf {
    let t = dir.join("tree");
    std::fs::create_dir_all(t.join("images/pxeboot")).unwrap();
    std::fs::create_dir_all(t.join("Long Directory Name/deeper/and deeper")).unwrap();
    std::fs::create_dir_all(t.join("isolinux")).unwrap();
    std::fs::create_dir_all(t.join("EFI/BOOT")).unwrap();
    std::fs::write(
        t.join(".discinfo"),
        format!("1505340016.186372\n{version}\nx86_64\n"),
    )
    .unwrap();
    let kernel: Vec<u8> = (0..700_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
        .collect();
    std::fs::write(t.join("images/pxeboot/vmlinuz"), &kernel).unwrap();
    std::fs::write(
        t.join("Long Directory Name/deeper/and deeper/Mixed_Case file-name.with.dots.txt"),
        b"hello",
    )
    .unwrap();
    std::fs::write(t.join("isolinux/isolinux.bin"), vec![0x90u8; 4096]).unwrap();
    std::fs::write(t.join("EFI/BOOT/efiboot.img"), vec![0u8; 64 * 1024]).unwrap();
    std::fs::write(t.join("empty-file"), b"").unwrap();
    std::os::unix::fs::symlink("images/pxeboot/vmlinuz", t.join("kernel-link")).unwrap();
    std::os::unix::fs::symlink("/etc/passwd", t.join("escape-link")).unwrap();
    t
}

fn mkiso(dir: &Path, tree: &Path, name: &str, extra: &[&str]) -> PathBuf {
    let out = dir.join(name);
    let status = Command::new("xorriso")
        .args(["-as", "mkisofs", "-quiet", "-o"])
        .arg(&out)
        .args(["-V", "CentOS 7 x86_64"])
        .args(extra)
        .arg(tree)
        .status()
        .expect("xorriso (Debian package xorriso) is installed");
    assert!(status.success());
    out
}

#[test]
fn rock_ridge_names_contents_and_boot_entries() {
    let dir = tempfile::tempdir().unwrap();
    let t = tree(dir.path(), "7.4");
    let iso = mkiso(
        dir.path(),
        &t,
        "rr.iso",
        &[
            &["-R", "-J", "-joliet-long"][..],
            &bios_and_uefi(
                "isolinux/isolinux.bin",
                "isolinux/boot.cat",
                "EFI/BOOT/efiboot.img",
            ),
        ]
        .concat(),
    );
    let mut img = Iso::open(&iso).unwrap();
    assert_eq!(img.volume_id(), "CentOS 7 x86_64");
    let entries = img.entries().unwrap();
    let names: Vec<&str> = entries.iter().map(|e| e.path.as_str()).collect();
    assert!(
        names.contains(&"Long Directory Name/deeper/and deeper/Mixed_Case file-name.with.dots.txt"),
        "{names:?}"
    );
    assert!(names.contains(&".discinfo"));
    let link = entries.iter().find(|e| e.path == "kernel-link").unwrap();
    assert_eq!(link.symlink.as_deref(), Some("images/pxeboot/vmlinuz"));
    assert_eq!(
        img.read_small(".discinfo", 4096).unwrap().unwrap(),
        b"1505340016.186372\n7.4\nx86_64\n"
    );
    let boot = img.boot_entries().unwrap();
    assert_eq!(
        boot.iter().map(|b| b.platform).collect::<Vec<_>>(),
        [Platform::Bios, Platform::Uefi]
    );
}

#[test]
fn joliet_only_images_are_read_too() {
    let dir = tempfile::tempdir().unwrap();
    let t = tree(dir.path(), "7.4");
    std::fs::remove_file(t.join("kernel-link")).unwrap();
    std::fs::remove_file(t.join("escape-link")).unwrap();
    let iso = mkiso(dir.path(), &t, "joliet.iso", &["-J", "-joliet-long"]);
    let mut img = Iso::open(&iso).unwrap();
    let names: Vec<String> = img.entries().unwrap().into_iter().map(|e| e.path).collect();
    assert!(
        names.iter().any(
            |n| n == "Long Directory Name/deeper/and deeper/Mixed_Case file-name.with.dots.txt"
        ),
        "{names:?}"
    );
}

#[test]
fn extraction_builds_the_tree_once_and_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let t = tree(dir.path(), "7.4");
    let iso = mkiso(dir.path(), &t, "rr.iso", &["-R", "-J"]);
    let dest = dir.path().join("svc/centos7.4");
    std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
    let mut last = (0, 0);
    let r = extract(&iso, &dest, &mut |done, total| last = (done, total)).unwrap();
    let Extracted::Built { files, bytes } = r else {
        panic!("{r:?}")
    };
    assert!(files >= 6 && bytes > 700_000);
    assert_eq!(last.0, last.1, "progress reaches the total");
    assert_eq!(
        std::fs::read(dest.join("images/pxeboot/vmlinuz")).unwrap(),
        std::fs::read(t.join("images/pxeboot/vmlinuz")).unwrap()
    );
    assert_eq!(
        std::fs::read(
            dest.join("Long Directory Name/deeper/and deeper/Mixed_Case file-name.with.dots.txt")
        )
        .unwrap(),
        b"hello"
    );
    assert_eq!(
        std::fs::read_link(dest.join("kernel-link")).unwrap(),
        Path::new("images/pxeboot/vmlinuz")
    );
    assert!(
        !dest.join("escape-link").exists()
            && std::fs::symlink_metadata(dest.join("escape-link")).is_err(),
        "a link out of the tree is dropped"
    );
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(
        std::fs::metadata(dest.join(".discinfo"))
            .unwrap()
            .permissions()
            .mode()
            & 0o777,
        0o644
    );
    // An existing tree is left alone.
    std::fs::write(dest.join("marker"), b"mine").unwrap();
    assert_eq!(
        extract(&iso, &dest, &mut |_, _| {}).unwrap(),
        Extracted::AlreadyThere
    );
    assert!(dest.join("marker").exists());
}

#[test]
fn a_broken_run_leaves_no_tree_that_looks_finished() {
    let dir = tempfile::tempdir().unwrap();
    let t = tree(dir.path(), "7.4");
    let iso = mkiso(dir.path(), &t, "rr.iso", &["-R"]);
    // Truncate the ISO so the big file's data is missing.
    let bytes = std::fs::read(&iso).unwrap();
    let cut = dir.path().join("cut.iso");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let dest = dir.path().join("svc/centos7.4");
    std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
    let err = extract(&cut, &dest, &mut |_, _| {}).unwrap_err();
    assert!(err.to_string().contains("truncated"), "{err}");
    assert!(!dest.exists());
    assert!(
        std::fs::read_dir(dest.parent().unwrap())
            .unwrap()
            .next()
            .is_none(),
        "no partial directory left"
    );
    // Not an ISO at all.
    std::fs::write(dir.path().join("fake.iso"), vec![7u8; 100_000]).unwrap();
    assert!(Iso::open(&dir.path().join("fake.iso"))
        .unwrap_err()
        .to_string()
        .contains("not a usable ISO"));
    std::fs::write(dir.path().join("tiny.iso"), b"x").unwrap();
    assert!(Iso::open(&dir.path().join("tiny.iso")).is_err());
}

#[test]
fn isos_are_recognised_and_mismatches_explained() {
    let dir = tempfile::tempdir().unwrap();
    let t = tree(dir.path(), "8.10");
    let iso = mkiso(dir.path(), &t, "rr.iso", &["-R"]);
    let m = |os: &str, s: &str| Marker {
        os: os.into(),
        file: ".discinfo".into(),
        contains: s.into(),
    };
    let markers = vec![
        m("rhel8.1", "8.1"),
        m("rhel8.10", "8.10"),
        m("centos7.4", "7.4"),
    ];
    let mut img = Iso::open(&iso).unwrap();
    assert_eq!(identify(&mut img, &markers).unwrap(), ["rhel8.10"]);
    let twins = vec![m("centos8.10", "8.10"), m("rhel8.10", "8.10")];
    assert_eq!(
        identify(&mut img, &twins).unwrap(),
        ["centos8.10", "rhel8.10"],
        "equally specific markers all match"
    );
    assert_eq!(
        mismatch(&mut img, &markers[2]).unwrap(),
        "expected .discinfo containing \"7.4\", found \"8.10\""
    );
    let esx = Marker {
        os: "esxi6.5".into(),
        file: ".DISCINFO".into(),
        contains: "Version: 6.5.0".into(),
    };
    assert!(mismatch(
        &mut img,
        &Marker {
            file: "upgrade/metadata.xml".into(),
            ..esx
        }
    )
    .unwrap()
    .contains("has no upgrade/metadata.xml"));
}
