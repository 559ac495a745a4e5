//! Logs: human lines on stderr and JSON lines in `<data>/bootsmith.log` (the GUI's log view reads it).

use std::path::Path;
use std::sync::Mutex;

use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{fmt, EnvFilter};

/// Name of the JSON log file in the data dir; the core reads it back for the Logs screen.
pub use bootsmith_core::logs::LOG_FILE;

/// Install the global subscriber; `RUST_LOG` overrides the default level.
pub fn init(data_dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(data_dir)?;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(data_dir.join(LOG_FILE))?;
    let filter = || {
        EnvFilter::try_from_default_env()
            .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,tower_http=info"))
    };
    tracing_subscriber::registry()
        .with(
            fmt::layer()
                .with_writer(std::io::stderr)
                .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
                .with_filter(filter()),
        )
        .with(
            fmt::layer()
                .json()
                .with_writer(Mutex::new(file))
                .with_filter(filter()),
        )
        .try_init()?;
    Ok(())
}

use tracing_subscriber::Layer as _;
