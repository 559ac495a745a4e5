//! Idempotent writes: compare the objects we want with what the manager has and send only
//! the difference, in one all-or-nothing `configConfMos`. The same comparison is the plan a
//! dry run shows.

use std::collections::HashMap;

use serde::Serialize;

use crate::endpoint::{out_configs, Endpoint};
use crate::error::Result;
use crate::xml::Mo;

/// What happens to one object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    /// It does not exist and is created.
    Create,
    /// It exists and some properties change.
    Modify,
    /// It exists and goes away (only objects we own).
    Delete,
    /// It exists as wanted.
    Unchanged,
}

/// One object of a plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    /// Distinguished name.
    pub dn: String,
    /// Class.
    pub class: String,
    /// What happens to it.
    pub action: Action,
    /// The properties that change, `name: old -> new` (modify only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub changed: Vec<String>,
}

/// A wanted object: class, `dn` and the properties that matter (children are separate
/// entries). `delete` marks an object that must not exist.
#[derive(Debug, Clone)]
pub struct Wanted {
    /// The object, with `dn` set.
    pub mo: Mo,
    /// True to remove it when present.
    pub delete: bool,
}

impl Wanted {
    /// An object that must exist with these properties.
    pub fn present(mo: Mo) -> Wanted {
        Wanted { mo, delete: false }
    }

    /// An object that must not exist.
    pub fn absent(class: &str, dn: &str) -> Wanted {
        Wanted {
            mo: Mo::new(class).with("dn", dn),
            delete: true,
        }
    }
}

/// Properties never compared: identity, bookkeeping, write-only secrets.
const IGNORED: [&str; 5] = ["dn", "rn", "status", "childAction", "password"];

impl Endpoint {
    /// The objects with these dns that exist (not hierarchical). A standalone IMC has no
    /// `configResolveDns`: it is asked one `configResolveDn` per dn.
    pub async fn resolve_dns(&self, dns: &[String]) -> Result<Vec<Mo>> {
        if dns.is_empty() {
            return Ok(Vec::new());
        }
        if self.kind() == crate::Kind::Imc {
            let mut found = Vec::new();
            for dn in dns {
                let reply = self
                    .call(
                        Mo::new("configResolveDn")
                            .with("dn", dn.as_str())
                            .with("inHierarchical", "false"),
                    )
                    .await?;
                if let Some(out) = reply.find("outConfig") {
                    found.extend(out.children.iter().cloned());
                }
            }
            return Ok(found);
        }
        let ids = dns.iter().fold(Mo::new("inDns"), |m, d| {
            m.child(Mo::new("dn").with("value", d.as_str()))
        });
        let reply = self.call_list("configResolveDns", ids).await?;
        Ok(out_configs(&reply).to_vec())
    }

    /// Compare `wanted` with the manager: the plan, and the objects to send to carry it out.
    pub async fn plan(&self, wanted: &[Wanted]) -> Result<(Vec<Change>, Vec<Mo>)> {
        let dns: Vec<String> = wanted.iter().map(|w| w.mo.get("dn").to_owned()).collect();
        let existing: HashMap<String, Mo> = self
            .resolve_dns(&dns)
            .await?
            .into_iter()
            .map(|m| (m.get("dn").to_owned(), m))
            .collect();
        let mut changes = Vec::new();
        let mut send = Vec::new();
        for w in wanted {
            let dn = w.mo.get("dn").to_owned();
            let have = existing.get(&dn);
            let (action, changed) = match (have, w.delete) {
                (None, true) => continue,
                (Some(_), true) => {
                    send.push(
                        Mo::new(w.mo.class.clone())
                            .with("dn", dn.as_str())
                            .with("status", "deleted"),
                    );
                    (Action::Delete, Vec::new())
                }
                (None, false) => {
                    send.push(w.mo.clone().with("status", "created"));
                    (Action::Create, Vec::new())
                }
                (Some(have), false) => {
                    let diff = differences(have, &w.mo);
                    if diff.is_empty() {
                        (Action::Unchanged, Vec::new())
                    } else {
                        let mut m = Mo::new(w.mo.class.clone()).with("dn", dn.as_str());
                        for (k, _, new) in &diff {
                            m = m.with(k.as_str(), new.as_str());
                        }
                        send.push(m.with("status", "modified"));
                        (
                            Action::Modify,
                            diff.iter()
                                .map(|(k, old, new)| format!("{k}: '{old}' -> '{new}'"))
                                .collect(),
                        )
                    }
                }
            };
            changes.push(Change {
                dn,
                class: w.mo.class.clone(),
                action,
                changed,
            });
        }
        Ok((changes, send))
    }
}

/// `(property, have, want)` for every wanted property the manager holds differently.
fn differences(have: &Mo, want: &Mo) -> Vec<(String, String, String)> {
    want.attrs
        .iter()
        .filter(|(k, _)| !IGNORED.contains(&k.as_str()))
        .filter(|(k, v)| have.attr(k) != Some(v.as_str()))
        .map(|(k, v)| (k.clone(), have.get(k).to_owned(), v.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_wanted_properties_that_differ_count() {
        let have = Mo::new("lsServer")
            .with("dn", "org-root/ls-a")
            .with("vmediaPolicyName", "old")
            .with("assocState", "associated");
        let want = Mo::new("lsServer")
            .with("dn", "org-root/ls-a")
            .with("vmediaPolicyName", "SVC_c74")
            .with("status", "modified");
        assert_eq!(
            differences(&have, &want),
            vec![("vmediaPolicyName".into(), "old".into(), "SVC_c74".into())]
        );
        assert!(differences(&have, &have).is_empty());
    }
}
