//! The install-disk program for the installers that are not Linux: ESXi's `%pre` (busybox
//! over `localcli`) and WinPE's (PowerShell over the storage cmdlets), each with the host's
//! hint set above it in its own language's quoting, as [`DiskVars::script`] is for Linux.

use bootsmith_model::install_disk::InstallDiskHint;

use crate::install_disk::{hint_settings, quote, DiskVars, VERDICT};
use crate::templates::Family;

/// Device ids as ESXi's installer names disks (`install --disk=` takes these).
const ESXI_NAMES: [&str; 6] = [
    "naa.",
    "t10.",
    "eui.",
    "mpx.",
    "vml.",
    "/vmfs/devices/disks/",
];

/// Why the family's installer cannot resolve a key of `hint`, in a sentence naming the key,
/// or none when it can resolve them all. The plan refuses such a host rather than let its
/// installer guess (`install_disk_unsupported`).
pub fn unsupported(hint: &InstallDiskHint, family: Family) -> Option<String> {
    match family {
        Family::Windows => {
            if let Some(w) = hint.wwn() {
                return Some(format!("the hint's wwn ({w}) cannot be resolved in WinPE: Windows' storage cmdlets do not report a disk's WWN in the plan's form; name the disk by serial, model, vendor, size_gb or rotational instead"));
            }
            hint.name().map(|n| format!("the hint's name ({n}) cannot be resolved in WinPE: Windows numbers its disks and has no device names like /dev/sda or a manager's slot; name the disk by serial, model, vendor, size_gb or rotational instead"))
        }
        Family::Esxi => hint.name().and_then(|n| {
            let lower = n.to_ascii_lowercase();
            (!ESXI_NAMES.iter().any(|p| lower.starts_with(p))).then(|| format!("the hint's name ({n}) cannot be resolved by ESXi's installer, which names disks by device id (naa.…, t10.…, eui.…, mpx.…, or /vmfs/devices/disks/<id>); give one of those, or the disk's wwn or serial"))
        }),
        Family::Rhel | Family::Rhvh | Family::Ubuntu => None,
    }
}

/// ESXi's program (see the file's opening comment).
const ESXI: &str = include_str!("../templates/install-disk-esxi.sh");
/// WinPE's program (see the file's opening comment).
const WINDOWS: &str = include_str!("../templates/install-disk.ps1");

/// ESXi's `%pre` program with the hint set above it.
pub fn esxi(v: &DiskVars) -> String {
    let mut out = String::new();
    for (k, val) in hint_settings(v, v.serial.as_deref().map(esxi_serial)) {
        out.push_str(&format!("{k}={}\n", quote(&val)));
    }
    out.push_str(ESXI);
    out.push_str(VERDICT);
    out
}

/// WinPE's program with the hint set above it (`$want_serial = '…'`).
pub fn windows(v: &DiskVars) -> String {
    let mut out = String::new();
    for (k, val) in hint_settings(v, v.serial.clone()) {
        out.push_str(&format!("${k} = '{}'\n", val.replace('\'', "''")));
    }
    out.push_str(WINDOWS);
    out
}

/// A serial as ESXi spells it inside a `t10.` device id: letters and digits as they are, a
/// space as `_`, any other character as its two upper-case hex digits (`-` is `2D`).
pub fn esxi_serial(serial: &str) -> String {
    serial
        .trim()
        .chars()
        .map(|c| match c {
            c if c.is_ascii_alphanumeric() => c.to_string(),
            ' ' => "_".to_owned(),
            c if c.is_ascii() => format!("{:02X}", c as u32),
            // Not ASCII: nothing ESXi would write; kept, so it matches nothing.
            c => c.to_string(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::templates::Family;
    use bootsmith_model::install_disk::InstallDiskHint;
    use serde_json::json;

    #[test]
    fn keys_an_installer_cannot_resolve_are_named() {
        let h = |v| InstallDiskHint::parse(&v, "x").unwrap();
        let wwn = h(json!({"wwn": "0x5000c500a1b2c3d4"}));
        assert!(unsupported(&wwn, Family::Windows)
            .unwrap()
            .contains("wwn (0x5000c500a1b2c3d4)"));
        assert_eq!(unsupported(&wwn, Family::Esxi), None);
        let dev = h(json!({"name": "/dev/sda"}));
        assert!(unsupported(&dev, Family::Windows)
            .unwrap()
            .contains("name (/dev/sda)"));
        assert!(unsupported(&dev, Family::Esxi)
            .unwrap()
            .contains("device id"));
        assert_eq!(unsupported(&dev, Family::Rhel), None);
        assert_eq!(
            unsupported(&h(json!({"name": "NAA.5000c500a1b2c3d4"})), Family::Esxi),
            None
        );
        let serial = h(json!({"serial": "S1", "size_gb": 447, "rotational": false}));
        assert_eq!(unsupported(&serial, Family::Windows), None);
    }

    #[test]
    fn a_serial_is_spelt_as_esxi_spells_ids() {
        assert_eq!(esxi_serial(" Z9A3-SHJ H "), "Z9A32DSHJ_H");
    }

    #[test]
    fn each_language_quotes_its_own_way() {
        let h = InstallDiskHint::parse(&json!({"model": "it's", "serial": "A-1"}), "x").unwrap();
        let v = DiskVars::new(Some(&h), Family::Windows);
        assert!(v.windows_script.contains("$want_model = 'it''s'\n"));
        assert!(v.windows_script.contains("$want_serial = 'A-1'\n"));
        assert!(v.esxi_script.contains("want_model='it'\\''s'\n"));
        assert!(v.esxi_script.contains("want_serial='A2D1'\n"));
    }
}
