//! Single-device media (issue 16): for a BMC with one virtual-media device, each host's
//! answer files are served in `svc/<host>/` (written with its image, same token) and
//! `images::single_device_media` builds `svc/<host>/boot.iso`, whose boot entries fetch
//! them over HTTP. Checked here: the ISO's boot config read back, the kickstart served with
//! its callback token, the fetch attributed to the host, stale inputs dropping the ISO,
//! retire removing it all, and the refusals (Windows, a host named like an OS).

mod common;

use std::time::Duration;

use bootsmith_core::{jobs, media::images, records::hosts};
use common::*;
use reqwest::StatusCode;
use serde_json::{json, Value};

/// svc on 127.0.0.1 and one CentOS host, `node01`, its images made.
async fn server() -> Server {
    let s = Server::listening().await;
    set_svc_ip(&s, SVC_IP).await;
    add_network(&s, "mgmt", "24", "192.0.2.1", "192.0.2.2", "192.0.2.3").await;
    let hosts = json!([
        host("node01", "192.0.2.10", "centos7.4", "mgmt"),
        host("win01", "192.0.2.11", "win2019", "mgmt"),
        // svc/alma9/ would be the install tree of alma9.
        host("alma9", "192.0.2.12", "centos7.4", "mgmt"),
    ]);
    let (st, body) = s.post("/api/v2/hosts", hosts).await;
    assert!(st.is_success(), "{body}");
    bootable_centos_iso(&s);
    let map = json!({"iso_map": [{"file": "/svc/c7.iso", "os": "centos7.4"}]});
    assert_eq!(s.post("/api/v1/isos/map", map).await.0, StatusCode::OK);
    make_images(&s).await;
    s
}

async fn make_images(s: &Server) {
    let (st, body) = s
        .post("/api/v2/deploy/images", json!(["node01", "alma9"]))
        .await;
    assert_eq!(st, StatusCode::OK, "{body}");
}

/// Run `images::single_device_media` for `host` as the Redfish driver would, inside a job:
/// its result, or its error as JSON.
async fn single_device(s: &Server, host: &str) -> std::result::Result<Value, Value> {
    let app = s.app.clone();
    let name = host.to_owned();
    let id = jobs::start(
        &s.app,
        bootsmith_core::jobs::JobKind::Deploy,
        None,
        move |job| async move {
            let media = images::single_device_media(&app, &job, &name, &[]).await?;
            Ok(serde_json::to_value(media).unwrap())
        },
    )
    .await
    .unwrap();
    let job = jobs::wait(&s.app, id).await.unwrap();
    match job.result {
        Some(r) => Ok(r),
        None => Err(serde_json::to_value(job.error).unwrap()),
    }
}

fn kickstart_on_disk(s: &Server, host: &str) -> String {
    let (_, files) =
        bootsmith_media::fat::read_image(&s.svc().join(format!("{host}.img"))).unwrap();
    let ks = files.iter().find(|f| f.name == "ks.cfg").expect("ks.cfg");
    String::from_utf8(ks.contents.clone()).unwrap()
}

async fn svc_get(s: &Server, path: &str) -> (StatusCode, String) {
    let r = s
        .client()
        .get(format!("{}/svc/{path}", s.base()))
        .send()
        .await
        .unwrap();
    (r.status(), r.text().await.unwrap())
}

fn iso_text(s: &Server, iso: &str, path: &str) -> String {
    let bytes = bootsmith_media::boot::read_file(&s.svc().join(iso), path)
        .unwrap()
        .unwrap_or_else(|| panic!("{iso} has no {path}"));
    String::from_utf8(bytes).unwrap()
}

/// The host as the core sees it now: `GET /api/v2/hosts` answers from a cache that a file
/// removed by hand from svc does not invalidate.
async fn host_view(s: &Server, name: &str) -> Value {
    let views = bootsmith_core::host_views::list(&s.app).await.unwrap();
    let list = serde_json::to_value(views).unwrap();
    list.as_array()
        .unwrap()
        .iter()
        .find(|h| h["name"] == name)
        .cloned()
        .unwrap()
}

fn file_names(h: &Value) -> Vec<String> {
    h["media"]["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["file"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn single_device_iso_fetches_the_served_kickstart_over_http() {
    let s = server().await;
    let port = port_of(&s);

    // The kickstart is served as a plain file, the same render (token) as on the disk.
    let (st, served) = svc_get(&s, "node01/ks.cfg").await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(served, kickstart_on_disk(&s, "node01"));
    assert!(
        served.contains(&format!(
            "http://{SVC_IP}:{port}/api/v2/hosts/node01/installed"
        )) && served.contains("\"token\": \""),
        "the callback with its token:\n{served}"
    );
    assert!(
        !s.svc().join("alma9").exists(),
        "no directory for a host named like an OS"
    );

    // Built when asked, then kept.
    let media = single_device(&s, "node01").await.unwrap();
    let url = format!("http://{SVC_IP}:{port}/svc/node01/boot.iso");
    assert_eq!(
        media,
        json!({"host": "node01", "file": "/svc/node01/boot.iso", "url": url, "built": true,
               "answers": ["/svc/node01/ks.cfg"]})
    );
    let ks_url = format!("http://{SVC_IP}:{port}/svc/node01/ks.cfg");
    let isolinux = iso_text(&s, "node01/boot.iso", "isolinux/isolinux.cfg");
    assert!(
        isolinux.contains(&format!(
            "  append initrd=initrd.img inst.stage2=hd:LABEL=BOOTSMITH_C74 inst.ks={ks_url}\n"
        )),
        "{isolinux}"
    );
    assert!(!isolinux.contains("OEMDRV"), "{isolinux}");
    // Built in a work directory at the top of svc (which the start-up sweep clears), gone now.
    let hidden: Vec<_> = std::fs::read_dir(s.svc())
        .unwrap()
        .chain(std::fs::read_dir(s.svc().join("node01")).unwrap())
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(hidden.is_empty(), "{hidden:?}");
    assert_eq!(
        single_device(&s, "node01").await.unwrap()["built"],
        false,
        "an existing ISO is kept"
    );
    assert_eq!(svc_get(&s, "node01/boot.iso").await.0, StatusCode::OK);

    // Its files are the host's media; the answer file's fetch is its installer booting.
    let h = host_view(&s, "node01").await;
    assert_eq!(h["media"]["state"], "ready", "{h}");
    assert_eq!(
        file_names(&h),
        [
            "/svc/centos7.4-boot.iso",
            "/svc/node01.img",
            "/svc/node01/boot.iso",
            "/svc/node01/ks.cfg"
        ]
    );
    let mut booted = Value::Null;
    for _ in 0..50 {
        let (_, t) = s.get("/api/v2/hosts/node01/timeline").await;
        if t["status"]["state"] == "booting" {
            booted = t;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(
        booted["status"]["detail"],
        format!("the installer at {SVC_IP} fetched node01/ks.cfg"),
        "{booted}"
    );

    // The address changes and the images are not made again (stale media, which a deploy
    // refuses unless told): the ISO naming the old URL is not handed out but built again.
    set_svc_ip(&s, "127.0.0.4").await;
    let again = single_device(&s, "node01").await.unwrap();
    assert_eq!(again["built"], true, "{again}");
    assert!(
        iso_text(&s, "node01/boot.iso", "isolinux/isolinux.cfg").contains(&format!(
            "inst.ks=http://127.0.0.4:{port}/svc/node01/ks.cfg"
        ))
    );
    set_svc_ip(&s, SVC_IP).await;

    // Missing answer files: the media are missing, and nothing is built without them.
    std::fs::remove_file(s.svc().join("node01/ks.cfg")).unwrap();
    let h = host_view(&s, "node01").await;
    assert_eq!(h["media"]["missing"], json!(["/svc/node01/ks.cfg"]), "{h}");
    std::fs::remove_file(s.svc().join("node01/boot.iso")).unwrap();
    let e = single_device(&s, "node01").await.unwrap_err();
    assert_eq!(e["code"], "media_stale", "{e}");

    // A new boot-server address: stale; the rebuild drops the ISO (its URLs are wrong) and
    // serves the new kickstart, with the new token.
    make_images(&s).await;
    assert_eq!(single_device(&s, "node01").await.unwrap()["built"], true);
    let old = svc_get(&s, "node01/ks.cfg").await.1;
    set_svc_ip(&s, "127.0.0.3").await;
    assert_eq!(host_view(&s, "node01").await["media"]["state"], "stale");
    make_images(&s).await;
    assert!(
        !s.svc().join("node01/boot.iso").exists(),
        "built for the old address: removed"
    );
    let new = svc_get(&s, "node01/ks.cfg").await.1;
    assert_ne!(new, old, "a new token");
    assert_eq!(new, kickstart_on_disk(&s, "node01"));
    let media = single_device(&s, "node01").await.unwrap();
    assert_eq!(
        media["url"],
        format!("http://127.0.0.3:{port}/svc/node01/boot.iso")
    );
    let grub_or_isolinux = iso_text(&s, "node01/boot.iso", "isolinux/isolinux.cfg");
    assert!(
        grub_or_isolinux.contains(&format!(
            "inst.ks=http://127.0.0.3:{port}/svc/node01/ks.cfg"
        )),
        "{grub_or_isolinux}"
    );

    // Installed and retired: its own media leave svc, the directory with them.
    let node01 = hosts::get(&s.app, "node01").await.unwrap();
    let removed = images::retire(&s.app, &node01).await.unwrap();
    assert_eq!(
        removed,
        [
            "/svc/node01.img",
            "/svc/node01/ks.cfg",
            "/svc/node01/boot.iso"
        ]
    );
    assert!(!s.svc().join("node01").exists());
    assert_eq!(svc_get(&s, "node01/ks.cfg").await.0, StatusCode::NOT_FOUND);
}

#[tokio::test(flavor = "multi_thread")]
async fn single_device_media_are_refused_where_they_cannot_work() {
    let s = server().await;
    let e = single_device(&s, "win01").await.unwrap_err();
    assert_eq!(e["code"], "single_device_unsupported", "{e}");
    let why = e["error"].as_str().unwrap();
    assert!(why.contains("win01") && why.contains("UNATTEND"), "{why}");

    let e = single_device(&s, "alma9").await.unwrap_err();
    assert_eq!(e["code"], "single_device_unsupported", "{e}");
    assert!(e["error"].as_str().unwrap().contains("alma9"), "{e}");

    let e = single_device(&s, "nobody").await.unwrap_err();
    assert_eq!(e["code"], "host_not_found", "{e}");
}
