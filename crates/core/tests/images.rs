//! Per-host answer-file images written into a real svc directory.

use bootsmith_core::{hosts, images, isos, keys, networks, settings, App, Config, ErrorKind};
use bootsmith_media::fat::read_image;
use serde_json::json;

async fn app() -> (tempfile::TempDir, App) {
    let dir = tempfile::tempdir().unwrap();
    let app = App::open(Config {
        data_dir: dir.path().join("data"),
        svc_dir: dir.path().join("svc"),
        use_keyring: false,
    })
    .await
    .unwrap();
    (dir, app)
}

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

#[tokio::test]
async fn images_hold_the_rendered_answer_files_with_the_family_label() {
    let (_dir, app) = app().await;
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
    let (_dir, app) = app().await;
    records(&app, false).await;
    let err = images::write_answer_images(&app, Some(vec!["node01".into(), "ghost".into()]), 8080)
        .await
        .unwrap_err();
    assert_eq!(
        (err.kind(), err.code()),
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
    let (_dir, app) = app().await;
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
    let ok = std::process::Command::new("xorriso")
        .args([
            "-as",
            "mkisofs",
            "-quiet",
            "-R",
            "-V",
            "CentOS 7 x86_64",
            "-o",
        ])
        .arg(&iso)
        .arg(&tree)
        .status()
        .expect("xorriso is installed")
        .success();
    assert!(ok);
    isos::set_map(
        &app,
        serde_json::from_value(json!({"iso_map": [{"file": "/svc/c7.iso", "os": "centos7.4"}]}))
            .unwrap(),
    )
    .await
    .unwrap();

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
