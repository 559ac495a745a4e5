//! The kinds of manager a server group can name (its `type`), and the errors every kind
//! shares: a kind without a driver yet, a group whose password is not known yet.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{Error, Problem};
use crate::types::Name;
use crate::ErrorCode;

/// Kind of manager behind a group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum GroupKind {
    /// UCS Manager domain (blades and managed rack servers).
    Ucsm,
    /// Standalone rack server behind its own Cisco IMC.
    Imc,
    /// UCS Central: several UCS domains under one manager.
    Ucsc,
    /// Redfish BMCs of any vendor (one server each), one or several per group.
    Redfish,
}

impl GroupKind {
    /// Read a group type as clients write it.
    pub fn parse(s: &str) -> Result<Self, String> {
        match s {
            "ucsm" => Ok(GroupKind::Ucsm),
            "imc" => Ok(GroupKind::Imc),
            "ucsc" => Ok(GroupKind::Ucsc),
            "redfish" => Ok(GroupKind::Redfish),
            _ => Err(format!(
                "'{s}' is not a server group type: use ucsm (UCS Manager), ucsc (UCS Central), imc (standalone IMC) or redfish (any vendor's BMC)"
            )),
        }
    }

    /// The type as clients write it.
    pub fn as_str(self) -> &'static str {
        match self {
            GroupKind::Ucsm => "ucsm",
            GroupKind::Imc => "imc",
            GroupKind::Ucsc => "ucsc",
            GroupKind::Redfish => "redfish",
        }
    }

    /// The manager's name for people.
    pub fn title(self) -> &'static str {
        match self {
            GroupKind::Ucsm => "UCS Manager domain",
            GroupKind::Imc => "standalone Cisco IMC",
            GroupKind::Ucsc => "UCS Central",
            GroupKind::Redfish => "Redfish BMC group",
        }
    }

    /// The error for anything a group of a type without a driver yet is asked to do.
    pub fn not_supported_yet(self, group: &Name) -> Error {
        Error::not_implemented(format!(
            "Working with {} server groups (type {}, here '{group}')",
            self.title(),
            self.as_str()
        ))
    }
}

/// The error of every action on a group whose password is not known yet.
pub fn password_missing(group: &str) -> Error {
    Error::Unprocessable {
        code: ErrorCode::PasswordMissing,
        message: format!(
            "Server group '{group}' has no password yet (it was imported from KUBAM without the key file that decrypts it): enter its password first (edit the server group)"
        ),
        details: vec![Problem::field("credentials.password", "is missing")],
    }
}
