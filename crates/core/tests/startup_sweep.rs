//! Opening the app sweeps what crashed runs left at the top of svc, and nothing else; a second
//! app on the same svc (the window beside `serve`) leaves the first one's work alone.

use bootsmith_core::testing::{open, TempApp};
use bootsmith_media::work::{self, Kind};

#[tokio::test]
async fn opening_the_app_sweeps_leftovers_of_crashed_runs_only() {
    let dir = tempfile::tempdir().unwrap();
    let svc = dir.path().join("svc");
    std::fs::create_dir_all(&svc).unwrap();
    // A crashed run's answer image, boot ISO, half-extracted tree; an earlier version's upload.
    let image = work::path(&svc, "node01.img", Kind::Tmp);
    std::fs::write(&image, vec![0u8; 1 << 20]).unwrap();
    let iso = work::path(&svc, "centos7.4-boot.iso", Kind::Partial);
    std::fs::write(&iso, vec![0u8; 4096]).unwrap();
    let tree = work::path(&svc, "centos7.4", Kind::Partial);
    std::fs::create_dir_all(tree.join("LiveOS")).unwrap();
    std::fs::write(tree.join("LiveOS/squashfs.img"), vec![0u8; 8192]).unwrap();
    let upload = svc.join(".import-3f2b9c1e-8d7a-4b6c-9e0f-1a2b3c4d5e6f.partial");
    std::fs::write(&upload, b"half an ISO").unwrap();
    // The operator's files and finished media.
    std::fs::write(svc.join(".hidden"), b"the operator's").unwrap();
    std::fs::write(svc.join("CentOS-7.iso"), b"an ISO").unwrap();
    std::fs::create_dir(svc.join("centos7.4")).unwrap();
    std::fs::write(svc.join("centos7.4/.treeinfo"), b"[general]").unwrap();

    let app = TempApp::open_in(dir).await;
    for gone in [&image, &iso, &tree, &upload] {
        assert!(!gone.exists(), "{} is swept", gone.display());
    }
    let svc = app.svc_dir();
    let mut left: Vec<String> = std::fs::read_dir(svc)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    left.sort();
    assert_eq!(left, [".hidden", "CentOS-7.iso", "centos7.4"]);
    assert!(svc.join("centos7.4/.treeinfo").is_file());

    // While this app is open, a second one on the same directories sweeps nothing: the
    // hidden file could be this one's upload in progress.
    let live = work::path(svc, "import", Kind::Partial);
    std::fs::write(&live, b"being written").unwrap();
    let second = open(app.path()).await;
    assert!(
        live.exists(),
        "a running app's work in progress is left alone"
    );
    second.close().await;
    drop(second);
    let dir = app.close().await;
    // With neither open, the next start sweeps it.
    let app = TempApp::open_in(dir).await;
    assert!(!live.exists());
    app.close().await;
}
