//! The UCS Manager driver: a domain of blades and managed rack servers. A deploy writes the
//! virtual-media and boot policies of the group's OS, service profiles named after the hosts
//! (from their own template, or from the `SVC_<code>` template with a pool of the group's
//! selected servers), bound to their servers where the host names one, all in one
//! all-or-nothing `configConfMos`, so a second run changes nothing.
//!
//! UCS Central keeps service profiles, templates, pools and policies the same way, globally
//! for all its domains, so its driver ([`super::ucsc`]) is this dialect with servers named
//! by domain: [`Profiles`] serves both, `CENTRAL` saying which.
//!
//! This file holds what a deploy writes and undeploy removes; `follow` watches the profiles
//! associate and their servers mount the media.

mod follow;

use std::time::Duration;

use async_trait::async_trait;
use bootsmith_ucs::policies::{self, BootPolicy, CdImage, Node, VmediaPolicy};
use bootsmith_ucs::{Change, Endpoint, Kind, Wanted};

use super::model::*;
use super::ucs::{stale, Flavor, UcsDriver, Unmount, Wants};
use super::{Capability, Driver, GroupKind, Numbering};
use crate::error::{Error, ErrorCode, Problem, Result};
use crate::jobs::JobCtx;
use crate::records::hosts::Host;
use bootsmith_model::catalog::{BootMode, Family};
use bootsmith_model::types::NodeId;

/// Everything Bootsmith asks of a manager: what UCS Manager (and UCS Central, which keeps
/// the same profiles) can do.
pub(super) const PROFILE_CAPABILITIES: &[Capability] = &[
    Capability::Inventory,
    Capability::Templates,
    Capability::Power,
    Capability::Disks,
    Capability::DiskReset,
    Capability::Progress,
    Capability::InstallMedia,
    Capability::Deploy,
    Capability::Undeploy,
    Capability::FollowAssociation,
];

/// UCS Manager: it can do everything Bootsmith asks of a manager.
pub(super) const DRIVER: Driver = Driver {
    kind: GroupKind::Ucsm,
    numbering: Numbering::Domain,
    capabilities: PROFILE_CAPABILITIES,
    connect: UcsDriver::<Ucsm>::connect,
};

/// The dialect of managers with service profiles: UCS Manager, or (`CENTRAL`) UCS Central.
#[derive(Default)]
pub(super) struct Profiles<const CENTRAL: bool>;

/// The UCS Manager dialect.
pub(super) type Ucsm = Profiles<false>;

/// How long a deploy that follows association waits for UCS Manager.
pub const ASSOCIATION_WAIT: Duration = Duration::from_secs(30 * 60);
/// How long it then waits for an associated server to mount its media.
pub const MOUNT_WAIT: Duration = Duration::from_secs(5 * 60);
const POLL: Duration = Duration::from_millis(500);

/// DN of a host's service profile: in the org of its template, else the group's org.
fn profile_dn(spec: &DeploySpec, h: &Host) -> String {
    let org = h
        .service_profile_template
        .as_ref()
        .and_then(|t| {
            t.as_str()
                .rsplit_once("/ls-")
                .map(|(org, _)| org.to_owned())
        })
        .unwrap_or_else(|| spec.org.to_string());
    format!("{org}/ls-{}", h.name)
}

/// The server a host names, as the manager addresses it. Under UCS Central a host's
/// two-part server is `<domain>/<rack>` (its blades have three parts); ids of the wrong form
/// were refused before (see `check_servers`).
fn node(central: bool, n: &NodeId) -> Node {
    match (central, n) {
        (false, NodeId::Blade(b)) => Node::Blade(b.chassis, b.slot),
        (false, NodeId::Rack(r)) => Node::Rack(r.id),
        (true, NodeId::Blade(b)) => match b.domain {
            Some(d) => Node::CentralBlade(d, b.chassis, b.slot),
            None => Node::CentralRack(b.chassis, b.slot),
        },
        (true, NodeId::Rack(r)) => Node::CentralRack(r.domain.unwrap_or(0), r.id),
    }
}

/// A pool member as operators name it: `blade 1/3`, `rack server 2` (`blade 1009/1/3` under
/// UCS Central).
fn server_name(n: &Node) -> String {
    match n {
        Node::Blade(c, s) => format!("blade {c}/{s}"),
        Node::Rack(r) => format!("rack server {r}"),
        Node::CentralBlade(d, c, s) => format!("blade {d}/{c}/{s}"),
        Node::CentralRack(d, r) => format!("rack server {d}/{r}"),
    }
}

/// The group's selected servers, as pool members.
fn members(central: bool, pool: &bootsmith_model::selector::ServerSelector) -> Vec<Node> {
    let blades = pool.blades.iter().map(|b| match (central, b.domain) {
        (true, Some(d)) => Node::CentralBlade(d, b.chassis, b.slot),
        _ => Node::Blade(b.chassis, b.slot),
    });
    let racks = pool.rack_servers.iter().map(|r| match (central, r.domain) {
        (true, Some(d)) => Node::CentralRack(d, r.id),
        _ => Node::Rack(r.id),
    });
    blades.chain(racks).collect()
}

/// Hosts naming a server in a form the manager does not number its servers by: a clear
/// refusal naming each, before anything is written.
fn check_servers(spec: &DeploySpec, central: bool) -> Result<()> {
    let problems: Vec<Problem> = spec
        .hosts
        .iter()
        .filter_map(|h| {
            let n = h.server.as_ref()?;
            let wrong = match n {
                NodeId::Blade(b) => !central && b.domain.is_some(),
                NodeId::Rack(r) => central && r.domain.is_none(),
            };
            wrong.then(|| {
                let form = if central {
                    "<domain>/<chassis>/<slot> for a blade or <domain>/<number> for a rack server"
                } else {
                    "<chassis>/<slot> for a blade or <number> for a rack server"
                };
                Problem::field(
                    "hosts",
                    format!(
                        "{}: server '{n}' is not a server of {}; use {form}",
                        h.name, spec.group.name
                    ),
                )
            })
        })
        .collect();
    if problems.is_empty() {
        return Ok(());
    }
    Err(Error::invalid(
        ErrorCode::InvalidServer,
        &format!("Server group {} cannot be deployed", spec.group.name),
        problems,
    ))
}

/// The group's virtual-media policy: named like the `SVC_<code>` template, in the group's
/// org so its profiles and those of its sub-orgs resolve it.
fn vmedia_policy(spec: &DeploySpec) -> VmediaPolicy {
    VmediaPolicy {
        name: spec.svc_name.clone(),
        org: spec.org.to_string(),
        server: policies::MediaServer {
            ip: spec.media.ip.clone(),
            port: spec.media.port,
            path: spec.media.path.clone(),
        },
        cd: match &spec.shared_boot {
            Some(file) => CdImage::Shared(file.clone()),
            None => CdImage::PerProfile,
        },
        hdd_per_profile: spec.os.family != Family::Esxi,
    }
}

/// The group's org must exist on the manager: a clear 404 before anything is written.
async fn check_org(ep: &Endpoint, spec: &DeploySpec) -> Result<()> {
    let org = spec.org.to_string();
    let found = ep.resolve_dns(std::slice::from_ref(&org)).await?;
    if found.iter().any(|m| m.get("dn") == org.as_str()) {
        return Ok(());
    }
    Err(Error::not_found(
        ErrorCode::UnknownOrg,
        format!(
            "The org {org} of server group {} does not exist on its manager; create it there, or change the group's org",
            spec.group.name
        ),
    ))
}

/// The vMedia-only objects: the policy, and each host's existing profile pointed at it. The
/// seed makes the policy "for use by existing service profiles": the operator may make the
/// profiles by hand afterwards, so hosts without one yet are warnings, not a refusal.
async fn vmedia_objects(ep: &Endpoint, spec: &DeploySpec) -> Result<Wants> {
    let dns: Vec<String> = spec.hosts.iter().map(|h| profile_dn(spec, h)).collect();
    let found = ep.resolve_dns(&dns).await?;
    // A profile bound to an updating template that names another vMedia policy takes that
    // one: UCS refuses to change it on the profile alone.
    let mut templates: Vec<String> = found
        .iter()
        .map(|m| m.get("operSrcTemplName").to_owned())
        .filter(|t| !t.is_empty())
        .collect();
    templates.sort();
    templates.dedup();
    let templates = ep.resolve_dns(&templates).await?;
    let policy = vmedia_policy(spec);
    let mut wants = Wants::from(policy.wanted());
    for (h, dn) in spec.hosts.iter().zip(&dns) {
        let profile = found.iter().find(|m| m.get("dn") == dn.as_str());
        let fixed = profile
            .and_then(|p| {
                templates
                    .iter()
                    .find(|t| t.get("dn") == p.get("operSrcTemplName"))
            })
            .filter(|t| t.get("type") == "updating-template")
            .map(|t| (t.get("name"), t.get("vmediaPolicyName")))
            .filter(|(_, v)| !v.is_empty() && *v != policy.name);
        if let Some((template, other)) = fixed {
            wants.warnings.push(format!(
                "{}: service profile {dn} takes virtual-media policy {other} from its updating template {template}; point the template at {} to use Bootsmith's media",
                h.name, policy.name
            ));
        } else if profile.is_some() {
            wants
                .wanted
                .push(policies::profile_policies(dn, None, Some(&policy.name)));
        } else {
            wants.warnings.push(format!(
                "{}: service profile {dn} does not exist yet; point it at virtual-media policy {} when you make it (or deploy the group)",
                h.name, policy.name
            ));
        }
    }
    Ok(wants)
}

/// The hosts a pool of too few free servers leaves without one, as a warning: UCS Manager
/// would only say so at association, as a profile that never associates. Free are the
/// `members` (the selection, less servers running others' profiles; `found` has their
/// `assignedToDn`) that run no profile and that no host names as its own server; hosts
/// whose profile already runs on a member keep it.
fn short_pool(
    spec: &DeploySpec,
    central: bool,
    members: &[Node],
    found: &[bootsmith_ucs::xml::Mo],
    pool: &str,
) -> Option<String> {
    let assigned = |n: &Node| {
        let dn = n.dn();
        found
            .iter()
            .find(|m| m.get("dn") == dn)
            .map(|m| m.get("assignedToDn").to_owned())
            .unwrap_or_default()
    };
    let named = |n: &Node| {
        spec.hosts
            .iter()
            .filter_map(|h| h.server.as_ref())
            .any(|s| node(central, s) == *n)
    };
    let free = members
        .iter()
        .filter(|n| assigned(n).is_empty() && !named(n))
        .count();
    let waiting: Vec<&str> = spec
        .hosts
        .iter()
        .filter(|h| h.service_profile_template.is_none() && h.server.is_none())
        .filter(|h| {
            let sp = profile_dn(spec, h);
            !members.iter().any(|n| assigned(n) == sp)
        })
        .map(|h| h.name.as_str())
        .collect();
    if waiting.len() <= free {
        return None;
    }
    let servers = match free {
        0 => "no free server".to_owned(),
        1 => "1 free server".to_owned(),
        n => format!("{n} free servers"),
    };
    Some(format!(
        "The pool {pool} has {servers} for {} hosts without a server: {} will get none and stay unassociated; select more servers for {} or free some",
        waiting.len(),
        waiting[free..].join(", "),
        spec.group.name
    ))
}

/// Every object the group's deploy wants, in write order, and what it leaves out and why;
/// checks what must exist first.
async fn deploy_objects(
    ep: &Endpoint,
    spec: &DeploySpec,
    central: bool,
    recorded: &[Recorded],
) -> Result<Wants> {
    let name = spec.svc_name.clone();
    let org = spec.org.as_str();
    // Templates the hosts name must exist: a clear 404 before anything is written.
    let mut templates: Vec<String> = spec
        .hosts
        .iter()
        .filter_map(|h| h.service_profile_template.as_ref().map(ToString::to_string))
        .collect();
    templates.sort();
    templates.dedup();
    // The selected servers are read in the same request: one running a profile Bootsmith did
    // not create is left out of the pool, so no host of ours can land on someone's workload.
    let members = members(central, &spec.group.server_pool);
    let mut dns = templates.clone();
    dns.extend(members.iter().map(Node::dn));
    let found = ep.resolve_dns(&dns).await?;
    let ours = |sp: &str| {
        recorded.iter().any(|r| r.dn == sp) || spec.hosts.iter().any(|h| profile_dn(spec, h) == sp)
    };
    let (members, foreign): (Vec<Node>, Vec<Node>) = members.into_iter().partition(|n| {
        let dn = n.dn();
        found
            .iter()
            .find(|m| m.get("dn") == dn)
            .map(|m| m.get("assignedToDn"))
            .is_none_or(|sp| sp.is_empty() || ours(sp))
    });
    let mut warnings: Vec<String> = foreign
        .iter()
        .map(|n| {
            let dn = n.dn();
            let sp = found
                .iter()
                .find(|m| m.get("dn") == dn)
                .map(|m| m.get("assignedToDn"))
                .unwrap_or_default();
            format!("{} runs service profile {sp}, which Bootsmith did not create: it is left out of the pool {name}", server_name(n))
        })
        .collect();
    warnings.extend(short_pool(spec, central, &members, &found, &name));
    let missing: Vec<&str> = templates
        .iter()
        .filter(|d| !found.iter().any(|m| m.get("dn") == d.as_str()))
        .map(String::as_str)
        .collect();
    if !missing.is_empty() {
        return Err(Error::not_found(
            ErrorCode::UnknownTemplate,
            format!(
                "service-profile template {} does not exist on {}",
                missing.join(", "),
                spec.group.name
            ),
        ));
    }
    let fixed = |dn: &str, prop: &str| {
        found
            .iter()
            .find(|m| m.get("dn") == dn)
            .is_some_and(|m| !m.get(prop).is_empty())
    };

    let vmedia = vmedia_policy(spec);
    let boot = BootPolicy {
        name: name.clone(),
        org: org.into(),
        uefi: spec.os.boot == BootMode::Uefi,
        hdd: spec.os.family != Family::Esxi,
    };
    let mut wanted = vmedia.wanted();
    wanted.extend(boot.wanted());

    // Hosts without a template of their own use SVC_<code>; those without a server get one
    // from the pool of the group's selected servers.
    let plain: Vec<&Host> = spec
        .hosts
        .iter()
        .filter(|h| h.service_profile_template.is_none())
        .collect();
    let pooled = plain.iter().any(|h| h.server.is_none());
    if !plain.is_empty() {
        let pool = pooled.then_some(name.as_str());
        if pooled {
            wanted.extend(policies::server_pool(org, &name, &members));
        }
        wanted.extend(policies::svc_template(
            org,
            &name,
            &boot.name,
            &vmedia.name,
            pool,
        ));
    }
    for h in &spec.hosts {
        let sp = profile_dn(spec, h);
        match &h.service_profile_template {
            Some(tdn) => {
                let tname = tdn
                    .as_str()
                    .rsplit_once("/ls-")
                    .map(|(_, n)| n)
                    .unwrap_or("");
                let org = sp.rsplit_once("/ls-").map(|(o, _)| o).unwrap_or(org);
                let mut profile = policies::profile_from_template(org, h.name.as_str(), tname).mo;
                // Attach our policies only where the template leaves them open.
                if !fixed(tdn.as_str(), "bootPolicyName") {
                    profile = profile.with("bootPolicyName", boot.name.as_str());
                }
                if !fixed(tdn.as_str(), "vmediaPolicyName") {
                    profile = profile.with("vmediaPolicyName", vmedia.name.as_str());
                }
                wanted.push(Wanted::present(profile));
            }
            None => wanted.push(policies::profile_from_template(org, h.name.as_str(), &name)),
        }
        if let Some(n) = &h.server {
            wanted.push(policies::binding(&sp, node(central, n)));
        }
    }
    Ok(Wants { wanted, warnings })
}

/// What a vMedia change on an associated profile may do to its server, for the timeline.
/// Cisco's guides ("Deferring Deployment of Service Profile Updates", UCS Manager GUI
/// Configuration Guide 3.0) say some changes to a profile or its updating template are
/// disruptive and are applied under the profile's maintenance policy (an `immediate` one
/// restarts the server at once, `user-ack` waits); they do not say whether a vMedia policy
/// change is one of them, so the sentence says it may be.
const VMEDIA_CHANGE: &str =
    "UCS applies the change under the profile's maintenance policy, so an immediate one may restart the server now";

/// The objects that take `host`'s virtual media away (see [`Flavor::unmount`]), or why none.
async fn unmount_objects(ep: &Endpoint, spec: &DeploySpec, host: &Host) -> Result<Unmount> {
    let sp = profile_dn(spec, host);
    let own = host
        .service_profile_template
        .as_ref()
        .map(|t| t.to_string());
    let mut dns = vec![sp.clone()];
    dns.extend(own.clone());
    let found = ep.resolve_dns(&dns).await?;
    let get = |dn: &str| found.iter().find(|m| m.get("dn") == dn);
    let Some(profile) = get(&sp) else {
        return Ok(Unmount::Keep(format!(
            "its service profile {sp} is no longer on {}",
            spec.group.name
        )));
    };
    let bound_to = profile.get("srcTemplName");
    match own {
        None if bound_to.is_empty() || bound_to == spec.svc_name => Ok(Unmount::Write {
            wanted: vec![policies::unbound_without_vmedia(&sp)],
            done: Some(format!(
                "its service profile {sp} was unbound from template {} and its vMedia policy cleared, so its server lets go of the install media; its other policies stay as the template set them ({VMEDIA_CHANGE}); build its images and deploy the group again to bind it again and reinstall it",
                spec.svc_name
            )),
        }),
        None => Ok(Unmount::Keep(format!(
            "its service profile {sp} is bound to template {bound_to} now, not to Bootsmith's {}, so Bootsmith leaves it as it is; take its vMedia policy away on the manager to unmount it",
            spec.svc_name
        ))),
        Some(tdn) => {
            let tname = tdn.rsplit_once("/ls-").map_or(tdn.as_str(), |(_, n)| n);
            let fixed = get(&tdn)
                .map(|t| t.get("vmediaPolicyName").to_owned())
                .filter(|v| !v.is_empty());
            match fixed {
                Some(policy) => Ok(Unmount::Keep(format!(
                    "its service profile {sp} takes vMedia policy {policy} from your template {tname}, which Bootsmith does not change; clear the template's vMedia policy, or unbind the profile from it, on the manager to unmount it there"
                ))),
                None => Ok(Unmount::Write {
                    wanted: vec![policies::profile_policies(&sp, None, Some(""))],
                    done: Some(format!(
                        "the vMedia policy Bootsmith set on its service profile {sp} was cleared (your template {tname} leaves it open and stays as it is), so its server lets go of the install media ({VMEDIA_CHANGE}); build its images and deploy the group again to reinstall it"
                    )),
                }),
            }
        }
    }
}

#[async_trait]
impl<const CENTRAL: bool> Flavor for Profiles<CENTRAL> {
    const KIND: Kind = if CENTRAL { Kind::Ucsc } else { Kind::Ucsm };
    const REFUSED_KEEPS: &'static str = "nothing was written";

    /// Hosts name servers the manager's way; pooled hosts need selected servers.
    fn check(&self, spec: &DeploySpec, what: What) -> Result<()> {
        check_servers(spec, CENTRAL)?;
        let needs_pool = spec
            .hosts
            .iter()
            .any(|h| h.service_profile_template.is_none() && h.server.is_none());
        if what == What::Deploy && needs_pool && spec.group.server_pool.is_empty() {
            return Err(Error::invalid_field(
                ErrorCode::DeployNotReady,
                &format!("Server group {} cannot be deployed yet", spec.group.name),
                "server_pool",
                "hosts without a server get one from the pool: select the group's servers first",
            ));
        }
        Ok(())
    }

    async fn wanted(
        &self,
        ep: &Endpoint,
        spec: &DeploySpec,
        what: What,
        recorded: &[Recorded],
    ) -> Result<Wants> {
        check_org(ep, spec).await?;
        if CENTRAL {
            super::ucsc::refuse_lost_domains(ep, spec, what).await?;
        }
        if what == What::Media {
            return vmedia_objects(ep, spec).await;
        }
        let mut wants = deploy_objects(ep, spec, CENTRAL, recorded).await?;
        // Hosts that left the group, servers no longer selected: what we made for them goes.
        let gone = stale(recorded, &wants.wanted);
        wants.wanted.extend(gone);
        Ok(wants)
    }

    async fn check_removal(&self, ep: &Endpoint, group: &str, recorded: &[Recorded]) -> Result<()> {
        if CENTRAL {
            super::ucsc::refuse_lost_removal(ep, group, recorded).await?;
        }
        Ok(())
    }

    /// Names we write service profiles and the template under, taken on the manager by the
    /// other kind (a template called like a host, a profile called `SVC_<code>`): UCS cannot
    /// change an object's type, so refuse before writing, naming each clash.
    fn check_plan(&self, spec: &DeploySpec, changes: &[Change]) -> Result<()> {
        let problems: Vec<Problem> = changes
            .iter()
            .filter(|c| c.class == "lsServer")
            .filter_map(|c| {
                let (was, now) = c.changed.iter().find_map(|x| {
                    let rest = x.strip_prefix("type: '")?;
                    let (was, now) = rest.split_once("' -> '")?;
                    Some((was, now.trim_end_matches('\'')))
                })?;
                let host = spec.hosts.iter().find(|h| profile_dn(spec, h) == c.dn);
                let message = match host {
                    Some(h) => format!(
                        "{}: {} on the manager is a {was}, not a service profile; rename the host or that {was}",
                        h.name, c.dn
                    ),
                    None => format!(
                        "{} on the manager is a {was}, where Bootsmith keeps its {now}; rename that {was}",
                        c.dn
                    ),
                };
                Some(Problem::field("hosts", message))
            })
            .collect();
        if problems.is_empty() {
            return Ok(());
        }
        let list: Vec<String> = problems.iter().map(ToString::to_string).collect();
        Err(Error::Conflict {
            code: ErrorCode::ProfileNameTaken,
            message: format!(
                "Server group {} cannot be deployed: {}",
                spec.group.name,
                list.join("; ")
            ),
            details: problems,
        })
    }

    /// Per host, and only what is Bootsmith's: a profile instantiated from `SVC_<code>` is
    /// unbound from it with no vMedia policy (the other hosts of the group keep theirs); a
    /// profile from the operator's template that left the vMedia policy open (Bootsmith set it
    /// on the profile) loses it; one whose template sets it stays as it is.
    async fn unmount(&self, ep: &Endpoint, spec: &DeploySpec, host: &Host) -> Result<Unmount> {
        unmount_objects(ep, spec, host).await
    }

    /// A host's objects are its profile and what lies under it (the binding).
    fn host_of<'a>(&self, spec: &'a DeploySpec, dn: &str) -> Option<&'a Host> {
        spec.hosts.iter().find(|h| {
            let sp = profile_dn(spec, h);
            dn == sp || dn.starts_with(&format!("{sp}/"))
        })
    }

    async fn servers(&self, ep: &Endpoint) -> Result<Vec<Server>> {
        if CENTRAL {
            super::ucsc::servers(ep).await
        } else {
            super::ucs::domain_servers(ep).await
        }
    }

    async fn stages(&self, ep: &Endpoint, servers: &[&Server]) -> Result<Vec<Stage>> {
        if CENTRAL {
            super::ucsc::stages(ep, servers).await
        } else {
            super::ucs::domain_stages(ep).await
        }
    }

    /// The server the host's profile is associated with.
    fn server_of<'a>(
        &self,
        spec: &DeploySpec,
        host: &Host,
        servers: &'a [Server],
    ) -> Option<&'a Server> {
        let sp = profile_dn(spec, host);
        servers
            .iter()
            .find(|s| s.service_profile == sp && s.is_associated())
    }

    async fn follow(
        &self,
        ep: &Endpoint,
        spec: &DeploySpec,
        job: &JobCtx,
    ) -> Result<Vec<HostProgress>> {
        self.follow_profiles(ep, spec, job).await
    }
}
