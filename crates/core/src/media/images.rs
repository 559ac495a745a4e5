//! The images job, the seed's image call: every input checked first ([`prepare`]), then a
//! job ([`run`]) that extracts each OS's ISO into `svc/<os>/` once, builds the boot ISOs that
//! are missing (one per RHEL-family or Ubuntu OS, one per ESXi host) and rewrites each
//! host's answer-file image `svc/<host>.img` (1 MiB FAT12, labelled for its installer); and
//! [`retire`], which takes a host's own media away again.

use std::path::PathBuf;

use bootsmith_media::fat;
use bootsmith_media::templates;
use serde::Serialize;
use utoipa::ToSchema;

use crate::app::{blocking, App};
use crate::error::{Error, ErrorCode, Problem, Result};
use crate::jobs::{JobCtx, JobId, JobStep, StepState};
use crate::media::svc;
use crate::records::hosts::{self, Host};
use crate::records::networks::{self, NetworkGroup};
use crate::{media::isos, records::settings};
use bootsmith_model::catalog::{Family, OsEntry};

use super::answers::{write_http_answers, RenderContext};
use super::boot_isos::{build_boot_iso, host_iso, AnswerSource, BootIso};
use super::layout::{
    boot_media, host_os, http_answers, own_media, shadows_a_tree, single_device_iso, target,
    target_nested, WINPE_ISO,
};
use super::reach;
use super::single_device::drop_outdated_single_device_iso;
use super::trees::{rhvh_image, InstallTree};

// The paths the action table and the tests call these by, from before the media rooms split.
pub use super::answers::{answer_preview, AnswerPreview};
pub use super::single_device::single_device_media;
pub use super::trees::extract_trees;

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

/// Render and (re)write `svc/<host>.img` for a host whose family uses one.
async fn write_host_image(
    app: &App,
    ctx: &RenderContext,
    h: &Host,
    os: &OsEntry,
) -> Result<HostImage> {
    let (token, hash) = crate::lifecycle::new_token();
    let files = ctx.render(h, os, Some(&token)).await?;
    let label = templates::label(os.family);
    let target = target(app.svc_dir(), &format!("{}.img", h.name))?;
    let inputs = ctx.inputs.inputs(h);
    drop_outdated_single_device_iso(app, h, &inputs).await?;
    // The same render (same token) as the disk: either copy reports the same install.
    write_http_answers(app.svc_dir(), &app.catalog(), h, os, &files).await?;
    blocking(move || Ok(fat::write_image(&target, label, &files)?)).await?;
    tracing::info!(host = %h.name, label, "answer-file image written");
    let file = format!("/svc/{}.img", h.name);
    crate::lifecycle::built(app.store(), app.lifecycle(), h, &inputs, Some(hash), &file).await?;
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
        let os = host_os(&app.catalog(), h.name.as_str(), &h.os)?;
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

/// Take an installed host's own media out of svc, so a controller that mounts them again (a
/// reboot, a re-association) finds no answer file and cannot install over the system; the
/// files removed, as `/svc/<file>`: its answer disk, an ESXi host's ISO, the answer files
/// served over HTTP and the single-device ISO. Building the host's images again brings them
/// back.
pub async fn retire(app: &App, host: &Host) -> Result<Vec<String>> {
    let os = host_os(&app.catalog(), host.name.as_str(), &host.os)?;
    let svc_dir = app.svc_dir().to_owned();
    let name = host.name.as_str();
    let mut names = own_media(&os, name);
    names.extend(http_answers(&app.catalog(), &os, name));
    // Never the install tree of an OS the host is named like.
    let host_dir = (!shadows_a_tree(&app.catalog(), name)).then(|| name.to_owned());
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
        let os = host_os(&app.catalog(), h.name.as_str(), &h.os)?;
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

/// Say [`reach::problems`] with the boot-server address as `warning` steps (`reachability`)
/// of `job` before it builds media that point the servers at it; nothing when no address is
/// set (the job is refused earlier).
async fn warn_unreachable(app: &App, job: &JobCtx) {
    let Ok(Some(ip)) = settings::svc_ip(app).await else {
        return;
    };
    for p in reach::problems(ip.0, app.svc_port(), app.svc_listen_ip()) {
        job.step(None, JobStep::Reachability, StepState::Warning, Some(&p));
    }
}

/// Everything the seed's image call does, after [`prepare`]: extract each OS's ISO once,
/// build the boot ISOs that are missing, then write each host's answer media.
/// Progress goes to `job`.
pub async fn run(app: &App, prepared: Prepared, job: &JobCtx) -> Result<Images> {
    let Prepared {
        chosen,
        sources,
        ctx,
    } = prepared;
    warn_unreachable(app, job).await;
    let names: Vec<String> = chosen.iter().map(|h| h.name.to_string()).collect();
    let warnings: Vec<String> = crate::records::keys::no_login_warning(app, &names)
        .await?
        .into_iter()
        .collect();
    for w in &warnings {
        job.step(None, JobStep::Logins, StepState::Warning, Some(w));
    }
    let (trees, mut boot_isos) = shared_media(app, job, &sources).await?;

    let mut images = Vec::new();
    for h in &chosen {
        let os = host_os(&app.catalog(), h.name.as_str(), &h.os)?;
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
        job.step(Some(&host), JobStep::AnswerImage, StepState::Started, None);
        match write_host_image(app, &ctx, h, &os).await {
            Ok(img) => {
                job.step(
                    Some(&host),
                    JobStep::AnswerImage,
                    StepState::Done,
                    img.file.as_deref(),
                );
                images.push(img);
            }
            Err(e) => {
                job.step(
                    Some(&host),
                    JobStep::AnswerImage,
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

/// What every host of an OS shares: the install tree (extracted once) and, for the RHEL
/// family and Ubuntu, the boot ISO (built once).
async fn shared_media(
    app: &App,
    job: &JobCtx,
    sources: &[(OsEntry, PathBuf)],
) -> Result<(Vec<InstallTree>, Vec<BootIso>)> {
    let mut trees = Vec::new();
    for (os, _) in sources {
        job.step(None, JobStep::Extract, StepState::Started, Some(&os.id));
        let report = job.clone();
        let tree = extract_trees(app, std::slice::from_ref(&os.id), move |os, done, total| {
            report.bytes(JobStep::Extract, Some(os), done, total)
        })
        .await;
        let tree = match tree {
            Ok(mut t) => t.remove(0),
            Err(e) => {
                job.step(
                    None,
                    JobStep::Extract,
                    StepState::Failed,
                    Some(&e.to_string()),
                );
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
        job.step(None, JobStep::Extract, state, Some(&note));
        trees.push(tree);
        if os.family == Family::Rhvh {
            rhvh_image(app.svc_dir(), job, os).await?;
        }
    }
    let mut boot_isos = Vec::new();
    for (os, source) in sources {
        match os.family {
            Family::Rhel | Family::Rhvh | Family::Ubuntu => {
                let file = boot_media(os, "");
                boot_isos.push(
                    build_boot_iso(
                        app.svc_dir(),
                        job,
                        os,
                        source,
                        &file,
                        None,
                        AnswerSource::Disk,
                    )
                    .await?,
                );
            }
            Family::Windows => {
                // The operator's; prepare() checked that it is there.
                job.step(
                    None,
                    JobStep::BootIso,
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
