//! The web interface's built files (`ui/dist`), compiled in by `build.rs`, for the REST
//! listener's `/ui/`. The window loads the same files through Tauri.

include!(concat!(env!("OUT_DIR"), "/ui_assets.rs"));

/// The file at `path` below `ui/dist`.
pub fn get(path: &str) -> Option<&'static [u8]> {
    UI_ASSETS
        .iter()
        .find(|(p, _)| *p == path)
        .map(|(_, bytes)| *bytes)
}
