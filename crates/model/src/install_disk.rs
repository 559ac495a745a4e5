//! The disk an OS is installed on: the operator's hint in Ironic's root-device-hint vocabulary
//! (`InstallDiskHint`), what inventory knows of each disk of a server (`DiskFacts`), and the
//! one rule that picks a disk from the two ([`resolve`]), or refuses to guess
//! ([`DiskRefusal`]). Values only: the inventory that fills `DiskFacts`, the plan that calls
//! `resolve` and the answer files that name the disk live on the floors above.
//!
//! Matching follows OpenStack Ironic's `find_devices_by_hints` (ironic-lib): a disk matches
//! when it satisfies every key given; text keys compare trimmed and without case (runs of
//! spaces count as one), `model` and `vendor` whole (not as substrings), `size_gb` against the
//! disk's size in whole GiB (rounded down), and a disk that does not report a key's value
//! never matches that key. Where Ironic has no answer (no hint at all), the smallest local
//! disk of at least 16 GiB is taken.

use std::cmp::Ordering;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use utoipa::ToSchema;

use crate::error::{Error, Problem};
use crate::validate::Check;
use crate::ErrorCode;

/// One GiB in bytes: `size_gb` counts these, as Ironic's `size` does.
pub const GIB: u64 = 1 << 30;
/// The least size of a disk the default rule takes (Ironic takes any over 4 GiB; 16 is sized
/// for an OS).
pub const DEFAULT_MIN_GIB: u64 = 16;
/// The largest `size_gb` bound accepted: 1 PiB.
pub const MAX_SIZE_GIB: u64 = 1 << 20;
/// The longest `serial`, `wwn`, `model` and `vendor`, in characters.
pub const MAX_TEXT: usize = 128;
/// The longest `name` (a `/dev/disk/by-path/…` link runs long), in characters.
pub const MAX_NAME: usize = 255;

/// The keys of a hint, in the order they are written.
pub const KEYS: [&str; 7] = [
    "serial",
    "wwn",
    "model",
    "vendor",
    "size_gb",
    "name",
    "rotational",
];

/// A disk's size in whole GiB as a hint gives it: one size, or a range with either bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SizeGb {
    /// Exactly this many whole GiB.
    Exactly(u64),
    /// At least `min` and at most `max` whole GiB; at least one is set, and `min <= max`.
    Between { min: Option<u64>, max: Option<u64> },
}

impl SizeGb {
    /// Whether a disk of `gib` whole GiB fits.
    pub fn contains(self, gib: u64) -> bool {
        match self {
            SizeGb::Exactly(n) => gib == n,
            SizeGb::Between { min, max } => {
                min.is_none_or(|m| gib >= m) && max.is_none_or(|m| gib <= m)
            }
        }
    }
}

impl fmt::Display for SizeGb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SizeGb::Exactly(n) => write!(f, "{n} GiB"),
            SizeGb::Between {
                min: Some(a),
                max: Some(b),
            } => write!(f, "{a}–{b} GiB"),
            SizeGb::Between { min: Some(a), .. } => write!(f, "at least {a} GiB"),
            SizeGb::Between { max: Some(b), .. } => write!(f, "at most {b} GiB"),
            SizeGb::Between { .. } => f.write_str("any size"),
        }
    }
}

/// Which disk to install on, in Ironic's root-device-hint vocabulary: every key given must
/// match. Only a value that passed [`InstallDiskHint::parse`] is held: at least one key, text
/// trimmed and not empty, a WWN of 16 or 32 hex digits, sizes positive with `min <= max`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct InstallDiskHint {
    serial: Option<String>,
    wwn: Option<String>,
    model: Option<String>,
    vendor: Option<String>,
    size_gb: Option<SizeGb>,
    name: Option<String>,
    rotational: Option<bool>,
}

impl InstallDiskHint {
    /// The disk's serial number.
    pub fn serial(&self) -> Option<&str> {
        self.serial.as_deref()
    }
    /// The disk's WWN as given (`0x5000c500a1b2c3d4`); [`wwn_digits`] compares it.
    pub fn wwn(&self) -> Option<&str> {
        self.wwn.as_deref()
    }
    /// The disk's model, whole.
    pub fn model(&self) -> Option<&str> {
        self.model.as_deref()
    }
    /// The disk's vendor, whole.
    pub fn vendor(&self) -> Option<&str> {
        self.vendor.as_deref()
    }
    /// The disk's size in whole GiB.
    pub fn size_gb(&self) -> Option<SizeGb> {
        self.size_gb
    }
    /// The disk's name: a device path (`/dev/sda`, `/dev/disk/by-path/…`) or what its manager
    /// calls it.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }
    /// A spinning disk (true) or a solid-state one (false).
    pub fn rotational(&self) -> Option<bool> {
        self.rotational
    }

    /// Read a hint from JSON, every problem at once, each named after its key under `field`
    /// (`install_disk.size_gb.min`). Null is refused here: [`optional`] reads null as no hint.
    pub fn parse(value: &Value, field: &str) -> Result<Self, Vec<Problem>> {
        let mut c = Check::default();
        let hint = read(&mut c, value, field);
        match hint {
            Some(h) if c.problems.is_empty() => Ok(h),
            _ => Err(c.problems),
        }
    }

    /// Whether a disk satisfies every key of the hint (an answer disk never does, nor a
    /// member of a virtual drive: the installer sees the virtual drive in its place).
    pub fn matches(&self, disk: &DiskFacts) -> bool {
        !disk.answer_disk && disk.member_of.is_none() && self.matches_keys(disk)
    }

    /// Whether every key of the hint matches the disk's facts, whatever the disk is.
    fn matches_keys(&self, disk: &DiskFacts) -> bool {
        let text = |want: &Option<String>, have: &Option<String>| match want {
            None => true,
            Some(w) => have.as_deref().is_some_and(|h| same_text(w, h)),
        };
        text(&self.serial, &disk.serial)
            && text(&self.model, &disk.model)
            && text(&self.vendor, &disk.vendor)
            && self.wwn.as_deref().is_none_or(|w| {
                disk.wwn
                    .as_deref()
                    .and_then(wwn_digits)
                    .is_some_and(|d| Some(d) == wwn_digits(w))
            })
            && self.name.as_deref().is_none_or(|n| {
                disk.name.as_deref().is_some_and(|d| same_text(n, d)) || same_text(n, &disk.slot)
            })
            && self
                .size_gb
                .is_none_or(|s| disk.size_bytes.is_some_and(|b| s.contains(b / GIB)))
            && self.rotational.is_none_or(|r| disk.rotational == Some(r))
    }
}

/// Read an optional hint into `c`: `Some(None)` when absent or null, `None` when present but
/// invalid (its problems noted), as [`Check::optional`] does for text.
pub fn optional(
    c: &mut Check,
    field: &str,
    value: Option<&Value>,
) -> Option<Option<InstallDiskHint>> {
    match value {
        None | Some(Value::Null) => Some(None),
        Some(v) => match InstallDiskHint::parse(v, field) {
            Ok(h) => Some(Some(h)),
            Err(p) => {
                c.problems.extend(p);
                None
            }
        },
    }
}

fn read(c: &mut Check, value: &Value, field: &str) -> Option<InstallDiskHint> {
    let Value::Object(map) = value else {
        c.fail(
            field,
            "must be an object of disk hints, like {\"serial\": \"21033A4E\"}, or null for the default disk",
        );
        return None;
    };
    if map.is_empty() {
        c.fail(
            field,
            format!(
                "names no disk: give at least one of {}, or leave {field} out for the default disk (the smallest local one of at least {DEFAULT_MIN_GIB} GiB)",
                KEYS.join(", ")
            ),
        );
        return None;
    }
    for key in map.keys().filter(|k| !KEYS.contains(&k.as_str())) {
        c.fail(&format!("{field}.{key}"), unknown_key(key));
    }
    let at = |k: &str| format!("{field}.{k}");
    let text_of =
        |c: &mut Check, k: &str, max: usize| map.get(k).and_then(|v| text_key(c, &at(k), v, max));
    let serial = text_of(c, "serial", MAX_TEXT);
    let model = text_of(c, "model", MAX_TEXT);
    let vendor = text_of(c, "vendor", MAX_TEXT);
    let name = text_of(c, "name", MAX_NAME);
    let wwn = text_of(c, "wwn", MAX_TEXT).and_then(|w| {
        if wwn_digits(&w).is_some() {
            Some(w)
        } else {
            c.fail(
                &at("wwn"),
                format!(
                    "'{}' is not a WWN: give 0x and 16 or 32 hex digits, like 0x5000c500a1b2c3d4",
                    crate::types::shorten(&w)
                ),
            );
            None
        }
    });
    let size_gb = map.get("size_gb").and_then(|v| size(c, &at("size_gb"), v));
    let rotational = map.get("rotational").and_then(|v| match v {
        Value::Bool(b) => Some(*b),
        _ => {
            c.fail(
                &at("rotational"),
                "must be true (a spinning disk) or false (an SSD or NVMe disk)",
            );
            None
        }
    });
    Some(InstallDiskHint {
        serial,
        wwn,
        model,
        vendor,
        size_gb,
        name,
        rotational,
    })
}

/// What to say of a key that is not a hint: Ironic's other names where one was meant.
fn unknown_key(key: &str) -> String {
    let keys = KEYS.join(", ");
    match key {
        "size" => "is Ironic's name for size_gb; give size_gb (whole GiB, or {\"min\": …, \"max\": …})".into(),
        "by_path" => "give a /dev/disk/by-path/… link as name".into(),
        "hctl" | "wwn_with_extension" | "wwn_vendor_extension" => format!(
            "is an Ironic hint Bootsmith does not take: a server's manager does not report it; use one of {keys}"
        ),
        _ => format!("is not a disk hint; use {keys}"),
    }
}

/// A text key: a string, not blank, at most `max` characters as sent, no control characters;
/// kept trimmed.
fn text_key(c: &mut Check, field: &str, v: &Value, max: usize) -> Option<String> {
    let Value::String(s) = v else {
        c.fail(field, "must be a string");
        return None;
    };
    let problem = if s.trim().is_empty() {
        Some("is empty; leave the key out to match any disk on it".to_owned())
    } else if s.chars().count() > max {
        Some(format!("is longer than {max} characters"))
    } else if s.chars().any(char::is_control) {
        Some("must not contain control characters".to_owned())
    } else {
        None
    };
    match problem {
        Some(p) => {
            c.fail(field, p);
            None
        }
        None => Some(s.trim().to_owned()),
    }
}

/// `size_gb`: a whole number of GiB, or `{"min": …, "max": …}` with either bound.
fn size(c: &mut Check, field: &str, v: &Value) -> Option<SizeGb> {
    match v {
        Value::Object(map) => {
            for key in map.keys().filter(|k| !matches!(k.as_str(), "min" | "max")) {
                c.fail(
                    &format!("{field}.{key}"),
                    "is not a bound of a size range; use min and max",
                );
            }
            if !map.contains_key("min") && !map.contains_key("max") {
                c.fail(
                    field,
                    "gives no bound: give min, max or both (whole GiB), or one number for an exact size",
                );
                return None;
            }
            let min = map.get("min").map(|b| gib(c, &format!("{field}.min"), b));
            let max = map.get("max").map(|b| gib(c, &format!("{field}.max"), b));
            // A bound given but invalid has its problem noted already.
            if matches!(min, Some(None)) || matches!(max, Some(None)) {
                return None;
            }
            let (min, max) = (min.flatten(), max.flatten());
            if let (Some(a), Some(b)) = (min, max) {
                if a > b {
                    c.fail(field, format!("min ({a} GiB) is more than max ({b} GiB)"));
                    return None;
                }
            }
            Some(SizeGb::Between { min, max })
        }
        other => gib(c, field, other).map(SizeGb::Exactly),
    }
}

/// A positive whole number of GiB, at most [`MAX_SIZE_GIB`].
fn gib(c: &mut Check, field: &str, v: &Value) -> Option<u64> {
    let n = match v {
        Value::Number(n) => n.as_u64().or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f <= MAX_SIZE_GIB as f64)
                .map(|f| f as u64)
        }),
        _ => {
            c.fail(
                field,
                "must be a number of GiB, or {\"min\": …, \"max\": …} for a range",
            );
            return None;
        }
    };
    match n {
        Some(n) if (1..=MAX_SIZE_GIB).contains(&n) => Some(n),
        _ => {
            c.fail(
                field,
                format!("must be a whole number of GiB from 1 to {MAX_SIZE_GIB}, like 447 (a 480 GB disk is 447 GiB)"),
            );
            None
        }
    }
}

/// The hex digits of a WWN in lower case, without its `0x`, `naa.` or `eui.` prefix: 16 or 32
/// of them, else none. How a hint's WWN and a disk's compare, whichever way each was written.
pub fn wwn_digits(w: &str) -> Option<String> {
    let w = w.trim().to_ascii_lowercase();
    let digits = ["0x", "naa.", "eui."]
        .iter()
        .find_map(|p| w.strip_prefix(p))
        .unwrap_or(&w);
    (matches!(digits.len(), 16 | 32) && digits.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| digits.to_owned())
}

/// Text as Ironic compares it: trimmed, in lower case; here also with runs of spaces as one
/// (managers pad model and vendor strings).
fn normalized(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

fn same_text(a: &str, b: &str) -> bool {
    normalized(a) == normalized(b)
}

/// The hint as its JSON object: keys in [`KEYS`] order, absent ones left out.
impl Serialize for InstallDiskHint {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        for (k, v) in [
            ("serial", &self.serial),
            ("wwn", &self.wwn),
            ("model", &self.model),
            ("vendor", &self.vendor),
        ] {
            if let Some(v) = v {
                m.serialize_entry(k, v)?;
            }
        }
        if let Some(size) = &self.size_gb {
            m.serialize_entry("size_gb", size)?;
        }
        if let Some(n) = &self.name {
            m.serialize_entry("name", n)?;
        }
        if let Some(r) = &self.rotational {
            m.serialize_entry("rotational", r)?;
        }
        m.end()
    }
}

/// A number for an exact size, `{"min": …, "max": …}` (absent bounds left out) for a range.
impl Serialize for SizeGb {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match *self {
            SizeGb::Exactly(n) => s.serialize_u64(n),
            SizeGb::Between { min, max } => {
                let mut m = s.serialize_map(None)?;
                if let Some(a) = min {
                    m.serialize_entry("min", &a)?;
                }
                if let Some(b) = max {
                    m.serialize_entry("max", &b)?;
                }
                m.end()
            }
        }
    }
}

impl InstallDiskHint {
    /// The hint as its JSON object (what it is sent as, and read back from).
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).expect("text, numbers and booleans serialize")
    }
}

impl<'de> Deserialize<'de> for InstallDiskHint {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        InstallDiskHint::parse(&v, "install_disk").map_err(|problems| {
            let list: Vec<String> = problems.iter().map(ToString::to_string).collect();
            serde::de::Error::custom(list.join("; "))
        })
    }
}

/// The hint in words, for sentences: "serial 21033A4E, size 400–500 GiB".
impl fmt::Display for InstallDiskHint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        for (k, v) in [
            ("serial", &self.serial),
            ("WWN", &self.wwn),
            ("model", &self.model),
            ("vendor", &self.vendor),
        ] {
            if let Some(v) = v {
                parts.push(format!("{k} {v}"));
            }
        }
        if let Some(s) = self.size_gb {
            parts.push(format!("size {s}"));
        }
        if let Some(n) = &self.name {
            parts.push(format!("name {n}"));
        }
        match self.rotational {
            Some(true) => parts.push("rotational (a spinning disk)".into()),
            Some(false) => parts.push("not rotational (SSD or NVMe)".into()),
            None => {}
        }
        f.write_str(&parts.join(", "))
    }
}

impl utoipa::PartialSchema for InstallDiskHint {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        crate::schema::install_disk(MAX_TEXT, MAX_NAME, MAX_SIZE_GIB)
    }
}

impl ToSchema for InstallDiskHint {}

/// How a disk reaches its server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Transport {
    /// A disk in the server (SAS, SATA, NVMe, or a RAID volume of such).
    Local,
    /// A LUN of a storage network: Fibre Channel, iSCSI, a SAN.
    Remote,
    /// A USB disk or stick.
    Usb,
    /// An SD card (or a pair of them, as a hypervisor's boot module).
    SdCard,
}

/// What a hint needs to know of one disk of a server, as its manager reports it; what a
/// manager does not report is left out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct DiskFacts {
    /// Where the manager puts the disk: its slot or id (`1`, `Disk.Bay.0`, `vd-0`, a LUN's
    /// path).
    pub slot: String,
    /// A drive, or a virtual drive its RAID controller presents (JSON without it: a drive).
    #[serde(default)]
    pub kind: DiskKind,
    /// A virtual drive's RAID level, where its manager says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raid: Option<RaidLevel>,
    /// The slot of the virtual drive this drive is a member of: the installed system sees that
    /// virtual drive, never this drive, so no hint and no default takes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub member_of: Option<String>,
    /// The disk's name, as its manager (or, where known, the installed system: `/dev/sda`)
    /// calls it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Size in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size_bytes: Option<u64>,
    /// Model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Vendor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vendor: Option<String>,
    /// Serial number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub serial: Option<String>,
    /// World-wide name, in any of the usual forms (`0x…`, `naa.…`, bare hex).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wwn: Option<String>,
    /// A spinning disk (true), solid-state (false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rotational: Option<bool>,
    /// How it reaches the server.
    pub transport: Transport,
    /// Seen through several paths (a SAN LUN zoned to two HBAs).
    #[serde(default)]
    pub multipath: bool,
    /// Bootsmith's own answer disk (the `OEMDRV`, `CIDATA` or `UNATTEND` virtual media): never
    /// installed on.
    #[serde(default)]
    pub answer_disk: bool,
}

impl DiskFacts {
    /// A local disk of `slot` with nothing else known: the start of a record (and of tests).
    pub fn local(slot: impl Into<String>) -> Self {
        DiskFacts {
            slot: slot.into(),
            kind: DiskKind::Drive,
            raid: None,
            member_of: None,
            name: None,
            size_bytes: None,
            model: None,
            vendor: None,
            serial: None,
            wwn: None,
            rotational: None,
            transport: Transport::Local,
            multipath: false,
            answer_disk: false,
        }
    }

    /// Why the default rule passes over this disk, or none when it may take it.
    pub fn not_default(&self) -> Option<PassedOver> {
        Some(match (self.transport, self.size_bytes) {
            _ if self.answer_disk => PassedOver::AnswerDisk,
            _ if self.member_of.is_some() => PassedOver::Member,
            (Transport::Remote, _) => PassedOver::Remote,
            (Transport::Usb, _) => PassedOver::Usb,
            (Transport::SdCard, _) => PassedOver::SdCard,
            _ if self.multipath => PassedOver::Multipath,
            (Transport::Local, None) => PassedOver::SizeUnknown,
            (Transport::Local, Some(b)) if b < DEFAULT_MIN_GIB * GIB => PassedOver::TooSmall,
            (Transport::Local, Some(_)) => return None,
        })
    }
}

/// Why the default rule passes over a disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PassedOver {
    /// Bootsmith's own answer disk.
    AnswerDisk,
    /// A member of a virtual drive.
    Member,
    /// A SAN LUN.
    Remote,
    /// A USB disk.
    Usb,
    /// An SD card.
    SdCard,
    /// Seen through several paths.
    Multipath,
    /// Its manager does not report its size.
    SizeUnknown,
    /// Smaller than [`DEFAULT_MIN_GIB`].
    TooSmall,
}

impl fmt::Display for PassedOver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PassedOver::AnswerDisk => f.write_str("Bootsmith's answer disk"),
            PassedOver::Member => f.write_str("a member of a virtual drive"),
            PassedOver::Remote => f.write_str("a SAN LUN"),
            PassedOver::Usb => f.write_str("a USB disk"),
            PassedOver::SdCard => f.write_str("an SD card"),
            PassedOver::Multipath => f.write_str("seen through several paths"),
            PassedOver::SizeUnknown => f.write_str("its size is not known"),
            PassedOver::TooSmall => write!(f, "smaller than {DEFAULT_MIN_GIB} GiB"),
        }
    }
}

/// Slots in the order people read them: numbers by value (`2` before `10`, `Disk.Bay.2`
/// before `Disk.Bay.10`), the rest as text.
pub fn slot_order(a: &str, b: &str) -> Ordering {
    fn chunks(s: &str) -> Vec<(bool, &str)> {
        let mut out = Vec::new();
        let mut start = 0;
        let bytes = s.as_bytes();
        for i in 1..=bytes.len() {
            if i == bytes.len() || bytes[i].is_ascii_digit() != bytes[start].is_ascii_digit() {
                out.push((bytes[start].is_ascii_digit(), &s[start..i]));
                start = i;
            }
        }
        out
    }
    let (ca, cb) = (chunks(a), chunks(b));
    for ((da, x), (db, y)) in ca.iter().zip(&cb) {
        let o = match (da, db) {
            (true, true) => {
                let (x0, y0) = (x.trim_start_matches('0'), y.trim_start_matches('0'));
                x0.len().cmp(&y0.len()).then_with(|| x0.cmp(y0))
            }
            _ => x.to_lowercase().cmp(&y.to_lowercase()),
        };
        if o != Ordering::Equal {
            return o;
        }
    }
    ca.len().cmp(&cb.len()).then_with(|| a.cmp(b))
}

/// Why no one disk could be chosen: the plan refuses the host and lists the candidates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiskRefusal {
    /// No disk matches the hint (or, without one, qualifies by the default rule).
    /// `candidates`: every disk of the server but the answer disk.
    NotFound {
        hint: Option<Box<InstallDiskHint>>,
        candidates: Vec<DiskFacts>,
    },
    /// Several disks match the hint: `candidates` are those.
    Ambiguous {
        hint: Box<InstallDiskHint>,
        candidates: Vec<DiskFacts>,
    },
}

impl DiskRefusal {
    /// The stable code: `install_disk_not_found` or `install_disk_ambiguous`.
    pub fn code(&self) -> ErrorCode {
        match self {
            DiskRefusal::NotFound { .. } => ErrorCode::InstallDiskNotFound,
            DiskRefusal::Ambiguous { .. } => ErrorCode::InstallDiskAmbiguous,
        }
    }

    /// The disks the sentence lists.
    pub fn candidates(&self) -> &[DiskFacts] {
        match self {
            DiskRefusal::NotFound { candidates, .. }
            | DiskRefusal::Ambiguous { candidates, .. } => candidates,
        }
    }
}

impl fmt::Display for DiskRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiskRefusal::NotFound { hint, candidates } => {
                match hint {
                    Some(h) => {
                        write!(f, "No disk matches the install-disk hint ({h})")?;
                        members_matched(f, h, candidates)?;
                    }
                    None => write!(
                        f,
                        "No disk qualifies as the default install disk (the smallest local disk of at least {DEFAULT_MIN_GIB} GiB, never a SAN LUN, USB disk, SD card or multipath disk)"
                    )?,
                }
                if candidates.is_empty() {
                    return f.write_str(": the server reports no disks.");
                }
                // Against a size, each disk's size in whole GiB, as the hint counts it.
                let sized = hint.as_ref().is_some_and(|h| h.size_gb.is_some());
                let list: Vec<String> = candidates
                    .iter()
                    .map(|d| {
                        let s = describe_sized(d, sized);
                        match d.not_default() {
                            Some(PassedOver::TooSmall) if hint.is_none() => {
                                format!("{s} ({})", PassedOver::TooSmall)
                            }
                            _ => s,
                        }
                    })
                    .collect();
                write!(f, ". The server's disks: {}. ", list.join("; "))?;
                match hint {
                    Some(_) => f.write_str(
                        "Change the hint (the host's install_disk, or its server group's) to name one of them.",
                    ),
                    None => f.write_str(
                        "Give the host an install_disk hint naming the disk to install on.",
                    ),
                }
            }
            DiskRefusal::Ambiguous { hint, candidates } => {
                let sized = hint.size_gb.is_some();
                let list: Vec<String> = candidates
                    .iter()
                    .map(|d| describe_sized(d, sized))
                    .collect();
                write!(
                    f,
                    "{} disks match the install-disk hint ({hint}): {}. Add a key that tells them apart (a serial or a WWN names one disk).",
                    candidates.len(),
                    list.join("; ")
                )
            }
        }
    }
}

/// Say which members of a virtual drive the hint's keys fit, where any do: the operator named
/// a drive the installer will not see, and the virtual drive is what to name instead.
fn members_matched(
    f: &mut fmt::Formatter<'_>,
    hint: &InstallDiskHint,
    candidates: &[DiskFacts],
) -> fmt::Result {
    let matched: Vec<String> = candidates
        .iter()
        .filter(|d| hint.matches_keys(d))
        .filter_map(|d| {
            let vd = d.member_of.as_deref()?;
            Some(format!(
                "slot {} fits it but is a member of virtual drive {vd}, which the installed system sees in its place",
                d.slot
            ))
        })
        .collect();
    if matched.is_empty() {
        return Ok(());
    }
    write!(f, ": {}", matched.join("; "))
}

impl From<DiskRefusal> for Error {
    /// `409`: the server's disks as they are do not let the hint name one.
    fn from(r: DiskRefusal) -> Self {
        Error::conflict(r.code(), r.to_string())
    }
}

/// The disk to install on: with a hint, the one disk that matches every key it gives (never
/// the answer disk, nor a member of a virtual drive); without one, the smallest local disk of
/// at least 16 GiB that is not USB, an SD card, multipath, a virtual drive's member or the
/// answer disk (of two the same size, the lower slot).
pub fn resolve<'d>(
    hint: Option<&InstallDiskHint>,
    disks: &'d [DiskFacts],
) -> Result<&'d DiskFacts, DiskRefusal> {
    let candidates = || disks.iter().filter(|d| !d.answer_disk).cloned().collect();
    match hint {
        Some(h) => {
            let found: Vec<&DiskFacts> = disks.iter().filter(|d| h.matches(d)).collect();
            match found[..] {
                [one] => Ok(one),
                [] => Err(DiskRefusal::NotFound {
                    hint: Some(Box::new(h.clone())),
                    candidates: candidates(),
                }),
                _ => Err(DiskRefusal::Ambiguous {
                    hint: Box::new(h.clone()),
                    candidates: found.into_iter().cloned().collect(),
                }),
            }
        }
        None => disks
            .iter()
            .filter(|d| d.not_default().is_none())
            .min_by(|a, b| {
                a.size_bytes
                    .cmp(&b.size_bytes)
                    .then_with(|| slot_order(&a.slot, &b.slot))
            })
            .ok_or_else(|| DiskRefusal::NotFound {
                hint: None,
                candidates: candidates(),
            }),
    }
}

mod kind;
mod words;
pub use kind::{DiskKind, RaidLevel};
use words::describe_sized;
pub use words::{describe, size_text, virtual_drive_words};

#[cfg(test)]
mod tests;
