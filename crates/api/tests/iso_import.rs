//! Bringing an ISO into svc over real HTTP: `POST /api/v2/isos/import` (a file of this machine:
//! hard link on the same filesystem, copy with progress across filesystems) and
//! `PUT /api/v2/isos/{file}` (an upload streamed to disk), detection and mapping, and every
//! refusal leaving svc as it was.

mod common;

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{assert_error, sample_iso_of, Server};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const CENTOS: &str = "CentOS-7-x86_64-Minimal-1708.iso";

/// The README's CentOS 7.4 look-alike (over the 2 MiB limit of JSON bodies).
fn sample_iso(path: &Path) {
    sample_iso_of(path, "centos7.4");
}

/// Every name in svc, hidden ones included, sorted.
fn svc_names(s: &Server) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(s.svc())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    v.sort();
    v
}

fn import(path: &Path) -> Value {
    json!({"path": path.to_str().unwrap()})
}

async fn upload(
    s: &Server,
    path: &str,
    content_type: Option<&str>,
    body: Vec<u8>,
) -> (StatusCode, Value) {
    s.raw(Method::PUT, path, content_type, body).await
}

/// Every OS of the catalog, and Ubuntu 24.04's point releases: the look-alike of its ISO
/// (its marker file, volume id and layout), uploaded without an OS, is recognised as that OS
/// and mapped to it, and shows both its BIOS and UEFI boot entries.
#[tokio::test]
async fn every_catalog_os_is_recognised_and_mapped_from_its_sample_iso() {
    let s = Server::start().await;
    let catalog = bootsmith_model::catalog::Catalog::embedded().unwrap();
    let mut samples: Vec<(String, String)> = catalog
        .entries()
        .iter()
        .map(|o| (o.id.clone(), o.id.clone()))
        .collect();
    for point in ["ubuntu24.04.2", "ubuntu24.04.3"] {
        samples.push((point.into(), "ubuntu24.04".into()));
    }
    let dir = s.dir.path().join("samples");
    for (sample, id) in &samples {
        // Point releases replace the OS's first file: it is mapped to the newest.
        let name = format!("{sample}.iso");
        let src = dir.join(&name);
        sample_iso_of(&src, sample);
        let path = format!("/api/v2/isos/{name}");
        let (st, r) = upload(
            &s,
            &path,
            Some("application/octet-stream"),
            std::fs::read(&src).unwrap(),
        )
        .await;
        assert_eq!(st, StatusCode::CREATED, "{sample}: {r}");
        assert_eq!(r["detected"], json!(id), "{sample}: {r}");
        assert!(
            r["mapped"] == json!(id) || r["warnings"].to_string().contains("already"),
            "{sample}: {r}"
        );
    }
    let (st, isos) = s.get("/api/v2/isos").await;
    assert_eq!(st, StatusCode::OK, "{isos}");
    for (sample, id) in &samples {
        let file = format!("/svc/{sample}.iso");
        let info = isos
            .as_array()
            .or_else(|| isos["isos"].as_array())
            .unwrap_or_else(|| panic!("{isos}"))
            .iter()
            .find(|i| i["file"] == json!(file))
            .unwrap_or_else(|| panic!("{file} listed: {isos}"));
        assert!(
            info["detected"].as_array().unwrap().contains(&json!(id)),
            "{sample}: {info}"
        );
        assert_eq!(
            (&info["bios_boot"], &info["uefi_boot"]),
            (&json!(true), &json!(true)),
            "{sample}: {info}"
        );
    }
    // The first file of each OS stays mapped; 24.04's point releases were recognised but
    // left the map alone.
    let (_, map) = s.get("/api/v1/isos/map").await;
    for o in catalog.entries() {
        assert!(
            map.to_string().contains(&format!("/svc/{}.iso", o.id)),
            "{}: {map}",
            o.id
        );
    }
}

#[tokio::test]
async fn a_file_on_the_same_filesystem_is_linked_detected_and_mapped() {
    let s = Server::start().await;
    let drop_dir = s.dir.path().join("Downloads");
    let src = drop_dir.join(CENTOS);
    sample_iso(&src);
    let size = std::fs::metadata(&src).unwrap().len();

    let (st, r) = s.post("/api/v2/isos/import", import(&src)).await;
    assert_eq!(st, StatusCode::OK, "{r}");
    assert_eq!(
        r,
        json!({"file": format!("/svc/{CENTOS}"), "linked": true, "bytes": size,
               "detected": "centos7.4", "mapped": "centos7.4", "warnings": []})
    );
    // The very same file: one inode, two names, nothing copied.
    let (a, b) = (
        std::fs::metadata(&src).unwrap(),
        std::fs::metadata(s.svc().join(CENTOS)).unwrap(),
    );
    assert_eq!((a.ino(), a.nlink()), (b.ino(), 2));
    assert_eq!(svc_names(&s), [CENTOS]);
    assert_eq!(
        s.get("/api/v1/isos/map").await.1,
        json!({"iso_map": [{"file": format!("/svc/{CENTOS}"), "os": "centos7.4"}]})
    );
    let (_, isos) = s.get("/api/v2/isos").await;
    assert_eq!(isos["isos"][0]["mapped_to"], "centos7.4");

    // Again: it is already there, and the answer says it is this very file.
    let r = s.post("/api/v2/isos/import", import(&src)).await;
    assert_error(&r, 409, "iso_exists");
    assert!(
        r.1["error"].as_str().unwrap().contains("this very file"),
        "{}",
        r.1
    );

    // Another file of that name: taken.
    let other = s.dir.path().join("elsewhere").join(CENTOS);
    sample_iso(&other);
    let r = s.post("/api/v2/isos/import", import(&other)).await;
    assert_error(&r, 409, "iso_exists");
    assert!(!r.1["error"].as_str().unwrap().contains("this very file"));

    // A second CentOS 7.4: detected, but the OS stays with the first file.
    let second = drop_dir.join("second.iso");
    std::fs::copy(&src, &second).unwrap();
    let (st, r) = s.post("/api/v2/isos/import", import(&second)).await;
    assert_eq!(st, StatusCode::OK, "{r}");
    assert_eq!(
        (r["detected"].as_str(), &r["mapped"]),
        (Some("centos7.4"), &Value::Null)
    );
    let w = r["warnings"][0].as_str().unwrap();
    assert!(w.contains("already mapped to") && w.contains(CENTOS), "{w}");
    assert_eq!(
        s.get("/api/v1/isos/map").await.1["iso_map"][0]["file"],
        format!("/svc/{CENTOS}"),
        "the map was left alone"
    );

    // Asked for by name, the OS moves to the new file, and the answer says so.
    let third = drop_dir.join("third.iso");
    std::fs::copy(&src, &third).unwrap();
    let (st, r) = s
        .post(
            "/api/v2/isos/import",
            json!({"path": third.to_str().unwrap(), "os": "centos7.4"}),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{r}");
    assert_eq!(r["mapped"], "centos7.4");
    assert!(
        r["warnings"][0].as_str().unwrap().contains("was mapped to"),
        "{r}"
    );
    assert_eq!(
        s.get("/api/v1/isos/map").await.1,
        json!({"iso_map": [{"file": "/svc/third.iso", "os": "centos7.4"}]})
    );

    // An OS it does not hold: imported all the same, not mapped, and why.
    let fourth = drop_dir.join("fourth.iso");
    std::fs::copy(&src, &fourth).unwrap();
    let (st, r) = s
        .post(
            "/api/v2/isos/import",
            json!({"path": fourth.to_str().unwrap(), "os": "esxi6.7"}),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{r}");
    assert_eq!(r["mapped"], Value::Null);
    let w = r["warnings"][0].as_str().unwrap();
    assert!(
        w.contains("not mapped to esxi6.7") && w.contains("holds centos7.4"),
        "{w}"
    );
    assert!(s.svc().join("fourth.iso").is_file());
    assert_eq!(
        svc_names(&s),
        [CENTOS, "fourth.iso", "second.iso", "third.iso"],
        "no temporary files"
    );
}

#[tokio::test]
async fn a_file_on_another_filesystem_is_copied_with_progress() {
    // Listening: the job's event stream over HTTP.
    let s = Server::listening().await;
    // /dev/shm is a tmpfs; the test's svc is on disk. Elsewhere the copy is covered by the core's unit tests.
    let shm = tempfile::tempdir_in("/dev/shm").unwrap();
    if std::fs::metadata(shm.path()).unwrap().dev() == std::fs::metadata(s.svc()).unwrap().dev() {
        eprintln!("/dev/shm is on the filesystem of svc here: no copy to test");
        return;
    }
    let src = shm.path().join("CentOS.iso");
    sample_iso(&src);
    let size = std::fs::metadata(&src).unwrap().len();

    let (accepted, events) = s
        .start_job("/api/v2/isos/import?wait=false", import(&src))
        .await;
    let stream = events.text().await.unwrap();
    let events: Vec<Value> = stream
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .map(|d| serde_json::from_str(d).unwrap())
        .collect();
    let steps: Vec<(String, String)> = events
        .iter()
        .filter(|e| e["type"] == "step")
        .map(|e| {
            (
                e["step"].as_str().unwrap().to_owned(),
                e["state"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let want: Vec<(String, String)> = [
        ("copy", "started"),
        ("copy", "done"),
        ("inspect", "done"),
        ("map", "done"),
    ]
    .iter()
    .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
    .collect();
    assert_eq!(steps, want, "{stream}");
    let bytes: Vec<&Value> = events.iter().filter(|e| e["type"] == "bytes").collect();
    let last = bytes.last().expect("byte progress");
    assert_eq!(
        (&last["step"], &last["done"], &last["total"]),
        (&json!("copy"), &json!(size), &json!(size))
    );
    let done: Vec<u64> = bytes.iter().map(|b| b["done"].as_u64().unwrap()).collect();
    assert!(done.windows(2).all(|w| w[0] <= w[1]), "{done:?}");
    let finished = events.last().unwrap();
    assert_eq!(finished["type"], "finished");
    assert_eq!(
        finished["result"],
        json!({"file": "/svc/CentOS.iso", "linked": false, "bytes": size,
               "detected": "centos7.4", "mapped": "centos7.4", "warnings": []})
    );

    let copy = s.svc().join("CentOS.iso");
    assert_eq!(
        std::fs::metadata(&copy).unwrap().nlink(),
        1,
        "a copy, not a link"
    );
    assert_eq!(std::fs::read(&copy).unwrap(), std::fs::read(&src).unwrap());
    assert_eq!(svc_names(&s), ["CentOS.iso"], "no temporary file left");
    let (st, job) = s.get(accepted["status"].as_str().unwrap()).await;
    assert_eq!(
        (st, job["kind"].as_str()),
        (StatusCode::OK, Some("iso_import"))
    );
}

#[tokio::test]
async fn refused_imports_leave_svc_as_it_was() {
    let s = Server::start().await;
    let d = s.dir.path().join("files");
    sample_iso(&d.join("in-svc.iso"));
    std::fs::hard_link(d.join("in-svc.iso"), s.svc().join("in-svc.iso")).unwrap();
    std::fs::write(s.svc().join("notes.txt"), b"kept").unwrap();
    let before = svc_names(&s);

    let iso = |name: &str| -> PathBuf {
        let p = d.join(name);
        std::fs::copy(d.join("in-svc.iso"), &p).unwrap();
        p
    };
    std::fs::write(d.join("text.iso"), vec![b'x'; 100_000]).unwrap();
    std::fs::write(d.join("short.iso"), b"CD001").unwrap();
    std::fs::create_dir_all(d.join("folder.iso")).unwrap();
    std::os::unix::fs::symlink("/dev/null", d.join("device.iso")).unwrap();
    let cases: Vec<(Value, u16, &str)> = vec![
        (json!({"path": "CentOS.iso"}), 400, "invalid_path"),
        (json!({"path": "./files/CentOS.iso"}), 400, "invalid_path"),
        (json!({"path": "/"}), 400, "invalid_path"),
        (import(&d.join("missing.iso")), 400, "path_not_found"),
        (import(&d.join("folder.iso")), 400, "not_a_file"),
        (import(&d.join("device.iso")), 400, "not_a_file"),
        (import(&d.join("text.iso")), 400, "not_an_iso"),
        (import(&d.join("short.iso")), 400, "not_an_iso"),
        (import(&iso("image.img")), 400, "invalid_iso_name"),
        (import(&iso(".hidden.iso")), 400, "invalid_iso_name"),
        (import(&iso("centos7.4-boot.iso")), 400, "invalid_iso_name"),
        (import(&iso("line\nbreak.iso")), 400, "invalid_iso_name"),
        (
            json!({"path": iso("good.iso").to_str().unwrap(), "os": "centos99"}),
            400,
            "unknown_os",
        ),
        (import(&d.join("in-svc.iso")), 409, "iso_exists"),
        (import(&s.svc().join("in-svc.iso")), 409, "iso_exists"),
        (json!({"os": "centos7.4"}), 400, "invalid_body"),
        (json!({"path": 5}), 400, "invalid_body"),
    ];
    for (body, status, code) in cases {
        let r = s.post("/api/v2/isos/import", body.clone()).await;
        assert_error(&r, status, code);
        assert_eq!(svc_names(&s), before, "after {body}");
    }
    assert_error(
        &s.call(Method::POST, "/api/v2/isos/import", None).await,
        400,
        "missing_body",
    );
    assert_eq!(s.get("/api/v1/isos/map").await.1, json!({"iso_map": []}));

    // The token is required.
    let r = s
        .request(Method::POST, "/api/v2/isos/import")
        .json(&import(&iso("good2.iso")))
        .send()
        .await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    let r = s
        .request(Method::PUT, "/api/v2/isos/good2.iso")
        // Small: refused before the body is read, a large one could still be in flight.
        .body(std::fs::read(d.join("in-svc.iso")).unwrap()[..40_000].to_vec())
        .send()
        .await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    assert_eq!(svc_names(&s), before);
}

#[tokio::test]
async fn an_upload_is_streamed_checked_and_mapped() {
    // Listening: the upload streamed over a socket, the file fetched back from /svc.
    let s = Server::listening().await;
    let src = s.dir.path().join("src").join(CENTOS);
    sample_iso(&src);
    let bytes = std::fs::read(&src).unwrap();
    assert!(bytes.len() > 2 * 1024 * 1024, "over the JSON body limit");

    let path = format!("/api/v2/isos/{CENTOS}");
    let (st, r) = upload(&s, &path, Some("application/octet-stream"), bytes.clone()).await;
    assert_eq!(st, StatusCode::CREATED, "{r}");
    assert_eq!(
        r,
        json!({"file": format!("/svc/{CENTOS}"), "linked": false, "bytes": bytes.len(),
               "detected": "centos7.4", "mapped": "centos7.4", "warnings": []})
    );
    assert_eq!(std::fs::read(s.svc().join(CENTOS)).unwrap(), bytes);
    assert_eq!(svc_names(&s), [CENTOS]);
    // Served to the servers like any ISO of svc.
    let served = s
        .client()
        .get(format!("{}/svc/{CENTOS}", s.base()))
        .send()
        .await
        .unwrap();
    assert_eq!(served.status(), StatusCode::OK);
    assert_eq!(served.bytes().await.unwrap().len(), bytes.len());

    // No content type is fine too (curl -T); an OS it does not hold leaves it unmapped, saying why.
    let (st, r) = upload(&s, "/api/v2/isos/other.iso?os=esxi6.7", None, bytes.clone()).await;
    assert_eq!(st, StatusCode::CREATED, "{r}");
    assert_eq!(r["mapped"], Value::Null);
    assert!(
        r["warnings"][0]
            .as_str()
            .unwrap()
            .contains("holds centos7.4"),
        "{r}"
    );
    let before = svc_names(&s);
    assert_eq!(before, [CENTOS, "other.iso"]);

    // Refusals: nothing is left in svc. The bodies are small because most are refused before
    // the body is read, and a large one could still be in flight when the answer comes.
    let refusals = vec![
        (
            "/api/v2/isos/notes.iso",
            Some("application/octet-stream"),
            b"hello".to_vec(),
            400,
            "not_an_iso",
        ),
        (
            "/api/v2/isos/zeros.iso",
            None,
            vec![0u8; 200_000],
            400,
            "not_an_iso",
        ),
        (
            "/api/v2/isos/empty.iso",
            None,
            Vec::new(),
            400,
            "not_an_iso",
        ),
        (
            "/api/v2/isos/..%2Fescape.iso",
            None,
            bytes[..40_000].to_vec(),
            400,
            "invalid_iso_name",
        ),
        (
            "/api/v2/isos/%2Fetc%2Fx.iso",
            None,
            bytes[..40_000].to_vec(),
            400,
            "invalid_iso_name",
        ),
        (
            "/api/v2/isos/.hidden.iso",
            None,
            bytes[..40_000].to_vec(),
            400,
            "invalid_iso_name",
        ),
        (
            "/api/v2/isos/notes.txt",
            None,
            bytes[..40_000].to_vec(),
            400,
            "invalid_iso_name",
        ),
        (
            "/api/v2/isos/x.iso?os=centos99",
            None,
            bytes[..40_000].to_vec(),
            400,
            "unknown_os",
        ),
        (
            "/api/v2/isos/other.iso",
            None,
            bytes[..40_000].to_vec(),
            409,
            "iso_exists",
        ),
        (
            "/api/v2/isos/x.iso",
            Some("application/json"),
            bytes[..40_000].to_vec(),
            415,
            "unsupported_media_type",
        ),
        (
            "/api/v2/isos/x.iso",
            Some("multipart/form-data; boundary=x"),
            bytes[..40_000].to_vec(),
            415,
            "unsupported_media_type",
        ),
    ];
    for (path, ct, body, status, code) in refusals {
        let r = upload(&s, path, ct, body).await;
        assert_error(&r, status, code);
        assert_eq!(svc_names(&s), before, "after PUT {path}");
    }
    assert_eq!(
        std::fs::read(s.svc().join("other.iso")).unwrap(),
        bytes,
        "not overwritten"
    );
}

#[tokio::test]
async fn the_openapi_document_describes_both_calls() {
    let s = Server::start().await;
    let (_, doc) = s.get("/api/openapi.json").await;
    let put = &doc["paths"]["/api/v2/isos/{file}"]["put"];
    let body = &put["requestBody"]["content"]["application/octet-stream"]["schema"];
    let body = match body.get("$ref").and_then(Value::as_str) {
        Some(r) => &doc["components"]["schemas"][r.rsplit('/').next().unwrap()],
        None => body,
    };
    assert_eq!(
        (&body["type"], &body["format"]),
        (&json!("string"), &json!("binary")),
        "{put}"
    );
    for code in ["201", "400", "409", "415", "507"] {
        assert!(
            put["responses"].get(code).is_some(),
            "PUT answers {code}: {put}"
        );
    }
    let post = &doc["paths"]["/api/v2/isos/import"]["post"];
    for code in ["200", "202", "400", "409"] {
        assert!(
            post["responses"].get(code).is_some(),
            "POST answers {code}: {post}"
        );
    }
    let result = &doc["components"]["schemas"]["ImportResult"]["properties"];
    let mut fields: Vec<&str> = result
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    fields.sort();
    assert_eq!(
        fields,
        ["bytes", "detected", "file", "linked", "mapped", "warnings"]
    );
}

#[tokio::test]
async fn an_upload_cut_short_leaves_nothing() {
    // Listening: a client that stops sending mid-body, on raw TCP.
    let s = Server::listening().await;
    let src = s.dir.path().join("src.iso");
    sample_iso(&src);
    let bytes = std::fs::read(&src).unwrap();

    // Promise the whole file, send the first 1 MiB (a valid ISO start), then stop sending.
    let addr = s.base().strip_prefix("http://").unwrap();
    let mut conn = tokio::net::TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "PUT /api/v2/isos/cut.iso HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {}\r\nContent-Type: application/octet-stream\r\nContent-Length: {}\r\n\r\n",
        s.token,
        bytes.len()
    );
    conn.write_all(head.as_bytes()).await.unwrap();
    conn.write_all(&bytes[..1024 * 1024]).await.unwrap();
    conn.shutdown().await.unwrap();
    let mut answer = String::new();
    let _ = conn.read_to_string(&mut answer).await;
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    assert!(answer.contains("upload_interrupted"), "{answer}");
    // The hidden file was removed before the answer went out.
    assert_eq!(svc_names(&s), Vec::<String>::new());
}

/// A web server on loopback serving the files of `dir` under `/files/`, and `/cut.iso`: a
/// valid ISO start that breaks off mid-body. Anything else is 404.
async fn file_server(dir: PathBuf) -> String {
    use axum::body::Body;
    use axum::extract::Path as UrlPath;
    use axum::http::header;
    use axum::response::IntoResponse;
    use axum::routing::get;

    let head = std::fs::read(dir.join("source.iso")).unwrap()[..1024 * 1024].to_vec();
    let app = axum::Router::new()
        .route(
            "/files/{name}",
            get(move |UrlPath(name): UrlPath<String>| {
                let dir = dir.clone();
                async move {
                    match std::fs::read(dir.join(&name)) {
                        Ok(b) => b.into_response(),
                        Err(_) => StatusCode::NOT_FOUND.into_response(),
                    }
                }
            }),
        )
        .route(
            "/cut.iso",
            get(move || {
                let head = head.clone();
                async move {
                    let parts: Vec<Result<Vec<u8>, std::io::Error>> =
                        vec![Ok(head), Err(std::io::Error::other("the disk went away"))];
                    (
                        [(header::CONTENT_LENGTH, (4 * 1024 * 1024).to_string())],
                        Body::from_stream(futures::stream::iter(parts)),
                    )
                }
            }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    base
}

fn sha256_of(path: &Path) -> String {
    let out = Command::new("sha256sum").arg(path).output().unwrap();
    String::from_utf8(out.stdout).unwrap()[..64].to_owned()
}

#[tokio::test]
async fn an_iso_from_a_url_is_downloaded_with_progress_verified_and_mapped() {
    // Listening: the job's event stream over HTTP.
    let s = Server::listening().await;
    let files = s.dir.path().join("web");
    let src = files.join("source.iso");
    sample_iso(&src);
    std::fs::copy(&src, files.join(CENTOS)).unwrap();
    let size = std::fs::metadata(&src).unwrap().len();
    let sha = sha256_of(&src);
    let web = file_server(files).await;

    // Named after the URL, checked against its SHA-256 (upper case, as some sites print it).
    let (accepted, events) = s
        .start_job(
            "/api/v2/isos/fetch?wait=false",
            json!({"url": format!("{web}/files/{CENTOS}"), "sha256": sha.to_uppercase()}),
        )
        .await;
    let stream = events.text().await.unwrap();
    let events: Vec<Value> = stream
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .map(|d| serde_json::from_str(d).unwrap())
        .collect();
    let steps: Vec<(&str, &str)> = events
        .iter()
        .filter(|e| e["type"] == "step")
        .map(|e| (e["step"].as_str().unwrap(), e["state"].as_str().unwrap()))
        .collect();
    assert_eq!(
        steps,
        [
            ("download", "started"),
            ("download", "done"),
            ("verify", "done"),
            ("inspect", "done"),
            ("map", "done")
        ],
        "{stream}"
    );
    let bytes: Vec<&Value> = events.iter().filter(|e| e["type"] == "bytes").collect();
    let last = bytes.last().expect("byte progress");
    assert_eq!(
        (&last["step"], &last["done"], &last["total"]),
        (&json!("download"), &json!(size), &json!(size))
    );
    let done: Vec<u64> = bytes.iter().map(|b| b["done"].as_u64().unwrap()).collect();
    assert!(done.windows(2).all(|w| w[0] <= w[1]), "{done:?}");
    let finished = events.last().unwrap();
    assert_eq!(
        (&finished["type"], &finished["result"]),
        (
            &json!("finished"),
            &json!({"file": format!("/svc/{CENTOS}"), "linked": false, "bytes": size,
                    "detected": "centos7.4", "mapped": "centos7.4", "warnings": []})
        )
    );
    assert_eq!(
        std::fs::read(s.svc().join(CENTOS)).unwrap(),
        std::fs::read(&src).unwrap()
    );
    let (_, job) = s.get(accepted["status"].as_str().unwrap()).await;
    assert_eq!(job["kind"], "iso_fetch");

    // No checksum, another name, waited for: detected, the OS stays with the first file.
    let (st, r) = s
        .post(
            "/api/v2/isos/fetch",
            json!({"url": format!("{web}/files/source.iso"), "file_name": "second.iso"}),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{r}");
    assert_eq!(
        (&r["file"], &r["bytes"], &r["detected"], &r["mapped"]),
        (
            &json!("/svc/second.iso"),
            &json!(size),
            &json!("centos7.4"),
            &Value::Null
        )
    );
    assert!(
        r["warnings"][0]
            .as_str()
            .unwrap()
            .contains("already mapped to"),
        "{r}"
    );
    assert_eq!(svc_names(&s), [CENTOS, "second.iso"], "no temporary file");
}

#[tokio::test]
async fn refused_or_failed_downloads_leave_svc_as_it_was() {
    let s = Server::start().await;
    let files = s.dir.path().join("web");
    let src = files.join("source.iso");
    sample_iso(&src);
    std::fs::write(files.join("notes.iso"), vec![b'x'; 100_000]).unwrap();
    let sha = sha256_of(&src);
    let web = file_server(files).await;
    let closed = common::closed_port();
    std::fs::write(s.svc().join("taken.iso"), b"kept").unwrap();
    let before = svc_names(&s);

    let wrong = "0".repeat(64);
    let cases: Vec<(Value, u16, &str)> = vec![
        (json!({"url": "ftp://127.0.0.1/x.iso"}), 400, "invalid_url"),
        (json!({"url": "file:///etc/passwd"}), 400, "invalid_url"),
        (json!({"url": "no address"}), 400, "invalid_url"),
        (json!({"url": format!("{web}/files/")}), 400, "invalid_url"),
        (
            json!({"url": format!("{web}/files/source.iso"), "sha256": "abc"}),
            400,
            "invalid_sha256",
        ),
        (
            json!({"url": format!("{web}/files/source.iso"), "file_name": "x.img"}),
            400,
            "invalid_iso_name",
        ),
        (
            json!({"url": format!("{web}/files/source.iso"), "os": "centos99"}),
            400,
            "unknown_os",
        ),
        (
            json!({"url": format!("{web}/files/source.iso"), "file_name": "taken.iso"}),
            409,
            "iso_exists",
        ),
        (
            json!({"url": format!("{web}/files/missing.iso")}),
            422,
            "url_not_found",
        ),
        (
            json!({"url": format!("http://127.0.0.1:{closed}/x.iso")}),
            502,
            "url_unreachable",
        ),
        (
            json!({"url": format!("{web}/files/notes.iso")}),
            400,
            "not_an_iso",
        ),
        // Refused only once downloaded: the job fails, and nothing half-written stays.
        (
            json!({"url": format!("{web}/cut.iso")}),
            502,
            "download_failed",
        ),
        (
            json!({"url": format!("{web}/files/source.iso"), "sha256": wrong}),
            422,
            "checksum_mismatch",
        ),
    ];
    for (body, status, code) in cases {
        let r = s.post("/api/v2/isos/fetch", body.clone()).await;
        assert_error(&r, status, code);
        assert_eq!(svc_names(&s), before, "after {body}");
    }

    // The mismatch names both checksums.
    let r = s
        .post(
            "/api/v2/isos/fetch",
            json!({"url": format!("{web}/files/source.iso"), "sha256": wrong}),
        )
        .await;
    let said = r.1["error"].as_str().unwrap();
    assert!(said.contains(&wrong) && said.contains(&sha), "{said}");
    assert!(r.1["job"].is_string(), "the failed job is named: {}", r.1);

    // A password in the address is never repeated.
    let r = s
        .post(
            "/api/v2/isos/fetch",
            json!({"url": format!("http://me:s3cret@127.0.0.1:{closed}/x.iso")}),
        )
        .await;
    assert_error(&r, 502, "url_unreachable");
    assert!(!r.1.to_string().contains("s3cret"), "{}", r.1);
    let r = s
        .post(
            "/api/v2/isos/fetch",
            json!({"url": "http://me:s3cret@127.0.0.1:99999/x.iso"}),
        )
        .await;
    assert_error(&r, 400, "invalid_url");
    assert!(!r.1.to_string().contains("s3cret"), "{}", r.1);
    assert_eq!(svc_names(&s), before);
}
