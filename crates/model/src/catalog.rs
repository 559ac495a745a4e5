//! The OS catalog: which operating systems can be installed, with which roles,
//! and how to recognise their ISOs. The base is data compiled in (`data/catalog.json`),
//! checked when loaded so a bad edit fails at start, not halfway through a deploy; catalog
//! packs ([`Pack`]) add or replace entries on top of it, each checked whole before any of it
//! is applied.

use std::collections::{BTreeMap, HashSet};

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{Error, Result};
use crate::ErrorCode;

const EMBEDDED: &str = include_str!("../data/catalog.json");

/// OS family: decides the answer-file format and the boot media we build.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Family {
    /// RHEL and its rebuilds (CentOS, Rocky, Alma): kickstart.
    Rhel,
    /// Red Hat Virtualization Host: kickstart with an image install.
    Rhvh,
    /// VMware ESXi: ks.cfg on a per-host boot ISO.
    Esxi,
    /// Ubuntu: autoinstall/cloud-init.
    Ubuntu,
    /// Windows Server: autounattend through WinPE.
    Windows,
}

impl Family {
    /// Every family, in the order the catalog lists them.
    pub const ALL: [Family; 5] = [
        Family::Rhel,
        Family::Rhvh,
        Family::Esxi,
        Family::Ubuntu,
        Family::Windows,
    ];

    /// The family's name as the catalog and the templates write it (`rhel`, `esxi`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Family::Rhel => "rhel",
            Family::Rhvh => "rhvh",
            Family::Esxi => "esxi",
            Family::Ubuntu => "ubuntu",
            Family::Windows => "windows",
        }
    }
}

/// Firmware boot mode used for the OS on UCS.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum BootMode {
    /// BIOS / legacy boot.
    Legacy,
    /// UEFI boot.
    Uefi,
}

/// The catalog as `GET /api/v2/catalog` and the window show it: every role and every OS.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CatalogDetails {
    /// Every role name.
    pub roles: Vec<String>,
    /// Every family an entry may have (a pack's entries too).
    pub families: Vec<Family>,
    /// Every firmware boot mode an entry may have.
    pub boot_modes: Vec<BootMode>,
    /// Every OS, with where it came from.
    pub os: Vec<OsEntry>,
}

/// The catalog with every field: roles, families, boot modes, and each OS's family, boot
/// mode, UCS code, ISO marker, end of life and source.
pub fn details(c: &Catalog) -> CatalogDetails {
    CatalogDetails {
        roles: c.roles().to_vec(),
        families: Family::ALL.to_vec(),
        boot_modes: vec![BootMode::Legacy, BootMode::Uefi],
        os: c.entries().to_vec(),
    }
}

/// Where a catalog entry comes from.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Source {
    /// Compiled into this build.
    #[default]
    BuiltIn,
    /// Added (or replaced) by a catalog pack.
    Pack {
        /// The pack's name.
        name: String,
        /// The pack's version, as its author wrote it.
        version: String,
    },
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::BuiltIn => f.write_str("built in"),
            Source::Pack { name, version } => write!(f, "pack {name} version {version}"),
        }
    }
}

/// A file inside an installer ISO and a string it contains, identifying the OS.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Marker {
    /// Path inside the ISO.
    pub file: String,
    /// Text the file contains.
    pub contains: String,
}

/// One installable operating system.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct OsEntry {
    /// OS id used everywhere in the API (`centos7.4`).
    pub id: String,
    /// Display name.
    pub name: String,
    /// Family.
    pub family: Family,
    /// Version as the vendor writes it.
    pub version: String,
    /// Short code for UCS object names (`SVC_<code>` fits 16 characters).
    pub code: String,
    /// Roles a host with this OS may have.
    pub roles: Vec<String>,
    /// Firmware boot mode.
    pub boot: BootMode,
    /// How to recognise the ISO.
    pub marker: Marker,
    /// The day the vendor ends its support (`YYYY-MM-DD`; for Windows, extended support),
    /// when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eol: Option<String>,
    /// Where the entry comes from: built in, or a pack (a pack's own `source` is ignored).
    #[serde(default)]
    pub source: Source,
}

#[derive(Deserialize)]
struct CatalogFile {
    roles: Vec<String>,
    os: Vec<OsEntry>,
}

/// A pack's answer template for one of its OS ids.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackTemplate {
    /// How messages name it (`pack site-os version 3, template of rocky10.1`).
    pub label: String,
    /// The template's text.
    pub text: String,
}

/// The catalog as loaded and checked: roles and OS entries, looked up by id, and the
/// templates the packs brought.
#[derive(Debug, Clone)]
pub struct Catalog {
    roles: Vec<String>,
    os: Vec<OsEntry>,
    templates: BTreeMap<String, PackTemplate>,
}

impl Catalog {
    /// The catalog shipped in the binary.
    pub fn embedded() -> Result<Self> {
        Self::from_json(EMBEDDED)
    }

    /// Parse and check a catalog document.
    pub fn from_json(text: &str) -> Result<Self> {
        let file: CatalogFile = serde_json::from_str(text).map_err(|e| {
            Error::bad(
                ErrorCode::InvalidCatalog,
                format!("the OS catalog is not valid: {e}"),
            )
        })?;
        let cat = Catalog {
            roles: file.roles,
            os: file.os,
            templates: BTreeMap::new(),
        };
        cat.check()?;
        Ok(cat)
    }

    fn check(&self) -> Result<()> {
        let fail = |m: String| {
            Err(Error::bad(
                ErrorCode::InvalidCatalog,
                format!("the OS catalog is not valid: {m}"),
            ))
        };
        let mut ids = HashSet::new();
        let mut codes = HashSet::new();
        for os in &self.os {
            if !ids.insert(os.id.as_str()) {
                return fail(format!("OS id {} appears twice", os.id));
            }
            if !codes.insert(os.code.as_str()) {
                return fail(format!("code {} appears twice", os.code));
            }
            if os.code.is_empty()
                || os.code.len() > 12
                || !os.code.chars().all(|c| c.is_ascii_alphanumeric())
            {
                return fail(format!(
                    "code {} of {} must be 1 to 12 letters or digits",
                    os.code, os.id
                ));
            }
            if os.roles.is_empty() || os.roles.iter().any(|r| !self.roles.contains(r)) {
                return fail(format!("{} must list roles from {:?}", os.id, self.roles));
            }
            if os.marker.file.is_empty() || os.marker.contains.is_empty() {
                return fail(format!("{} needs a marker file and string", os.id));
            }
            if let Some(day) = &os.eol {
                if !is_day(day) {
                    return fail(format!(
                        "eol {day:?} of {} is not a day written YYYY-MM-DD",
                        os.id
                    ));
                }
            }
        }
        Ok(())
    }

    /// Look up an OS by id.
    pub fn get(&self, id: &str) -> Option<&OsEntry> {
        self.os.iter().find(|o| o.id == id)
    }

    /// Every OS, in catalog order.
    pub fn entries(&self) -> &[OsEntry] {
        &self.os
    }

    /// Every role name.
    pub fn roles(&self) -> &[String] {
        &self.roles
    }

    /// The seed's form: OS id → allowed roles.
    pub fn roles_by_os(&self) -> BTreeMap<String, Vec<String>> {
        self.os
            .iter()
            .map(|o| (o.id.clone(), o.roles.clone()))
            .collect()
    }

    /// UCS name of the generated template for an OS (`SVC_<code>`).
    pub fn svc_template_name(&self, os: &OsEntry) -> String {
        format!("SVC_{}", os.code)
    }

    /// The answer template a pack brought for OS `id`, if any.
    pub fn pack_template(&self, id: &str) -> Option<&PackTemplate> {
        self.templates.get(id)
    }

    /// This catalog with `pack` applied: its entries added, or put in the place of the ones
    /// they override, and its templates. Every rule is checked on the whole result, so a
    /// pack that breaks one applies nothing.
    pub fn with_pack(&self, pack: &Pack) -> Result<Catalog> {
        pack.check_own_rules()?;
        let refuse = |m: String| Err(pack.refusal(m));
        let source = Source::Pack {
            name: pack.name.clone(),
            version: pack.version.clone(),
        };
        let mut next = self.clone();
        for e in &pack.entries {
            let mut entry = e.entry.clone();
            entry.source = source.clone();
            let id = entry.id.clone();
            match (next.os.iter().position(|o| o.id == id), e.replaces) {
                (Some(at), true) => next.os[at] = entry,
                (None, false) => next.os.push(entry),
                (Some(at), false) => {
                    return refuse(format!(
                        "entry {id} clashes with the entry of that id already in the catalog ({}); add \"override\": true to the entry to replace it",
                        next.os[at].source
                    ))
                }
                (None, true) => {
                    return refuse(format!(
                        "entry {id} says \"override\": true but the catalog has no entry {id} to replace; remove \"override\" to add it"
                    ))
                }
            }
            match pack.templates.get(&id) {
                Some(text) => {
                    next.templates.insert(
                        id.clone(),
                        PackTemplate {
                            label: format!("{source}, template of {id}"),
                            text: text.clone(),
                        },
                    );
                }
                None => {
                    next.templates.remove(&id);
                }
            }
        }
        next.check().map_err(|e| pack.refusal(e.to_string()))?;
        Ok(next)
    }
}

/// `YYYY-MM-DD` with a month 01–12 and a day 01–31.
fn is_day(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' || !digits(0..4) {
        return false;
    }
    if !digits(5..7) || !digits(8..10) {
        return false;
    }
    let (m, d): (u8, u8) = (s[5..7].parse().unwrap_or(0), s[8..10].parse().unwrap_or(0));
    (1..=12).contains(&m) && (1..=31).contains(&d)
}

/// A catalog pack as an operator writes it: the file `svc/catalog.d/<name>.json`, or the body
/// of `POST /api/v2/catalog/packs`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Pack {
    /// The pack's name, also its file name: letters, digits, `.`, `_` and `-`, starting with a
    /// letter or digit, at most 64.
    pub name: String,
    /// The pack's version, as its author counts (shown as each entry's source).
    pub version: String,
    /// The entries it adds, or replaces (`"override": true`), in the shape `GET
    /// /api/v2/catalog` answers.
    pub entries: Vec<PackEntry>,
    /// Answer templates by OS id of its entries: used for that OS where the built-in default
    /// would be (the operator's `svc/<os>.tmpl` still wins).
    #[serde(default)]
    pub templates: BTreeMap<String, String>,
}

/// One entry of a pack: a catalog entry, and whether it replaces the one of its id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PackEntry {
    /// The entry.
    #[serde(flatten)]
    pub entry: OsEntry,
    /// True where the entry replaces the catalog's entry of the same id.
    #[serde(
        default,
        rename = "override",
        skip_serializing_if = "std::ops::Not::not"
    )]
    pub replaces: bool,
}

/// Whether `s` is a name safe as a file name and an OS id: letters, digits, `.`, `_`, `-`,
/// starting with a letter or digit, at most `max` long.
fn safe_name(s: &str, max: usize) -> bool {
    s.len() <= max
        && s.starts_with(|c: char| c.is_ascii_alphanumeric())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}

impl Pack {
    /// Read a pack from JSON, naming what is wrong: an unknown family is refused with the
    /// families there are, before the rest is read.
    pub fn from_value(value: serde_json::Value) -> Result<Pack> {
        let name = value
            .get("name")
            .and_then(|n| n.as_str())
            .unwrap_or("(unnamed)")
            .to_owned();
        let refuse = |m: String| {
            Error::bad(
                ErrorCode::InvalidPack,
                format!("catalog pack {name} is refused: {m}"),
            )
        };
        if let Some(entries) = value.get("entries").and_then(|e| e.as_array()) {
            for (i, e) in entries.iter().enumerate() {
                let Some(family) = e.get("family").and_then(|f| f.as_str()) else {
                    continue;
                };
                if !Family::ALL.iter().any(|f| f.as_str() == family) {
                    let id = e.get("id").and_then(|i| i.as_str()).unwrap_or("?");
                    let known: Vec<&str> = Family::ALL.iter().map(|f| f.as_str()).collect();
                    return Err(refuse(format!(
                        "entry {} ({id}) has the unknown family {family:?}; the families Bootsmith builds media for are {}",
                        i + 1,
                        known.join(", ")
                    )));
                }
            }
        }
        serde_json::from_value(value).map_err(|e| {
            refuse(format!(
                "{e}; a pack reads {{\"name\", \"version\", \"entries\": [catalog entries], \"templates\": {{\"<os id>\": \"<template>\"}}}}"
            ))
        })
    }

    /// Read a pack from the text of a pack file.
    pub fn from_json(text: &str) -> Result<Pack> {
        let value = serde_json::from_str(text).map_err(|e| {
            Error::bad(
                ErrorCode::InvalidPack,
                format!("the catalog pack is not JSON: {e}"),
            )
        })?;
        Self::from_value(value)
    }

    /// The refusal of this pack for breaking a rule, said in `why`.
    pub fn refusal(&self, why: impl std::fmt::Display) -> Error {
        Error::bad(
            ErrorCode::InvalidPack,
            format!(
                "catalog pack {} version {} is refused: {why}",
                self.name, self.version
            ),
        )
    }

    /// The rules of the pack alone: its name, version, entry ids and template keys.
    fn check_own_rules(&self) -> Result<()> {
        if !safe_name(&self.name, 64) {
            return Err(self.refusal(
                "its name must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit (it is the pack's file name)",
            ));
        }
        if self.version.trim().is_empty()
            || self.version.len() > 64
            || self.version.chars().any(char::is_control)
        {
            return Err(self.refusal("its version must be 1 to 64 printable characters"));
        }
        if self.entries.is_empty() {
            return Err(self.refusal("it has no entries"));
        }
        let mut ids = HashSet::new();
        for e in &self.entries {
            let id = &e.entry.id;
            if !safe_name(id, 32) {
                return Err(self.refusal(format!(
                    "entry id {id:?} must be 1 to 32 letters, digits, '.', '_' or '-', starting with a letter or digit"
                )));
            }
            if !ids.insert(id.as_str()) {
                return Err(self.refusal(format!("entry {id} appears twice")));
            }
        }
        if let Some(stray) = self.templates.keys().find(|k| !ids.contains(k.as_str())) {
            return Err(self.refusal(format!(
                "it has a template for {stray}, which is not one of its entries"
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_catalog_has_every_required_os() {
        let cat = Catalog::embedded().unwrap();
        let required = [
            "centos7.3",
            "centos7.4",
            "centos7.5",
            "redhat7.2",
            "redhat7.3",
            "redhat7.4",
            "redhat7.5",
            "redhat7.6",
            "rhvh4.1",
            "rhvh4.3",
            "esxi6.0",
            "esxi6.5",
            "esxi6.7",
            "ubuntu18.04",
            "win2012r2",
            "win2016",
            "rhel8.10",
            "rhel9.4",
            "rocky8",
            "rocky9",
            "alma8",
            "alma9",
            "esxi7.0",
            "esxi8.0",
            "ubuntu22.04",
            "ubuntu24.04",
            "win2019",
            "win2022",
            "rhel9.7",
            "rhel10.0",
            "rhel10.1",
            "rocky10",
            "alma10",
            "esxi9.0",
            "win2025",
            "ubuntu26.04",
        ];
        for id in required {
            assert!(cat.get(id).is_some(), "{id} missing");
        }
        for os in cat.entries() {
            assert!(cat.svc_template_name(os).len() <= 16, "{}", os.id);
        }
        assert_eq!(cat.get("centos7.4").unwrap().family, Family::Rhel);
        assert!(cat.get("esxi6.7").unwrap().roles == vec!["generic".to_string()]);
    }

    #[test]
    fn bad_catalogs_are_refused() {
        let dup = r#"{"roles":["generic"],"os":[
            {"id":"a","name":"A","family":"rhel","version":"1","code":"a","roles":["generic"],"boot":"uefi","marker":{"file":"f","contains":"x"}},
            {"id":"a","name":"B","family":"rhel","version":"1","code":"b","roles":["generic"],"boot":"uefi","marker":{"file":"f","contains":"x"}}]}"#;
        assert!(Catalog::from_json(dup).is_err());
        let long = dup
            .replace(r#""code":"a""#, r#""code":"abcdefghijklm""#)
            .replace(r#""id":"a","name":"B""#, r#""id":"b","name":"B""#);
        assert!(Catalog::from_json(&long).is_err());
        let role = dup
            .replace(r#""id":"a","name":"B""#, r#""id":"b","name":"B""#)
            .replace(
                r#""code":"b","roles":["generic"]"#,
                r#""code":"b","roles":["boss"]"#,
            );
        assert!(Catalog::from_json(&role).is_err());
    }

    fn pack(entries: serde_json::Value) -> serde_json::Value {
        serde_json::json!({"name": "site-os", "version": "3", "entries": entries})
    }

    fn rocky101() -> serde_json::Value {
        serde_json::json!({"id": "rocky10.1", "name": "Rocky Linux 10.1", "family": "rhel",
            "version": "10.1", "code": "rl101", "roles": ["generic"], "boot": "uefi",
            "marker": {"file": ".discinfo", "contains": "10.1"}, "eol": "2035-05-31"})
    }

    fn refusal(base: &Catalog, v: serde_json::Value) -> String {
        let e = Pack::from_value(v)
            .and_then(|p| base.with_pack(&p))
            .expect_err("the pack is refused");
        assert_eq!(e.code(), ErrorCode::InvalidPack, "{e}");
        e.to_string()
    }

    #[test]
    fn a_pack_adds_an_entry_with_its_source_and_template() {
        let base = Catalog::embedded().unwrap();
        let mut v = pack(serde_json::json!([rocky101()]));
        v["templates"] = serde_json::json!({"rocky10.1": "text"});
        let cat = base.with_pack(&Pack::from_value(v).unwrap()).unwrap();
        let os = cat.get("rocky10.1").unwrap();
        assert_eq!(
            os.source,
            Source::Pack {
                name: "site-os".into(),
                version: "3".into()
            }
        );
        assert_eq!(cat.pack_template("rocky10.1").unwrap().text, "text");
        assert_eq!(cat.get("rocky10").unwrap().source, Source::BuiltIn);
        assert!(
            base.get("rocky10.1").is_none(),
            "the base is left as it was"
        );
    }

    #[test]
    fn an_override_replaces_the_entry_in_place() {
        let base = Catalog::embedded().unwrap();
        let mut e = serde_json::to_value(base.get("rocky10").unwrap()).unwrap();
        e["name"] = "Rocky Linux 10 (site build)".into();
        e["override"] = true.into();
        let cat = base
            .with_pack(&Pack::from_value(pack(serde_json::json!([e]))).unwrap())
            .unwrap();
        let at = |c: &Catalog| c.entries().iter().position(|o| o.id == "rocky10");
        assert_eq!(at(&cat), at(&base));
        assert_eq!(
            cat.get("rocky10").unwrap().name,
            "Rocky Linux 10 (site build)"
        );
        assert_eq!(cat.entries().len(), base.entries().len());
    }

    #[test]
    fn packs_that_break_a_rule_are_refused_with_the_rule() {
        let base = Catalog::embedded().unwrap();
        let mut unknown = rocky101();
        unknown["family"] = "solaris".into();
        let m = refusal(&base, pack(serde_json::json!([unknown])));
        assert!(m.contains("unknown family \"solaris\""), "{m}");
        assert!(m.contains("rhel, rhvh, esxi, ubuntu, windows"), "{m}");

        let mut clash = rocky101();
        clash["id"] = "rocky10".into();
        let m = refusal(&base, pack(serde_json::json!([clash])));
        assert!(
            m.contains("site-os version 3") && m.contains("entry rocky10 clashes"),
            "{m}"
        );
        assert!(
            m.contains("built in") && m.contains("\"override\": true"),
            "{m}"
        );

        let mut nothing = rocky101();
        nothing["override"] = true.into();
        let m = refusal(&base, pack(serde_json::json!([nothing])));
        assert!(m.contains("no entry rocky10.1 to replace"), "{m}");

        let mut code = rocky101();
        code["code"] = "c73".into();
        let m = refusal(&base, pack(serde_json::json!([code])));
        assert!(m.contains("code c73 appears twice"), "{m}");

        let mut role = rocky101();
        role["roles"] = serde_json::json!(["database"]);
        assert!(refusal(&base, pack(serde_json::json!([role]))).contains("must list roles"));

        let mut eol = rocky101();
        eol["eol"] = "May 2035".into();
        assert!(refusal(&base, pack(serde_json::json!([eol]))).contains("YYYY-MM-DD"));

        let mut name = pack(serde_json::json!([rocky101()]));
        name["name"] = "../etc".into();
        assert!(refusal(&base, name).contains("its name must be"));

        let mut stray = pack(serde_json::json!([rocky101()]));
        stray["templates"] = serde_json::json!({"rocky11": "x"});
        assert!(refusal(&base, stray).contains("template for rocky11"));

        let twice = pack(serde_json::json!([rocky101(), rocky101()]));
        assert!(refusal(&base, twice).contains("entry rocky10.1 appears twice"));

        assert!(refusal(&base, pack(serde_json::json!([]))).contains("no entries"));
    }
}
