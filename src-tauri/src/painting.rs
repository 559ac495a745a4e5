//! How the window's web process paints: into shared memory when the machine has no GPU.
//!
//! WebKitGTK's default DMA-BUF renderer hands the page to the window in GPU buffers. Without a
//! GPU (no `/dev/dri/renderD*`: a VM, a remote desktop, Xvfb) Mesa draws those buffers in
//! software, in the web process's own memory, and keeps much of what it drew: measured with
//! `scripts/bench-footprint.sh` here, the web process held 430–445 MiB RSS fresh and 550–575 MiB
//! after a day's walk of the screens (peaking at 620–820), where painting into shared memory
//! held 280 MiB fresh and 250–340 MiB after, and showed the first screen 0.4–0.9 s sooner. With a GPU the buffers live in
//! video memory and the default stays. An operator's own `WEBKIT_DISABLE_DMABUF_RENDERER`
//! (`0` keeps the DMA-BUF renderer) always wins.

use std::ffi::OsStr;
use std::path::Path;

/// WebKitGTK's switch for its DMA-BUF renderer: any value but `0` turns it off.
pub const DMABUF_OFF: &str = "WEBKIT_DISABLE_DMABUF_RENDERER";

/// The value to give [`DMABUF_OFF`] before WebKit starts, if any: `1` when the operator set
/// nothing and there is no GPU to render on.
pub fn dmabuf_off(set: Option<&OsStr>, gpu: bool) -> Option<&'static str> {
    (set.is_none() && !gpu).then_some("1")
}

/// Whether `dri` (normally `/dev/dri`) holds a GPU render node.
pub fn has_gpu(dri: &Path) -> bool {
    std::fs::read_dir(dri).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| e.file_name().to_string_lossy().starts_with("renderD"))
    })
}

/// Choose before WebKit starts (its processes inherit the environment); what was chosen, for
/// the log. Call while the process has one thread: it sets an environment variable.
pub fn choose() -> Option<&'static str> {
    let value = dmabuf_off(
        std::env::var_os(DMABUF_OFF).as_deref(),
        has_gpu(Path::new("/dev/dri")),
    )?;
    std::env::set_var(DMABUF_OFF, value);
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_gpu_the_web_process_paints_into_shared_memory() {
        assert_eq!(dmabuf_off(None, false), Some("1"));
    }

    #[test]
    fn with_a_gpu_or_the_operators_own_choice_nothing_is_set() {
        assert_eq!(dmabuf_off(None, true), None);
        assert_eq!(dmabuf_off(Some(OsStr::new("0")), false), None);
        assert_eq!(dmabuf_off(Some(OsStr::new("1")), true), None);
    }

    #[test]
    fn a_render_node_is_a_gpu_a_card_alone_is_not() {
        let dir = tempfile::tempdir().unwrap();
        assert!(!has_gpu(&dir.path().join("missing")));
        std::fs::write(dir.path().join("card0"), b"").unwrap();
        assert!(!has_gpu(dir.path()));
        std::fs::write(dir.path().join("renderD128"), b"").unwrap();
        assert!(has_gpu(dir.path()));
    }
}
