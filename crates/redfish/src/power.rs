//! Power: a core-facing [`PowerAction`] mapped onto the ResetType the BMC allows, the reset
//! itself, and waiting for a power state.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::client::Client;
use crate::error::Result;
use crate::quirks::Effect;
use crate::request::Request;
use crate::systems::{system, System};

pub use bootsmith_model::power::PowerAction;

/// A system's power state as far as waiting is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PowerState {
    /// `On`.
    On,
    /// `Off`.
    Off,
}

impl PowerState {
    /// The `PowerState` value.
    pub fn as_str(self) -> &'static str {
        match self {
            PowerState::On => "On",
            PowerState::Off => "Off",
        }
    }
}

/// ResetTypes to try for an action, best first.
fn candidates(action: PowerAction) -> &'static [&'static str] {
    match action {
        PowerAction::On => &["On", "ForceOn", "PushPowerButton"],
        PowerAction::Off => &["ForceOff", "GracefulShutdown", "PushPowerButton"],
        PowerAction::HardReset => &["ForceRestart", "PowerCycle", "GracefulRestart"],
        PowerAction::SoftReset => &["GracefulRestart", "ForceRestart", "PowerCycle"],
    }
}

/// The ResetType for `action`: the first candidate in `allowed`, or the standard name when
/// the BMC advertises nothing. `cimc` drops GracefulRestart and ForceOn (CIMC 4.1 has neither).
pub fn choose_reset_type(action: PowerAction, allowed: &[String], cimc: bool) -> Option<String> {
    let mut c: Vec<&str> = candidates(action).to_vec();
    if cimc {
        c.retain(|t| !matches!(*t, "GracefulRestart" | "ForceOn"));
    }
    if allowed.is_empty() {
        return c.first().map(|s| (*s).to_owned());
    }
    c.into_iter()
        .find(|t| allowed.iter().any(|a| a == t))
        .map(str::to_owned)
}

/// The reset request for a system's Reset action.
pub fn reset_request(target: &str, reset_type: &str) -> Request {
    Request::action(target, json!({ "ResetType": reset_type }))
}

/// Apply `action` to the system at `path`; the ResetType sent, or `None` when the system was
/// already in the wanted state (On/Off: iLO refuses redundant requests). A restart of a
/// system that is off powers it on.
pub async fn reset(client: &Client, path: &str, action: PowerAction) -> Result<Option<String>> {
    let s: System = system(client, path).await?;
    // Restarting a machine that is off means powering it on (redfish.md §1.5; iLO refuses
    // a restart of a powered-off system).
    let action = match action {
        PowerAction::HardReset | PowerAction::SoftReset
            if s.power_state.as_deref() == Some("Off") =>
        {
            PowerAction::On
        }
        a => a,
    };
    let already = match action {
        PowerAction::On => s.power_state.as_deref() == Some("On"),
        PowerAction::Off => s.power_state.as_deref() == Some("Off"),
        _ => false,
    };
    if already {
        return Ok(None);
    }
    let target = s.reset_target.clone().unwrap_or_else(|| {
        format!(
            "{}/Actions/ComputerSystem.Reset",
            s.path.trim_end_matches('/')
        )
    });
    let cimc = client.has_quirk(Effect::NoGracefulRestartForceOn);
    let Some(t) = choose_reset_type(action, &s.reset_types, cimc) else {
        return Err(client.not_supported(&format!(
            "{action:?} (ResetTypes offered: {})",
            s.reset_types.join(", ")
        )));
    };
    if cimc {
        client.note_applied("cisco-reset-types");
    }
    tracing::info!(address = client.address(), system = %s.path, reset = %t, "reset");
    client.execute(reset_request(&target, &t)).await?;
    Ok(Some(t))
}

/// Poll `PowerState` every second until it is `want`.
pub async fn wait_power(
    client: &Client,
    path: &str,
    want: PowerState,
    timeout: Duration,
) -> Result<()> {
    let deadline = Instant::now() + timeout;
    loop {
        let s = system(client, path).await?;
        if s.power_state.as_deref() == Some(want.as_str()) {
            return Ok(());
        }
        if Instant::now() >= deadline {
            return Err(client.timeout(&format!("power {}", want.as_str()), timeout));
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| (*x).to_owned()).collect()
    }

    #[test]
    fn reset_types_follow_the_allowable_values() {
        let cimc = v(&[
            "On",
            "ForceOff",
            "GracefulShutdown",
            "ForceRestart",
            "Nmi",
            "PowerCycle",
        ]);
        assert_eq!(
            choose_reset_type(PowerAction::On, &cimc, true).as_deref(),
            Some("On")
        );
        assert_eq!(
            choose_reset_type(PowerAction::SoftReset, &cimc, true).as_deref(),
            Some("ForceRestart")
        );
        assert_eq!(
            choose_reset_type(PowerAction::SoftReset, &[], true).as_deref(),
            Some("ForceRestart")
        );
        assert_eq!(
            choose_reset_type(PowerAction::SoftReset, &[], false).as_deref(),
            Some("GracefulRestart")
        );
        assert_eq!(
            choose_reset_type(PowerAction::On, &v(&["ForceOn", "ForceOff"]), false).as_deref(),
            Some("ForceOn")
        );
        assert_eq!(
            choose_reset_type(PowerAction::Off, &v(&["PushPowerButton"]), false).as_deref(),
            Some("PushPowerButton")
        );
        assert_eq!(
            choose_reset_type(PowerAction::HardReset, &v(&["PowerCycle"]), false).as_deref(),
            Some("PowerCycle")
        );
        assert_eq!(
            choose_reset_type(PowerAction::On, &v(&["Nmi"]), false),
            None
        );
    }
}
