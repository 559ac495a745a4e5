//! Answer files: what each host's installer is told (kickstart, ESXi ks, autoinstall,
//! autounattend), rendered from the catalog's templates or the operator's `svc/<os>.tmpl`, the
//! masked preview a person may read, and the copies served over HTTP from `svc/<host>/`.

use std::collections::HashMap;
use std::net::Ipv4Addr;
use std::path::{Path, PathBuf};

use bootsmith_media::fat;
use bootsmith_media::templates::{
    self, BondVars, CallbackVars, DiskVars, HostVars, NetworkVars, OsVars, RouteVars, Vars,
};
use bootsmith_model::install_disk::InstallDiskHint;
use bootsmith_model::network::{Bond, Route};
use serde::Serialize;
use utoipa::ToSchema;

use crate::app::{blocking, App};
use crate::error::{Error, ErrorCode, Result};
use crate::media::svc::{self, SvcPath};
use crate::records::hosts::{self, Host};
use crate::records::install_disk::effective_hint_in;
use crate::records::networks::{self, NetworkGroup};
use crate::records::params;
use crate::secrets::Cipher;
use crate::{records::keys, records::server_groups, records::settings};
use bootsmith_model::catalog::{BootMode, Catalog, Family, OsEntry};

use super::layout::{base_url, http_answers, target, HTTP_ANSWER_NAMES};

/// The texts of the default answer templates of an OS family.
pub(crate) fn default_template_texts(f: Family) -> Vec<&'static str> {
    templates::default_texts(f)
}

fn host_vars(h: &Host) -> HostVars {
    HostVars {
        name: h.name.to_string(),
        ip: h.ip.to_string(),
        role: h.role.clone(),
        os: h.os.clone(),
        network_group: h.network_group.to_string(),
        server_group: h.server_group.as_ref().map(ToString::to_string),
        macs: h.macs.iter().map(ToString::to_string).collect(),
        ipv6: h.ipv6.map(|a| a.to_string()),
        ipv6_address: h.ipv6.map(|a| a.addr().to_string()),
        ipv6_prefix: h.ipv6.map(|a| a.prefix_len()),
    }
}

/// What the boot line needs of a network group, in the answer files' own terms.
pub(crate) struct NetworkWords {
    /// Dotted netmask.
    pub netmask: String,
    /// The bonding driver's options, where the group bonds.
    pub bond_opts: Option<String>,
}

/// [`NetworkWords`] of `net`, as its answer files write them.
pub(crate) fn network_words(net: &NetworkGroup) -> NetworkWords {
    NetworkWords {
        netmask: dotted(net),
        bond_opts: net.bond.as_ref().map(|b| bond_vars(b).opts),
    }
}

/// A bond in the templates' terms, with the driver's options as one list.
fn bond_vars(b: &Bond) -> BondVars {
    // Link monitoring every 100 ms: without it the kernel never notices a dead link.
    let mut opts = vec![format!("mode={}", b.mode()), "miimon=100".to_owned()];
    opts.extend(b.lacp_rate().map(|r| format!("lacp_rate={r}")));
    opts.extend(
        b.xmit_hash_policy()
            .map(|p| format!("xmit_hash_policy={p}")),
    );
    BondVars {
        mode: b.mode().to_string(),
        lacp_rate: b.lacp_rate().map(|r| r.to_string()),
        xmit_hash_policy: b.xmit_hash_policy().map(|p| p.to_string()),
        opts: opts.join(","),
    }
}

fn route_vars(r: &Route) -> RouteVars {
    let to = r.to();
    let text = to.to_string();
    RouteVars {
        network: text.split('/').next().unwrap_or_default().to_owned(),
        prefix: to.prefix_len(),
        netmask: to.netmask().to_string(),
        to: text,
        via: r.via().to_string(),
        ipv6: !to.is_ipv4(),
    }
}

/// A dotted netmask for a prefix of an IPv4 network; as entered otherwise.
fn dotted(net: &NetworkGroup) -> String {
    let p = net.netmask.prefix_len();
    if net.netmask.as_str().contains('.') || p > 32 {
        return net.netmask.to_string();
    }
    Ipv4Addr::from(u32::MAX.checked_shl(32 - u32::from(p)).unwrap_or(0)).to_string()
}

fn os_vars(os: &OsEntry) -> OsVars {
    let major = os
        .version
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .and_then(|m| m.parse().ok())
        .unwrap_or(0);
    OsVars {
        id: os.id.clone(),
        name: os.name.clone(),
        family: Family::as_str(os.family).to_owned(),
        version: os.version.clone(),
        major,
    }
}

/// Whether the operator's `svc/<os>.tmpl` replaces the default answer template of `os`.
pub(crate) fn overridden(svc: &Path, os: &str) -> bool {
    SvcPath::top(&format!("{os}.tmpl"))
        .ok()
        .and_then(|p| svc::resolve(svc, &p).ok())
        .is_some()
}

/// `svc/<os>.tmpl` when the operator put one there (a regular file inside svc).
fn override_template(svc: &Path, os: &str) -> Result<Option<(String, String)>> {
    let Some(real) = SvcPath::top(&format!("{os}.tmpl"))
        .ok()
        .and_then(|p| svc::resolve(svc, &p).ok())
    else {
        return Ok(None);
    };
    let text = std::fs::read_to_string(&real)
        .map_err(|e| Error::io(format!("reading {}", real.display()), e))?;
    Ok(Some((format!("svc/{os}.tmpl"), text)))
}

/// The install-disk hint of every server group that gives one, by group name.
pub(crate) async fn group_hints(app: &App) -> Result<HashMap<String, InstallDiskHint>> {
    Ok(server_groups::list(app)
        .await?
        .into_iter()
        .filter_map(|g| Some((g.name.to_string(), g.install_disk?)))
        .collect())
}

/// The parameters above every host: the defaults, and each network group's (of `nets`) and
/// server group's.
pub(crate) async fn params_above(app: &App, nets: &[NetworkGroup]) -> Result<params::Above> {
    Ok(params::Above {
        defaults: params::defaults(app).await?,
        network_groups: nets
            .iter()
            .filter(|n| !n.params.is_empty())
            .map(|n| (n.name.to_string(), n.params.clone()))
            .collect(),
        server_groups: server_groups::list(app)
            .await?
            .into_iter()
            .filter(|g| !g.params.is_empty())
            .map(|g| (g.name.to_string(), g.params))
            .collect(),
    })
}

/// What every host's answer files are rendered from, gathered once per run.
pub(crate) struct RenderContext {
    /// `http://<svc_ip>:<port>`: svc and the install callbacks are below it.
    base_url: String,
    /// What stale media are judged by, for the hosts of the run.
    pub(crate) inputs: crate::lifecycle::InputsContext,
    /// Where `svc/<os>.tmpl` overrides are looked for.
    svc_dir: PathBuf,
    /// The catalog of the run: the packs' templates stand where no `svc/<os>.tmpl` does.
    catalog: std::sync::Arc<Catalog>,
    svc_ip: String,
    svc_url: String,
    svc_port: u16,
    nets: Vec<NetworkGroup>,
    all_hosts: Vec<HostVars>,
    master: Option<HostVars>,
    keys: Vec<String>,
    default_proxy: Option<String>,
    /// Each server group's install-disk hint, the default of its hosts.
    group_hints: HashMap<String, InstallDiskHint>,
    /// The parameters' defaults and server groups' layers.
    params: params::Above,
    /// Decrypts secret parameters.
    cipher: Cipher,
}

impl RenderContext {
    pub(crate) async fn load(
        app: &App,
        chosen: &[Host],
        nets: Vec<NetworkGroup>,
        svc_ip: String,
        svc_port: u16,
    ) -> Result<Self> {
        let everyone = hosts::list(app).await?;
        let base_url = base_url(&svc_ip, svc_port);
        let params = params_above(app, &nets).await?;
        Ok(RenderContext {
            inputs: super::inputs::load(app, chosen, svc_port).await?,
            svc_dir: app.svc_dir().to_owned(),
            catalog: app.catalog(),
            svc_url: format!("{base_url}/svc"),
            base_url,
            svc_ip,
            svc_port,
            nets,
            all_hosts: everyone.iter().map(host_vars).collect(),
            master: everyone
                .iter()
                .find(|h| h.role == "k8s master")
                .map(host_vars),
            keys: keys::list(app).await?,
            default_proxy: settings::proxy(app).await?.map(|p| p.to_string()),
            group_hints: group_hints(app).await?,
            params,
            cipher: app.cipher().clone(),
        })
    }

    /// Where each of `h`'s parameters came from, secrets masked.
    fn param_sources(&self, h: &Host) -> Vec<params::ParamSource> {
        self.params.layers(h).sources()
    }

    /// The host's answer files, rendered (with `svc/<os>.tmpl` when there is one), reporting
    /// back with `token` when given.
    pub(crate) async fn render(
        &self,
        h: &Host,
        os: &OsEntry,
        token: Option<&str>,
    ) -> Result<Vec<fat::ImageFile>> {
        self.render_with(h, os, token.map(str::to_owned), false)
            .await
    }

    /// The answer files as [`Self::render`] makes them, with [`MASK`] where each secret goes
    /// (password, its hash, the install token, a proxy's password): what a person may see.
    async fn render_masked(&self, h: &Host, os: &OsEntry) -> Result<Vec<fat::ImageFile>> {
        self.render_with(h, os, Some(MASK.to_owned()), true).await
    }

    async fn render_with(
        &self,
        h: &Host,
        os: &OsEntry,
        token: Option<String>,
        masked: bool,
    ) -> Result<Vec<fat::ImageFile>> {
        let token = token.as_deref();
        let net = self
            .nets
            .iter()
            .find(|n| n.name == h.network_group)
            .ok_or_else(|| Error::Corrupt(format!("host {}: network group missing", h.name)))?;
        let (clear, hash) = if masked {
            (MASK.to_owned(), MASK.to_owned())
        } else {
            templates::new_password()
        };
        let vars = Vars {
            svc_ip: self.svc_ip.clone(),
            svc_port: self.svc_port,
            svc_url: self.svc_url.clone(),
            host: host_vars(h),
            hosts: self.all_hosts.clone(),
            master: self.master.clone(),
            network: NetworkVars {
                name: net.name.to_string(),
                netmask: dotted(net),
                prefix: net.netmask.prefix_len(),
                gateway: net.gateway.to_string(),
                nameserver: net.nameserver.to_string(),
                ntpserver: net.ntpserver.to_string(),
                // KUBAM's `/api/v1/proxy` is the proxy of every network that names none.
                proxy: net
                    .proxy
                    .as_ref()
                    .map(ToString::to_string)
                    .or_else(|| self.default_proxy.clone())
                    .map(|p| if masked { mask_url_password(&p) } else { p }),
                vlan: net.vlan.as_ref().map(ToString::to_string),
                mtu: net.mtu.map(|m| m.get()),
                bond: net.bond.as_ref().map(bond_vars),
                routes: net.routes.iter().map(route_vars).collect(),
                ipv6_gateway: net.ipv6_gateway.map(|g| g.to_string()),
            },
            os: os_vars(os),
            keys: self.keys.clone(),
            root_password_hash: hash,
            // Only Windows cannot take a hash; elsewhere the clear password is dropped here and logins use the SSH keys.
            admin_password: (os.family == Family::Windows).then_some(clear),
            uefi: os.boot == BootMode::Uefi,
            disk: DiskVars::new(effective_hint_in(h, &self.group_hints), os.family),
            params: self.params.layers(h).values(&self.cipher, masked)?,
            callback: token.map(|t| CallbackVars {
                installed: format!("{}/api/v2/hosts/{}/installed", self.base_url, h.name),
                failed: format!("{}/api/v2/hosts/{}/failed", self.base_url, h.name),
                logs: format!("{}/api/v2/hosts/{}/logs", self.base_url, h.name),
                token: t.to_owned(),
            }),
        };
        let family = os.family;
        let svc = self.svc_dir.clone();
        let os_id = os.id.clone();
        let pack = self.catalog.pack_template(&os.id).cloned();
        blocking(move || {
            let over = override_template(&svc, &os_id)?.or(pack.map(|t| (t.label, t.text)));
            Ok(templates::render(
                family,
                &vars,
                over.as_ref().map(|(n, t)| (n.as_str(), t.as_str())),
            )?)
        })
        .await
    }
}

/// What stands in for a secret in a preview.
pub const MASK: &str = "********";

/// `url` with the password of its user part (`http://user:secret@proxy:3128`) masked.
fn mask_url_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, path) = rest.split_at(end);
    match authority.rsplit_once('@') {
        Some((user, host)) if user.contains(':') => {
            let name = user.split(':').next().unwrap_or("");
            format!("{scheme}://{name}:{MASK}@{host}{path}")
        }
        _ => url.to_owned(),
    }
}

/// One rendered answer file of a host.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AnswerFile {
    /// Its name on the answer medium (`ks.cfg`, `user-data`, `autounattend.xml`, `KS.CFG`).
    pub file_name: String,
    /// Its text, secrets masked as `********`.
    pub text: String,
}

/// A host's answer files as the next image run would write them, secrets masked.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AnswerPreview {
    /// Host name.
    pub host: String,
    /// OS id.
    pub os: String,
    /// What kind of answer file it is.
    pub kind: AnswerKind,
    /// The main file's name (the first of `files`).
    pub file_name: String,
    /// The main file's text, secrets masked.
    pub text: String,
    /// Every file the host gets (Ubuntu's meta-data and Windows' network.txt come second).
    pub files: Vec<AnswerFile>,
    /// What it was made from: `default`, the operator's `svc/<os>.tmpl`, or a catalog pack's
    /// template (`pack <name> version <version>, template of <os>`).
    pub template: String,
    /// The parameters its templates saw (`params.<key>`), each with where it came from;
    /// secrets as `********`.
    pub params: Vec<params::ParamSource>,
}

/// The kind of a host's answer file, which its OS family decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum AnswerKind {
    /// A kickstart file (RHEL and its rebuilds, RHV-H).
    Kickstart,
    /// An ESXi kickstart file.
    EsxiKickstart,
    /// Ubuntu's autoinstall user-data.
    Autoinstall,
    /// Windows' autounattend.xml.
    Autounattend,
}

fn answer_kind(f: Family) -> AnswerKind {
    match f {
        Family::Rhel | Family::Rhvh => AnswerKind::Kickstart,
        Family::Esxi => AnswerKind::EsxiKickstart,
        Family::Ubuntu => AnswerKind::Autoinstall,
        Family::Windows => AnswerKind::Autounattend,
    }
}

/// The answer files of host `name` rendered as an image run would (same template, same
/// variables) without writing anything, with every secret masked.
pub async fn answer_preview(app: &App, name: &str) -> Result<AnswerPreview> {
    let host = hosts::get(app, name).await?;
    let Some(os) = app.catalog().get(&host.os).cloned() else {
        return Err(Error::Unprocessable {
            code: ErrorCode::OsNotInCatalog,
            message: format!(
                "Host {}'s OS {} is not one Bootsmith has answer files for; choose another OS for it on the Hosts screen",
                host.name, host.os
            ),
            details: Vec::new(),
        });
    };
    let Some(svc_ip) = settings::svc_ip(app).await? else {
        return Err(Error::conflict(
            ErrorCode::SvcIpNotSet,
            format!(
                "Host {}'s answer files name the boot-server address, which is not set: set it on the Settings screen first",
                host.name
            ),
        ));
    };
    let ctx = RenderContext::load(
        app,
        std::slice::from_ref(&host),
        networks::list(app).await?,
        svc_ip.to_string(),
        app.svc_port(),
    )
    .await?;
    let files = ctx.render_masked(&host, &os).await?;
    let params = ctx.param_sources(&host);
    let svc = app.svc_dir().to_owned();
    let os_id = os.id.clone();
    let pack = app.catalog().pack_template(&os.id).map(|t| t.label.clone());
    let template = blocking(move || override_template(&svc, &os_id))
        .await?
        .map(|(n, _)| n)
        .or(pack)
        .unwrap_or_else(|| "default".to_owned());
    let files: Vec<AnswerFile> = files
        .into_iter()
        .map(|f| AnswerFile {
            file_name: f.name,
            text: String::from_utf8_lossy(&f.contents).into_owned(),
        })
        .collect();
    let main = files
        .first()
        .cloned()
        .ok_or_else(|| Error::Corrupt(format!("host {}: no answer file rendered", host.name)))?;
    Ok(AnswerPreview {
        host: host.name.to_string(),
        os: os.id.clone(),
        kind: answer_kind(os.family),
        file_name: main.file_name,
        text: main.text,
        files,
        template,
        params,
    })
}

/// Write the host's rendered answer files into `svc/<host>/` for single-device media, each
/// to a hidden temporary name at the top of svc (which the start-up sweep clears after a
/// crash) renamed into place, so an installer never fetches half a file. Answer files of
/// another family left from an earlier build are removed.
pub(crate) async fn write_http_answers(
    svc_dir: &Path,
    catalog: &Catalog,
    h: &Host,
    os: &OsEntry,
    files: &[fat::ImageFile],
) -> Result<()> {
    let host = h.name.to_string();
    let wanted = http_answers(catalog, os, &host);
    if wanted.is_empty() {
        return Ok(());
    }
    let svc_dir = svc_dir.to_owned();
    let dir = target(&svc_dir, &host)?;
    let mut writes = Vec::new();
    for rel in &wanted {
        let name = rel.rsplit('/').next().unwrap_or(rel);
        let Some(f) = files.iter().find(|f| f.name.eq_ignore_ascii_case(name)) else {
            return Err(Error::Corrupt(format!(
                "host {host}: the rendered answer files have no {name}"
            )));
        };
        writes.push((name.to_owned(), f.contents.clone()));
    }
    blocking(move || {
        std::fs::create_dir_all(&dir)
            .map_err(|e| Error::io(format!("creating {}", dir.display()), e))?;
        for (name, contents) in &writes {
            let tmp = bootsmith_media::work::path(
                &svc_dir,
                &format!("{host}-{name}"),
                bootsmith_media::work::Kind::Tmp,
            );
            let dest = dir.join(name);
            let written =
                std::fs::write(&tmp, contents).and_then(|()| std::fs::rename(&tmp, &dest));
            if let Err(e) = written {
                let _ = std::fs::remove_file(&tmp);
                return Err(Error::io(format!("writing {}", dest.display()), e));
            }
        }
        for old in HTTP_ANSWER_NAMES {
            if !writes.iter().any(|(n, _)| n == old) {
                match std::fs::remove_file(dir.join(old)) {
                    Ok(()) => {}
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                    Err(e) => return Err(Error::io(format!("removing svc/{host}/{old}"), e)),
                }
            }
        }
        svc::sync_dir(&dir);
        Ok(())
    })
    .await?;
    tracing::info!(host = %h.name, files = %wanted.join(", "), "answer files served over HTTP written");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_proxy_password_is_masked_and_the_rest_kept() {
        assert_eq!(
            mask_url_password("http://ops:s3cret@proxy.lab:3128/"),
            "http://ops:********@proxy.lab:3128/"
        );
        assert_eq!(
            mask_url_password("http://proxy.lab:3128"),
            "http://proxy.lab:3128"
        );
        assert_eq!(
            mask_url_password("http://ops@proxy.lab:3128"),
            "http://ops@proxy.lab:3128"
        );
    }
}
