//! HTTP conventions every route follows: token, JSON bodies on any method,
//! 415 without the JSON content type, JSON errors, limits, no 5xx for bad input.

mod common;

use common::*;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

#[tokio::test]
async fn status_is_open_and_api_needs_the_token() {
    let s = Server::start().await;
    let r = s.request(Method::GET, "/").read().await;
    assert_eq!(r.0, StatusCode::OK);
    assert_eq!(r.1["status"], "ok");

    let no_token = s.request(Method::GET, "/api/v2/hosts").read().await;
    assert_error(&no_token, 401, "unauthorized");
    let wrong = s
        .request(Method::GET, "/api/v2/hosts")
        .bearer_auth("bst_wrong")
        .read()
        .await;
    assert_error(&wrong, 401, "unauthorized");
    // The document holds no secrets: client generators read it by URL, without the token.
    let spec = s.request(Method::GET, "/api/openapi.json").read().await;
    assert_eq!(spec.0, StatusCode::OK);
    assert!(spec.1["paths"]["/api/v2/hosts"].is_object(), "{}", spec.1);
    assert_eq!(s.get("/api/v2/hosts").await.0, StatusCode::OK);
}

#[tokio::test]
async fn regenerated_token_replaces_the_old_one_after_restart() {
    let s = Server::start().await;
    let old = s.token.clone();
    let new = bootsmith_core::auth::regenerate(&s.app).await.unwrap();
    assert_ne!(new.expose(), old);
    let dir = s.stop().await;
    let s = Server::start_in(dir, true).await;
    assert_eq!(s.token, new.expose());
    let stale = s
        .request(Method::GET, "/api/v2/hosts")
        .bearer_auth(&old)
        .read()
        .await;
    assert_error(&stale, 401, "unauthorized");
}

#[tokio::test]
async fn no_auth_mode_accepts_requests_without_a_token() {
    let s = Server::start_in(tempfile::tempdir().unwrap(), false).await;
    let r = s.request(Method::GET, "/api/v2/networks").read().await;
    assert_eq!(r.0, StatusCode::OK);
}

#[tokio::test]
async fn bodies_need_the_json_content_type() {
    let s = Server::start().await;
    let body = serde_json::to_vec(&network("n1")).unwrap();
    for ct in [
        None,
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
    ] {
        let r = s
            .raw(Method::POST, "/api/v2/networks", ct, body.clone())
            .await;
        assert_error(&r, 415, "unsupported_media_type");
    }
    // Nothing was stored by the refused requests.
    assert_eq!(s.get("/api/v2/networks").await.1["networks"], json!([]));
    let r = s
        .raw(
            Method::POST,
            "/api/v2/networks",
            Some("application/json; charset=utf-8"),
            body,
        )
        .await;
    assert_eq!(r.0, StatusCode::CREATED);
    // DELETE with a body but without the content type is refused too, and deletes nothing.
    let r = s
        .raw(
            Method::DELETE,
            "/api/v2/networks",
            None,
            br#"{"name":"n1"}"#.to_vec(),
        )
        .await;
    assert_error(&r, 415, "unsupported_media_type");
    assert_eq!(
        s.get("/api/v2/networks").await.1["networks"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[tokio::test]
async fn malformed_and_mistyped_bodies_are_400() {
    let s = Server::start().await;
    let r = s
        .raw(
            Method::POST,
            "/api/v2/networks",
            Some("application/json"),
            b"{\"name\": ".to_vec(),
        )
        .await;
    assert_error(&r, 400, "malformed_json");
    let r = s.post("/api/v2/networks", json!({"name": 5})).await;
    assert_error(&r, 400, "invalid_body");
    let r = s.post("/api/v2/hosts", json!({"name": "not-a-list"})).await;
    assert_error(&r, 400, "invalid_body");
    let r = s.call(Method::POST, "/api/v2/networks", None).await;
    assert_error(&r, 400, "missing_body");
    let r = s.post("/api/v1/ip", json!(["10.0.0.1"])).await;
    assert_error(&r, 400, "invalid_body");
}

#[tokio::test]
async fn giant_bodies_are_refused_with_413() {
    let s = Server::start().await;
    let big = format!("[{}]", vec!["{\"name\":\"x\"}"; 300_000].join(","));
    assert!(big.len() > 3_000_000);
    let r = s
        .raw(
            Method::POST,
            "/api/v2/hosts",
            Some("application/json"),
            big.into_bytes(),
        )
        .await;
    assert_error(&r, 413, "body_too_large");
    assert_eq!(s.get("/api/v2/hosts").await.1["hosts"], json!([]));
}

#[tokio::test]
async fn unknown_routes_and_methods_answer_json() {
    let s = Server::start().await;
    assert_error(&s.get("/api/v2/nothing").await, 404, "no_such_route");
    assert_error(
        &s.call(Method::PATCH, "/api/v2/hosts", None).await,
        405,
        "method_not_allowed",
    );
    assert_error(&s.get("/api/v3/hosts").await, 404, "no_such_route");
}

#[tokio::test]
async fn group_routes_check_the_group_first() {
    let s = Server::start().await;
    // Group routes check the group first.
    for (m, p) in [
        (Method::GET, "/api/v2/servers/pod9/servers"),
        (Method::GET, "/api/v2/servers/pod9/templates"),
        (Method::PUT, "/api/v2/servers/pod9/power/on"),
        (Method::GET, "/api/v2/servers/pod9/powerstat"),
        (Method::GET, "/api/v2/servers/pod9/disks"),
        (Method::GET, "/api/v2/servers/pod9/nics"),
        (Method::DELETE, "/api/v2/pod9/disks"),
        (Method::GET, "/api/v2/servers/pod9/fsm"),
        (Method::POST, "/api/v2/servers/pod9/deploy"),
        (Method::POST, "/api/v2/pod9/deploy"),
        (Method::POST, "/api/v2/servers/pod9/vmedia"),
    ] {
        assert_error(&s.call(m, p, None).await, 404, "server_group_not_found");
    }
    assert_eq!(
        s.post("/api/v2/servers", group("pod1", "pw")).await.0,
        StatusCode::CREATED
    );
    // Deploy and vMedia check the group's hosts before anything else.
    for p in [
        "/api/v2/servers/pod1/deploy",
        "/api/v2/pod1/deploy",
        "/api/v2/servers/pod1/vmedia",
        "/api/v2/pod1/vmedia",
    ] {
        assert_error(
            &s.call(Method::POST, p, None).await,
            400,
            "deploy_not_ready",
        );
    }
}

#[tokio::test]
async fn every_route_is_in_the_openapi_document_and_every_documented_route_exists() {
    let s = Server::start().await;
    let (status, spec) = s.get("/api/openapi.json").await;
    assert_eq!(status, StatusCode::OK);
    let paths = spec["paths"].as_object().unwrap();
    // The seed's paths (records, settings, later capabilities) and our additions.
    let expected = [
        ("/api/v1/ip", "get"),
        ("/api/v1/ip", "post"),
        ("/api/v1/keys", "get"),
        ("/api/v1/keys", "post"),
        ("/api/v2/keys", "get"),
        ("/api/v1/proxy", "get"),
        ("/api/v1/proxy", "post"),
        ("/api/v1/org", "get"),
        ("/api/v1/org", "post"),
        ("/api/v1/catalog", "get"),
        ("/api/v2/catalog", "get"),
        ("/api/v2/catalog/packs", "get"),
        ("/api/v2/catalog/packs", "post"),
        ("/api/v2/catalog/packs/{name}", "delete"),
        ("/api/v2/catalog/reload", "post"),
        ("/api/v1/isos", "get"),
        ("/api/v2/isos", "get"),
        ("/api/v1/isos/map", "get"),
        ("/api/v1/isos/map", "post"),
        ("/api/v1/isos/boot", "post"),
        ("/api/v2/isos/import", "post"),
        ("/api/v2/isos/fetch", "post"),
        ("/api/v2/isos/{file}", "put"),
        ("/api/v2/servers", "get"),
        ("/api/v2/servers", "post"),
        ("/api/v2/servers", "put"),
        ("/api/v2/servers", "delete"),
        ("/api/v2/servers/{server_group}/servers", "get"),
        ("/api/v2/servers/{server_group}/servers", "post"),
        ("/api/v2/servers/{server_group}/templates", "get"),
        ("/api/v2/servers/{server_group}/power/{action}", "put"),
        ("/api/v2/servers/{server_group}/powerstat", "get"),
        ("/api/v2/servers/{server_group}", "get"),
        ("/api/v2/servers/{server_group}/disks", "get"),
        ("/api/v2/servers/{server_group}/disks", "delete"),
        ("/api/v2/servers/{server_group}/nics", "get"),
        ("/api/v2/{server_group}/disks", "get"),
        ("/api/v2/{server_group}/disks", "delete"),
        ("/api/v2/servers/{server_group}/fsm", "get"),
        ("/api/v2/servers/{server_group}/console", "get"),
        ("/api/v2/fsm", "get"),
        ("/api/v2/servers/{server_group}/deploy", "post"),
        ("/api/v2/servers/{server_group}/deploy", "delete"),
        ("/api/v2/{server_group}/deploy", "post"),
        ("/api/v2/servers/{server_group}/vmedia", "post"),
        ("/api/v2/{server_group}/vmedia", "post"),
        ("/api/v2/deploy/images", "post"),
        ("/api/v2/networks", "get"),
        ("/api/v2/networks", "post"),
        ("/api/v2/networks", "put"),
        ("/api/v2/networks", "delete"),
        ("/api/v2/networks/{network}", "get"),
        ("/api/v2/hosts", "get"),
        ("/api/v2/hosts", "post"),
        ("/api/v2/hosts", "put"),
        ("/api/v2/hosts", "delete"),
        ("/api/v2/hosts/{name}/timeline", "get"),
        ("/api/v2/hosts/{name}/answer", "get"),
        ("/api/v2/hosts/{name}/installed", "post"),
        ("/api/v2/hosts/{name}/failed", "post"),
        ("/api/v2/hosts/{name}/logs", "post"),
        ("/api/v2/hosts/{name}/logs", "get"),
        ("/api/v2/hosts/{name}/logs/{attempt}/{file}", "get"),
        ("/api/v2/settings/install", "get"),
        ("/api/v2/settings/install", "put"),
        ("/api/v2/params", "get"),
        ("/api/v2/params", "put"),
        ("/api/v2/aci", "get"),
        ("/api/v2/aci", "post"),
        ("/api/v2/aci", "put"),
        ("/api/v2/aci", "delete"),
        ("/api/v2/overview", "get"),
        ("/api/v2/jobs", "get"),
        ("/api/v2/jobs/{id}", "get"),
        ("/api/v2/jobs/{id}/events", "get"),
        ("/api/v2/logs", "get"),
        ("/api/v2/import/kubam", "post"),
        ("/api/openapi.json", "get"),
        ("/", "get"),
        ("/svc/{file}", "get"),
    ];
    for (p, m) in expected {
        assert!(
            paths.get(p).and_then(|item| item.get(m)).is_some(),
            "{m} {p} missing from the OpenAPI document"
        );
    }
    // Every documented operation is routed: it never falls through to "no such route" or 405.
    let mut operations = 0;
    for (p, item) in paths {
        for m in item.as_object().unwrap().keys() {
            let Ok(method) = Method::from_bytes(m.to_uppercase().as_bytes()) else {
                continue;
            };
            if !["GET", "POST", "PUT", "DELETE"].contains(&method.as_str()) {
                continue;
            }
            operations += 1;
            // A missing file of svc is `no_such_route` by design (tests/openapi.rs fetches one).
            if p.starts_with("/svc/") {
                continue;
            }
            let concrete = p
                .replace("{server_group}", "pod1")
                .replace("{action}", "on")
                .replace("{network}", "mgmt");
            let r = s.call(method.clone(), &concrete, None).await;
            assert_ne!(
                r.1["code"], "no_such_route",
                "{m} {p} is documented but not routed"
            );
            assert_ne!(
                r.1["code"], "method_not_allowed",
                "{m} {p} is documented but not routed"
            );
        }
    }
    assert_eq!(
        operations,
        expected.len(),
        "the document has operations this test does not know"
    );
}

#[tokio::test]
async fn hostile_bodies_never_cause_a_server_error() {
    let s = Server::start().await;
    let bodies = [
        json!(null),
        json!(true),
        json!(0),
        json!(-1.5),
        json!("x"),
        json!([]),
        json!({}),
        json!([null]),
        json!([1, 2]),
        json!({"name": null}),
        json!({"name": ["a"]}),
        json!({"name": "a".repeat(10_000)}),
        json!({"id": "not-a-uuid", "name": "x"}),
        json!({"servers": {"blades": [1]}}),
        json!({"servers": {"blades": ["../1"]}}),
        json!({"iso_map": [{"file": "/svc/../../etc/passwd", "os": "centos7.4"}]}),
        json!({"keys": ["\u{0000}"]}),
        json!({"svc_ip": "999.1.1.1"}),
        json!([{"name": "\u{202e}evil", "ip": "::ffff:1.2.3.4", "os": "esxi6.7", "role": "k8s master", "network_group": "n"}]),
        json!({"credentials": "x"}),
        json!({"credentials": {"password": 5}}),
        json!({"name": "p", "version": "1", "entries": [{"id": "../x", "family": "rhel"}], "templates": {"x": "{% include \"/etc/passwd\" %}"}}),
    ];
    let routes = [
        (Method::POST, "/api/v1/ip"),
        (Method::POST, "/api/v1/keys"),
        (Method::POST, "/api/v1/isos/map"),
        (Method::POST, "/api/v2/isos/import"),
        (Method::POST, "/api/v2/servers"),
        (Method::PUT, "/api/v2/servers"),
        (Method::DELETE, "/api/v2/servers"),
        (Method::POST, "/api/v2/servers/pod1/servers"),
        (Method::POST, "/api/v2/networks"),
        (Method::PUT, "/api/v2/networks"),
        (Method::DELETE, "/api/v2/networks"),
        (Method::POST, "/api/v2/hosts"),
        (Method::PUT, "/api/v2/hosts"),
        (Method::DELETE, "/api/v2/hosts"),
        (Method::POST, "/api/v2/aci"),
        (Method::PUT, "/api/v2/aci"),
        (Method::DELETE, "/api/v2/aci"),
        (Method::POST, "/api/v2/import/kubam"),
        (Method::POST, "/api/v2/catalog/packs"),
        (Method::GET, "/api/v2/hosts"),
        (Method::GET, "/api/v1/catalog"),
    ];
    for (m, p) in routes {
        for b in &bodies {
            let r = s.call(m.clone(), p, Some(b.clone())).await;
            assert!(r.0.as_u16() < 500, "{m} {p} with {b} gave {}: {}", r.0, r.1);
        }
    }
    // The service is still healthy and the store untouched.
    assert_eq!(s.get("/api/v2/overview").await.1["counts"]["hosts"], 0);
}

#[tokio::test]
async fn malformed_path_parameters_are_json_400s() {
    let s = Server::start().await;
    // Percent-escapes that decode to invalid UTF-8.
    for p in ["/api/v2/servers/%FF%FE/templates", "/api/v2/%C3%28/disks"] {
        let r = s.get(p).await;
        assert_error(&r, 400, "malformed_path");
    }
    // A well-formed but unknown group is a 404, with percent-decoding applied.
    assert_error(
        &s.get("/api/v2/servers/pod%201/powerstat").await,
        404,
        "server_group_not_found",
    );
}

/// An `id` sent on create is refused, not silently replaced (a client keeping it would later
/// name nothing with it); a blank one counts as absent; nothing is stored.
#[tokio::test]
async fn a_create_that_brings_its_own_id_is_refused() {
    let s = Server::start().await;
    let id = "5b0c6f7e-2f59-4d3e-9a57-0d8a4f0c1e11";
    let with_id = |mut v: Value, id: &str| {
        v["id"] = json!(id);
        v
    };
    let aci = json!({"name": "fab1", "credentials": {"ip": "192.0.2.9", "user": "admin", "password": "p"},
        "tenant_name": "t", "vrf_name": "v", "bridge_domain": "b"});
    for (path, body, code, list) in [
        (
            "/api/v2/networks",
            network("net1"),
            "invalid_network",
            "networks",
        ),
        (
            "/api/v2/servers",
            group("pod1", "p"),
            "invalid_server_group",
            "servers",
        ),
        ("/api/v2/aci", aci.clone(), "invalid_aci", "aci"),
    ] {
        let r = s.post(path, with_id(body.clone(), id)).await;
        assert_error(&r, 400, code);
        assert_eq!(r.1["details"][0]["field"], "id", "{}", r.1);
        assert!(
            r.1["details"][0]["message"]
                .as_str()
                .unwrap()
                .contains("leave it out when creating"),
            "{}",
            r.1
        );
        let (_, listed) = s.get(path).await;
        assert_eq!(listed[list].as_array().map_or(0, Vec::len), 0, "{listed}");
        let (st, made) = s.post(path, with_id(body, " ")).await;
        assert!(st.is_success(), "{path}: {made}");
    }
}
