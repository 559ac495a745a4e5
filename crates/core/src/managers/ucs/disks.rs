//! A UCS server's disks as inventory and the plan see them: its controllers' drives (each
//! naming the virtual drive it is a member of), the RAID virtual drives the installed system
//! sees in their place, and the LUNs its service profile boots from over a SAN.

use bootsmith_model::install_disk::{
    virtual_drive_words, DiskFacts, DiskKind, RaidLevel, Transport,
};
use bootsmith_ucs::{LocalDisk, SanLun, VirtualDrive};

use crate::managers::Disk;

/// Every listed disk of every server: the drives, then the virtual drives, then the SAN boot
/// LUNs.
pub(super) fn listed(drives: Vec<LocalDisk>, vds: &[VirtualDrive], luns: &[SanLun]) -> Vec<Disk> {
    let drives = drives.into_iter().map(|d| {
        let vd = vds.iter().find(|v| v.members.contains(&d.dn));
        Disk {
            facts: drive_facts(&d, vd),
            dn: d.dn,
            server_dn: d.server_dn,
            id: d.id,
            state: d.state,
            model: d.model,
            size: d.size,
        }
    });
    drives
        .chain(vds.iter().map(virtual_drive))
        .chain(luns.iter().map(san_lun))
        .collect()
}

/// What a hint matches on of a UCS drive or SD card: UCS has no WWN for a local disk, and
/// counts sizes in MiB.
pub(super) fn drive_facts(d: &LocalDisk, member_of: Option<&VirtualDrive>) -> DiskFacts {
    let text = |s: &str| (!s.is_empty() && s != "unspecified").then(|| s.to_owned());
    DiskFacts {
        size_bytes: d.size_bytes(),
        model: text(&d.model),
        vendor: text(&d.vendor),
        serial: text(&d.serial),
        rotational: d.rotational(),
        transport: if d.sd_card {
            Transport::SdCard
        } else {
            Transport::Local
        },
        member_of: member_of.map(slot_of),
        ..DiskFacts::local(d.id.clone())
    }
}

/// A virtual drive's slot: its rn (`vd-0`), which its members' `member_of` names.
fn slot_of(v: &VirtualDrive) -> String {
    format!("vd-{}", v.id)
}

fn virtual_drive(v: &VirtualDrive) -> Disk {
    let slot = slot_of(v);
    let raid = raid_level(&v.raid);
    Disk {
        dn: v.dn.clone(),
        server_dn: v.server_dn.clone(),
        id: slot.clone(),
        state: v.state.clone(),
        // A virtual drive has no model of its own: its level is what tells it apart.
        model: virtual_drive_words(raid),
        size: v.size.clone(),
        facts: DiskFacts {
            kind: DiskKind::VirtualDrive,
            raid,
            name: (!v.name.is_empty()).then(|| v.name.clone()),
            size_bytes: v.size_bytes(),
            ..DiskFacts::local(slot)
        },
    }
}

/// UCS Manager's RAID layout words (`type`), else an IMC's level number (`raidLevel`).
fn raid_level(word: &str) -> Option<RaidLevel> {
    Some(match word {
        // `simple` is a virtual drive of one disk, striped over nothing.
        "stripe" | "simple" => RaidLevel::Raid0,
        "mirror" => RaidLevel::Raid1,
        "stripe-parity" => RaidLevel::Raid5,
        "stripe-dual-parity" => RaidLevel::Raid6,
        "mirror-stripe" => RaidLevel::Raid10,
        "stripe-parity-stripe" => RaidLevel::Raid50,
        "stripe-dual-parity-stripe" => RaidLevel::Raid60,
        other => return RaidLevel::parse(other),
    })
}

/// A SAN boot path as a disk: UCS knows the target and the LUN's number, not its size or WWN.
fn san_lun(l: &SanLun) -> Disk {
    let lun = l.lun.map_or("LUN".to_owned(), |n| format!("LUN {n}"));
    let slot = format!("{lun} via {} ({})", l.target, l.image);
    Disk {
        dn: l.dn.clone(),
        server_dn: l.server_dn.clone(),
        id: slot.clone(),
        // The manager reports no state for a LUN it only names in a boot policy.
        state: String::new(),
        model: String::new(),
        size: String::new(),
        facts: DiskFacts {
            transport: Transport::Remote,
            ..DiskFacts::local(slot)
        },
    }
}

/// The drive a reset names: only its DN matters to it.
pub(super) fn local_disk(d: &Disk) -> LocalDisk {
    LocalDisk {
        dn: d.dn.clone(),
        server_dn: d.server_dn.clone(),
        id: d.id.clone(),
        state: d.state.clone(),
        model: d.model.clone(),
        size: d.size.clone(),
        // A reset names the disk by its DN; what it is does not matter to it.
        ..LocalDisk::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ucs_and_imc_raid_words_name_their_level() {
        for (word, level) in [
            ("mirror", Some(RaidLevel::Raid1)),
            ("simple", Some(RaidLevel::Raid0)),
            ("mirror-stripe", Some(RaidLevel::Raid10)),
            ("stripe-dual-parity-stripe", Some(RaidLevel::Raid60)),
            ("1", Some(RaidLevel::Raid1)),
            ("RAID 5", Some(RaidLevel::Raid5)),
            ("unspecified", None),
            ("raid", None),
        ] {
            assert_eq!(raid_level(word), level, "{word}");
        }
    }

    #[test]
    fn a_member_names_its_virtual_drive_and_a_lun_is_remote() {
        let ctl = "sys/rack-unit-2/board/storage-SAS-1";
        let drive = |id: &str| LocalDisk {
            dn: format!("{ctl}/disk-{id}"),
            server_dn: "sys/rack-unit-2".into(),
            id: id.into(),
            size: "457862".into(),
            ..LocalDisk::default()
        };
        let vd = VirtualDrive {
            dn: format!("{ctl}/vd-0"),
            server_dn: "sys/rack-unit-2".into(),
            id: "0".into(),
            raid: "mirror".into(),
            size: "457862".into(),
            members: vec![format!("{ctl}/disk-1")],
            ..VirtualDrive::default()
        };
        let lun = SanLun {
            server_dn: "sys/rack-unit-2".into(),
            lun: Some(0),
            target: "50:06:01:60:3e:a0:12:34".into(),
            image: "primary".into(),
            ..SanLun::default()
        };
        let got = listed(vec![drive("1"), drive("2")], &[vd], &[lun]);
        let facts: Vec<_> = got
            .iter()
            .map(|d| {
                (
                    d.facts.slot.as_str(),
                    d.facts.kind,
                    d.facts.member_of.as_deref(),
                    d.facts.transport,
                )
            })
            .collect();
        assert_eq!(
            facts,
            [
                ("1", DiskKind::Drive, Some("vd-0"), Transport::Local),
                ("2", DiskKind::Drive, None, Transport::Local),
                ("vd-0", DiskKind::VirtualDrive, None, Transport::Local),
                (
                    "LUN 0 via 50:06:01:60:3e:a0:12:34 (primary)",
                    DiskKind::Drive,
                    None,
                    Transport::Remote
                ),
            ]
        );
        assert_eq!(got[2].model, "RAID 1 virtual drive");
        assert_eq!(got[2].facts.raid, Some(RaidLevel::Raid1));
    }
}
