//! Install images. Built so far: the per-host answer-file image
//! `svc/<host>.img` (1 MiB FAT12, labelled for the OS family's installer).
//! ISO extraction, boot ISOs, ESXi per-host ISOs and the job that runs the
//! whole pipeline are still to come; `POST /api/v2/deploy/images` answers
//! 501 until they are.

use std::net::Ipv4Addr;
use std::path::{Path, PathBuf};

use bootsmith_media::fat;
use bootsmith_media::templates::{
    self, Family as MediaFamily, HostVars, NetworkVars, OsVars, Vars,
};
use serde::Serialize;
use utoipa::ToSchema;

use crate::app::{blocking, App};
use crate::catalog::{BootMode, Family, OsEntry};
use crate::error::{Error, Problem, Result};
use crate::hosts::{self, Host};
use crate::networks::{self, NetworkGroup};
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
            "set the boot-server address first (POST /api/v1/ip)",
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
                format!("map an ISO to {os} first (POST /api/v1/isos/map)"),
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
            && !app.svc_dir().join(WINPE_ISO).is_file()
        {
            problems.push(Problem::field(
                "iso_map",
                format!("{os} hosts boot from {WINPE_ISO}: build a WinPE ISO and put it into the svc directory under that name"),
            ));
        }
    }
    if !problems.is_empty() {
        return Err(Error::invalid(
            "images_not_ready",
            "Images cannot be made yet",
            problems,
        ));
    }
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

/// `svc/<os>.tmpl` when the operator put one there (a regular file inside svc).
fn override_template(svc: &Path, os: &str) -> Result<Option<(String, String)>> {
    let path = svc.join(format!("{os}.tmpl"));
    let Ok(real) = path.canonicalize() else {
        return Ok(None);
    };
    if !real.starts_with(svc) || !real.is_file() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(&real)
        .map_err(|e| Error::io(format!("reading {}", real.display()), e))?;
    Ok(Some((format!("svc/{os}.tmpl"), text)))
}

/// Check everything, then (re)write `svc/<host>.img` for every selected host whose family uses one.
/// `svc_port` is the port where the servers fetch svc over HTTP.
pub async fn write_answer_images(
    app: &App,
    names: Option<Vec<String>>,
    svc_port: u16,
) -> Result<Vec<HostImage>> {
    let (chosen, nets, svc_ip) = plan(app, names).await?;
    let everyone = hosts::list(app).await?;
    let all_hosts: Vec<HostVars> = everyone.iter().map(host_vars).collect();
    let master = everyone
        .iter()
        .find(|h| h.role == "k8s master")
        .map(host_vars);
    let ssh_keys = keys::list(app).await?;
    let svc_host = if svc_ip.contains(':') {
        format!("[{svc_ip}]")
    } else {
        svc_ip.clone()
    };
    let mut results = Vec::new();
    for h in &chosen {
        let os = app
            .catalog()
            .get(&h.os)
            .ok_or_else(|| {
                Error::Corrupt(format!("host {}: OS {} left the catalog", h.name, h.os))
            })?
            .clone();
        if os.family == Family::Esxi {
            results.push(HostImage {
                host: h.name.to_string(),
                file: None,
                label: None,
                note: Some(
                    "ESXi reads its kickstart from the host's own boot ISO, which is not built yet"
                        .into(),
                ),
            });
            continue;
        }
        let net = nets
            .iter()
            .find(|n| n.name == h.network_group)
            .ok_or_else(|| Error::Corrupt(format!("host {}: network group missing", h.name)))?;
        let (clear, hash) = templates::new_password();
        let vars = Vars {
            svc_ip: svc_ip.clone(),
            svc_port,
            svc_url: format!("http://{svc_host}:{svc_port}/svc"),
            host: host_vars(h),
            hosts: all_hosts.clone(),
            master: master.clone(),
            network: NetworkVars {
                name: net.name.to_string(),
                netmask: dotted(net),
                prefix: net.netmask.prefix_len(),
                gateway: net.gateway.to_string(),
                nameserver: net.nameserver.to_string(),
                ntpserver: net.ntpserver.to_string(),
                proxy: net.proxy.as_ref().map(ToString::to_string),
                vlan: net.vlan.as_ref().map(ToString::to_string),
            },
            os: os_vars(&os),
            keys: ssh_keys.clone(),
            root_password_hash: hash,
            // Only Windows cannot take a hash; elsewhere the clear password is dropped here and logins use the SSH keys.
            admin_password: (os.family == Family::Windows).then_some(clear),
            uefi: os.boot == BootMode::Uefi,
        };
        let family = media_family(os.family);
        let svc = app.svc_dir().to_owned();
        let target: PathBuf = svc.join(format!("{}.img", h.name));
        let label = templates::label(family);
        let os_id = os.id.clone();
        blocking(move || {
            let over = override_template(&svc, &os_id)?;
            let files = templates::render(
                family,
                &vars,
                over.as_ref().map(|(n, t)| (n.as_str(), t.as_str())),
            )?;
            fat::write_image(&target, label, &files)?;
            Ok(())
        })
        .await?;
        tracing::info!(host = %h.name, label, "answer-file image written");
        results.push(HostImage {
            host: h.name.to_string(),
            file: Some(format!("/svc/{}.img", h.name)),
            label: Some(label.to_owned()),
            note: None,
        });
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
                format!("map an ISO to {os} first (POST /api/v1/isos/map)"),
            )),
            Some(Err(why)) => problems.push(Problem::field(
                "iso_map",
                format!("the ISO mapped to {os} is not usable: {why}"),
            )),
            Some(Ok(path)) => jobs.push((os.clone(), path)),
        }
    }
    if !problems.is_empty() {
        return Err(Error::invalid(
            "images_not_ready",
            "Install trees cannot be made yet",
            problems,
        ));
    }
    let mut out = Vec::new();
    for (os, iso) in jobs {
        let dest = app.svc_dir().join(&os);
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
