//! `bootsmith-sim`: a UCS Manager or standalone IMC to try Bootsmith without hardware.

use std::time::Duration;

use bootsmith_sim::{Domain, Faults, Sim, SimConfig};
use clap::{Parser, ValueEnum};

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Mode {
    Ucsm,
    Imc,
}

/// Simulate a Cisco UCS Manager domain or a standalone IMC over the XML API.
#[derive(Debug, Parser)]
#[command(name = "bootsmith-sim", version)]
struct Args {
    /// What to simulate.
    #[arg(long, value_enum, default_value = "ucsm")]
    mode: Mode,
    /// Listen address.
    #[arg(long, default_value = "127.0.0.1:9000")]
    listen: std::net::SocketAddr,
    /// Chassis in the UCSM domain.
    #[arg(long, default_value_t = 2)]
    chassis: u32,
    /// Blades per chassis (at most 8).
    #[arg(long, default_value_t = 4)]
    blades: u32,
    /// Rack units managed by UCSM.
    #[arg(long, default_value_t = 2)]
    rack_units: u32,
    /// Login name.
    #[arg(long, default_value = "admin")]
    user: String,
    /// Login password.
    #[arg(long, default_value = "password")]
    password: String,
    /// How long power, association, disk and mount changes take, in milliseconds.
    #[arg(long, default_value_t = 3000)]
    effect_ms: u64,
    /// Latency added to each request, in milliseconds.
    #[arg(long, default_value_t = 0)]
    latency_ms: u64,
    /// Share of requests answered with HTTP 503.
    #[arg(long, default_value_t = 0.0)]
    error_rate: f64,
    /// Share of requests whose connection is dropped.
    #[arg(long, default_value_t = 0.0)]
    drop_rate: f64,
    /// Serve HTTPS with a new self-signed certificate (as a real UCS Manager does).
    #[arg(long)]
    tls: bool,
    /// Sessions expire after this many seconds.
    #[arg(long)]
    session_ttl: Option<u64>,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .init();
    let a = Args::parse();
    let domain = match a.mode {
        Mode::Ucsm => Domain {
            chassis: a.chassis,
            blades_per_chassis: a.blades,
            rack_units: a.rack_units,
            ..Domain::ucsm()
        },
        Mode::Imc => Domain::imc(),
    };
    let cfg = SimConfig {
        domain,
        user: a.user,
        password: a.password,
        effect_delay: Duration::from_millis(a.effect_ms),
        refresh_period: 600,
        faults: Faults {
            latency: Duration::from_millis(a.latency_ms),
            error_rate: a.error_rate,
            drop_rate: a.drop_rate,
            session_ttl: a.session_ttl.map(Duration::from_secs),
            fail_next: 0,
            drop_next: 0,
        },
    };
    let listener = tokio::net::TcpListener::bind(a.listen).await?;
    let sim = if a.tls {
        Sim::start_tls_on(cfg, listener).await?
    } else {
        Sim::start_on(cfg, listener).await?
    };
    if let Some(fp) = sim.fingerprint() {
        println!("certificate fingerprint (SHA-256): {fp}");
    }
    println!(
        "bootsmith-sim ({:?}) listening: use {} as the server group's credentials.ip",
        a.mode,
        sim.address()
    );
    tokio::signal::ctrl_c().await?;
    sim.stop();
    Ok(())
}
