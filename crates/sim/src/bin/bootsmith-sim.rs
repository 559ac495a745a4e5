//! `bootsmith-sim`: a UCS Manager, standalone IMC or UCS Central to try Bootsmith without hardware.

use std::time::Duration;

use bootsmith_sim::{Domain, Faults, Sim, SimConfig};
use clap::{Parser, ValueEnum};

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Mode {
    Ucsm,
    Imc,
    Ucsc,
}

/// Simulate a Cisco UCS Manager domain, a standalone IMC or a UCS Central over the XML API.
#[derive(Debug, Parser)]
#[command(name = "bootsmith-sim", version)]
struct Args {
    /// What to simulate.
    #[arg(long, value_enum, default_value = "ucsm")]
    mode: Mode,
    /// Listen address.
    #[arg(long, default_value = "127.0.0.1:9000")]
    listen: std::net::SocketAddr,
    /// Chassis in the UCSM domain, or in each UCS Central domain [default: 2].
    #[arg(long)]
    chassis: Option<u32>,
    /// Blades per chassis, at most 8 [default: 4].
    #[arg(long)]
    blades: Option<u32>,
    /// Rack units managed by UCSM [default: 2], or in each UCS Central domain [default: 1].
    #[arg(long)]
    rack_units: Option<u32>,
    /// UCS domains registered with the UCS Central (ids 1001, 1002, …).
    #[arg(long, default_value_t = 2)]
    domains: u32,
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
    let shaped = |d: Domain| Domain {
        chassis: a.chassis.unwrap_or(d.chassis),
        blades_per_chassis: a.blades.unwrap_or(d.blades_per_chassis),
        rack_units: a.rack_units.unwrap_or(d.rack_units),
        ..d
    };
    let domain = match a.mode {
        Mode::Ucsm => shaped(Domain::ucsm()),
        Mode::Imc => Domain::imc(),
        Mode::Ucsc => shaped(Domain::ucsc(a.domains)),
    };
    let domain_ids: Vec<u32> = domain.domain_ids().collect();
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
    if let Mode::Ucsc = a.mode {
        println!(
            "UCS Central: POST {}/xmlIM/<dme> (central-mgr, resource-mgr, …); domains {:?}",
            sim.address(),
            domain_ids
        );
    }
    tokio::signal::ctrl_c().await?;
    sim.stop();
    Ok(())
}
