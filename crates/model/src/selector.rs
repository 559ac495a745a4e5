//! Server selectors: which blades and rack servers of a group an action is for.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::Problem;
use crate::types::{BladeId, RackId};

/// A selector as sent: `rack_servers` or its other seed spelling `rack`.
#[derive(Debug, Default, Deserialize)]
pub struct SelectorInput {
    /// Blade ids `<chassis>/<slot>` (or `<domain>/<chassis>/<slot>`).
    pub blades: Option<Vec<String>>,
    /// Rack server numbers.
    #[serde(alias = "rack")]
    pub rack_servers: Option<Vec<String>>,
}

// Written by hand: the document shows the `rack` alias, which a derived schema would leave out.
impl utoipa::PartialSchema for SelectorInput {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
        crate::schema::selector().into()
    }
}

impl ToSchema for SelectorInput {}

/// A checked selector; lists are de-duplicated and sorted.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, ToSchema)]
pub struct ServerSelector {
    /// Selected blades.
    #[schema(value_type = Vec<String>)]
    pub blades: Vec<BladeId>,
    /// Selected rack servers.
    #[schema(value_type = Vec<String>)]
    pub rack_servers: Vec<RackId>,
}

impl ServerSelector {
    /// True when nothing is selected.
    pub fn is_empty(&self) -> bool {
        self.blades.is_empty() && self.rack_servers.is_empty()
    }

    /// True when the selection names server `id`.
    pub fn contains(&self, id: &crate::types::NodeId) -> bool {
        match id {
            crate::types::NodeId::Blade(b) => self.blades.contains(b),
            crate::types::NodeId::Rack(r) => self.rack_servers.contains(r),
        }
    }
}

impl SelectorInput {
    /// Check every id; problems name the field under `prefix` (e.g. `server_pool`).
    pub fn check(&self, prefix: &str) -> Result<ServerSelector, Vec<Problem>> {
        let mut problems = Vec::new();
        let mut blades: Vec<BladeId> = Vec::new();
        for (i, b) in self.blades.iter().flatten().enumerate() {
            match BladeId::parse(b) {
                Ok(id) => blades.push(id),
                Err(m) => problems.push(Problem::field(format!("{prefix}.blades[{i}]"), m)),
            }
        }
        let mut racks: Vec<RackId> = Vec::new();
        for (i, r) in self.rack_servers.iter().flatten().enumerate() {
            match RackId::parse(r) {
                Ok(id) => racks.push(id),
                Err(m) => problems.push(Problem::field(format!("{prefix}.rack_servers[{i}]"), m)),
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        blades.sort();
        blades.dedup();
        racks.sort();
        racks.dedup();
        Ok(ServerSelector {
            blades,
            rack_servers: racks,
        })
    }
}
