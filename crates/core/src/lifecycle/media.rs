//! Are a host's install media still right? Each build records a digest of every input its
//! media were made from; the media are **stale** when one of them differs now, and the
//! changed inputs are named. Also what exists in svc for the host, with its build time.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use crate::records::hosts::Host;
use crate::records::install_disk::effective_hint_in;
use crate::records::networks::NetworkGroup;
use bootsmith_model::install_disk::InstallDiskHint;
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
        "install_disk" => "the install-disk hint (the host's, or its server group's)",
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

/// What hosts' media are made from as it is now, read by the media (`media::inputs`) and
/// handed in: the lifecycle only digests it.
pub(crate) struct InputsNow {
    /// `<svc address>:<port>`, as the media name it.
    pub boot_server: String,
    /// Every network group.
    pub networks: Vec<NetworkGroup>,
    /// The proxy setting, or empty.
    pub default_proxy: String,
    /// Every SSH public key.
    pub keys: Vec<String>,
    /// `<name> <ip>` of the Kubernetes master, or empty.
    pub master: String,
    /// Per OS id: its mapped ISO's name, size and time (`no ISO mapped`, `<file> missing`).
    pub isos: HashMap<String, String>,
    /// Per OS id: the texts of the templates its answer files are rendered from.
    pub templates: HashMap<String, Vec<String>>,
    /// Per server group that gives one: its install-disk hint, the default of its hosts.
    pub group_hints: HashMap<String, InstallDiskHint>,
    /// The template parameters' defaults and server groups' layers.
    pub params: crate::records::params::Above,
}

/// The digests of everything hosts' media depend on, for many hosts.
pub(crate) struct InputsContext {
    boot_server: String,
    nets: Vec<NetworkGroup>,
    default_proxy: String,
    keys: String,
    master: String,
    isos: HashMap<String, String>,
    templates: HashMap<String, String>,
    group_hints: HashMap<String, InstallDiskHint>,
    params: crate::records::params::Above,
}

impl InputsContext {
    /// The digests to compare media with, from what their inputs are now.
    pub(crate) fn new(now: InputsNow) -> Self {
        InputsContext {
            boot_server: now.boot_server,
            nets: now.networks,
            default_proxy: now.default_proxy,
            keys: digest(&now.keys.iter().map(String::as_str).collect::<Vec<_>>()),
            master: now.master,
            isos: now.isos,
            group_hints: now.group_hints,
            params: now.params,
            templates: now
                .templates
                .into_iter()
                .map(|(os, texts)| {
                    let parts: Vec<&str> = texts.iter().map(String::as_str).collect();
                    (os, digest(&parts))
                })
                .collect(),
        }
    }

    /// The digest of each input of `h`'s media.
    pub(crate) fn inputs(&self, h: &Host) -> Inputs {
        // What the answer files use of the record; the bound server and template do not matter.
        let group = h
            .server_group
            .as_ref()
            .map(ToString::to_string)
            .unwrap_or_default();
        let macs: Vec<String> = h.macs.iter().map(ToString::to_string).collect();
        let host = [
            h.name.as_str(),
            &h.ip.to_string(),
            &h.os,
            &h.role,
            h.network_group.as_str(),
            &group,
            &macs.join(","),
            &h.ipv6.map(|a| a.to_string()).unwrap_or_default(),
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
        let hint = effective_hint_in(h, &self.group_hints);
        out.insert(
            "install_disk".into(),
            digest(&[&hint.map(|h| h.to_json().to_string()).unwrap_or_default()]),
        );
        // Only where there are any: media built before parameters existed stay as they were.
        let params = self.params.layers(h).fingerprint();
        if params != "{}" {
            out.insert("params".into(), digest(&[&params]));
        }
        if h.role.starts_with("k8s") {
            out.insert("master".into(), digest(&[&self.master]));
        }
        out
    }
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

/// The state of a host's media, given its last build, the inputs now, its files in svc (and
/// those it needs that are not there) and when its install reported `installed` (if it did).
pub(crate) fn status(
    row: Option<&MediaRow>,
    now: &Inputs,
    files: Vec<MediaFile>,
    missing: Vec<String>,
    installed_at: Option<Time<Millis>>,
) -> MediaStatus {
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
