//! Power: the selected servers' power state, and power actions on them (refused on servers
//! that run someone else's profile unless forced, and on servers of a lost domain).

use crate::app::App;
use crate::error::{Error, ErrorCode, Result};
use crate::managers::{Capability, PowerAction, PowerState, Server};
use bootsmith_model::types::NodeId;

use super::{connect, ours, refuse_foreign, refuse_unreachable, select, SelectorBody, ServerType};

/// The power of each server asked about. The doors word it as the seed does: `"<id>: <state>"`
/// lines of blades and of rack servers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PowerStatus {
    /// Each server.
    pub servers: Vec<ServerPower>,
}

/// One server's power.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerPower {
    /// The server (`1/3`, `2`; `1009/1/3` under a central manager).
    pub id: NodeId,
    /// What is known of its power.
    pub state: PowerReading,
}

impl ServerPower {
    /// A blade or a rack server.
    pub fn kind(&self) -> ServerType {
        ServerType::of(&self.id)
    }
}

/// What is known of a server's power.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PowerReading {
    /// As its manager reports it; None where it reports none.
    Reported(Option<PowerState>),
    /// Its domain's central manager cannot reach it now: the state it last read may be stale,
    /// so none is given.
    Unreachable,
}

/// The power of `servers`; a server whose domain its central manager cannot reach is
/// [`PowerReading::Unreachable`] rather than a state that may be stale.
fn status_of(servers: &[&Server]) -> PowerStatus {
    PowerStatus {
        servers: servers
            .iter()
            .map(|s| ServerPower {
                id: s.id,
                state: if s.reachable() {
                    PowerReading::Reported(s.oper_power.clone())
                } else {
                    PowerReading::Unreachable
                },
            })
            .collect(),
    }
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
