//! The import of the file's settings (boot-server address, org, proxy…), SSH keys and ISO
//! mappings, each through the check of its own `POST /api/v1/…` body.

use std::collections::HashMap;

use crate::app::App;
use crate::error::Result;
use crate::media::isos::{IsoMapEntry, SVC_PREFIX};
use crate::records::keys::KeyInfo;
use crate::records::settings::{OrgInput, ProxyInput, SvcIpInput};
use crate::{media::isos, records::keys, records::settings};
use bootsmith_model::types::SshPublicKey;
use bootsmith_store::{self as store, Conn};

use super::file::{self, KubamFile};
use super::{item, skip, Action, RecordKind, Run};

/// An ISO mapping checked against svc and the catalog before the transaction.
pub(super) enum IsoCheck {
    Ready(IsoMapEntry, Vec<String>),
    Skip(String),
    Missing(String, String),
}

pub(super) async fn check_isos(app: &App, file: &KubamFile) -> Vec<IsoCheck> {
    let mut out = Vec::new();
    for rec in &file.iso_map {
        let (Some(os), Some(kubam_path)) = (rec.get("os"), rec.get("file")) else {
            out.push(IsoCheck::Skip(
                if rec.get("os").is_none() {
                    "has no os"
                } else {
                    "has no file"
                }
                .to_owned(),
            ));
            continue;
        };
        let Some(rel) = kubam_path
            .strip_prefix("/kubam/")
            .map(|r| r.trim_start_matches('/'))
        else {
            out.push(IsoCheck::Missing(
                kubam_path.to_owned(),
                format!("{kubam_path} is not in KUBAM's directory /kubam, so not in svc either: copy it into svc and map it there"),
            ));
            continue;
        };
        let entry = IsoMapEntry {
            file: format!("{SVC_PREFIX}{rel}"),
            os: os.to_owned(),
        };
        if !app.svc_dir().join(rel).exists() {
            out.push(IsoCheck::Missing(
                kubam_path.to_owned(),
                format!(
                    "{kubam_path} is not in svc: copy it to {}, then map it",
                    app.svc_dir().join(rel).display()
                ),
            ));
            continue;
        }
        out.push(match isos::check_entry(app, &entry).await {
            Ok(warnings) => IsoCheck::Ready(entry, warnings),
            Err(e) => IsoCheck::Skip(e.to_string()),
        });
    }
    out
}

/// A setting of the file, with the check of its `POST /api/v1/…` body.
pub(super) struct Setting<'f> {
    value: Option<&'f file::Spanned<String>>,
    key: &'static str,
    label: &'static str,
    check: fn(String) -> Result<Option<String>>,
    note: &'static str,
}

impl Run<'_> {
    pub(super) async fn settings(&mut self, conn: &mut Conn, file: &KubamFile) -> Result<()> {
        let entries = [
            Setting {
                value: file.kubam_ip.as_ref(),
                key: settings::SVC_IP,
                label: "svc_ip (kubam_ip)",
                check: |v| {
                    settings::check_svc_ip(&SvcIpInput {
                        svc_ip: None,
                        kubam_ip: Some(v),
                    })
                    .map(|ip| Some(ip.to_string()))
                },
                note: "the boot-server address: servers fetch their install media from it",
            },
            Setting {
                value: file.proxy.as_ref(),
                key: settings::PROXY,
                label: "proxy",
                check: |v| {
                    settings::check_proxy(ProxyInput { proxy: Some(v) })
                        .map(|p| p.map(|p| p.as_str().to_owned()))
                },
                note: "becomes the default proxy of network groups that name none (KUBAM v2 kept it but used only each network group's own)",
            },
            Setting {
                value: file.org.as_ref(),
                key: settings::ORG,
                label: "org (ucsm.org)",
                check: |v| {
                    settings::check_org(OrgInput { org: Some(v) })
                        .map(|o| o.map(|o| o.as_str().to_owned()))
                },
                note: "becomes the default UCS org of server groups that name none (KUBAM v2 deployed those to org-root)",
            },
        ];
        for Setting {
            value,
            key,
            label,
            check,
            note,
        } in entries
        {
            let Some(v) = value.filter(|v| !v.value.trim().is_empty()) else {
                continue;
            };
            let mut it = item(RecordKind::Setting, label, v.line);
            let value = match check(v.value.clone()) {
                Ok(Some(value)) => value,
                Ok(None) => continue,
                Err(e) => {
                    self.push(skip(it, e.to_string()));
                    continue;
                }
            };
            match settings::read(conn, key).await? {
                Some(stored) if stored == value => {
                    it.action = Action::Unchanged;
                    self.push(it);
                }
                Some(stored) => self.clash(
                    it,
                    label.split(' ').next().unwrap_or(key).to_owned(),
                    format!("{key} is already set to {stored}, the file has {value}"),
                ),
                None => {
                    settings::write(conn, key, &value).await?;
                    it.notes.push(format!("{value}: {note}"));
                    self.push(it);
                }
            }
        }
        Ok(())
    }

    pub(super) async fn keys(&mut self, conn: &mut Conn, file: &KubamFile) -> Result<()> {
        let stored = store::keys::list(&mut *conn).await?;
        let mut all: Vec<SshPublicKey> = stored
            .iter()
            .filter_map(|k| SshPublicKey::parse(k).ok())
            .collect();
        let mut added = false;
        for (i, k) in file.public_keys.iter().enumerate() {
            let it = item(RecordKind::SshKey, format!("public_keys[{i}]"), k.line);
            match SshPublicKey::parse(&k.value) {
                Err(m) => self.push(skip(it, m)),
                Ok(key) => {
                    let info = KeyInfo::of(key.as_str().to_owned());
                    let mut it = it;
                    it.name = if info.comment.is_empty() {
                        format!("{} {}", info.kind, info.fingerprint)
                    } else {
                        format!("{} {} ({})", info.kind, info.fingerprint, info.comment)
                    };
                    if all.contains(&key) {
                        it.action = Action::Unchanged;
                    } else {
                        all.push(key);
                        added = true;
                    }
                    self.push(it);
                }
            }
        }
        if added {
            keys::write_list(conn, &all).await?;
        }
        Ok(())
    }

    pub(super) async fn iso_map(
        &mut self,
        conn: &mut Conn,
        file: &KubamFile,
        checks: Vec<IsoCheck>,
    ) -> Result<()> {
        let stored = store::iso_map::list(&mut *conn).await?;
        let mut taken: HashMap<String, usize> = HashMap::new();
        for (i, (rec, check)) in file.iso_map.iter().zip(checks).enumerate() {
            let mut it = item(
                RecordKind::IsoMap,
                rec.get("os").unwrap_or("(no os)"),
                rec.line,
            );
            let (entry, warnings) = match check {
                IsoCheck::Skip(why) => {
                    if let Some(f) = rec.get("file").filter(|f| !why.contains(f)) {
                        it.notes.push(format!("file {f}"));
                    }
                    self.push(skip(it, why));
                    continue;
                }
                IsoCheck::Missing(path, why) => {
                    self.missing_isos.push(path);
                    self.push(skip(it, why));
                    continue;
                }
                IsoCheck::Ready(entry, warnings) => (entry, warnings),
            };
            if let Some(first) = taken.get(&entry.os) {
                self.push(skip(
                    it,
                    format!(
                        "{} is mapped on line {first} already; KUBAM used the first mapping of an OS",
                        entry.os
                    ),
                ));
                continue;
            }
            taken.insert(entry.os.clone(), rec.line);
            it.notes.push(format!(
                "{} → {}",
                rec.get("file").unwrap_or_default(),
                entry.file
            ));
            it.notes.extend(warnings);
            let same_os = stored.iter().find(|(_, os)| *os == entry.os);
            let same_file = stored.iter().find(|(f, _)| *f == entry.file);
            match (same_os, same_file) {
                (Some((f, _)), _) if *f == entry.file => {
                    it.action = Action::Unchanged;
                    self.push(it);
                }
                (Some((f, os)), _) | (None, Some((f, os))) => self.clash(
                    it,
                    format!("iso_map[{i}]"),
                    format!("{os} is mapped to {f} already"),
                ),
                (None, None) => {
                    isos::insert(conn, &entry).await?;
                    self.push(it);
                }
            }
        }
        Ok(())
    }
}
