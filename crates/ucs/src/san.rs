//! The LUNs a service profile boots from over a SAN: each target path of its boot definition,
//! on the server the profile is associated with (UCS Manager and UCS Central; an IMC has no
//! profiles).

use crate::endpoint::{Endpoint, Kind};
use crate::error::Result;
use crate::xml::Mo;

/// One SAN boot path of a profile: a LUN of a storage array's target port, reached through
/// one of the profile's vHBAs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SanLun {
    /// The path's DN in the boot definition it comes from.
    pub dn: String,
    /// DN of the server the profile is associated with.
    pub server_dn: String,
    /// DN of the profile.
    pub profile_dn: String,
    /// The LUN's number, where set (`unspecified` gives none).
    pub lun: Option<u64>,
    /// The target's WWPN (`50:06:01:60:3E:A0:12:34`).
    pub target: String,
    /// The SAN image the path belongs to: `primary` or `secondary` (one per vHBA).
    pub image: String,
    /// The path within its image: `primary` or `secondary`.
    pub path: String,
}

/// The classes of a SAN boot path: the image paths of `lsbootSan` (UCS Manager 2.2 and later),
/// and of the older `lsbootStorage`.
const PATH_CLASSES: [&str; 2] = ["lsbootSanCatSanImagePath", "lsbootSanImagePath"];

/// The boot definition or policy a path's DN lies in, and its image's type:
/// `org-root/boot-policy-x/san/sanimg-primary/sanimgpath-secondary` →
/// (`org-root/boot-policy-x`, `primary`).
fn owner_of(dn: &str) -> Option<(&str, &str)> {
    let (owner, rest) = dn
        .split_once("/san/sanimg-")
        .or_else(|| dn.split_once("/storage/san-"))?;
    let image = rest.split('/').next()?;
    Some((owner, image))
}

/// A target WWPN a path really names: UCS writes `0` (or all zeros) for none.
fn names_a_target(wwn: &str) -> bool {
    wwn.bytes().any(|b| b.is_ascii_hexdigit() && b != b'0')
}

impl Endpoint {
    /// Every SAN boot path of every associated profile, in one request: the paths of the
    /// profile's own boot definition (`lsbootDef` under it) where it has one, else those of the
    /// boot policy in force (`operBootPolicyName`). None on an IMC.
    pub async fn san_luns(&self) -> Result<Vec<SanLun>> {
        if self.kind() == Kind::Imc {
            return Ok(Vec::new());
        }
        let mut classes = vec!["lsServer"];
        classes.extend(PATH_CLASSES);
        let mos = self.resolve_classes(&classes).await?;
        let paths: Vec<&Mo> = mos
            .iter()
            .filter(|m| PATH_CLASSES.contains(&m.class.as_str()))
            .filter(|m| names_a_target(m.get("wwn")))
            .collect();
        let mut out = Vec::new();
        for sp in mos.iter().filter(|m| m.class == "lsServer") {
            let server = sp.get("pnDn");
            if server.is_empty() {
                continue;
            }
            let own = format!("{}/boot-policy", sp.get("dn"));
            let in_force = if paths
                .iter()
                .any(|p| owner_of(p.get("dn")).is_some_and(|(o, _)| o == own))
            {
                own.as_str()
            } else {
                sp.get("operBootPolicyName")
            };
            for p in &paths {
                let Some((owner, image)) = owner_of(p.get("dn")) else {
                    continue;
                };
                if owner != in_force {
                    continue;
                }
                out.push(SanLun {
                    dn: p.get("dn").to_owned(),
                    server_dn: server.to_owned(),
                    profile_dn: sp.get("dn").to_owned(),
                    lun: p.get("lun").parse().ok(),
                    target: p.get("wwn").to_owned(),
                    image: image.to_owned(),
                    path: p.get("type").to_owned(),
                });
            }
        }
        out.sort_by(|a, b| (&a.server_dn, &a.dn).cmp(&(&b.server_dn, &b.dn)));
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_paths_dn_names_its_boot_definition_and_image() {
        assert_eq!(
            owner_of("org-root/boot-policy-san/san/sanimg-secondary/sanimgpath-primary"),
            Some(("org-root/boot-policy-san", "secondary"))
        );
        assert_eq!(
            owner_of("org-root/ls-web1/boot-policy/storage/san-primary/path-primary"),
            Some(("org-root/ls-web1/boot-policy", "primary"))
        );
        assert_eq!(
            owner_of("org-root/boot-policy-x/storage/local-storage"),
            None
        );
        assert!(names_a_target("50:06:01:60:3e:a0:12:34"));
        assert!(!names_a_target("0"));
        assert!(!names_a_target("00:00:00:00:00:00:00:00"));
    }
}
