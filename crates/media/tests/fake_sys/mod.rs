//! A machine's disks and NICs as sysfs and /dev show them, laid out in a directory for the
//! installer-side programs (`disk.script`, a kickstart's `%pre`) to run against.
#![allow(dead_code)]

use std::os::unix::fs::symlink;
use std::path::Path;

use bootsmith_model::install_disk::{DiskFacts, Transport, GIB};
use serde_json::{json, Value};

/// A disk as the test lays it out: its facts, and whether the OS sees it as the answer disk
/// or a member of a multipath device.
pub fn disk(name: &str, gib: u64, extra: Value) -> DiskFacts {
    let mut d = DiskFacts::local(name);
    d.name = Some(format!("/dev/{name}"));
    d.size_bytes = Some(gib * GIB + 4096);
    d.rotational = Some(false);
    let get = |k: &str| extra.get(k).and_then(Value::as_str).map(str::to_owned);
    d.serial = get("serial");
    d.wwn = get("wwn");
    d.model = get("model");
    d.vendor = get("vendor");
    if let Some(r) = extra.get("rotational").and_then(Value::as_bool) {
        d.rotational = Some(r);
    }
    d.transport = match extra.get("transport").and_then(Value::as_str) {
        Some("usb") => Transport::Usb,
        Some("remote") => Transport::Remote,
        Some("sd_card") => Transport::SdCard,
        _ => Transport::Local,
    };
    d.multipath = extra.get("multipath") == Some(&json!(true));
    d.answer_disk = extra.get("answer") == Some(&json!(true));
    d
}

/// Lay `disks` out under `root` as sysfs and /dev, with a `findfs` that finds the answer disk.
pub fn lay_out(root: &Path, disks: &[DiskFacts], nics: &[(&str, &str)]) {
    let sys = root.join("sys");
    std::fs::create_dir_all(sys.join("block")).unwrap();
    std::fs::create_dir_all(root.join("dev/disk/by-path")).unwrap();
    std::fs::create_dir_all(root.join("bin")).unwrap();
    let mut answer = String::new();
    for (i, d) in disks.iter().enumerate() {
        let name = &d.slot;
        let parent = match d.transport {
            Transport::Usb => format!("devices/pci0000:00/0000:00:14.0/usb2/2-{i}/2-{i}:1.0/host{i}/target{i}:0:0/{i}:0:0:0/block"),
            Transport::Remote => format!("devices/pci0000:00/0000:00:03.0/host{i}/rport-{i}:0-1/target{i}:0:0/{i}:0:0:0/block"),
            Transport::SdCard => format!("devices/pci0000:00/0000:00:1c.0/mmc_host/mmc{i}/mmc{i}:0001/block"),
            Transport::Local if name.starts_with("nvme") => format!("devices/pci0000:00/0000:00:1d.0/nvme/nvme{i}"),
            Transport::Local => format!("devices/pci0000:00/0000:00:1f.2/ata{i}/host{i}/target{i}:0:0/{i}:0:0:0/block"),
        };
        let dir = sys.join(&parent).join(name);
        std::fs::create_dir_all(dir.join("queue")).unwrap();
        std::fs::create_dir_all(dir.join("device")).unwrap();
        std::fs::create_dir_all(dir.join("holders")).unwrap();
        symlink(&dir, sys.join("block").join(name)).unwrap();
        let w = |rel: &str, text: &[u8]| std::fs::write(dir.join(rel), text).unwrap();
        w(
            "size",
            format!("{}\n", d.size_bytes.unwrap() / 512).as_bytes(),
        );
        w(
            "queue/rotational",
            if d.rotational == Some(true) {
                b"1\n"
            } else {
                b"0\n"
            },
        );
        w("removable", b"0\n");
        if let Some(m) = &d.model {
            // SCSI pads model and vendor with spaces.
            w("device/model", format!("{m:<16}\n").as_bytes());
        }
        if let Some(v) = &d.vendor {
            w("device/vendor", format!("{v:<8}\n").as_bytes());
        }
        if let Some(s) = &d.serial {
            if name.starts_with("nvme") || name.starts_with("mmcblk") {
                w("device/serial", format!("{s}\n").as_bytes());
            } else {
                // VPD page 0x80: qualifier, page code, length, then the serial.
                let mut page = vec![0, 0x80, 0, s.len() as u8];
                page.extend_from_slice(s.as_bytes());
                w("device/vpd_pg80", &page);
            }
        }
        if let Some(wwn) = &d.wwn {
            let digits = bootsmith_model::install_disk::wwn_digits(wwn).unwrap();
            w("device/wwid", format!("naa.{digits}\n").as_bytes());
        }
        if d.multipath {
            let dm = sys.join(format!("block/dm-{i}"));
            std::fs::create_dir_all(dm.join("dm")).unwrap();
            std::fs::write(dm.join("dm/uuid"), "mpath-3600a0980383030\n").unwrap();
            std::fs::write(dir.join(format!("holders/dm-{i}")), "").unwrap();
        }
        if d.answer_disk {
            answer = format!("/dev/{name}");
        }
        std::fs::write(root.join("dev").join(name), "").unwrap();
        symlink(
            format!("../../{name}"),
            root.join(format!("dev/disk/by-path/pci-0000:00:1f.2-ata-{i}")),
        )
        .unwrap();
    }
    for (name, mac) in nics {
        let dir = sys.join("class/net").join(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("address"), format!("{mac}\n")).unwrap();
    }
    let findfs = root.join("bin/findfs");
    std::fs::write(
        &findfs,
        format!("#!/bin/sh\n[ \"$1\" = LABEL=OEMDRV ] && [ -n '{answer}' ] && echo '{answer}' && exit 0\nexit 1\n"),
    )
    .unwrap();
    std::fs::set_permissions(&findfs, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
}
