//! What tests of every crate use to build installer-shaped ISOs with xorriso (feature
//! `testing`; the media crate's own tests include this file).

use std::path::Path;
use std::process::Command;

/// mkisofs arguments for a BIOS El Torito entry `bios` (catalog `catalog`) and a UEFI
/// entry, the FAT image `efi`.
pub fn bios_and_uefi<'a>(bios: &'a str, catalog: &'a str, efi: &'a str) -> [&'a str; 12] {
    [
        "-b",
        bios,
        "-c",
        catalog,
        "-no-emul-boot",
        "-boot-load-size",
        "4",
        "-boot-info-table",
        "-eltorito-alt-boot",
        "-e",
        efi,
        "-no-emul-boot",
    ]
}

/// Packs `tree` into the ISO `iso` with xorriso's mkisofs: Rock Ridge names, the volume
/// label `label`, and `extra` arguments (Joliet, boot entries); panics when xorriso fails.
pub fn pack_iso(tree: &Path, iso: &Path, label: &str, extra: &[&str]) {
    let out = Command::new("xorriso")
        .args(["-as", "mkisofs", "-quiet", "-R", "-V", label, "-o"])
        .arg(iso)
        .args(extra)
        .arg(tree)
        .output()
        .expect("xorriso is installed");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
