//! Install media, the seed's image call: every input checked first ([`prepare`]), then a
//! job ([`run`]) that extracts each OS's ISO into `svc/<os>/` once, builds the boot ISOs that
//! are missing (one per RHEL-family or Ubuntu OS, one per ESXi host) and rewrites each
//! host's answer-file image `svc/<host>.img` (1 MiB FAT12, labelled for its installer).

use crate::error::ErrorCode;
use std::net::Ipv4Addr;
use std::path::{Path, PathBuf};

use bootsmith_media::fat;
use bootsmith_media::templates::{
    self, CallbackVars, Family as MediaFamily, HostVars, NetworkVars, OsVars, Vars,
};
use serde::Serialize;
use utoipa::ToSchema;

use crate::app::{blocking, App};
use crate::catalog::{BootMode, Family, OsEntry};
use crate::error::{Error, Problem, Result};
use crate::hosts::{self, Host};
use crate::jobs::{JobCtx, JobId, StepState};
use crate::networks::{self, NetworkGroup};
use crate::svc::{self, SvcPath};
use crate::{isos, keys, settings};

/// The file Windows hosts boot from; the operator builds it (WinPE with our startup script).
pub const WINPE_ISO: &str = "WinPE_SVC.iso";

/// What was written for one host.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HostImage {
    /// Host name.
    pub host: String,
    /// `/svc/<host>.img`, or null when the family has no image (ESXi).
    pub file: Option<String>,
    /// Volume label of the image.
    pub label: Option<String>,
    /// Why nothing was written, when nothing was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

fn media_family(f: Family) -> MediaFamily {
    match f {
        Family::Rhel => MediaFamily::Rhel,
        Family::Rhvh => MediaFamily::Rhvh,
        Family::Esxi => MediaFamily::Esxi,
        Family::Ubuntu => MediaFamily::Ubuntu,
        Family::Windows => MediaFamily::Windows,
    }
}

/// The texts of the default answer templates of an OS family.
pub(crate) fn default_template_texts(f: Family) -> Vec<&'static str> {
    templates::default_texts(media_family(f))
}

fn family_name(f: Family) -> &'static str {
    match f {
        Family::Rhel => "rhel",
        Family::Rhvh => "rhvh",
        Family::Esxi => "esxi",
        Family::Ubuntu => "ubuntu",
        Family::Windows => "windows",
    }
}

/// The hosts asked for (all when `names` is None), checked: every name known, an address to
/// serve from, every OS mapped to an ISO that is present, WinPE there for Windows.
async fn plan(
    app: &App,
    names: Option<Vec<String>>,
) -> Result<(Vec<Host>, Vec<NetworkGroup>, String)> {
    let all = hosts::list(app).await?;
    let mut problems = Vec::new();
    let chosen: Vec<Host> = match names {
        None => all.clone(),
        Some(names) => {
            let mut picked = Vec::new();
            for (i, n) in names.iter().enumerate() {
                match all.iter().find(|h| h.name.as_str().eq_ignore_ascii_case(n)) {
                    Some(h) => picked.push(h.clone()),
                    None => problems.push(
                        Problem::field("hosts", format!("there is no host named '{n}'"))
                            .at(i, Some(n)),
                    ),
                }
            }
            picked
        }
    };
    if chosen.is_empty() && problems.is_empty() {
        problems.push(Problem::field(
            "hosts",
            "there are no hosts to make images for",
        ));
    }
    let svc_ip = settings::svc_ip(app).await?;
    if svc_ip.is_none() {
        problems.push(Problem::field(
            "svc_ip",
            "set the boot-server address first",
        ));
    }
    let map = isos::map(app).await?;
    let mut oses: Vec<&str> = chosen.iter().map(|h| h.os.as_str()).collect();
    oses.sort();
    oses.dedup();
    for os in oses {
        match map.iter().find(|m| m.os == os) {
            None => problems.push(Problem::field(
                "iso_map",
                format!("map an ISO to {os} first"),
            )),
            Some(m) => {
                if let Err(why) = isos::svc_file(app.svc_dir(), &m.file) {
                    problems.push(Problem::field(
                        "iso_map",
                        format!("the ISO mapped to {os} is not usable: {why}"),
                    ));
                }
            }
        }
        if app
            .catalog()
            .get(os)
            .is_some_and(|o| o.family == Family::Windows)
            && !svc::serves(app.svc_dir(), WINPE_ISO)
        {
            problems.push(Problem::field(
                "iso_map",
                format!("{os} hosts boot from svc/{WINPE_ISO}, which is not there: build a WinPE ISO with the Windows ADK (copype, then MakeWinPEMedia /ISO) whose startnet.cmd applies network.txt from the answer disk and starts setup from the install tree, then copy it into the svc directory under that name (README: Windows hosts)"),
            ));
        }
    }
    Error::invalid_if_any(
        ErrorCode::ImagesNotReady,
        "Images cannot be made yet",
        problems,
    )?;
    Ok((
        chosen,
        networks::list(app).await?,
        svc_ip.expect("checked").to_string(),
    ))
}

fn host_vars(h: &Host) -> HostVars {
    HostVars {
        name: h.name.to_string(),
        ip: h.ip.to_string(),
        role: h.role.clone(),
        os: h.os.clone(),
        network_group: h.network_group.to_string(),
        server_group: h.server_group.as_ref().map(ToString::to_string),
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
        family: family_name(os.family).to_owned(),
        version: os.version.clone(),
        major,
    }
}

/// Where the medium `name` Bootsmith writes goes at the top of svc. Names are made of checked
/// host names and catalog ids, so one the svc rule refuses means corrupt data.
fn target(svc_dir: &Path, name: &str) -> Result<PathBuf> {
    SvcPath::top(name)
        .map(|p| p.under(svc_dir))
        .map_err(|why| Error::Corrupt(format!("{name} cannot be written into svc: {why}")))
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

/// `http://<svc_ip>:<port>`, an IPv6 address in brackets: where servers reach Bootsmith.
pub(crate) fn base_url(svc_ip: &str, svc_port: u16) -> String {
    if svc_ip.contains(':') {
        format!("http://[{svc_ip}]:{svc_port}")
    } else {
        format!("http://{svc_ip}:{svc_port}")
    }
}

/// What every host's answer files are rendered from, gathered once per run.
struct RenderContext {
    /// `http://<svc_ip>:<port>`: svc and the install callbacks are below it.
    base_url: String,
    /// What stale media are judged by, for the hosts of the run.
    inputs: crate::lifecycle::InputsContext,
    svc_ip: String,
    svc_url: String,
    svc_port: u16,
    nets: Vec<NetworkGroup>,
    all_hosts: Vec<HostVars>,
    master: Option<HostVars>,
    keys: Vec<String>,
    default_proxy: Option<String>,
}

impl RenderContext {
    async fn load(
        app: &App,
        chosen: &[Host],
        nets: Vec<NetworkGroup>,
        svc_ip: String,
        svc_port: u16,
    ) -> Result<Self> {
        let everyone = hosts::list(app).await?;
        let base_url = base_url(&svc_ip, svc_port);
        Ok(RenderContext {
            inputs: crate::lifecycle::InputsContext::load(app, chosen, svc_port).await?,
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
        })
    }

    /// The host's answer files, rendered (with `svc/<os>.tmpl` when there is one), reporting
    /// back with `token` when given.
    async fn render(
        &self,
        app: &App,
        h: &Host,
        os: &OsEntry,
        token: Option<&str>,
    ) -> Result<Vec<fat::ImageFile>> {
        self.render_with(app, h, os, token.map(str::to_owned), false)
            .await
    }

    /// The answer files as [`Self::render`] makes them, with [`MASK`] where each secret goes
    /// (password, its hash, the install token, a proxy's password): what a person may see.
    async fn render_masked(
        &self,
        app: &App,
        h: &Host,
        os: &OsEntry,
    ) -> Result<Vec<fat::ImageFile>> {
        self.render_with(app, h, os, Some(MASK.to_owned()), true)
            .await
    }

    async fn render_with(
        &self,
        app: &App,
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
            },
            os: os_vars(os),
            keys: self.keys.clone(),
            root_password_hash: hash,
            // Only Windows cannot take a hash; elsewhere the clear password is dropped here and logins use the SSH keys.
            admin_password: (os.family == Family::Windows).then_some(clear),
            uefi: os.boot == BootMode::Uefi,
            callback: token.map(|t| CallbackVars {
                installed: format!("{}/api/v2/hosts/{}/installed", self.base_url, h.name),
                failed: format!("{}/api/v2/hosts/{}/failed", self.base_url, h.name),
                token: t.to_owned(),
            }),
        };
        let family = media_family(os.family);
        let svc = app.svc_dir().to_owned();
        let os_id = os.id.clone();
        blocking(move || {
            let over = override_template(&svc, &os_id)?;
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
    /// What it was made from: `default` or the operator's `svc/<os>.tmpl`.
    pub template: String,
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
    let files = ctx.render_masked(app, &host, &os).await?;
    let svc = app.svc_dir().to_owned();
    let os_id = os.id.clone();
    let template = blocking(move || override_template(&svc, &os_id))
        .await?
        .map_or_else(|| "default".to_owned(), |(n, _)| n);
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
    })
}

fn catalog_entry(app: &App, h: &Host) -> Result<OsEntry> {
    app.catalog()
        .get(&h.os)
        .cloned()
        .ok_or_else(|| Error::Corrupt(format!("host {}: OS {} left the catalog", h.name, h.os)))
}

/// Render and (re)write `svc/<host>.img` for a host whose family uses one.
async fn write_host_image(
    app: &App,
    ctx: &RenderContext,
    h: &Host,
    os: &OsEntry,
) -> Result<HostImage> {
    let (token, hash) = crate::lifecycle::new_token();
    let files = ctx.render(app, h, os, Some(&token)).await?;
    let label = templates::label(media_family(os.family));
    let target = target(app.svc_dir(), &format!("{}.img", h.name))?;
    let inputs = ctx.inputs.inputs(h);
    drop_outdated_single_device_iso(app, h, &inputs).await?;
    // The same render (same token) as the disk: either copy reports the same install.
    write_http_answers(app, h, os, &files).await?;
    blocking(move || Ok(fat::write_image(&target, label, &files)?)).await?;
    tracing::info!(host = %h.name, label, "answer-file image written");
    let file = format!("/svc/{}.img", h.name);
    crate::lifecycle::built(app, h, &inputs, Some(hash), &file).await?;
    Ok(HostImage {
        host: h.name.to_string(),
        file: Some(format!("/svc/{}.img", h.name)),
        label: Some(label.to_owned()),
        note: None,
    })
}

/// Check everything, then (re)write `svc/<host>.img` for every selected host whose family uses one.
/// `svc_port` is the port where the servers fetch svc over HTTP.
pub async fn write_answer_images(
    app: &App,
    names: Option<Vec<String>>,
    svc_port: u16,
) -> Result<Vec<HostImage>> {
    let (chosen, nets, svc_ip) = plan(app, names).await?;
    let ctx = RenderContext::load(app, &chosen, nets, svc_ip, svc_port).await?;
    let mut results = Vec::new();
    for h in &chosen {
        let os = catalog_entry(app, h)?;
        if os.family == Family::Esxi {
            results.push(HostImage {
                host: h.name.to_string(),
                file: None,
                label: None,
                note: Some("ESXi reads its kickstart from the host's own boot ISO".into()),
            });
            continue;
        }
        results.push(write_host_image(app, &ctx, h, &os).await?);
    }
    Ok(results)
}

/// The HTTP install tree of one OS.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct InstallTree {
    /// OS id.
    pub os: String,
    /// `/svc/<os>/`.
    pub tree: String,
    /// True when it was extracted now, false when it was already there (delete it to rebuild).
    pub built: bool,
    /// Files written now.
    pub files: u64,
    /// Bytes written now.
    pub bytes: u64,
}

/// Extract the mapped ISO of each OS into `svc/<os>/` unless that tree exists.
/// `progress(os, done, total)` reports bytes as they are written.
pub async fn extract_trees(
    app: &App,
    oses: &[String],
    progress: impl Fn(&str, u64, u64) + Send + Sync + Clone + 'static,
) -> Result<Vec<InstallTree>> {
    let map = isos::map(app).await?;
    let mut problems = Vec::new();
    let mut jobs = Vec::new();
    for os in oses {
        match map
            .iter()
            .find(|m| &m.os == os)
            .map(|m| isos::svc_file(app.svc_dir(), &m.file))
        {
            None => problems.push(Problem::field(
                "iso_map",
                format!("map an ISO to {os} first"),
            )),
            Some(Err(why)) => problems.push(Problem::field(
                "iso_map",
                format!("the ISO mapped to {os} is not usable: {why}"),
            )),
            Some(Ok(path)) => jobs.push((os.clone(), path)),
        }
    }
    Error::invalid_if_any(
        ErrorCode::ImagesNotReady,
        "Install trees cannot be made yet",
        problems,
    )?;
    let mut out = Vec::new();
    for (os, iso) in jobs {
        let dest = target(app.svc_dir(), &os)?;
        let report = progress.clone();
        let name = os.clone();
        let result = blocking(move || {
            Ok(bootsmith_media::extract::extract(
                &iso,
                &dest,
                &mut |done, total| report(&name, done, total),
            )?)
        })
        .await?;
        let (built, files, bytes) = match result {
            bootsmith_media::extract::Extracted::Built { files, bytes } => (true, files, bytes),
            bootsmith_media::extract::Extracted::AlreadyThere => (false, 0, 0),
        };
        tracing::info!(os = %os, built, files, bytes, "install tree ready");
        out.push(InstallTree {
            tree: format!("/svc/{os}/"),
            os,
            built,
            files,
            bytes,
        });
    }
    Ok(out)
}

/// Volume id of an OS's boot ISO; the boot config's `inst.stage2=hd:LABEL=` names it.
fn boot_volume_id(os: &OsEntry) -> String {
    format!("BOOTSMITH_{}", os.code.to_ascii_uppercase())
}

/// The file in svc a host boots from (its CD), by family: the OS's boot ISO, the host's own
/// ISO for ESXi, the operator's WinPE ISO for Windows.
pub fn boot_media(os: &OsEntry, host: &str) -> String {
    match os.family {
        Family::Rhel | Family::Rhvh | Family::Ubuntu => format!("{}-boot.iso", os.id),
        Family::Esxi => format!("{host}.iso"),
        Family::Windows => WINPE_ISO.to_owned(),
    }
}

/// The answer-file disk a host gets (its HDD), or None for ESXi (its kickstart is on its ISO).
pub fn answer_disk(os: &OsEntry, host: &str) -> Option<String> {
    (os.family != Family::Esxi).then(|| format!("{host}.img"))
}

/// The files in svc that belong to `host` alone (its answer disk, and an ESXi host's own ISO):
/// what a shared vMedia mapping of several hosts finds for this one.
pub fn own_media(os: &OsEntry, host: &str) -> Vec<String> {
    let iso = (os.family == Family::Esxi).then(|| boot_media(os, host));
    answer_disk(os, host).into_iter().chain(iso).collect()
}

/// The single-device boot ISO of `host`, in its directory of svc: the OS's boot ISO whose
/// entries fetch the answer file over HTTP, for a BMC with one virtual-media device.
pub fn single_device_iso(host: &str) -> String {
    format!("{host}/{SINGLE_DEVICE_ISO}")
}

/// File name of a host's single-device boot ISO inside `svc/<host>/`.
pub const SINGLE_DEVICE_ISO: &str = "boot.iso";

/// Names of answer files Bootsmith serves in `svc/<host>/` (any family): what a rebuild for
/// another family removes.
const HTTP_ANSWER_NAMES: [&str; 3] = ["ks.cfg", "user-data", "meta-data"];

/// The answer files of `host` that svc serves over HTTP, as `<host>/<file>`: `ks.cfg` (RHEL
/// family, RHVH, ESXi), `user-data` and `meta-data` (Ubuntu's NoCloud seed); none for Windows
/// (WinPE reads its answer disk), nor for a host named like a catalog OS, whose directory
/// would be that OS's install tree.
pub fn http_answers(app: &App, os: &OsEntry, host: &str) -> Vec<String> {
    if shadows_a_tree(app, host) {
        return Vec::new();
    }
    let names: &[&str] = match os.family {
        Family::Rhel | Family::Rhvh | Family::Esxi => &["ks.cfg"],
        Family::Ubuntu => &["user-data", "meta-data"],
        Family::Windows => &[],
    };
    names.iter().map(|n| format!("{host}/{n}")).collect()
}

/// Whether `svc/<host>/` is (or would be) the install tree of a catalog OS (`rocky9`).
fn shadows_a_tree(app: &App, host: &str) -> bool {
    app.catalog()
        .entries()
        .iter()
        .any(|o| o.id.eq_ignore_ascii_case(host))
}

/// Where a nested medium Bootsmith writes (`<host>/ks.cfg`) goes in svc; names are made of
/// checked host names, so one the svc rule refuses means corrupt data.
fn target_nested(svc_dir: &Path, rel: &str) -> Result<PathBuf> {
    SvcPath::new(rel)
        .map(|p| p.under(svc_dir))
        .map_err(|why| Error::Corrupt(format!("{rel} cannot be written into svc: {why}")))
}

/// Write the host's rendered answer files into `svc/<host>/` for single-device media, each
/// to a hidden temporary name at the top of svc (which the start-up sweep clears after a
/// crash) renamed into place, so an installer never fetches half a file. Answer files of
/// another family left from an earlier build are removed.
async fn write_http_answers(
    app: &App,
    h: &Host,
    os: &OsEntry,
    files: &[fat::ImageFile],
) -> Result<()> {
    let host = h.name.to_string();
    let wanted = http_answers(app, os, &host);
    if wanted.is_empty() {
        return Ok(());
    }
    let svc_dir = app.svc_dir().to_owned();
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

/// Remove `h`'s single-device ISO when what it was built from changed (the boot-server
/// address or port in its URLs, the OS's ISO): [`single_device_media`] builds it again.
/// Called before a rebuild records the new inputs.
async fn drop_outdated_single_device_iso(
    app: &App,
    h: &Host,
    now: &crate::lifecycle::Inputs,
) -> Result<()> {
    let path = target_nested(app.svc_dir(), &single_device_iso(h.name.as_str()))?;
    if !path.exists() {
        return Ok(());
    }
    let then = crate::lifecycle::recorded_inputs(app, h).await?;
    let same = |k: &str| then.as_ref().is_some_and(|t| t.get(k) == now.get(k));
    if same("boot_server") && same("iso") {
        return Ok(());
    }
    std::fs::remove_file(&path)
        .map_err(|e| Error::io(format!("removing the outdated {}", path.display()), e))?;
    tracing::info!(host = %h.name, "single-device ISO removed: built from other inputs");
    Ok(())
}

/// What a BMC with one virtual-media device mounts for a host.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SingleDevice {
    /// Host name.
    pub host: String,
    /// `/svc/<host>/boot.iso` (an ESXi host: its own `/svc/<host>.iso`).
    pub file: String,
    /// The URL to mount: `http://<svc_ip>:<port>/svc/…`.
    pub url: String,
    /// True when built now, false when it was there.
    pub built: bool,
    /// The answer files its installer fetches over HTTP (`/svc/<host>/ks.cfg`); empty for
    /// ESXi, whose kickstart is on its ISO.
    pub answers: Vec<String>,
}

/// The one image a BMC with a single virtual-media device mounts to install `name`, built
/// when missing: `svc/<host>/boot.iso`, whose boot entries fetch the host's answer files
/// from `svc/<host>/` over HTTP. An ESXi host's own ISO already carries its kickstart, so it
/// is returned as it is. The host's images must have been made (they write the answer
/// files, with the install token); Windows cannot install this way (WinPE reads its answer
/// disk). Progress goes to `job` (the deploy's). For the Redfish driver: mount `url`.
pub async fn single_device_media(app: &App, job: &JobCtx, name: &str) -> Result<SingleDevice> {
    let h = hosts::get(app, name).await?;
    let os = catalog_entry(app, &h)?;
    let host = h.name.to_string();
    let svc_port = app.svc_port();
    let svc_ip = settings::svc_ip(app).await?;
    let (Some(svc_ip), true) = (svc_ip, svc_port != 0) else {
        return Err(Error::Unprocessable {
            code: ErrorCode::SvcNotServed,
            message: format!("{host}: single-device media need the boot-server address set and svc served over HTTP by this process"),
            details: Vec::new(),
        });
    };
    let base = base_url(&svc_ip.to_string(), svc_port);
    let missing = |what: String| {
        Error::conflict(
            ErrorCode::MediaStale,
            format!("The install media of {host} are missing: {what} is not in svc; make its images first (Images screen, or create images for the host)"),
        )
    };
    match os.family {
        Family::Windows => {
            return Err(Error::Unprocessable {
                code: ErrorCode::SingleDeviceUnsupported,
                message: format!("{host} installs {}: WinPE reads its answer files from the UNATTEND disk, a second virtual-media device, so it cannot install from one device", os.name),
                details: Vec::new(),
            })
        }
        Family::Esxi => {
            let file = boot_media(&os, &host);
            if !target(app.svc_dir(), &file)?.is_file() {
                return Err(missing(format!("/svc/{file}")));
            }
            return Ok(SingleDevice {
                url: format!("{base}/svc/{file}"),
                file: format!("/svc/{file}"),
                host,
                built: false,
                answers: Vec::new(),
            });
        }
        Family::Rhel | Family::Rhvh | Family::Ubuntu => {}
    }
    if shadows_a_tree(app, &host) {
        return Err(Error::Unprocessable {
            code: ErrorCode::SingleDeviceUnsupported,
            message: format!("{host} is also the name of a catalog OS, so svc/{host}/ is that OS's install tree and cannot hold the host's answer files: rename the host to install it from one device"),
            details: Vec::new(),
        });
    }
    let answers = http_answers(app, &os, &host);
    for f in &answers {
        if !target_nested(app.svc_dir(), f)?.is_file() {
            return Err(missing(format!("/svc/{f}")));
        }
    }
    let file = single_device_iso(&host);
    let answer_url = match os.family {
        Family::Ubuntu => format!("{base}/svc/{host}/"),
        _ => format!("{base}/svc/{}", answers[0]),
    };
    // An ISO whose entries name another URL (the address changed and the images were not
    // made again since) would send the installer elsewhere: built again.
    let out = target_nested(app.svc_dir(), &file)?;
    if out.is_file() {
        let (iso, url) = (out.clone(), answer_url.clone());
        let right = blocking(move || Ok(bootsmith_media::boot::boot_configs_mention(&iso, &url)?))
            .await
            .unwrap_or(false);
        if !right {
            std::fs::remove_file(&out)
                .map_err(|e| Error::io(format!("removing the outdated {}", out.display()), e))?;
        }
    }
    let map = isos::map(app).await?;
    let source = map
        .iter()
        .find(|m| m.os == os.id)
        .ok_or_else(|| missing(format!("an ISO mapped to {}", os.id)))
        .and_then(|m| {
            isos::svc_file(app.svc_dir(), &m.file).map_err(|why| {
                Error::invalid_field(
                    ErrorCode::ImagesNotReady,
                    "Single-device media cannot be made yet",
                    "iso_map",
                    format!("the ISO mapped to {} is not usable: {why}", os.id),
                )
            })
        })?;
    let iso = build_boot_iso(
        app,
        job,
        &os,
        &source,
        &file,
        Some(&host),
        AnswerSource::Http(answer_url),
    )
    .await?;
    Ok(SingleDevice {
        url: format!("{base}{}", iso.file),
        file: iso.file,
        host,
        built: iso.built,
        answers: answers.iter().map(|f| format!("/svc/{f}")).collect(),
    })
}

/// Take an installed host's own media out of svc, so a controller that mounts them again (a
/// reboot, a re-association) finds no answer file and cannot install over the system; the
/// files removed, as `/svc/<file>`: its answer disk, an ESXi host's ISO, the answer files
/// served over HTTP and the single-device ISO. Building the host's images again brings them
/// back.
pub async fn retire(app: &App, host: &Host) -> Result<Vec<String>> {
    let os = catalog_entry(app, host)?;
    let svc_dir = app.svc_dir().to_owned();
    let name = host.name.as_str();
    let mut names = own_media(&os, name);
    names.extend(http_answers(app, &os, name));
    // Never the install tree of an OS the host is named like.
    let host_dir = (!shadows_a_tree(app, name)).then(|| name.to_owned());
    if host_dir.is_some() {
        names.push(single_device_iso(name));
    }
    blocking(move || {
        let mut removed = Vec::new();
        for name in names {
            match std::fs::remove_file(target_nested(&svc_dir, &name)?) {
                Ok(()) => removed.push(format!("/svc/{name}")),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(Error::io(format!("removing svc/{name}"), e)),
            }
        }
        if !removed.is_empty() {
            // The host's directory goes too once empty; an operator's file in it keeps it.
            if let Some(dir) = host_dir.and_then(|d| target(&svc_dir, &d).ok()) {
                let _ = std::fs::remove_dir(dir);
            }
            svc::sync_dir(&svc_dir);
        }
        Ok(removed)
    })
    .await
}

/// A boot ISO made (or found) by a run.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BootIso {
    /// `/svc/<file>`.
    pub file: String,
    /// OS id.
    pub os: String,
    /// The host it belongs to (ESXi), or null when all hosts of the OS share it.
    pub host: Option<String>,
    /// True when built now, false when it was already there (delete it to rebuild).
    pub built: bool,
    /// Has a BIOS boot entry (only known when built now).
    pub bios: Option<bool>,
    /// Has a UEFI boot entry (only known when built now).
    pub uefi: Option<bool>,
}

/// Everything one image run produced.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Images {
    /// Install trees, one per OS.
    pub trees: Vec<InstallTree>,
    /// Boot ISOs: one per RHEL-family or Ubuntu OS, one per ESXi host.
    pub boot_isos: Vec<BootIso>,
    /// Per-host answer-file images.
    pub images: Vec<HostImage>,
    /// What the operator should know about the media made: with no SSH key, that the hosts
    /// will accept no login. Absent when there is nothing to say.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// Step names, as the job's progress shows them.
mod step {
    pub const EXTRACT: &str = "extract";
    pub const BOOT_ISO: &str = "boot-iso";
    pub const ANSWER_IMAGE: &str = "answer-image";
    pub const HOST_ISO: &str = "host-iso";
    pub const RHVH_IMAGE: &str = "rhvh-image";
}

/// Checks that need the ISOs opened: each must be an ISO and, where we build boot media
/// from it, bootable.
async fn check_sources(app: &App, oses: &[OsEntry]) -> Result<Vec<(OsEntry, PathBuf)>> {
    let map = isos::map(app).await?;
    let mut problems = Vec::new();
    let mut out = Vec::new();
    for os in oses {
        let Some(path) = map
            .iter()
            .find(|m| m.os == os.id)
            .and_then(|m| isos::svc_file(app.svc_dir(), &m.file).ok())
        else {
            continue; // plan() already reported it
        };
        let p = path.clone();
        let bootable = blocking(move || {
            let mut iso = bootsmith_media::iso::Iso::open(&p)?;
            Ok(!iso.boot_entries()?.is_empty())
        })
        .await;
        // Windows hosts boot from the operator's WinPE ISO; theirs is only the install tree.
        match bootable {
            Ok(true) => out.push((os.clone(), path)),
            Ok(false) if os.family == Family::Windows => out.push((os.clone(), path)),
            Ok(false) => problems.push(Problem::field(
                "iso_map",
                format!(
                    "the ISO mapped to {} has no boot entry, so no boot ISO can be made from it",
                    os.id
                ),
            )),
            Err(e) => problems.push(Problem::field(
                "iso_map",
                format!("the ISO mapped to {}: {e}", os.id),
            )),
        }
    }
    Error::invalid_if_any(
        ErrorCode::ImagesNotReady,
        "Images cannot be made yet",
        problems,
    )?;
    Ok(out)
}

/// A checked image run, ready to start.
pub struct Prepared {
    chosen: Vec<Host>,
    sources: Vec<(OsEntry, PathBuf)>,
    ctx: RenderContext,
}

/// Check every input of an image run for the named hosts (all when None) without writing
/// anything: hosts known, svc_ip set, each OS mapped to a present, bootable ISO, WinPE there
/// for Windows, svc served over HTTP. Every problem is listed in one error.
pub async fn prepare(app: &App, names: Option<Vec<String>>) -> Result<Prepared> {
    let svc_port = app.svc_port();
    if svc_port == 0 {
        return Err(Error::Unprocessable {
            code: ErrorCode::SvcNotServed,
            message: "svc is not being served over HTTP by this process, so servers could not fetch their install files; start the REST listener".into(),
            details: Vec::new(),
        });
    }
    let (chosen, nets, svc_ip) = plan(app, names).await?;
    let mut oses: Vec<OsEntry> = Vec::new();
    for h in &chosen {
        let os = catalog_entry(app, h)?;
        if !oses.iter().any(|o| o.id == os.id) {
            oses.push(os);
        }
    }
    let sources = check_sources(app, &oses).await?;
    let ctx = RenderContext::load(app, &chosen, nets, svc_ip, svc_port).await?;
    Ok(Prepared {
        chosen,
        sources,
        ctx,
    })
}

/// Check everything, then run the images job; the id comes back at once.
/// A second run while one is going gets a 409.
pub async fn start(app: &App, names: Option<Vec<String>>) -> Result<JobId> {
    let prepared = prepare(app, names).await?;
    let core = app.clone();
    crate::jobs::start(app, JOB_KIND, None, move |job| async move {
        let images = run(&core, prepared, &job).await?;
        serde_json::to_value(images)
            .map_err(|e| Error::Corrupt(format!("image results do not serialize: {e}")))
    })
    .await
}

/// Job kind of image runs.
pub const JOB_KIND: crate::jobs::JobKind = crate::jobs::JobKind::Images;

/// Everything the seed's image call does, after [`prepare`]: extract each OS's ISO once,
/// build the boot ISOs that are missing, then write each host's answer media.
/// Progress goes to `job`.
pub async fn run(app: &App, prepared: Prepared, job: &JobCtx) -> Result<Images> {
    let Prepared {
        chosen,
        sources,
        ctx,
    } = prepared;
    super::reach::warn(app, job).await;
    let names: Vec<String> = chosen.iter().map(|h| h.name.to_string()).collect();
    let warnings: Vec<String> = crate::keys::no_login_warning(app, &names)
        .await?
        .into_iter()
        .collect();
    for w in &warnings {
        job.step(None, "logins", StepState::Warning, Some(w));
    }
    let (trees, mut boot_isos) = shared_media(app, job, &sources).await?;

    let mut images = Vec::new();
    for h in &chosen {
        let os = catalog_entry(app, h)?;
        let host = h.name.to_string();
        if os.family == Family::Esxi {
            let source = &sources
                .iter()
                .find(|(o, _)| o.id == os.id)
                .expect("checked above")
                .1;
            boot_isos.push(host_iso(app, job, &ctx, h, &os, source).await?);
            continue;
        }
        job.step(Some(&host), step::ANSWER_IMAGE, StepState::Started, None);
        match write_host_image(app, &ctx, h, &os).await {
            Ok(img) => {
                job.step(
                    Some(&host),
                    step::ANSWER_IMAGE,
                    StepState::Done,
                    img.file.as_deref(),
                );
                images.push(img);
            }
            Err(e) => {
                job.step(
                    Some(&host),
                    step::ANSWER_IMAGE,
                    StepState::Failed,
                    Some(&e.to_string()),
                );
                return Err(e);
            }
        }
    }
    Ok(Images {
        trees,
        boot_isos,
        images,
        warnings,
    })
}

/// An ESXi host's own boot ISO, with its kickstart inside: kept while it was built from the
/// inputs as they are and its install token is unspent, else built again.
async fn host_iso(
    app: &App,
    job: &JobCtx,
    ctx: &RenderContext,
    h: &Host,
    os: &OsEntry,
    source: &Path,
) -> Result<BootIso> {
    let host = h.name.to_string();
    let file = boot_media(os, &host);
    let inputs = ctx.inputs.inputs(h);
    let out = target(app.svc_dir(), &file)?;
    // The kickstart served over HTTP carries the same token as the ISO's: keep the ISO only
    // with it (media built before Bootsmith served it are built again).
    let served = http_answers(app, os, &host)
        .iter()
        .all(|f| target_nested(app.svc_dir(), f).is_ok_and(|p| p.is_file()));
    if out.exists() {
        if served && crate::lifecycle::reusable(app, h, &inputs).await? {
            // Kept as it is (it exists): the kickstart is not needed.
            return build_boot_iso(app, job, os, source, &file, Some(&host), AnswerSource::Disk)
                .await;
        }
        std::fs::remove_file(&out)
            .map_err(|e| Error::io(format!("removing the outdated {}", out.display()), e))?;
    }
    let (token, hash) = crate::lifecycle::new_token();
    let files = ctx.render(app, h, os, Some(&token)).await?;
    write_http_answers(app, h, os, &files).await?;
    let ks = files
        .into_iter()
        .next()
        .map(|f| f.contents)
        .unwrap_or_default();
    let iso = build_boot_iso(
        app,
        job,
        os,
        source,
        &file,
        Some(&host),
        AnswerSource::OnIso(ks),
    )
    .await?;
    crate::lifecycle::built(app, h, &inputs, Some(hash), &iso.file).await?;
    Ok(iso)
}

/// What every host of an OS shares: the install tree (extracted once) and, for the RHEL
/// family and Ubuntu, the boot ISO (built once).
async fn shared_media(
    app: &App,
    job: &JobCtx,
    sources: &[(OsEntry, PathBuf)],
) -> Result<(Vec<InstallTree>, Vec<BootIso>)> {
    let mut trees = Vec::new();
    for (os, _) in sources {
        job.step(None, step::EXTRACT, StepState::Started, Some(&os.id));
        let report = job.clone();
        let tree = extract_trees(app, std::slice::from_ref(&os.id), move |os, done, total| {
            report.bytes(&format!("{} {os}", step::EXTRACT), None, done, total)
        })
        .await;
        let tree = match tree {
            Ok(mut t) => t.remove(0),
            Err(e) => {
                job.step(None, step::EXTRACT, StepState::Failed, Some(&e.to_string()));
                return Err(e);
            }
        };
        let (state, note) = if tree.built {
            (
                StepState::Done,
                format!("{}: {} files, {} bytes", tree.os, tree.files, tree.bytes),
            )
        } else {
            (StepState::Skipped, format!("{}: already there", tree.tree))
        };
        job.step(None, step::EXTRACT, state, Some(&note));
        trees.push(tree);
        if os.family == Family::Rhvh {
            rhvh_image(app, job, os).await?;
        }
    }
    let mut boot_isos = Vec::new();
    for (os, source) in sources {
        match os.family {
            Family::Rhel | Family::Rhvh | Family::Ubuntu => {
                let file = boot_media(os, "");
                boot_isos.push(
                    build_boot_iso(app, job, os, source, &file, None, AnswerSource::Disk).await?,
                );
            }
            Family::Windows => {
                // The operator's; prepare() checked that it is there.
                job.step(
                    None,
                    step::BOOT_ISO,
                    StepState::Skipped,
                    Some(&format!("{}: boots from /svc/{WINPE_ISO}", os.id)),
                );
                boot_isos.push(BootIso {
                    file: format!("/svc/{WINPE_ISO}"),
                    os: os.id.clone(),
                    host: None,
                    built: false,
                    bios: None,
                    uefi: None,
                });
            }
            Family::Esxi => {}
        }
    }
    Ok((trees, boot_isos))
}

/// RHVH's kickstart installs `svc/<os>/squashfs.img`, which the ISO only carries inside an
/// RPM: take it out once (like the tree, it is left alone when present).
async fn rhvh_image(app: &App, job: &JobCtx, os: &OsEntry) -> Result<()> {
    use bootsmith_media::rhvh;
    let tree = target(app.svc_dir(), &os.id)?;
    let dest = tree.join(rhvh::SQUASHFS);
    let file = format!("/svc/{}/{}", os.id, rhvh::SQUASHFS);
    if dest.is_file() {
        job.step(
            None,
            step::RHVH_IMAGE,
            StepState::Skipped,
            Some(&format!("{file} is already there")),
        );
        return Ok(());
    }
    job.step(None, step::RHVH_IMAGE, StepState::Started, Some(&file));
    let staging = bootsmith_media::work::path(
        app.svc_dir(),
        &format!("{}-squashfs", os.id),
        bootsmith_media::work::Kind::Staging,
    );
    let out = blocking(move || {
        let rpm = rhvh::image_rpm(&tree)?;
        Ok(rhvh::extract_squashfs(&rpm, &dest, &staging)?)
    })
    .await;
    match out {
        Ok(bytes) => {
            job.step(
                None,
                step::RHVH_IMAGE,
                StepState::Done,
                Some(&format!("{file}: {bytes} bytes")),
            );
            Ok(())
        }
        Err(e) => {
            job.step(
                None,
                step::RHVH_IMAGE,
                StepState::Failed,
                Some(&e.to_string()),
            );
            Err(e)
        }
    }
}

/// The legacy `POST /api/v1/isos/boot`: install trees and shared boot ISOs for every mapped
/// OS, no per-host media. ESXi (per-host ISOs) and Windows (WinPE) have nothing shared to build.
pub async fn start_boot_isos(app: &App) -> Result<JobId> {
    let map = isos::map(app).await?;
    let mut oses = Vec::new();
    for m in &map {
        if let Some(os) = app.catalog().get(&m.os) {
            if matches!(os.family, Family::Rhel | Family::Rhvh | Family::Ubuntu) {
                oses.push(os.clone());
            }
        }
    }
    if oses.is_empty() {
        return Err(Error::invalid_field(
            ErrorCode::ImagesNotReady,
            "Boot ISOs cannot be made yet",
            "iso_map",
            "map an ISO of a RHEL-family or Ubuntu OS first",
        ));
    }
    for m in map.iter().filter(|m| oses.iter().any(|o| o.id == m.os)) {
        if let Err(why) = isos::svc_file(app.svc_dir(), &m.file) {
            return Err(Error::invalid_field(
                ErrorCode::ImagesNotReady,
                "Boot ISOs cannot be made yet",
                "iso_map",
                format!("the ISO mapped to {} is not usable: {why}", m.os),
            ));
        }
    }
    let sources = check_sources(app, &oses).await?;
    let core = app.clone();
    crate::jobs::start(app, JOB_KIND, None, move |job| async move {
        let (trees, boot_isos) = shared_media(&core, &job, &sources).await?;
        serde_json::to_value(Images {
            trees,
            boot_isos,
            images: Vec::new(),
            warnings: Vec::new(),
        })
        .map_err(|e| Error::Corrupt(format!("image results do not serialize: {e}")))
    })
    .await
}

/// Where a boot ISO's installer finds its answer file (owned [`bootsmith_media::boot::Answers`]).
enum AnswerSource {
    /// The host's labelled answer disk `<host>.img` (RHEL family, Ubuntu).
    Disk,
    /// The rendered kickstart, on the ISO itself (ESXi).
    OnIso(Vec<u8>),
    /// This URL in svc (single-device media).
    Http(String),
}

/// Build one boot ISO unless it exists (seed rule: delete it to rebuild).
async fn build_boot_iso(
    app: &App,
    job: &JobCtx,
    os: &OsEntry,
    source: &Path,
    file: &str,
    host: Option<&str>,
    answers: AnswerSource,
) -> Result<BootIso> {
    let step_name = if host.is_some() {
        step::HOST_ISO
    } else {
        step::BOOT_ISO
    };
    let out = target_nested(app.svc_dir(), file)?;
    let mut result = BootIso {
        file: format!("/svc/{file}"),
        os: os.id.clone(),
        host: host.map(str::to_owned),
        built: false,
        bios: None,
        uefi: None,
    };
    if out.exists() {
        job.step(
            host,
            step_name,
            StepState::Skipped,
            Some(&format!(
                "{} is already there; delete it to rebuild",
                result.file
            )),
        );
        return Ok(result);
    }
    job.step(host, step_name, StepState::Started, Some(&result.file));
    let family = os.family;
    let volume_id = boot_volume_id(os);
    let title = format!("Install {}", os.name);
    let src = source.to_owned();
    let svc_dir = app.svc_dir().to_owned();
    let rel = file.to_owned();
    let report = job.clone();
    let bytes_step = format!("{step_name} {file}");
    let who = host.map(str::to_owned);
    let built = blocking(move || {
        use bootsmith_media::boot::{Answers, Flavor};
        let flavor = match family {
            Family::Esxi => Flavor::Esxi,
            Family::Ubuntu => Flavor::Ubuntu,
            _ => Flavor::Rhel {
                volume_id: &volume_id,
            },
        };
        let answers = match &answers {
            AnswerSource::Disk => Answers::Disk,
            AnswerSource::OnIso(ks) => Answers::OnIso(ks),
            AnswerSource::Http(url) => Answers::Http(url),
        };
        // A nested ISO (`<host>/boot.iso`) is built in a work directory at the top of svc
        // (its partial ISO and staging inside it) and moved in at the end: the start-up sweep
        // only clears the top of svc, so a crash leaves nothing in the host's directory.
        let Some((dir, name)) = rel.split_once('/') else {
            return Ok(bootsmith_media::boot::build(
                &src,
                &out,
                flavor,
                answers,
                &title,
                &mut |done, total| report.bytes(&bytes_step, who.as_deref(), done, total),
            )?);
        };
        let work = bootsmith_media::work::path(
            &svc_dir,
            &rel.replace('/', "-"),
            bootsmith_media::work::Kind::Staging,
        );
        let built = std::fs::create_dir(&work)
            .map_err(|e| Error::io(format!("creating {}", work.display()), e))
            .and_then(|()| {
                let staged = work.join(name);
                let built = bootsmith_media::boot::build(
                    &src,
                    &staged,
                    flavor,
                    answers,
                    &title,
                    &mut |done, total| report.bytes(&bytes_step, who.as_deref(), done, total),
                )?;
                std::fs::create_dir_all(svc_dir.join(dir))
                    .and_then(|()| std::fs::rename(&staged, &out))
                    .map_err(|e| {
                        Error::io(format!("moving the boot ISO to {}", out.display()), e)
                    })?;
                Ok(built)
            });
        let _ = std::fs::remove_dir_all(&work);
        built
    })
    .await;
    match built {
        Ok(b) => {
            result.built = true;
            result.bios = Some(b.bios);
            result.uefi = Some(b.uefi);
            tracing::info!(
                file,
                bios = b.bios,
                uefi = b.uefi,
                bytes = b.bytes,
                "boot ISO built"
            );
            job.step(host, step_name, StepState::Done, Some(&result.file));
            Ok(result)
        }
        Err(e) => {
            job.step(host, step_name, StepState::Failed, Some(&e.to_string()));
            Err(e)
        }
    }
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
