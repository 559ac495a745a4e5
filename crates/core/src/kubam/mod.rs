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
mod group_records;
mod host_records;
mod passwords;
mod setting_records;

use std::fmt;

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::app::App;
use crate::error::{Error, ErrorCode, Problem, Result};
use crate::secrets::SecretString;
use file::KubamFile;
use passwords::{passwords, wrong_key};
use setting_records::check_isos;

/// Body of `POST /api/v2/import/kubam`.
#[derive(Deserialize, ToSchema)]
pub struct KubamImportInput {
    /// The text of KUBAM's `kubam.yaml`.
    #[schema(schema_with = bootsmith_model::schema::file_text, required = true)]
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
