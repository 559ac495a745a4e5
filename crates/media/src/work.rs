//! Names of work in progress: the hidden files and directories the media writers (and the core's
//! uploads) make beside their target before renaming it into place.
//!
//! Every name is `.<target>.<pid>-<16 hex digits>.<kind>`: the dot hides it (svc never serves a
//! dot-name at its top), the process id says which run made it, and the random part makes it
//! unique per run, so neither a concurrent run nor a crashed run's leftover can collide with it.
//! [`is_work`] recognises these names, and those of earlier versions, for the sweep at start-up.

use std::path::{Path, PathBuf};

/// What a work-in-progress name holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The output being written (a file, or an install tree), renamed when complete.
    Partial,
    /// A scratch directory of inputs, removed afterwards.
    Staging,
    /// A small file rewritten and renamed (answer images).
    Tmp,
}

impl Kind {
    fn suffix(self) -> &'static str {
        match self {
            Kind::Partial => "partial",
            Kind::Staging => "staging",
            Kind::Tmp => "tmp",
        }
    }
}

/// A new name of this run for work towards `target` (a plain file name).
pub fn name(target: &str, kind: Kind) -> String {
    format!(
        ".{target}.{}-{:016x}.{}",
        std::process::id(),
        rand::random::<u64>(),
        kind.suffix()
    )
}

/// [`name`] in `dir`.
pub fn path(dir: &Path, target: &str, kind: Kind) -> PathBuf {
    dir.join(name(target, kind))
}

/// Whether `name` is one Bootsmith gives its work in progress: `.<target>.<run>.<kind>` as
/// [`name`] makes it, or as earlier versions did (`.<target>.partial`, `.<target>.staging`,
/// `.<target>.<pid>.tmp`). Anything else, an operator's `.hidden` file included, is not.
pub fn is_work(name: &str) -> bool {
    let Some(rest) = name.strip_prefix('.') else {
        return false;
    };
    let Some((stem, suffix)) = rest.rsplit_once('.') else {
        return false;
    };
    let run = |s: &str| match s.split_once('-') {
        Some((pid, hex)) => digits(pid) && hex.len() == 16 && hex.bytes().all(is_lower_hex),
        None => false,
    };
    match suffix {
        "partial" | "staging" => {
            // Earlier versions named these `.<target>.<suffix>`: any non-empty target.
            !stem.is_empty() && !stem.starts_with('.')
        }
        "tmp" => match stem.rsplit_once('.') {
            Some((target, tag)) => !target.is_empty() && (run(tag) || digits(tag)),
            None => false,
        },
        _ => false,
    }
}

fn digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

fn is_lower_hex(b: u8) -> bool {
    b.is_ascii_digit() || (b'a'..=b'f').contains(&b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_hidden_unique_and_recognised() {
        for kind in [Kind::Partial, Kind::Staging, Kind::Tmp] {
            let a = name("centos7.4-boot.iso", kind);
            let b = name("centos7.4-boot.iso", kind);
            assert_ne!(a, b, "unique per call");
            assert!(a.starts_with(".centos7.4-boot.iso."), "{a}");
            assert!(a.contains(&format!(".{}-", std::process::id())), "{a}");
            assert!(is_work(&a), "{a}");
        }
        assert_eq!(
            path(Path::new("/svc"), "node01.img", Kind::Tmp).parent(),
            Some(Path::new("/svc"))
        );
    }

    #[test]
    fn earlier_versions_names_are_recognised_others_are_not() {
        for ours in [
            ".node01.img.4711.tmp",
            ".centos7.4-boot.iso.partial",
            ".centos7.4.partial",
            ".centos7.4-boot.iso.staging",
            ".rhvh4.3-squashfs.staging",
            ".import-3f2b9c1e-8d7a-4b6c-9e0f-1a2b3c4d5e6f.partial",
        ] {
            assert!(is_work(ours), "{ours}");
        }
        for theirs in [
            ".hidden",
            ".bashrc",
            ".notes.txt",
            ".partial",
            "..partial",
            ".tmp",
            ".x.tmp",
            ".x.12ab.tmp",
            ".x.1-nothex.tmp",
            "centos7.4.partial",
            "node01.img.4711.tmp",
            ".bootsmith.lock",
            ".centos7.4.partial.iso",
        ] {
            assert!(!is_work(theirs), "{theirs}");
        }
    }
}
