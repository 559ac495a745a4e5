//! FSM stages: the progress of long operations on each server.

use crate::endpoint::{Endpoint, Kind};
use crate::error::Result;

/// One FSM stage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FsmStage {
    /// DN of the server.
    pub server_dn: String,
    /// Stage name (`AssociatePowerOn`).
    pub name: String,
    /// Position in the operation.
    pub order: String,
    /// Retries so far.
    pub retry: String,
    /// `success`, `inProgress`, `skip`, …
    pub stage_status: String,
    /// Description.
    pub descr: String,
    /// Last change, `YYYY-MM-DDTHH:MM:SS.mmm`.
    pub last_update_time: String,
}

impl Endpoint {
    /// FSM stages of every server, in one request, sorted by server and order (none on a standalone IMC).
    pub async fn fsm_stages(&self) -> Result<Vec<FsmStage>> {
        if self.kind() == Kind::Imc {
            return Ok(Vec::new());
        }
        let mos = self
            .resolve_classes(&["computeBladeFsmStage", "computeRackUnitFsmStage"])
            .await?;
        let mut stages: Vec<FsmStage> = mos
            .iter()
            .map(|m| {
                let dn = m.get("dn");
                FsmStage {
                    server_dn: dn.split("/fsm/").next().unwrap_or(dn).to_owned(),
                    name: m.get("name").to_owned(),
                    order: m.get("order").to_owned(),
                    retry: m.get("retry").to_owned(),
                    stage_status: m.get("stageStatus").to_owned(),
                    descr: m.get("descr").to_owned(),
                    last_update_time: m.get("lastUpdateTime").to_owned(),
                }
            })
            .collect();
        stages.sort_by_key(|s| {
            (
                s.server_dn.clone(),
                s.order.parse::<u32>().unwrap_or(u32::MAX),
            )
        });
        Ok(stages)
    }
}
