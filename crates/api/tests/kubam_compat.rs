//! KUBAM's clients against Bootsmith: what they send and read works unchanged, and the gaps
//! found by replaying them are closed (issue 12's numbered items).

mod common;

use common::*;
use serde_json::json;

/// Keys made by ssh-keygen (OpenSSH 9.2) and the fingerprint `ssh-keygen -lf` printed for each;
/// the `sk-` ones are security-key keys as a FIDO token makes them.
const KEYS: [(&str, &str); 7] = [
    ("ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBALaLwEP9UAiyD6GkrwyCZcAYPsm+2/20xAW0U3lPzuMqMIwo/8j5PVk6wtEF/LQ6QQS0rELGZiJMz4hQvhh4R4= ops@lab", "SHA256:XA+ZC4PXgpdumPwTWSmPhraf2eSckzl7o0lYn0nd8oI"),
    ("ecdsa-sha2-nistp384 AAAAE2VjZHNhLXNoYTItbmlzdHAzODQAAAAIbmlzdHAzODQAAABhBL7h1rWo7Q5RSP44+Ni61KlSH17CUo2JWiDsdng9cacLKbaoe0JDfqr4zCRYsu58B+GpMtgDMP6Pdjm2Z/WrEyGk5FgBNumqf3VQ0WpIkQt3zZxZQPnCHsjaUVJ0r0ROcg== ops@lab", "SHA256:7gudlDS4XfPcSTzi79XRymcp7mpgTjRz/5pcS2W+AqY"),
    ("ecdsa-sha2-nistp521 AAAAE2VjZHNhLXNoYTItbmlzdHA1MjEAAAAIbmlzdHA1MjEAAACFBAHXK8PMCEDSbCKPQNU2H8SJ2ZKC3z26EGhTCL7qJlqj9U+WhhuBy1n+eLELlaWoQnhXVcTwrHVfvBqK+GIlVRwMJgEfYQUrRpzPIU8HxrHP+OPNRAHRSLyCKYq71xprzwbBbfflizG+gndffIx6CMTtpy07OhAyqX2MEvkYafcvtWkmjw== ops@lab", "SHA256:n3tmyZ5fgyaIRnj+g114SNvIpXu7HQPGi4oeU8mDpP4"),
    ("ssh-dss AAAAB3NzaC1kc3MAAACBAIOmdJ3d7wIRiiYfvohhGbonc4S2Ni+pzECRI1BO0lLt5dOG9h230UJOK/32W/MFgRN5loD5kccRw1Bdx+JFTSAJrfh1ZttZQ/IEibtjYQFu2mO7vtGxP8jL7XshcKp8/Xr6Dk94/MDW8nsq8ZwPBOGHoFlgrDogCBIQFYWRcUrFAAAAFQC0MKnuU6vU0Bs9SfQj+GlV0Df9MQAAAIAlAdAZu3QA4yikT4HyowgXfXygPXSeivMsKwis7ZzYrs5Fdoxs+pY0GGLCxfh1M7K5uSndmYcq8jVeFDoUHpW9R1mr8XI/laTd8B4Z2188A6JPSwz7W+5CV2GjjRJ9vAUbH81PZFM2wneVcaU/msjv4DtbHI7dPUtpbiwZoQ+2ewAAAIBQjPPQZWisiT2h0nlS+SrftrhOZUgX5DMzX6jCmgfwUXvOKEI29dLzwbzQvxEozzc9A7qV/Jf/rTAL8lzJzZESDHNDpNNEy+UBVLqTPYVUk78IWdVjX1AHAvzQPm7RQWqR/Mz335Fl3au7iOl0R8ETOk/6VU2HbH9V9vNI3efddA== ops@lab", "SHA256:Bl9i+v0BzPa7GBKPyWf7fmLe5/OCNs2SLtLutToUoMg"),
    ("sk-ssh-ed25519@openssh.com AAAAGnNrLXNzaC1lZDI1NTE5QG9wZW5zc2guY29tAAAAIAABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGhscHR4fAAAABHNzaDo= yubi@lab", "SHA256:/p0CbeE3dk2SyW1OXXsThGc12ezDVD8eGw2/vtztDfk"),
    ("sk-ecdsa-sha2-nistp256@openssh.com AAAAInNrLWVjZHNhLXNoYTItbmlzdHAyNTZAb3BlbnNzaC5jb20AAAAIbmlzdHAyNTYAAABBBALaLwEP9UAiyD6GkrwyCZcAYPsm+2/20xAW0U3lPzuMqMIwo/8j5PVk6wtEF/LQ6QQS0rELGZiJMz4hQvhh4R4AAAAEc3NoOg== yubi2@lab", "SHA256:gaBy8XeejmgkMmupXwjloDPjKEB7G5YuW1URecWJxiE"),
    ("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJ8KN22JGSZL9J3CqSNZ00iCq+E6GEtZ6zE31hkELl25 ops@lab", "SHA256:rh/MOTJSBqHy91iD8duSytMdRp2aDYG9DiL3LxGl0Yk"),
];

#[tokio::test]
async fn every_openssh_key_type_is_accepted_and_shown_with_type_comment_and_fingerprint() {
    let s = Server::start().await;
    let all: Vec<&str> = KEYS.iter().map(|(k, _)| *k).collect();
    let r = s.post("/api/v1/keys", json!({ "keys": all })).await;
    assert_eq!(r.0, 200, "{}", r.1);
    assert_eq!(s.get("/api/v1/keys").await.1["keys"], json!(all));
    let (status, details) = s.get("/api/v2/keys").await;
    assert_eq!(status, 200);
    let details = details["keys"].as_array().unwrap();
    assert_eq!(details.len(), KEYS.len());
    for ((key, fingerprint), d) in KEYS.iter().zip(details) {
        assert_eq!(d["key"], *key);
        assert_eq!(d["fingerprint"], *fingerprint, "{key}");
        assert_eq!(d["type"], key.split(' ').next().unwrap());
        assert!(d["comment"].as_str().unwrap().ends_with("@lab"), "{d}");
    }
    // A private key pasted by mistake is named as such and not echoed back.
    let private = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----";
    let r = s.post("/api/v1/keys", json!({ "keys": [private] })).await;
    assert_error(&r, 400, "invalid_keys");
    assert!(
        r.1["error"].as_str().unwrap().contains("private key"),
        "{}",
        r.1
    );
    assert!(!r.1.to_string().contains("b3BlbnNzaC1rZXkt"), "{}", r.1);
}

#[tokio::test]
async fn server_groups_keep_description_and_org_and_store_ucsc_groups() {
    let s = Server::start().await;
    let mut g = group("Lab Pod 1", "secret");
    g["description"] = json!("the lab's first pod");
    g["org"] = json!("org-root/org-lab");
    let r = s.post("/api/v2/servers", g).await;
    assert_eq!(r.0, 201, "{}", r.1);
    let (_, list) = s.get("/api/v2/servers").await;
    let stored = &list["servers"][0];
    assert_eq!(stored["description"], "the lab's first pod");
    assert_eq!(stored["org"], "org-root/org-lab");
    // A PUT sending both back changed keeps them; a bare org name is completed.
    let mut upd = stored.clone();
    upd["description"] = json!("pod one");
    upd["org"] = json!("lab2");
    upd["check_login"] = json!(false);
    let r = s.put("/api/v2/servers", upd).await;
    assert_eq!(r.0, 200, "{}", r.1);
    assert_eq!(r.1["description"], "pod one");
    assert_eq!(r.1["org"], "org-root/org-lab2");
    // The name with spaces works in paths too.
    let r = s.get("/api/v2/servers/Lab%20Pod%201/servers").await;
    assert_ne!(r.1["code"], "server_group_not_found", "{}", r.1);

    let mut bad = group("pod2", "secret");
    bad["org"] = json!("org-root/ls-x");
    assert_error(
        &s.post("/api/v2/servers", bad).await,
        400,
        "invalid_server_group",
    );

    // UCS Central groups are kept for their driver, and say plainly that they cannot be used yet.
    let mut c = group("central", "secret");
    c["type"] = json!("ucsc");
    c["server_pool"] = json!({"blades": ["1009/1/3"]});
    let r = s.post("/api/v2/servers", c.clone()).await;
    assert_eq!(r.0, 201, "{}", r.1);
    assert_eq!(r.1["type"], "ucsc");
    assert_error(
        &s.get("/api/v2/servers/central/servers").await,
        501,
        "not_implemented",
    );
    c["name"] = json!("central2");
    c["check_login"] = json!(true);
    let r = s.post("/api/v2/servers", c).await;
    assert_error(&r, 501, "not_implemented");
    assert!(
        r.1["error"].as_str().unwrap().contains("check_login"),
        "{}",
        r.1
    );
}

#[tokio::test]
async fn group_network_and_aci_names_are_printable_text_without_slashes() {
    let s = Server::start().await;
    let r = s
        .post("/api/v2/networks", network("Lab Net (VLAN 30)"))
        .await;
    assert_eq!(r.0, 201, "{}", r.1);
    let aci = json!({"name": "Fabric Ä", "credentials": {"ip": "10.0.0.9", "user": "admin", "password": "x"},
        "tenant_name": "t", "vrf_name": "v", "bridge_domain": "b"});
    assert_eq!(s.post("/api/v2/aci", aci).await.0, 201);
    let r = s
        .post(
            "/api/v2/hosts",
            json!([host(
                "node01",
                "10.1.0.11",
                "centos7.4",
                "Lab Net (VLAN 30)"
            )]),
        )
        .await;
    assert_eq!(r.0, 201, "{}", r.1);
    for bad in ["a/b", " lead", "trail ", "tab\there", &"x".repeat(65)] {
        let r = s.post("/api/v2/networks", network(bad)).await;
        assert_error(&r, 400, "invalid_network");
    }
}

#[tokio::test]
async fn proxy_and_org_settings_are_served_and_are_the_defaults() {
    let s = Server::start().await;
    assert_eq!(s.get("/api/v1/proxy").await.1, json!({"proxy": null}));
    assert_eq!(s.get("/api/v1/org").await.1, json!({"org": null}));
    let r = s
        .post("/api/v1/proxy", json!({"proxy": "http://proxy.lab:3128"}))
        .await;
    assert_eq!(
        r,
        (
            reqwest::StatusCode::OK,
            json!({"proxy": "http://proxy.lab:3128"})
        )
    );
    assert_eq!(
        s.get("/api/v1/proxy").await.1["proxy"],
        "http://proxy.lab:3128"
    );
    assert_error(
        &s.post("/api/v1/proxy", json!({"proxy": "ftp://x"})).await,
        400,
        "invalid_setting",
    );
    assert_error(
        &s.post("/api/v1/proxy", json!({})).await,
        400,
        "invalid_setting",
    );
    let r = s.post("/api/v1/org", json!({"org": "lab"})).await;
    assert_eq!(r.1, json!({"org": "org-root/org-lab"}));
    assert_error(
        &s.post("/api/v1/org", json!({"org": "org-root/x y"})).await,
        400,
        "invalid_setting",
    );
    // "" clears.
    assert_eq!(
        s.post("/api/v1/org", json!({"org": ""})).await.1,
        json!({"org": null})
    );
    assert_eq!(s.get("/api/v1/org").await.1, json!({"org": null}));
}

#[tokio::test]
async fn kubam_ip_is_an_alias_of_svc_ip() {
    let s = Server::start().await;
    let r = s.post("/api/v1/ip", json!({"kubam_ip": "192.0.2.7"})).await;
    assert_eq!(r.0, 200, "{}", r.1);
    assert_eq!(
        s.get("/api/v1/ip").await.1,
        json!({"svc_ip": "192.0.2.7", "kubam_ip": "192.0.2.7"})
    );
    let r = s
        .post(
            "/api/v1/ip",
            json!({"kubam_ip": "192.0.2.8", "svc_ip": "192.0.2.9"}),
        )
        .await;
    assert_error(&r, 400, "invalid_svc_ip");
    assert_error(
        &s.post("/api/v1/ip", json!({"kubam_ip": "10"})).await,
        400,
        "invalid_svc_ip",
    );
}

#[tokio::test]
async fn an_empty_host_list_is_refused_and_wipes_nothing() {
    let s = Server::start().await;
    s.post("/api/v2/networks", network("net")).await;
    let r = s
        .post(
            "/api/v2/hosts",
            json!([host("node01", "10.1.0.11", "centos7.4", "net")]),
        )
        .await;
    assert_eq!(r.0, 201);
    for method in [reqwest::Method::POST, reqwest::Method::PUT] {
        let r = s.call(method, "/api/v2/hosts", Some(json!([]))).await;
        assert_error(&r, 400, "empty_host_list");
        assert!(r.1["error"].as_str().unwrap().contains("DELETE"), "{}", r.1);
    }
    assert_eq!(
        s.get("/api/v2/hosts").await.1["hosts"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}
