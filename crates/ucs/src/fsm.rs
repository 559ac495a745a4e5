//! FSM stages: the progress of long operations on each server.

use crate::endpoint::{out_configs, Dme, Endpoint, Kind};
use crate::error::Result;
use crate::servers::{ComputeServer, ServerKind};
use crate::xml::Mo;

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

impl FsmStage {
    /// A stage object of server `server_dn`'s FSM.
    fn from_mo(server_dn: &str, m: &Mo) -> Self {
        FsmStage {
            server_dn: server_dn.to_owned(),
            name: m.get("name").to_owned(),
            order: m.get("order").to_owned(),
            retry: m.get("retry").to_owned(),
            stage_status: m.get("stageStatus").to_owned(),
            descr: m.get("descr").to_owned(),
            last_update_time: m.get("lastUpdateTime").to_owned(),
        }
    }

    /// Its place in the operation; a stage without a number sorts last.
    fn position(&self) -> u32 {
        self.order.parse().unwrap_or(u32::MAX)
    }
}

impl Endpoint {
    /// FSM stages of every server, in one request, sorted by server and order (none on a
    /// standalone IMC; a UCS Central asks each domain, see [`Endpoint::central_fsm_stages`]).
    pub async fn fsm_stages(&self) -> Result<Vec<FsmStage>> {
        if matches!(self.kind(), Kind::Imc | Kind::Ucsc) {
            return Ok(Vec::new());
        }
        let mos = self
            .resolve_classes(&["computeBladeFsmStage", "computeRackUnitFsmStage"])
            .await?;
        let mut stages: Vec<FsmStage> = mos
            .iter()
            .map(|m| {
                let dn = m.get("dn");
                FsmStage::from_mo(dn.split("/fsm/").next().unwrap_or(dn), m)
            })
            .collect();
        stages.sort_by_key(|s| (s.server_dn.clone(), s.position()));
        Ok(stages)
    }
}

impl Endpoint {
    /// FSM stages of one server of a UCS Central, sorted by order. Central keeps no FSMs of
    /// its own: it reads the server's domain (`configRemoteResolveChildren` on its
    /// resource service, the call the earlier tool used on real Centrals), so this is one
    /// request per server and fails for a domain Central cannot reach.
    pub async fn central_fsm_stages(&self, server: &ComputeServer) -> Result<Vec<FsmStage>> {
        let local = match server.kind {
            ServerKind::Blade => format!(
                "sys/chassis-{}/blade-{}/fsm",
                server.chassis_id.unwrap_or(0),
                server.slot.unwrap_or(0)
            ),
            ServerKind::Rack => format!("sys/rack-unit-{}/fsm", server.rack_id.unwrap_or(0)),
        };
        let request = Mo::new("configRemoteResolveChildren")
            .with("inDn", local.as_str())
            .with("inDomainId", server.domain.unwrap_or(0).to_string())
            .with("inHierarchical", "true")
            .child(Mo::new("inFilter"));
        let reply = self.call_on(Dme::Resource, request).await?;
        let mut stages: Vec<FsmStage> = out_configs(&reply)
            .iter()
            .filter(|m| m.class.ends_with("FsmStage"))
            .map(|m| FsmStage::from_mo(&server.dn, m))
            .collect();
        stages.sort_by_key(FsmStage::position);
        Ok(stages)
    }
}
