//! Are a host's install media still right? Each build records a digest of every input its
//! media were made from; the media are **stale** when one of them differs now, and the
//! changed inputs are named. Also what exists in svc for the host, with its build time.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use serde::Serialize;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use crate::app::{blocking, App};
use crate::error::Result;
use crate::media::svc::{self, SvcPath};
use crate::media::{answers, layout};
use crate::records::hosts::Host;
use crate::records::networks::NetworkGroup;
use crate::{media::isos, records::keys, records::networks, records::settings};
use bootsmith_model::catalog::Family;
use bootsmith_model::time::{Millis, Secs, Time};
use bootsmith_store::lifecycle::MediaRow;

/// Digest of each input, by input name.
pub(crate) type Inputs = BTreeMap<String, String>;

/// What an input is, in the operator's words.
fn input_words(name: &str) -> &'static str {
    match name {
        "host" => "the host record (address, OS, role or groups)",
        "network" => "its network group",
        "keys" => "the SSH keys",
        "boot_server" => "the boot-server address or port",
        "template" => "the answer template",
        "iso" => "the ISO mapped to its OS",
        "master" => "the Kubernetes master",
        _ => "an input Bootsmith no longer records",
    }
}

fn digest(parts: &[&str]) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p.as_bytes());
        h.update([0]);
    }
    h.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Everything hosts' media depend on, read once for many hosts.
pub(crate) struct InputsContext {
    boot_server: String,
    nets: Vec<NetworkGroup>,
    default_proxy: String,
    keys: String,
    master: String,
    isos: HashMap<String, String>,
    templates: HashMap<String, String>,
}

impl InputsContext {
    /// Read the inputs as they are now. `port` is where svc is served (media name it).
    pub(crate) async fn load(app: &App, hosts: &[Host], port: u16) -> Result<Self> {
        let svc_ip = settings::svc_ip(app).await?.map(|i| i.to_string());
        let mut oses: Vec<String> = hosts.iter().map(|h| h.os.clone()).collect();
        oses.sort();
        oses.dedup();
        let map = isos::map(app).await?;
        let svc_dir = app.svc_dir().to_owned();
        let catalog = app.catalog().clone();
        let (isos, templates) = blocking(move || {
            let mut isos = HashMap::new();
            let mut templates = HashMap::new();
            for os in &oses {
                let iso = map
                    .iter()
                    .find(|m| &m.os == os)
                    .map(|m| iso_identity(&svc_dir, &m.file))
                    .unwrap_or_else(|| "no ISO mapped".into());
                isos.insert(os.clone(), iso);
                if let Some(entry) = catalog.get(os) {
                    templates.insert(os.clone(), template_digest(&svc_dir, os, entry.family));
                }
            }
            Ok((isos, templates))
        })
        .await?;
        let all = crate::records::hosts::list(app).await?;
        let master = all
            .iter()
            .find(|h| h.role == "k8s master")
            .map(|h| format!("{} {}", h.name, h.ip))
            .unwrap_or_default();
        Ok(InputsContext {
            boot_server: format!("{}:{port}", svc_ip.unwrap_or_default()),
            nets: networks::list(app).await?,
            default_proxy: settings::proxy(app)
                .await?
                .map(|p| p.to_string())
                .unwrap_or_default(),
            keys: digest(
                &keys::list(app)
                    .await?
                    .iter()
                    .map(String::as_str)
                    .collect::<Vec<_>>(),
            ),
            master,
            isos,
            templates,
        })
    }

    /// The digest of each input of `h`'s media.
    pub(crate) fn inputs(&self, h: &Host) -> Inputs {
        // What the answer files use of the record; the bound server and template do not matter.
        let group = h
            .server_group
            .as_ref()
            .map(ToString::to_string)
            .unwrap_or_default();
        let host = [
            h.name.as_str(),
            &h.ip.to_string(),
            &h.os,
            &h.role,
            h.network_group.as_str(),
            &group,
        ]
        .join(" ");
        let net = self
            .nets
            .iter()
            .find(|n| n.name == h.network_group)
            .map(|n| {
                // The subnet is a check on saving, not in any answer file: adding one leaves
                // the media as right as they were.
                let answered = NetworkGroup {
                    subnet: None,
                    ..n.clone()
                };
                serde_json::to_string(&answered).unwrap_or_default()
            })
            .unwrap_or_default();
        let mut out = Inputs::new();
        out.insert("host".into(), digest(&[&host]));
        out.insert("network".into(), digest(&[&net, &self.default_proxy]));
        out.insert("keys".into(), self.keys.clone());
        out.insert("boot_server".into(), digest(&[&self.boot_server]));
        let none = String::new();
        out.insert(
            "template".into(),
            self.templates.get(&h.os).unwrap_or(&none).clone(),
        );
        out.insert(
            "iso".into(),
            digest(&[self.isos.get(&h.os).unwrap_or(&none)]),
        );
        if h.role.starts_with("k8s") {
            out.insert("master".into(), digest(&[&self.master]));
        }
        out
    }
}

/// Name, size and modification time of a mapped ISO: a new ISO under the same name changes it.
fn iso_identity(svc_dir: &Path, file: &str) -> String {
    match isos::svc_file(svc_dir, file).and_then(|p| p.metadata().map_err(|e| e.to_string())) {
        Ok(m) => {
            let modified = m
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map(|d| d.as_secs())
                .unwrap_or(0);
            format!("{file} {} {modified}", m.len())
        }
        Err(_) => format!("{file} missing"),
    }
}

/// The digest of the templates an OS's answer files are rendered from.
fn template_digest(svc_dir: &Path, os: &str, family: Family) -> String {
    let over = SvcPath::top(&format!("{os}.tmpl"))
        .ok()
        .and_then(|p| svc::resolve(svc_dir, &p).ok())
        .and_then(|p| std::fs::read_to_string(p).ok());
    let mut texts: Vec<String> = answers::default_template_texts(family)
        .into_iter()
        .map(str::to_owned)
        .collect();
    if let Some(text) = over {
        texts[0] = text;
    }
    digest(&texts.iter().map(String::as_str).collect::<Vec<_>>())
}

/// Whether a host's media can be used as they are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum MediaFreshness {
    /// Built by Bootsmith from the inputs as they are now.
    Ready,
    /// Built, but an input changed since: rebuild them.
    Stale,
    /// Built, and the install they were made for reported `installed`: they did their job.
    /// Their answer file's install token is spent, so a new install needs new images.
    Used,
    /// A file is not in svc: make the images.
    Missing,
    /// In svc, but not built by this Bootsmith (copied in, or built before it recorded its
    /// inputs): nothing to compare with.
    Unknown,
}

/// One file of a host's media in svc.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MediaFile {
    /// `/svc/<file>`.
    pub file: String,
    /// Size in bytes.
    pub bytes: u64,
    /// When it was last written (RFC 3339).
    pub modified: String,
}

/// A host's media: what exists in svc and whether it is still right.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MediaStatus {
    /// Ready, stale, used, missing or unknown.
    pub state: MediaFreshness,
    /// When Bootsmith last built them (RFC 3339), if it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub built_at: Option<Time<Secs>>,
    /// When the install that used them reported `installed` (RFC 3339; used media only).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub used_at: Option<Time<Millis>>,
    /// The inputs that changed since the build, in words (stale media only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub changed: Vec<String>,
    /// The host's files that are in svc (its boot media and answer disk).
    pub files: Vec<MediaFile>,
    /// The files it boots from that are not there.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<String>,
}

/// The state of `h`'s media, given its last build, the inputs now and when its install
/// reported `installed` (if it did).
pub(crate) fn status(
    app: &App,
    h: &Host,
    row: Option<&MediaRow>,
    now: &Inputs,
    installed_at: Option<Time<Millis>>,
) -> MediaStatus {
    let mut files = Vec::new();
    let mut missing = Vec::new();
    if let Some(os) = app.catalog().get(&h.os) {
        let name = h.name.as_str();
        let exists = |f: &str| {
            SvcPath::new(f)
                .ok()
                .and_then(|p| svc::resolve(app.svc_dir(), &p).ok())
                .and_then(|p| p.metadata().ok())
        };
        // (file, whether it must be there): the boot media and answer disk always; the
        // answer files served over HTTP are listed when there, and needed once the host has
        // a single-device ISO, which fetches them.
        let answers = layout::http_answers(app.catalog(), os, name);
        let single = layout::single_device_iso(name);
        let single_device = !answers.is_empty() && exists(&single).is_some();
        let wanted = std::iter::once(layout::boot_media(os, name))
            .chain(layout::answer_disk(os, name))
            .map(|f| (f, true))
            .chain(single_device.then_some((single, true)))
            .chain(answers.into_iter().map(|f| (f, single_device)));
        for (f, needed) in wanted {
            match exists(&f) {
                Some(m) => files.push(MediaFile {
                    file: format!("/svc/{f}"),
                    bytes: m.len(),
                    modified: m
                        .modified()
                        .map(|t| Time::<Secs>::from(t).to_string())
                        .unwrap_or_default(),
                }),
                None if needed => missing.push(format!("/svc/{f}")),
                None => {}
            }
        }
    }
    let built: Option<Inputs> = row.and_then(|r| serde_json::from_str(&r.inputs).ok());
    let changed: Vec<String> = match &built {
        None => Vec::new(),
        Some(then) => {
            let mut names: Vec<&String> = then.keys().chain(now.keys()).collect();
            names.sort();
            names.dedup();
            names
                .into_iter()
                .filter(|n| then.get(*n) != now.get(*n))
                .map(|n| input_words(n).to_owned())
                .collect()
        }
    };
    // An install that reported `installed` spent the token in the answer file: installing
    // from the same media again would never be seen to finish (its callback is refused).
    // That is the normal end of media, not a fault: they read as used, not stale.
    let spent = built.is_some() && row.is_some_and(|r| r.token_hash.is_none());
    let state = if !missing.is_empty() {
        MediaFreshness::Missing
    } else if built.is_none() {
        MediaFreshness::Unknown
    } else if !changed.is_empty() {
        MediaFreshness::Stale
    } else if spent {
        MediaFreshness::Used
    } else {
        MediaFreshness::Ready
    };
    MediaStatus {
        state,
        built_at: row.map(|r| r.built_at),
        used_at: spent.then_some(installed_at).flatten(),
        changed,
        files,
        missing,
    }
}
