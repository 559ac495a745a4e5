use serde_json::json;

use super::*;

fn hint(v: Value) -> InstallDiskHint {
    InstallDiskHint::parse(&v, "install_disk").unwrap_or_else(|p| panic!("{v}: {p:?}"))
}

/// The fields of the problems a hint is refused with.
fn refused(v: Value) -> Vec<String> {
    match InstallDiskHint::parse(&v, "install_disk") {
        Ok(h) => panic!("{v} was accepted as {h:?}"),
        Err(p) => p.into_iter().map(|p| p.field).collect(),
    }
}

const GB: u64 = 1_000_000_000;

/// A 480 GB Micron SSD in slot 1.
fn micron(slot: &str, serial: &str) -> DiskFacts {
    DiskFacts {
        size_bytes: Some(480_103_981_056),
        model: Some("Micron_5300_MTFDDAK480TDS".into()),
        vendor: Some("ATA".into()),
        serial: Some(serial.into()),
        wwn: Some("0x500A07512A1B2C3D".into()),
        rotational: Some(false),
        ..DiskFacts::local(slot)
    }
}

/// A 1.8 TB Seagate spinning disk.
fn seagate(slot: &str) -> DiskFacts {
    DiskFacts {
        size_bytes: Some(1_800_360_124_416),
        model: Some("ST1800MM0129".into()),
        vendor: Some("SEAGATE".into()),
        serial: Some("WBN0ABCD".into()),
        wwn: Some("5000c500b1c2d3e4".into()),
        rotational: Some(true),
        name: Some("/dev/sdb".into()),
        ..DiskFacts::local(slot)
    }
}

fn sized(slot: &str, bytes: u64, transport: Transport) -> DiskFacts {
    DiskFacts {
        size_bytes: Some(bytes),
        transport,
        ..DiskFacts::local(slot)
    }
}

fn server() -> Vec<DiskFacts> {
    vec![
        micron("1", "21033A4E"),
        micron("2", "21033A4F"),
        seagate("3"),
    ]
}

fn chosen(h: Option<&InstallDiskHint>, disks: &[DiskFacts]) -> String {
    resolve(h, disks)
        .map(|d| d.slot.clone())
        .unwrap_or_else(|r| panic!("{r}"))
}

#[test]
fn every_key_reads_back_as_written_and_trimmed() {
    let h = hint(json!({
        "serial": " 21033A4E ", "wwn": "0x500A07512A1B2C3D", "model": "Micron_5300_MTFDDAK480TDS",
        "vendor": "ATA", "size_gb": {"min": 400, "max": 500}, "name": "/dev/disk/by-path/pci-0000:3b:00.0-sas-phy0-lun-0",
        "rotational": false
    }));
    assert_eq!(h.serial(), Some("21033A4E"));
    assert_eq!(
        h.size_gb(),
        Some(SizeGb::Between {
            min: Some(400),
            max: Some(500)
        })
    );
    assert_eq!(h.rotational(), Some(false));
    assert_eq!(
        serde_json::to_value(&h).unwrap(),
        json!({
            "serial": "21033A4E", "wwn": "0x500A07512A1B2C3D", "model": "Micron_5300_MTFDDAK480TDS",
            "vendor": "ATA", "size_gb": {"min": 400, "max": 500}, "name": "/dev/disk/by-path/pci-0000:3b:00.0-sas-phy0-lun-0",
            "rotational": false
        })
    );
    // What is written reads back the same (the store keeps it as this JSON).
    let again: InstallDiskHint = serde_json::from_value(serde_json::to_value(&h).unwrap()).unwrap();
    assert_eq!(again, h);
    assert_eq!(
        serde_json::to_value(hint(json!({"size_gb": 447}))).unwrap(),
        json!({"size_gb": 447})
    );
    assert_eq!(
        serde_json::to_value(hint(json!({"size_gb": {"max": 100}}))).unwrap(),
        json!({"size_gb": {"max": 100}})
    );
    assert_eq!(
        hint(json!({"size_gb": 447.0})).size_gb(),
        Some(SizeGb::Exactly(447))
    );
}

#[test]
fn a_bad_hint_names_each_bad_key() {
    assert_eq!(refused(json!({})), ["install_disk"]);
    assert_eq!(refused(json!("sda")), ["install_disk"]);
    assert_eq!(refused(json!([{"serial": "x"}])), ["install_disk"]);
    assert_eq!(refused(json!({"serial": ""})), ["install_disk.serial"]);
    assert_eq!(refused(json!({"serial": "   "})), ["install_disk.serial"]);
    assert_eq!(refused(json!({"serial": null})), ["install_disk.serial"]);
    assert_eq!(refused(json!({"serial": 12345})), ["install_disk.serial"]);
    assert_eq!(refused(json!({"model": "a\u{7}b"})), ["install_disk.model"]);
    assert_eq!(
        refused(json!({"vendor": "x".repeat(129)})),
        ["install_disk.vendor"]
    );
    assert!(InstallDiskHint::parse(&json!({"vendor": "x".repeat(128)}), "f").is_ok());
    assert_eq!(
        refused(json!({"name": "/".repeat(256)})),
        ["install_disk.name"]
    );
    assert_eq!(
        refused(json!({"rotational": "yes"})),
        ["install_disk.rotational"]
    );
    assert_eq!(
        refused(json!({"colour": "blue", "serial": "x", "size": 10})),
        ["install_disk.colour", "install_disk.size"]
    );
    for wwn in [
        "5000c500",
        "0x5000c500a1b2c3dz",
        "0x5000c500a1b2c3d4a",
        "wwn-0x5000c500a1b2c3d4",
    ] {
        assert_eq!(refused(json!({"wwn": wwn})), ["install_disk.wwn"], "{wwn}");
    }
    for wwn in [
        "0x5000c500a1b2c3d4",
        "0X5000C500A1B2C3D4",
        "5000C500A1B2C3D4",
        "naa.600a098038303053453f463045727a35",
        "eui.0025388b71b0e13c",
    ] {
        assert_eq!(hint(json!({"wwn": wwn})).wwn(), Some(wwn), "{wwn}");
    }
    // Every problem of one hint at once, each on its key.
    assert_eq!(
        refused(json!({"serial": "", "wwn": "nope", "size_gb": 0, "rotational": 1})),
        [
            "install_disk.serial",
            "install_disk.wwn",
            "install_disk.size_gb",
            "install_disk.rotational"
        ]
    );
}

#[test]
fn sizes_are_positive_whole_gib_and_ranges_run_upwards() {
    for bad in [
        json!(0),
        json!(-5),
        json!(1.5),
        json!("447"),
        json!(true),
        json!(MAX_SIZE_GIB + 1),
        json!(1e30),
    ] {
        assert_eq!(
            refused(json!({"size_gb": bad})),
            ["install_disk.size_gb"],
            "{bad}"
        );
    }
    assert_eq!(refused(json!({"size_gb": {}})), ["install_disk.size_gb"]);
    assert_eq!(
        refused(json!({"size_gb": {"min": 0}})),
        ["install_disk.size_gb.min"]
    );
    assert_eq!(
        refused(json!({"size_gb": {"max": "9"}})),
        ["install_disk.size_gb.max"]
    );
    assert_eq!(
        refused(json!({"size_gb": {"min": null}})),
        ["install_disk.size_gb.min"]
    );
    assert_eq!(
        refused(json!({"size_gb": {"min": 10, "most": 20}})),
        ["install_disk.size_gb.most"]
    );
    let p = InstallDiskHint::parse(
        &json!({"size_gb": {"min": 500, "max": 400}}),
        "install_disk",
    )
    .unwrap_err();
    assert_eq!(p[0].field, "install_disk.size_gb");
    assert_eq!(p[0].message, "min (500 GiB) is more than max (400 GiB)");
    assert_eq!(
        hint(json!({"size_gb": {"min": 400, "max": 400}})).size_gb(),
        Some(SizeGb::Between {
            min: Some(400),
            max: Some(400)
        })
    );
}

#[test]
fn optional_reads_null_and_absence_as_no_hint() {
    let mut c = Check::default();
    assert_eq!(optional(&mut c, "install_disk", None), Some(None));
    assert_eq!(
        optional(&mut c, "install_disk", Some(&Value::Null)),
        Some(None)
    );
    assert!(c.problems.is_empty());
    assert_eq!(
        optional(&mut c, "install_disk", Some(&json!({"size_gb": -1}))),
        None
    );
    assert_eq!(c.problems[0].field, "install_disk.size_gb");
    let h = optional(&mut c, "x", Some(&json!({"serial": "A"})))
        .unwrap()
        .unwrap();
    assert_eq!(h.serial(), Some("A"));
}

#[test]
fn each_key_picks_its_disk() {
    let disks = server();
    for (h, slot) in [
        (json!({"serial": "21033A4F"}), "2"),
        (json!({"wwn": "0x5000c500b1c2d3e4"}), "3"),
        (json!({"model": "ST1800MM0129"}), "3"),
        (json!({"vendor": "seagate"}), "3"),
        (json!({"size_gb": 1676}), "3"),
        (json!({"size_gb": {"min": 1000}}), "3"),
        (json!({"name": "/dev/sdb"}), "3"),
        (json!({"name": "2"}), "2"),
        (json!({"rotational": true}), "3"),
        (
            json!({"model": "micron_5300_mtfddak480tds", "serial": "21033a4e"}),
            "1",
        ),
    ] {
        assert_eq!(chosen(Some(&hint(h.clone())), &disks), slot, "{h}");
    }
}

#[test]
fn text_compares_without_case_or_padding_but_whole() {
    let mut padded = micron("1", "21033A4E");
    padded.model = Some("  MICRON_5300   MTFDDAK480TDS ".into());
    padded.vendor = Some("ATA     ".into());
    assert!(hint(json!({"model": "micron_5300 mtfddak480tds", "vendor": "ata"})).matches(&padded));
    // Ironic compares model and vendor whole: a part of one is not a match.
    assert!(!hint(json!({"model": "Micron"})).matches(&padded));
    assert!(!hint(json!({"serial": "21033A4"})).matches(&padded));
}

#[test]
fn a_wwn_matches_however_either_side_writes_it() {
    let mut d = DiskFacts::local("1");
    for have in [
        "0x500A07512A1B2C3D",
        "500a07512a1b2c3d",
        "naa.500A07512A1B2C3D",
    ] {
        d.wwn = Some(have.into());
        for want in [
            "0x500a07512a1b2c3d",
            "0X500A07512A1B2C3D",
            "500A07512A1B2C3D",
        ] {
            assert!(hint(json!({"wwn": want})).matches(&d), "{want} ~ {have}");
        }
        assert!(!hint(json!({"wwn": "0x500a07512a1b2c3e"})).matches(&d));
    }
    d.wwn = Some("not reported".into());
    assert!(!hint(json!({"wwn": "0x500a07512a1b2c3d"})).matches(&d));
}

#[test]
fn size_counts_whole_gib_rounded_down() {
    // 480 GB is 447.1 GiB: size_gb 447 names it, 448 and 480 do not.
    let d = micron("1", "x");
    assert!(hint(json!({"size_gb": 447})).matches(&d));
    assert!(!hint(json!({"size_gb": 448})).matches(&d));
    assert!(!hint(json!({"size_gb": 480})).matches(&d));
    assert!(hint(json!({"size_gb": {"min": 447, "max": 447}})).matches(&d));
    assert!(hint(json!({"size_gb": {"max": 447}})).matches(&d));
    assert!(!hint(json!({"size_gb": {"min": 448}})).matches(&d));
    assert!(!hint(json!({"size_gb": {"max": 446}})).matches(&d));
}

#[test]
fn a_key_the_disk_does_not_report_never_matches() {
    let bare = DiskFacts {
        size_bytes: Some(100 * GB),
        ..DiskFacts::local("1")
    };
    for h in [
        json!({"serial": "x"}),
        json!({"wwn": "0x5000c500a1b2c3d4"}),
        json!({"model": "x"}),
        json!({"vendor": "x"}),
        json!({"name": "/dev/sda"}),
        json!({"rotational": false}),
        json!({"rotational": true}),
    ] {
        assert!(!hint(h.clone()).matches(&bare), "{h}");
    }
    let no_size = DiskFacts::local("2");
    assert!(!hint(json!({"size_gb": {"min": 1}})).matches(&no_size));
}

#[test]
fn a_hint_may_name_a_san_lun_or_a_usb_disk_but_never_the_answer_disk() {
    let lun = DiskFacts {
        wwn: Some("0x600a098038303053453f463045727a35".into()),
        multipath: true,
        ..sized("lun-0", 100 * GB, Transport::Remote)
    };
    let usb = DiskFacts {
        serial: Some("4C530001".into()),
        ..sized("usb-1", 32 * GB, Transport::Usb)
    };
    let answers = DiskFacts {
        serial: Some("4C530001".into()),
        model: Some("Virtual Floppy".into()),
        answer_disk: true,
        ..sized("vm-2", 1 << 20, Transport::Usb)
    };
    let disks = vec![lun, usb, answers];
    assert_eq!(
        chosen(
            Some(&hint(json!({"wwn": "0x600A098038303053453F463045727A35"}))),
            &disks
        ),
        "lun-0"
    );
    // The answer disk shares the USB stick's serial: only the stick is a match.
    assert_eq!(
        chosen(Some(&hint(json!({"serial": "4c530001"}))), &disks),
        "usb-1"
    );
    let r = resolve(Some(&hint(json!({"model": "virtual floppy"}))), &disks).unwrap_err();
    assert_eq!(r.code(), ErrorCode::InstallDiskNotFound);
    assert!(r.candidates().iter().all(|d| !d.answer_disk), "{r}");
}

#[test]
fn without_a_hint_the_smallest_local_disk_of_16_gib_or_more() {
    let disks = vec![
        DiskFacts {
            model: Some("SDHC".into()),
            ..sized("sd-1", 32 * GB, Transport::SdCard)
        },
        sized("usb-1", 64 * GB, Transport::Usb),
        sized("lun-0", 20 * GB, Transport::Remote),
        DiskFacts {
            multipath: true,
            ..sized("4", 30 * GB, Transport::Local)
        },
        DiskFacts {
            answer_disk: true,
            ..sized("vm", 17 * GB, Transport::Local)
        },
        sized("5", 8 * GIB, Transport::Local),
        DiskFacts::local("6"),
        micron("2", "B"),
        seagate("1"),
        micron("10", "C"),
    ];
    // The 8 GiB disk is too small, the others are not local (or multipath, or Bootsmith's own);
    // of the two 480 GB disks, slot 2 comes before slot 10.
    assert_eq!(chosen(None, &disks), "2");
    let exactly_16 = vec![
        sized("9", 16 * GIB, Transport::Local),
        sized("8", 16 * GIB - 1, Transport::Local),
    ];
    assert_eq!(chosen(None, &exactly_16), "9");
    let tie = vec![micron("Disk.Bay.10", "A"), micron("Disk.Bay.2", "B")];
    assert_eq!(chosen(None, &tie), "Disk.Bay.2");
}

#[test]
fn slots_sort_as_people_read_them() {
    let mut slots = vec!["10", "2", "Disk.Bay.10", "Disk.Bay.2", "1", "01a", "b", "A"];
    slots.sort_by(|a, b| slot_order(a, b));
    assert_eq!(
        slots,
        ["1", "01a", "2", "10", "A", "b", "Disk.Bay.2", "Disk.Bay.10"]
    );
}

#[test]
fn no_disk_for_the_default_rule_lists_the_disks_and_says_why() {
    let disks = vec![
        DiskFacts {
            vendor: Some("SanDisk".into()),
            model: Some("SDSDQAF3-032G".into()),
            ..sized("1", 32 * GB, Transport::SdCard)
        },
        DiskFacts {
            vendor: Some("Kingston".into()),
            model: Some("DataTraveler".into()),
            ..sized("2", 8 * GIB, Transport::Local)
        },
        DiskFacts {
            answer_disk: true,
            ..sized("3", 1 << 20, Transport::Usb)
        },
    ];
    let r = resolve(None, &disks).unwrap_err();
    assert_eq!(r.code(), ErrorCode::InstallDiskNotFound);
    assert_eq!(r.candidates().len(), 2, "the answer disk is no candidate");
    assert_eq!(
        r.to_string(),
        "No disk qualifies as the default install disk (the smallest local disk of at least 16 GiB, never a SAN LUN, USB disk, SD card or multipath disk). \
         The server's disks: 32 GB SanDisk SDSDQAF3-032G (SD card), slot 1; 8.6 GB Kingston DataTraveler, slot 2 (smaller than 16 GiB). \
         Give the host an install_disk hint naming the disk to install on."
    );
    let e = Error::from(r);
    assert_eq!(
        (e.kind().http_status(), e.code().as_str()),
        (409, "install_disk_not_found")
    );
    assert_eq!(
        resolve(None, &[]).unwrap_err().to_string(),
        "No disk qualifies as the default install disk (the smallest local disk of at least 16 GiB, never a SAN LUN, USB disk, SD card or multipath disk): the server reports no disks."
    );
}

#[test]
fn a_hint_that_matches_nothing_lists_the_candidates() {
    let r = resolve(
        Some(&hint(json!({"serial": "21033A4X", "size_gb": 447}))),
        &server(),
    )
    .unwrap_err();
    assert_eq!(
        r.to_string(),
        "No disk matches the install-disk hint (serial 21033A4X, size 447 GiB). \
         The server's disks: 480 GB (447 GiB) Micron_5300_MTFDDAK480TDS, S/N 21033A4E, slot 1; \
         480 GB (447 GiB) Micron_5300_MTFDDAK480TDS, S/N 21033A4F, slot 2; \
         1.8 TB (1676 GiB) SEAGATE ST1800MM0129, S/N WBN0ABCD, slot 3 (/dev/sdb). \
         Change the hint (the host's install_disk, or its server group's) to name one of them."
    );
    assert_eq!(r.candidates().len(), 3);
}

#[test]
fn a_hint_that_matches_several_disks_is_ambiguous_and_names_them() {
    let r = resolve(
        Some(&hint(
            json!({"model": "Micron_5300_MTFDDAK480TDS", "rotational": false}),
        )),
        &server(),
    )
    .unwrap_err();
    assert_eq!(r.code(), ErrorCode::InstallDiskAmbiguous);
    let slots: Vec<&str> = r.candidates().iter().map(|d| d.slot.as_str()).collect();
    assert_eq!(slots, ["1", "2"]);
    assert_eq!(
        r.to_string(),
        "2 disks match the install-disk hint (model Micron_5300_MTFDDAK480TDS, not rotational (SSD or NVMe)): \
         480 GB Micron_5300_MTFDDAK480TDS, S/N 21033A4E, slot 1; 480 GB Micron_5300_MTFDDAK480TDS, S/N 21033A4F, slot 2. \
         Add a key that tells them apart (a serial or a WWN names one disk)."
    );
    let e = Error::from(r);
    assert_eq!(
        (e.kind().http_status(), e.code().as_str()),
        (409, "install_disk_ambiguous")
    );
}

#[test]
fn a_disk_in_operators_words() {
    let d = DiskFacts {
        vendor: Some("Micron".into()),
        model: Some("5300".into()),
        serial: Some("21033A4E".into()),
        size_bytes: Some(480 * GB),
        ..DiskFacts::local("1")
    };
    assert_eq!(describe(&d), "480 GB Micron 5300, S/N 21033A4E, slot 1");
    // A vendor the model already names is said once; SATA's placeholder vendor not at all.
    let d2 = DiskFacts {
        vendor: Some("Samsung".into()),
        model: Some("SAMSUNG MZ7LH960HAJR".into()),
        size_bytes: Some(960_197_124_096),
        ..DiskFacts::local("Disk.Bay.0")
    };
    assert_eq!(
        describe(&d2),
        "960 GB SAMSUNG MZ7LH960HAJR, slot Disk.Bay.0"
    );
    let lun = DiskFacts {
        wwn: Some("0x600a0980383030534".into()),
        multipath: true,
        ..sized("lun-0", 107_374_182_400, Transport::Remote)
    };
    assert_eq!(
        describe(&lun),
        "107 GB SAN LUN, multipath, WWN 0x600a0980383030534, slot lun-0"
    );
    assert_eq!(
        describe(&sized("u", 16 * GB, Transport::Usb)),
        "16 GB USB disk, slot u"
    );
    assert_eq!(
        describe(&sized("sd", 32 * GB, Transport::SdCard)),
        "32 GB SD card, slot sd"
    );
    assert_eq!(
        describe(&DiskFacts::local("7")),
        "disk of unknown size, slot 7"
    );
    for (bytes, text) in [
        (1_920_383_410_176, "1.92 TB"),
        (4_000_787_030_016, "4 TB"),
        (7_681_501_126_656, "7.68 TB"),
        (999_000_000_000, "999 GB"),
        (8 * GIB, "8.6 GB"),
        (8 * GB, "8 GB"),
    ] {
        assert_eq!(size_text(bytes), text);
    }
}

#[test]
fn disk_facts_travel_as_json_with_unknowns_left_out() {
    let d = DiskFacts {
        transport: Transport::SdCard,
        ..DiskFacts::local("1")
    };
    assert_eq!(
        serde_json::to_value(&d).unwrap(),
        json!({"slot": "1", "kind": "drive", "transport": "sd_card", "multipath": false, "answer_disk": false})
    );
    // JSON written before disks had a kind reads as a drive.
    let back: DiskFacts =
        serde_json::from_value(json!({"slot": "1", "transport": "sd_card"})).unwrap();
    assert_eq!(back, d);
    let (vd, member) = mirror();
    assert_eq!(
        serde_json::to_value(&vd).unwrap()["raid"],
        json!("raid1"),
        "{vd:?}"
    );
    let json = serde_json::to_value(&member[0]).unwrap();
    assert_eq!(
        (&json["kind"], &json["member_of"]),
        (&json!("drive"), &json!("vd-0"))
    );
    let back: DiskFacts = serde_json::from_value(serde_json::to_value(&vd).unwrap()).unwrap();
    assert_eq!(back, vd);
}

/// A RAID 1 virtual drive `vd-0` over two 480 GB Microns (slots 1 and 2), and those two.
fn mirror() -> (DiskFacts, Vec<DiskFacts>) {
    let vd = DiskFacts {
        kind: DiskKind::VirtualDrive,
        raid: Some(RaidLevel::Raid1),
        name: Some("Boot".into()),
        size_bytes: Some(480_103_981_056),
        ..DiskFacts::local("vd-0")
    };
    let members = ["21033A4E", "21033A4F"]
        .iter()
        .enumerate()
        .map(|(i, serial)| DiskFacts {
            member_of: Some("vd-0".into()),
            ..micron(&(i + 1).to_string(), serial)
        })
        .collect();
    (vd, members)
}

#[test]
fn neither_a_hint_nor_the_default_takes_a_virtual_drives_member() {
    let (vd, members) = mirror();
    let mut disks = members.clone();
    disks.push(vd.clone());
    // The members are as small as the virtual drive and sort first: only the membership keeps
    // the default off them.
    assert_eq!(chosen(None, &disks), "vd-0");
    assert_eq!(members[0].not_default(), Some(PassedOver::Member));
    assert_eq!(chosen(Some(&hint(json!({"name": "vd-0"}))), &disks), "vd-0");
    // Every 480 GB disk: the two members fit the keys, yet only the virtual drive is taken.
    assert_eq!(chosen(Some(&hint(json!({"size_gb": 447}))), &disks), "vd-0");

    let r = resolve(Some(&hint(json!({"serial": "21033a4f"}))), &disks).unwrap_err();
    assert_eq!(r.code(), ErrorCode::InstallDiskNotFound);
    assert_eq!(
        r.to_string(),
        "No disk matches the install-disk hint (serial 21033a4f): slot 2 fits it but is a member of virtual drive vd-0, which the installed system sees in its place. \
         The server's disks: 480 GB Micron_5300_MTFDDAK480TDS, S/N 21033A4E, slot 1, member of virtual drive vd-0; \
         480 GB Micron_5300_MTFDDAK480TDS, S/N 21033A4F, slot 2, member of virtual drive vd-0; \
         RAID 1 virtual drive vd-0 (480 GB, Boot). \
         Change the hint (the host's install_disk, or its server group's) to name one of them."
    );

    // Only members and a SAN LUN: nothing for the default rule, each said as what it is.
    let lun = sized(
        "LUN 0 via 50:06:01:60:3e:a0:12:34 (primary)",
        0,
        Transport::Remote,
    );
    let only = vec![
        members[0].clone(),
        DiskFacts {
            size_bytes: None,
            ..lun
        },
    ];
    let r = resolve(None, &only).unwrap_err();
    assert_eq!(r.code(), ErrorCode::InstallDiskNotFound);
    assert!(
        r.to_string().contains(
            "S/N 21033A4E, slot 1, member of virtual drive vd-0; SAN LUN of unknown size, slot LUN 0 via 50:06:01:60:3e:a0:12:34 (primary)."
        ),
        "{r}"
    );
}

#[test]
fn a_virtual_drive_in_operators_words() {
    let (vd, _) = mirror();
    assert_eq!(describe(&vd), "RAID 1 virtual drive vd-0 (480 GB, Boot)");
    assert_eq!(
        describe_sized(&vd, true),
        "RAID 1 virtual drive vd-0 (480 GB, 447 GiB, Boot)"
    );
    let bare = DiskFacts {
        kind: DiskKind::VirtualDrive,
        ..DiskFacts::local("0")
    };
    assert_eq!(describe(&bare), "virtual drive 0 (size unknown)");
    for (word, level) in [
        ("1", Some(RaidLevel::Raid1)),
        ("RAID1", Some(RaidLevel::Raid1)),
        ("RAID 10", Some(RaidLevel::Raid10)),
        (" raid60 ", Some(RaidLevel::Raid60)),
        ("0", Some(RaidLevel::Raid0)),
        ("RAID1E", None),
        ("", None),
        ("mirror", None),
    ] {
        assert_eq!(RaidLevel::parse(word), level, "{word:?}");
    }
}

#[test]
fn a_hint_is_written_with_its_keys_in_order() {
    let h = hint(
        json!({"rotational": true, "name": "/dev/sda", "size_gb": {"max": 9, "min": 1}, "vendor": "V", "model": "M", "wwn": "0x5000c500a1b2c3d4", "serial": "S"}),
    );
    assert_eq!(
        serde_json::to_string(&h).unwrap(),
        r#"{"serial":"S","wwn":"0x5000c500a1b2c3d4","model":"M","vendor":"V","size_gb":{"min":1,"max":9},"name":"/dev/sda","rotational":true}"#
    );
}
