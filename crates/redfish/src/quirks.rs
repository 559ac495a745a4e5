//! Vendor quirks as data: `quirks.json` (compiled in) lists rules that match a vendor (and
//! optionally a firmware prefix or version range) and name an [`Effect`] the client applies,
//! each with its citation from `shared/reference/redfish.md` §2 and a sentence saying why.

use serde::{Deserialize, Serialize};

use crate::identity::{Identity, Vendor};

/// What a rule makes the client do differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// Start the InsertMedia ladder at `{Image}` alone.
    InsertImageOnly,
    /// Boot target `UsbCd` instead of `Cd` when allowed.
    BootTargetUsbcd,
    /// Always send Target, Enabled and Mode together.
    FullBootTriple,
    /// Boot the CD once with `Oem.Hpe.BootOnNextServerReset` when the standard PATCH fails.
    HpeBootOnNextReset,
    /// Retry a refused Boot PATCH with `{Target, Enabled}` only.
    MinimalBootObject,
    /// The session URI comes in the body, not `Location`.
    SessionUriInBody,
    /// No GracefulRestart/ForceOn, whatever the AllowableValues say.
    NoGracefulRestartForceOn,
    /// Never send `If-Match` on actions (always true; recorded for the report).
    NoIfMatchOnActions,
    /// Retry writes on busy answers (SYS518, 503).
    RetryBusy,
    /// `.iso` for the CD, `.img` for removable media, no query strings.
    DellIsoImgExtensions,
    /// The ISO goes to the slot with Id "1".
    #[serde(rename = "iso_slot_1")]
    IsoSlot1,
    /// Retry a refused Boot PATCH on the `@Redfish.Settings` SettingsObject.
    BootSettingsObject,
    /// Virtual-CD boot needs Dell's OEM configuration import ([`crate::dell`]).
    DellOemVirtualBoot,
    /// A slot is empty only when ConnectedVia is NotConnected.
    EjectUntilNotConnected,
    /// Only one URL-mountable virtual media device.
    SingleVmediaDevice,
    /// Insert and eject by PATCH on the slot.
    PatchInsert,
    /// PATCH only with a fresh ETag (read the resource first).
    IfMatchRequired,
}

/// One rule of `quirks.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    /// Unique id, e.g. `supermicro-boot-usbcd`.
    pub id: String,
    /// Vendors (as [`Vendor`] ids) the rule applies to.
    pub vendors: Vec<Vendor>,
    /// Only when the manager firmware starts with this text (e.g. `iLO 4`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub firmware_prefix: Option<String>,
    /// Only when the firmware version is at least this (dotted numbers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub firmware_min: Option<String>,
    /// Only when the firmware version is below this (dotted numbers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub firmware_below: Option<String>,
    /// What the client does differently.
    pub effect: Effect,
    /// Where the quirk is documented (redfish.md §2 and its sources).
    pub source: String,
    /// One sentence for the operator.
    pub why: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    rules: Vec<Rule>,
}

/// The rules text compiled into the crate.
pub const QUIRKS_JSON: &str = include_str!("../quirks.json");

/// All rules of the compiled-in file; panics only if the file is broken (a unit test guards it).
pub fn all_rules() -> Vec<Rule> {
    parse(QUIRKS_JSON).expect("quirks.json is valid (checked by a unit test)")
}

/// Parse and validate a rules file: unique ids, at least one vendor, a source and a reason,
/// parseable version bounds.
pub fn parse(text: &str) -> Result<Vec<Rule>, String> {
    let file: File = serde_json::from_str(text).map_err(|e| format!("quirks: {e}"))?;
    let mut ids = std::collections::HashSet::new();
    for r in &file.rules {
        if !ids.insert(r.id.as_str()) {
            return Err(format!("quirks: duplicate id {}", r.id));
        }
        if r.vendors.is_empty() || r.source.trim().is_empty() || r.why.trim().is_empty() {
            return Err(format!("quirks: {} needs vendors, source and why", r.id));
        }
        for v in [&r.firmware_min, &r.firmware_below].into_iter().flatten() {
            if version_numbers(v).is_empty() {
                return Err(format!("quirks: {}: {v} is not a version", r.id));
            }
        }
    }
    Ok(file.rules)
}

/// The numbers of a version text: `iLO 5 v3.11` → [5, 3, 11], `6.10.30.00` → [6, 10, 30, 0].
pub fn version_numbers(v: &str) -> Vec<u64> {
    v.split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .filter_map(|s| s.parse().ok())
        .collect()
}

impl Rule {
    /// True when the rule applies to this BMC.
    pub fn matches(&self, id: &Identity) -> bool {
        if !self.vendors.contains(&id.vendor) {
            return false;
        }
        let fw = id.firmware.as_deref().unwrap_or("");
        if let Some(p) = &self.firmware_prefix {
            if !fw.starts_with(p.as_str()) {
                return false;
            }
        }
        let have = version_numbers(fw);
        if let Some(min) = &self.firmware_min {
            if have.is_empty() || have < version_numbers(min) {
                return false;
            }
        }
        if let Some(below) = &self.firmware_below {
            if have.is_empty() || have >= version_numbers(below) {
                return false;
            }
        }
        true
    }
}

/// The rules in force for one BMC.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Quirks {
    /// Matching rules, in file order.
    pub rules: Vec<Rule>,
}

impl Quirks {
    /// The compiled-in rules that match this BMC.
    pub fn for_identity(id: &Identity) -> Quirks {
        Quirks {
            rules: all_rules().into_iter().filter(|r| r.matches(id)).collect(),
        }
    }

    /// True when a matching rule has this effect.
    pub fn has(&self, effect: Effect) -> bool {
        self.rules.iter().any(|r| r.effect == effect)
    }

    /// The id of the first rule with this effect.
    pub fn rule_id(&self, effect: Effect) -> Option<&str> {
        self.rules
            .iter()
            .find(|r| r.effect == effect)
            .map(|r| r.id.as_str())
    }

    /// Rule ids in force.
    pub fn ids(&self) -> Vec<String> {
        self.rules.iter().map(|r| r.id.clone()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ident(vendor: Vendor, fw: &str) -> Identity {
        Identity {
            vendor,
            firmware: Some(fw.into()),
            ..Identity::default()
        }
    }

    #[test]
    fn the_compiled_file_is_valid_and_cites_sources() {
        let rules = parse(QUIRKS_JSON).unwrap();
        assert!(rules.len() >= 15);
        for r in &rules {
            assert!(
                r.source.contains("redfish.md") || r.source.contains("README"),
                "{}",
                r.id
            );
        }
        assert!(parse(
            r#"{"rules":[{"id":"a","vendors":["dell"],"effect":"nope","source":"s","why":"w"}]}"#
        )
        .is_err());
        assert!(parse(
            r#"{"rules":[{"id":"a","vendors":[],"effect":"retry_busy","source":"s","why":"w"}]}"#
        )
        .is_err());
    }

    #[test]
    fn rules_match_vendor_and_firmware() {
        let q = Quirks::for_identity(&ident(Vendor::Supermicro, "01.00.03"));
        assert!(q.has(Effect::BootTargetUsbcd) && q.has(Effect::InsertImageOnly));
        assert!(!q.has(Effect::HpeBootOnNextReset));
        let ilo4 = Quirks::for_identity(&ident(Vendor::Hpe, "iLO 4 v2.80"));
        assert!(ilo4.has(Effect::InsertImageOnly));
        let ilo5 = Quirks::for_identity(&ident(Vendor::Hpe, "iLO 5 v3.11"));
        assert!(!ilo5.has(Effect::InsertImageOnly) && ilo5.has(Effect::HpeBootOnNextReset));
        let old = Quirks::for_identity(&ident(Vendor::Dell, "4.40.00.00"));
        assert!(old.has(Effect::DellOemVirtualBoot) && !old.has(Effect::IsoSlot1));
        let new = Quirks::for_identity(&ident(Vendor::Dell, "7.00.00.00"));
        assert!(!new.has(Effect::DellOemVirtualBoot) && new.has(Effect::IsoSlot1));
        assert!(Quirks::for_identity(&ident(Vendor::Other, "1"))
            .rules
            .is_empty());
    }
}
