//! Install media written into a real svc directory: per-host answer-file images alone, and
//! the whole image run as a job (install trees, boot ISOs, per-host media) from small
//! installer ISOs of three families built by xorriso.

use std::path::Path;
use std::process::Command;

use bootsmith_core::jobs::{self, JobEvent, JobState, JobStep, StepState};
use bootsmith_core::testing::TempApp;
use bootsmith_core::{
    media::images, media::isos, records::hosts, records::keys, records::networks,
    records::settings, App, ErrorKind,
};
use bootsmith_media::boot::read_file;
use bootsmith_media::fat::read_image;
use bootsmith_media::testing::{bios_and_uefi, pack_iso};
use serde_json::{json, Value};

async fn records(app: &App, with_ip: bool) {
    if with_ip {
        settings::set_svc_ip(
            app,
            serde_json::from_value(json!({"svc_ip": "192.0.2.10"})).unwrap(),
        )
        .await
        .unwrap();
    }
    keys::replace(app, serde_json::from_value(json!({"keys": ["ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJRsCR05CTCVLtFICOdFoTw56mQeLuHhOQNlJKwXUwaI ops@example"]})).unwrap()).await.unwrap();
    networks::create(app, serde_json::from_value(json!({"name": "mgmt", "netmask": "24", "gateway": "192.0.2.1", "nameserver": "192.0.2.53", "ntpserver": "192.0.2.123"})).unwrap()).await.unwrap();
    let list = serde_json::from_value(json!([
        {"name": "node01", "ip": "192.0.2.21", "os": "centos7.4", "role": "k8s master", "network_group": "mgmt"},
        {"name": "ubu01", "ip": "192.0.2.31", "os": "ubuntu24.04", "role": "generic", "network_group": "mgmt"},
        {"name": "esx01", "ip": "192.0.2.41", "os": "esxi8.0", "role": "generic", "network_group": "mgmt"}
    ]))
    .unwrap();
    hosts::replace(app, list).await.unwrap();
}

async fn map_all(app: &App) {
    for f in ["c7.iso", "u24.iso", "esx.iso"] {
        std::fs::write(app.svc_dir().join(f), b"iso").unwrap();
    }
    let map = json!({"iso_map": [{"file": "/svc/c7.iso", "os": "centos7.4"}, {"file": "/svc/u24.iso", "os": "ubuntu24.04"}, {"file": "/svc/esx.iso", "os": "esxi8.0"}]});
    isos::set_map(app, serde_json::from_value(map).unwrap())
        .await
        .unwrap();
}

/// Maps the svc ISO `file` to `os`, and no other.
async fn map_iso(app: &App, file: &str, os: &str) {
    let map = json!({"iso_map": [{"file": format!("/svc/{file}"), "os": os}]});
    isos::set_map(app, serde_json::from_value(map).unwrap())
        .await
        .unwrap();
}

/// Replaces the hosts with one, `name` at `ip` installing `os`, in the network `mgmt`.
async fn only_host(app: &App, name: &str, ip: &str, os: &str) {
    let list =
        json!([{"name": name, "ip": ip, "os": os, "role": "generic", "network_group": "mgmt"}]);
    hosts::replace(app, serde_json::from_value(list).unwrap())
        .await
        .unwrap();
}

/// Writes node01's answer image and gives back its first file (the kickstart) as text.
async fn node01_answer(app: &App) -> String {
    images::write_answer_images(app, Some(vec!["node01".into()]), 8080)
        .await
        .unwrap();
    let (_, files) = read_image(&app.svc_dir().join("node01.img")).unwrap();
    String::from_utf8(files[0].contents.clone()).unwrap()
}

#[tokio::test]
async fn images_hold_the_rendered_answer_files_with_the_family_label() {
    let app = TempApp::new().await;
    records(&app, true).await;
    map_all(&app).await;
    let out = images::write_answer_images(&app, None, 8080).await.unwrap();
    assert_eq!(out.len(), 3);
    assert_eq!(out[0].file.as_deref(), Some("/svc/node01.img"));
    assert!(out[2].file.is_none() && out[2].note.as_deref().unwrap().contains("ESXi"));

    let (label, files) = read_image(&app.svc_dir().join("node01.img")).unwrap();
    assert_eq!(label, "OEMDRV");
    let ks = String::from_utf8(files[0].contents.clone()).unwrap();
    assert!(
        ks.contains("http://192.0.2.10:8080/svc/centos7.4/")
            && ks.contains("192.0.2.21")
            && ks.contains("255.255.255.0"),
        "{ks}"
    );
    assert!(ks.contains("ssh-ed25519"));
    let (label, files) = read_image(&app.svc_dir().join("ubu01.img")).unwrap();
    assert_eq!(label, "CIDATA");
    assert_eq!(
        files.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(),
        ["user-data", "meta-data"]
    );
    assert!(!app.svc_dir().join("esx01.img").exists());

    // The operator's template wins, and images are rewritten on every call.
    std::fs::write(
        app.svc_dir().join("centos7.4.tmpl"),
        "custom for {{ host.name }} at {{ svc_url }}\n",
    )
    .unwrap();
    images::write_answer_images(&app, Some(vec!["node01".into()]), 8080)
        .await
        .unwrap();
    let (_, files) = read_image(&app.svc_dir().join("node01.img")).unwrap();
    assert_eq!(
        files[0].contents,
        b"custom for node01 at http://192.0.2.10:8080/svc\n"
    );

    // A template with an error names the file and the line, and leaves the old image alone.
    std::fs::write(app.svc_dir().join("centos7.4.tmpl"), "ok\n{% for %}\n").unwrap();
    let err = images::write_answer_images(&app, Some(vec!["node01".into()]), 8080)
        .await
        .unwrap_err();
    assert_eq!(err.code(), "template_error");
    assert!(err.to_string().contains("svc/centos7.4.tmpl"), "{err}");
    let (_, files) = read_image(&app.svc_dir().join("node01.img")).unwrap();
    assert_eq!(
        files[0].contents,
        b"custom for node01 at http://192.0.2.10:8080/svc\n"
    );
}

#[tokio::test]
async fn nothing_is_written_until_everything_is_ready() {
    let app = TempApp::new().await;
    records(&app, false).await;
    let err = images::write_answer_images(&app, Some(vec!["node01".into(), "ghost".into()]), 8080)
        .await
        .unwrap_err();
    assert_eq!(
        (err.kind(), err.code().as_str()),
        (ErrorKind::Invalid, "images_not_ready")
    );
    let msgs: Vec<&str> = err.details().iter().map(|p| p.message.as_str()).collect();
    assert!(msgs.iter().any(|m| m.contains("ghost")), "{msgs:?}");
    assert!(
        msgs.iter().any(|m| m.contains("boot-server address")),
        "{msgs:?}"
    );
    assert!(
        msgs.iter().any(|m| m.contains("map an ISO to centos7.4")),
        "{msgs:?}"
    );
    let written: Vec<_> = std::fs::read_dir(app.svc_dir())
        .unwrap()
        .flatten()
        .collect();
    assert!(written.is_empty(), "nothing written: {written:?}");

    // A mapped ISO that has gone missing is caught too.
    settings::set_svc_ip(
        &app,
        serde_json::from_value(json!({"svc_ip": "192.0.2.10"})).unwrap(),
    )
    .await
    .unwrap();
    map_all(&app).await;
    std::fs::remove_file(app.svc_dir().join("u24.iso")).unwrap();
    let err = images::write_answer_images(&app, None, 8080)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("ubuntu24.04"), "{err}");
    assert!(!app.svc_dir().join("node01.img").exists());
}

#[tokio::test]
async fn install_trees_are_extracted_once() {
    let app = TempApp::new().await;
    let tree = app.svc_dir().parent().unwrap().join("media-tree");
    std::fs::create_dir_all(tree.join("images/pxeboot")).unwrap();
    std::fs::write(
        tree.join(".treeinfo"),
        "[general]\nfamily = CentOS\nversion = 7\n",
    )
    .unwrap();
    std::fs::write(tree.join(".discinfo"), "1505340016.186372\n7.4\nx86_64\n").unwrap();
    std::fs::write(tree.join("images/pxeboot/vmlinuz"), vec![3u8; 300_000]).unwrap();
    let iso = app.svc_dir().join("c7.iso");
    pack_iso(&tree, &iso, "CentOS 7 x86_64", &[]);
    map_iso(&app, "c7.iso", "centos7.4").await;

    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let s2 = seen.clone();
    let out = images::extract_trees(&app, &["centos7.4".into()], move |os, done, total| {
        s2.lock().unwrap().push((os.to_owned(), done, total))
    })
    .await
    .unwrap();
    assert!(out[0].built && out[0].files == 3, "{out:?}");
    assert_eq!(
        std::fs::read(app.svc_dir().join("centos7.4/images/pxeboot/vmlinuz"))
            .unwrap()
            .len(),
        300_000
    );
    assert!(app.svc_dir().join("centos7.4/.treeinfo").is_file());
    let last = seen.lock().unwrap().last().cloned().unwrap();
    assert_eq!(
        (last.0.as_str(), last.1),
        ("centos7.4", last.2),
        "progress ends at the total"
    );

    let again = images::extract_trees(&app, &["centos7.4".into()], |_, _, _| {})
        .await
        .unwrap();
    assert!(!again[0].built, "an existing tree is left alone");
    let err = images::extract_trees(&app, &["rocky9".into()], |_, _, _| {})
        .await
        .unwrap_err();
    assert!(err.to_string().contains("map an ISO to rocky9"), "{err}");
}

/// An installer ISO in svc: `files` in the tree, a BIOS entry from `bios`, a UEFI entry
/// from a blank FAT image at `efi`.
fn installer(app: &App, name: &str, volid: &str, files: &[(&str, &str)], bios: &str, efi: &str) {
    let tree = app.svc_dir().parent().unwrap().join(format!("{name}-tree"));
    for (path, text) in files {
        let p = tree.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    std::fs::create_dir_all(tree.join(bios).parent().unwrap()).unwrap();
    std::fs::write(tree.join(bios), vec![0x90u8; 2048]).unwrap();
    let efi_path = tree.join(efi);
    std::fs::create_dir_all(efi_path.parent().unwrap()).unwrap();
    let made = Command::new("mkfs.fat")
        .args(["-C"])
        .arg(&efi_path)
        .arg("1024")
        .output()
        .expect("mkfs.fat is installed");
    assert!(made.status.success());
    let catalog = format!("{}/boot.cat", Path::new(bios).parent().unwrap().display());
    let boot = bios_and_uefi(bios, catalog.trim_start_matches('/'), efi);
    pack_iso(
        &tree,
        &app.svc_dir().join(name),
        volid,
        &[&["-J"][..], &boot].concat(),
    );
}

async fn installers(app: &App) {
    installer(
        app,
        "CentOS-7-x86_64-DVD-1708.iso",
        "CentOS 7 x86_64",
        &[
            (".discinfo", "1505340016.186372\n7.4\nx86_64\n"),
            (".treeinfo", "[general]\nfamily = CentOS\nversion = 7\n"),
            ("isolinux/isolinux.cfg", "default vesamenu.c32\nlabel linux\n  kernel vmlinuz\n  append initrd=initrd.img inst.stage2=hd:LABEL=CentOS\\x207\\x20x86_64 quiet\n"),
            ("isolinux/vmlinuz", "kernel"),
            ("isolinux/initrd.img", "initrd"),
            ("EFI/BOOT/grub.cfg", "search --no-floppy --set=root -l 'CentOS 7 x86_64'\nmenuentry 'Install CentOS 7' {\n\tlinuxefi /images/pxeboot/vmlinuz inst.stage2=hd:LABEL=CentOS\\x207\\x20x86_64 quiet\n\tinitrdefi /images/pxeboot/initrd.img\n}\n"),
            ("images/pxeboot/vmlinuz", "kernel"),
            ("Packages/bash-4.2.rpm", &"p".repeat(400_000)),
        ],
        "isolinux/isolinux.bin",
        "images/efiboot.img",
    );
    installer(
        app,
        "ubuntu-24.04-live-server-amd64.iso",
        "Ubuntu-Server 24.04 LTS amd64",
        &[
            (".disk/info", "Ubuntu-Server 24.04 LTS \"Noble Numbat\" - Release amd64"),
            ("boot/grub/grub.cfg", "menuentry \"Try or Install Ubuntu Server\" {\n\tlinux\t/casper/vmlinuz  ---\n\tinitrd\t/casper/initrd\n}\n"),
            ("casper/vmlinuz", "kernel"),
            ("casper/initrd", "initrd"),
        ],
        "boot/grub/i386-pc/eltorito.img",
        "boot/grub/efi.img",
    );
    installer(
        app,
        "VMware-VMvisor-Installer-8.0.iso",
        "ESXI-8.0.0-20513097",
        &[
            (".DISCINFO", "Version: 8.0.0\n"),
            ("BOOT.CFG", "bootstate=0\ntitle=Loading ESXi installer\nkernel=/b.b00\nkernelopt=runweasel cdromBoot\nmodules=/jumpstrt.gz --- /useropts.gz --- /s.v00\n"),
            ("EFI/BOOT/BOOT.CFG", "bootstate=0\nkernel=/b.b00\nkernelopt=runweasel cdromBoot\nmodules=/jumpstrt.gz --- /useropts.gz --- /s.v00\n"),
        ],
        "ISOLINUX.BIN",
        "EFIBOOT.IMG",
    );
    let map = json!({"iso_map": [
        {"file": "/svc/CentOS-7-x86_64-DVD-1708.iso", "os": "centos7.4"},
        {"file": "/svc/ubuntu-24.04-live-server-amd64.iso", "os": "ubuntu24.04"},
        {"file": "/svc/VMware-VMvisor-Installer-8.0.iso", "os": "esxi8.0"}
    ]});
    let mapped = isos::set_map(app, serde_json::from_value(map).unwrap())
        .await
        .unwrap();
    assert!(mapped.warnings.is_empty(), "{:?}", mapped.warnings);
}

async fn run(app: &App) -> jobs::Job {
    let id = images::start(app, None).await.unwrap();
    jobs::wait(app, id).await.unwrap()
}

fn iso_text(path: &Path, inner: &str) -> String {
    String::from_utf8(read_file(path, inner).unwrap().unwrap()).unwrap()
}

#[tokio::test]
async fn one_run_makes_every_family_s_media() {
    let app = TempApp::new().await;
    app.set_svc_port(8080);
    records(&app, true).await;
    installers(&app).await;
    let job = run(&app).await;
    assert_eq!(job.state, JobState::Succeeded, "{:?}", job.error);
    let result: Value = job.result.clone().unwrap();

    let trees = result["trees"].as_array().unwrap();
    assert_eq!(trees.len(), 3);
    assert!(trees.iter().all(|t| t["built"] == true), "{trees:?}");
    let svc = app.svc_dir();
    assert!(svc.join("centos7.4/Packages/bash-4.2.rpm").is_file());

    let boots: Vec<(&str, bool)> = result["boot_isos"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["file"].as_str().unwrap(),
                b["uefi"] == true && b["bios"] == true,
            )
        })
        .collect();
    assert_eq!(
        boots,
        [
            ("/svc/centos7.4-boot.iso", true),
            ("/svc/ubuntu24.04-boot.iso", true),
            ("/svc/esx01.iso", true)
        ]
    );
    let rhel = svc.join("centos7.4-boot.iso");
    assert!(iso_text(&rhel, "isolinux/isolinux.cfg")
        .contains("inst.stage2=hd:LABEL=BOOTSMITH_C74 inst.ks=hd:LABEL=OEMDRV:/ks.cfg"));
    assert!(
        read_file(&rhel, "Packages/bash-4.2.rpm").unwrap().is_none(),
        "no packages on the boot ISO"
    );
    assert!(
        iso_text(&svc.join("ubuntu24.04-boot.iso"), "boot/grub/grub.cfg")
            .contains("linux /casper/vmlinuz autoinstall ds=nocloud")
    );
    let esx = svc.join("esx01.iso");
    let ks = iso_text(&esx, "KS.CFG");
    assert!(
        ks.contains("--ip=192.0.2.41") && ks.contains("--hostname=esx01"),
        "{ks}"
    );
    assert!(iso_text(&esx, "BOOT.CFG").contains("kernelopt=runweasel cdromBoot ks=cdrom:/KS.CFG"));
    // Every host's answer files are also served in svc/<host>/ (single-device media), the
    // same render: the same install token.
    assert_eq!(
        std::fs::read_to_string(svc.join("esx01/ks.cfg")).unwrap(),
        ks
    );
    let (_, on_disk) = read_image(&svc.join("ubu01.img")).unwrap();
    for f in &on_disk {
        assert_eq!(
            std::fs::read(svc.join("ubu01").join(&f.name)).unwrap(),
            f.contents,
            "{}",
            f.name
        );
    }
    assert!(svc.join("node01/ks.cfg").is_file());

    let imgs: Vec<&str> = result["images"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["file"].as_str().unwrap())
        .collect();
    assert_eq!(imgs, ["/svc/node01.img", "/svc/ubu01.img"]);
    assert!(!svc.join("esx01.img").exists());

    // Progress: bytes of the extraction, every host's step started then done, finished last.
    let events: Vec<&JobEvent> = job.events.iter().map(|r| &r.event).collect();
    assert!(events.iter().any(|e| matches!(e, JobEvent::Bytes { step: JobStep::Extract, host: Some(os), done, total } if os == "centos7.4" && done == total && *total > 400_000)));
    for host in ["node01", "ubu01", "esx01"] {
        let states: Vec<StepState> = events
            .iter()
            .filter_map(|e| match e {
                JobEvent::Step {
                    host: Some(h),
                    state,
                    ..
                } if h == host => Some(*state),
                _ => None,
            })
            .collect();
        assert_eq!(states, [StepState::Started, StepState::Done], "{host}");
    }
    assert!(matches!(events.last(), Some(JobEvent::Finished { .. })));

    // Again: trees and boot ISOs are left alone (seed rule), answer images rewritten.
    let before = std::fs::metadata(&rhel).unwrap().modified().unwrap();
    let img_before = std::fs::read(svc.join("node01.img")).unwrap();
    let again = run(&app).await;
    assert_eq!(again.state, JobState::Succeeded);
    let r = again.result.unwrap();
    assert!(r["trees"]
        .as_array()
        .unwrap()
        .iter()
        .all(|t| t["built"] == false));
    assert!(r["boot_isos"]
        .as_array()
        .unwrap()
        .iter()
        .all(|b| b["built"] == false));
    assert_eq!(
        std::fs::metadata(&rhel).unwrap().modified().unwrap(),
        before
    );
    assert_ne!(
        std::fs::read(svc.join("node01.img")).unwrap(),
        img_before,
        "new password hash each run"
    );
}

#[tokio::test]
async fn an_unbootable_iso_is_refused_before_anything_is_written() {
    let app = TempApp::new().await;
    app.set_svc_port(8080);
    records(&app, true).await;
    let tree = app.path().join("data-only");
    std::fs::create_dir_all(&tree).unwrap();
    std::fs::write(tree.join(".discinfo"), "1\n7.4\nx86_64\n").unwrap();
    pack_iso(&tree, &app.svc_dir().join("c7.iso"), "DATA", &[]);
    map_iso(&app, "c7.iso", "centos7.4").await;
    let err = images::start(&app, Some(vec!["node01".into()]))
        .await
        .unwrap_err();
    assert_eq!(err.code(), "images_not_ready");
    assert!(err.to_string().contains("no boot entry"), "{err}");
    let names: Vec<_> = std::fs::read_dir(app.svc_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, ["c7.iso"], "nothing written");
}

/// An RPM as RHVH ships its image: lead, empty signature and header sections, and an
/// xz-compressed cpio payload (made by bsdtar) holding the squashfs.
fn image_update_rpm(dir: &Path, squashfs: &[u8]) -> Vec<u8> {
    let root = dir.join("rpm-root");
    let img = root.join("usr/share/redhat-virtualization-host/image");
    std::fs::create_dir_all(&img).unwrap();
    std::fs::write(
        img.join("redhat-virtualization-host-4.3.20-20220101.0.el7_9.squashfs.img"),
        squashfs,
    )
    .unwrap();
    let cpio = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "bsdtar --format newc -cf - -C '{}' ./usr | xz -0",
            root.display()
        ))
        .output()
        .unwrap();
    assert!(cpio.status.success());
    let mut rpm = vec![0xed, 0xab, 0xee, 0xdb, 3, 0, 0, 0, 0, 1];
    rpm.extend(b"redhat-virtualization-host-image-update");
    rpm.resize(76, 0);
    rpm.extend([0, 1, 0, 5]);
    rpm.resize(96, 0);
    for _ in 0..2 {
        rpm.extend([0x8e, 0xad, 0xe8, 0x01, 0, 0, 0, 0]);
        rpm.extend([0u8; 8]); // no index entries, no data
    }
    rpm.extend(cpio.stdout);
    rpm
}

#[tokio::test]
async fn rhvh_gets_its_squashfs_out_of_the_rpm() {
    let app = TempApp::new().await;
    app.set_svc_port(8080);
    records(&app, true).await;
    only_host(&app, "rhv01", "192.0.2.51", "rhvh4.3").await;
    let squashfs: Vec<u8> = (0..300_000u32).map(|i| ((i * 7919) >> 5) as u8).collect();
    let tree = app
        .svc_dir()
        .parent()
        .unwrap()
        .join("rhvh.iso-tree/Packages");
    std::fs::create_dir_all(&tree).unwrap();
    std::fs::write(
        tree.join("redhat-virtualization-host-image-update-4.3.20-20220101.0.el7_9.noarch.rpm"),
        image_update_rpm(app.path(), &squashfs),
    )
    .unwrap();
    installer(
        &app,
        "rhvh.iso",
        "RHVH-4.3 RHVH.x86_64",
        &[
            (".discinfo", "1640000000.0\nRHVH 4.3\nx86_64\n"),
            ("isolinux/isolinux.cfg", "label linux\n  kernel vmlinuz\n  append initrd=initrd.img inst.stage2=hd:LABEL=RHVH-4.3\\x20RHVH.x86_64 quiet\n"),
        ],
        "isolinux/isolinux.bin",
        "images/efiboot.img",
    );
    map_iso(&app, "rhvh.iso", "rhvh4.3").await;
    let job = run(&app).await;
    assert_eq!(job.state, JobState::Succeeded, "{:?}", job.error);
    let served = app.svc_dir().join("rhvh4.3/squashfs.img");
    assert_eq!(std::fs::read(&served).unwrap(), squashfs);
    let (label, files) = read_image(&app.svc_dir().join("rhv01.img")).unwrap();
    assert_eq!(label, "OEMDRV");
    let ks = String::from_utf8(files[0].contents.clone()).unwrap();
    assert!(
        ks.contains("liveimg --url=http://192.0.2.10:8080/svc/rhvh4.3/squashfs.img"),
        "{ks}"
    );
    let left: Vec<String> = std::fs::read_dir(app.svc_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| bootsmith_media::work::is_work(n))
        .collect();
    assert!(left.is_empty(), "staging removed: {left:?}");

    // An RHVH tree without the image RPM is refused with the reason.
    std::fs::remove_file(&served).unwrap();
    for e in std::fs::read_dir(app.svc_dir().join("rhvh4.3/Packages")).unwrap() {
        std::fs::remove_file(e.unwrap().path()).unwrap();
    }
    let failed = run(&app).await;
    assert_eq!(failed.state, JobState::Failed);
    let err = failed.error.unwrap();
    assert!(
        err.error
            .contains("redhat-virtualization-host-image-update"),
        "{}",
        err.error
    );
}

#[tokio::test]
async fn windows_needs_the_operators_winpe_and_gets_its_tree_and_answer_disk() {
    let app = TempApp::new().await;
    app.set_svc_port(8080);
    records(&app, true).await;
    only_host(&app, "win01", "192.0.2.61", "win2019").await;
    installer(
        &app,
        "win2019.iso",
        "SSS_X64FRE_EN-US_DV9",
        &[
            (
                "sources/idwbinfo.txt",
                "[BUILDINFO]\nBuildBranch=rs5_release\n",
            ),
            ("setup.exe", "MZ"),
        ],
        "boot/etfsboot.com",
        "efi/microsoft/boot/efisys.bin",
    );
    map_iso(&app, "win2019.iso", "win2019").await;

    let err = images::start(&app, None).await.unwrap_err();
    assert_eq!(err.code(), "images_not_ready");
    assert!(
        err.to_string()
            .contains("WinPE_SVC.iso, which is not there")
            && err.to_string().contains("MakeWinPEMedia"),
        "says what to do: {err}"
    );
    assert!(!app.svc_dir().join("win2019").exists(), "nothing extracted");

    std::fs::write(app.svc_dir().join("WinPE_SVC.iso"), b"operator's WinPE").unwrap();
    let job = run(&app).await;
    assert_eq!(job.state, JobState::Succeeded, "{:?}", job.error);
    assert!(
        app.svc_dir().join("win2019/setup.exe").is_file(),
        "install tree for setup"
    );
    let r = job.result.unwrap();
    assert_eq!(r["boot_isos"][0]["file"], "/svc/WinPE_SVC.iso");
    let (label, files) = read_image(&app.svc_dir().join("win01.img")).unwrap();
    assert_eq!(label, "UNATTEND");
    let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "autounattend.xml",
            "network.txt",
            "bootsmith-disk.cmd",
            "bootsmith-disk.ps1",
            "bootsmith-network.ps1"
        ]
    );
    assert!(
        !app.svc_dir().join("win01").exists(),
        "WinPE reads its disk: nothing served over HTTP"
    );
    let net = String::from_utf8(files[1].contents.clone()).unwrap();
    assert!(
        net.contains("192.0.2.61") && net.contains("192.0.2.10"),
        "{net}"
    );
}

/// KUBAM's `/api/v1/proxy`: the proxy of every network group that names none, and only of those.
#[tokio::test]
async fn the_default_proxy_reaches_hosts_whose_network_names_none() {
    let app = TempApp::new().await;
    records(&app, true).await;
    map_all(&app).await;
    let ks = node01_answer(&app).await;
    assert!(!ks.contains("proxy.lab"), "{ks}");

    settings::set_proxy(
        &app,
        serde_json::from_value(json!({"proxy": "http://proxy.lab:3128"})).unwrap(),
    )
    .await
    .unwrap();
    let ks = node01_answer(&app).await;
    assert!(ks.contains("http://proxy.lab:3128"), "{ks}");

    // A network's own proxy wins.
    let net = networks::list(&app).await.unwrap().remove(0);
    let mut input = serde_json::to_value(&net).unwrap();
    input["proxy"] = json!("http://own.lab:8080");
    networks::update(&app, serde_json::from_value(input).unwrap())
        .await
        .unwrap();
    let ks = node01_answer(&app).await;
    assert!(
        ks.contains("http://own.lab:8080") && !ks.contains("proxy.lab"),
        "{ks}"
    );
}
