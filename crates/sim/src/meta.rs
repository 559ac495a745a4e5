//! Cisco's UCSM / IMC / UCS Central object model, as shipped in the `ucsmsdk`,
//! `imcsdk` and `ucscsdk` packages (extracted by `scripts/gen-ucs-meta.py` into
//! `data/*.json`), and the checks a real manager makes when an object is written.

use std::collections::HashMap;

use regex::Regex;
use serde::Deserialize;

#[derive(Debug, Deserialize)]
struct MetaFile {
    classes: HashMap<String, ClassMeta>,
}

/// One class of the object model.
#[derive(Debug, Deserialize)]
pub struct ClassMeta {
    /// rn pattern with `{xmlProp}` placeholders.
    pub rn: String,
    /// Naming properties (XML names).
    pub naming: Vec<String>,
    /// Allowed parent classes.
    pub parents: Vec<String>,
    /// Allowed child classes.
    pub children: Vec<String>,
    /// Verbs: Add, Get, Set, Remove.
    pub verbs: Vec<String>,
    /// Properties by XML name.
    pub props: HashMap<String, PropMeta>,
}

/// One property and its value rules.
#[derive(Debug, Deserialize)]
pub struct PropMeta {
    /// naming, rw, create-only, ro, internal.
    pub access: String,
    /// SDK field type.
    #[serde(rename = "type")]
    pub ty: String,
    /// Allowed values.
    pub values: Option<Vec<String>>,
    /// Regex (matched whole).
    pub pattern: Option<String>,
    /// Length bounds.
    pub min_len: Option<usize>,
    /// Length bounds.
    pub max_len: Option<usize>,
    /// Numeric ranges `N-M`.
    pub ranges: Option<Vec<String>>,
}

/// A class with its compiled patterns.
#[derive(Debug)]
pub struct Class {
    /// The metadata.
    pub meta: ClassMeta,
    rn_regex: Regex,
    rn_fields: Vec<String>,
    patterns: HashMap<String, Regex>,
}

/// The object model of one kind of manager.
#[derive(Debug)]
pub struct Model {
    classes: HashMap<String, Class>,
    /// Whether an `adminAction` (a one-shot request, not state) may be sent to an object
    /// whose class has no Set verb. UCS Central has none of that: it changes hardware through
    /// operation objects (`remote-oper`), and its disks are read-only.
    pub admin_action_without_set: bool,
}

/// Properties every write may carry that are about the request, not the object.
pub const ENVELOPE: [&str; 4] = ["dn", "rn", "status", "childAction"];

/// Verbs the SDK metadata leaves out although the manager accepts them. `commVMediaMap`
/// lists only Add and Get, yet imcsdk's own `vmedia_mount_delete` and
/// `vmedia_mount_remove_all` remove mappings with `status="deleted"`, and the reference
/// documents that removal. (Its missing Set is real: a mapping cannot be changed in place.)
const MISSING_VERBS: [(&str, &str); 1] = [("commVMediaMap", "Remove")];

impl Model {
    /// UCS Manager's model.
    pub fn ucsm() -> Model {
        Model::load(include_str!("../data/ucsm-classes.json"), true)
    }

    /// Standalone Cisco IMC's model.
    pub fn imc() -> Model {
        Model::load(include_str!("../data/imc-classes.json"), true)
    }

    /// UCS Central's model (global objects and the inventory it aggregates; no per-server FSMs).
    pub fn ucsc() -> Model {
        Model::load(include_str!("../data/ucsc-classes.json"), false)
    }

    fn load(text: &str, admin_action_without_set: bool) -> Model {
        let file: MetaFile = serde_json::from_str(text).expect("bundled class metadata parses");
        let classes = file
            .classes
            .into_iter()
            .map(|(id, mut meta)| {
                for (class, verb) in MISSING_VERBS {
                    if id == class && !meta.verbs.iter().any(|v| v == verb) {
                        meta.verbs.push(verb.to_owned());
                    }
                }
                let (rn_regex, rn_fields) = rn_matcher(&meta.rn);
                let patterns = meta
                    .props
                    .iter()
                    .filter_map(|(name, p)| {
                        let pat = p.pattern.as_ref()?;
                        Some((
                            name.clone(),
                            Regex::new(&format!("^(?:{pat})$")).expect("SDK patterns compile"),
                        ))
                    })
                    .collect();
                (
                    id,
                    Class {
                        meta,
                        rn_regex,
                        rn_fields,
                        patterns,
                    },
                )
            })
            .collect();
        Model {
            classes,
            admin_action_without_set,
        }
    }

    /// A class by XML id.
    pub fn class(&self, id: &str) -> Option<&Class> {
        self.classes.get(id)
    }
}

/// `blade-{slotId}` → `^blade-(.+?)$` and `["slotId"]`.
fn rn_matcher(rn: &str) -> (Regex, Vec<String>) {
    let mut re = String::from("^");
    let mut fields = Vec::new();
    let mut rest = rn;
    while let Some(start) = rest.find('{') {
        re.push_str(&regex::escape(&rest[..start]));
        let end = rest[start..].find('}').expect("closed placeholder") + start;
        fields.push(rest[start + 1..end].to_owned());
        re.push_str("([^/]+?)");
        rest = &rest[end + 1..];
    }
    re.push_str(&regex::escape(rest));
    re.push('$');
    (Regex::new(&re).expect("rn pattern compiles"), fields)
}

impl Class {
    /// The naming values encoded in `rn`, or why it does not fit the pattern.
    pub fn parse_rn(&self, class_id: &str, rn: &str) -> Result<Vec<(String, String)>, String> {
        let caps = self.rn_regex.captures(rn).ok_or_else(|| {
            format!(
                "rn '{rn}' does not match the pattern '{}' of class {class_id}",
                self.meta.rn
            )
        })?;
        Ok(self
            .rn_fields
            .iter()
            .enumerate()
            .map(|(i, f)| (f.clone(), caps[i + 1].to_owned()))
            .collect())
    }

    /// Check a value the way the manager does (values, ranges, pattern, lengths, type).
    pub fn check_value(&self, class_id: &str, prop: &str, value: &str) -> Result<(), String> {
        let p = &self.meta.props[prop];
        let bad =
            || format!("value '{value}' is not allowed for property {prop} of class {class_id}");
        let values = p.values.as_deref().unwrap_or_default();
        if values.iter().any(|v| v == value) {
            return Ok(());
        }
        let ranges = p.ranges.as_deref().unwrap_or_default();
        if !ranges.is_empty() && !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
            let n: u128 = value.parse().map_err(|_| bad())?;
            let inside = ranges.iter().any(|r| {
                let (lo, hi) = r.split_once('-').unwrap_or((r, r));
                lo.parse::<u128>().is_ok_and(|lo| n >= lo)
                    && hi.parse::<u128>().is_ok_and(|hi| n <= hi)
            });
            return if inside { Ok(()) } else { Err(bad()) };
        }
        if let Some(re) = self.patterns.get(prop) {
            return if re.is_match(value) {
                Ok(())
            } else {
                Err(bad())
            };
        }
        if !values.is_empty() || !ranges.is_empty() {
            return Err(bad());
        }
        let len = value.chars().count();
        if p.min_len.is_some_and(|m| len < m) || p.max_len.is_some_and(|m| len > m) {
            return Err(bad());
        }
        let numeric_ok = match p.ty.as_str() {
            "uint" | "ulong" | "ushort" | "byte" => value.parse::<u64>().is_ok(),
            _ => true,
        };
        if numeric_ok {
            Ok(())
        } else {
            Err(bad())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rn_patterns_extract_naming_values() {
        let m = Model::ucsm();
        let blade = m.class("computeBlade").unwrap();
        assert_eq!(
            blade.parse_rn("computeBlade", "blade-3").unwrap(),
            vec![("slotId".into(), "3".into())]
        );
        assert!(blade.parse_rn("computeBlade", "rack-unit-3").is_err());
        let ctl = m.class("storageController").unwrap();
        let v = ctl.parse_rn("storageController", "storage-SAS-1").unwrap();
        assert_eq!(
            v,
            vec![("type".into(), "SAS".into()), ("id".into(), "1".into())]
        );
        let vm = m.class("lsbootVirtualMedia").unwrap();
        assert_eq!(
            vm.parse_rn("lsbootVirtualMedia", "read-only-remote-cimc-vm")
                .unwrap()[0]
                .1,
            "read-only-remote-cimc"
        );
    }

    #[test]
    fn values_follow_the_sdk_rules() {
        let m = Model::ucsm();
        let power = m.class("lsPower").unwrap();
        assert!(power.check_value("lsPower", "state", "down").is_ok());
        assert!(power.check_value("lsPower", "state", "sideways").is_err());
        let sp = m.class("lsServer").unwrap();
        assert!(sp.check_value("lsServer", "name", "node01").is_ok());
        assert!(
            sp.check_value("lsServer", "name", "a").is_err(),
            "2 to 32 characters"
        );
        assert!(sp
            .check_value("lsServer", "bootPolicyName", "SVC_rhel810")
            .is_ok());
        assert!(sp
            .check_value("lsServer", "bootPolicyName", "this-name-is-too-long")
            .is_err());
        let blade = m.class("computeBlade").unwrap();
        assert!(blade
            .check_value("computeBlade", "chassisId", "N/A")
            .is_ok());
        assert!(blade.check_value("computeBlade", "chassisId", "7").is_ok());
        assert!(blade
            .check_value("computeBlade", "chassisId", "999")
            .is_err());
    }

    #[test]
    fn every_model_loads_with_every_pattern_compiled() {
        assert!(Model::ucsm().class("cimcvmediaConfigMountEntry").is_some());
        assert!(Model::imc().class("commVMediaMap").is_some());
        let c = Model::ucsc();
        assert!(c.class("computeInstance").is_some());
        assert!(
            c.class("computeBladeFsmStage").is_none(),
            "Central keeps no per-server FSMs"
        );
        let slot = c.class("computePooledSlot").unwrap();
        assert_eq!(
            slot.parse_rn("computePooledSlot", "system-1001-blade-1-2")
                .unwrap(),
            vec![
                ("systemId".into(), "1001".into()),
                ("chassisId".into(), "1".into()),
                ("slotId".into(), "2".into())
            ]
        );
        assert!(slot.parse_rn("computePooledSlot", "blade-1-2").is_err());
    }
}
