//! What a host's media are made from, read as it is now from the records, the settings and
//! svc, and which of its files svc holds: handed to the lifecycle, which digests them and
//! says whether the media are still right.

use std::collections::HashMap;
use std::path::Path;

use super::svc::{self, SvcPath};
use super::{answers, isos, layout};
use crate::app::{blocking, App};
use crate::error::Result;
use crate::lifecycle::{InputsContext, InputsNow, MediaFile};
use crate::records::hosts::{self, Host};
use crate::records::{keys, networks, settings};
use bootsmith_model::catalog::{Catalog, Family};
use bootsmith_model::time::{Secs, Time};

/// The inputs of `hosts`' media as they are now, digested. `port` is where svc is served
/// (media name it).
pub(crate) async fn load(app: &App, hosts: &[Host], port: u16) -> Result<InputsContext> {
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
                let pack = catalog.pack_template(os).map(|t| t.text.as_str());
                templates.insert(os.clone(), template_texts(&svc_dir, os, entry.family, pack));
            }
        }
        Ok((isos, templates))
    })
    .await?;
    let master = hosts::list(app)
        .await?
        .iter()
        .find(|h| h.role == "k8s master")
        .map(|h| format!("{} {}", h.name, h.ip))
        .unwrap_or_default();
    let networks = networks::list(app).await?;
    Ok(InputsContext::new(InputsNow {
        boot_server: format!("{}:{port}", svc_ip.unwrap_or_default()),
        params: answers::params_above(app, &networks).await?,
        networks,
        default_proxy: settings::proxy(app)
            .await?
            .map(|p| p.to_string())
            .unwrap_or_default(),
        keys: keys::list(app).await?,
        master,
        isos,
        templates,
        group_hints: answers::group_hints(app).await?,
    }))
}

/// `h`'s media files that svc holds, and those it needs that are not there (`/svc/<file>`).
pub(crate) fn files(svc_dir: &Path, catalog: &Catalog, h: &Host) -> (Vec<MediaFile>, Vec<String>) {
    let mut files = Vec::new();
    let mut missing = Vec::new();
    let Some(os) = catalog.get(&h.os) else {
        return (files, missing);
    };
    let name = h.name.as_str();
    let exists = |f: &str| {
        SvcPath::new(f)
            .ok()
            .and_then(|p| svc::resolve(svc_dir, &p).ok())
            .and_then(|p| p.metadata().ok())
    };
    // (file, whether it must be there): the boot media and answer disk always; the answer
    // files served over HTTP are listed when there, and needed once the host has a
    // single-device ISO, which fetches them.
    let answers = layout::http_answers(catalog, os, name);
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
    (files, missing)
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

/// The texts of the templates an OS's answer files are rendered from (svc's `<os>.tmpl`, else
/// a catalog pack's template, in place of the first default).
fn template_texts(svc_dir: &Path, os: &str, family: Family, pack: Option<&str>) -> Vec<String> {
    let over = SvcPath::top(&format!("{os}.tmpl"))
        .ok()
        .and_then(|p| svc::resolve(svc_dir, &p).ok())
        .and_then(|p| std::fs::read_to_string(p).ok())
        .or_else(|| pack.map(str::to_owned));
    let mut texts: Vec<String> = answers::default_template_texts(family)
        .into_iter()
        .map(str::to_owned)
        .collect();
    if let Some(text) = over {
        texts[0] = text;
    }
    texts
}
