//! FSM progress: the stages a UCS manager reports for the selected servers, flat and per
//! server (a manager without FSM lists the servers with no stages).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::app::App;
use crate::error::{Error, ErrorCode, Result};
use crate::managers::{Capability, Server};
use bootsmith_model::selector::SelectorInput;

use super::{connect, connect_to_list, select, unreachable_ids, SelectorBody};

/// Body of the reference path `GET /api/v2/fsm`: the group is named in the body.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct GroupSelectorBody {
    /// Server group name.
    #[schema(required = true, nullable = false, min_length = 1)]
    pub server_group: Option<String>,
    /// Which servers; all when left out (an empty selection is refused).
    #[serde(default, deserialize_with = "bootsmith_model::bodies::object")]
    #[schema(schema_with = bootsmith_model::schema::some_servers)]
    pub servers: Option<SelectorInput>,
}

/// One FSM stage (seed §2.8), with the server it belongs to.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct StageRecord {
    /// Description.
    pub descr: String,
    /// Last change, `YYYY-MM-DDTHH:MM:SS.mmm`.
    pub last_update_time: String,
    /// Stage name.
    pub name: String,
    /// Position.
    pub order: String,
    /// Retries.
    pub retry: String,
    /// The stage's status as the manager words it: an open set, examples: `success`,
    /// `inProgress`, `skip`, `fail`.
    pub stage_status: String,
    /// The server's id (`1/3`, `2`).
    pub server: String,
}

/// Stages of one server.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct ServerStages {
    /// Sorted by order.
    pub stages: Vec<StageRecord>,
}

/// Stages grouped per server.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct StagesByServer {
    /// By blade id.
    pub blades: BTreeMap<String, ServerStages>,
    /// By rack server id.
    pub rack_servers: BTreeMap<String, ServerStages>,
}

/// FSM progress of the selected servers: all stages, and the same per server.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct FsmReport {
    /// Every stage, sorted by server then order.
    pub stages: Vec<StageRecord>,
    /// The same, per server.
    pub servers: StagesByServer,
    /// Servers of a domain their central manager cannot reach now (no stages can be read).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unreachable: Vec<String>,
}

/// FSM stages of the selected servers, sorted by server and order, also grouped per server
/// (a manager without FSM lists each selected server with no stages).
pub async fn fsm(app: &App, group: &str, which: Option<SelectorBody>) -> Result<FsmReport> {
    let (g, m, progress) = match connect_to_list(app, group, Capability::Progress).await? {
        Some((g, m)) => (g, m, true),
        None => {
            let (g, m) = connect(app, group, Capability::Inventory).await?;
            (g, m, false)
        }
    };
    let servers = m.servers().await?;
    let picked = select(&g, &servers, which)?;
    let stages = if progress {
        let readable: Vec<&Server> = picked.iter().copied().filter(|s| s.reachable()).collect();
        m.stages(&readable).await?
    } else {
        Vec::new()
    };
    let mut report = FsmReport {
        unreachable: unreachable_ids(&picked),
        ..FsmReport::default()
    };
    for s in &picked {
        let id = s.id.to_string();
        let mine: Vec<StageRecord> = stages
            .iter()
            .filter(|st| st.server_dn == s.dn)
            .map(|st| StageRecord {
                descr: st.descr.clone(),
                last_update_time: st.last_update_time.clone(),
                name: st.name.clone(),
                order: st.order.clone(),
                retry: st.retry.clone(),
                stage_status: st.stage_status.clone(),
                server: id.clone(),
            })
            .collect();
        report.stages.extend(mine.iter().cloned());
        let map = if s.is_blade() {
            &mut report.servers.blades
        } else {
            &mut report.servers.rack_servers
        };
        map.insert(id, ServerStages { stages: mine });
    }
    Ok(report)
}

/// [`fsm`] for the reference path `/api/v2/fsm`, where the group is named in the body.
pub async fn fsm_named_in_body(app: &App, body: GroupSelectorBody) -> Result<FsmReport> {
    let Some(group) = body.server_group.filter(|g| !g.is_empty()) else {
        return Err(Error::bad(
            ErrorCode::MissingServerGroup,
            "Say which server group's progress to read: {\"server_group\": \"<name>\"}",
        ));
    };
    fsm(
        app,
        &group,
        Some(SelectorBody {
            force: false,
            servers: body.servers,
        }),
    )
    .await
}
