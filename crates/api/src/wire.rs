//! The seed's shapes of answers whose core type is structured, made here at the doors: the
//! table of actions (`bootsmith_actions`) names these as the answers, so REST and the window
//! (`src-tauri/src/commands.rs`) answer the same words.

use bootsmith_core::compute::{PowerReading, PowerStatus, ServerType};
use bootsmith_core::managers::PowerState;
use serde::Serialize;
use utoipa::ToSchema;

/// What a server of a domain its central manager cannot reach says in place of its power.
pub const UNREACHABLE: &str = "unreachable";

/// `"<id>: <state>"` per selected server.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, ToSchema)]
#[schema(as = PowerStatus)]
pub struct PowerLines {
    /// Blades.
    pub blades: Vec<String>,
    /// Rack servers.
    pub rack_servers: Vec<String>,
}

impl From<PowerStatus> for PowerLines {
    /// A line per server, `1/3: on`, among the blades or the rack servers in the core's order;
    /// the state is the manager's word (empty where it reports none), or `unreachable`.
    fn from(status: PowerStatus) -> PowerLines {
        let mut lines = PowerLines::default();
        for s in status.servers {
            let state = match &s.state {
                PowerReading::Reported(p) => PowerState::word_of(p.as_ref()),
                PowerReading::Unreachable => UNREACHABLE,
            };
            let line = format!("{}: {state}", s.id);
            match s.kind() {
                ServerType::Blade => lines.blades.push(line),
                ServerType::Rack => lines.rack_servers.push(line),
            }
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bootsmith_core::compute::ServerPower;
    use bootsmith_model::types::{NodeId, RackId};

    fn server(id: &str, state: PowerReading) -> ServerPower {
        ServerPower {
            id: NodeId::parse(id).unwrap(),
            state,
        }
    }

    #[test]
    fn each_server_is_a_line_among_its_kind_in_the_cores_order() {
        let status = PowerStatus {
            servers: vec![
                server("1/3", PowerReading::Reported(Some(PowerState::On))),
                server("2", PowerReading::Reported(Some(PowerState::Off))),
                server("1/1", PowerReading::Reported(Some(PowerState::Off))),
                server("1", PowerReading::Reported(Some(PowerState::On))),
            ],
        };
        assert_eq!(
            PowerLines::from(status),
            PowerLines {
                blades: vec!["1/3: on".into(), "1/1: off".into()],
                rack_servers: vec!["2: off".into(), "1: on".into()],
            }
        );
    }

    #[test]
    fn an_unreachable_server_says_unreachable() {
        let rack = ServerPower {
            id: NodeId::Rack(RackId {
                domain: Some(1002),
                id: 7,
            }),
            state: PowerReading::Unreachable,
        };
        let status = PowerStatus {
            servers: vec![
                server("1001/1/2", PowerReading::Reported(Some(PowerState::Off))),
                server("1002/1/2", PowerReading::Unreachable),
                rack,
            ],
        };
        let lines = PowerLines::from(status);
        assert_eq!(lines.blades, ["1001/1/2: off", "1002/1/2: unreachable"]);
        assert_eq!(lines.rack_servers, ["1002/7: unreachable"]);
    }

    #[test]
    fn a_managers_own_word_is_kept_and_no_state_is_empty() {
        let status = PowerStatus {
            servers: vec![
                server(
                    "1/1",
                    PowerReading::Reported(Some(PowerState::Other("power-save".into()))),
                ),
                server(
                    "3",
                    PowerReading::Reported(Some(PowerState::Other("poweringon".into()))),
                ),
                server("4", PowerReading::Reported(None)),
            ],
        };
        let lines = PowerLines::from(status);
        assert_eq!(lines.blades, ["1/1: power-save"]);
        assert_eq!(lines.rack_servers, ["3: poweringon", "4: "]);
    }

    #[test]
    fn the_json_is_the_seeds() {
        let lines = PowerLines::from(PowerStatus {
            servers: vec![server("1/3", PowerReading::Reported(Some(PowerState::On)))],
        });
        assert_eq!(
            serde_json::to_value(lines).unwrap(),
            serde_json::json!({"blades": ["1/3: on"], "rack_servers": []})
        );
    }
}
