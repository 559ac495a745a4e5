fn main() {
    build_id();
    #[cfg(feature = "gui")]
    {
        ui::build();
        println!("cargo:rerun-if-changed=src-tauri/capabilities");
        println!("cargo:rerun-if-changed=tauri.conf.json");
        tauri_build::try_build(
            tauri_build::Attributes::new()
                .capabilities_path_pattern("./src-tauri/capabilities/**/*"),
        )
        .expect("failed to run tauri-build");
    }
}

/// `BOOTSMITH_BUILD`: the commit this is built from and its date ("1a2b3c4 2026-11-26"), which
/// `bootsmith --version`, `GET /` and the window's About show beside the version. The commit's
/// date, not the build's, so that building the same commit twice gives the same program. Set
/// `BOOTSMITH_BUILD` to name a build made outside git (a source tarball); without either it is
/// "unknown".
fn build_id() {
    use std::process::Command;
    println!("cargo:rerun-if-env-changed=BOOTSMITH_BUILD");
    let git = |args: &[&str]| -> Option<String> {
        let out = Command::new("git").args(args).output().ok()?;
        let text = String::from_utf8(out.stdout).ok()?;
        (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_owned())
    };
    // Only this project's own repository: a source tarball unpacked inside another one is not it.
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it");
    let ours = git(&["rev-parse", "--show-toplevel"]).is_some_and(|top| {
        std::fs::canonicalize(top).ok() == std::fs::canonicalize(&manifest).ok()
    });
    let id = std::env::var("BOOTSMITH_BUILD")
        .ok()
        .filter(|b| !b.trim().is_empty())
        .or_else(|| {
            ours.then(|| git(&["log", "-1", "--format=%h %cs"]))
                .flatten()
        })
        .unwrap_or_else(|| "unknown".to_owned());
    println!("cargo:rustc-env=BOOTSMITH_BUILD={id}");
    // Built again when HEAD moves: HEAD itself (a checkout) and the branch it names (a commit).
    // Only files that exist, since cargo reruns every time for a missing one.
    if !ours {
        return;
    }
    let mut watch = vec!["HEAD".to_owned()];
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watch.push(branch);
        watch.push("packed-refs".to_owned());
    }
    for name in watch {
        if let Some(path) = git(&["rev-parse", "--path-format=absolute", "--git-path", &name]) {
            if std::path::Path::new(&path).exists() {
                println!("cargo:rerun-if-changed={path}");
            }
        }
    }
}

/// The web interface in `ui/` (Svelte, Vite) is built into `ui/dist`, which the window embeds,
/// so that a plain `cargo build` of a fresh clone makes a working app.
#[cfg(feature = "gui")]
mod ui {
    use std::path::{Path, PathBuf};
    use std::process::Command;
    use std::time::SystemTime;

    const SOURCES: &[&str] = &[
        "src",
        "index.html",
        "package.json",
        "package-lock.json",
        "vite.config.ts",
        "svelte.config.js",
        "tsconfig.json",
    ];

    pub fn build() {
        let ui =
            PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it")).join("ui");
        for s in SOURCES {
            println!("cargo:rerun-if-changed=ui/{s}");
        }
        // Only when a source is newer than the build: rewriting dist on every run would make
        // cargo see a change and run this script again each time.
        let built = modified(&ui.join("dist/index.html"));
        let newest = SOURCES.iter().filter_map(|s| newest(&ui.join(s))).max();
        if built.is_none() || newest > built {
            if !ui.join("node_modules").is_dir() {
                npm(&ui, &["ci", "--no-audit", "--no-fund"]);
            }
            if let Err(failed) = try_npm(&ui, &["run", "build"]) {
                // Vite may have written its output before failing: without this, the next
                // build would take that output for an up-to-date one and embed it.
                let _ = std::fs::remove_file(ui.join("dist/index.html"));
                panic!("{failed}");
            }
        }
        embed(&ui.join("dist"));
    }

    /// `$OUT_DIR/ui_assets.rs`: every file of the build, for the REST listener's `/ui/`.
    fn embed(dist: &Path) {
        let mut files = Vec::new();
        collect(dist, dist, &mut files);
        files.sort();
        let mut code = String::from("/// The web interface's files by path under `ui/dist`.\npub static UI_ASSETS: &[(&str, &[u8])] = &[\n");
        for (rel, abs) in files {
            code.push_str(&format!("    ({rel:?}, include_bytes!({abs:?})),\n"));
        }
        code.push_str("];\n");
        let out =
            PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("ui_assets.rs");
        std::fs::write(out, code).expect("OUT_DIR is writable");
    }

    fn collect(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir)
            .expect("ui/dist exists after the build")
            .flatten()
        {
            let path = entry.path();
            if path.is_dir() {
                collect(root, &path, out);
            } else if let Ok(rel) = path.strip_prefix(root) {
                let rel = rel.to_string_lossy().replace('\\', "/");
                out.push((rel, path.to_string_lossy().into_owned()));
            }
        }
    }

    fn npm(dir: &Path, args: &[&str]) {
        if let Err(failed) = try_npm(dir, args) {
            panic!("{failed}");
        }
    }

    /// Run npm in `dir`; what failed, in words.
    fn try_npm(dir: &Path, args: &[&str]) -> Result<(), String> {
        let status = Command::new("npm")
            .args(args)
            .current_dir(dir)
            .status()
            .unwrap_or_else(|e| {
                panic!("building the web interface needs Node.js 20.19+ with npm on PATH ({e}); scripts/setup.sh says how")
            });
        if status.success() {
            Ok(())
        } else {
            Err(format!("`npm {}` in ui/ failed ({status})", args.join(" ")))
        }
    }

    fn modified(p: &Path) -> Option<SystemTime> {
        p.metadata().and_then(|m| m.modified()).ok()
    }

    /// The newest modification time of a file, or of any file under a directory.
    fn newest(p: &Path) -> Option<SystemTime> {
        if p.is_dir() {
            std::fs::read_dir(p)
                .ok()?
                .filter_map(|e| e.ok())
                .filter_map(|e| newest(&e.path()))
                .max()
        } else {
            modified(p)
        }
    }
}
