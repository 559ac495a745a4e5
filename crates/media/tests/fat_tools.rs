//! The per-host image checked with independent tools: fsck.fat and mtools.

use std::process::Command;

use bootsmith_media::fat::{write_image, ImageFile};

#[test]
fn fsck_and_mtools_accept_the_image() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("node01.img");
    let ks = b"text\nurl --url=http://192.0.2.10:8080/svc/centos7.4/\nreboot\n".to_vec();
    write_image(
        &path,
        "OEMDRV",
        &[
            ImageFile {
                name: "ks.cfg".into(),
                contents: ks.clone(),
            },
            ImageFile {
                name: "meta-data".into(),
                contents: b"instance-id: node01\n".to_vec(),
            },
        ],
    )
    .unwrap();

    let fsck = Command::new("fsck.fat")
        .arg("-n")
        .arg("-v")
        .arg(&path)
        .output()
        .expect("fsck.fat (dosfstools) is installed");
    assert!(
        fsck.status.success(),
        "fsck.fat: {}{}",
        String::from_utf8_lossy(&fsck.stdout),
        String::from_utf8_lossy(&fsck.stderr)
    );
    assert!(
        String::from_utf8_lossy(&fsck.stdout).contains("12 bit entries"),
        "{}",
        String::from_utf8_lossy(&fsck.stdout)
    );

    let label = Command::new("mlabel")
        .args(["-s", "-i"])
        .arg(&path)
        .arg("::")
        .output()
        .expect("mtools is installed");
    assert!(
        String::from_utf8_lossy(&label.stdout).contains("OEMDRV"),
        "{}",
        String::from_utf8_lossy(&label.stdout)
    );

    let typed = Command::new("mtype")
        .arg("-i")
        .arg(&path)
        .arg("::ks.cfg")
        .output()
        .unwrap();
    assert!(typed.status.success());
    assert_eq!(typed.stdout, ks);
    let typed = Command::new("mtype")
        .arg("-i")
        .arg(&path)
        .arg("::meta-data")
        .output()
        .unwrap();
    assert_eq!(typed.stdout, b"instance-id: node01\n");
}
