//! `bootsmith import-kubam` as an operator runs it, on the data dir `bootsmith serve` uses.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use bootsmith_core::records::server_groups;
use common::*;

fn fixture(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("crates/api/tests/fixtures/kubam")
        .join(path)
}

fn import(dir: &Path, args: &[&str]) -> (Output, String, String) {
    let out = command(dir)
        .arg("import-kubam")
        .args(args)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout.clone()).unwrap();
    let stderr = String::from_utf8(out.stderr.clone()).unwrap();
    (out, stdout, stderr)
}

/// The stored server groups' names and clear passwords, read by opening the data dir.
async fn stored_groups(dir: &Path) -> Vec<(String, String)> {
    let app = bootsmith_core::testing::open(dir).await;
    let mut out = Vec::new();
    for g in server_groups::list(&app).await.unwrap() {
        let pw = server_groups::password(&app, &g).unwrap();
        out.push((g.name.to_string(), pw.expose().to_owned()));
    }
    app.close().await;
    out
}

#[tokio::test]
async fn import_kubam_plans_imports_and_refuses_what_bootsmith_has_already() {
    let dir = tempfile::tempdir().unwrap();
    let yaml = fixture("full/kubam.yaml");
    let key = fixture("full/.kubam");
    let (yaml, key) = (yaml.to_str().unwrap(), key.to_str().unwrap());

    let (out, stdout, stderr) = import(dir.path(), &[yaml, "--key", key, "--dry-run"]);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stdout.starts_with("Plan (dry run: nothing was written)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("rename    server_group  Lab Pod/2 -> Lab Pod-2  (line 88)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("skip      host          node_05"),
        "{stdout}"
    );
    assert!(stdout.contains("15 created, 1 renamed, 0 unchanged, 3 skipped, 0 in conflict"));
    assert!(
        stored_groups(dir.path()).await.is_empty(),
        "a dry run writes nothing"
    );

    let (out, stdout, stderr) = import(dir.path(), &[yaml, "--key", key]);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.starts_with("Imported from KUBAM"), "{stdout}");
    let mut groups = stored_groups(dir.path()).await;
    groups.sort();
    assert_eq!(
        groups,
        [
            ("Lab Pod-2".to_owned(), "C1sco12345".to_owned()),
            ("central".into(), "central-Secret-7".into()),
            ("imc01".into(), "imc-Secret-9".into()),
            ("pod1".into(), "password".into()),
        ]
    );

    // Again: every name is taken now, so the import is refused and lists them.
    let (out, _, stderr) = import(dir.path(), &[yaml, "--key", key]);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("nothing was imported"), "{stderr}");
    assert!(stderr.contains("server_groups[0].name"), "{stderr}");
    // Keeping them imports nothing new: the JSON plan says so.
    let (out, stdout, stderr) = import(
        dir.path(),
        &[yaml, "--key", key, "--skip-existing", "--json"],
    );
    assert!(out.status.success(), "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["written"], true);
    assert_eq!(report["summary"]["create"], 0, "{report:#}");
    assert_eq!(report["summary"]["conflict"], 0, "{report:#}");

    // No password and no key on the terminal or in the log.
    let log = std::fs::read_to_string(dir.path().join("data/bootsmith.log")).unwrap();
    let key_text = std::fs::read_to_string(key).unwrap();
    for secret in [
        "C1sco12345",
        "imc-Secret-9",
        "central-Secret-7",
        "aci-Secret-3",
        key_text.trim(),
    ] {
        assert!(!log.contains(secret), "{secret} in the log");
        assert!(
            !stdout.contains(secret) && !stderr.contains(secret),
            "{secret} printed"
        );
    }
}

#[test]
fn a_wrong_key_a_bad_file_and_no_key_say_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let yaml = fixture("full/kubam.yaml");
    let yaml = yaml.to_str().unwrap();

    let wrong = fixture("full/wrong.kubam");
    let (out, _, stderr) = import(dir.path(), &[yaml, "--key", wrong.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.contains("does not decrypt the passwords of 'pod1', 'Lab Pod/2'"),
        "{stderr}"
    );

    let bad = fixture("bad/kubam.yaml");
    let (out, _, stderr) = import(dir.path(), &[bad.to_str().unwrap(), "--dry-run"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.contains("kubam.yaml is not valid YAML: line 5"),
        "{stderr}"
    );

    let (out, _, stderr) = import(dir.path(), &["/nonexistent/kubam.yaml"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.contains("cannot read kubam.yaml /nonexistent/kubam.yaml"),
        "{stderr}"
    );

    // Without --key: the key beside the file is pointed out, and the groups wait for passwords.
    let (out, stdout, stderr) = import(dir.path(), &[yaml, "--dry-run"]);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("is KUBAM's key file; pass --key"),
        "{stderr}"
    );
    assert!(stdout.contains("no key file given"), "{stdout}");
}
