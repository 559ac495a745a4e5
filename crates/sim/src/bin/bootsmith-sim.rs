//! `bootsmith-sim`: a UCS Manager, standalone IMC or UCS Central to try Bootsmith without
//! hardware, or one or more Redfish BMCs of a chosen vendor (`--redfish`).

use std::time::Duration;

use bootsmith_sim::redfish::{Persona, RedfishConfig, RedfishFaults, RedfishSim};
use bootsmith_sim::{Domain, Faults, Sim, SimConfig};
use clap::{Parser, ValueEnum};

/// A Redfish BMC persona (`--redfish`).
#[derive(Debug, Clone, Copy, ValueEnum)]
enum RedfishPersona {
    /// HPE iLO 5, DL360 Gen10 Plus (real capture).
    Ilo5,
    /// HPE iLO 7, DL380a Gen12 (real capture).
    Ilo7,
    /// Dell iDRAC 9, firmware 6.x.
    Idrac9,
    /// Dell iDRAC 9 before 6.00 (4.40.00.00; Dell's OEM one-time boot).
    Idrac9Legacy,
    /// Supermicro X12.
    Supermicro,
    /// Lenovo XCC2.
    Xcc,
    /// Cisco IMC 4.x standalone.
    Cimc,
}

impl From<RedfishPersona> for Persona {
    fn from(p: RedfishPersona) -> Persona {
        match p {
            RedfishPersona::Ilo5 => Persona::Ilo5,
            RedfishPersona::Ilo7 => Persona::Ilo7,
            RedfishPersona::Idrac9 => Persona::Idrac9,
            RedfishPersona::Idrac9Legacy => Persona::Idrac9Legacy,
            RedfishPersona::Supermicro => Persona::Supermicro,
            RedfishPersona::Xcc => Persona::Xcc,
            RedfishPersona::Cimc => Persona::Cimc,
        }
    }
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Mode {
    Ucsm,
    Imc,
    Ucsc,
}

/// Simulate a Cisco UCS Manager domain, a standalone IMC or a UCS Central over the XML API,
/// or Redfish BMCs with `--redfish <persona>`.
///
/// Redfish: `--redfish idrac9 --count 3 --listen 127.0.0.1:9100` starts three iDRACs on ports
/// 9100, 9101 and 9102 (service root `http://127.0.0.1:9100/redfish/v1`, user/password from
/// `--user`/`--password`). The iLO personas read the captured trees from `--mockups`.
#[derive(Debug, Parser)]
#[command(name = "bootsmith-sim", version)]
struct Args {
    /// Start Redfish BMCs of this vendor instead of the XML API simulator.
    #[arg(long, value_enum)]
    redfish: Option<RedfishPersona>,
    /// How many Redfish BMCs, on consecutive ports from --listen's.
    #[arg(long, default_value_t = 1)]
    count: u16,
    /// Directory of the iLO captures (DL360/, DL380a_Gen12/) [default: the repository's crates/sim/fixtures/ilo/mockups].
    #[arg(long)]
    mockups: Option<std::path::PathBuf>,
    /// How long a Redfish power change takes, in milliseconds.
    #[arg(long, default_value_t = 2000)]
    power_ms: u64,
    /// Seconds of `Retry-After` on injected 503s (Redfish).
    #[arg(long)]
    retry_after: Option<u64>,
    /// Redfish actions answer 202 and a task monitor that answers 202 this many times.
    #[arg(long, default_value_t = 0)]
    task_polls: u32,
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
    if let Some(p) = a.redfish {
        return redfish(&a, p.into()).await;
    }
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

/// Start `--count` Redfish BMCs on consecutive ports and serve until Ctrl-C.
async fn redfish(a: &Args, persona: Persona) -> anyhow::Result<()> {
    let mut sims = Vec::new();
    for i in 0..a.count {
        let mut cfg = RedfishConfig::new(persona);
        cfg.user = a.user.clone();
        cfg.password = a.password.clone();
        cfg.power_delay = Duration::from_millis(a.power_ms);
        if let Some(m) = &a.mockups {
            cfg.mockups = m.clone();
        }
        if a.count > 1 {
            cfg.serial = Some(format!("SIM{:05}", a.listen.port() + i));
        }
        cfg.faults = RedfishFaults {
            latency: Duration::from_millis(a.latency_ms),
            error_rate: a.error_rate,
            drop_rate: a.drop_rate,
            retry_after: a.retry_after,
            session_ttl: a.session_ttl.map(Duration::from_secs),
            task_polls: a.task_polls,
            ..RedfishFaults::default()
        };
        let addr = std::net::SocketAddr::new(a.listen.ip(), a.listen.port() + i);
        let listener = tokio::net::TcpListener::bind(addr).await?;
        let sim = RedfishSim::start_on(cfg, listener)
            .await
            .map_err(|e| anyhow::anyhow!("{}: {e} (see --mockups)", persona.name()))?;
        println!(
            "bootsmith-sim redfish {} listening: {}",
            persona.name(),
            sim.base_url()
        );
        sims.push(sim);
    }
    tokio::signal::ctrl_c().await?;
    drop(sims);
    Ok(())
}
