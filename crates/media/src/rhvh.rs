//! Red Hat Virtualization Host installs an image, not packages: its kickstart's `liveimg`
//! fetches a squashfs that the ISO carries inside an RPM
//! (`Packages/redhat-virtualization-host-image-update-*.rpm`). This takes it out with bsdtar
//! (libarchive), which reads RPM payloads of every compression RHVH has used.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// Name of the image in the install tree (`svc/<os>/squashfs.img`), as the kickstart fetches it.
pub const SQUASHFS: &str = "squashfs.img";

const RPM_PREFIX: &str = "redhat-virtualization-host-image-update";

/// The image-update RPM of an extracted RHVH tree.
pub fn image_rpm(tree: &Path) -> Result<PathBuf> {
    let packages = tree.join("Packages");
    let mut found: Vec<PathBuf> = std::fs::read_dir(&packages)
        .map_err(|e| Error::io("listing the RHVH packages", &packages, e))?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(RPM_PREFIX) && n.ends_with(".rpm"))
        })
        .collect();
    found.sort();
    found.pop().ok_or_else(|| {
        Error::Invalid(format!(
            "{} has no {RPM_PREFIX}-*.rpm: is the ISO an RHVH installer?",
            packages.display()
        ))
    })
}

/// Take the squashfs out of `rpm` into `dest` (written last, by rename, so a `dest` that
/// exists is complete); `staging` is a scratch directory, removed afterwards. The image's size.
pub fn extract_squashfs(rpm: &Path, dest: &Path, staging: &Path) -> Result<u64> {
    let _ = std::fs::remove_dir_all(staging);
    std::fs::create_dir_all(staging)
        .map_err(|e| Error::io("creating a staging directory", staging, e))?;
    let result = extract_into(rpm, dest, staging);
    let _ = std::fs::remove_dir_all(staging);
    result
}

fn extract_into(rpm: &Path, dest: &Path, staging: &Path) -> Result<u64> {
    let out = crate::tool::command("bsdtar")
        .arg("-xf")
        .arg(rpm)
        .arg("-C")
        .arg(staging)
        .args(["--include", "*squashfs.img"])
        .output()
        .map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                Error::Tool {
                    tool: "bsdtar",
                    message: "is not installed (Debian package libarchive-tools; scripts/setup.sh installs it)".into(),
                }
            } else {
                Error::io("starting bsdtar", rpm, e)
            }
        })?;
    if !out.status.success() {
        return Err(Error::Tool {
            tool: "bsdtar",
            message: format!(
                "could not read {}: {}",
                rpm.display(),
                String::from_utf8_lossy(&out.stderr).trim()
            ),
        });
    }
    let image = find_file(staging, "squashfs.img")?
        .ok_or_else(|| Error::Invalid(format!("{} holds no squashfs image", rpm.display())))?;
    let size = std::fs::metadata(&image)
        .map_err(|e| Error::io("reading the squashfs image", &image, e))?
        .len();
    std::fs::rename(&image, dest)
        .map_err(|e| Error::io("moving the squashfs image into place", dest, e))?;
    Ok(size)
}

fn find_file(dir: &Path, suffix: &str) -> Result<Option<PathBuf>> {
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).map_err(|e| Error::io("reading a directory", &d, e))? {
            let entry = entry.map_err(|e| Error::io("reading a directory", &d, e))?;
            let path = entry.path();
            let kind = entry
                .file_type()
                .map_err(|e| Error::io("reading a directory", &path, e))?;
            if kind.is_dir() {
                stack.push(path);
            } else if kind.is_file()
                && path
                    .file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.ends_with(suffix))
            {
                return Ok(Some(path));
            }
        }
    }
    Ok(None)
}
