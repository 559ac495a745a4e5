//! Catalog packs: what lets the catalog grow without a release. A pack is JSON (its entries
//! in the shape `GET /api/v2/catalog` answers, and templates for them) kept as
//! `svc/catalog.d/<name>.json`, read at start and on reload, or added and removed over the
//! API. The catalog in use is the compiled-in one with every accepted pack applied in name
//! order; each change builds and checks the whole new catalog first and only then swaps it
//! in, so a pack that breaks a rule applies nothing.

mod check;
pub(crate) mod state;

use state::Loaded;
pub use state::{PackInfo, Packs};

use std::path::Path;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::app::{blocking, App};
use crate::error::{Error, ErrorCode, Result};
use crate::media::isos;
use crate::records::hosts;
use bootsmith_model::catalog::{Catalog, Pack};

/// The folder of svc that holds the packs.
pub const DIR: &str = "catalog.d";

/// Every pack in `svc/catalog.d/`, applied or refused.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PackList {
    /// In name order, the order they are applied in.
    pub packs: Vec<PackInfo>,
}

/// A pack added: what it holds, and how its kickstarts were checked.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PackAdded {
    /// The pack as listed now.
    pub pack: PackInfo,
    /// Whether ksvalidator checked its kickstart templates, in a sentence (it says so
    /// plainly when none is configured).
    pub kickstart_check: String,
}

/// A catalog pack as sent: `{"name", "version", "entries": [...], "templates": {...}}`, read
/// by [`Pack::from_value`] so an unknown family is named with the families there are.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(transparent)]
#[schema(value_type = Pack)]
pub struct PackBody(pub serde_json::Value);

/// A pack to build with: read from its file (or sent), or why it could not be read.
struct Candidate {
    /// The file's name without `.json`.
    file_name: String,
    read: std::result::Result<Pack, String>,
}

/// The candidates that read as packs.
fn readable(candidates: &[Candidate]) -> Vec<&Pack> {
    candidates
        .iter()
        .filter_map(|c| c.read.as_ref().ok())
        .collect()
}

fn file_of(name: &str) -> String {
    format!("svc/{DIR}/{name}.json")
}

fn info(pack: &Pack, applied: bool, refused: Option<String>) -> PackInfo {
    PackInfo {
        name: pack.name.clone(),
        version: Some(pack.version.clone()),
        file: file_of(&pack.name),
        applied,
        entries: pack.entries.iter().map(|e| e.entry.id.clone()).collect(),
        templates: pack.templates.keys().cloned().collect(),
        refused,
    }
}

/// The base catalog with the candidates applied in name order, each refused one left out
/// with its reason. Answers the catalog and each candidate's state.
fn build(
    base: &Catalog,
    mut candidates: Vec<Candidate>,
    tool: Option<&check::Ksvalidator>,
) -> (Catalog, Vec<Loaded>) {
    candidates.sort_by(|a, b| a.file_name.cmp(&b.file_name));
    let mut catalog = base.clone();
    let mut loaded = Vec::new();
    for c in candidates {
        let pack = match c.read {
            Ok(p) => p,
            Err(why) => {
                loaded.push(Loaded {
                    pack: None,
                    info: PackInfo {
                        name: c.file_name.clone(),
                        version: None,
                        file: file_of(&c.file_name),
                        applied: false,
                        entries: Vec::new(),
                        templates: Vec::new(),
                        refused: Some(why),
                    },
                    kickstarts: Vec::new(),
                });
                continue;
            }
        };
        let applied = if pack.name != c.file_name {
            Err(pack
                .refusal(format!(
                    "its name differs from its file name {}.json; name the file after the pack",
                    c.file_name
                ))
                .to_string())
        } else {
            catalog
                .with_pack(&pack)
                .map_err(|e| e.to_string())
                .and_then(|next| {
                    check::templates(&pack, &next, tool)
                        .map(|ks| (next, ks))
                        .map_err(|why| pack.refusal(why).to_string())
                })
        };
        match applied {
            Ok((next, ks)) => {
                catalog = next;
                loaded.push(Loaded {
                    info: info(&pack, true, None),
                    pack: Some(pack),
                    kickstarts: ks,
                });
            }
            Err(why) => loaded.push(Loaded {
                info: info(&pack, false, Some(why)),
                pack: Some(pack),
                kickstarts: Vec::new(),
            }),
        }
    }
    (catalog, loaded)
}

/// Every `*.json` of `svc/catalog.d/`, read, with the templates beside a pack
/// (`catalog.d/<name>/<os id>.tmpl`) for entries that carry none of their own.
fn read_dir(svc_dir: &Path) -> Result<Vec<Candidate>> {
    let dir = svc_dir.join(DIR);
    let listing = match std::fs::read_dir(&dir) {
        Ok(l) => l,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::io(format!("reading {}", dir.display()), e)),
    };
    let mut out = Vec::new();
    for item in listing {
        let item = item.map_err(|e| Error::io(format!("reading {}", dir.display()), e))?;
        let file = item.file_name().to_string_lossy().into_owned();
        let Some(stem) = file.strip_suffix(".json") else {
            continue;
        };
        if file.starts_with('.') || !item.path().is_file() {
            continue;
        }
        let read = std::fs::read_to_string(item.path())
            .map_err(|e| format!("svc/{DIR}/{file} cannot be read: {e}"))
            .and_then(|text| Pack::from_json(&text).map_err(|e| format!("svc/{DIR}/{file}: {e}")))
            .map(|mut pack| {
                for e in &pack.entries {
                    let beside = dir.join(stem).join(format!("{}.tmpl", e.entry.id));
                    if !pack.templates.contains_key(&e.entry.id) {
                        if let Ok(text) = std::fs::read_to_string(beside) {
                            pack.templates.insert(e.entry.id.clone(), text);
                        }
                    }
                }
                pack
            });
        out.push(Candidate {
            file_name: stem.to_owned(),
            read,
        });
    }
    Ok(out)
}

/// The catalog at start: the compiled-in one with the packs of `svc/catalog.d/` applied.
/// A pack that breaks a rule is left out (and listed with its reason); it does not stop
/// the start.
pub(crate) fn open(svc_dir: &Path) -> Result<(Catalog, Packs)> {
    let base = Catalog::embedded()?;
    let candidates = read_dir(svc_dir)?;
    let tool = check::ksvalidator(&readable(&candidates));
    let (catalog, loaded) = build(&base, candidates, tool.as_ref());
    for l in &loaded {
        match &l.info.refused {
            Some(why) => tracing::warn!(pack = %l.info.name, reason = %why, "catalog pack refused"),
            None => {
                tracing::info!(pack = %l.info.name, entries = ?l.info.entries, "catalog pack applied")
            }
        }
    }
    Ok((
        catalog,
        Packs {
            state: tokio::sync::Mutex::new(loaded),
        },
    ))
}

/// Every pack in `svc/catalog.d/` as last read, applied or refused.
pub async fn list(app: &App) -> Result<PackList> {
    let state = app.packs().state.lock().await;
    Ok(PackList {
        packs: state.iter().map(|l| l.info.clone()).collect(),
    })
}

/// Check `body` as a pack, against the catalog with the other applied packs, and apply it:
/// stored as `svc/catalog.d/<name>.json` (replacing the pack of that name) and its entries
/// usable at once. A pack that breaks a rule is refused with the reason, and nothing of it
/// is applied.
pub async fn add(app: &App, body: PackBody) -> Result<PackAdded> {
    let pack = Pack::from_value(body.0)?;
    let mut state = app.packs().state.lock().await;
    let others: Vec<Candidate> = state
        .iter()
        .filter(|l| l.info.applied && l.info.name != pack.name)
        .filter_map(|l| l.pack.clone())
        .map(|p| Candidate {
            file_name: p.name.clone(),
            read: Ok(p),
        })
        .collect();
    let mut candidates = others;
    candidates.push(Candidate {
        file_name: pack.name.clone(),
        read: Ok(pack.clone()),
    });
    let svc_dir = app.svc_dir().to_owned();
    let (catalog, loaded, tool) = blocking(move || {
        let tool = check::ksvalidator(&readable(&candidates));
        let base = Catalog::embedded()?;
        let (c, l) = build(&base, candidates, tool.as_ref());
        Ok((c, l, tool))
    })
    .await?;
    if let Some(why) = loaded
        .iter()
        .find(|l| l.info.name == pack.name)
        .and_then(|l| l.info.refused.clone())
    {
        return Err(Error::bad(ErrorCode::InvalidPack, why));
    }
    if let Some(l) = loaded.iter().find(|l| l.info.refused.is_some()) {
        return Err(pack.refusal(format!(
            "with it, pack {} (applied now) would be refused: {}",
            l.info.name,
            l.info.refused.as_deref().unwrap_or_default()
        )));
    }
    let text = file_text(&pack)?;
    let name = pack.name.clone();
    blocking(move || write_pack(&svc_dir, &name, &text)).await?;
    app.set_catalog(catalog);
    let ks = loaded
        .iter()
        .find(|l| l.info.name == pack.name)
        .map(|l| l.kickstarts.clone())
        .unwrap_or_default();
    let added = info(&pack, true, None);
    // Refused files stay listed, as they were.
    let refused: Vec<Loaded> = state
        .iter()
        .filter(|l| !l.info.applied && l.info.name != pack.name)
        .cloned()
        .collect();
    *state = merge(loaded, refused);
    tracing::info!(pack = %pack.name, version = %pack.version, entries = ?added.entries, "catalog pack added");
    Ok(PackAdded {
        pack: added,
        kickstart_check: check::kickstart_words(&ks, tool.as_ref()),
    })
}

fn merge(mut a: Vec<Loaded>, b: Vec<Loaded>) -> Vec<Loaded> {
    a.extend(b);
    a.sort_by(|x, y| x.info.name.cmp(&y.info.name));
    a
}

/// The pack as its file keeps it: as sent, without the `source` each entry reads back with
/// (the pack is the source).
fn file_text(pack: &Pack) -> Result<String> {
    let corrupt = |e: serde_json::Error| Error::Corrupt(format!("catalog pack {}: {e}", pack.name));
    let mut value = serde_json::to_value(pack).map_err(corrupt)?;
    if let Some(entries) = value.get_mut("entries").and_then(|e| e.as_array_mut()) {
        for e in entries.iter_mut().filter_map(|e| e.as_object_mut()) {
            e.remove("source");
        }
    }
    serde_json::to_string_pretty(&value).map_err(corrupt)
}

/// Write `svc/catalog.d/<name>.json` whole: a hidden temporary file renamed into place.
fn write_pack(svc_dir: &Path, name: &str, text: &str) -> Result<()> {
    let dir = svc_dir.join(DIR);
    std::fs::create_dir_all(&dir)
        .map_err(|e| Error::io(format!("creating {}", dir.display()), e))?;
    let temp = dir.join(format!(".{name}.json.partial"));
    let dest = dir.join(format!("{name}.json"));
    let write = || -> std::io::Result<()> {
        use std::io::Write;
        let mut f = std::fs::File::create(&temp)?;
        f.write_all(text.as_bytes())?;
        f.write_all(b"\n")?;
        f.sync_all()?;
        std::fs::rename(&temp, &dest)
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&temp);
        Error::io(format!("writing {}", dest.display()), e)
    })?;
    crate::media::svc::sync_dir(&dir);
    Ok(())
}

/// Remove pack `name`: its file (and the templates beside it) and its entries. Refused while
/// a host or an ISO mapping uses an OS id that would be gone, or another pack builds on it.
pub async fn remove(app: &App, name: &str) -> Result<PackInfo> {
    let mut state = app.packs().state.lock().await;
    let Some(gone) = state.iter().find(|l| l.info.name == name).cloned() else {
        return Err(Error::not_found(
            ErrorCode::PackNotFound,
            format!(
                "There is no catalog pack {name}: Settings → Catalog lists the packs there are"
            ),
        ));
    };
    let rest: Vec<Candidate> = state
        .iter()
        .filter(|l| l.info.applied && l.info.name != name)
        .filter_map(|l| l.pack.clone())
        .map(|p| Candidate {
            file_name: p.name.clone(),
            read: Ok(p),
        })
        .collect();
    let (catalog, loaded) = blocking(move || {
        let base = Catalog::embedded()?;
        Ok(build(&base, rest, None))
    })
    .await?;
    if let Some(l) = loaded.iter().find(|l| l.info.refused.is_some()) {
        return Err(Error::conflict(
            ErrorCode::PackInUse,
            format!(
                "Catalog pack {name} cannot be removed: pack {} builds on it ({}); remove that pack first",
                l.info.name,
                l.info.refused.as_deref().unwrap_or_default()
            ),
        ));
    }
    // A refused pack's entries were never in the catalog: nothing can use them.
    let vanish: Vec<String> = gone
        .info
        .entries
        .iter()
        .filter(|id| gone.info.applied && catalog.get(id).is_none())
        .cloned()
        .collect();
    let users: Vec<String> = hosts::list(app)
        .await?
        .into_iter()
        .filter(|h| vanish.contains(&h.os))
        .map(|h| format!("host {} ({})", h.name, h.os))
        .chain(
            isos::map(app)
                .await?
                .into_iter()
                .filter(|m| vanish.contains(&m.os))
                .map(|m| format!("the ISO {} mapped to {}", m.file, m.os)),
        )
        .collect();
    if !users.is_empty() {
        return Err(Error::conflict(
            ErrorCode::PackInUse,
            format!(
                "Catalog pack {name} cannot be removed: {} use its OS ids; give the hosts another OS and unmap the ISOs first",
                users.join(", ")
            ),
        ));
    }
    let svc_dir = app.svc_dir().to_owned();
    let n = name.to_owned();
    blocking(move || {
        let dir = svc_dir.join(DIR);
        let file = dir.join(format!("{n}.json"));
        match std::fs::remove_file(&file) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io(format!("removing {}", file.display()), e)),
        }
        let beside = dir.join(&n);
        if beside.is_dir() {
            std::fs::remove_dir_all(&beside)
                .map_err(|e| Error::io(format!("removing {}", beside.display()), e))?;
        }
        crate::media::svc::sync_dir(&dir);
        Ok(())
    })
    .await?;
    app.set_catalog(catalog);
    let refused: Vec<Loaded> = state
        .iter()
        .filter(|l| !l.info.applied && l.info.name != name)
        .cloned()
        .collect();
    *state = merge(loaded, refused);
    tracing::info!(pack = %name, "catalog pack removed");
    Ok(gone.info)
}

/// Read `svc/catalog.d/` again and apply what is there: each pack that breaks a rule is
/// left out and listed with its reason; the rest are applied at once.
pub async fn reload(app: &App) -> Result<PackList> {
    let mut state = app.packs().state.lock().await;
    let svc_dir = app.svc_dir().to_owned();
    let (catalog, loaded) = blocking(move || {
        let base = Catalog::embedded()?;
        let candidates = read_dir(&svc_dir)?;
        let tool = check::ksvalidator(&readable(&candidates));
        Ok(build(&base, candidates, tool.as_ref()))
    })
    .await?;
    app.set_catalog(catalog);
    *state = loaded;
    for l in state.iter().filter(|l| l.info.refused.is_some()) {
        tracing::warn!(pack = %l.info.name, reason = ?l.info.refused, "catalog pack refused on reload");
    }
    Ok(PackList {
        packs: state.iter().map(|l| l.info.clone()).collect(),
    })
}
