//! Power actions, on the right object for each kind of server: the service
//! profile's `lsPower` when the server has one (UCSM then keeps the desired
//! state across re-association), the server's own `adminPower` otherwise (on UCS
//! Central, which lets nobody write a server itself, through its operation object).

use crate::endpoint::{Endpoint, Kind};
use crate::error::{Error, Result};
use crate::servers::ComputeServer;
use crate::xml::Mo;

pub use bootsmith_model::power::PowerAction;

/// `lsPower.state` on UCSM.
fn profile_state(action: PowerAction) -> &'static str {
    match action {
        PowerAction::On => "up",
        PowerAction::Off => "down",
        PowerAction::HardReset => "hard-reset-immediate",
        PowerAction::SoftReset => "cycle-wait",
    }
}

/// `computeBlade/computeRackUnit.adminPower` on UCSM.
fn ucsm_admin(action: PowerAction) -> &'static str {
    match action {
        PowerAction::On => "admin-up",
        PowerAction::Off => "admin-down",
        PowerAction::HardReset => "hard-reset-immediate",
        PowerAction::SoftReset => "cycle-wait",
    }
}

/// `computeRackUnit.adminPower` on a standalone IMC (it has no graceful cycle).
fn imc_admin(action: PowerAction) -> &'static str {
    match action {
        PowerAction::On => "up",
        PowerAction::Off => "down",
        PowerAction::HardReset => "hard-reset-immediate",
        PowerAction::SoftReset => "cycle-immediate",
    }
}

impl Endpoint {
    /// Apply `action` to every server: one transaction on UCS Manager, one request per
    /// server on an IMC (see [`Endpoint::configure`]).
    pub async fn set_power(&self, servers: &[&ComputeServer], action: PowerAction) -> Result<()> {
        let objects = servers
            .iter()
            .map(|s| match self.kind() {
                Kind::Imc => Ok(Mo::new("computeRackUnit")
                    .with("dn", s.dn.as_str())
                    .with("adminPower", imc_admin(action))),
                Kind::Ucsm | Kind::Ucsc if !s.service_profile.is_empty() => {
                    if !s.service_profile.contains("/ls-") {
                        return Err(Error::Invalid(format!(
                            "{} is assigned to {}, which is not a service profile",
                            s.dn, s.service_profile
                        )));
                    }
                    Ok(Mo::new("lsPower")
                        .with("dn", format!("{}/power", s.service_profile))
                        .with("state", profile_state(action))
                        .with("status", "created,modified"))
                }
                Kind::Ucsc => Ok(Mo::new("computePhysicalOperation")
                    .with("dn", format!("{}/remote-oper", s.dn))
                    .with("adminPower", ucsm_admin(action))
                    .with("status", "created,modified")),
                Kind::Ucsm => {
                    let class = if s.dn.contains("/blade-") {
                        "computeBlade"
                    } else {
                        "computeRackUnit"
                    };
                    Ok(Mo::new(class)
                        .with("dn", s.dn.as_str())
                        .with("adminPower", ucsm_admin(action)))
                }
            })
            .collect::<Result<Vec<_>>>()?;
        self.configure(objects).await.map(|_| ())
    }
}
