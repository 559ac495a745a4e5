//! What the media tests share to build installer ISOs with xorriso.

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
