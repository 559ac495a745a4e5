fn main() {
    #[cfg(feature = "gui")]
    {
        println!("cargo:rerun-if-changed=src-tauri/capabilities");
        println!("cargo:rerun-if-changed=tauri.conf.json");
        tauri_build::try_build(
            tauri_build::Attributes::new()
                .capabilities_path_pattern("./src-tauri/capabilities/**/*"),
        )
        .expect("failed to run tauri-build");
    }
}
