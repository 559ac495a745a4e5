//! `bootsmith import-kubam`: reads the files and prints the plan; the import is the core's.

use std::path::Path;

use bootsmith_core::kubam::{self, Action, ImportOptions, ImportReport, KubamImportInput};
use bootsmith_core::secrets::SecretString;

use crate::cli::ImportKubam;

/// Import (or with `--dry-run` plan) the file into the data dir `bootsmith serve` uses.
pub async fn run(config: bootsmith_core::Config, args: ImportKubam) -> anyhow::Result<()> {
    let yaml = read(&args.file, "kubam.yaml")?;
    let key = match &args.key {
        Some(path) => Some(SecretString::new(read(path, "the key file")?)),
        None => {
            let beside = args.file.with_file_name(".kubam");
            if beside.is_file() {
                eprintln!(
                    "note: {} is KUBAM's key file; pass --key {0} to import the passwords it decrypts",
                    beside.display()
                );
            }
            None
        }
    };
    let app = bootsmith_core::startup::open(config).await?;
    let opts = ImportOptions {
        dry_run: args.dry_run,
        skip_existing: args.skip_existing,
    };
    let outcome = kubam::import(
        &app,
        KubamImportInput {
            yaml: Some(yaml),
            key,
        },
        opts,
    )
    .await;
    app.close().await;
    let report = outcome.map_err(|e| {
        let details: Vec<String> = e.details().iter().map(|p| format!("\n  {p}")).collect();
        anyhow::anyhow!("{e}{}", details.concat())
    })?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", text(&report));
    }
    Ok(())
}

fn read(path: &Path, what: &str) -> anyhow::Result<String> {
    std::fs::read_to_string(path)
        .map_err(|e| anyhow::anyhow!("cannot read {what} {}: {e}", path.display()))
}

/// The plan for a terminal: one line per record, its reason and notes below it.
fn text(r: &ImportReport) -> String {
    let mut out = String::new();
    out.push_str(if r.dry_run {
        "Plan (dry run: nothing was written)\n"
    } else {
        "Imported from KUBAM\n"
    });
    for item in &r.records {
        let action = match item.action {
            Action::Create => "create",
            Action::Rename => "rename",
            Action::Unchanged => "unchanged",
            Action::Skip => "skip",
            Action::Conflict => "CONFLICT",
        };
        let kind = serde_json::to_value(item.kind)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        let renamed = item
            .new_name
            .as_ref()
            .map(|n| format!(" -> {n}"))
            .unwrap_or_default();
        let line = item
            .line
            .map(|l| format!("  (line {l})"))
            .unwrap_or_default();
        out.push_str(&format!(
            "  {action:<9} {kind:<13} {}{renamed}{line}\n",
            item.name
        ));
        if let Some(why) = &item.reason {
            out.push_str(&format!("              because {why}\n"));
        }
        for note in &item.notes {
            out.push_str(&format!("              {note}\n"));
        }
    }
    let s = &r.summary;
    out.push_str(&format!(
        "{} created, {} renamed, {} unchanged, {} skipped, {} in conflict\n",
        s.create, s.rename, s.unchanged, s.skip, s.conflict
    ));
    if !r.missing_isos.is_empty() {
        out.push_str("ISO files not in svc (copy them there, then map them):\n");
        for f in &r.missing_isos {
            out.push_str(&format!("  {f}\n"));
        }
    }
    if !r.custom_templates.is_empty() {
        out.push_str(
            "Custom templates of KUBAM's hosts (Bootsmith renders svc/<os>.tmpl instead):\n",
        );
        for t in &r.custom_templates {
            out.push_str(&format!("  {}: {}\n", t.host, t.template));
        }
    }
    if r.dry_run && s.conflict > 0 {
        out.push_str("The import would be refused for the conflicts: add --skip-existing to keep the existing records and import the rest.\n");
    }
    out
}
