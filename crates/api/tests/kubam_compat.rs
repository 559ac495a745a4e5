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
    assert_error(&r, 400, "private_key");
    assert!(
        r.1["error"].as_str().unwrap().contains("private key"),
        "{}",
        r.1
    );
    assert!(!r.1.to_string().contains("b3BlbnNzaC1rZXkt"), "{}", r.1);
}

#[tokio::test]
async fn server_groups_keep_description_and_org_and_take_ucsc_groups() {
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

    // UCS Central groups are stored like the others and reached through their own driver:
    // here its address answers nothing, which the listing and the login check both say.
    let mut c = group("central", "secret");
    c["type"] = json!("ucsc");
    c["server_pool"] = json!({"blades": ["1009/1/3"]});
    let r = s.post("/api/v2/servers", c.clone()).await;
    assert_eq!(r.0, 201, "{}", r.1);
    assert_eq!(r.1["type"], "ucsc");
    assert_eq!(r.1["server_pool"]["blades"], json!(["1009/1/3"]));
    assert_error(
        &s.get("/api/v2/servers/central/servers").await,
        502,
        "ucs_unreachable",
    );
    c["name"] = json!("central2");
    c["check_login"] = json!(true);
    assert_error(&s.post("/api/v2/servers", c).await, 502, "ucs_unreachable");
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
        // The sentence speaks the operator's words; the call is a hint for scripts.
        assert!(
            r.1["error"].as_str().unwrap().contains("one at a time"),
            "{}",
            r.1
        );
        assert!(!r.1["error"].as_str().unwrap().contains("/api/"), "{}", r.1);
        assert!(
            r.1["hint"]
                .as_str()
                .unwrap()
                .starts_with("DELETE /api/v2/hosts"),
            "{}",
            r.1
        );
    }
    assert_eq!(
        s.get("/api/v2/hosts").await.1["hosts"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

async fn sim_domain() -> (Server, bootsmith_sim::Sim) {
    let s = Server::start().await;
    let u = bootsmith_sim::Sim::start(bootsmith_sim::SimConfig::ucsm())
        .await
        .unwrap();
    let g = json!({"name": "pod1", "type": "ucsm",
        "credentials": {"ip": u.address(), "user": "admin", "password": "password"}});
    let r = s.post("/api/v2/servers", g).await;
    assert_eq!(r.0, 201, "{}", r.1);
    (s, u)
}

/// The simulator's power state of every server, by DN.
fn powers(u: &bootsmith_sim::Sim) -> Vec<(String, String)> {
    let mut dns: Vec<String> = (1..=2)
        .flat_map(|c| (1..=4).map(move |b| format!("sys/chassis-{c}/blade-{b}")))
        .chain((1..=2).map(|r| format!("sys/rack-unit-{r}")))
        .collect();
    dns.sort();
    dns.into_iter()
        .map(|dn| {
            let p = u.get(&dn).unwrap().get("operPower").to_owned();
            (dn, p)
        })
        .collect()
}

#[tokio::test]
async fn an_explicitly_empty_selection_acts_on_nothing_and_says_so() {
    let (s, u) = sim_domain().await;
    let before = powers(&u);
    assert!(before.iter().any(|(_, p)| p == "off"), "{before:?}");
    let empty = json!({"servers": {"blades": [], "rack_servers": []}});
    for (method, path) in [
        (reqwest::Method::PUT, "/api/v2/servers/pod1/power/on"),
        (reqwest::Method::PUT, "/api/v2/servers/pod1/power/off"),
        (reqwest::Method::GET, "/api/v2/servers/pod1/powerstat"),
        (reqwest::Method::GET, "/api/v2/servers/pod1/disks"),
        (reqwest::Method::DELETE, "/api/v2/servers/pod1/disks"),
        (reqwest::Method::GET, "/api/v2/servers/pod1/fsm"),
    ] {
        for body in [empty.clone(), json!({"servers": {}})] {
            let r = s.call(method.clone(), path, Some(body)).await;
            assert_error(&r, 400, "empty_selection");
            assert!(
                r.1["error"].as_str().unwrap().contains("leave out"),
                "{}",
                r.1
            );
        }
    }
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(powers(&u), before, "an empty selection changed a server");
    // No body at all still means the whole group.
    let r = s.get("/api/v2/servers/pod1/powerstat").await;
    assert_eq!(r.1["status"]["blades"].as_array().unwrap().len(), 8);
}

#[tokio::test]
async fn selectors_of_the_wrong_shape_and_blank_bodies_are_invalid_bodies() {
    let (s, u) = sim_domain().await;
    let r = s
        .post(
            "/api/v2/servers/pod1/servers",
            json!({"servers": {"blades": ["1/2"]}}),
        )
        .await;
    assert_eq!(r.0, 200, "{}", r.1);
    let before = powers(&u);
    let nulls = json!({"servers": [null, null]});
    for (method, path) in [
        (reqwest::Method::PUT, "/api/v2/servers/pod1/power/off"),
        (reqwest::Method::GET, "/api/v2/servers/pod1/powerstat"),
        (reqwest::Method::DELETE, "/api/v2/servers/pod1/disks"),
        (reqwest::Method::POST, "/api/v2/servers/pod1/servers"),
    ] {
        let r = s.call(method.clone(), path, Some(nulls.clone())).await;
        assert_error(&r, 400, "invalid_body");
        for blank in ["\t", " ", "\r\n"] {
            let r = s
                .raw(method.clone(), path, Some("application/json"), blank.into())
                .await;
            assert_error(&r, 400, "invalid_body");
        }
    }
    for bad in [json!({"servers": "1/1"}), json!({"servers": 7})] {
        let r = s
            .call(
                reqwest::Method::PUT,
                "/api/v2/servers/pod1/power/off",
                Some(bad),
            )
            .await;
        assert_error(&r, 400, "invalid_body");
    }
    // Nested records are objects too.
    let mut g = json!({"name": "pod9", "type": "ucsm", "credentials": ["10.0.0.1", "admin", "x"], "check_login": false});
    assert_error(
        &s.post("/api/v2/servers", g.clone()).await,
        400,
        "invalid_body",
    );
    g["credentials"] = json!({"ip": "10.0.0.1", "user": "admin", "password": "x"});
    g["server_pool"] = json!([null]);
    assert_error(&s.post("/api/v2/servers", g).await, 400, "invalid_body");
    assert_error(
        &s.post("/api/v2/hosts", json!([["node01", "10.0.0.1"]]))
            .await,
        400,
        "invalid_body",
    );
    assert_error(
        &s.post(
            "/api/v1/isos/map",
            json!({"iso_map": [["/svc/a.iso", "centos7.4"]]}),
        )
        .await,
        400,
        "invalid_body",
    );
    // Nothing was touched: the selection and every server's power are as they were.
    let (_, groups) = s.get("/api/v2/servers").await;
    assert_eq!(
        groups["servers"][0]["server_pool"]["blades"],
        json!(["1/2"])
    );
    assert_eq!(powers(&u), before);
}

#[tokio::test]
async fn selecting_servers_the_manager_does_not_have_is_refused_unless_it_cannot_be_asked() {
    let (s, _u) = sim_domain().await;
    let r = s
        .post(
            "/api/v2/servers/pod1/servers",
            json!({"servers": {"blades": ["1/1", "9/9"], "rack_servers": ["2", "7"]}}),
        )
        .await;
    assert_error(&r, 400, "unknown_servers");
    let msg = r.1["error"].as_str().unwrap();
    assert!(
        msg.contains("blade 9/9") && msg.contains("rack server 7"),
        "{msg}"
    );
    assert!(!msg.contains("1/1"), "{msg}");

    // KUBAM's web UI sends back the inventory's records with `selected` flags.
    let (_, inv) = s.get("/api/v2/servers/pod1/servers").await;
    let mut records = inv["servers"].as_array().unwrap().clone();
    for r in &mut records {
        let pick = r["id"] == "1/3" || r["id"] == "2";
        r["selected"] = json!(pick);
    }
    let r = s
        .post(
            "/api/v2/servers/pod1/servers",
            json!({ "servers": records }),
        )
        .await;
    assert_eq!(r.0, 200, "{}", r.1);
    assert_eq!(
        r.1["servers"],
        json!({"blades": ["1/3"], "rack_servers": ["2"]})
    );

    // A group stored offline keeps its selection, with a warning that it was not checked.
    let r = s.post("/api/v2/servers", group("offline", "x")).await;
    assert_eq!(r.0, 201, "{}", r.1);
    let r = s
        .post(
            "/api/v2/servers/offline/servers",
            json!({"servers": {"blades": ["9/9"]}}),
        )
        .await;
    assert_eq!(r.0, 200, "{}", r.1);
    assert_eq!(r.1["servers"]["blades"], json!(["9/9"]));
    assert!(
        r.1["warnings"][0].as_str().unwrap().contains("not checked"),
        "{}",
        r.1
    );
}

#[tokio::test]
async fn browser_pages_from_a_named_origin_may_call_the_api() {
    let origin = "http://kubam.lab:5000";
    let s = Server::start_with_cors(tempfile::tempdir().unwrap(), true, &[origin]).await;
    let preflight = |from: &'static str| {
        s.request(reqwest::Method::OPTIONS, "/api/v2/servers")
            .header("origin", from)
            .header("access-control-request-method", "POST")
            .header(
                "access-control-request-headers",
                "authorization,content-type",
            )
            .send()
    };
    let r = preflight(origin).await;
    assert!(r.status.is_success(), "{}", r.status);
    let h = &r.headers;
    assert_eq!(h["access-control-allow-origin"], origin);
    assert!(h["access-control-allow-methods"]
        .to_str()
        .unwrap()
        .contains("POST"));
    let allowed = h["access-control-allow-headers"]
        .to_str()
        .unwrap()
        .to_ascii_lowercase();
    assert!(allowed.contains("authorization") && allowed.contains("content-type"));
    assert!(h.get("access-control-allow-credentials").is_none());
    // Another origin gets no grant.
    let r = preflight("http://evil.example").await;
    assert!(r.headers.get("access-control-allow-origin").is_none());
    // A real call still needs the token; its answer is readable by the page either way.
    let r = s
        .request(reqwest::Method::GET, "/api/v2/servers")
        .header("origin", origin)
        .send()
        .await;
    assert_eq!(r.status, 401);
    assert_eq!(r.headers["access-control-allow-origin"], origin);
    let r = s
        .request(reqwest::Method::GET, "/api/v2/servers")
        .token()
        .header("origin", origin)
        .send()
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.headers["access-control-allow-origin"], origin);

    // Off by default: no grant, and a preflight is just an unknown method.
    let plain = Server::start().await;
    let r = plain
        .request(reqwest::Method::OPTIONS, "/api/v2/servers")
        .header("origin", origin)
        .header("access-control-request-method", "POST")
        .send()
        .await;
    assert!(r.headers.get("access-control-allow-origin").is_none());
    assert_eq!(r.status, 405);
}

#[tokio::test]
async fn hosts_may_name_a_template_by_its_short_name_when_it_is_unambiguous() {
    let (s, u) = sim_domain().await;
    s.post("/api/v2/networks", network("net")).await;
    // KUBAM's UI compares a template's `name` with the host's template: the DN.
    let (_, t) = s.get("/api/v2/servers/pod1/templates").await;
    let names: Vec<&str> = field_of_each(&t["templates"], "name");
    assert_eq!(
        names,
        ["org-root/ls-c7-template", "org-root/ls-esxi-template"]
    );

    let with_template = |t: &str| {
        let mut h = host("node01", "10.1.0.11", "centos7.4", "net");
        h["server_group"] = json!("pod1");
        h["service_profile_template"] = json!(t);
        json!([h])
    };
    let r = s.post("/api/v2/hosts", with_template("c7-template")).await;
    assert_eq!(r.0, 201, "{}", r.1);
    assert_eq!(
        s.get("/api/v2/hosts").await.1["hosts"][0]["service_profile_template"],
        "org-root/ls-c7-template"
    );
    let r = s.post("/api/v2/hosts", with_template("no-such")).await;
    assert_error(&r, 400, "invalid_hosts");
    assert!(
        r.1["error"]
            .as_str()
            .unwrap()
            .contains("no template named 'no-such'"),
        "{}",
        r.1
    );

    // The same short name in another org: ambiguous, both named.
    u.with_tree(|t| {
        t.put(
            "org-root/org-lab",
            bootsmith_sim::tree::Obj::new("orgOrg", &[("name", "lab")]),
        );
        t.put(
            "org-root/org-lab/ls-c7-template",
            bootsmith_sim::tree::Obj::new(
                "lsServer",
                &[("name", "c7-template"), ("type", "initial-template")],
            ),
        );
    });
    let r = s.post("/api/v2/hosts", with_template("c7-template")).await;
    assert_error(&r, 400, "invalid_hosts");
    let msg = r.1["error"].as_str().unwrap();
    assert!(
        msg.contains("org-root/ls-c7-template") && msg.contains("org-root/org-lab/ls-c7-template"),
        "{msg}"
    );
    // The stored list is untouched by the refused ones.
    assert_eq!(
        s.get("/api/v2/hosts").await.1["hosts"][0]["service_profile_template"],
        "org-root/ls-c7-template"
    );
}
