//! The power actions an operator asks for: one vocabulary for the REST path, the window and
//! every manager's driver (each driver maps it onto its own manager's words).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A power action.
// The REST path and the window name it the same way (`hardreset`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum PowerAction {
    /// Power on.
    On,
    /// Power off (hard: installs need a definite state).
    Off,
    /// Power-cycle at once, without asking the operating system.
    HardReset,
    /// Graceful restart through the operating system where the manager can.
    SoftReset,
}

impl PowerAction {
    /// Every action, in the order the window offers them.
    pub const ALL: [PowerAction; 4] = [
        PowerAction::On,
        PowerAction::Off,
        PowerAction::HardReset,
        PowerAction::SoftReset,
    ];

    /// Read the API's action name (`on`, `off`, `hardreset`, `softreset`).
    pub fn parse(s: &str) -> Option<PowerAction> {
        Self::ALL.into_iter().find(|a| a.as_str() == s)
    }

    /// The API's action name.
    pub fn as_str(self) -> &'static str {
        match self {
            PowerAction::On => "on",
            PowerAction::Off => "off",
            PowerAction::HardReset => "hardreset",
            PowerAction::SoftReset => "softreset",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wire_names_read_back_and_match_serde() {
        for a in PowerAction::ALL {
            assert_eq!(PowerAction::parse(a.as_str()), Some(a));
            assert_eq!(serde_json::to_value(a).unwrap(), a.as_str());
        }
        assert_eq!(PowerAction::parse("reboot"), None);
    }
}
