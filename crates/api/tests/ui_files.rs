//! The web interface reads two files the code makes, checked in under `ui/src/lib`: the OpenAPI
//! document (`openapi.json`, from which `api-schema.ts` is generated) and the manifest of the
//! table of actions (`actions.json`, from which `api.ts` reaches every command over REST in a
//! browser). These tests fail when a copy is not what the code builds; `BOOTSMITH_BLESS=1`
//! rewrites it instead. `npm run gen:api` in `ui/` does that and regenerates the types.

use std::path::PathBuf;

const REGENERATE: &str = "cd ui && npm run gen:api";

/// Hold `ui/src/lib/<file>` to `built`, or write it with `BOOTSMITH_BLESS=1`.
fn current(file: &str, built: &impl serde::Serialize) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../ui/src/lib")
        .join(file);
    let built = serde_json::to_string_pretty(built).unwrap() + "\n";
    if std::env::var_os("BOOTSMITH_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, &built).unwrap();
        return;
    }
    let stored = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        stored == built,
        "ui/src/lib/{file} is not what the code builds; regenerate it and the UI types with `{REGENERATE}`"
    );
}

#[test]
fn the_ui_copy_of_the_openapi_document_is_current() {
    current("openapi.json", &bootsmith_api::openapi());
}

#[test]
fn the_ui_copy_of_the_actions_manifest_is_current() {
    current("actions.json", &bootsmith_api::actions::manifest());
}
