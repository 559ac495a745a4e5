//! `POST /api/v2/deploy/images` and `POST /api/v1/isos/boot` over real HTTP:
//! checks before writing, the synchronous answer, the job and its event stream,
//! and the results fetched back from /svc with curl (ranges included).

mod common;

use std::process::Command;

use common::{bootable_centos_iso, field_of_each, Server};
use reqwest::StatusCode;
use serde_json::json;

async fn records(s: &Server) {
    assert_eq!(
        s.post("/api/v1/ip", json!({"svc_ip": "192.0.2.10"}))
            .await
            .0,
        StatusCode::OK
    );
    assert_eq!(
        s.post("/api/v2/networks", json!({"name": "mgmt", "netmask": "255.255.255.0", "gateway": "192.0.2.1", "nameserver": "192.0.2.53", "ntpserver": "192.0.2.123"})).await.0,
        StatusCode::CREATED
    );
    let hosts = json!([
        {"name": "node01", "ip": "192.0.2.21", "os": "centos7.4", "role": "generic", "network_group": "mgmt"},
        {"name": "node02", "ip": "192.0.2.22", "os": "centos7.4", "role": "generic", "network_group": "mgmt"}
    ]);
    assert!(s.post("/api/v2/hosts", hosts).await.0.is_success());
}

fn curl(args: &[&str]) -> (String, Vec<u8>) {
    let out = Command::new("curl")
        .args(["-s", "-D", "-"])
        .args(args)
        .output()
        .expect("curl is installed");
    let raw = out.stdout;
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
    (
        String::from_utf8_lossy(&raw[..split]).into_owned(),
        raw[split..].to_vec(),
    )
}

// Multi-threaded: curl blocks its thread while the server answers on another.
#[tokio::test(flavor = "multi_thread")]
async fn images_are_checked_made_and_served() {
    // Listening: the images point at our svc port, and are fetched back over HTTP.
    let s = Server::listening().await;
    records(&s).await;

    // Not ready: unknown host and unmapped OS are both reported, nothing is written.
    let (st, body) = s
        .post("/api/v2/deploy/images", json!(["node01", "ghost"]))
        .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(body["code"], "images_not_ready");
    let text = body["error"].as_str().unwrap();
    assert!(
        text.contains("ghost") && text.contains("centos7.4"),
        "{text}"
    );
    assert_eq!(std::fs::read_dir(s.svc()).unwrap().count(), 0);
    let (st, body) = s
        .raw(
            reqwest::Method::POST,
            "/api/v2/deploy/images",
            Some("application/json"),
            b"{\"hosts\": 1}".to_vec(),
        )
        .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{body}");

    let (st, body) = s
        .call(
            reqwest::Method::POST,
            "/api/v2/deploy/images?wait=maybe",
            None,
        )
        .await;
    assert_eq!(
        (st, body["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("malformed_query")),
        "{body}"
    );

    bootable_centos_iso(&s);
    assert_eq!(
        s.post(
            "/api/v1/isos/map",
            json!({"iso_map": [{"file": "/svc/c7.iso", "os": "centos7.4"}]})
        )
        .await
        .0,
        StatusCode::OK
    );

    // The seed's call: no body, waits, answers what was made.
    let (st, result) = s
        .call(reqwest::Method::POST, "/api/v2/deploy/images", None)
        .await;
    assert_eq!(st, StatusCode::OK, "{result}");
    assert_eq!(result["trees"][0]["tree"], "/svc/centos7.4/");
    assert_eq!(result["boot_isos"][0]["file"], "/svc/centos7.4-boot.iso");
    assert_eq!(result["boot_isos"][0]["bios"], true);
    assert_eq!(result["boot_isos"][0]["uefi"], true);
    let files: Vec<&str> = field_of_each(&result["images"], "file");
    assert_eq!(files, ["/svc/node01.img", "/svc/node02.img"]);
    // No SSH key: the run says the hosts will accept no login (issue 27).
    assert_eq!(
        result["warnings"],
        json!(["No SSH key is set: node01, node02 will accept no login once installed (logins are by key; the root password is random and never shown). Add a key on the Keys screen, then make the images."]),
        "{result}"
    );

    // What a CIMC does: HEAD, then ranges of the image.
    let url = format!("{}/svc/node01.img", s.base());
    let (head, _) = curl(&["-I", &url]);
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(
        head.to_ascii_lowercase()
            .contains("content-length: 1048576"),
        "{head}"
    );
    assert!(
        head.to_ascii_lowercase().contains("accept-ranges: bytes"),
        "{head}"
    );
    let (h, boot_sector) = curl(&["-r", "0-511", &url]);
    assert!(h.starts_with("HTTP/1.1 206"), "{h}");
    assert_eq!(boot_sector.len(), 512);
    assert_eq!(&boot_sector[510..], &[0x55, 0xAA], "a FAT boot sector");
    assert_eq!(
        &boot_sector[43..54],
        b"OEMDRV     ",
        "volume label in the boot sector"
    );
    let (h, _) = curl(&["-r", "2000000-2000010", &url]);
    assert!(h.starts_with("HTTP/1.1 416"), "{h}");
    // The kickstart points at the tree, which is served too.
    let (h, treeinfo) = curl(&[&format!("{}/svc/centos7.4/.treeinfo", s.base())]);
    assert!(h.starts_with("HTTP/1.1 200"), "{h}");
    assert_eq!(treeinfo, b"[general]\nfamily = CentOS\n");

    // As a job: 202 with where to follow it, then the event stream to the end.
    let (accepted, events) = s
        .start_job("/api/v2/deploy/images?wait=false", json!(["node02"]))
        .await;
    assert_eq!(events.headers()["content-type"], "text/event-stream");
    let stream = events.text().await.unwrap();
    let kinds: Vec<&str> = stream
        .lines()
        .filter_map(|l| l.strip_prefix("event: "))
        .collect();
    assert_eq!(kinds.last(), Some(&"finished"), "{stream}");
    assert!(stream.contains("\"host\":\"node02\""), "{stream}");
    assert!(
        stream.contains("\"state\":\"skipped\""),
        "the boot ISO already exists: {stream}"
    );
    // Media made for an address the servers cannot fetch from: the job says so first.
    let warned: Vec<&str> = stream
        .lines()
        .filter(|l| l.contains("\"step\":\"reachability\""))
        .collect();
    assert_eq!(warned.len(), 2, "{stream}");
    assert!(
        warned[0].contains("\"state\":\"warning\"")
            && warned[0]
                .contains("The boot-server address 192.0.2.10 is not an address of this machine"),
        "{stream}"
    );
    assert!(
        warned[1].contains("Bootsmith listens on 127.0.0.1 only"),
        "{stream}"
    );
    let (st, job) = s.get(accepted["status"].as_str().unwrap()).await;
    assert_eq!(
        (st, job["state"].as_str()),
        (StatusCode::OK, Some("succeeded"))
    );

    // Legacy boot-ISO call: nothing to rebuild, says so.
    let (st, r) = s
        .call(reqwest::Method::POST, "/api/v1/isos/boot", None)
        .await;
    assert_eq!(st, StatusCode::OK, "{r}");
    assert_eq!(r["boot_isos"][0]["built"], false);

    // On the address Bootsmith listens on, nothing to warn about.
    assert_eq!(
        s.post("/api/v1/ip", json!({"svc_ip": "127.0.0.1"})).await.0,
        StatusCode::OK
    );
    let (_, events) = s
        .start_job("/api/v2/deploy/images?wait=false", json!(["node02"]))
        .await;
    let stream = events.text().await.unwrap();
    assert!(stream.contains("\"type\":\"finished\""), "{stream}");
    assert!(!stream.contains("reachability"), "{stream}");
}
