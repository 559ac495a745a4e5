//! The per-host answer-file image: exactly 1 MiB, FAT12, with the volume
//! label the installer looks for, the files in the root directory (fatfs
//! writes subdirectories that fsck.fat rejects, so there are none). Written to
//! a temporary file beside the target and renamed, so a failed or interrupted
//! write never leaves a half-written image.

use std::fs::OpenOptions;
use std::io::{Seek, SeekFrom, Write};
use std::path::Path;

use fatfs::{FatType, FileSystem, FormatVolumeOptions, FsOptions};

use crate::error::{Error, Result};

/// Size of every per-host image.
pub const IMAGE_SIZE: u64 = 1024 * 1024;

/// A file to put into an image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageFile {
    /// Name in the root directory.
    pub name: String,
    /// Contents.
    pub contents: Vec<u8>,
}

/// A FAT volume label: 1–11 of A–Z, 0–9, `_`, `-`.
fn label_bytes(label: &str) -> Result<[u8; 11]> {
    let ok = (1..=11).contains(&label.len())
        && label
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_' || b == b'-');
    if !ok {
        return Err(Error::Invalid(format!(
            "'{label}' is not a FAT volume label (1 to 11 of A-Z, 0-9, '_', '-')"
        )));
    }
    let mut out = [b' '; 11];
    out[..label.len()].copy_from_slice(label.as_bytes());
    Ok(out)
}

fn check_name(name: &str) -> Result<()> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b));
    if ok {
        Ok(())
    } else {
        Err(Error::Invalid(format!(
            "'{name}' cannot be a file name in the image"
        )))
    }
}

/// Write the image to `path` atomically.
pub fn write_image(path: &Path, label: &str, files: &[ImageFile]) -> Result<()> {
    let label = label_bytes(label)?;
    for f in files {
        check_name(&f.name)?;
    }
    // FAT12 on 1 MiB leaves a little under 1 MiB for data; answer files are a few KiB.
    let size: u64 = files.iter().map(|f| f.contents.len() as u64).sum();
    if size > IMAGE_SIZE - 64 * 1024 {
        return Err(Error::TooLarge {
            size,
            capacity: IMAGE_SIZE - 64 * 1024,
        });
    }
    let dir = path
        .parent()
        .ok_or_else(|| Error::Invalid(format!("{} has no directory", path.display())))?;
    let file_name = path.file_name().and_then(|n| n.to_str()).unwrap_or("image");
    let tmp = crate::work::path(dir, file_name, crate::work::Kind::Tmp);
    let result = write_to(&tmp, label, files).and_then(|_| {
        std::fs::rename(&tmp, path).map_err(|e| Error::io("moving the image into place", path, e))
    });
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

fn write_to(tmp: &Path, label: [u8; 11], files: &[ImageFile]) -> Result<()> {
    let io = |context| move |e| Error::io(context, tmp, e);
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(tmp)
        .map_err(io("creating the image"))?;
    // Allocate the whole image for real (not sparse) so a full disk fails here, not later.
    file.write_all(&vec![0u8; IMAGE_SIZE as usize])
        .map_err(io("writing the image"))?;
    file.seek(SeekFrom::Start(0))
        .map_err(io("writing the image"))?;
    let volume_id = rand::random::<u32>();
    fatfs::format_volume(
        &mut file,
        FormatVolumeOptions::new()
            .fat_type(FatType::Fat12)
            .volume_label(label)
            .volume_id(volume_id),
    )
    .map_err(io("formatting the image"))?;
    file.seek(SeekFrom::Start(0))
        .map_err(io("writing the image"))?;
    {
        let fs = FileSystem::new(&mut file, FsOptions::new()).map_err(io("opening the image"))?;
        {
            let root = fs.root_dir();
            for f in files {
                let mut out = root
                    .create_file(&f.name)
                    .map_err(io("writing a file into the image"))?;
                out.truncate()
                    .map_err(io("writing a file into the image"))?;
                out.write_all(&f.contents)
                    .map_err(io("writing a file into the image"))?;
                out.flush().map_err(io("writing a file into the image"))?;
            }
        }
        fs.unmount().map_err(io("closing the image"))?;
    }
    file.sync_all().map_err(io("flushing the image"))?;
    Ok(())
}

/// Read the label and the root files back (for tests and checks).
pub fn read_image(path: &Path) -> Result<(String, Vec<ImageFile>)> {
    let io = |context| move |e| Error::io(context, path, e);
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .map_err(io("opening the image"))?;
    let fs = FileSystem::new(&mut file, FsOptions::new().update_accessed_date(false))
        .map_err(io("reading the image"))?;
    let label = fs.volume_label().trim_end().to_owned();
    let mut files = Vec::new();
    for entry in fs.root_dir().iter() {
        let entry = entry.map_err(io("reading the image"))?;
        if entry.is_file() {
            let mut contents = Vec::new();
            std::io::Read::read_to_end(&mut entry.to_file(), &mut contents)
                .map_err(io("reading the image"))?;
            files.push(ImageFile {
                name: entry.file_name(),
                contents,
            });
        }
    }
    Ok((label, files))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_are_one_mib_fat12_with_label_and_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("node01.img");
        let files = vec![
            ImageFile {
                name: "ks.cfg".into(),
                contents: b"text\nreboot\n".to_vec(),
            },
            ImageFile {
                name: "user-data".into(),
                contents: vec![b'x'; 20_000],
            },
        ];
        write_image(&path, "OEMDRV", &files).unwrap();
        assert_eq!(std::fs::metadata(&path).unwrap().len(), IMAGE_SIZE);
        let (label, back) = read_image(&path).unwrap();
        assert_eq!(label, "OEMDRV");
        assert_eq!(back, files);
        // Rewriting replaces the contents.
        write_image(&path, "CIDATA", &files[..1]).unwrap();
        let (label, back) = read_image(&path).unwrap();
        assert_eq!((label.as_str(), back.len()), ("CIDATA", 1));
        let leftovers: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty());
    }

    #[test]
    fn bad_input_is_refused_before_writing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.img");
        let f = |n: &str| {
            vec![ImageFile {
                name: n.into(),
                contents: vec![],
            }]
        };
        assert!(write_image(&path, "lowercase", &f("a")).is_err());
        assert!(write_image(&path, "TOOLONGLABEL1", &f("a")).is_err());
        assert!(write_image(&path, "OK", &f("../escape")).is_err());
        assert!(write_image(
            &path,
            "OK",
            &[ImageFile {
                name: "big".into(),
                contents: vec![0; IMAGE_SIZE as usize]
            }]
        )
        .is_err());
        assert!(!path.exists());
    }
}
