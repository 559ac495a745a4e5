//! What a listed disk is: a physical drive, or a virtual drive a RAID controller builds from
//! member drives (the installed system sees the virtual drive, never its members), and a
//! virtual drive's RAID level.

use std::fmt;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Whether a listed disk is a drive itself or a virtual drive its controller presents.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DiskKind {
    /// A physical drive, a SAN LUN, an SD card or a USB disk: what the manager lists as one.
    #[default]
    Drive,
    /// A RAID virtual drive (a Redfish Volume): one disk to the installer, built from the
    /// drives that name it in `member_of`.
    VirtualDrive,
}

/// A virtual drive's RAID level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RaidLevel {
    /// Striped, no redundancy (also a single-drive virtual drive).
    Raid0,
    /// Mirrored.
    Raid1,
    /// Striped with parity.
    Raid5,
    /// Striped with two parities.
    Raid6,
    /// Mirrored pairs, striped.
    Raid10,
    /// RAID 5 sets, striped.
    Raid50,
    /// RAID 6 sets, striped.
    Raid60,
}

impl RaidLevel {
    /// The level a manager's number names, however it writes it (`1`, `RAID1`, `RAID 1`,
    /// `raid10`); none for a level outside this set or no level at all.
    pub fn parse(word: &str) -> Option<RaidLevel> {
        let upper = word.trim().to_ascii_uppercase();
        let number = upper.strip_prefix("RAID").unwrap_or(&upper).trim();
        Some(match number {
            "0" => RaidLevel::Raid0,
            "1" => RaidLevel::Raid1,
            "5" => RaidLevel::Raid5,
            "6" => RaidLevel::Raid6,
            "10" | "1+0" => RaidLevel::Raid10,
            "50" => RaidLevel::Raid50,
            "60" => RaidLevel::Raid60,
            _ => return None,
        })
    }
}

/// `RAID 1`, as operators say it.
impl fmt::Display for RaidLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = match self {
            RaidLevel::Raid0 => 0,
            RaidLevel::Raid1 => 1,
            RaidLevel::Raid5 => 5,
            RaidLevel::Raid6 => 6,
            RaidLevel::Raid10 => 10,
            RaidLevel::Raid50 => 50,
            RaidLevel::Raid60 => 60,
        };
        write!(f, "RAID {n}")
    }
}
