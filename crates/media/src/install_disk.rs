//! The install disk as answer files see it ([`DiskVars`]): the host's hint, key by key, and a
//! shell program that picks the disk on the running installer by the same rule the deploy
//! plan used, for the families whose installers know device names only at install time.

use bootsmith_model::install_disk::{wwn_digits, InstallDiskHint, SizeGb, DEFAULT_MIN_GIB};
use serde::Serialize;

use crate::templates::{label, Family};

/// Whether the family's default answer files install on the one disk the plan names and
/// leave every other disk alone (every family's do now; an operator's template may not).
pub fn kept_to(family: Family) -> bool {
    matches!(
        family,
        Family::Rhel | Family::Rhvh | Family::Ubuntu | Family::Esxi | Family::Windows
    )
}

/// The disk-picking program without its settings (see the file's opening comment).
const SCRIPT: &str = include_str!("../templates/install-disk.sh");
/// What every shell disk program ends with: the one disk, or why none (see the file).
pub(crate) const VERDICT: &str = include_str!("../templates/install-disk-verdict.sh");

/// The install disk, for templates: `disk.script` picks it on Linux installers; the keys
/// let a template name it in its own installer's terms (ESXi, Windows, Subiquity's match).
#[derive(Debug, Clone, Serialize)]
pub struct DiskVars {
    /// Whether the host (or its server group) gave a hint; without one, the default rule.
    pub hinted: bool,
    /// The hint in words ("serial 21033A4E, size 400–500 GiB"), or the default rule's.
    pub words: String,
    /// The serial number wanted.
    pub serial: Option<String>,
    /// The WWN wanted, as 16 or 32 lower-case hex digits without a prefix.
    pub wwn: Option<String>,
    /// The model wanted, whole.
    pub model: Option<String>,
    /// The vendor wanted, whole.
    pub vendor: Option<String>,
    /// The least size wanted, whole GiB.
    pub min_gib: Option<u64>,
    /// The greatest size wanted, whole GiB.
    pub max_gib: Option<u64>,
    /// The device name or link wanted (`/dev/sda`, `/dev/disk/by-path/…`).
    pub name: Option<String>,
    /// A spinning disk (true) or a solid-state one (false).
    pub rotational: Option<bool>,
    /// A POSIX sh program that prints the chosen disk's device name (`sdb`), or says why on
    /// stderr and exits 1 when no one disk fits.
    pub script: String,
    /// The same for ESXi's `%pre` (busybox): reads `localcli storage core device list` and
    /// prints the device id for `install --disk=`.
    pub esxi_script: String,
    /// The same for WinPE (PowerShell with its storage cmdlets): writes Setup's answer file
    /// with the disk's number as its `DiskID`.
    pub windows_script: String,
}

impl DiskVars {
    /// The variables for `hint` (none: the default rule) on an installer of `family`, whose
    /// own answer disk the program passes over.
    pub fn new(hint: Option<&InstallDiskHint>, family: Family) -> Self {
        let (min_gib, max_gib) = match hint.and_then(InstallDiskHint::size_gb) {
            Some(SizeGb::Exactly(n)) => (Some(n), Some(n)),
            Some(SizeGb::Between { min, max }) => (min, max),
            None => (None, None),
        };
        let text = |f: fn(&InstallDiskHint) -> Option<&str>| hint.and_then(f).map(str::to_owned);
        let mut vars = DiskVars {
            hinted: hint.is_some(),
            words: match hint {
                Some(h) => h.to_string(),
                None => format!("the default disk: the smallest local disk of at least {DEFAULT_MIN_GIB} GiB, never a SAN LUN, USB disk, SD card or multipath disk"),
            },
            serial: text(InstallDiskHint::serial),
            wwn: hint.and_then(InstallDiskHint::wwn).and_then(wwn_digits),
            model: text(InstallDiskHint::model),
            vendor: text(InstallDiskHint::vendor),
            min_gib,
            max_gib,
            name: text(InstallDiskHint::name),
            rotational: hint.and_then(InstallDiskHint::rotational),
            script: String::new(),
            esxi_script: String::new(),
            windows_script: String::new(),
        };
        vars.script = script(&vars, family);
        vars.esxi_script = crate::disk_scripts::esxi(&vars);
        vars.windows_script = crate::disk_scripts::windows(&vars);
        vars
    }
}

/// The program with its settings above it, each value quoted for the shell.
fn script(v: &DiskVars, family: Family) -> String {
    let labels = match family {
        // Ubuntu's seed may be labelled either way (cloud-init takes both).
        Family::Ubuntu => "CIDATA cidata".to_owned(),
        f => label(f).to_owned(),
    };
    let mut settings = hint_settings(v, v.serial.clone());
    settings.push(("answer_labels", labels));
    let mut out = String::from("#!/bin/sh\n");
    for (k, val) in settings {
        out.push_str(&format!("{k}={}\n", quote(&val)));
    }
    out.push_str(SCRIPT);
    out.push_str(VERDICT);
    out
}

/// The hint's values as (name, text) pairs, as every disk program (Linux, ESXi, WinPE) is
/// given them; `serial` as that installer spells serials.
pub(crate) fn hint_settings(v: &DiskVars, serial: Option<String>) -> Vec<(&'static str, String)> {
    let opt = |o: &Option<String>| o.clone().unwrap_or_default();
    let num = |o: Option<u64>| o.map(|n| n.to_string()).unwrap_or_default();
    vec![
        ("want_serial", serial.unwrap_or_default()),
        ("want_wwn", opt(&v.wwn)),
        ("want_model", opt(&v.model)),
        ("want_vendor", opt(&v.vendor)),
        ("want_name", opt(&v.name)),
        ("want_min", num(v.min_gib)),
        ("want_max", num(v.max_gib)),
        (
            "want_rot",
            v.rotational
                .map(|r| if r { "1" } else { "0" }.to_owned())
                .unwrap_or_default(),
        ),
        ("hinted", if v.hinted { "1" } else { "0" }.to_owned()),
        ("hint_words", v.words.clone()),
        ("min_gib", DEFAULT_MIN_GIB.to_string()),
    ]
}

/// `s` in single quotes for a POSIX shell (a quote inside as `'\''`).
pub(crate) fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn hint(v: serde_json::Value) -> InstallDiskHint {
        InstallDiskHint::parse(&v, "install_disk").unwrap()
    }

    #[test]
    fn a_hint_is_set_key_by_key_and_quoted_for_the_shell() {
        let h = hint(
            json!({"serial": "S/N 'x'", "wwn": "NAA.5000C500A1B2C3D4", "size_gb": {"min": 400}}),
        );
        let v = DiskVars::new(Some(&h), Family::Rhel);
        assert!(v.hinted);
        assert_eq!(v.wwn.as_deref(), Some("5000c500a1b2c3d4"));
        assert_eq!((v.min_gib, v.max_gib), (Some(400), None));
        assert!(
            v.script.contains(r"want_serial='S/N '\''x'\'''"),
            "{}",
            v.script
        );
        assert!(v.script.contains("want_min='400'\nwant_max=''\n"));
        assert!(v.script.contains("answer_labels='OEMDRV'\n"));
        assert!(v.script.starts_with("#!/bin/sh\n"));
    }

    #[test]
    fn no_hint_is_the_default_rule_and_an_exact_size_is_both_bounds() {
        let v = DiskVars::new(None, Family::Ubuntu);
        assert!(!v.hinted);
        assert!(v.words.contains("smallest local disk of at least 16 GiB"));
        assert!(v.script.contains("hinted='0'\n"));
        assert!(v.script.contains("answer_labels='CIDATA cidata'\n"));
        let v = DiskVars::new(Some(&hint(json!({"size_gb": 447}))), Family::Rhel);
        assert_eq!((v.min_gib, v.max_gib), (Some(447), Some(447)));
    }
}
