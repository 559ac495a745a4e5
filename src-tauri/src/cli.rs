//! Command line: the GUI by default, `serve` with no window, `token` to print the API token,
//! `import-kubam` to take over a KUBAM installation.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// Bootsmith: install operating systems onto bare-metal servers.
#[derive(Debug, Parser)]
#[command(name = "bootsmith", version = crate::LONG_VERSION, about)]
pub struct Cli {
    /// Where the app keeps its files.
    #[command(flatten)]
    pub dirs: Dirs,
    /// What to run; the desktop window when left out.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Listener options for the window's embedded REST API.
    #[command(flatten)]
    pub listen: Listen,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the REST API and svc file server with no window.
    Serve(Listen),
    /// Print the API token (or make a new one).
    Token {
        /// Replace the token with a new one; the old one stops working.
        #[arg(long)]
        regenerate: bool,
    },
    /// Import a KUBAM installation: its kubam.yaml, and the .kubam key file that decrypts its passwords.
    ImportKubam(ImportKubam),
}

/// `bootsmith import-kubam FILE [--key KEYFILE] [--dry-run] [--skip-existing] [--json]`.
#[derive(Debug, Clone, Args)]
pub struct ImportKubam {
    /// KUBAM's kubam.yaml (in its data directory, ~/kubam on the KUBAM host).
    pub file: PathBuf,
    /// KUBAM's key file, `.kubam` beside kubam.yaml; without it the server groups and ACI
    /// instances are imported without their passwords.
    #[arg(long, value_name = "KEYFILE")]
    pub key: Option<PathBuf>,
    /// Only show the plan: what would be created, renamed, skipped, and why.
    #[arg(long)]
    pub dry_run: bool,
    /// Keep the records Bootsmith already has under names the file uses, and import the rest.
    #[arg(long)]
    pub skip_existing: bool,
    /// Print the plan as the REST API answers it (JSON).
    #[arg(long)]
    pub json: bool,
}

/// Data and svc directories.
#[derive(Debug, Clone, Args)]
pub struct Dirs {
    /// Data directory: database, key file, log [default: the user's data dir, e.g. ~/.local/share/bootsmith].
    #[arg(long, env = "BOOTSMITH_DATA_DIR", global = true)]
    pub data_dir: Option<PathBuf>,
    /// svc directory: ISO files and generated media, served to the servers [default: <data-dir>/svc].
    #[arg(long, env = "BOOTSMITH_SVC_DIR", global = true)]
    pub svc_dir: Option<PathBuf>,
}

/// Listener options.
#[derive(Debug, Clone, Args)]
pub struct Listen {
    /// Address and port of the REST listener.
    #[arg(long, env = "BOOTSMITH_LISTEN", default_value = "0.0.0.0:8080")]
    pub listen: SocketAddr,
    /// Accept API requests without the token (local testing only).
    #[arg(long)]
    pub no_auth: bool,
    /// Let web pages from this origin call the API (e.g. KUBAM's web UI at http://kubam.lab:5000);
    /// repeat for several. Off by default; callers still need the token.
    #[arg(long = "cors-origin", value_name = "ORIGIN", value_parser = bootsmith_api::cors::CorsOrigin::parse)]
    pub cors_origins: Vec<bootsmith_api::cors::CorsOrigin>,
}

impl Dirs {
    /// The data directory to use.
    pub fn data_dir(&self) -> PathBuf {
        self.data_dir.clone().unwrap_or_else(|| {
            directories::ProjectDirs::from("dev", "bootsmith", "bootsmith")
                .map(|d| d.data_dir().to_owned())
                .unwrap_or_else(|| PathBuf::from("bootsmith-data"))
        })
    }

    /// The svc directory to use.
    pub fn svc_dir(&self) -> PathBuf {
        self.svc_dir
            .clone()
            .unwrap_or_else(|| self.data_dir().join("svc"))
    }

    /// Core configuration for these directories.
    pub fn config(&self) -> bootsmith_core::Config {
        bootsmith_core::Config {
            data_dir: self.data_dir(),
            svc_dir: self.svc_dir(),
            use_keyring: std::env::var("BOOTSMITH_KEYRING").map_or(true, |v| v != "off"),
        }
    }
}
