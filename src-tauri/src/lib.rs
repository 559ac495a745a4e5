//! The Bootsmith program: command line, headless server, and (with the `gui`
//! feature) the desktop shell whose commands are thin adapters over the core.

pub mod cli;
mod import_kubam;
pub mod logging;
mod owner;
pub mod server;

#[cfg(feature = "gui")]
mod chooser;
#[cfg(feature = "gui")]
mod commands;
#[cfg(feature = "gui")]
pub mod gui;
#[cfg(feature = "gui")]
pub mod painting;
#[cfg(feature = "gui")]
mod ui_assets;

use clap::Parser;

use cli::{Cli, Command};

/// The program's version, also in `GET /`, the OpenAPI document and the packages.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
/// The commit this was built from and its date (`unknown` outside git; see build.rs).
pub const BUILD: &str = env!("BOOTSMITH_BUILD");
/// `bootsmith --version`'s text after the name.
pub const LONG_VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (build ",
    env!("BOOTSMITH_BUILD"),
    ")"
);

/// Entry point shared by the binary.
pub fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    // Before any thread starts: it sets the environment WebKit's processes start with.
    #[cfg(feature = "gui")]
    let painting = if cli.command.is_none() && has_display() {
        painting::choose()
    } else {
        None
    };
    let config = cli.dirs.config();
    // Not the window: root's desktop session is root's own.
    let became = match cli.command {
        Some(_) => owner::become_data_owner(&config.data_dir)?,
        None => None,
    };
    logging::init(&config.data_dir)?;
    if let Some(user) = became {
        tracing::info!(%user, data_dir = %config.data_dir.display(), "running as the data directory's owner");
    }
    #[cfg(feature = "gui")]
    if let Some(value) = painting {
        tracing::info!(
            "{}={value}: no GPU render node, so the window paints into shared memory (less memory than software-drawn GPU buffers)",
            painting::DMABUF_OFF
        );
    }
    match cli.command {
        Some(Command::Serve(listen)) => runtime()?.block_on(server::run(config, listen)),
        Some(Command::Token { regenerate }) => runtime()?.block_on(async {
            let app = bootsmith_core::startup::open(config).await?;
            let token = if regenerate {
                bootsmith_core::auth::regenerate(&app).await?
            } else {
                bootsmith_core::auth::token(&app).await?
            };
            println!("{}", token.expose());
            app.close().await;
            Ok(())
        }),
        Some(Command::ImportKubam(args)) => runtime()?.block_on(import_kubam::run(config, args)),
        None => run_gui(config, cli.listen),
    }
}

/// The REST listener's state, with the web interface under `/ui/` when this build has it.
async fn api_state(
    app: &bootsmith_core::App,
    listen: &cli::Listen,
) -> anyhow::Result<bootsmith_api::ApiState> {
    let state = bootsmith_api::ApiState::new(app.clone(), !listen.no_auth)
        .await?
        .with_cors(listen.cors_origins.clone())
        .with_build(BUILD);
    #[cfg(feature = "gui")]
    let state = state.with_ui(ui_assets::get);
    Ok(state)
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?)
}

fn has_display() -> bool {
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()))
}

#[cfg(feature = "gui")]
fn run_gui(config: bootsmith_core::Config, listen: cli::Listen) -> anyhow::Result<()> {
    if !has_display() {
        tracing::warn!(
            "no display found (DISPLAY/WAYLAND_DISPLAY unset): running the server without a window"
        );
        return runtime()?.block_on(server::run(config, listen));
    }
    gui::run(config, listen)
}

#[cfg(not(feature = "gui"))]
fn run_gui(config: bootsmith_core::Config, listen: cli::Listen) -> anyhow::Result<()> {
    if has_display() {
        tracing::warn!(
            "this build has no desktop window (built without the gui feature): running the server"
        );
    }
    runtime()?.block_on(server::run(config, listen))
}
