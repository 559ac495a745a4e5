//! What UCS Manager (and UCS Central, which keeps the same profiles) does with a service
//! profile's template on a write, after the objects themselves were checked: a profile
//! unbound from its template (`srcTemplName` set empty) keeps the template's policies as its
//! own, and a profile bound to an updating template cannot name another policy than the one
//! the template sets (the template owns it; the operator unbinds the profile first). A policy
//! the template leaves open is the profile's own to set.

use crate::config::{Change, Reject};
use crate::effects::template_of;
use crate::tree::Tree;

/// The policy references a profile takes from its template (the reference's §7, `lsServer`).
const POLICIES: [&str; 8] = [
    "bootPolicyName",
    "vmediaPolicyName",
    "biosProfileName",
    "localDiskPolicyName",
    "maintPolicyName",
    "hostFwPolicyName",
    "scrubPolicyName",
    "powerPolicyName",
];

/// Apply the template rules to the profiles a write changed: `before` is the tree before the
/// write, `work` after it (changed here where a profile is unbound). The write is refused,
/// whole, when a profile bound to an updating template names another policy than it.
pub(crate) fn apply(before: &Tree, work: &mut Tree, changes: &[Change]) -> Result<(), Reject> {
    for ch in changes
        .iter()
        .filter(|c| c.class == "lsServer" && c.status != "deleted")
    {
        let unbinding = ch.set.get("srcTemplName").is_some_and(|t| t.is_empty());
        if let Some(t) = template_of(before, &ch.dn).filter(|_| unbinding) {
            let kept: Vec<(&str, String)> = POLICIES
                .iter()
                .filter(|p| !ch.set.contains_key(**p))
                .filter_map(|p| {
                    let v = before.get(&t)?.get(p);
                    (!v.is_empty()).then(|| (*p, v.to_owned()))
                })
                .collect();
            if let Some(profile) = work.get_mut(&ch.dn) {
                for (k, v) in kept {
                    profile.set(k, v);
                }
            }
        }
        let Some(t) = template_of(work, &ch.dn) else {
            continue;
        };
        let Some(template) = work.get(&t) else {
            continue;
        };
        if template.get("type") != "updating-template" {
            continue;
        }
        for p in POLICIES {
            let (Some(v), fixed) = (ch.set.get(p), template.get(p)) else {
                continue;
            };
            if !fixed.is_empty() && fixed != v {
                return Err(Reject::api(
                    "101",
                    format!(
                        "can't set {p} of {} to '{v}': the service profile is bound to updating template {t}, which sets it to '{fixed}'; unbind the profile from the template first",
                        ch.dn
                    ),
                ));
            }
        }
    }
    Ok(())
}
