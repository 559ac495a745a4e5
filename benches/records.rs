//! Figures for the records service: how fast `bootsmith serve` is ready, how
//! much memory it holds, and how long the host list and group writes take.
//! Run: `cargo bench --no-default-features --bench records`.

mod common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

const BIN: &str = env!("CARGO_BIN_EXE_bootsmith");

fn main() {
    startup();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(records());
}

fn stats(mut v: Vec<Duration>) -> String {
    v.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    format!(
        "min {:.1} ms, median {:.1} ms, max {:.1} ms (n={})",
        ms(v[0]),
        ms(v[v.len() / 2]),
        ms(v[v.len() - 1]),
        v.len()
    )
}

/// Spawn → first `GET /` answered, on a fresh data dir each time (first start creates the key, DB and token).
fn startup() {
    let mut ready = Vec::new();
    let mut rss_kib = Vec::new();
    for _ in 0..10 {
        let dir = tempfile::tempdir().unwrap();
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let t0 = Instant::now();
        let mut child = Command::new(BIN)
            .env("BOOTSMITH_KEYRING", "off")
            .env_remove("DISPLAY")
            .arg("--data-dir")
            .arg(dir.path())
            .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        loop {
            if let Ok(mut s) = std::net::TcpStream::connect(("127.0.0.1", port)) {
                use std::io::{Read, Write};
                s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    .unwrap();
                let mut buf = String::new();
                let _ = s.read_to_string(&mut buf);
                if buf.starts_with("HTTP/1.1 200") {
                    break;
                }
            }
            assert!(
                t0.elapsed() < Duration::from_secs(10),
                "server did not start"
            );
            std::thread::sleep(Duration::from_millis(2));
        }
        ready.push(t0.elapsed());
        let status =
            std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap_or_default();
        if let Some(kb) = status
            .lines()
            .find(|l| l.starts_with("VmRSS:"))
            .and_then(|l| l.split_whitespace().nth(1))
        {
            rss_kib.push(kb.parse::<u64>().unwrap());
        }
        let _ = Command::new("kill")
            .arg("-TERM")
            .arg(child.id().to_string())
            .status();
        let _ = child.wait();
    }
    println!("serve ready (spawn to first answer): {}", stats(ready));
    if !rss_kib.is_empty() {
        rss_kib.sort();
        println!(
            "serve resident memory after start: median {} KiB",
            rss_kib[rss_kib.len() / 2]
        );
    }
}

async fn records() {
    let api = common::Api::start().await;
    for n in 0..4 {
        api.call(
            reqwest::Method::POST,
            "/api/v2/networks",
            Some(json!({"name": format!("net{n}"), "netmask": "255.255.0.0",
            "gateway": "10.0.0.1", "nameserver": "10.0.0.53", "ntpserver": "10.0.0.123"})),
        )
        .await;
    }
    let hosts: Vec<Value> = (0..1000)
        .map(|i| {
            json!({"name": format!("node{i:04}"), "ip": format!("10.9.{}.{}", i / 250, i % 250 + 1),
            "os": "rocky9", "role": "k8s node", "network_group": format!("net{}", i % 4)})
        })
        .collect();
    let list = Value::Array(hosts);

    let mut replace = Vec::new();
    for _ in 0..20 {
        let t = Instant::now();
        api.call(reqwest::Method::POST, "/api/v2/hosts", Some(list.clone()))
            .await;
        replace.push(t.elapsed());
    }
    println!(
        "POST /api/v2/hosts, 1000 hosts (validate + replace in one transaction): {}",
        stats(replace)
    );

    let mut read = Vec::new();
    for _ in 0..50 {
        let t = Instant::now();
        api.call(reqwest::Method::GET, "/api/v2/hosts", None).await;
        read.push(t.elapsed());
    }
    println!("GET /api/v2/hosts, 1000 hosts: {}", stats(read));

    // After a change the list is made again: each host's install status and media (the
    // inputs compared with its last build, its files looked up in svc).
    let mut remade = Vec::new();
    for i in 0..20 {
        let proxy = format!("http://proxy{i}.example:3128");
        api.call(
            reqwest::Method::POST,
            "/api/v1/proxy",
            Some(json!({ "proxy": proxy })),
        )
        .await;
        let t = Instant::now();
        api.call(reqwest::Method::GET, "/api/v2/hosts", None).await;
        remade.push(t.elapsed());
    }
    println!(
        "GET /api/v2/hosts, 1000 hosts, after a change (status and media made again): {}",
        stats(remade)
    );

    let t = Instant::now();
    let creates = (0..200).map(|i| {
        api.call(
            reqwest::Method::POST,
            "/api/v2/servers",
            Some(json!({"name": format!("pod{i}"), "type": "ucsm",
            "credentials": {"ip": "127.0.0.1:9", "user": "admin", "password": "pw"}, "check_login": false})),
        )
    });
    futures::future::join_all(creates).await;
    let el = t.elapsed();
    println!(
        "200 concurrent POST /api/v2/servers (encrypt + insert): {:.1} ms total, {:.0} writes/s",
        el.as_secs_f64() * 1000.0,
        200.0 / el.as_secs_f64()
    );
    api.app.close().await;
}
