//! The UCS Manager (and UCS Central) objects an install needs, as wanted states for
//! [`Endpoint::plan`]: the virtual-media policy (CIMC-mounted CD and HDD over HTTP) and the
//! boot policy (local disk first, then those). Pure builders: every object carries its `dn`,
//! and only classes, properties and values of Cisco's object models (ucsmsdk, ucscsdk) are
//! used. Central keeps these classes globally, the same way; only its servers are named by
//! domain ([`Node`]).
//!
//! [`Endpoint::plan`]: crate::Endpoint::plan

use crate::changes::Wanted;
use crate::xml::Mo;

/// Mapping name of the CIMC-mounted CD entry.
pub const CD_MAPPING: &str = "bootsmith-cd";
/// Mapping name of the CIMC-mounted HDD entry.
pub const HDD_MAPPING: &str = "bootsmith-hdd";

/// Where the servers fetch media: `http://<ip>:<port><path><file>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MediaServer {
    /// Address of the boot server (IPv4, IPv6 or host name).
    pub ip: String,
    /// HTTP port.
    pub port: u16,
    /// Directory part of the URL, with a leading and a trailing `/` (`/svc/`). UCS joins it
    /// to the file name as is; without the trailing `/` a per-profile name does not resolve
    /// (the earlier tool's ESXi bug).
    pub path: String,
}

/// The image in the CD entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CdImage {
    /// One file for every profile (`rhel8.4-boot.iso`).
    Shared(String),
    /// `<service profile name>.iso`: UCS fills in the profile's name (ESXi per-host ISOs).
    PerProfile,
}

/// A virtual-media policy: a CD, and optionally each profile's own `<name>.img` as HDD.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VmediaPolicy {
    /// Policy name (1–16 of `[-.:_a-zA-Z0-9]`).
    pub name: String,
    /// The org the policy lives in (`org-root`).
    pub org: String,
    /// The media server.
    pub server: MediaServer,
    /// The CD.
    pub cd: CdImage,
    /// Mount `<service profile name>.img` as HDD.
    pub hdd_per_profile: bool,
}

impl VmediaPolicy {
    /// DN of the policy.
    pub fn dn(&self) -> String {
        format!("{}/mnt-cfg-policy-{}", self.org, self.name)
    }

    /// The policy and its mount entries; an HDD entry we no longer want is removed.
    pub fn wanted(&self) -> Vec<Wanted> {
        let dn = self.dn();
        let mut out = vec![Wanted::present(
            Mo::new("cimcvmediaMountConfigPolicy")
                .with("dn", dn.as_str())
                .with("name", self.name.as_str())
                .with("retryOnMountFail", "yes")
                .with("descr", "Bootsmith install media"),
        )];
        let (file, variable) = match &self.cd {
            CdImage::Shared(f) => (f.as_str(), "none"),
            CdImage::PerProfile => ("", "service-profile-name"),
        };
        out.push(Wanted::present(
            self.entry(CD_MAPPING, "cdd", file, variable),
        ));
        let hdd_dn = format!("{dn}/cfg-mnt-entry-{HDD_MAPPING}");
        out.push(if self.hdd_per_profile {
            Wanted::present(self.entry(HDD_MAPPING, "hdd", "", "service-profile-name"))
        } else {
            Wanted::absent("cimcvmediaConfigMountEntry", &hdd_dn)
        });
        out
    }

    fn entry(&self, mapping: &str, device: &str, file: &str, variable: &str) -> Mo {
        Mo::new("cimcvmediaConfigMountEntry")
            .with("dn", format!("{}/cfg-mnt-entry-{mapping}", self.dn()))
            .with("mappingName", mapping)
            .with("deviceType", device)
            .with("mountProtocol", "http")
            .with("remoteIpAddress", self.server.ip.as_str())
            .with("remotePort", self.server.port.to_string())
            .with("imagePath", self.server.path.as_str())
            .with("imageFileName", file)
            .with("imageNameVariable", variable)
    }
}

/// A boot policy: local disk, then the CIMC-mounted CD, then (optionally) the CIMC-mounted HDD.
/// A blank disk falls through to the installer; an installed one boots itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BootPolicy {
    /// Policy name (1–16 of `[-.:_a-zA-Z0-9]`).
    pub name: String,
    /// The org the policy lives in.
    pub org: String,
    /// UEFI (else legacy BIOS).
    pub uefi: bool,
    /// Include the CIMC-mounted HDD (the answer disk) in the order.
    pub hdd: bool,
}

impl BootPolicy {
    /// DN of the policy.
    pub fn dn(&self) -> String {
        format!("{}/boot-policy-{}", self.org, self.name)
    }

    /// The policy and its devices in order.
    pub fn wanted(&self) -> Vec<Wanted> {
        let dn = self.dn();
        let mut out = vec![
            Wanted::present(
                Mo::new("lsbootPolicy")
                    .with("dn", dn.as_str())
                    .with("name", self.name.as_str())
                    .with("bootMode", if self.uefi { "uefi" } else { "legacy" })
                    // A policy change must not reboot servers in the middle of an install.
                    .with("rebootOnUpdate", "no")
                    .with("enforceVnicName", "yes")
                    .with("descr", "Bootsmith: local disk, then install media"),
            ),
            Wanted::present(
                Mo::new("lsbootStorage")
                    .with("dn", format!("{dn}/storage"))
                    .with("order", "1"),
            ),
            Wanted::present(
                Mo::new("lsbootLocalStorage").with("dn", format!("{dn}/storage/local-storage")),
            ),
            Wanted::present(
                Mo::new("lsbootDefaultLocalImage")
                    .with("dn", format!("{dn}/storage/local-storage/local-any"))
                    .with("order", "1"),
            ),
            Wanted::present(
                Mo::new("lsbootVirtualMedia")
                    .with("dn", format!("{dn}/read-only-remote-cimc-vm"))
                    .with("access", "read-only-remote-cimc")
                    .with("lunId", "0")
                    .with("mappingName", CD_MAPPING)
                    .with("order", "2"),
            ),
        ];
        let hdd_dn = format!("{dn}/read-write-remote-cimc-vm");
        out.push(if self.hdd {
            Wanted::present(
                Mo::new("lsbootVirtualMedia")
                    .with("dn", hdd_dn.as_str())
                    .with("access", "read-write-remote-cimc")
                    .with("lunId", "0")
                    .with("mappingName", HDD_MAPPING)
                    .with("order", "3"),
            )
        } else {
            Wanted::absent("lsbootVirtualMedia", &hdd_dn)
        });
        out
    }
}

/// A server in a pool or a binding: a blade or a rack unit of a UCS Manager domain, or of
/// one of the domains a UCS Central manages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Node {
    /// Chassis and slot.
    Blade(u32, u32),
    /// Rack unit id.
    Rack(u32),
    /// Domain, chassis and slot (UCS Central).
    CentralBlade(u32, u32, u32),
    /// Domain and rack unit id (UCS Central).
    CentralRack(u32, u32),
}

impl Node {
    /// The server's dn (`sys/chassis-1/blade-3`, `sys/rack-unit-2`; on UCS Central
    /// `compute/sys-1009/chassis-1/blade-3`, `compute/sys-1009/rack-unit-2`).
    pub fn dn(&self) -> String {
        match self {
            Node::Blade(c, s) => format!("sys/chassis-{c}/blade-{s}"),
            Node::Rack(r) => format!("sys/rack-unit-{r}"),
            Node::CentralBlade(d, c, s) => format!("compute/sys-{d}/chassis-{c}/blade-{s}"),
            Node::CentralRack(d, r) => format!("compute/sys-{d}/rack-unit-{r}"),
        }
    }
}

/// A server pool of the given servers (`compute-pool-<name>`). On UCS Central a pool is
/// global: each member names its domain (`systemId`) too.
pub fn server_pool(org: &str, name: &str, members: &[Node]) -> Vec<Wanted> {
    let dn = format!("{org}/compute-pool-{name}");
    let mut out = vec![Wanted::present(
        Mo::new("computePool")
            .with("dn", dn.as_str())
            .with("name", name)
            .with("descr", "Bootsmith: the servers selected for the group"),
    )];
    for m in members {
        out.push(Wanted::present(match m {
            Node::Blade(c, s) => Mo::new("computePooledSlot")
                .with("dn", format!("{dn}/blade-{c}-{s}"))
                .with("chassisId", c.to_string())
                .with("slotId", s.to_string()),
            Node::Rack(r) => Mo::new("computePooledRackUnit")
                .with("dn", format!("{dn}/rack-{r}"))
                .with("id", r.to_string()),
            Node::CentralBlade(d, c, s) => Mo::new("computePooledSlot")
                .with("dn", format!("{dn}/system-{d}-blade-{c}-{s}"))
                .with("systemId", d.to_string())
                .with("chassisId", c.to_string())
                .with("slotId", s.to_string()),
            Node::CentralRack(d, r) => Mo::new("computePooledRackUnit")
                .with("dn", format!("{dn}/system-{d}-rack-{r}"))
                .with("systemId", d.to_string())
                .with("id", r.to_string()),
        }));
    }
    out
}

/// An updating service-profile template carrying the boot and vMedia policies, and (with
/// `pool`) a pool requirement so UCS Manager picks a server from the pool for each profile.
pub fn svc_template(
    org: &str,
    name: &str,
    boot_policy: &str,
    vmedia_policy: &str,
    pool: Option<&str>,
) -> Vec<Wanted> {
    let dn = format!("{org}/ls-{name}");
    let mut out = vec![Wanted::present(
        Mo::new("lsServer")
            .with("dn", dn.as_str())
            .with("name", name)
            .with("type", "updating-template")
            .with("bootPolicyName", boot_policy)
            .with("vmediaPolicyName", vmedia_policy)
            .with("descr", "Bootsmith: install template"),
    )];
    let req = format!("{dn}/pn-req");
    out.push(match pool {
        Some(p) => Wanted::present(
            Mo::new("lsRequirement")
                .with("dn", req.as_str())
                .with("name", p)
                .with("restrictMigration", "no"),
        ),
        None => Wanted::absent("lsRequirement", &req),
    });
    out
}

/// A service profile `<org>/ls-<name>` made from the template named `template`.
pub fn profile_from_template(org: &str, name: &str, template: &str) -> Wanted {
    Wanted::present(
        Mo::new("lsServer")
            .with("dn", format!("{org}/ls-{name}"))
            .with("name", name)
            .with("type", "instance")
            .with("srcTemplName", template),
    )
}

/// Bind a service profile to a server; creating the binding starts the association.
pub fn binding(profile_dn: &str, node: Node) -> Wanted {
    Wanted::present(
        Mo::new("lsBinding")
            .with("dn", format!("{profile_dn}/pn"))
            .with("pnDn", node.dn())
            .with("restrictMigration", "no"),
    )
}

/// Point an existing service profile at policies (only the names given).
pub fn profile_policies(
    profile_dn: &str,
    boot_policy: Option<&str>,
    vmedia_policy: Option<&str>,
) -> Wanted {
    let mut mo = Mo::new("lsServer").with("dn", profile_dn);
    if let Some(b) = boot_policy {
        mo = mo.with("bootPolicyName", b);
    }
    if let Some(v) = vmedia_policy {
        mo = mo.with("vmediaPolicyName", v);
    }
    Wanted::present(mo)
}

/// A service profile unbound from its template (`srcTemplName` empty: the reference's §6, "setting
/// it binds or unbinds") and left with no vMedia policy. UCS Manager copies the template's other
/// policies into the profile as it unbinds it, so they stay in force; binding it to the template
/// again (a later deploy) brings the template's vMedia policy back.
pub fn unbound_without_vmedia(profile_dn: &str) -> Wanted {
    Wanted::present(
        Mo::new("lsServer")
            .with("dn", profile_dn)
            .with("srcTemplName", "")
            .with("vmediaPolicyName", ""),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server() -> MediaServer {
        MediaServer {
            ip: "192.0.2.10".into(),
            port: 8080,
            path: "/svc/".into(),
        }
    }

    #[test]
    fn rhel_policy_mounts_the_shared_iso_and_each_profiles_image() {
        let p = VmediaPolicy {
            name: "SVC_rhel84".into(),
            org: "org-root".into(),
            server: server(),
            cd: CdImage::Shared("rhel8.4-boot.iso".into()),
            hdd_per_profile: true,
        };
        let w = p.wanted();
        assert_eq!(w[0].mo.get("dn"), "org-root/mnt-cfg-policy-SVC_rhel84");
        let cd = &w[1].mo;
        assert_eq!(
            cd.get("dn"),
            "org-root/mnt-cfg-policy-SVC_rhel84/cfg-mnt-entry-bootsmith-cd"
        );
        assert_eq!(
            (
                cd.get("imagePath"),
                cd.get("imageFileName"),
                cd.get("imageNameVariable")
            ),
            ("/svc/", "rhel8.4-boot.iso", "none")
        );
        let hdd = &w[2];
        assert!(!hdd.delete);
        assert_eq!(hdd.mo.get("imageNameVariable"), "service-profile-name");
        assert_eq!(hdd.mo.get("deviceType"), "hdd");
    }

    #[test]
    fn esxi_policy_mounts_each_profiles_iso_and_no_hdd() {
        let p = VmediaPolicy {
            name: "SVC_esxi80".into(),
            org: "org-root".into(),
            server: server(),
            cd: CdImage::PerProfile,
            hdd_per_profile: false,
        };
        let w = p.wanted();
        assert_eq!(w[1].mo.get("imageNameVariable"), "service-profile-name");
        assert_eq!(w[1].mo.get("imageFileName"), "");
        assert!(w[2].delete, "a stale HDD entry is removed");
    }

    #[test]
    fn boot_order_is_disk_cd_hdd() {
        let b = BootPolicy {
            name: "SVC_rhel84".into(),
            org: "org-root".into(),
            uefi: true,
            hdd: true,
        };
        let w = b.wanted();
        assert_eq!(w[0].mo.get("bootMode"), "uefi");
        let orders: Vec<(&str, &str)> = w
            .iter()
            .filter(|x| !x.mo.get("order").is_empty() && x.mo.class != "lsbootDefaultLocalImage")
            .map(|x| (x.mo.class.as_str(), x.mo.get("order")))
            .collect();
        assert_eq!(
            orders,
            [
                ("lsbootStorage", "1"),
                ("lsbootVirtualMedia", "2"),
                ("lsbootVirtualMedia", "3")
            ]
        );
    }
}
