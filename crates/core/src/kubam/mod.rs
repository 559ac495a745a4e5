//! Import a KUBAM installation: its `kubam.yaml` becomes Bootsmith's settings and records, the
//! passwords decrypted with KUBAM's `.kubam` key (prior-art §2) and stored with Bootsmith's own
//! encryption.
//!
//! Every record goes through the checks and the insert of its own create path, in one SQLite
//! transaction: all or nothing. A dry run takes the same path and rolls back, so the plan it
//! answers is exactly what the import would do. Nothing stored is overwritten: a name Bootsmith
//! already uses is a conflict, which refuses the import (`409 kubam_conflicts`) unless the caller
//! asks to keep the existing records and skip the file's (`skip_existing`). Managers are not
//! contacted (groups are stored with `check_login: false`), so the import works offline.

mod fernet;
mod file;

use crate::error::ErrorCode;
use std::collections::{HashMap, HashSet};
use std::fmt;

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use crate::aci::AciInput;
use crate::app::App;
use crate::error::{Error, Problem, Result};
use crate::hosts::{Host, HostInput, HostRules};
use crate::isos::{IsoMapEntry, SVC_PREFIX};
use crate::keys::KeyInfo;
use crate::networks::NetworkInput;
use crate::secrets::SecretString;
use crate::selector::SelectorInput;
use crate::server_groups::{CredentialsInput, ServerGroupInput, NO_PASSWORD};
use crate::settings::{OrgInput, ProxyInput, SvcIpInput};
use crate::store::{self, Conn, Named};
use crate::types::{Name, SshPublicKey};
use crate::{aci, hosts, isos, keys, networks, server_groups, settings};
use file::{KubamFile, Record};

/// Body of `POST /api/v2/import/kubam`.
#[derive(Deserialize, ToSchema)]
pub struct KubamImportInput {
    /// The text of KUBAM's `kubam.yaml`.
    #[schema(schema_with = crate::schema::file_text, required = true)]
    pub yaml: Option<String>,
    /// The text of KUBAM's key file `.kubam` (next to kubam.yaml), which decrypts the passwords
    /// of server groups and ACI instances; without it those are imported without a password.
    #[schema(value_type = Option<String>)]
    pub key: Option<SecretString>,
}

impl fmt::Debug for KubamImportInput {
    // The file holds passwords (KUBAM's PUT stored them in clear), and the key decrypts the rest.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KubamImportInput")
            .field(
                "yaml",
                &self.yaml.as_ref().map(|y| format!("<{} bytes>", y.len())),
            )
            .field("key", &self.key.as_ref().map(|_| "<redacted>"))
            .finish()
    }
}

/// How to import: `?dry_run=true` answers the plan and writes nothing; `?skip_existing=true`
/// keeps records Bootsmith already has under a name the file uses, instead of refusing the import.
#[derive(Debug, Clone, Copy, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(default)]
pub struct ImportOptions {
    /// Only plan: what would be created, renamed, skipped or in conflict, and why.
    #[param(required = false)]
    pub dry_run: bool,
    /// Keep the existing records whose names the file uses and import the rest.
    #[param(required = false)]
    pub skip_existing: bool,
}

/// What kind of record a plan entry is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RecordKind {
    /// `kubam_ip`, `proxy` or `ucsm.org` (and what KUBAM v1 left behind).
    Setting,
    /// One of `public_keys`.
    SshKey,
    /// One entry of `iso_map`.
    IsoMap,
    /// One of `server_groups`.
    ServerGroup,
    /// One of `network_groups`.
    NetworkGroup,
    /// One of `aci`.
    Aci,
    /// One of `hosts`.
    Host,
}

/// What happens to a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Created (a setting: set) as it is in the file.
    Create,
    /// Created under `new_name`: Bootsmith cannot take its name as it is.
    Rename,
    /// Bootsmith has it already, the same.
    Unchanged,
    /// Not imported; `reason` says why.
    Skip,
    /// Bootsmith already has another record under this name (or another value of the setting);
    /// the import is refused unless `skip_existing` keeps the existing one.
    Conflict,
}

/// One record of kubam.yaml and what the import does with it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PlanItem {
    /// Kind of record.
    pub kind: RecordKind,
    /// Its name in kubam.yaml (settings: the Bootsmith setting and KUBAM's key).
    pub name: String,
    /// What happens to it.
    pub action: Action,
    /// The name it is stored under, when renamed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_name: Option<String>,
    /// Why it is skipped or in conflict.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// What the operator should know about it (password, selection, fields left out).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Its line in kubam.yaml.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
}

/// Plan entries by action.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct Summary {
    /// Created as they are.
    pub create: usize,
    /// Created under another name.
    pub rename: usize,
    /// Already there, the same.
    pub unchanged: usize,
    /// Not imported.
    pub skip: usize,
    /// Clashing with what Bootsmith has.
    pub conflict: usize,
}

/// A host whose KUBAM record named its own answer-file template.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CustomTemplate {
    /// The host.
    pub host: String,
    /// The template path KUBAM read on its server.
    pub template: String,
}

/// The plan of an import, or what it did.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ImportReport {
    /// Only planned.
    pub dry_run: bool,
    /// The records were written.
    pub written: bool,
    /// Entries by action.
    pub summary: Summary,
    /// Every record of the file in file order: settings, SSH keys, ISO map, server groups,
    /// network groups, ACI, hosts.
    pub records: Vec<PlanItem>,
    /// ISO files the map names that are not in svc (KUBAM's paths); copy them to svc and map them.
    pub missing_isos: Vec<String>,
    /// Hosts with a custom template of KUBAM's: Bootsmith renders `svc/<os>.tmpl` instead.
    pub custom_templates: Vec<CustomTemplate>,
}

/// Import `kubam.yaml` (see the module doc). Bad YAML, a shape KUBAM does not write, a key file
/// that is no key or does not decrypt the file's passwords: `400`, nothing written. Names
/// Bootsmith already uses: `409 kubam_conflicts` unless `skip_existing`.
pub async fn import(
    app: &App,
    input: KubamImportInput,
    opts: ImportOptions,
) -> Result<ImportReport> {
    let text = input.yaml.filter(|y| !y.trim().is_empty()).ok_or_else(|| {
        Error::invalid_field(
            ErrorCode::InvalidKubamImport,
            "Nothing to import",
            "yaml",
            "is required: the text of KUBAM's kubam.yaml",
        )
    })?;
    let file = file::parse(&text)?;
    let key = input
        .key
        .filter(|k| !k.expose().trim().is_empty())
        .map(|k| fernet::parse_key(&k))
        .transpose()?;
    let groups_pw = passwords(&file.server_groups, key.as_ref());
    let aci_pw = passwords(&file.aci, key.as_ref());
    wrong_key(&file, &groups_pw, &aci_pw)?;
    // Before the transaction: looking into ISO files is slow work that does not need the store.
    let isos = check_isos(app, &file).await;

    let mut tx = app.store().begin().await?;
    let mut run = Run {
        app,
        opts,
        items: Vec::new(),
        conflicts: Vec::new(),
        missing_isos: Vec::new(),
        custom_templates: Vec::new(),
    };
    run.settings(&mut tx, &file).await?;
    run.keys(&mut tx, &file).await?;
    run.iso_map(&mut tx, &file, isos).await?;
    let groups = run.server_groups(&mut tx, &file, groups_pw).await?;
    let networks = run.network_groups(&mut tx, &file).await?;
    run.aci(&mut tx, &file, aci_pw).await?;
    run.hosts(&mut tx, &file, &groups, &networks).await?;
    run.leftovers(&file);

    let mut summary = Summary::default();
    for item in &run.items {
        *match item.action {
            Action::Create => &mut summary.create,
            Action::Rename => &mut summary.rename,
            Action::Unchanged => &mut summary.unchanged,
            Action::Skip => &mut summary.skip,
            Action::Conflict => &mut summary.conflict,
        } += 1;
    }
    let written = if opts.dry_run {
        tx.rollback().await?;
        false
    } else if !run.conflicts.is_empty() {
        tx.rollback().await?;
        let names: Vec<String> = run
            .conflicts
            .iter()
            .map(|p| p.name.clone().unwrap_or_default())
            .collect();
        return Err(Error::Conflict {
            code: ErrorCode::KubamConflicts,
            message: format!(
                "Bootsmith already has {} of kubam.yaml's records ({}); nothing was imported. Import with skip_existing to keep the existing ones and add the rest, or rename or delete them first (a dry run lists every record)",
                names.len(),
                names.join(", ")
            ),
            details: run.conflicts,
        });
    } else {
        tx.commit().await?;
        true
    };
    tracing::info!(
        dry_run = opts.dry_run,
        written,
        created = summary.create + summary.rename,
        skipped = summary.skip,
        conflicts = summary.conflict,
        "KUBAM import"
    );
    Ok(ImportReport {
        dry_run: opts.dry_run,
        written,
        summary,
        records: run.items,
        missing_isos: run.missing_isos,
        custom_templates: run.custom_templates,
    })
}

/// A record's password as the import will store it.
enum Password {
    /// In clear: decrypted with the key file, or stored in clear by KUBAM's PUT.
    Clear(SecretString, &'static str),
    /// A token, and no key file to decrypt it.
    Missing,
    /// A token the key file does not decrypt.
    WrongKey,
    /// None in the file; the record's own check names it.
    Absent,
}

fn passwords(records: &[Record], key: Option<&fernet::KubamKey>) -> Vec<Password> {
    records
        .iter()
        .map(|r| match r.get("credentials.password") {
            None | Some("") => Password::Absent,
            Some(t) if fernet::is_token(t) => match key {
                None => Password::Missing,
                Some(k) => fernet::decrypt(k, t).map_or(Password::WrongKey, |p| {
                    Password::Clear(p, "password decrypted with the key file")
                }),
            },
            Some(clear) => Password::Clear(
                SecretString::new(clear),
                "password stored in clear by KUBAM (its PUT did not encrypt): taken as it is",
            ),
        })
        .collect()
}

/// A key file that does not open the file's tokens is the wrong one: refuse it naming them,
/// rather than import some groups and leave the others without a password.
fn wrong_key(file: &KubamFile, groups: &[Password], aci: &[Password]) -> Result<()> {
    let mut details = Vec::new();
    for (what, list, records) in [
        ("server_groups", groups, &file.server_groups),
        ("aci", aci, &file.aci),
    ] {
        for (i, (pw, rec)) in list.iter().zip(records).enumerate() {
            if matches!(pw, Password::WrongKey) {
                details.push(
                    Problem::field(
                        format!("{what}[{i}].credentials.password"),
                        format!("line {}: not decrypted by this key", rec.line),
                    )
                    .at(i, rec.get("name")),
                );
            }
        }
    }
    if details.is_empty() {
        return Ok(());
    }
    let names: Vec<String> = details
        .iter()
        .map(|p| format!("'{}'", p.name.as_deref().unwrap_or("(no name)")))
        .collect();
    Err(Error::Invalid {
        code: ErrorCode::KubamKeyMismatch,
        message: format!(
            "The key file does not decrypt the passwords of {}: give the .kubam file that was next to this kubam.yaml (KUBAM makes a new key when its file is lost, and then cannot read its own passwords either)",
            names.join(", ")
        ),
        details,
    })
}

/// An ISO mapping checked against svc and the catalog before the transaction.
enum IsoCheck {
    Ready(IsoMapEntry, Vec<String>),
    Skip(String),
    Missing(String, String),
}

async fn check_isos(app: &App, file: &KubamFile) -> Vec<IsoCheck> {
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

/// Where a group name of the file leads after its own import.
enum Ref {
    /// Stored under this name (the file's, or a new one).
    Stored(Name),
    /// Bootsmith has a record of this name already, which stays.
    Existing(Name),
    /// Not imported, for this reason.
    Skipped(String),
}

/// A group-like kind of record of the file (server group, network group, ACI instance): its
/// plan items, its table, its list in the file and how messages name one.
struct GroupKind {
    record: RecordKind,
    table: Named,
    list: &'static str,
    what: &'static str,
}

const SERVER_GROUP: GroupKind = GroupKind {
    record: RecordKind::ServerGroup,
    table: Named::ServerGroups,
    list: "server_groups",
    what: "a server group",
};

const NETWORK_GROUP: GroupKind = GroupKind {
    record: RecordKind::NetworkGroup,
    table: Named::NetworkGroups,
    list: "network_groups",
    what: "a network group",
};

const ACI_INSTANCE: GroupKind = GroupKind {
    record: RecordKind::Aci,
    table: Named::AciInstances,
    list: "aci",
    what: "an ACI instance",
};

/// How a group-like record of the file starts its import.
enum Claim {
    /// Its plan item and the name it is stored under.
    Free(PlanItem, Name),
    /// A stored record has this name; the plan has the clash already.
    Exists(Name),
    /// No usable name, or one the file used before; the plan has the skip already.
    Skipped,
}

/// The credentials of a record's `credentials.*` fields, with its password when it is in clear.
fn credentials(rec: &Record, pw: &Password) -> CredentialsInput {
    CredentialsInput {
        ip: rec.text("credentials.ip"),
        user: rec.text("credentials.user"),
        password: match pw {
            Password::Clear(p, _) => Some(p.clone()),
            _ => None,
        },
    }
}

/// A setting of the file, with the check of its `POST /api/v1/…` body.
struct Setting<'f> {
    value: Option<&'f file::Spanned<String>>,
    key: &'static str,
    label: &'static str,
    check: fn(String) -> Result<Option<String>>,
    note: &'static str,
}

/// One import in progress: the plan so far.
struct Run<'a> {
    app: &'a App,
    opts: ImportOptions,
    items: Vec<PlanItem>,
    conflicts: Vec<Problem>,
    missing_isos: Vec<String>,
    custom_templates: Vec<CustomTemplate>,
}

fn item(kind: RecordKind, name: impl Into<String>, line: usize) -> PlanItem {
    PlanItem {
        kind,
        name: name.into(),
        action: Action::Create,
        new_name: None,
        reason: None,
        notes: Vec::new(),
        line: Some(line),
    }
}

fn skip(mut it: PlanItem, reason: impl Into<String>) -> PlanItem {
    it.action = Action::Skip;
    it.reason = Some(reason.into());
    it
}

/// A name for a group, network or ACI instance: the file's when Bootsmith can take it, else
/// the same text made printable (spaces trimmed, `/` and control characters replaced, cut to
/// 64 characters); `Err` with the reason when nothing usable is left.
fn take_name(raw: &str) -> Result<(Name, bool), String> {
    if let Ok(n) = Name::parse(raw) {
        return Ok((n, false));
    }
    let fixed: String = raw
        .trim()
        .chars()
        .map(|c| if c == '/' || c.is_control() { '-' } else { c })
        .take(64)
        .collect();
    Name::parse(fixed.trim_end()).map(|n| (n, true))
}

impl Run<'_> {
    fn push(&mut self, it: PlanItem) {
        self.items.push(it);
    }

    /// A record clashing with a stored one: a conflict, or with `skip_existing` a skip.
    fn clash(&mut self, mut it: PlanItem, path: String, what: String) {
        if self.opts.skip_existing {
            it.action = Action::Skip;
            it.reason = Some(format!("{what}; the existing one is kept (skip_existing)"));
        } else {
            it.action = Action::Conflict;
            it.reason = Some(what.clone());
            self.conflicts.push(Problem {
                name: Some(it.name.clone()),
                ..Problem::field(path, what)
            });
        }
        self.push(it);
    }

    async fn settings(&mut self, conn: &mut Conn, file: &KubamFile) -> Result<()> {
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

    async fn keys(&mut self, conn: &mut Conn, file: &KubamFile) -> Result<()> {
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

    async fn iso_map(
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

    /// A group-like record's name: taken as it is or renamed, unless the file used it for an
    /// earlier record of the kind (`Err` with the reason).
    fn name_of(
        rec: &Record,
        seen: &mut HashMap<String, usize>,
        it: &mut PlanItem,
    ) -> Result<Name, String> {
        let raw = rec.get("name").ok_or("has no name")?;
        let (name, renamed) = take_name(raw)?;
        if let Some(first) = seen.get(name.as_str()) {
            return Err(format!(
                "the name '{name}' is used by the record on line {first} already"
            ));
        }
        seen.insert(name.as_str().to_owned(), rec.line);
        if renamed {
            it.action = Action::Rename;
            it.new_name = Some(name.to_string());
            it.notes.push(format!(
                "renamed: Bootsmith's names are 1 to 64 printable characters without '/' or surrounding spaces; records of the file that name '{raw}' follow"
            ));
        }
        Ok(name)
    }

    /// A record's KUBAM id when it is a free UUID (KUBAM's clients update records by id).
    async fn keep_id(
        conn: &mut Conn,
        table: Named,
        rec: &Record,
        used: &mut HashSet<Uuid>,
    ) -> Result<Uuid> {
        if let Some(id) = rec.get("id").and_then(|i| Uuid::parse_str(i).ok()) {
            let taken = table.id_exists(&mut *conn, &id.to_string()).await?;
            if !taken && used.insert(id) {
                return Ok(id);
            }
        }
        let id = Uuid::new_v4();
        used.insert(id);
        Ok(id)
    }

    async fn exists(conn: &mut Conn, table: Named, name: &Name) -> Result<bool> {
        Ok(table.name_exists(&mut *conn, name.as_str()).await?)
    }

    /// The start every group-like record shares: its plan item and name, unless the name is
    /// unusable or taken (then the plan has its skip or clash).
    async fn claim(
        &mut self,
        conn: &mut Conn,
        kind: &GroupKind,
        i: usize,
        rec: &Record,
        seen: &mut HashMap<String, usize>,
    ) -> Result<Claim> {
        let raw = rec.get("name").unwrap_or("(no name)");
        let mut it = item(kind.record, raw, rec.line);
        let name = match Self::name_of(rec, seen, &mut it) {
            Ok(n) => n,
            Err(why) => {
                self.push(skip(it, why));
                return Ok(Claim::Skipped);
            }
        };
        if Self::exists(conn, kind.table, &name).await? {
            self.clash(
                it,
                format!("{}[{i}].name", kind.list),
                format!("{} named '{name}' exists already", kind.what),
            );
            return Ok(Claim::Exists(name));
        }
        Ok(Claim::Free(it, name))
    }

    /// The password to store for a record, noting on its item where it came from; `missing` is
    /// the note for one KUBAM encrypted with no key file given.
    fn store_password(&self, pw: &Password, it: &mut PlanItem, missing: &str) -> String {
        match pw {
            Password::Clear(p, note) => {
                it.notes.push((*note).to_owned());
                self.app.cipher().encrypt(p)
            }
            _ => {
                it.notes.push(missing.to_owned());
                NO_PASSWORD.to_owned()
            }
        }
    }

    async fn server_groups(
        &mut self,
        conn: &mut Conn,
        file: &KubamFile,
        passwords: Vec<Password>,
    ) -> Result<HashMap<String, Ref>> {
        let mut refs = HashMap::new();
        let mut seen = HashMap::new();
        let mut ids = HashSet::new();
        for (i, (rec, pw)) in file.server_groups.iter().zip(passwords).enumerate() {
            let raw = rec.get("name").unwrap_or("(no name)").to_owned();
            let (mut it, name) = match self.claim(conn, &SERVER_GROUP, i, rec, &mut seen).await? {
                Claim::Free(it, name) => (it, name),
                Claim::Exists(name) => {
                    refs.entry(raw).or_insert(Ref::Existing(name));
                    continue;
                }
                Claim::Skipped => continue,
            };
            let pool = rec.pool.as_ref().map(|p| SelectorInput {
                blades: Some(p.value.blades.clone()),
                rack_servers: Some(p.value.racks.clone()),
            });
            let input = ServerGroupInput {
                id: None,
                uid: None,
                name: Some(name.to_string()),
                kind: rec.text("type"),
                credentials: Some(credentials(rec, &pw)),
                server_pool: pool,
                vlan: rec.text("vlan"),
                insecure: None,
                fingerprint: None,
                check_login: Some(false),
                description: rec.text("description"),
                org: rec.text("org"),
                bmcs: None,
            };
            let checked = match server_groups::check(&input, !matches!(pw, Password::Missing)) {
                Ok(c) => c,
                Err(e) => {
                    refs.entry(raw).or_insert(Ref::Skipped(format!(
                        "server group '{name}' was not imported"
                    )));
                    self.push(skip(it, e.to_string()));
                    continue;
                }
            };
            let stored_password = self.store_password(&pw, &mut it, "password encrypted by KUBAM and no key file given: stored without one; enter it before using the group (until then it answers 422 password_missing)");
            if let Some(pool) = &rec.pool {
                it.notes.extend(pool.value.notes.iter().cloned());
                let list = |ids: &[String]| {
                    if ids.is_empty() {
                        "none".to_owned()
                    } else {
                        ids.join(", ")
                    }
                };
                it.notes.push(format!(
                    "selected servers: blades {}; rack servers {}",
                    list(&pool.value.blades),
                    list(&pool.value.racks)
                ));
            }
            if !rec.get("credentials.ip").unwrap_or("").contains("://") {
                it.notes.push("its certificate is checked on first use, which KUBAM did not do: a self-signed one is refused with its fingerprint to pin".to_owned());
            }
            it.notes.extend(rec.ignored.iter().cloned());
            let id = Self::keep_id(conn, Named::ServerGroups, rec, &mut ids).await?;
            server_groups::insert(conn, id, &checked, &stored_password).await?;
            refs.entry(raw).or_insert(Ref::Stored(name));
            self.push(it);
        }
        Ok(refs)
    }

    async fn network_groups(
        &mut self,
        conn: &mut Conn,
        file: &KubamFile,
    ) -> Result<HashMap<String, Ref>> {
        let mut refs = HashMap::new();
        let mut seen = HashMap::new();
        let mut ids = HashSet::new();
        for (i, rec) in file.network_groups.iter().enumerate() {
            let raw = rec.get("name").unwrap_or("(no name)").to_owned();
            let (mut it, name) = match self.claim(conn, &NETWORK_GROUP, i, rec, &mut seen).await? {
                Claim::Free(it, name) => (it, name),
                Claim::Exists(name) => {
                    refs.entry(raw).or_insert(Ref::Existing(name));
                    continue;
                }
                Claim::Skipped => continue,
            };
            let input = NetworkInput {
                id: None,
                name: Some(name.to_string()),
                netmask: rec.text("netmask"),
                gateway: rec.text("gateway"),
                nameserver: rec.text("nameserver"),
                ntpserver: rec.text("ntpserver"),
                proxy: rec.text("proxy"),
                vlan: rec.text("vlan"),
                subnet: None,
            };
            let id = Self::keep_id(conn, Named::NetworkGroups, rec, &mut ids).await?;
            match networks::check(&input, id) {
                Ok(net) => {
                    networks::insert(conn, &net).await?;
                    it.notes.extend(rec.ignored.iter().cloned());
                    refs.entry(raw).or_insert(Ref::Stored(name));
                    self.push(it);
                }
                Err(e) => {
                    refs.entry(raw).or_insert(Ref::Skipped(format!(
                        "network group '{name}' was not imported"
                    )));
                    self.push(skip(it, e.to_string()));
                }
            }
        }
        Ok(refs)
    }

    async fn aci(
        &mut self,
        conn: &mut Conn,
        file: &KubamFile,
        passwords: Vec<Password>,
    ) -> Result<()> {
        let mut seen = HashMap::new();
        let mut ids = HashSet::new();
        for (i, (rec, pw)) in file.aci.iter().zip(passwords).enumerate() {
            let Claim::Free(mut it, name) =
                self.claim(conn, &ACI_INSTANCE, i, rec, &mut seen).await?
            else {
                continue;
            };
            let input = AciInput {
                id: None,
                name: Some(name.to_string()),
                credentials: Some(credentials(rec, &pw)),
                tenant_name: rec.text("tenant_name"),
                vrf_name: rec.text("vrf_name"),
                bridge_domain: rec.text("bridge_domain"),
            };
            let checked = match aci::check(&input, !matches!(pw, Password::Missing)) {
                Ok(c) => c,
                Err(e) => {
                    self.push(skip(it, e.to_string()));
                    continue;
                }
            };
            let stored_password = self.store_password(&pw, &mut it, "password encrypted by KUBAM and no key file given: stored without one; enter it when editing the instance");
            it.notes.extend(rec.ignored.iter().cloned());
            let id = Self::keep_id(conn, Named::AciInstances, rec, &mut ids).await?;
            aci::insert(conn, id, &checked, &stored_password).await?;
            self.push(it);
        }
        Ok(())
    }

    /// Resolve a host's group reference: the group the file's record became, a stored group of
    /// that name, or the reason there is none.
    async fn follow(
        conn: &mut Conn,
        refs: &HashMap<String, Ref>,
        table: Named,
        what: &str,
        raw: &str,
        notes: &mut Vec<String>,
    ) -> Result<Result<String, String>> {
        match refs.get(raw) {
            Some(Ref::Stored(name)) => {
                if name.as_str() != raw {
                    notes.push(format!("{what} '{raw}' is stored as '{name}'"));
                }
                Ok(Ok(name.to_string()))
            }
            Some(Ref::Existing(name)) => {
                notes.push(format!(
                    "joins the existing {what} '{name}' (the file's is not imported)"
                ));
                Ok(Ok(name.to_string()))
            }
            Some(Ref::Skipped(why)) => {
                Ok(Err(format!("its {what} '{raw}' is in the file but {why}")))
            }
            None => {
                let found = match Name::parse(raw) {
                    Ok(n) => Self::exists(conn, table, &n).await?,
                    Err(_) => false,
                };
                if found {
                    notes.push(format!("joins the existing {what} '{raw}'"));
                    Ok(Ok(raw.to_owned()))
                } else {
                    Ok(Err(format!(
                        "there is no {what} named '{raw}', in the file or in Bootsmith"
                    )))
                }
            }
        }
    }

    async fn hosts(
        &mut self,
        conn: &mut Conn,
        file: &KubamFile,
        groups: &HashMap<String, Ref>,
        networks: &HashMap<String, Ref>,
    ) -> Result<()> {
        if file.hosts.is_empty() {
            return Ok(());
        }
        let stored = hosts::list_in(conn).await?;
        let mut rules = HostRules::load(self.app, conn).await?;
        for h in &stored {
            rules.register(&format!("host {}", h.name), &HostInput::from(h), Some(h));
        }
        let mut added: Vec<Host> = Vec::new();
        for (i, rec) in file.hosts.iter().enumerate() {
            let raw = rec.get("name").unwrap_or("(no name)").to_owned();
            let mut it = item(RecordKind::Host, raw.clone(), rec.line);
            if let Some(t) = rec.get("template") {
                self.custom_templates.push(CustomTemplate {
                    host: raw.clone(),
                    template: t.to_owned(),
                });
                it.notes.push(format!(
                    "KUBAM's custom template {t} is not used: Bootsmith renders svc/<os>.tmpl for every host of the OS (copy it there if it should apply)"
                ));
            }
            if let Some(existing) = stored
                .iter()
                .find(|h| h.name.as_str().eq_ignore_ascii_case(&raw))
            {
                self.clash(
                    it,
                    format!("hosts[{i}].name"),
                    format!("a host named '{}' exists already", existing.name),
                );
                continue;
            }
            let mut input = HostInput {
                name: rec.text("name"),
                ip: rec.text("ip"),
                os: rec.text("os"),
                role: rec.text("role"),
                network_group: None,
                server_group: None,
                service_profile_template: rec.text("service_profile_template"),
                server: rec.text("server"),
            };
            let mut missing = Vec::new();
            for (raw, refs, table, what, slot) in [
                (
                    rec.get("network_group"),
                    networks,
                    Named::NetworkGroups,
                    "network group",
                    &mut input.network_group,
                ),
                (
                    rec.get("server_group"),
                    groups,
                    Named::ServerGroups,
                    "server group",
                    &mut input.server_group,
                ),
            ] {
                let Some(raw) = raw else { continue };
                match Self::follow(conn, refs, table, what, raw, &mut it.notes).await? {
                    Ok(name) => *slot = Some(name),
                    Err(why) => missing.push(why),
                }
            }
            if !missing.is_empty() {
                self.push(skip(it, missing.join("; ")));
                continue;
            }
            let (host, problems) = rules.check(&input);
            if !problems.is_empty() {
                let mut why: Vec<String> = problems.iter().map(ToString::to_string).collect();
                if problems
                    .iter()
                    .any(|p| p.field == "name" && p.message.contains("not a valid host name"))
                {
                    why.push("the import never renames a host".to_owned());
                }
                self.push(skip(it, why.join("; ")));
                continue;
            }
            let host = host.expect("no problems means the row parsed");
            if let Some(why) = rules.off_subnet(&host) {
                self.push(skip(it, why));
                continue;
            }
            if let Some(why) = rules.os_clash(&host) {
                self.push(skip(it, why));
                continue;
            }
            rules.register(&format!("host {}", host.name), &input, Some(&host));
            it.notes.extend(rec.ignored.iter().cloned());
            added.push(host);
            self.push(it);
        }
        if added.is_empty() {
            return Ok(());
        }
        // The list as it will be must pass the very check of POST /api/v2/hosts.
        let all: Vec<HostInput> = stored.iter().chain(&added).map(HostInput::from).collect();
        hosts::check_list(self.app, conn, &all).await?;
        hosts::append(conn, &added).await
    }

    fn leftovers(&mut self, file: &KubamFile) {
        for l in &file.leftovers {
            let it = item(RecordKind::Setting, l.value.clone(), l.line);
            self.push(skip(
                it,
                format!("{} is what KUBAM v1 kept; KUBAM v2 never read it (a v1 UCS domain still in use: add it as a server group)", l.value),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_bootsmith_cannot_take_are_made_printable() {
        assert_eq!(
            take_name("Lab Pod 1").unwrap(),
            (Name::parse("Lab Pod 1").unwrap(), false)
        );
        assert_eq!(take_name(" pod/1 ").unwrap().0.as_str(), "pod-1");
        assert_eq!(
            take_name(&"x".repeat(70)).unwrap().0.as_str(),
            "x".repeat(64)
        );
        assert!(take_name("   ").is_err());
    }
}
