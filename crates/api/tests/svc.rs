//! `/svc/<file>` as a management controller uses it: no token, HEAD, byte ranges.

mod common;

use common::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Send a request line exactly as written (clients would normalise `..` away).
async fn raw_get(base: &str, path: &str) -> String {
    let addr = base.trim_start_matches("http://");
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    s.write_all(format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes())
        .await
        .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).await.unwrap();
    out
}

#[tokio::test]
async fn svc_files_are_served_with_ranges_and_without_a_token() {
    // Listening: /svc over a socket, as a management controller fetches it.
    let s = Server::listening().await;
    let body: Vec<u8> = (0..1_048_576u32).map(|i| (i % 251) as u8).collect();
    std::fs::write(s.svc().join("node01.img"), &body).unwrap();
    let c = reqwest::Client::new();
    let url = format!("{}/svc/node01.img", s.base());

    let full = c.get(&url).send().await.unwrap();
    assert_eq!(full.status(), 200);
    assert_eq!(full.headers()["accept-ranges"], "bytes");
    assert_eq!(full.bytes().await.unwrap().as_ref(), &body[..]);

    let head = c.head(&url).send().await.unwrap();
    assert_eq!(head.status(), 200);
    assert_eq!(head.headers()["content-length"], "1048576");

    let part = c
        .get(&url)
        .header("range", "bytes=1000-1999")
        .send()
        .await
        .unwrap();
    assert_eq!(part.status(), 206);
    assert_eq!(part.headers()["content-range"], "bytes 1000-1999/1048576");
    assert_eq!(part.bytes().await.unwrap().as_ref(), &body[1000..2000]);

    let tail = c
        .get(&url)
        .header("range", "bytes=-16")
        .send()
        .await
        .unwrap();
    assert_eq!(tail.status(), 206);
    assert_eq!(
        tail.bytes().await.unwrap().as_ref(),
        &body[body.len() - 16..]
    );

    let beyond = c
        .get(&url)
        .header("range", "bytes=2000000-2000100")
        .send()
        .await
        .unwrap();
    assert_eq!(beyond.status(), 416);

    let post = c.post(&url).send().await.unwrap();
    assert_eq!(post.status(), 405, "read-only");
}

#[tokio::test]
async fn nothing_outside_svc_is_served() {
    // Listening: /svc over a socket, as a management controller fetches it.
    let s = Server::listening().await;
    std::fs::write(s.svc().join(".hidden.iso"), b"x").unwrap();
    std::os::unix::fs::symlink(s.data().join("secret.key"), s.svc().join("key.img")).unwrap();
    for path in [
        "/svc/../data/secret.key",
        "/svc/%2e%2e/data/secret.key",
        "/svc/%2E%2E%2Fdata%2Fsecret.key",
        "/svc/..%2f..%2fetc%2fpasswd",
        "/svc/key.img",
        "/svc/.hidden.iso",
        "/svc/",
        "/svc/missing.iso",
        "/svc/%ff.iso",
    ] {
        let answer = raw_get(s.base(), path).await;
        let status = answer.split_whitespace().nth(1).unwrap_or("");
        assert!(status == "404" || status == "400", "{path} → {status}");
        assert!(
            !answer.contains(&std::fs::read_to_string(s.data().join("secret.key")).unwrap()),
            "{path} leaked the key"
        );
    }
}

/// A GET or HEAD of `url` with the headers given; status, headers and body.
async fn fetch(
    c: &reqwest::Client,
    method: reqwest::Method,
    url: &str,
    headers: &[(&str, &str)],
) -> (u16, reqwest::header::HeaderMap, Vec<u8>) {
    let mut req = c.request(method, url);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let r = req.send().await.unwrap();
    let status = r.status().as_u16();
    let headers = r.headers().clone();
    (status, headers, r.bytes().await.unwrap().to_vec())
}

#[tokio::test]
async fn every_form_of_range_and_its_edges() {
    let s = Server::listening().await;
    // Longer than one read chunk (1 MiB), and not a multiple of it.
    let len: usize = 2 * 1_048_576 + 12_345;
    let body: Vec<u8> = (0..len as u32).map(|i| (i % 253) as u8).collect();
    std::fs::write(s.svc().join("node01.iso"), &body).unwrap();
    let c = reqwest::Client::new();
    let url = format!("{}/svc/node01.iso", s.base());
    let get = reqwest::Method::GET;

    let (status, h, got) = fetch(&c, get.clone(), &url, &[]).await;
    assert_eq!(status, 200);
    assert_eq!(got, body, "the whole file, across read chunks");
    assert_eq!(h["content-length"], len.to_string().as_str());
    assert_eq!(h["content-type"], "application/octet-stream");

    let part = |from: usize, to: usize| (format!("bytes {from}-{to}/{len}"), &body[from..=to]);
    for (range, (content_range, expected)) in [
        (format!("bytes={}-", len - 1000), part(len - 1000, len - 1)),
        ("bytes=-500".to_owned(), part(len - 500, len - 1)),
        ("bytes=100-".to_owned(), part(100, len - 1)),
        (
            format!("bytes={}-{}", len - 1, len - 1),
            part(len - 1, len - 1),
        ),
        (
            format!("bytes={}-{}", len - 10, len + 5000),
            part(len - 10, len - 1),
        ),
        (format!("bytes=-{}", len * 2), part(0, len - 1)),
        // Across the first read chunk's end.
        (
            "bytes=1048000-1049999".to_owned(),
            part(1_048_000, 1_049_999),
        ),
    ] {
        let (status, h, got) = fetch(&c, get.clone(), &url, &[("range", &range)]).await;
        assert_eq!(status, 206, "{range}");
        assert_eq!(h["content-range"], content_range.as_str(), "{range}");
        assert_eq!(h["content-length"], expected.len().to_string().as_str());
        assert_eq!(got, expected, "{range}");
    }

    // Nothing of the file: 416, saying how long it is.
    for range in [
        format!("bytes={len}-"),
        format!("bytes={}-{}", len + 1, len + 9),
        "bytes=-0".into(),
    ] {
        let (status, h, got) = fetch(&c, get.clone(), &url, &[("range", &range)]).await;
        assert_eq!(status, 416, "{range}");
        assert_eq!(
            h["content-range"],
            format!("bytes */{len}").as_str(),
            "{range}"
        );
        assert!(got.is_empty());
    }

    // Several ranges, or a malformed one: the whole file (RFC 9110 lets a server ignore Range).
    for range in ["bytes=0-1,5-6", "bytes=500-100", "items=0-5"] {
        let (status, h, got) = fetch(&c, get.clone(), &url, &[("range", range)]).await;
        assert_eq!(status, 200, "{range}");
        assert!(h.get("content-range").is_none());
        assert_eq!(got.len(), len, "{range}");
    }

    // HEAD with a range: the part's head, no body.
    let (status, h, got) = fetch(
        &c,
        reqwest::Method::HEAD,
        &url,
        &[("range", "bytes=100-199")],
    )
    .await;
    assert_eq!(status, 206);
    assert_eq!(h["content-range"], format!("bytes 100-199/{len}").as_str());
    assert_eq!(h["content-length"], "100");
    assert!(got.is_empty());
    let (status, h, _) = fetch(
        &c,
        reqwest::Method::HEAD,
        &url,
        &[("range", &format!("bytes={len}-"))],
    )
    .await;
    assert_eq!(status, 416);
    assert_eq!(h["content-range"], format!("bytes */{len}").as_str());

    // An empty file, and names that need decoding.
    std::fs::write(s.svc().join("empty.img"), b"").unwrap();
    let empty = format!("{}/svc/empty.img", s.base());
    let (status, h, got) = fetch(&c, get.clone(), &empty, &[]).await;
    assert_eq!((status, got.len()), (200, 0));
    assert_eq!(h["content-length"], "0");
    let (status, _, _) = fetch(&c, get.clone(), &empty, &[("range", "bytes=0-")]).await;
    assert_eq!(status, 416);
    std::fs::create_dir(s.svc().join("a tree")).unwrap();
    std::fs::write(s.svc().join("a tree/notes.txt"), b"hello").unwrap();
    let (status, h, got) = fetch(
        &c,
        get,
        &format!("{}/svc/a%20tree/notes.txt", s.base()),
        &[],
    )
    .await;
    assert_eq!((status, got.as_slice()), (200, &b"hello"[..]));
    assert_eq!(h["content-type"], "text/plain");
}

#[tokio::test]
async fn conditional_requests_are_answered() {
    let s = Server::listening().await;
    let path = s.svc().join("node01.img");
    std::fs::write(&path, b"0123456789").unwrap();
    let c = reqwest::Client::new();
    let url = format!("{}/svc/node01.img", s.base());
    let get = reqwest::Method::GET;

    let (status, h, _) = fetch(&c, get.clone(), &url, &[]).await;
    assert_eq!(status, 200);
    let etag = h["etag"].to_str().unwrap().to_owned();
    let modified = h["last-modified"].to_str().unwrap().to_owned();
    assert!(
        etag.starts_with('"') && etag.ends_with('"'),
        "a strong tag: {etag}"
    );
    let earlier = "Mon, 01 Jan 2001 00:00:00 GMT";
    let weak_in_a_list = format!("\"other\", W/{etag}");

    // Request headers, and the status and body they get.
    type Case<'a> = (Vec<(&'a str, &'a str)>, u16, &'a [u8]);
    let cases: Vec<Case> = vec![
        // The client's copy is current: 304, without a body.
        (vec![("if-none-match", &etag)], 304, b""),
        (vec![("if-none-match", "*")], 304, b""),
        (vec![("if-none-match", &weak_in_a_list)], 304, b""),
        (vec![("if-modified-since", &modified)], 304, b""),
        (vec![("if-none-match", "\"other\"")], 200, b"0123456789"),
        (vec![("if-modified-since", earlier)], 200, b"0123456789"),
        // If-None-Match wins over If-Modified-Since.
        (
            vec![
                ("if-none-match", "\"other\""),
                ("if-modified-since", &modified),
            ],
            200,
            b"0123456789",
        ),
        // The client's copy is out of date: 412.
        (vec![("if-match", "\"other\"")], 412, b""),
        (vec![("if-unmodified-since", earlier)], 412, b""),
        (vec![("if-match", &etag)], 200, b"0123456789"),
        (vec![("if-unmodified-since", &modified)], 200, b"0123456789"),
        // If-Range: the part while the copy is current, else the whole file.
        (
            vec![("range", "bytes=2-4"), ("if-range", &etag)],
            206,
            b"234",
        ),
        (
            vec![("range", "bytes=2-4"), ("if-range", &modified)],
            206,
            b"234",
        ),
        (
            vec![("range", "bytes=2-4"), ("if-range", "\"other\"")],
            200,
            b"0123456789",
        ),
        (
            vec![("range", "bytes=2-4"), ("if-range", earlier)],
            200,
            b"0123456789",
        ),
    ];
    for (headers, status, body) in cases {
        let (got, h, bytes) = fetch(&c, get.clone(), &url, &headers).await;
        assert_eq!((got, bytes.as_slice()), (status, body), "{headers:?}");
        if status == 304 {
            assert_eq!(h["etag"], etag.as_str(), "a 304 names the tag");
        }
    }
    let (status, _, _) = fetch(&c, reqwest::Method::HEAD, &url, &[("if-none-match", &etag)]).await;
    assert_eq!(status, 304);

    // Rebuilt under its name (as images are: a new file renamed into place): a new tag, and
    // the old one no longer matches.
    let tmp = s.svc().join(".node01.img.tmp");
    std::fs::write(&tmp, b"abcdefghij").unwrap();
    std::fs::rename(&tmp, &path).unwrap();
    let (status, h, body) = fetch(&c, get.clone(), &url, &[("if-none-match", &etag)]).await;
    assert_eq!((status, body.as_slice()), (200, &b"abcdefghij"[..]));
    assert_ne!(h["etag"], etag.as_str());
    let (status, _, body) = fetch(
        &c,
        get,
        &url,
        &[("range", "bytes=2-4"), ("if-range", &etag)],
    )
    .await;
    assert_eq!(
        (status, body.as_slice()),
        (200, &b"abcdefghij"[..]),
        "a stale If-Range"
    );
}

#[tokio::test]
async fn every_answer_is_accounted_to_its_host() {
    let s = Server::listening().await;
    let (status, body) = s
        .post(
            "/api/v2/networks",
            serde_json::json!({"name": "lo", "netmask": "255.0.0.0", "gateway": "127.0.0.254",
            "nameserver": "127.0.0.53", "ntpserver": "127.0.0.123"}),
        )
        .await;
    assert!(status.is_success(), "{body}");
    let (status, body) = s
        .post(
            "/api/v2/hosts",
            serde_json::json!([{"name": "node01", "ip": "10.9.0.1", "os": "rocky9",
            "role": "generic", "network_group": "lo"}]),
        )
        .await;
    assert!(status.is_success(), "{body}");
    let data: Vec<u8> = (0..3_000_000u32).map(|i| i as u8).collect();
    std::fs::write(s.svc().join("node01.iso"), &data).unwrap();
    let c = reqwest::Client::new();
    let url = format!("{}/svc/node01.iso", s.base());
    let recorded = || async {
        let t = bootsmith_core::host_views::timeline(&s.app, "node01")
            .await
            .unwrap();
        (
            t.access.iter().map(|a| a.requests).sum::<u64>(),
            t.access.iter().map(|a| a.bytes).sum::<u64>(),
            t.access.iter().find_map(|a| a.last_range.clone()),
        )
    };
    // The lifecycle task learns of the host within a second: fetch (a HEAD counts 0 bytes)
    // until it attributes one.
    let t0 = std::time::Instant::now();
    while recorded().await.0 == 0 {
        assert!(
            t0.elapsed().as_secs() < 10,
            "the fetch was never attributed"
        );
        c.head(&url).send().await.unwrap();
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    let (requests, bytes, _) = recorded().await;
    assert_eq!(bytes, 0, "HEADs send no bytes");

    // Counted: a whole file, a range, a HEAD. Not counted: a 304, a 416, a 404.
    let get = reqwest::Method::GET;
    let (_, h, _) = fetch(&c, get.clone(), &url, &[]).await;
    let etag = h["etag"].to_str().unwrap().to_owned();
    fetch(&c, get.clone(), &url, &[("range", "bytes=1000-2999")]).await;
    fetch(&c, reqwest::Method::HEAD, &url, &[]).await;
    assert_eq!(
        fetch(&c, get.clone(), &url, &[("if-none-match", &etag)])
            .await
            .0,
        304
    );
    assert_eq!(
        fetch(&c, get.clone(), &url, &[("range", "bytes=5000000-")])
            .await
            .0,
        416
    );
    let missing = format!("{}/svc/node01.img", s.base());
    assert_eq!(fetch(&c, get, &missing, &[]).await.0, 404);
    let want = (
        requests + 3,
        3_000_000 + 2000,
        Some("bytes=1000-2999".to_owned()),
    );
    let t0 = std::time::Instant::now();
    while recorded().await != want {
        assert!(
            t0.elapsed().as_secs() < 10,
            "{:?} != {want:?}",
            recorded().await
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}
