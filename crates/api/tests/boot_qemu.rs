//! The boot proof: the boot ISO and per-host disk that `POST /api/v2/deploy/images` makes,
//! booted in QEMU under SeaBIOS and under OVMF (UEFI). The "installer" is a small fixture
//! built from Debian packages (scripts/boot-fixture.sh): a Debian kernel and an initramfs
//! whose /init does what Anaconda's first steps do with our boot config — find the boot ISO
//! by the stage2 label, read the kickstart from the disk labelled OEMDRV, fetch from the
//! install tree over HTTP, call back `installed` as the kickstart's last step does — and
//! prints what it found on the serial port. The server has data disks too (SCSI disks with
//! serials, WWNs and makes, a USB stick): the fixture runs the kickstart's `%pre` with
//! busybox, "installs" on the disk it chose, and the tests check that every other disk kept
//! its sha256 and that the host's timeline names the disk.
//!
//! Slow (each boot is 20–60 s of software emulation), and it runs in CI.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{add_network, bios_and_uefi_boot, pack_iso, port_of, set_svc_ip, Server};
use reqwest::StatusCode;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

/// A RHEL DVD in miniature as the tests make and map it.
struct Dvd {
    /// The catalog's id.
    os: &'static str,
    /// Its file in svc.
    file: &'static str,
    /// The version its `.discinfo` says (the catalog's marker).
    version: &'static str,
    /// Its volume id.
    label: &'static str,
    /// The volume id of the boot ISO Bootsmith makes of it (`BOOTSMITH_<CODE>`).
    boot_label: &'static str,
    /// Its `.treeinfo`, which the fixture fetches back from svc.
    treeinfo: &'static str,
    /// How it boots under BIOS.
    bios: BiosLoader,
}

/// RHEL's BIOS boot loader: isolinux up to 9, GRUB 2 from 10 (RHEL 10 dropped syslinux).
enum BiosLoader {
    Isolinux,
    Grub2,
}

const RHEL84: Dvd = Dvd {
    os: "rhel8.4",
    file: "rhel-8.4-x86_64-dvd.iso",
    version: "8.4",
    label: "RHEL-8-4-0-BaseOS-x86_64",
    boot_label: "BOOTSMITH_RHEL84",
    treeinfo: "[general]\nname = Red Hat Enterprise Linux 8.4\nfamily = Red Hat Enterprise Linux\nversion = 8.4\n",
    bios: BiosLoader::Isolinux,
};

const RHEL101: Dvd = Dvd {
    os: "rhel10.1",
    file: "rhel-10.1-x86_64-dvd.iso",
    version: "10.1",
    label: "RHEL-10-1-BaseOS-x86_64",
    boot_label: "BOOTSMITH_RHEL101",
    treeinfo: "[general]\nname = Red Hat Enterprise Linux 10.1\nfamily = Red Hat Enterprise Linux\nversion = 10.1\n",
    bios: BiosLoader::Grub2,
};

const RHEL97: Dvd = Dvd {
    os: "rhel9.7",
    file: "rhel-9.7-x86_64-dvd.iso",
    version: "9.7",
    label: "RHEL-9-7-0-BaseOS-x86_64",
    boot_label: "BOOTSMITH_RHEL97",
    treeinfo: "[general]\nname = Red Hat Enterprise Linux 9.7\nfamily = Red Hat Enterprise Linux\nversion = 9.7\n",
    bios: BiosLoader::Isolinux,
};

const RHEL100: Dvd = Dvd {
    os: "rhel10.0",
    file: "rhel-10.0-x86_64-dvd.iso",
    version: "10.0",
    label: "RHEL-10-0-BaseOS-x86_64",
    boot_label: "BOOTSMITH_RHEL100",
    treeinfo: "[general]\nname = Red Hat Enterprise Linux 10.0\nfamily = Red Hat Enterprise Linux\nversion = 10.0\n",
    bios: BiosLoader::Grub2,
};

const ROCKY10: Dvd = Dvd {
    os: "rocky10",
    file: "Rocky-10.0-x86_64-dvd.iso",
    version: "10.0",
    label: "Rocky-10-0-x86_64-dvd",
    boot_label: "BOOTSMITH_ROCKY10",
    treeinfo: "[general]\nname = Rocky Linux 10.0\nfamily = Rocky Linux\nversion = 10.0\n",
    bios: BiosLoader::Grub2,
};

const ALMA10: Dvd = Dvd {
    os: "alma10",
    file: "AlmaLinux-10.0-x86_64-dvd.iso",
    version: "10.0",
    label: "AlmaLinux-10-0-x86_64-dvd",
    boot_label: "BOOTSMITH_ALMA10",
    treeinfo: "[general]\nname = AlmaLinux 10.0\nfamily = AlmaLinux\nversion = 10.0\n",
    bios: BiosLoader::Grub2,
};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Build (or reuse) the fixture: kernel, initramfs, isolinux, GRUB EFI, OVMF. Once per
/// test binary: both tests ask for it at the same time.
fn fixture() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT.get_or_init(build_fixture).clone()
}

fn build_fixture() -> PathBuf {
    let out = workspace().join("target/boot-fixture");
    let o = Command::new("bash")
        .arg(workspace().join("scripts/boot-fixture.sh"))
        .arg(&out)
        .output()
        .expect("bash runs");
    assert!(
        o.status.success(),
        "scripts/boot-fixture.sh failed:\n{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

fn put(root: &Path, rel: &str, contents: &[u8]) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, contents).unwrap();
}

/// A RHEL DVD in miniature whose kernel and initrd are the fixture's, laid out and configured
/// the way RHEL's media are (the boot configs are the vendor's shape, with the media-check
/// entry as the menu default, which our rewrite must not pick). Up to 9 it boots BIOS with
/// isolinux; from 10 with GRUB 2's El Torito image reading `boot/grub2/grub.cfg`.
fn rhel_like_iso(fx: &Path, dir: &Path, dvd: &Dvd, iso: &Path) {
    let t = dir.join(format!("{}-tree", dvd.os));
    let file = |name: &str| std::fs::read(fx.join(name)).unwrap();
    let (label, version) = (dvd.label, dvd.version);
    put(
        &t,
        ".discinfo",
        format!("1620000000.000000\n{version}\nx86_64\n").as_bytes(),
    );
    put(&t, ".treeinfo", dvd.treeinfo.as_bytes());
    put(&t, "images/pxeboot/vmlinuz", &file("vmlinuz"));
    put(&t, "images/pxeboot/initrd.img", &file("initrd.img"));
    put(&t, "images/install.img", &vec![0x5a; 64 * 1024]);
    put(&t, "images/efiboot.img", &file("efiboot.img"));
    put(&t, "EFI/BOOT/BOOTX64.EFI", &file("BOOTX64.EFI"));
    // RHEL 8's GRUB loads with linuxefi; RHEL 10's, like Fedora's, with plain linux.
    let (linux, initrd) = match dvd.bios {
        BiosLoader::Isolinux => ("linuxefi", "initrdefi"),
        BiosLoader::Grub2 => ("linux", "initrd"),
    };
    let grub_cfg = format!(
        "set default=\"1\"\nset timeout=60\nsearch --no-floppy --set=root -l '{label}'\n\nmenuentry 'Install Red Hat Enterprise Linux {version}' --class fedora --class gnu-linux --class gnu --class os {{\n\t{linux} /images/pxeboot/vmlinuz inst.stage2=hd:LABEL={label} quiet\n\t{initrd} /images/pxeboot/initrd.img\n}}\nmenuentry 'Test this media & install Red Hat Enterprise Linux {version}' --class fedora --class gnu-linux --class gnu --class os {{\n\t{linux} /images/pxeboot/vmlinuz inst.stage2=hd:LABEL={label} rd.live.check quiet\n\t{initrd} /images/pxeboot/initrd.img\n}}\n"
    );
    put(&t, "EFI/BOOT/grub.cfg", grub_cfg.as_bytes());
    put(
        &t,
        "BaseOS/Packages/bash-4.4.20-1.el8_4.x86_64.rpm",
        &vec![1u8; 256 * 1024],
    );
    let boot = match dvd.bios {
        BiosLoader::Isolinux => {
            put(&t, "isolinux/isolinux.bin", &file("isolinux.bin"));
            put(&t, "isolinux/ldlinux.c32", &file("ldlinux.c32"));
            put(&t, "isolinux/vmlinuz", &file("vmlinuz"));
            put(&t, "isolinux/initrd.img", &file("initrd.img"));
            put(&t, "isolinux/isolinux.cfg", format!(
                "default vesamenu.c32\ntimeout 600\n\nlabel linux\n  menu label ^Install Red Hat Enterprise Linux {version}\n  kernel vmlinuz\n  append initrd=initrd.img inst.stage2=hd:LABEL={label} quiet\n\nlabel check\n  menu label Test this ^media & install\n  menu default\n  kernel vmlinuz\n  append initrd=initrd.img inst.stage2=hd:LABEL={label} rd.live.check quiet\n"
            ).as_bytes());
            bios_and_uefi_boot()
        }
        BiosLoader::Grub2 => {
            put(&t, "images/eltorito.img", &file("eltorito.img"));
            put(&t, "boot/grub2/grub.cfg", grub_cfg.as_bytes());
            bootsmith_media::testing::bios_and_uefi(
                "images/eltorito.img",
                "boot.cat",
                "images/efiboot.img",
            )
        }
    };
    pack_iso(&t, iso, label, &[&["-J"][..], &boot].concat());
}

/// Records, mapping and the image run over HTTP; the servers reach svc at 10.0.2.2 (QEMU's
/// user network maps it to the host's loopback, where this server listens). `extra`: more
/// fields of the host (its `install_disk` hint, its `macs`).
async fn images(s: &Server, fx: &Path, dvd: &Dvd, extra: Value) -> u16 {
    rhel_like_iso(fx, s.dir.path(), dvd, &s.svc().join(dvd.file));
    let port: u16 = s.base().rsplit(':').next().unwrap().parse().unwrap();
    set_svc_ip(s, "10.0.2.2").await;
    add_network(
        s,
        "qemu",
        "255.255.255.0",
        "10.0.2.2",
        "10.0.2.3",
        "10.0.2.2",
    )
    .await;
    let mut host = json!({"name": "node01", "ip": "10.0.2.15", "os": dvd.os, "role": "generic", "network_group": "qemu"});
    if let Value::Object(more) = extra {
        host.as_object_mut().unwrap().extend(more);
    }
    let hosts = json!([host]);
    let (st, body) = s.post("/api/v2/hosts", hosts).await;
    assert!(st.is_success(), "{body}");
    let map = json!({"iso_map": [{"file": format!("/svc/{}", dvd.file), "os": dvd.os}]});
    let (st, body) = s.post("/api/v1/isos/map", map).await;
    assert_eq!(st, StatusCode::OK, "{body}");
    let (st, body) = s.post("/api/v2/deploy/images", json!(["node01"])).await;
    assert_eq!(st, StatusCode::OK, "{body}");
    port
}

/// A data disk of the VM: a raw file and the QEMU device that shows it to the guest.
struct TestDisk {
    file: PathBuf,
    /// `-device` without its `drive=`.
    device: String,
}

impl TestDisk {
    /// A raw disk of `mib` MiB (sparse), its first and last MiB filled with bytes of its own.
    fn new(dir: &Path, name: &str, mib: u64, device: String) -> TestDisk {
        use std::io::{Seek, SeekFrom, Write};
        let file = dir.join(format!("{name}.raw"));
        let mut f = std::fs::File::create(&file).unwrap();
        f.set_len(mib << 20).unwrap();
        let seed = name
            .bytes()
            .fold(7u8, |a, b| a.wrapping_mul(31).wrapping_add(b));
        let chunk: Vec<u8> = (0..1u32 << 20)
            .map(|i| (i as u8).wrapping_mul(seed) ^ (i >> 8) as u8)
            .collect();
        f.write_all(&chunk).unwrap();
        f.seek(SeekFrom::Start((mib - 1) << 20)).unwrap();
        f.write_all(&chunk).unwrap();
        TestDisk { file, device }
    }

    fn sha256(&self) -> String {
        let mut h = Sha256::new();
        let mut f = std::fs::File::open(&self.file).unwrap();
        std::io::copy(&mut f, &mut h).unwrap();
        format!("{:x}", h.finalize())
    }

    /// Whether the fixture "installed" on it: its marker at the start.
    fn installed_on(&self) -> bool {
        use std::io::Read;
        let mut start = [0u8; 28];
        std::fs::File::open(&self.file)
            .unwrap()
            .read_exact(&mut start)
            .unwrap();
        &start == b"BOOTSMITH-FIXTURE-INSTALLED "
    }
}

/// The server's disks for the install-disk proof: three SCSI disks of distinct serials, WWNs
/// and makes (one a solid-state Micron, two spinning Seagates of one model) and a USB stick.
fn data_disks(dir: &Path) -> Vec<TestDisk> {
    let scsi = |n: u32, vendor: &str, product: &str, ssd: bool| {
        format!(
            "scsi-hd,bus=scsi0.0,serial=BSD000{n},wwn=0x5000c500a1b2c30{n},vendor={vendor},product={product}{}",
            if ssd { ",rotation_rate=1" } else { "" }
        )
    };
    vec![
        TestDisk::new(dir, "micron", 96, scsi(1, "MICRON", "MTFDDAK480TDS", true)),
        TestDisk::new(
            dir,
            "seagate-a",
            64,
            scsi(2, "SEAGATE", "ST1000NX0423", false),
        ),
        TestDisk::new(
            dir,
            "seagate-b",
            128,
            scsi(3, "SEAGATE", "ST1000NX0423", false),
        ),
        TestDisk::new(dir, "usb", 48, "usb-storage,bus=xhci.0,removable=on".into()),
    ]
}

/// The fixture wrote only to disk `chosen` (index into `disks`), whose sha256 before the boot
/// were `before`; every other disk keeps every byte.
fn only_installed_on(disks: &[TestDisk], before: &[String], chosen: usize, out: &str) {
    for (i, d) in disks.iter().enumerate() {
        if i == chosen {
            assert!(d.installed_on(), "{}: installed on:\n{out}", d.device);
        } else {
            assert_eq!(d.sha256(), before[i], "{} was written to:\n{out}", d.device);
        }
    }
}

/// The fixture's usual NIC: eth0 on QEMU's user network, which reaches this test's svc.
const ONE_NIC: &str = "user,model=e1000";

/// Two NICs of known MACs: eth0 cut off from the host (`restrict=on`: svc cannot be reached
/// through it), eth1 on the user network. Only an installer that takes the NIC by its MAC
/// (eth1's) reaches svc.
const CUT_OFF_NIC: &str = "user,model=e1000,mac=52:54:00:00:00:a1,restrict=on";
const SVC_NIC: &str = "user,model=e1000,mac=52:54:00:00:00:a2";

enum Firmware {
    Bios,
    Uefi,
}

/// Boot the boot ISO (CD, first in the boot order) and the host's disk, if it has one (not
/// with single-device media); the serial output.
fn boot(
    fx: &Path,
    svc: &Path,
    media: (&str, Option<&str>),
    firmware: Firmware,
    scratch: &Path,
    disks: &[TestDisk],
    nics: &[&str],
) -> String {
    let (cd, disk) = media;
    let console = scratch.join("console.log");
    let mut cmd = Command::new("qemu-system-x86_64");
    cmd.args(["-machine", "q35", "-accel", "tcg", "-m", "512", "-smp", "1"])
        .args(["-display", "none", "-monitor", "none", "-no-reboot"])
        .arg("-serial")
        .arg(format!("file:{}", console.display()))
        .arg("-drive")
        .arg(format!(
            "if=none,id=cd,media=cdrom,format=raw,readonly=on,file={}",
            svc.join(cd).display()
        ))
        .args(["-device", "ide-cd,drive=cd,bus=ide.0,bootindex=0"]);
    for nic in if nics.is_empty() {
        &[ONE_NIC][..]
    } else {
        nics
    } {
        cmd.args(["-nic", nic]);
    }
    if let Some(disk) = disk {
        cmd.arg("-drive")
            // snapshot: the guest never writes to the served image.
            .arg(format!(
                "if=none,id=answers,format=raw,snapshot=on,file={}",
                svc.join(disk).display()
            ))
            .args(["-device", "ide-hd,drive=answers,bus=ide.1"]);
    }
    if !disks.is_empty() {
        cmd.args(["-device", "virtio-scsi-pci,id=scsi0"])
            .args(["-device", "qemu-xhci,id=xhci"]);
    }
    for (i, d) in disks.iter().enumerate() {
        cmd.arg("-drive")
            .arg(format!(
                "if=none,id=data{i},format=raw,file={}",
                d.file.display()
            ))
            .arg("-device")
            .arg(format!("{},drive=data{i}", d.device));
    }
    if let Firmware::Uefi = firmware {
        let vars = scratch.join("OVMF_VARS.fd");
        std::fs::copy(fx.join("OVMF_VARS.fd"), &vars).unwrap();
        cmd.arg("-drive")
            .arg(format!(
                "if=pflash,format=raw,unit=0,readonly=on,file={}",
                fx.join("OVMF_CODE.fd").display()
            ))
            .arg("-drive")
            .arg(format!(
                "if=pflash,format=raw,unit=1,file={}",
                vars.display()
            ));
    }
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("qemu-system-x86_64 (Debian qemu-system-x86) is installed");
    let started = Instant::now();
    let limit = Duration::from_secs(600);
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break;
        }
        std::thread::sleep(Duration::from_millis(250));
    }
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        use std::io::Read;
        let _ = e.read_to_string(&mut err);
    }
    let out =
        String::from_utf8_lossy(&std::fs::read(&console).unwrap_or_default()).replace('\r', "");
    eprintln!(
        "boot took {:.1} s; qemu stderr: {err}",
        started.elapsed().as_secs_f64()
    );
    out
}

/// The lines between `FIXTURE <what> begin` and `FIXTURE <what> end`.
fn block<'a>(out: &'a str, what: &str) -> Vec<&'a str> {
    let begin = format!("FIXTURE {what} begin");
    let end = format!("FIXTURE {what} end");
    out.lines()
        .skip_while(|l| !l.contains(&begin))
        .skip(1)
        .take_while(|l| !l.contains(&end))
        .collect()
}

fn check(out: &str, port: u16, dvd: &Dvd) {
    let url = format!("http://10.0.2.2:{port}/svc/{}/", dvd.os);
    let has = |needle: &str| out.lines().any(|l| l.contains(needle));
    assert!(has("FIXTURE done"), "the fixture ran to the end:\n{out}");
    assert!(
        has(&format!(
            "inst.stage2=hd:LABEL={} inst.ks=hd:LABEL=OEMDRV:/ks.cfg",
            dvd.boot_label
        )),
        "our boot entry was started:\n{out}"
    );
    assert!(
        !has("rd.live.check"),
        "not the vendor's default entry:\n{out}"
    );
    assert!(
        has(&format!(
            "FIXTURE stage2 LABEL={} on /dev/sr",
            dvd.boot_label
        )),
        "stage2 found on the boot CD:\n{out}"
    );
    assert!(
        has("FIXTURE ks LABEL=OEMDRV on /dev/sd"),
        "the per-host disk found by its label:\n{out}"
    );
    let ks = block(out, "ks");
    assert!(
        ks.iter().any(|l| l.trim() == format!("url --url={url}")),
        "kickstart read: {ks:?}"
    );
    assert!(
        ks.iter().any(|l| l.contains("--ip=10.0.2.15")),
        "the host's own kickstart: {ks:?}"
    );
    assert!(
        has(&format!("FIXTURE fetch {url}.treeinfo ok")),
        "svc fetched over HTTP:\n{out}"
    );
    let body = block(out, "fetch").join("\n");
    assert_eq!(
        body.trim_end(),
        dvd.treeinfo.trim_end(),
        "the install tree's .treeinfo came back"
    );
}

/// Make the media of `dvd` through the API for a host whose `install_disk` hint names data
/// disk `chosen`, and boot them with `firmware` on a server with [`data_disks`].
async fn rhel_boot(
    dvd: &'static Dvd,
    firmware: Firmware,
    scratch_name: &str,
    host: Value,
    chosen: usize,
    nics: &'static [&'static str],
) {
    let fx = tokio::task::spawn_blocking(fixture).await.unwrap();
    // Listening: QEMU fetches the install tree from our svc port.
    let s = Server::listening().await;
    let port = images(&s, &fx, dvd, host.clone()).await;
    let (svc, scratch) = (s.svc(), s.dir.path().join(scratch_name));
    std::fs::create_dir_all(&scratch).unwrap();
    let disks = data_disks(&scratch);
    let before: Vec<String> = disks.iter().map(TestDisk::sha256).collect();
    let cd = format!("{}-boot.iso", dvd.os);
    let (out, disks) = tokio::task::spawn_blocking(move || {
        let media = (cd.as_str(), Some("node01.img"));
        let out = boot(&fx, &svc, media, firmware, &scratch, &disks, nics);
        (out, disks)
    })
    .await
    .unwrap();
    check(&out, port, dvd);
    // The kickstart's %pre found the disk the hint names, and only it was written.
    assert!(
        out.lines().any(|l| l.contains("FIXTURE pre ok")),
        "%pre:\n{out}"
    );
    let lines = block(&out, "disks");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("ignoredisk --only-use=sd"))
            && lines
                .iter()
                .any(|l| l.starts_with("clearpart --all --initlabel --drives=sd")),
        "the disk lines %include reads: {lines:?}"
    );
    only_installed_on(&disks, &before, chosen, &out);
    // The network line names the NIC of the host's MAC, as this kernel names it; svc is
    // reachable through that NIC only.
    let network = block(&out, "network").join("\n");
    match host["macs"].as_array() {
        Some(macs) => {
            let mac = macs[0].as_str().unwrap().to_lowercase();
            assert!(network.contains("--device=eth1 "), "{network}");
            assert!(
                out.lines()
                    .any(|l| l.contains(&format!("FIXTURE network on eth1 ({mac}) as 10.0.2.15"))),
                "{out}"
            );
        }
        None => assert!(network.contains("--device=link "), "{network}"),
    }
    // The fixture ended as the kickstart's %post does: it reported the host installed.
    let reported =
        format!("FIXTURE installed http://10.0.2.2:{port}/api/v2/hosts/node01/installed reported");
    assert!(
        out.lines().any(|l| l.contains(&reported)),
        "the installer called back:\n{out}"
    );
    let (_, list) = s.get("/api/v2/hosts").await;
    assert_eq!(list["hosts"][0]["status"]["state"], "installed", "{list}");
    // Before that, as %post --nochroot does, it sent its log; read back through the API.
    let sent =
        format!("FIXTURE logs program.log sent to http://10.0.2.2:{port}/api/v2/hosts/node01/logs");
    assert!(
        out.lines().any(|l| l.contains(&sent)),
        "the installer sent its log:\n{out}"
    );
    let log = installer_log(&s).await;
    assert!(
        log.contains("FIXTURE pre ok") && log.contains("FIXTURE fetch ") && !log.contains("rootpw"),
        "the log is the installer's transcript, never the kickstart: {log}"
    );
    // The installed callback said which disk, and the timeline keeps it.
    let serial = format!("S/N BSD000{}", chosen + 1);
    let (_, t) = s.get("/api/v2/hosts/node01/timeline").await;
    assert!(
        t["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["state"] == "installed" && e["detail"].as_str().unwrap().contains(&serial)),
        "the installed event names the disk ({serial}): {t}"
    );
}

/// The one installer log of node01 (attempt 1, program.log), as `GET …/logs` lists it and
/// `GET …/logs/1/program.log` reads it.
async fn installer_log(s: &Server) -> String {
    let (st, list) = s.get("/api/v2/hosts/node01/logs").await;
    assert_eq!(st, StatusCode::OK, "{list}");
    assert_eq!(
        list["latest"],
        json!({"attempt": 1, "file": "program.log"}),
        "{list}"
    );
    let (st, log) = s.get("/api/v2/hosts/node01/logs/1/program.log").await;
    assert_eq!(st, StatusCode::OK, "{log}");
    log["text"].as_str().unwrap().to_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn boot_iso_and_answer_disk_boot_under_seabios_and_install_on_that_serial_over_that_mac() {
    let host = json!({"install_disk": {"serial": "BSD0002"}, "macs": ["52:54:00:00:00:A2"]});
    rhel_boot(
        &RHEL84,
        Firmware::Bios,
        "bios",
        host,
        1,
        &[CUT_OFF_NIC, SVC_NIC],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn boot_iso_and_answer_disk_boot_under_ovmf_and_install_on_the_disk_of_that_wwn() {
    // Two Seagates of one model: the WWN tells them apart.
    let host = json!({"install_disk": {"wwn": "0x5000C500A1B2C303", "model": "ST1000NX0423"}});
    rhel_boot(&RHEL84, Firmware::Uefi, "uefi", host, 2, &[]).await;
}

/// RHEL 10's DVD has no isolinux: BIOS starts GRUB 2 from its El Torito image, which reads
/// `boot/grub2/grub.cfg`. The boot ISO keeps that image and rewrites that file, so SeaBIOS
/// starts our entry and the install goes as on 8 and 9.
#[tokio::test(flavor = "multi_thread")]
async fn rhel10_boot_iso_starts_grub2_under_seabios_and_installs_on_that_serial() {
    let host = json!({"install_disk": {"serial": "BSD0002"}});
    rhel_boot(&RHEL101, Firmware::Bios, "rhel10-bios", host, 1, &[]).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn rhel10_boot_iso_boots_under_ovmf_and_installs_on_the_disk_of_that_wwn() {
    let host = json!({"install_disk": {"wwn": "0x5000C500A1B2C303", "model": "ST1000NX0423"}});
    rhel_boot(&RHEL101, Firmware::Uefi, "rhel10-uefi", host, 2, &[]).await;
}

/// The rest of the RHEL family's ids of issue 30, each under SeaBIOS and OVMF, as 8.4 and 10.1 above.
async fn boots_under_both(dvd: &'static Dvd) {
    let serial = json!({"install_disk": {"serial": "BSD0002"}});
    rhel_boot(
        dvd,
        Firmware::Bios,
        &format!("{}-bios", dvd.os),
        serial,
        1,
        &[],
    )
    .await;
    let wwn = json!({"install_disk": {"wwn": "0x5000C500A1B2C303"}});
    rhel_boot(
        dvd,
        Firmware::Uefi,
        &format!("{}-uefi", dvd.os),
        wwn,
        2,
        &[],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn rhel9_7_media_boot_under_seabios_and_ovmf() {
    boots_under_both(&RHEL97).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn rhel10_0_media_boot_under_seabios_and_ovmf() {
    boots_under_both(&RHEL100).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn rocky10_media_boot_under_seabios_and_ovmf() {
    boots_under_both(&ROCKY10).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn alma10_media_boot_under_seabios_and_ovmf() {
    boots_under_both(&ALMA10).await;
}

/// A hint that names two disks stops the install before anything is written: the kickstart's
/// `%pre` refuses to guess, every disk keeps every byte, and the host reads as failed with the
/// reason the installer sent.
#[tokio::test(flavor = "multi_thread")]
async fn an_ambiguous_hint_stops_the_install_and_writes_no_disk() {
    let fx = tokio::task::spawn_blocking(fixture).await.unwrap();
    let s = Server::listening().await;
    images(
        &s,
        &fx,
        &RHEL84,
        json!({"install_disk": {"model": "ST1000NX0423"}}),
    )
    .await;
    let (svc, scratch) = (s.svc(), s.dir.path().join("ambiguous"));
    std::fs::create_dir_all(&scratch).unwrap();
    let disks = data_disks(&scratch);
    let before: Vec<String> = disks.iter().map(TestDisk::sha256).collect();
    let media = ("rhel8.4-boot.iso", Some("node01.img"));
    let (out, disks) = tokio::task::spawn_blocking(move || {
        let out = boot(&fx, &svc, media, Firmware::Bios, &scratch, &disks, &[]);
        (out, disks)
    })
    .await
    .unwrap();
    let has = |needle: &str| out.lines().any(|l| l.contains(needle));
    assert!(has("FIXTURE pre failed: exit 1"), "{out}");
    assert!(
        has("FIXTURE fetch skipped: %pre --erroronfail failed"),
        "{out}"
    );
    for (d, sum) in disks.iter().zip(&before) {
        assert_eq!(&d.sha256(), sum, "{} was written to:\n{out}", d.device);
    }
    let (_, t) = s.get("/api/v2/hosts/node01/timeline").await;
    assert_eq!(t["status"]["state"], "failed", "{t}");
    // As %onerror does, the installer sent its log; it tells why, read back through the API.
    let log = installer_log(&s).await;
    assert!(
        log.contains("FIXTURE pre failed: exit 1") && !log.contains("rootpw"),
        "the failed installer's log: {log}"
    );
    let failed = t["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["state"] == "failed")
        .unwrap_or_else(|| panic!("a failed event: {t}"));
    let why = failed["detail"].as_str().unwrap();
    assert!(
        why.contains("2 disks match the install-disk hint (model ST1000NX0423)")
            && why.contains("S/N BSD0002")
            && why.contains("S/N BSD0003"),
        "{why}"
    );
}

/// Single-device media (a BMC with one virtual-media device): the host's own
/// `svc/node01/boot.iso` alone, made by `images::single_device_media` as the Redfish driver
/// calls it; its installer fetches `svc/node01/ks.cfg` over HTTP from this test's svc.
/// With `mac`, the host names the NIC of that MAC and the VM has [`CUT_OFF_NIC`] and
/// [`SVC_NIC`]: the ISO's kernel line must bring the host's address up on that NIC for the
/// kickstart to be fetched at all.
async fn single_device_boot(firmware: Firmware, scratch_name: &str, mac: Option<&str>) {
    let fx = tokio::task::spawn_blocking(fixture).await.unwrap();
    let s = Server::listening().await;
    let extra = match mac {
        Some(m) => json!({"macs": [m]}),
        None => json!({}),
    };
    let port = images(&s, &fx, &RHEL84, extra).await;
    let nics: &'static [&'static str] = match mac {
        Some(_) => &[CUT_OFF_NIC, SVC_NIC],
        None => &[],
    };
    let app = s.app.clone();
    let id = bootsmith_core::jobs::start(
        &s.app,
        bootsmith_core::jobs::JobKind::Deploy,
        None,
        |job| async move {
            let media =
                bootsmith_core::media::images::single_device_media(&app, &job, "node01", &[])
                    .await?;
            Ok(serde_json::to_value(media).unwrap())
        },
    )
    .await
    .unwrap();
    let job = bootsmith_core::jobs::wait(&s.app, id).await.unwrap();
    let media = job.result.unwrap_or_else(|| panic!("{:?}", job.error));
    assert_eq!(
        media["url"],
        format!("http://10.0.2.2:{port}/svc/node01/boot.iso")
    );

    let (svc, scratch) = (s.svc(), s.dir.path().join(scratch_name));
    std::fs::create_dir_all(&scratch).unwrap();
    // No hint: the default disk, the smallest local one of at least 16 GiB (sparse here),
    // not the USB stick.
    let disks = vec![
        TestDisk::new(
            &scratch,
            "usb",
            48,
            "usb-storage,bus=xhci.0,removable=on".into(),
        ),
        TestDisk::new(
            &scratch,
            "big",
            20 << 10,
            "scsi-hd,bus=scsi0.0,serial=BIG0001".into(),
        ),
    ];
    let usb_before = disks[0].sha256();
    let (out, disks) = tokio::task::spawn_blocking(move || {
        let out = boot(
            &fx,
            &svc,
            ("node01/boot.iso", None),
            firmware,
            &scratch,
            &disks,
            nics,
        );
        (out, disks)
    })
    .await
    .unwrap();
    assert!(disks[1].installed_on(), "the 20 GiB disk:\n{out}");
    assert_eq!(
        disks[0].sha256(),
        usb_before,
        "the USB stick was written to:\n{out}"
    );
    let has = |needle: &str| out.lines().any(|l| l.contains(needle));
    let ks_url = format!("http://10.0.2.2:{port}/svc/node01/ks.cfg");
    assert!(has("FIXTURE done"), "the fixture ran to the end:\n{out}");
    assert!(
        has(&format!(
            "inst.stage2=hd:LABEL=BOOTSMITH_RHEL84 inst.ks={ks_url}"
        )),
        "our single-device entry was started:\n{out}"
    );
    if let Some(mac) = mac {
        // No DHCP: the host's own address, on the NIC of its MAC, from the kernel line.
        assert!(
            has(&format!("ifname=bootnet0:{mac} ip=10.0.2.15::10.0.2.2:255.255.255.0:node01:bootnet0:none nameserver=10.0.2.3")),
            "the kernel line brings up the host's address:\n{out}"
        );
        assert!(
            has(&format!(
                "FIXTURE boot network on eth1 ({mac}) as 10.0.2.15"
            )),
            "{out}"
        );
    }
    assert!(
        has("FIXTURE stage2 LABEL=BOOTSMITH_RHEL84 on /dev/sr"),
        "stage2 found on the one CD:\n{out}"
    );
    assert!(
        has(&format!("FIXTURE ks {ks_url} fetched")),
        "the kickstart fetched over HTTP:\n{out}"
    );
    let ks = block(&out, "ks");
    assert!(
        ks.iter().any(|l| l.contains("--ip=10.0.2.15")),
        "the host's own kickstart: {ks:?}"
    );
    let url = format!("http://10.0.2.2:{port}/svc/rhel8.4/");
    assert!(
        has(&format!("FIXTURE fetch {url}.treeinfo ok")),
        "the install tree fetched:\n{out}"
    );
    let reported =
        format!("FIXTURE installed http://10.0.2.2:{port}/api/v2/hosts/node01/installed reported");
    assert!(has(&reported), "the installer called back:\n{out}");

    let (_, t) = s.get("/api/v2/hosts/node01/timeline").await;
    assert_eq!(t["status"]["state"], "installed", "{t}");
    let booting = t["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["state"] == "booting")
        .unwrap_or_else(|| panic!("a booting event: {t}"));
    assert!(
        booting["detail"]
            .as_str()
            .unwrap()
            .ends_with("fetched node01/ks.cfg"),
        "{t}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn single_device_iso_fetches_its_kickstart_over_http_under_seabios_on_the_hosts_own_address()
{
    single_device_boot(Firmware::Bios, "single-bios", Some("52:54:00:00:00:a2")).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn single_device_iso_fetches_its_kickstart_over_http_under_ovmf() {
    single_device_boot(Firmware::Uefi, "single-uefi", None).await;
}

/// An Ubuntu live-server release as the tests make and map it.
struct Ubuntu {
    /// The catalog's id.
    os: &'static str,
    /// The point release `.disk/info` and the volume id name (`24.04.1`).
    version: &'static str,
    /// Its code name.
    codename: &'static str,
}

const NOBLE: Ubuntu = Ubuntu {
    os: "ubuntu24.04",
    version: "24.04.1",
    codename: "Noble Numbat",
};

const RESOLUTE: Ubuntu = Ubuntu {
    os: "ubuntu26.04",
    version: "26.04",
    codename: "Resolute Raccoon",
};

impl Ubuntu {
    /// Its ISO's name in svc.
    fn file(&self) -> String {
        format!("ubuntu-{}-live-server-amd64.iso", self.version)
    }
}

/// An Ubuntu live-server ISO in miniature, UEFI only as far as the fixture goes: GRUB
/// started from the EFI image reads a stub that hands over to /boot/grub/grub.cfg, the way
/// Ubuntu's media work.
fn ubuntu_like_iso(fx: &Path, dir: &Path, release: &Ubuntu, iso: &Path) {
    let t = dir.join(format!("{}-tree", release.os));
    let file = |name: &str| std::fs::read(fx.join(name)).unwrap();
    put(
        &t,
        ".disk/info",
        format!(
            "Ubuntu-Server {} LTS \"{}\" - Release amd64 (20260423)",
            release.version, release.codename
        )
        .as_bytes(),
    );
    put(&t, "casper/vmlinuz", &file("vmlinuz"));
    put(&t, "casper/initrd", &file("initrd.img"));
    put(&t, "boot/grub/grub.cfg", b"set timeout=30\nloadfont unicode\nmenuentry \"Try or Install Ubuntu Server\" {\n\tset gfxpayload=keep\n\tlinux\t/casper/vmlinuz  ---\n\tinitrd\t/casper/initrd\n}\nmenuentry \"Ubuntu Server with the HWE kernel\" {\n\tlinux\t/casper/hwe-vmlinuz  ---\n\tinitrd\t/casper/hwe-initrd\n}\n");
    put(&t, "EFI/BOOT/BOOTX64.EFI", &file("BOOTX64.EFI"));
    put(&t, "EFI/BOOT/grub.cfg", b"configfile /boot/grub/grub.cfg\n");
    put(&t, "boot/grub/efi.img", &file("efiboot.img"));
    pack_iso(
        &t,
        iso,
        &format!("Ubuntu-Server {} LTS amd64", release.version),
        &[
            "-J",
            "-c",
            "boot.catalog",
            "-e",
            "boot/grub/efi.img",
            "-no-emul-boot",
        ],
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn ubuntu_autoinstall_finds_its_cidata_disk_under_ovmf() {
    ubuntu_autoinstall(&NOBLE).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn ubuntu_26_04_autoinstall_finds_its_cidata_disk_under_ovmf() {
    ubuntu_autoinstall(&RESOLUTE).await;
}

/// Records and images for one Ubuntu host of `release`, booted under OVMF from its boot ISO
/// with its CIDATA disk: the fixture starts our entry and reads the host's own user-data.
async fn ubuntu_autoinstall(release: &Ubuntu) {
    let fx = tokio::task::spawn_blocking(fixture).await.unwrap();
    // Listening: QEMU fetches the install tree from our svc port.
    let s = ubuntu_server(&fx, release).await;
    let (st, body) = s.post("/api/v2/deploy/images", json!(["ubu01"])).await;
    assert_eq!(st, StatusCode::OK, "{body}");

    let (svc, scratch) = (s.svc(), s.dir.path().join("ubuntu"));
    std::fs::create_dir_all(&scratch).unwrap();
    let cd = format!("{}-boot.iso", release.os);
    let out = tokio::task::spawn_blocking(move || {
        let media = (cd.as_str(), Some("ubu01.img"));
        boot(&fx, &svc, media, Firmware::Uefi, &scratch, &[], &[])
    })
    .await
    .unwrap();
    let has = |needle: &str| out.lines().any(|l| l.contains(needle));
    assert!(has("FIXTURE done"), "the fixture ran to the end:\n{out}");
    assert!(
        has("FIXTURE cmdline: BOOT_IMAGE=/casper/vmlinuz autoinstall ds=nocloud"),
        "our entry, not the HWE one or the vendor's:\n{out}"
    );
    assert!(
        has("FIXTURE cidata on /dev/sd"),
        "the CIDATA disk found:\n{out}"
    );
    let user_data = block(&out, "user-data");
    assert_eq!(
        user_data.first().map(|l| l.trim()),
        Some("#cloud-config"),
        "{user_data:?}"
    );
    assert!(
        user_data.iter().any(|l| l.contains("hostname: \"ubu01\"")),
        "the host's own user-data: {user_data:?}"
    );
}

/// A listening server (QEMU fetches from its svc port) with `release`'s ISO mapped and one host
/// of it, `ubu01`, on QEMU's user network.
async fn ubuntu_server(fx: &Path, release: &Ubuntu) -> Server {
    let s = Server::listening().await;
    let file = release.file();
    ubuntu_like_iso(fx, s.dir.path(), release, &s.svc().join(&file));
    set_svc_ip(&s, "10.0.2.2").await;
    add_network(&s, "qemu", "24", "10.0.2.2", "10.0.2.3", "10.0.2.2").await;
    let hosts = json!([{"name": "ubu01", "ip": "10.0.2.15", "os": release.os, "role": "generic", "network_group": "qemu"}]);
    assert!(s.post("/api/v2/hosts", hosts).await.0.is_success());
    let map = json!({"iso_map": [{"file": format!("/svc/{file}"), "os": release.os}]});
    assert_eq!(s.post("/api/v1/isos/map", map).await.0, StatusCode::OK);
    s
}

/// Ubuntu from one device: GRUB must hand `ds=nocloud;s=<seed>` to the kernel whole (a bare
/// `;` would end GRUB's command there), and cloud-init's seed is `svc/ubu01/` over HTTP.
#[tokio::test(flavor = "multi_thread")]
async fn ubuntu_single_device_fetches_its_user_data_over_http_under_ovmf() {
    let fx = tokio::task::spawn_blocking(fixture).await.unwrap();
    let s = ubuntu_server(&fx, &NOBLE).await;
    let (st, body) = s.post("/api/v2/deploy/images", json!(["ubu01"])).await;
    assert_eq!(st, StatusCode::OK, "{body}");
    let app = s.app.clone();
    let id = bootsmith_core::jobs::start(
        &s.app,
        bootsmith_core::jobs::JobKind::Deploy,
        None,
        |job| async move {
            let media =
                bootsmith_core::media::images::single_device_media(&app, &job, "ubu01", &[])
                    .await?;
            Ok(serde_json::to_value(media).unwrap())
        },
    )
    .await
    .unwrap();
    let job = bootsmith_core::jobs::wait(&s.app, id).await.unwrap();
    let media = job.result.unwrap_or_else(|| panic!("{:?}", job.error));
    assert_eq!(
        media["answers"],
        json!(["/svc/ubu01/user-data", "/svc/ubu01/meta-data"])
    );
    let port = port_of(&s);

    let (svc, scratch) = (s.svc(), s.dir.path().join("ubuntu-single"));
    std::fs::create_dir_all(&scratch).unwrap();
    let out = tokio::task::spawn_blocking(move || {
        boot(
            &fx,
            &svc,
            ("ubu01/boot.iso", None),
            Firmware::Uefi,
            &scratch,
            &[],
            &[],
        )
    })
    .await
    .unwrap();
    let has = |needle: &str| out.lines().any(|l| l.contains(needle));
    let seed = format!("http://10.0.2.2:{port}/svc/ubu01/");
    assert!(has("FIXTURE done"), "the fixture ran to the end:\n{out}");
    assert!(
        has(&format!(
            "FIXTURE cmdline: BOOT_IMAGE=/casper/vmlinuz autoinstall ds=nocloud;s={seed}"
        )),
        "the seed reached the kernel whole:\n{out}"
    );
    assert!(
        has(&format!("FIXTURE user-data {seed}user-data fetched")),
        "user-data fetched over HTTP:\n{out}"
    );
    let user_data = block(&out, "user-data");
    assert!(
        user_data.iter().any(|l| l.contains("hostname: \"ubu01\"")),
        "the host's own user-data: {user_data:?}"
    );
}
