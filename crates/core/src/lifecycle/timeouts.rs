//! The install settings: how long each stage may take before the host is marked failed, and
//! whether the virtual media are taken away once a host is installed. One JSON setting.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{Error, Result};
use bootsmith_model::stage::Stage;
use bootsmith_store::Store;

pub(crate) const KEY: &str = "install_settings";

/// The longest limit accepted: a week.
pub(crate) const MAX_MINUTES: u32 = 7 * 24 * 60;

/// Stage limits in minutes (0: no limit), and what happens after `installed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(default)]
pub struct Timeouts {
    /// From the deploy to the management controller fetching the media. Default 0 (no
    /// limit): servers are often started later, by hand.
    pub deployed_minutes: u32,
    /// From the media being fetched to the server booting or its installer fetching. Default 60.
    pub media_mounted_minutes: u32,
    /// From Bootsmith powering the server on to its installer's first fetch. Default 45.
    pub booting_minutes: u32,
    /// How long the installer may go without fetching anything before it calls back. Default 60.
    pub installing_minutes: u32,
    /// Once a host is installed, take its virtual media away so a reboot cannot reinstall it.
    /// IMC: the mappings are removed. UCS Manager and Central, per host: a profile from the
    /// group's `SVC_<code>` template is unbound from it with no vMedia policy (its other
    /// policies stay), one from your template that leaves vMedia open loses the policy
    /// Bootsmith set; where your template sets the vMedia policy, the host's own answer image
    /// (ESXi: its ISO) leaves svc instead. UCS applies a profile change under the profile's
    /// maintenance policy: under an immediate one the vMedia change may restart the server at
    /// once (use user-ack to choose when). Default false.
    pub unmount_after_install: bool,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts {
            deployed_minutes: 0,
            media_mounted_minutes: 60,
            booting_minutes: 45,
            installing_minutes: 60,
            unmount_after_install: false,
        }
    }
}

/// Body of `PUT /api/v2/settings/install`: the fields to change (the others keep their value).
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TimeoutsInput {
    /// Minutes, 0 to 10080 (0: no limit).
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 10080)]
    pub deployed_minutes: Option<f64>,
    /// Minutes, 0 to 10080.
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 10080)]
    pub media_mounted_minutes: Option<f64>,
    /// Minutes, 0 to 10080.
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 10080)]
    pub booting_minutes: Option<f64>,
    /// Minutes, 0 to 10080.
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 10080)]
    pub installing_minutes: Option<f64>,
    /// Take the virtual media away after `installed`.
    pub unmount_after_install: Option<bool>,
}

impl Timeouts {
    /// The stored settings, or the defaults.
    pub(crate) async fn load(store: &Store) -> Result<Timeouts> {
        match store.setting(KEY).await? {
            None => Ok(Timeouts::default()),
            Some(text) => serde_json::from_str(&text)
                .map_err(|e| Error::Corrupt(format!("the stored install settings: {e}"))),
        }
    }

    /// The limit of `stage` in minutes, if it has one.
    pub(crate) fn of(&self, stage: Stage) -> Option<u32> {
        let m = match stage {
            Stage::Deployed => self.deployed_minutes,
            Stage::MediaMounted => self.media_mounted_minutes,
            Stage::Booting => self.booting_minutes,
            Stage::Installing => self.installing_minutes,
            _ => 0,
        };
        (m > 0).then_some(m)
    }

    /// Why a host failed when `stage` ran out of its `minutes`.
    pub(crate) fn sentence(stage: Stage, minutes: u32) -> String {
        let what = match stage {
            Stage::Deployed => "its management controller did not fetch the install media",
            Stage::MediaMounted => {
                "the server did not start its installer after its media were fetched"
            }
            Stage::Booting => {
                "the installer did not fetch anything after the server was powered on"
            }
            Stage::Installing => "the installer stopped fetching and did not report back",
            _ => "nothing happened",
        };
        format!("timed out in stage {stage}: {what} within {minutes} minutes (limits: Settings, install timeouts)")
    }
}
