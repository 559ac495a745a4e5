//! ISO files in svc and the ISO → OS map.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::app::App;
use crate::error::{Error, ErrorCode, Problem, Result};
use crate::media::svc::{self, Refusal, SvcPath, Unreadable};
use bootsmith_media::extract::{identify, mismatch, not_an_iso_reason, Marker};
use bootsmith_media::iso::Iso;
use bootsmith_model::catalog::Family;
use bootsmith_store as store;

/// Prefix of every file name in the ISO map: the svc directory as the API names it.
pub const SVC_PREFIX: &str = "/svc/";

/// One mapping of an ISO file to an OS id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct IsoMapEntry {
    /// `/svc/<path of the ISO inside svc>`.
    pub file: String,
    /// OS id from the catalog.
    pub os: String,
}

/// One row of a submitted ISO map.
#[derive(Debug, Deserialize, ToSchema)]
pub struct IsoMapEntryInput {
    /// `/svc/<file>.iso`.
    #[schema(schema_with = bootsmith_model::schema::svc_iso, required = true)]
    pub file: Option<String>,
    /// OS id from the catalog.
    #[schema(required = true, nullable = false, min_length = 1)]
    pub os: Option<String>,
}

/// The map after a change, and what the operator should know about the ISOs in it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MapResult {
    /// The resulting map.
    pub iso_map: Vec<IsoMapEntry>,
    /// ISOs that were mapped but not recognised as their OS.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// Body of `POST /api/v1/isos/map`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct IsoMapInput {
    /// Every mapping that is to remain.
    #[serde(default, deserialize_with = "bootsmith_model::bodies::objects")]
    #[schema(required = true, nullable = false)]
    pub iso_map: Option<Vec<IsoMapEntryInput>>,
}

/// Names of the `.iso` files the user put at the top of svc, sorted; our own generated media are left out.
pub async fn list(app: &App) -> Result<Vec<String>> {
    let generated = generated_media(app).await?;
    let svc = app.svc_dir().to_owned();
    let names = crate::app::blocking(move || list_iso_files(&svc)).await?;
    Ok(names
        .into_iter()
        .filter(|n| !generated.contains(n))
        .collect())
}

fn list_iso_files(svc: &Path) -> Result<Vec<String>> {
    let ctx = |e| Error::io(format!("reading the svc directory {}", svc.display()), e);
    let mut names = Vec::new();
    for entry in std::fs::read_dir(svc).map_err(ctx)? {
        let entry = entry.map_err(ctx)?;
        let Ok(name) = entry.file_name().into_string() else {
            continue;
        };
        if !has_iso_extension(&name) {
            continue;
        }
        // What svc would not serve is not listed: work in progress, symlinks leading out.
        if svc::serves(svc, &name) {
            names.push(name);
        }
    }
    names.sort();
    Ok(names)
}

/// File names in svc that Bootsmith itself writes: shared boot ISOs (`<os>-boot.iso`) and ESXi per-host ISOs (`<host>.iso`).
pub(crate) async fn generated_media(app: &App) -> Result<HashSet<String>> {
    let catalog = app.catalog();
    let mut names: HashSet<String> = catalog
        .entries()
        .iter()
        .map(|o| format!("{}-boot.iso", o.id))
        .collect();
    let esxi: HashSet<&str> = catalog
        .entries()
        .iter()
        .filter(|o| o.family == Family::Esxi)
        .map(|o| o.id.as_str())
        .collect();
    let hosts = store::hosts::names_and_os(app.store().reader()).await?;
    names.extend(
        hosts
            .into_iter()
            .filter(|(_, os)| esxi.contains(os.as_str()))
            .map(|(n, _)| format!("{n}.iso")),
    );
    Ok(names)
}

/// The current map, ordered by file.
pub async fn map(app: &App) -> Result<Vec<IsoMapEntry>> {
    let rows = store::iso_map::list(app.store().reader()).await?;
    Ok(rows
        .into_iter()
        .map(|(file, os)| IsoMapEntry { file, os })
        .collect())
}

/// Replace the whole map; every entry is checked first, an invalid map changes nothing.
pub async fn set_map(app: &App, input: IsoMapInput) -> Result<MapResult> {
    let Some(rows) = input.iso_map else {
        return Err(Error::invalid_field(
            ErrorCode::InvalidIsoMap,
            "The ISO map is invalid",
            "iso_map",
            "is required (a list of {file, os})",
        ));
    };
    let mut problems = Vec::new();
    let mut entries = Vec::new();
    let mut files = HashSet::new();
    let mut oses = HashSet::new();
    for (i, row) in rows.iter().enumerate() {
        let mut fail = |field: &str, m: String| {
            problems.push(Problem::field(field, m).at(i, row.file.as_deref()))
        };
        let os = match row.os.as_deref().filter(|s| !s.is_empty()) {
            None => {
                fail("os", "is required".into());
                None
            }
            Some(os) if app.catalog().get(os).is_none() => {
                fail("os", format!("'{os}' is not an OS of the catalog"));
                None
            }
            Some(os) if !oses.insert(os.to_owned()) => {
                fail(
                    "os",
                    format!("{os} is mapped twice; map each OS to one ISO"),
                );
                None
            }
            Some(os) => Some(os.to_owned()),
        };
        let file = match row.file.as_deref().filter(|s| !s.is_empty()) {
            None => {
                fail("file", "is required".into());
                None
            }
            Some(f) => match svc_file(app.svc_dir(), f) {
                Err(m) => {
                    fail("file", m);
                    None
                }
                Ok(_) if !files.insert(f.to_owned()) => {
                    fail("file", format!("{f} is mapped twice"));
                    None
                }
                Ok(_) => Some(f.to_owned()),
            },
        };
        if let (Some(file), Some(os)) = (file, os) {
            entries.push(IsoMapEntry { file, os });
        }
    }
    Error::invalid_if_any(ErrorCode::InvalidIsoMap, "The ISO map is invalid", problems)?;
    let warnings = inspect_all(app, &entries).await?;
    let pairs: Vec<(&str, &str)> = entries
        .iter()
        .map(|e| (e.file.as_str(), e.os.as_str()))
        .collect();
    let mut tx = app.store().begin().await?;
    store::iso_map::replace(&mut tx, &pairs).await?;
    tx.commit().await?;
    Ok(MapResult {
        iso_map: map(app).await?,
        warnings,
    })
}

/// What [`map_one`] did.
#[derive(Debug)]
pub(crate) enum MapOne {
    /// `file` is now mapped to the OS; `replaced` is the file the OS was mapped to before.
    Mapped {
        warnings: Vec<String>,
        replaced: Option<String>,
    },
    /// The OS is mapped to this other file and `take_over` was false: nothing changed.
    Taken(String),
}

/// Map one ISO of svc (`/svc/<name>`) to `os` and leave the rest of the map alone.
///
/// The checks of [`set_map`] for that one entry (an ISO holding another OS is refused with
/// the reason, an unrecognised one is mapped with a warning); unlike `set_map` the other
/// entries are not looked into again, so a stale entry elsewhere cannot block this one.
/// When `os` is mapped to another file, `take_over` moves it here; otherwise nothing changes.
pub(crate) async fn map_one(app: &App, file: &str, os: &str, take_over: bool) -> Result<MapOne> {
    let entry = IsoMapEntry {
        file: file.to_owned(),
        os: os.to_owned(),
    };
    let warnings = check_entry(app, &entry).await?;
    // Read and write in one transaction, so two imports cannot both take the same OS.
    let mut tx = app.store().begin().await?;
    let replaced = store::iso_map::other_file_of(&mut *tx, os, file).await?;
    if let (Some(other), false) = (&replaced, take_over) {
        return Ok(MapOne::Taken(other.clone()));
    }
    store::iso_map::map_one(&mut tx, file, os).await?;
    tx.commit().await?;
    Ok(MapOne::Mapped { warnings, replaced })
}

/// The rules one mapping must meet on its own: an OS of the catalog, an ISO file inside svc
/// that does not hold another OS. The warnings say when the ISO was not recognised as the OS.
pub(crate) async fn check_entry(app: &App, entry: &IsoMapEntry) -> Result<Vec<String>> {
    if app.catalog().get(&entry.os).is_none() {
        return Err(Error::invalid_field(
            ErrorCode::InvalidIsoMap,
            "The ISO map is invalid",
            "os",
            format!("'{}' is not an OS of the catalog", entry.os),
        ));
    }
    if let Err(m) = svc_file(app.svc_dir(), &entry.file) {
        return Err(Error::invalid_field(
            ErrorCode::InvalidIsoMap,
            "The ISO map is invalid",
            "file",
            m,
        ));
    }
    inspect_all(app, std::slice::from_ref(entry)).await
}

/// Store one checked mapping (the KUBAM import's).
pub(crate) async fn insert(conn: &mut store::Conn, entry: &IsoMapEntry) -> Result<()> {
    Ok(store::iso_map::insert(conn, &entry.file, &entry.os).await?)
}

/// What an ISO holds compared with the OS it is mapped to.
enum Inspection {
    Matches,
    Other(String, String),
    Unrecognised(String),
}

fn inspect(path: &Path, os: &str, markers: &[Marker]) -> Inspection {
    let mut iso = match Iso::open(path) {
        Ok(iso) => iso,
        Err(e) => {
            return Inspection::Unrecognised(unreadable(&e));
        }
    };
    let mine = markers.iter().find(|m| m.os == os);
    let why = |iso: &mut Iso| {
        mine.map(|m| mismatch(iso, m).unwrap_or_else(|e| e.to_string()))
            .unwrap_or_default()
    };
    match identify(&mut iso, markers) {
        Ok(found) if found.iter().any(|f| f == os) => Inspection::Matches,
        Ok(found) if !found.is_empty() => Inspection::Other(found.join(" or "), why(&mut iso)),
        Ok(_) => Inspection::Unrecognised(why(&mut iso)),
        Err(_) => Inspection::Unrecognised("its directory cannot be read".to_owned()),
    }
}

/// Look into every mapped ISO: one that holds another catalog OS is refused (with the reason), one
/// that is not recognised at all is mapped with a warning.
async fn inspect_all(app: &App, entries: &[IsoMapEntry]) -> Result<Vec<String>> {
    let markers = catalog_markers(app);
    let svc = app.svc_dir().to_owned();
    let list = entries.to_vec();
    let (problems, warnings) = crate::app::blocking(move || {
        let mut problems = Vec::new();
        let mut warnings = Vec::new();
        for (i, e) in list.iter().enumerate() {
            let Ok(path) = svc_file(&svc, &e.file) else {
                continue;
            };
            match inspect(&path, &e.os, &markers) {
                Inspection::Matches => {}
                Inspection::Other(found, why) => problems.push(
                    Problem::field(
                        "os",
                        format!("{} holds {found}, not {}: {why}", e.file, e.os),
                    )
                    .at(i, Some(&e.file)),
                ),
                Inspection::Unrecognised(why) => warnings.push(format!(
                    "{} was not recognised as {} ({why}); mapped as you asked",
                    e.file, e.os
                )),
            }
        }
        Ok((problems, warnings))
    })
    .await?;
    Error::invalid_if_any(
        ErrorCode::IsoOsMismatch,
        "An ISO holds another OS than it is mapped to",
        problems,
    )?;
    Ok(warnings)
}

/// Resolve an API file name (`/svc/<path>.iso`) to an ISO file inside the svc directory.
///
/// The rule of [`crate::media::svc`], spelled plainly (no `.` or empty segments: the map keys on the
/// name), and the target must be an existing regular `.iso` file.
pub fn svc_file(svc_dir: &Path, api_name: &str) -> Result<PathBuf, String> {
    let rel = api_name
        .strip_prefix(SVC_PREFIX)
        .filter(|r| !r.is_empty())
        .ok_or_else(|| format!("'{api_name}' must be a file in svc, starting with {SVC_PREFIX}"))?;
    let path = match SvcPath::new(rel) {
        Ok(p) => p,
        Err(Refusal::Hidden) => return Err(hidden_name(api_name)),
        Err(Refusal::Empty | Refusal::Unclean | Refusal::Nested) => {
            return Err(format!(
                "'{api_name}' must name a file inside svc without '..', '.' or empty path segments"
            ))
        }
    };
    if !has_iso_extension(rel) {
        return Err(format!(
            "'{api_name}' is not an ISO file (the name must end in .iso)"
        ));
    }
    svc::resolve(svc_dir, &path).map_err(|why| match why {
        Unreadable::Missing => format!("'{api_name}' does not exist in svc or leads outside it"),
        Unreadable::NotAFile => format!("'{api_name}' is not a regular file"),
    })
}

fn hidden_name(name: &str) -> String {
    format!(
        "'{name}' starts with a dot; such names in svc are hidden (Bootsmith's work in progress)"
    )
}

fn has_iso_extension(name: &str) -> bool {
    name.to_ascii_lowercase().ends_with(".iso")
}

/// Longest file name most filesystems take, in bytes.
const NAME_MAX: usize = 255;

/// Check `name` as the name of a new ISO file at the top of svc (not whether it exists).
///
/// A top-level name by the rule of [`crate::media::svc`] (one segment, no leading dot), plus what a
/// new file must also meet: no control characters (they break logs and URLs), at most 255
/// bytes, the `.iso` extension.
pub fn check_new_name(name: &str) -> Result<SvcPath, String> {
    let path = match SvcPath::top(name) {
        Ok(p) => p,
        Err(Refusal::Empty) => return Err("the file name is empty".to_owned()),
        Err(Refusal::Hidden) => return Err(hidden_name(name)),
        Err(Refusal::Unclean | Refusal::Nested) => {
            return Err(format!(
                "'{}' must be a plain file name, without '/', '\\' or '..'",
                name.escape_debug()
            ))
        }
    };
    if name.chars().any(char::is_control) {
        return Err(format!(
            "'{}' contains control characters",
            name.escape_debug()
        ));
    }
    if name.len() > NAME_MAX {
        return Err(format!(
            "the file name is {} bytes long; at most {NAME_MAX} are possible",
            name.len()
        ));
    }
    if !has_iso_extension(name) {
        return Err(format!(
            "'{name}' is not an ISO file name (the name must end in .iso)"
        ));
    }
    Ok(path)
}

/// What Bootsmith sees in one ISO file of svc.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct IsoInfo {
    /// `/svc/<name>`.
    pub file: String,
    /// Size in bytes.
    pub size: u64,
    /// Volume id (label), when the file is a readable ISO.
    pub volume_id: Option<String>,
    /// Catalog OSes whose marker it carries (several when rebuilds look alike).
    pub detected: Vec<String>,
    /// It has a BIOS El Torito boot entry.
    pub bios_boot: bool,
    /// It has a UEFI El Torito boot entry.
    pub uefi_boot: bool,
    /// The OS it is mapped to.
    pub mapped_to: Option<String>,
    /// Why it could not be read, when it could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
}

/// Every ISO the user put into svc, looked into: label, detected OS, boot entries, mapping.
pub async fn inspect_files(app: &App) -> Result<Vec<IsoInfo>> {
    let names = list(app).await?;
    let mapped = map(app).await?;
    let markers = catalog_markers(app);
    let svc = app.svc_dir().to_owned();
    crate::app::blocking(move || {
        Ok(names
            .into_iter()
            .map(|name| {
                let file = format!("{SVC_PREFIX}{name}");
                let mapped_to = mapped.iter().find(|m| m.file == file).map(|m| m.os.clone());
                look_into(&svc, &name, mapped_to, &markers)
            })
            .collect())
    })
    .await
}

/// What Bootsmith sees in the file `name` at the top of svc (blocking: it reads the file).
pub(crate) fn look_into(
    svc: &Path,
    name: &str,
    mapped_to: Option<String>,
    markers: &[Marker],
) -> IsoInfo {
    let path = svc.join(name);
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    let mut info = IsoInfo {
        file: format!("{SVC_PREFIX}{name}"),
        size,
        volume_id: None,
        detected: Vec::new(),
        bios_boot: false,
        uefi_boot: false,
        mapped_to,
        problem: None,
    };
    match Iso::open(&path) {
        Err(e) => info.problem = Some(unreadable(&e)),
        Ok(mut iso) => {
            info.volume_id = Some(iso.volume_id().to_owned());
            info.detected = identify(&mut iso, markers).unwrap_or_default();
            let boots = iso.boot_entries().unwrap_or_default();
            info.bios_boot = boots
                .iter()
                .any(|b| b.platform == bootsmith_media::iso::Platform::Bios);
            info.uefi_boot = boots
                .iter()
                .any(|b| b.platform == bootsmith_media::iso::Platform::Uefi);
        }
    }
    info
}

/// The catalog's ISO markers.
pub(crate) fn catalog_markers(app: &App) -> Vec<Marker> {
    app.catalog()
        .entries()
        .iter()
        .map(|o| Marker {
            os: o.id.clone(),
            file: o.marker.file.clone(),
            contains: o.marker.contains.clone(),
        })
        .collect()
}

/// Why a file could not be opened as an ISO, in words for the operator (no server-side path).
fn unreadable(e: &bootsmith_media::Error) -> String {
    not_an_iso_reason(e).map_or_else(
        || "it cannot be read".to_owned(),
        |r| format!("not a usable ISO image: {r}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_map_takes_isos_by_the_svc_rule() {
        let dir = tempfile::tempdir().unwrap();
        let svc = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(svc.join("isos")).unwrap();
        for f in ["c74.iso", "isos/.inner.iso", ".hidden.iso", "a\\b.iso"] {
            std::fs::write(svc.join(f), b"x").unwrap();
        }
        assert!(svc_file(&svc, "/svc/c74.iso").is_ok());
        assert!(
            svc_file(&svc, "/svc/isos/.inner.iso").is_ok(),
            "dot-names deeper down are no work in progress"
        );
        let hidden = svc_file(&svc, "/svc/.hidden.iso").unwrap_err();
        assert!(hidden.contains("starts with a dot"), "{hidden}");
        let unclean = svc_file(&svc, "/svc/a\\b.iso").unwrap_err();
        assert!(unclean.contains("without '..'"), "{unclean}");
        assert_eq!(list_iso_files(&svc).unwrap(), ["c74.iso"]);
        assert_eq!(check_new_name("new.iso").unwrap().as_str(), "new.iso");
        assert!(check_new_name(".new.iso")
            .unwrap_err()
            .contains("starts with a dot"));
    }
}
