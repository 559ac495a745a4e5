//! ESXi's ks.cfg keeps to the plan's disk and carries the host's network (issue 29).
//!
//! The `%pre` is run as rendered, under dash and (where installed) busybox, against a fake
//! `localcli` on PATH that prints `localcli storage core device list` in ESXi's own format
//! (field names, order and padding as ESXi 7/8 print them), and it must choose what the
//! plan's rule (`bootsmith_model::install_disk::resolve`) chooses on the same disks as ESXi
//! shows them: a SATA disk named `t10.ATA_____<model>___<serial>` carries its serial, a disk
//! ESXi names by its WWN (`naa.`) does not. The file it writes holds one `install` line,
//! `--overwritevmfs` only with `--disk=` of that disk; a refusal writes a disk that does not
//! exist (the installer stops) and reports to the failed callback.

mod answer_vars;

use std::path::Path;
use std::process::Command;

use answer_vars::vars;
use bootsmith_media::disk_scripts::esxi_serial;
use bootsmith_media::install_disk::DiskVars;
use bootsmith_media::templates::{render, BondVars, Family, Vars};
use bootsmith_model::install_disk::{
    resolve, wwn_digits, DiskFacts, DiskRefusal, InstallDiskHint, Transport, GIB,
};
use serde_json::{json, Value};

/// A disk as the plan knows it.
fn disk(slot: &str, gib: u64, extra: Value) -> DiskFacts {
    let mut d = DiskFacts::local(slot);
    d.size_bytes = Some(gib * GIB + 4096);
    d.rotational = Some(
        extra
            .get("rotational")
            .and_then(Value::as_bool)
            .unwrap_or(false),
    );
    let get = |k: &str| extra.get(k).and_then(Value::as_str).map(str::to_owned);
    d.serial = get("serial");
    d.wwn = get("wwn");
    d.model = get("model");
    d.vendor = get("vendor");
    d.transport = match extra.get("transport").and_then(Value::as_str) {
        Some("usb") => Transport::Usb,
        Some("remote") => Transport::Remote,
        Some("sd_card") => Transport::SdCard,
        _ => Transport::Local,
    };
    d
}

/// The id ESXi gives a disk: its WWN where it has one, a t10 id with its model and serial
/// where it has a serial, else a path-based one.
fn esxi_id(i: usize, d: &DiskFacts) -> String {
    if let Some(w) = d.wwn.as_deref().and_then(wwn_digits) {
        return format!("naa.{w}");
    }
    match &d.serial {
        Some(s) => format!(
            "t10.ATA_____{:_<40}{:_<20}",
            d.model.clone().unwrap_or_default().replace(' ', "_"),
            esxi_serial(s)
        ),
        None => format!("mpx.vmhba0:C0:T{i}:L0"),
    }
}

/// The disks as ESXi shows them: named by their ids, the serial only where the id has it, SD
/// cards as USB, no multipath.
fn as_esxi_sees(disks: &[DiskFacts]) -> Vec<DiskFacts> {
    disks
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let id = esxi_id(i, d);
            let mut e = d.clone();
            if !id.starts_with("t10.") {
                e.serial = None;
            }
            if e.transport == Transport::SdCard {
                e.transport = Transport::Usb;
            }
            e.name = Some(id.clone());
            e.slot = id;
            e.multipath = false;
            e
        })
        .collect()
}

/// `localcli storage core device list` for `disks`, after the virtual CD-ROM, as ESXi 8 prints it.
fn listing(disks: &[DiskFacts]) -> String {
    let mut out = String::from(
        "mpx.vmhba32:C0:T0:L0\n   Display Name: Local Cisco CD-ROM (mpx.vmhba32:C0:T0:L0)\n   Has Settable Display Name: false\n   Size: 0\n   Device Type: CD-ROM \n   Multipath Plugin: NMP\n   Devfs Path: /vmfs/devices/cdrom/mpx.vmhba32:C0:T0:L0\n   Vendor: Cisco   \n   Model: vKVM-Mapped vDVD\n   Is Local: true\n   Is Removable: true\n   Is SSD: false\n   Is USB: true\n\n",
    );
    for (i, d) in disks.iter().enumerate() {
        let id = esxi_id(i, d);
        let local = d.transport != Transport::Remote;
        let usb = matches!(d.transport, Transport::Usb | Transport::SdCard);
        out.push_str(&format!(
            "{id}\n   Display Name: {} Disk ({id})\n   Has Settable Display Name: true\n   Size: {}\n   Device Type: Direct-Access \n   Multipath Plugin: HPP\n   Devfs Path: /vmfs/devices/disks/{id}\n   Vendor: {:<8}\n   Model: {:<16}\n   Revision: 0P10\n   SCSI Level: 5\n   Is Pseudo: false\n   Status: on\n   Is RDM Capable: false\n   Is Local: {local}\n   Is Removable: false\n   Is SSD: {}\n   Is VVOL PE: false\n   Is Offline: false\n   Is Perennially Reserved: false\n   Queue Full Sample Size: 0\n   Queue Full Threshold: 0\n   Thin Provisioning Status: yes\n   Attached Filters: \n   VAAI Status: unsupported\n   Other UIDs: vml.0100000000{i:04}\n   Is Shared Clusterwide: {}\n   Is SAS: false\n   Is USB: {usb}\n   Is Boot Device: false\n   Device Max Queue Depth: 31\n   No of outstanding IOs with competing worlds: 32\n   Drive Type: physical\n   RAID Level: NA\n   Number of Physical Drives: 1\n   Protection Enabled: false\n   PI Activated: false\n   PI Type: 0\n   PI Protection Mask: NO PROTECTION\n   Supported Guard Types: NO GUARD SUPPORT\n   DIX Enabled: false\n   DIX Guard Type: NO GUARD SUPPORT\n   Emulated DIX/DIF Enabled: false\n\n",
            if local { "Local ATA" } else { "FC" },
            d.size_bytes.unwrap() / (1 << 20),
            d.vendor.clone().unwrap_or_default(),
            d.model.clone().unwrap_or_default(),
            d.rotational != Some(true),
            !local,
        ));
    }
    out
}

fn exe(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
}

/// The shells the `%pre` is run under: dash, and busybox's (ESXi's own shell is busybox's).
/// Without busybox (Debian's `busybox`, in scripts/setup.sh) dash alone, said loudly; under
/// CI that fails.
fn shells() -> Vec<Vec<&'static str>> {
    let mut s = vec![vec!["dash"]];
    if Command::new("busybox").arg("true").output().is_ok() {
        s.push(vec!["busybox", "sh"]);
    } else {
        bootsmith_sim::fixture::missing(
            &bootsmith_sim::fixture::test_name(),
            "busybox (ESXi's %pre shell)",
            "Run scripts/setup.sh (or apt-get install busybox); the test runs under dash only.",
        );
    }
    s
}

/// The ks's `%pre` body, with /tmp moved to `tmp`.
fn pre_of(ks: &str, tmp: &Path) -> String {
    let start = ks.find("%pre --interpreter=busybox\n").expect("a %pre") + 27;
    let end = ks[start..].find("\n%firstboot").unwrap() + start;
    ks[start..end].replace("/tmp/", &format!("{}/", tmp.display()))
}

/// Run the rendered `%pre` of `v` on `disks` under `shell`: (exit code, what it wrote to
/// bootsmith-disk.ks, what it said, what wget was asked).
fn run_pre(shell: &[&str], v: &Vars, disks: &[DiskFacts]) -> (i32, String, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    std::fs::write(dir.path().join("listing"), listing(disks)).unwrap();
    exe(
        &bin.join("localcli"),
        &format!(
            "#!/bin/sh\n[ \"$*\" = 'storage core device list' ] || exit 2\ncat '{}'\n",
            dir.path().join("listing").display()
        ),
    );
    exe(
        &bin.join("wget"),
        &format!(
            "#!/bin/sh\nprintf '%s\\n' \"$@\" > '{}/wget.args'\n",
            dir.path().display()
        ),
    );
    let ks = String::from_utf8(render(Family::Esxi, v, None).unwrap()[0].contents.clone()).unwrap();
    let pre = dir.path().join("pre.sh");
    std::fs::write(&pre, pre_of(&ks, dir.path())).unwrap();
    // The %pre runs `sh` itself: the shell under test, by that name, first on PATH.
    if shell[0] == "busybox" {
        exe(&bin.join("sh"), "#!/bin/sh\nexec busybox sh \"$@\"\n");
    } else {
        exe(
            &bin.join("sh"),
            &format!("#!/bin/sh\nexec {} \"$@\"\n", shell[0]),
        );
    }
    let o = Command::new(shell[0])
        .args(&shell[1..])
        .arg(&pre)
        .env(
            "PATH",
            format!("{}:{}", bin.display(), std::env::var("PATH").unwrap()),
        )
        .output()
        .unwrap();
    let read = |n: &str| std::fs::read_to_string(dir.path().join(n)).unwrap_or_default();
    (
        o.status.code().unwrap_or(-1),
        read("bootsmith-disk.ks"),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        read("wget.args"),
    )
}

fn esxi_vars(hint: Option<&InstallDiskHint>) -> Vars {
    let mut v = vars("esxi8.0", "esxi", "8.0", 8);
    v.disk = DiskVars::new(hint, Family::Esxi);
    v
}

/// The `%pre` picks what the plan's rule picks on the disks as ESXi shows them.
fn agrees(hint: Option<Value>, disks: &[DiskFacts]) {
    let hint = hint.map(|v| InstallDiskHint::parse(&v, "install_disk").unwrap());
    let seen = as_esxi_sees(disks);
    let want = resolve(hint.as_ref(), &seen);
    let v = esxi_vars(hint.as_ref());
    for shell in shells() {
        let (code, ks, said, wget) = run_pre(&shell, &v, disks);
        let case = format!("{shell:?}, hint {hint:?}, disks {seen:#?}\nsaid: {said}");
        let installs: Vec<&str> = ks.lines().filter(|l| l.starts_with("install")).collect();
        assert_eq!(installs.len(), 1, "{case}\none install line: {ks}");
        assert!(!ks.contains("--firstdisk"), "{case}");
        match &want {
            Ok(d) => {
                // Of two the same size, the plan goes by slot and ESXi by id: either is the rule.
                let same: Vec<String> = seen
                    .iter()
                    .filter(|o| {
                        hint.is_none() && o.not_default().is_none() && o.size_bytes == d.size_bytes
                    })
                    .map(|o| o.slot.clone())
                    .chain([d.slot.clone()])
                    .collect();
                assert_eq!(code, 0, "{case}");
                let got = installs[0]
                    .strip_prefix("install --disk=")
                    .and_then(|r| r.strip_suffix(" --overwritevmfs"))
                    .unwrap_or_else(|| panic!("{case}: {}", installs[0]));
                assert!(
                    same.iter().any(|s| s == got),
                    "{case}\nwanted {}, got {got}",
                    d.slot
                );
                assert!(said.contains("Bootsmith: installing on "), "{case}");
                assert!(wget.is_empty(), "{case}: nothing reported");
            }
            Err(r) => {
                assert_eq!(code, 1, "{case}");
                assert_eq!(
                    installs[0], "install --disk=bootsmith-no-disk-fits-the-hint",
                    "{case}"
                );
                let words = match r {
                    DiskRefusal::NotFound { hint: Some(_), .. } => {
                        "No disk matches the install-disk hint".to_owned()
                    }
                    DiskRefusal::NotFound { hint: None, .. } => {
                        "No disk qualifies as the default install disk".to_owned()
                    }
                    DiskRefusal::Ambiguous { candidates, .. } => {
                        format!("{} disks match the install-disk hint", candidates.len())
                    }
                };
                assert!(said.contains(&words), "{case}\nwanted {words:?}");
                assert!(
                    wget.contains("http://192.0.2.10:8080/api/v2/hosts/node01/failed")
                        && wget.contains(&words),
                    "{case}: reported: {wget}"
                );
            }
        }
    }
}

fn server() -> Vec<DiskFacts> {
    vec![
        disk(
            "1",
            931,
            json!({"rotational": true, "vendor": "ATA", "model": "ST1000NX0423", "serial": "ZBS1-A2B3"}),
        ),
        disk(
            "2",
            447,
            json!({"vendor": "ATA", "model": "MTFDDAK480TDS", "serial": "21033A4E"}),
        ),
        disk(
            "3",
            447,
            json!({"vendor": "SEAGATE", "model": "XS400ME70084", "serial": "SAS1", "wwn": "0x5000c500a1b2c3d4"}),
        ),
        disk("4", 14, json!({"transport": "usb", "model": "Cruzer"})),
        disk(
            "5",
            100,
            json!({"transport": "remote", "vendor": "NETAPP", "model": "LUN C-Mode", "wwn": "naa.600a098038303053453f463045727a31"}),
        ),
        disk(
            "6",
            29,
            json!({"transport": "sd_card", "model": "FlexFlash"}),
        ),
    ]
}

#[test]
fn the_pre_picks_the_plans_disk_from_localcli() {
    let s = server();
    for hint in [
        None,
        Some(json!({"serial": "21033a4e"})),
        Some(json!({"serial": "ZBS1-A2B3"})),
        // A SAS disk ESXi names by its WWN shows no serial: not found, as the plan is told.
        Some(json!({"serial": "SAS1"})),
        Some(json!({"wwn": "0x5000C500A1B2C3D4"})),
        Some(json!({"wwn": "naa.600a098038303053453f463045727a31"})),
        Some(json!({"model": "mtfddak480tds"})),
        Some(json!({"vendor": "SEAGATE"})),
        Some(json!({"size_gb": {"min": 400, "max": 500}})),
        Some(json!({"size_gb": 931})),
        Some(json!({"rotational": true})),
        Some(json!({"rotational": false, "size_gb": {"min": 400}})),
        Some(json!({"name": "naa.5000c500a1b2c3d4"})),
        Some(json!({"size_gb": {"min": 2000}})),
    ] {
        agrees(hint, &s);
    }
    // A name may also be the device's /vmfs path.
    let h = InstallDiskHint::parse(
        &json!({"name": "/vmfs/devices/disks/naa.5000c500a1b2c3d4"}),
        "install_disk",
    )
    .unwrap();
    let (code, ks, _, _) = run_pre(&["dash"], &esxi_vars(Some(&h)), &s);
    assert_eq!(
        (code, ks.trim()),
        (0, "install --disk=naa.5000c500a1b2c3d4 --overwritevmfs")
    );
    // No local disk of 16 GiB: the USB stick, the SD card and the SAN LUN never qualify.
    agrees(None, &[s[3].clone(), s[4].clone(), s[5].clone()]);
    agrees(None, &[]);
}

/// Random servers and hints, from small pools so that ties, ambiguity and misses are common.
#[test]
fn random_servers_and_hints_agree() {
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let serials = ["S1", "S-2", "S3"];
    let models = ["MTFDDAK480TDS", "ST1000NX0423"];
    let sizes = [8, 16, 447, 931];
    let kinds = ["local", "local", "usb", "remote"];
    for _ in 0..25 {
        let n = 1 + next(4) as usize;
        let disks: Vec<DiskFacts> = (0..n)
            .map(|i| {
                let mut extra = json!({
                    "rotational": next(2) == 0,
                    "transport": kinds[next(4) as usize],
                });
                if next(3) != 0 {
                    extra["serial"] = json!(serials[next(3) as usize]);
                }
                if next(2) == 0 {
                    extra["model"] = json!(models[next(2) as usize]);
                }
                if next(4) == 0 {
                    extra["wwn"] = json!(format!("0x5000c500a1b2c3d{i}"));
                }
                disk(&i.to_string(), sizes[next(4) as usize], extra)
            })
            .collect();
        let hint = match next(5) {
            0 => None,
            1 => Some(json!({"serial": serials[next(3) as usize]})),
            2 => Some(json!({"model": models[next(2) as usize]})),
            3 => Some(json!({"size_gb": {"min": sizes[next(4) as usize]}})),
            _ => Some(json!({"rotational": next(2) == 0, "size_gb": {"max": 500}})),
        };
        agrees(hint, &disks);
    }
}

/// The command section of a rendered ks (before the first `%` section).
fn commands(ks: &str) -> &str {
    let end = ks.find("\n%pre").unwrap_or(ks.len());
    &ks[..end]
}

fn ks(v: &Vars) -> String {
    String::from_utf8(render(Family::Esxi, v, None).unwrap()[0].contents.clone()).unwrap()
}

fn bond(mode: &str, rate: Option<&str>, hash: Option<&str>) -> BondVars {
    BondVars {
        mode: mode.into(),
        lacp_rate: rate.map(Into::into),
        xmit_hash_policy: hash.map(Into::into),
        opts: format!("mode={mode},miimon=100"),
    }
}

/// The matrix of hosts: no hint; serial; size range; bond of two MACs; VLAN + MTU; routes; IPv6.
#[test]
fn every_host_of_the_matrix_gets_one_disk_line_and_its_network() {
    let macs = vec![
        "00:25:b5:00:00:1a".to_owned(),
        "00:25:b5:00:00:1b".to_owned(),
    ];
    let h = |v: Value| Some(InstallDiskHint::parse(&v, "install_disk").unwrap());
    let mut cases: Vec<(&str, Vars)> = Vec::new();
    for (name, hint) in [
        ("no hint", None),
        ("serial", h(json!({"serial": "21033A4E"}))),
        (
            "size range",
            h(json!({"size_gb": {"min": 400, "max": 500}})),
        ),
    ] {
        cases.push((name, esxi_vars(hint.as_ref())));
    }
    let mut v = esxi_vars(None);
    v.host.macs = macs.clone();
    v.network.bond = Some(bond("active-backup", None, None));
    cases.push(("bond active-backup", v));
    let mut v = esxi_vars(None);
    v.host.macs = macs.clone();
    v.network.bond = Some(bond("802.3ad", Some("fast"), Some("layer3+4")));
    cases.push(("bond 802.3ad", v));
    let mut v = esxi_vars(None);
    v.host.macs = macs[..1].to_vec();
    v.network.mtu = Some(9000);
    cases.push(("VLAN + MTU", v));
    let mut v = esxi_vars(None);
    v.network.routes = answer_vars::two_routes();
    cases.push(("routes", v));
    let mut v = esxi_vars(None);
    v.host.ipv6 = Some("2001:db8::21/64".into());
    v.host.ipv6_address = Some("2001:db8::21".into());
    v.host.ipv6_prefix = Some(64);
    v.network.ipv6_gateway = Some("fe80::1".into());
    cases.push(("IPv6", v));

    for (name, v) in &cases {
        let text = ks(v);
        let cmds = commands(&text);
        assert!(
            !cmds.lines().any(|l| l.starts_with("install")),
            "{name}: the install line comes from %pre only:\n{cmds}"
        );
        assert_eq!(
            cmds.lines()
                .filter(|l| *l == "%include /tmp/bootsmith-disk.ks")
                .count(),
            1,
            "{name}"
        );
        assert!(!text.contains("--firstdisk"), "{name}");
        assert_eq!(
            text.matches("--overwritevmfs").count(),
            1,
            "{name}: only with --disk="
        );
        let net: Vec<&str> = cmds.lines().filter(|l| l.starts_with("network ")).collect();
        assert_eq!(net.len(), 1, "{name}");
        let device = match v.host.macs.first() {
            Some(m) => format!("--device={m} "),
            None => "--device=vmnic0 ".to_owned(),
        };
        assert!(net[0].contains(&device), "{name}: {}", net[0]);
        assert!(
            net[0].contains("--vlanid=30") && net[0].contains("--bootproto=static"),
            "{name}"
        );
        let firstboot = &text[text.find("%firstboot").unwrap()..];
        match *name {
            "bond active-backup" => {
                assert!(firstboot.contains("for mac in 00:25:b5:00:00:1a 00:25:b5:00:00:1b; do"));
                assert!(firstboot
                    .contains("--active-uplinks=\"$first\" ${rest:+--standby-uplinks=\"$rest\"}"));
            }
            "bond 802.3ad" => assert!(firstboot.contains("--load-balancing=iphash"), "{firstboot}"),
            "VLAN + MTU" => {
                assert!(firstboot.contains(
                    "esxcli network vswitch standard set --vswitch-name=vSwitch0 --mtu=9000"
                ));
                assert!(firstboot
                    .contains("esxcli network ip interface set --interface-name=vmk0 --mtu=9000"));
                assert!(!firstboot.contains("uplink add"), "one MAC: no team");
            }
            "routes" => {
                assert!(firstboot.contains(
                    "esxcli network ip route ipv4 add --network=10.0.0.0/8 --gateway=192.0.2.254"
                ));
                assert!(firstboot.contains("esxcli network ip route ipv6 add --network=2001:db8:1::/48 --gateway=2001:db8::fe"));
            }
            "IPv6" => {
                assert!(firstboot
                    .contains("ipv6 address add --interface-name=vmk0 --ipv6=2001:db8::21/64"));
                assert!(firstboot.contains("route ipv6 add --network=::/0 --gateway=fe80::1"));
            }
            _ => assert!(!firstboot.contains("uplink add") && !firstboot.contains("--mtu")),
        }
        // The %pre itself runs on a server with disks: one install line.
        let (code, written, _, _) = run_pre(&["dash"], v, &server());
        assert!(code == 0 || code == 1, "{name}");
        assert_eq!(
            written.lines().filter(|l| l.starts_with("install")).count(),
            1,
            "{name}"
        );
    }
}
