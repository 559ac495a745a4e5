//! The OS catalog: which operating systems can be installed, with which roles,
//! and how to recognise their ISOs. It is data (`data/catalog.json`), checked
//! when loaded so a bad edit fails at start, not halfway through a deploy.

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
    /// Every OS.
    pub os: Vec<OsEntry>,
}

/// The catalog with every field: roles, and each OS's family, boot mode, UCS code and ISO marker.
pub fn details(c: &Catalog) -> CatalogDetails {
    CatalogDetails {
        roles: c.roles().to_vec(),
        os: c.entries().to_vec(),
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
}

#[derive(Deserialize)]
struct CatalogFile {
    roles: Vec<String>,
    os: Vec<OsEntry>,
}

/// The catalog as loaded and checked: roles and OS entries, looked up by id.
#[derive(Debug, Clone)]
pub struct Catalog {
    roles: Vec<String>,
    os: Vec<OsEntry>,
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
}
