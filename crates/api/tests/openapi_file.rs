//! The web interface generates its TypeScript types from a checked-in copy of the OpenAPI
//! document (`ui/src/lib/openapi.json`, then `ui/src/lib/api-schema.ts`). This test fails when
//! that copy is not the document the code builds; `BOOTSMITH_BLESS=1` rewrites it instead.
//! `npm run gen:api` in `ui/` does that and regenerates the types.

use std::path::PathBuf;

const FILE: &str = "ui/src/lib/openapi.json";
const REGENERATE: &str = "cd ui && npm run gen:api";

#[test]
fn the_ui_copy_of_the_openapi_document_is_current() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(FILE);
    let built = serde_json::to_string_pretty(&bootsmith_api::openapi()).unwrap() + "\n";
    if std::env::var_os("BOOTSMITH_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, &built).unwrap();
        return;
    }
    let stored = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        stored == built,
        "{FILE} is not the OpenAPI document the code builds; regenerate it and the UI types with `{REGENERATE}`"
    );
}
