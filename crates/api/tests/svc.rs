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
