//! Boot ISOs built from synthetic installer ISOs of each family, checked with
//! xorriso (an independent tool) and our own readers.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::{bios_and_uefi, pack_iso};

use bootsmith_media::boot::{self, Answers, Built, Flavor};

fn write(root: &Path, rel: &str, contents: &[u8]) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, contents).unwrap();
}

/// A FAT image holding `files` (made with mkfs.fat and mtools, not our code).
fn fat_image(path: &Path, files: &[(&str, &[u8])]) {
    let _ = std::fs::remove_file(path);
    let ok = Command::new("mkfs.fat")
        .args(["-C", "-n", "EFIBOOT"])
        .arg(path)
        .arg("2048")
        .output()
        .expect("mkfs.fat (dosfstools) is installed")
        .status
        .success();
    assert!(ok);
    for (name, contents) in files {
        let dir = path.with_extension("src");
        std::fs::create_dir_all(&dir).unwrap();
        let local = dir.join(name.replace('/', "_"));
        std::fs::write(&local, contents).unwrap();
        let mut parts: Vec<&str> = name.split('/').collect();
        parts.pop();
        let mut so_far = String::new();
        for p in parts {
            so_far = format!("{so_far}/{p}");
            let _ = Command::new("mmd")
                .arg("-i")
                .arg(path)
                .arg(format!("::{so_far}"))
                .output();
        }
        let st = Command::new("mcopy")
            .arg("-i")
            .arg(path)
            .arg(&local)
            .arg(format!("::/{name}"))
            .status()
            .expect("mtools is installed");
        assert!(st.success());
    }
}

fn mkiso(tree: &Path, out: &Path, volid: &str, boot: &[&str]) {
    pack_iso(tree, out, volid, &[&["-J"][..], boot].concat());
}

const RHEL_GRUB: &str = "set default=\"1\"\n\nfunction load_video {\n  insmod all_video\n}\n\nsearch --no-floppy --set=root -l 'RHEL-8-4-0-BaseOS-x86_64'\n\nmenuentry 'Install Red Hat Enterprise Linux 8.4' --class fedora --class gnu-linux --class gnu --class os {\n\tlinuxefi /images/pxeboot/vmlinuz inst.stage2=hd:LABEL=RHEL-8-4-0-BaseOS-x86_64 quiet\n\tinitrdefi /images/pxeboot/initrd.img\n}\nmenuentry 'Test this media & install Red Hat Enterprise Linux 8.4' --class fedora --class gnu-linux --class gnu --class os {\n\tlinuxefi /images/pxeboot/vmlinuz inst.stage2=hd:LABEL=RHEL-8-4-0-BaseOS-x86_64 rd.live.check quiet\n\tinitrdefi /images/pxeboot/initrd.img\n}\n";
const RHEL_ISOLINUX: &str = "default vesamenu.c32\ntimeout 600\n\nlabel linux\n  menu label ^Install Red Hat Enterprise Linux 8.4\n  kernel vmlinuz\n  append initrd=initrd.img inst.stage2=hd:LABEL=RHEL-8-4-0-BaseOS-x86_64 quiet\n\nlabel check\n  menu label Test this ^media & install Red Hat Enterprise Linux 8.4\n  menu default\n  kernel vmlinuz\n  append initrd=initrd.img inst.stage2=hd:LABEL=RHEL-8-4-0-BaseOS-x86_64 rd.live.check quiet\n";

/// A RHEL 8 DVD in miniature: isolinux, EFI, images with efiboot.img and install.img, repos.
fn rhel_iso(dir: &Path) -> PathBuf {
    let t = dir.join("rhel-tree");
    write(&t, ".discinfo", b"1620000000.000\n8.4\nx86_64\n");
    write(
        &t,
        ".treeinfo",
        b"[general]\nname = Red Hat Enterprise Linux 8.4\n",
    );
    write(&t, "isolinux/isolinux.bin", &[0x90u8; 4096]);
    write(&t, "isolinux/isolinux.cfg", RHEL_ISOLINUX.as_bytes());
    write(&t, "isolinux/vmlinuz", b"kernel");
    write(&t, "isolinux/initrd.img", b"initrd");
    write(&t, "images/pxeboot/vmlinuz", b"kernel");
    write(&t, "images/pxeboot/initrd.img", b"initrd");
    write(&t, "images/install.img", &vec![7u8; 300_000]);
    write(&t, "EFI/BOOT/grub.cfg", RHEL_GRUB.as_bytes());
    write(&t, "EFI/BOOT/BOOTX64.EFI", b"shim");
    fat_image(
        &t.join("images/efiboot.img"),
        &[
            ("EFI/BOOT/grub.cfg", RHEL_GRUB.as_bytes()),
            ("EFI/BOOT/BOOTX64.EFI", b"shim"),
        ],
    );
    std::fs::remove_dir_all(t.join("images/efiboot.src")).unwrap();
    write(&t, "BaseOS/Packages/bash-4.4.rpm", &vec![1u8; 2_000_000]);
    write(&t, "AppStream/repodata/repomd.xml", b"<repomd/>");
    let iso = dir.join("rhel-8.4.iso");
    mkiso(
        &t,
        &iso,
        "RHEL-8-4-0-BaseOS-x86_64",
        &bios_and_uefi(
            "isolinux/isolinux.bin",
            "isolinux/boot.cat",
            "images/efiboot.img",
        ),
    );
    iso
}

/// What `xorriso -report_el_torito plain` says about an ISO.
fn el_torito(iso: &Path) -> String {
    let o = Command::new("xorriso")
        .arg("-indev")
        .arg(iso)
        .args(["-report_el_torito", "plain"])
        .output()
        .unwrap();
    // xorriso prints the volume id among its messages on stderr.
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stderr),
        String::from_utf8_lossy(&o.stdout)
    )
}

fn files(iso: &Path) -> Vec<String> {
    let o = Command::new("xorriso")
        .arg("-indev")
        .arg(iso)
        .args(["-find", "/", "-type", "f"])
        .output()
        .unwrap();
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| l.trim_matches('\'').to_owned())
        .collect()
}

fn text(iso: &Path, path: &str) -> String {
    String::from_utf8(boot::read_file(iso, path).unwrap().unwrap_or_default()).unwrap()
}

fn build(src: &Path, out: &Path, flavor: Flavor<'_>, answers: Answers<'_>) -> Built {
    let mut last = (0, 0);
    let built = boot::build(src, out, flavor, answers, "Install it", &mut |d, t| {
        last = (d, t)
    })
    .unwrap();
    assert!(
        last.1 > 0 && last.0 == last.1,
        "progress ends at the total: {last:?}"
    );
    built
}

#[test]
fn rhel_boot_iso_has_both_entries_our_config_and_only_boot_files() {
    let dir = tempfile::tempdir().unwrap();
    let src = rhel_iso(dir.path());
    let out = dir.path().join("svc/rhel8.4-boot.iso");
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    let built = build(
        &src,
        &out,
        Flavor::Rhel {
            volume_id: "BOOTSMITH_RH84",
        },
        Answers::Disk,
    );
    assert!(built.bios && built.uefi, "{built:?}");

    let report = el_torito(&out);
    assert!(
        report.contains("Volume id    : 'BOOTSMITH_RH84'"),
        "{report}"
    );
    assert!(
        report.contains("El Torito boot img :   1  BIOS"),
        "{report}"
    );
    assert!(
        report.contains("El Torito boot img :   2  UEFI"),
        "{report}"
    );
    assert!(report.contains("/isolinux/isolinux.bin"), "{report}");
    assert!(report.contains("/images/efiboot.img"), "{report}");

    let isolinux = text(&out, "isolinux/isolinux.cfg");
    assert!(
        isolinux.contains(
            "append initrd=initrd.img inst.stage2=hd:LABEL=BOOTSMITH_RH84 inst.ks=hd:LABEL=OEMDRV:/ks.cfg"
        ),
        "{isolinux}"
    );
    assert!(!isolinux.contains("rd.live.check"));
    let grub = text(&out, "EFI/BOOT/grub.cfg");
    assert!(
        grub.contains("search --no-floppy --set=root -l 'BOOTSMITH_RH84'"),
        "{grub}"
    );
    assert!(grub.contains("linuxefi /images/pxeboot/vmlinuz inst.stage2=hd:LABEL=BOOTSMITH_RH84 inst.ks=hd:LABEL=OEMDRV:/ks.cfg"), "{grub}");

    // The copy UEFI firmware actually starts from: the grub.cfg inside efiboot.img, read with mtools.
    let efi = dir.path().join("efiboot.img");
    std::fs::write(
        &efi,
        boot::read_file(&out, "images/efiboot.img")
            .unwrap()
            .unwrap(),
    )
    .unwrap();
    let o = Command::new("mtype")
        .arg("-i")
        .arg(&efi)
        .arg("::/EFI/BOOT/grub.cfg")
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&o.stdout), grub);
    let fsck = Command::new("fsck.fat")
        .arg("-n")
        .arg(&efi)
        .output()
        .unwrap();
    assert!(
        fsck.status.success(),
        "{}",
        String::from_utf8_lossy(&fsck.stdout)
    );

    let listed = files(&out);
    for kept in [
        "/isolinux/vmlinuz",
        "/images/install.img",
        "/images/pxeboot/initrd.img",
        "/.treeinfo",
        "/.discinfo",
        "/EFI/BOOT/BOOTX64.EFI",
    ] {
        assert!(listed.iter().any(|f| f == kept), "{kept} in {listed:?}");
    }
    assert!(
        !listed
            .iter()
            .any(|f| f.starts_with("/BaseOS") || f.starts_with("/AppStream")),
        "packages come over HTTP, not on the boot ISO: {listed:?}"
    );
    assert!(std::fs::metadata(&out).unwrap().len() < std::fs::metadata(&src).unwrap().len());
    let leftovers: Vec<_> = std::fs::read_dir(out.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        leftovers,
        vec![std::ffi::OsString::from("rhel8.4-boot.iso")]
    );
}

/// RHEL 10's media boot BIOS with GRUB 2 (`images/eltorito.img`, `boot/grub2/grub.cfg`), not
/// isolinux: the boot ISO keeps those files and starts our entry from that config too.
#[test]
fn a_rhel10_boot_iso_keeps_grub2s_bios_boot_and_starts_our_entry() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("rhel-10.1.iso");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/sample-iso.sh");
    let made = Command::new("bash")
        .arg(script)
        .arg(&src)
        .arg("rhel10.1")
        .output()
        .unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let out = dir.path().join("svc/rhel10.1-boot.iso");
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    let built = build(
        &src,
        &out,
        Flavor::Rhel {
            volume_id: "BOOTSMITH_RH101",
        },
        Answers::Disk,
    );
    assert!(built.bios && built.uefi, "{built:?}");
    let report = el_torito(&out);
    assert!(report.contains("/images/eltorito.img"), "{report}");
    let listed = files(&out);
    assert!(
        listed.iter().any(|f| f == "/boot/grub2/i386-pc/normal.mod"),
        "GRUB's BIOS modules are kept: {listed:?}"
    );
    let bios = text(&out, "boot/grub2/grub.cfg");
    assert!(
        bios.contains("inst.stage2=hd:LABEL=BOOTSMITH_RH101 inst.ks=hd:LABEL=OEMDRV:/ks.cfg"),
        "{bios}"
    );
    assert!(
        boot::boot_configs_mention(&out, "inst.ks=hd:LABEL=OEMDRV:/ks.cfg").unwrap(),
        "the rewritten configs are found where a rebuild looks"
    );
}

#[test]
fn esxi_iso_carries_the_kickstart_and_the_vendor_module_list() {
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().join("esxi-tree");
    // A module list no template could know: it must survive untouched.
    let modules = "/b.b00 --- /jumpstrt.gz --- /useropts.gz --- /features.gz --- /k.b00 --- /vendor1.v00 --- /zz_custom.v07";
    let cfg = format!(
        "bootstate=0\r\ntitle=Loading ESXi installer\r\ntimeout=5\r\nprefix=\r\nkernel=/b.b00\r\nkernelopt=runweasel cdromBoot\r\nmodules={modules}\r\nbuild=7.0.3-0.0.19193900\r\nupdated=0\r\n"
    );
    write(&t, "BOOT.CFG", cfg.as_bytes());
    write(&t, "EFI/BOOT/BOOT.CFG", cfg.as_bytes());
    write(&t, "ISOLINUX.BIN", &[0x90u8; 4096]);
    write(
        &t,
        "ISOLINUX.CFG",
        b"DEFAULT menu.c32\nLABEL install\n  KERNEL mboot.c32\n  APPEND -c boot.cfg\n",
    );
    write(&t, ".DISCINFO", b"Version: 7.0.3\n");
    write(&t, "B.B00", &[5u8; 100_000]);
    fat_image(
        &t.join("EFIBOOT.IMG"),
        &[("EFI/BOOT/BOOTX64.EFI", b"esxi efi")],
    );
    std::fs::remove_dir_all(t.join("EFIBOOT.src")).unwrap();
    let src = dir.path().join("esxi.iso");
    mkiso(
        &t,
        &src,
        "ESXI-7.0U3-19193900",
        &bios_and_uefi("ISOLINUX.BIN", "BOOT.CAT", "EFIBOOT.IMG"),
    );
    let out = dir.path().join("esx01.iso");
    let ks = b"vmaccepteula\ninstall --firstdisk\n";
    let built = build(&src, &out, Flavor::Esxi, Answers::OnIso(ks));
    assert!(built.bios && built.uefi);
    let report = el_torito(&out);
    assert!(
        report.contains("BIOS") && report.contains("UEFI"),
        "{report}"
    );
    assert_eq!(text(&out, "KS.CFG").as_bytes(), ks);
    for path in ["BOOT.CFG", "EFI/BOOT/BOOT.CFG"] {
        let got = text(&out, path);
        assert!(got.contains(&format!("modules={modules}\r\n")), "{got}");
        assert!(
            got.contains("kernelopt=runweasel cdromBoot ks=cdrom:/KS.CFG\r\n"),
            "{got}"
        );
        assert!(got.contains("build=7.0.3-0.0.19193900\r\n"));
    }
    assert!(files(&out).contains(&"/B.B00".to_owned()));
}

#[test]
fn ubuntu_boot_iso_keeps_an_appended_efi_partition_and_starts_autoinstall() {
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().join("ubuntu-tree");
    write(
        &t,
        ".disk/info",
        b"Ubuntu-Server 22.04.3 LTS \"Jammy Jellyfish\"",
    );
    write(&t, "casper/vmlinuz", b"kernel");
    write(&t, "casper/initrd", b"initrd");
    write(&t, "boot/grub/i386-pc/eltorito.img", &[0x90u8; 4096]);
    write(
        &t,
        "boot/grub/grub.cfg",
        b"set timeout=30\nloadfont unicode\nmenuentry \"Try or Install Ubuntu Server\" {\n\tset gfxpayload=keep\n\tlinux\t/casper/vmlinuz  ---\n\tinitrd\t/casper/initrd\n}\nmenuentry \"Ubuntu Server with the HWE kernel\" {\n\tlinux\t/casper/hwe-vmlinuz  ---\n\tinitrd\t/casper/hwe-initrd\n}\n",
    );
    write(
        &t,
        "EFI/boot/grub.cfg",
        b"search --set=root --file /.disk/info\nconfigfile /boot/grub/grub.cfg\n",
    );
    let efi = dir.path().join("efi.img");
    fat_image(&efi, &[("EFI/boot/bootx64.efi", b"grub")]);
    let src = dir.path().join("ubuntu.iso");
    // Like the real 22.04 ISO: the UEFI image is an appended partition, not a file in the tree.
    mkiso(
        &t,
        &src,
        "Ubuntu-Server 22.04.3 LTS amd64",
        &[
            "-b",
            "boot/grub/i386-pc/eltorito.img",
            "-c",
            "boot.catalog",
            "-no-emul-boot",
            "-boot-load-size",
            "4",
            "-boot-info-table",
            "-append_partition",
            "2",
            "0xef",
            efi.to_str().unwrap(),
            "-eltorito-alt-boot",
            "-e",
            "--interval:appended_partition_2:all::",
            "-no-emul-boot",
        ],
    );
    let out = dir.path().join("ubuntu22.04-boot.iso");
    let built = build(&src, &out, Flavor::Ubuntu, Answers::Disk);
    assert!(built.bios && built.uefi, "{built:?}");
    let report = el_torito(&out);
    assert!(report.contains("UEFI"), "{report}");
    let grub = text(&out, "boot/grub/grub.cfg");
    assert!(
        grub.contains("\tlinux /casper/vmlinuz autoinstall ds=nocloud\n"),
        "{grub}"
    );
    assert!(grub.contains("\tinitrd /casper/initrd\n"), "{grub}");
    assert!(!grub.contains("hwe"), "{grub}");
    assert_eq!(
        text(&out, "EFI/boot/grub.cfg"),
        "search --set=root --file /.disk/info\nconfigfile /boot/grub/grub.cfg\n",
        "a hand-over stub is left as it is"
    );
    assert!(files(&out).contains(&"/.disk/info".to_owned()));
}

#[test]
fn bad_sources_are_refused_and_leave_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let svc = dir.path().join("svc");
    std::fs::create_dir_all(&svc).unwrap();
    let out = svc.join("x-boot.iso");
    let rhel = Flavor::Rhel {
        volume_id: "BOOTSMITH_X",
    };
    let fail = |src: &Path, flavor: Flavor<'_>| {
        let answers = match flavor {
            Flavor::Esxi => Answers::OnIso(b"ks"),
            _ => Answers::Disk,
        };
        boot::build(src, &out, flavor, answers, "t", &mut |_, _| {})
            .unwrap_err()
            .to_string()
    };

    let text_file = dir.path().join("notes.iso");
    std::fs::write(&text_file, vec![b'x'; 100_000]).unwrap();
    assert!(fail(&text_file, rhel).contains("not a usable ISO"));

    let good = rhel_iso(dir.path());
    let bytes = std::fs::read(&good).unwrap();
    let truncated = dir.path().join("truncated.iso");
    std::fs::write(&truncated, &bytes[..bytes.len() / 3]).unwrap();
    let e = fail(&truncated, rhel);
    assert!(
        e.contains("truncated") || e.contains("not a usable ISO"),
        "{e}"
    );

    let plain_tree = dir.path().join("plain");
    write(&plain_tree, "readme.txt", b"no boot");
    let plain = dir.path().join("plain.iso");
    mkiso(&plain_tree, &plain, "DATA", &[]);
    assert!(fail(&plain, rhel).contains("no El Torito boot entry"));
    // An ESXi build from a RHEL ISO: no BOOT.CFG.
    assert!(fail(&good, Flavor::Esxi).contains("no BOOT.CFG"));
    let bad_label = Flavor::Rhel {
        volume_id: "has space",
    };
    assert!(fail(&good, bad_label).contains("volume id"));

    let left: Vec<_> = std::fs::read_dir(&svc).unwrap().collect();
    assert!(left.is_empty(), "nothing written: {left:?}");
}

/// A tmpfs of `size` mounted in a temp dir, unmounted when dropped: a disk that fills up.
struct SmallDisk {
    path: PathBuf,
    _dir: tempfile::TempDir,
}

impl SmallDisk {
    /// None when not root (mounting needs it; CI runs as root, and there it fails instead).
    fn mount(size: &str) -> Option<SmallDisk> {
        if !is_root() {
            bootsmith_sim::fixture::missing(
                &bootsmith_sim::fixture::test_name(),
                "root (mounting a small tmpfs needs it)",
                "Run the tests as root, as CI does",
            );
            return None;
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("disk");
        std::fs::create_dir_all(&path).unwrap();
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(&path)
            .status()
            .unwrap();
        assert!(mounted.success(), "mount a {size} tmpfs");
        Some(SmallDisk { path, _dir: dir })
    }

    fn names(&self) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(&self.path)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        v.sort();
        v
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.path).status();
    }
}

#[test]
fn a_full_disk_fails_cleanly() {
    let Some(disk) = SmallDisk::mount("1600k") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let src = rhel_iso(dir.path());

    // The answer image: the old one stays whole when the new one does not fit.
    use bootsmith_media::fat::{read_image, write_image, ImageFile};
    let img = disk.path.join("node01.img");
    let ks = |text: &str| {
        vec![ImageFile {
            name: "ks.cfg".into(),
            contents: text.as_bytes().to_vec(),
        }]
    };
    write_image(&img, "OEMDRV", &ks("old")).unwrap();
    let e = write_image(&img, "OEMDRV", &ks("new"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("No space"), "{e}");
    assert_eq!(read_image(&img).unwrap().1[0].contents, b"old");
    assert_eq!(disk.names(), ["node01.img"], "no temp file left");
    std::fs::remove_file(&img).unwrap();

    // Extraction: ~2.3 MB of files into 1.6 MB: no tree, no partial tree.
    let e = bootsmith_media::extract::extract(&src, &disk.path.join("rhel8.4"), &mut |_, _| {})
        .unwrap_err()
        .to_string();
    assert!(e.contains("No space"), "{e}");
    assert!(disk.names().is_empty(), "nothing left: {:?}", disk.names());

    // The boot ISO: xorriso fails, no partial ISO or staging left. On a disk of its own: the
    // space the failed extraction gave back is not always counted free at once (tmpfs keeps its
    // block count per CPU), which made a filler on the same disk fail now and then.
    let Some(disk) = SmallDisk::mount("400k") else {
        return;
    };
    let out = disk.path.join("rhel-boot.iso");
    let rhel = Flavor::Rhel {
        volume_id: "BOOTSMITH_X",
    };
    let e = boot::build(&src, &out, rhel, Answers::Disk, "t", &mut |_, _| {})
        .unwrap_err()
        .to_string();
    assert!(e.contains("xorriso") || e.contains("No space"), "{e}");
    assert!(
        disk.names().is_empty(),
        "no partial ISO or staging left: {:?}",
        disk.names()
    );
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| o.stdout.starts_with(b"0\n"))
        .unwrap_or(false)
}
