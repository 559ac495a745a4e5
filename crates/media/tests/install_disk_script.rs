//! The program that picks the install disk on the installer (`disk.script`) chooses what the
//! deploy plan chose (`bootsmith_model::install_disk::resolve`): the same disk, or a refusal
//! of the same kind. Each case is a sysfs tree shaped like the kernel's (SATA and SAS disks
//! with their VPD serial page, NVMe with its controller's serial, USB, a Fibre Channel LUN,
//! an SD card, multipath members, the answer disk), run under bash (Anaconda's shell) and
//! dash (Subiquity's). Busybox, the fixture installer's shell, runs it in the QEMU proof.

mod fake_sys;

use std::process::Command;

use bootsmith_media::install_disk::DiskVars;
use bootsmith_media::templates::Family;
use bootsmith_model::install_disk::{resolve, DiskFacts, DiskRefusal, InstallDiskHint};
use fake_sys::{disk, lay_out};
use serde_json::{json, Value};

/// Run the program for `hint` on `disks` under `shell`: (exit code, stdout, stderr).
fn run(shell: &str, hint: Option<&InstallDiskHint>, disks: &[DiskFacts]) -> (i32, String, String) {
    let dir = tempfile::tempdir().unwrap();
    lay_out(dir.path(), disks, &[]);
    let vars = DiskVars::new(hint, Family::Rhel);
    let script = dir.path().join("pick.sh");
    std::fs::write(&script, &vars.script).unwrap();
    let path = format!(
        "{}:{}",
        dir.path().join("bin").display(),
        std::env::var("PATH").unwrap()
    );
    let o = Command::new(shell)
        .arg(&script)
        .env("BOOTSMITH_SYS", dir.path().join("sys"))
        .env("BOOTSMITH_DEV", dir.path().join("dev"))
        .env("PATH", path)
        .output()
        .unwrap_or_else(|e| panic!("{shell} runs: {e}"));
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).trim().to_owned(),
        String::from_utf8_lossy(&o.stderr).trim().to_owned(),
    )
}

/// The program agrees with `resolve` on `disks` for `hint`, under every shell.
fn agrees(hint: Option<Value>, disks: &[DiskFacts]) {
    let hint = hint.map(|v| InstallDiskHint::parse(&v, "install_disk").unwrap());
    let want = resolve(hint.as_ref(), disks);
    for shell in ["bash", "dash"] {
        let (code, out, err) = run(shell, hint.as_ref(), disks);
        let case = format!("{shell}, hint {hint:?}, disks {disks:#?}");
        match &want {
            Ok(d) => {
                let mut lines = out.lines();
                let (name, words) = (lines.next(), lines.next().unwrap_or_default());
                assert_eq!(
                    (code, name),
                    (0, Some(d.slot.as_str())),
                    "{case}\nstderr: {err}"
                );
                assert!(
                    words.starts_with(&format!("{} (", d.slot)) && words.contains(" GiB"),
                    "{case}: the second line says which disk in words: {out}"
                );
            }
            Err(r) => {
                assert_eq!(code, 1, "{case}\nstdout: {out}");
                assert!(
                    out.is_empty(),
                    "{case}: a refusal names no disk on stdout: {out}"
                );
                let words = match r {
                    DiskRefusal::NotFound { hint: Some(_), .. } => {
                        "No disk matches the install-disk hint"
                    }
                    DiskRefusal::NotFound { hint: None, .. } => {
                        "No disk qualifies as the default install disk"
                    }
                    DiskRefusal::Ambiguous { candidates, .. } => {
                        &format!("{} disks match the install-disk hint", candidates.len())
                    }
                };
                assert!(err.contains(words), "{case}\nwanted {words:?}, said: {err}");
            }
        }
    }
}

fn micron(name: &str, serial: &str) -> DiskFacts {
    disk(
        name,
        447,
        json!({"serial": serial, "model": "MTFDDAK480TDS", "vendor": "MICRON", "wwn": format!("0x500a07512{:07x}", serial.bytes().map(u64::from).sum::<u64>())}),
    )
}

#[test]
fn the_default_is_the_smallest_local_disk_of_16_gib_never_usb_san_sd_multipath_or_answer() {
    let server = [
        disk("sda", 0, json!({"answer": true})),
        disk(
            "sdb",
            931,
            json!({"rotational": true, "vendor": "SEAGATE", "model": "ST1000NX0423", "serial": "ZBS1A2B3"}),
        ),
        micron("sdc", "21033A4E"),
        disk("sdd", 14, json!({"transport": "usb", "model": "Cruzer"})),
        disk(
            "sde",
            100,
            json!({"transport": "remote", "wwn": "naa.600a098038303053453f463045727a31"}),
        ),
        disk(
            "mmcblk0",
            29,
            json!({"transport": "sd_card", "serial": "0x1a2b3c4d"}),
        ),
        disk("sdf", 20, json!({"multipath": true})),
    ];
    agrees(None, &server);
    // Two of one size: the lower name.
    agrees(
        None,
        &[disk("sdc", 447, json!({})), disk("sdb", 447, json!({}))],
    );
    // Nothing qualifies: SAN, USB, SD card and a small disk only.
    agrees(
        None,
        &[
            server[3].clone(),
            server[4].clone(),
            server[5].clone(),
            disk("sdz", 15, json!({})),
        ],
    );
    agrees(None, &[]);
}

#[test]
fn each_hint_key_names_its_disk_as_the_plan_does() {
    let server = [
        disk("sda", 0, json!({"answer": true, "serial": "OEMDRV1"})),
        micron("sdb", "21033A4E"),
        micron("sdc", "21033A4F"),
        disk(
            "sdd",
            931,
            json!({"rotational": true, "vendor": "SEAGATE", "model": "ST1000NX0423", "serial": "ZBS1A2B3", "wwn": "0x5000c500a1b2c3d4"}),
        ),
        disk(
            "nvme0n1",
            1788,
            json!({"model": "Dell Ent NVMe AGN MU U.2 1.92TB", "serial": "S6CKNA0R1"}),
        ),
        disk(
            "sde",
            100,
            json!({"transport": "remote", "wwn": "naa.600a098038303053453f463045727a31"}),
        ),
    ];
    for hint in [
        json!({"serial": "21033a4f"}),
        json!({"serial": "  ZBS1A2B3 "}),
        json!({"wwn": "0x5000C500A1B2C3D4"}),
        json!({"wwn": "naa.600a098038303053453f463045727a31"}),
        json!({"model": "dell ent nvme   agn mu u.2 1.92tb"}),
        json!({"vendor": "SEAGATE"}),
        json!({"size_gb": 1788}),
        json!({"size_gb": {"min": 900, "max": 1000}}),
        json!({"size_gb": {"max": 200}}),
        json!({"rotational": true}),
        json!({"name": "/dev/nvme0n1"}),
        json!({"vendor": "MICRON", "serial": "21033A4E"}),
        // Ambiguous: two Microns; several SSDs.
        json!({"model": "MTFDDAK480TDS"}),
        json!({"rotational": false}),
        // Not found: the answer disk is never a match, nor an unknown serial.
        json!({"serial": "OEMDRV1"}),
        json!({"serial": "NOPE"}),
        json!({"size_gb": {"min": 2000}}),
    ] {
        agrees(Some(hint), &server);
    }
}

#[test]
fn a_by_path_link_names_the_disk_it_points_at() {
    let server = [micron("sda", "A1"), micron("sdb", "B2")];
    let hint = InstallDiskHint::parse(
        &json!({"name": "/dev/disk/by-path/pci-0000:00:1f.2-ata-1"}),
        "install_disk",
    )
    .unwrap();
    let (code, out, err) = run("bash", Some(&hint), &server);
    assert_eq!((code, out.lines().next()), (0, Some("sdb")), "{err}");
    assert!(
        out.contains("sdb (447 GiB, MICRON MTFDDAK480TDS, S/N B2, WWN 0x"),
        "{out}"
    );
}

#[test]
fn a_refusal_lists_every_disk_the_installer_saw() {
    let server = [
        micron("sdb", "21033A4E"),
        disk("sdc", 931, json!({"rotational": true, "serial": "ZBS1"})),
    ];
    let hint = InstallDiskHint::parse(&json!({"serial": "X"}), "install_disk").unwrap();
    let (code, _, err) = run("dash", Some(&hint), &server);
    assert_eq!(code, 1);
    assert!(
        err.contains("sdb (447 GiB, MICRON MTFDDAK480TDS, S/N 21033A4E, WWN 0x"),
        "{err}"
    );
    assert!(err.contains("sdc (931 GiB, S/N ZBS1)"), "{err}");
    assert!(err.contains("Change the hint"), "{err}");
}

/// Random servers and hints, from small pools so that ties, ambiguity and misses are common.
#[test]
fn random_servers_and_hints_agree() {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let serials = ["S1", "S2", "S3", "S4"];
    let models = ["MTFDDAK480TDS", "ST1000NX0423", "PM1733"];
    let sizes = [8, 16, 447, 931];
    let kinds = ["local", "local", "local", "usb", "remote", "local"];
    for _ in 0..60 {
        let n = 1 + next(4) as usize;
        let disks: Vec<DiskFacts> = (0..n)
            .map(|i| {
                let mut extra = json!({
                    "rotational": next(2) == 0,
                    "transport": kinds[next(kinds.len() as u64) as usize],
                    "multipath": next(8) == 0,
                    // The installer finds one answer disk, by its label.
                    "answer": i == 0 && next(5) == 0,
                });
                if next(4) != 0 {
                    extra["serial"] = json!(serials[next(4) as usize]);
                }
                if next(3) != 0 {
                    extra["model"] = json!(models[next(3) as usize]);
                }
                let name = format!("sd{}", (b'a' + i as u8) as char);
                disk(&name, sizes[next(4) as usize], extra)
            })
            .collect();
        let hint = match next(6) {
            0 => None,
            1 => Some(json!({"serial": serials[next(4) as usize]})),
            2 => Some(json!({"model": models[next(3) as usize]})),
            3 => Some(json!({"size_gb": {"min": sizes[next(4) as usize]}})),
            4 => Some(json!({"rotational": next(2) == 0, "size_gb": {"max": 500}})),
            _ => Some(json!({"name": format!("/dev/sd{}", (b'a' + next(4) as u8) as char)})),
        };
        agrees(hint, &disks);
    }
}
