//! Power: the selected servers' power state, and power actions on them (refused on servers
//! that run someone else's profile unless forced, and on servers of a lost domain).

use serde::Serialize;
use utoipa::ToSchema;

use crate::app::App;
use crate::error::{Error, ErrorCode, Result};
use crate::managers::{Capability, PowerAction, Server};

use super::{connect, ours, refuse_foreign, refuse_unreachable, select, SelectorBody, UNREACHABLE};

/// `"<id>: <state>"` per selected server.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct PowerStatus {
    /// Blades.
    pub blades: Vec<String>,
    /// Rack servers.
    pub rack_servers: Vec<String>,
}

/// `"<id>: <state>"` lines; a server whose domain its central manager cannot reach says
/// `unreachable` rather than a state that may be stale.
fn status_of(servers: &[&Server]) -> PowerStatus {
    let mut st = PowerStatus::default();
    for s in servers {
        let state = if s.reachable() {
            s.oper_power.as_str()
        } else {
            UNREACHABLE
        };
        let line = format!("{}: {state}", s.id);
        if s.is_blade() {
            st.blades.push(line);
        } else {
            st.rack_servers.push(line);
        }
    }
    st
}

/// Power state of the selected servers (all when none are named).
pub async fn power_status(
    app: &App,
    group: &str,
    which: Option<SelectorBody>,
) -> Result<PowerStatus> {
    let (g, m) = connect(app, group, Capability::Inventory).await?;
    let servers = m.servers().await?;
    Ok(status_of(&select(&g, &servers, which)?))
}

/// Apply a power action (`on`, `off`, `hardreset`, `softreset`) to the selected servers in one
/// transaction; answers with their power state read right after (it changes over the next seconds).
pub async fn power(
    app: &App,
    group: &str,
    action: &str,
    which: Option<SelectorBody>,
) -> Result<PowerStatus> {
    let act = PowerAction::parse(action).ok_or_else(|| {
        Error::bad(
            ErrorCode::UnknownPowerAction,
            format!("'{action}' is not a power action; use one of on, off, hardreset, softreset"),
        )
    })?;
    let (g, m) = connect(app, group, Capability::Power).await?;
    let servers = m.servers().await?;
    let force = which.as_ref().is_some_and(|w| w.force);
    let picked = select(&g, &servers, which)?;
    if picked.is_empty() {
        return Err(Error::bad(
            ErrorCode::NoServers,
            format!("Server group '{group}' has no servers to power {action}"),
        ));
    }
    refuse_unreachable(group, &picked, &format!("power servers {action}"))?;
    if act != PowerAction::On {
        let doing = format!("power {action}");
        refuse_foreign(group, &picked, &ours(app).await?, &doing, force)?;
    }
    m.set_power(&picked, act).await?;
    tracing::info!(group, action, servers = picked.len(), "power action sent");
    let dns: Vec<&str> = picked.iter().map(|s| s.dn.as_str()).collect();
    let after = m.servers().await?;
    let now: Vec<&Server> = after
        .iter()
        .filter(|s| dns.contains(&s.dn.as_str()))
        .collect();
    Ok(status_of(&now))
}
