//! Disks in operators' words: "480 GB Micron 5300, S/N 21033A4E, slot 1", "RAID 1 virtual
//! drive vd-0 (480 GB, Boot)", sizes as disks are sold.

use super::{DiskFacts, DiskKind, RaidLevel, Transport, GIB};

/// A disk in operators' words, for the plan's line and the refusals:
/// "480 GB Micron 5300, S/N 21033A4E, slot 1", "RAID 1 virtual drive vd-0 (480 GB, Boot)".
/// Sizes as disks are sold (decimal GB and TB).
pub fn describe(d: &DiskFacts) -> String {
    describe_sized(d, false)
}

/// [`describe`], with the size in whole GiB too where `gib` ("480 GB (447 GiB) Micron 5300").
pub(super) fn describe_sized(d: &DiskFacts, gib: bool) -> String {
    match d.kind {
        DiskKind::Drive => drive(d, gib),
        DiskKind::VirtualDrive => virtual_drive(d, gib),
    }
}

/// A virtual drive is known by its level and slot; a model it has none (managers report the
/// controller's, or nothing).
fn virtual_drive(d: &DiskFacts, gib: bool) -> String {
    let mut parts = vec![match d.size_bytes {
        Some(b) if gib => format!("{}, {} GiB", size_text(b), b / GIB),
        Some(b) => size_text(b),
        None => "size unknown".to_owned(),
    }];
    if let Some(s) = &d.serial {
        parts.push(format!("S/N {}", s.trim()));
    } else if let Some(w) = &d.wwn {
        parts.push(format!("WWN {}", w.trim()));
    }
    if let Some(n) = d.name.as_deref().map(str::trim).filter(|n| *n != d.slot) {
        parts.push(n.to_owned());
    }
    format!(
        "{} {} ({})",
        virtual_drive_words(d.raid),
        d.slot,
        parts.join(", ")
    )
}

/// What a virtual drive is, by its level where known: "RAID 1 virtual drive".
pub fn virtual_drive_words(raid: Option<RaidLevel>) -> String {
    match raid {
        Some(r) => format!("{r} virtual drive"),
        None => "virtual drive".to_owned(),
    }
}

fn drive(d: &DiskFacts, gib: bool) -> String {
    let make = make(d);
    let kind = match d.transport {
        Transport::Local => None,
        Transport::Remote => Some("SAN LUN"),
        Transport::Usb => Some("USB"),
        Transport::SdCard => Some("SD card"),
    };
    let kind = match (kind, d.multipath) {
        (Some(k), true) => Some(format!("{k}, multipath")),
        (Some(k), false) => Some(k.to_owned()),
        (None, true) => Some("multipath".to_owned()),
        (None, false) => None,
    };
    let what = match (make, kind) {
        (Some(m), Some(k)) => format!("{m} ({k})"),
        (Some(m), None) => m,
        (None, Some(k)) if d.transport == Transport::Usb => format!("{k} disk"),
        (None, Some(k)) => k,
        (None, None) => "disk".to_owned(),
    };
    let mut parts = vec![match d.size_bytes {
        Some(b) if gib => format!("{} ({} GiB) {what}", size_text(b), b / GIB),
        Some(b) => format!("{} {what}", size_text(b)),
        None => format!("{what} of unknown size"),
    }];
    if let Some(s) = &d.serial {
        parts.push(format!("S/N {}", s.trim()));
    } else if let Some(w) = &d.wwn {
        parts.push(format!("WWN {}", w.trim()));
    }
    match d.name.as_deref().map(str::trim).filter(|n| *n != d.slot) {
        Some(n) => parts.push(format!("slot {} ({n})", d.slot)),
        None => parts.push(format!("slot {}", d.slot)),
    }
    if let Some(vd) = &d.member_of {
        parts.push(format!("member of virtual drive {vd}"));
    }
    parts.join(", ")
}

/// Vendor and model as one name, leaving out a vendor the model already names and the
/// placeholder `ATA` a SATA disk behind a SAS controller reports.
fn make(d: &DiskFacts) -> Option<String> {
    let model = d.model.as_deref().map(str::trim).filter(|m| !m.is_empty());
    let vendor = d
        .vendor
        .as_deref()
        .map(str::trim)
        .filter(|v| !v.is_empty() && !v.eq_ignore_ascii_case("ata"));
    match (vendor, model) {
        (Some(v), Some(m)) if m.to_lowercase().starts_with(&v.to_lowercase()) => Some(m.to_owned()),
        (Some(v), Some(m)) => Some(format!("{v} {m}")),
        (Some(v), None) => Some(v.to_owned()),
        (None, Some(m)) => Some(m.to_owned()),
        (None, None) => None,
    }
}

/// Bytes as disks are sold: `480 GB`, `1.92 TB`, `8.6 GB`.
pub fn size_text(bytes: u64) -> String {
    let gb = bytes as f64 / 1e9;
    let trim = |s: String| {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_owned()
        } else {
            s
        }
    };
    if gb >= 999.5 {
        format!("{} TB", trim(format!("{:.2}", gb / 1000.0)))
    } else if gb >= 9.95 {
        format!("{gb:.0} GB")
    } else {
        format!("{} GB", trim(format!("{gb:.1}")))
    }
}
