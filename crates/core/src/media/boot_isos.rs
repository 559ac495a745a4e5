//! Boot ISOs: the installer's boot media made from an OS's ISO with boot entries that find
//! the answer file (on the host's answer disk, on the ISO itself for ESXi, or over HTTP for
//! single-device media). Each is built once and kept until someone deletes it.

use std::path::Path;

use serde::Serialize;
use utoipa::ToSchema;

use crate::app::{blocking, App};
use crate::error::{Error, Result};
use crate::jobs::{JobCtx, JobStep, StepState};
use crate::records::hosts::Host;
use bootsmith_model::catalog::{Family, OsEntry};

use super::answers::{write_http_answers, RenderContext};
use super::layout::{boot_media, http_answers, target, target_nested};

/// Volume id of an OS's boot ISO; the boot config's `inst.stage2=hd:LABEL=` names it.
fn boot_volume_id(os: &OsEntry) -> String {
    format!("BOOTSMITH_{}", os.code.to_ascii_uppercase())
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

/// An ESXi host's own boot ISO, with its kickstart inside: kept while it was built from the
/// inputs as they are and its install token is unspent, else built again.
pub(super) async fn host_iso(
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
    let svc = app.svc_dir();
    let out = target(svc, &file)?;
    // The kickstart served over HTTP carries the same token as the ISO's: keep the ISO only
    // with it (media built before Bootsmith served it are built again).
    let served = http_answers(&app.catalog(), os, &host)
        .iter()
        .all(|f| target_nested(svc, f).is_ok_and(|p| p.is_file()));
    if out.exists() {
        if served && crate::lifecycle::reusable(app.store(), h, &inputs).await? {
            // Kept as it is (it exists): the kickstart is not needed.
            return build_boot_iso(svc, job, os, source, &file, Some(&host), AnswerSource::Disk)
                .await;
        }
        std::fs::remove_file(&out)
            .map_err(|e| Error::io(format!("removing the outdated {}", out.display()), e))?;
    }
    let (token, hash) = crate::lifecycle::new_token();
    let files = ctx.render(h, os, Some(&token)).await?;
    write_http_answers(svc, &app.catalog(), h, os, &files).await?;
    let ks = files
        .into_iter()
        .next()
        .map(|f| f.contents)
        .unwrap_or_default();
    let iso = build_boot_iso(
        svc,
        job,
        os,
        source,
        &file,
        Some(&host),
        AnswerSource::OnIso(ks),
    )
    .await?;
    crate::lifecycle::built(
        app.store(),
        app.lifecycle(),
        h,
        &inputs,
        Some(hash),
        &iso.file,
    )
    .await?;
    Ok(iso)
}

/// Where a boot ISO's installer finds its answer file (owned [`bootsmith_media::boot::Answers`]).
pub(super) enum AnswerSource {
    /// The host's labelled answer disk `<host>.img` (RHEL family, Ubuntu).
    Disk,
    /// The rendered kickstart, on the ISO itself (ESXi).
    OnIso(Vec<u8>),
    /// This URL in svc (single-device media), fetched on the host's own address where one
    /// is given.
    Http(String, Option<bootsmith_media::boot::BootNet>),
}

/// Build one boot ISO unless it exists (seed rule: delete it to rebuild).
pub(super) async fn build_boot_iso(
    svc_dir: &Path,
    job: &JobCtx,
    os: &OsEntry,
    source: &Path,
    file: &str,
    host: Option<&str>,
    answers: AnswerSource,
) -> Result<BootIso> {
    let step_name = if host.is_some() {
        JobStep::HostIso
    } else {
        JobStep::BootIso
    };
    let out = target_nested(svc_dir, file)?;
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
    let svc_dir = svc_dir.to_owned();
    let rel = file.to_owned();
    let report = job.clone();
    // A shared boot ISO's progress is the OS's, as its tree's is.
    let who = host.map_or_else(|| os.id.clone(), str::to_owned);
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
            AnswerSource::Http(url, net) => Answers::Http(url, net.as_ref()),
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
                &mut |done, total| report.bytes(step_name, Some(&who), done, total),
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
                    &mut |done, total| report.bytes(step_name, Some(&who), done, total),
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
