//! What a manager's object means, in the operator's words: the deploy plan leads with this and
//! keeps the class and DN one click away, for those who know the manager's model.

use crate::records::hosts::Host;
use bootsmith_model::types::NodeId;

/// A server as operators name it: `blade 1/2`, `rack server 3`.
pub(crate) fn server_words(n: &NodeId) -> String {
    match n {
        NodeId::Blade(_) => format!("blade {n}"),
        NodeId::Rack(_) => format!("rack server {n}"),
    }
}

/// The name in the last part of `dn` that starts with `prefix` (`boot-policy-` in
/// `org-root/boot-policy-SVC_c74/storage` gives `SVC_c74`).
fn named<'a>(dn: &'a str, prefix: &str) -> Option<&'a str> {
    dn.rsplit('/').find_map(|rn| rn.strip_prefix(prefix))
}

/// A pool member's part of a DN as words: `blade-1-2` → `blade 1/2`, `rack-3` → `rack server 3`.
fn member_words(rn: &str) -> String {
    let rn = rn.strip_prefix("system-").unwrap_or(rn);
    let (domain, rest) = match rn.split_once('-') {
        Some((d, rest)) if d.chars().all(|c| c.is_ascii_digit()) => (Some(d), rest),
        _ => (None, rn),
    };
    let prefix = domain.map(|d| format!("{d}/")).unwrap_or_default();
    if let Some(b) = rest.strip_prefix("blade-") {
        return format!("blade {prefix}{}", b.replace('-', "/"));
    }
    if let Some(r) = rest.strip_prefix("rack-") {
        return format!("rack server {prefix}{r}");
    }
    rn.to_owned()
}

/// What the object of `class` at `dn` means. `host` is the host it belongs to, where it is one
/// host's; `template` is the template that host's profile comes from.
pub(crate) fn object(class: &str, dn: &str, host: Option<&Host>, template: &str) -> String {
    let last = dn.rsplit('/').next().unwrap_or(dn);
    let boot = || named(dn, "boot-policy-").unwrap_or(last);
    let vmedia = || named(dn, "mnt-cfg-policy-").unwrap_or(last);
    let profile = || named(dn, "ls-").unwrap_or(last);
    let bound = |h: &Host| {
        h.server
            .as_ref()
            .map(|s| format!(", bound to {}", server_words(s)))
            .unwrap_or_default()
    };
    match class {
        "lsServer" => match host {
            Some(h) => format!("profile {} from template {template}{}", h.name, bound(h)),
            None if profile() == template => format!("service-profile template {template}"),
            None => format!("service profile {}", profile()),
        },
        "lsBinding" => match host.and_then(|h| h.server.as_ref().map(|s| (h, s))) {
            Some((h, s)) => format!("profile {} bound to {}", h.name, server_words(s)),
            None => format!("binding of profile {} to its server", profile()),
        },
        "lsRequirement" => format!("template {} takes its servers from a pool", profile()),
        "lsPower" => format!("power of profile {}", profile()),
        "lsbootPolicy" => format!("boot policy {}", boot()),
        "lsbootStorage" => format!("boot policy {}: storage first", boot()),
        "lsbootLocalStorage" => format!("boot policy {}: local storage", boot()),
        "lsbootDefaultLocalImage" => format!("boot policy {}: any local disk", boot()),
        "lsbootVirtualMedia" if last.starts_with("read-write") => {
            format!("boot policy {}: answer disk", boot())
        }
        "lsbootVirtualMedia" => format!("boot policy {}: install CD", boot()),
        "cimcvmediaMountConfigPolicy" => format!("virtual-media policy {}", vmedia()),
        "cimcvmediaConfigMountEntry" => format!(
            "virtual-media policy {}: mount {}",
            vmedia(),
            named(dn, "cfg-mnt-entry-").unwrap_or(last)
        ),
        "computePool" => format!("server pool {}", named(dn, "compute-pool-").unwrap_or(last)),
        "computePooledSlot" | "computePooledRackUnit" => format!(
            "server pool {}: {}",
            named(dn, "compute-pool-").unwrap_or(""),
            member_words(last)
        ),
        "commVMediaMap" => format!(
            "virtual-media mapping {}",
            named(dn, "vmmap-").unwrap_or(last)
        ),
        "VirtualMedia" => format!("virtual-media slot {last}"),
        "ComputerSystem.Boot" => "one-time boot".to_owned(),
        _ => format!("{class} {last}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_read_as_what_they_are() {
        assert_eq!(
            object("lsbootPolicy", "org-root/boot-policy-SVC_c74", None, ""),
            "boot policy SVC_c74"
        );
        assert_eq!(
            object(
                "lsbootVirtualMedia",
                "org-root/boot-policy-SVC_c74/read-write-remote-cimc-vm",
                None,
                ""
            ),
            "boot policy SVC_c74: answer disk"
        );
        assert_eq!(
            object(
                "cimcvmediaConfigMountEntry",
                "org-root/mnt-cfg-policy-SVC_c74/cfg-mnt-entry-bootsmith-cd",
                None,
                ""
            ),
            "virtual-media policy SVC_c74: mount bootsmith-cd"
        );
        assert_eq!(
            object(
                "computePooledSlot",
                "org-root/compute-pool-SVC_c74/blade-1-2",
                None,
                ""
            ),
            "server pool SVC_c74: blade 1/2"
        );
        assert_eq!(
            object("lsServer", "org-root/ls-SVC_c74", None, "SVC_c74"),
            "service-profile template SVC_c74"
        );
        assert_eq!(
            object("lsServer", "org-root/ls-old", None, "SVC_c74"),
            "service profile old"
        );
        assert_eq!(object("fooBar", "sys/x-1", None, ""), "fooBar x-1");
    }
}
