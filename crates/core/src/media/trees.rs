//! Install trees: each OS's ISO extracted once into `svc/<os>/`, the HTTP tree its installer
//! fetches packages from (and RHV-H's squashfs image taken out of its RPM beside it).

use std::path::Path;

use serde::Serialize;
use utoipa::ToSchema;

use crate::app::{blocking, App};
use crate::error::{Error, ErrorCode, Problem, Result};
use crate::jobs::{JobCtx, JobStep, StepState};
use crate::media::isos;
use bootsmith_model::catalog::OsEntry;

use super::layout::target;

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

/// RHVH's kickstart installs `svc/<os>/squashfs.img`, which the ISO only carries inside an
/// RPM: take it out once (like the tree, it is left alone when present).
pub(super) async fn rhvh_image(svc_dir: &Path, job: &JobCtx, os: &OsEntry) -> Result<()> {
    use bootsmith_media::rhvh;
    let tree = target(svc_dir, &os.id)?;
    let dest = tree.join(rhvh::SQUASHFS);
    let file = format!("/svc/{}/{}", os.id, rhvh::SQUASHFS);
    if dest.is_file() {
        job.step(
            None,
            JobStep::RhvhImage,
            StepState::Skipped,
            Some(&format!("{file} is already there")),
        );
        return Ok(());
    }
    job.step(None, JobStep::RhvhImage, StepState::Started, Some(&file));
    let staging = bootsmith_media::work::path(
        svc_dir,
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
                JobStep::RhvhImage,
                StepState::Done,
                Some(&format!("{file}: {bytes} bytes")),
            );
            Ok(())
        }
        Err(e) => {
            job.step(
                None,
                JobStep::RhvhImage,
                StepState::Failed,
                Some(&e.to_string()),
            );
            Err(e)
        }
    }
}
