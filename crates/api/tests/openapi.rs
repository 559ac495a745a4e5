//! The OpenAPI document is what clients are generated from, so it must be true: every reference
//! resolves, every operation has its own id, every route is in it with every answer it can give.
//! `scripts/api-fuzz.sh` goes further with a standard validator and Schemathesis.

mod common;

use std::collections::BTreeSet;

use common::*;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// Every `(path, method, operation)` of the document.
fn operations(doc: &Value) -> Vec<(String, String, Value)> {
    let mut ops = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            if METHODS.contains(&method.as_str()) {
                ops.push((path.clone(), method.clone(), op.clone()));
            }
        }
    }
    ops
}

/// Every `$ref` string anywhere in `v`.
fn refs<'a>(v: &'a Value, out: &mut Vec<&'a str>) {
    match v {
        Value::Object(map) => {
            for (k, v) in map {
                match (k.as_str(), v) {
                    ("$ref", Value::String(r)) => out.push(r),
                    _ => refs(v, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| refs(v, out)),
        _ => {}
    }
}

/// A path with its parameters filled in: a group, an action and a file that exist or not.
fn concrete(path: &str) -> String {
    path.replace("{server_group}", "pod1")
        .replace("{action}", "on")
        .replace("{id}", "00000000-0000-4000-8000-000000000000")
        .replace("{file}", "node01.img")
}

fn method_of(name: &str) -> Method {
    Method::from_bytes(name.to_uppercase().as_bytes()).unwrap()
}

async fn document(s: &Server) -> Value {
    let (status, doc) = s.get("/api/openapi.json").await;
    assert_eq!(status, StatusCode::OK);
    doc
}

#[tokio::test]
async fn every_reference_in_the_document_resolves() {
    let s = Server::start().await;
    let doc = document(&s).await;
    let mut found = Vec::new();
    refs(&doc, &mut found);
    assert!(found.len() > 50, "the document uses references");
    for r in found {
        let pointer = r
            .strip_prefix('#')
            .unwrap_or_else(|| panic!("{r} is not local"));
        assert!(doc.pointer(pointer).is_some(), "{r} points nowhere");
    }
}

#[tokio::test]
async fn every_operation_has_its_own_readable_id() {
    let s = Server::start().await;
    let doc = document(&s).await;
    let mut seen = BTreeSet::new();
    for (path, method, op) in operations(&doc) {
        let id = op["operationId"]
            .as_str()
            .unwrap_or_else(|| panic!("{method} {path} has no operationId"));
        let readable = id.chars().all(|c| c.is_ascii_lowercase() || c == '_')
            && id.contains('_')
            && id.len() <= 40;
        assert!(
            readable,
            "{method} {path}: '{id}' is not a snake_case verb_noun"
        );
        assert!(seen.insert(id.to_owned()), "{id} is used twice");
    }
    for id in [
        "list_server_groups",
        "create_network",
        "delete_host",
        "power_servers",
        "get_status",
    ] {
        assert!(seen.contains(id), "{id} missing");
    }
}

#[tokio::test]
async fn the_document_and_the_router_hold_the_same_operations() {
    let s = Server::start().await;
    std::fs::create_dir_all(s.svc()).unwrap();
    std::fs::write(s.svc().join("node01.img"), b"answer disk").unwrap();
    let doc = document(&s).await;
    let ops = operations(&doc);
    // The routes outside `/api` are written by hand in the router; the `/api` ones come from
    // the same annotations as their documentation.
    for (path, method) in [
        ("/", "get"),
        ("/svc/{file}", "get"),
        ("/svc/{file}", "head"),
    ] {
        assert!(
            ops.iter().any(|(p, m, _)| p == path && m == method),
            "{method} {path} is routed but not documented"
        );
    }
    for (path, item) in doc["paths"].as_object().unwrap() {
        let url = concrete(path);
        for method in ["get", "put", "post", "delete", "patch"] {
            let resp = s.request(method_of(method), &url).token().send().await;
            let status = resp.status;
            // A file of svc comes back as it is; everything else answers JSON.
            let body: Value = serde_json::from_slice(&resp.body).unwrap_or(Value::Null);
            let routed = body["code"] != "no_such_route" && body["code"] != "method_not_allowed";
            if item.get(method).is_some() {
                assert!(
                    routed,
                    "{method} {path} is documented but not routed: {status} {body}"
                );
            } else {
                assert_eq!(
                    (status, &body["code"]),
                    (StatusCode::METHOD_NOT_ALLOWED, &json!("method_not_allowed")),
                    "{method} {path} answers but is not documented"
                );
            }
        }
    }
}

#[tokio::test]
async fn every_operation_behind_the_token_lists_and_gives_401() {
    let s = Server::start().await;
    let doc = document(&s).await;
    for (path, method, op) in operations(&doc) {
        let open = op["security"] == json!([{}]);
        // An installer has no API token: its host's install token is the credential.
        let callback = path.ends_with("/installed")
            || path.ends_with("/failed")
            || (path.ends_with("/logs") && method == "post");
        // The document itself holds no secrets: client generators read it by URL.
        let document = path == "/api/openapi.json";
        assert_eq!(
            open,
            !path.starts_with("/api/") || callback || document,
            "{method} {path}: only /, /svc, the document and the installers' callbacks need no token"
        );
        if document {
            let (status, body) = s.request(Method::GET, &path).read().await;
            assert_eq!(status, StatusCode::OK, "{body}");
            assert_eq!(body["openapi"], doc["openapi"]);
        }
        if open {
            if callback {
                let url = path.replace("{name}", "node01");
                // Sent without the API token.
                let (status, body) = s
                    .request(Method::POST, &url)
                    .json(&json!({"token": "x"}))
                    .read()
                    .await;
                assert_eq!(
                    (status, &body["code"]),
                    (StatusCode::UNAUTHORIZED, &json!("invalid_install_token")),
                    "{path}: a wrong install token, not a missing API token"
                );
            }
            continue;
        }
        assert!(
            op["responses"].get("401").is_some(),
            "{method} {path} does not list 401"
        );
        if method == "head" {
            continue;
        }
        let resp = s.request(method_of(&method), &concrete(&path)).read().await;
        assert_error(&resp, 401, "unauthorized");
    }
}

/// Every call that talks to a server group's manager lists what a manager can answer: its
/// refused login, an untrusted certificate, a failure and a time-out.
#[tokio::test]
async fn every_manager_call_lists_the_managers_answers() {
    let s = Server::start().await;
    let doc = document(&s).await;
    let mut seen = 0;
    for (path, method, op) in operations(&doc) {
        // Reading one group's record (`/api/v2/servers/{server_group}`) does not ask its manager.
        let manager = (path.contains("{server_group}") && path != "/api/v2/servers/{server_group}")
            || path == "/api/v2/fsm"
            || (path == "/api/v2/servers" && (method == "post" || method == "put"));
        // Selecting servers checks them against the manager but keeps them when it cannot ask.
        if !manager || path.ends_with("/servers") && method == "post" && path != "/api/v2/servers" {
            continue;
        }
        seen += 1;
        for status in ["401", "422", "502", "504"] {
            assert!(
                op["responses"].get(status).is_some(),
                "{method} {path} does not list {status}"
            );
        }
    }
    assert_eq!(seen, 19, "the manager calls");
}

#[tokio::test]
async fn every_operation_with_a_json_body_lists_and_gives_400_413_and_415() {
    let s = Server::start().await;
    let doc = document(&s).await;
    let mut with_body = 0;
    for (path, method, op) in operations(&doc) {
        if op["requestBody"]["content"]
            .get("application/json")
            .is_none()
        {
            continue;
        }
        with_body += 1;
        for code in ["400", "413", "415"] {
            assert!(
                op["responses"].get(code).is_some(),
                "{method} {path} does not list {code}"
            );
        }
        let m = method_of(&method);
        let url = concrete(&path);
        assert_error(
            &s.raw(m.clone(), &url, Some("text/plain"), b"{}".to_vec())
                .await,
            415,
            "unsupported_media_type",
        );
        assert_error(
            &s.raw(m.clone(), &url, Some("application/json"), b"{".to_vec())
                .await,
            400,
            "malformed_json",
        );
        let big = format!("[\"{}\"]", "x".repeat(3 * 1024 * 1024)).into_bytes();
        assert_error(
            &s.raw(m, &url, Some("application/json"), big).await,
            413,
            "body_too_large",
        );
    }
    assert!(with_body >= 20, "only {with_body} operations take JSON");
}

#[tokio::test]
async fn request_schemas_say_what_is_required_and_which_values_are_allowed() {
    let s = Server::start().await;
    let doc = document(&s).await;
    let schema = |name: &str| doc["components"]["schemas"][name].clone();
    let required = |name: &str| schema(name)["required"].clone();

    // `credentials`, unless a Redfish group lists its `bmcs` instead.
    assert_eq!(required("ServerGroupCreate"), json!(["name", "type"]));
    assert_eq!(required("CredentialsInput"), json!(["ip", "user"]));
    let kinds = &schema("GroupKind")["enum"];
    assert_eq!(kinds, &json!(["ucsm", "imc", "ucsc", "redfish"]));
    // The netmask, unless a `subnet` implies it.
    assert_eq!(
        required("NetworkCreate"),
        json!(["name", "gateway", "nameserver", "ntpserver"])
    );
    // Create and update bodies are two schemas: a create brings no id (it is refused), an
    // update needs one, a UUID.
    for kind in ["Network", "ServerGroup", "Aci"] {
        let create = schema(&format!("{kind}Create"));
        let update = schema(&format!("{kind}Update"));
        assert!(create["properties"].get("id").is_none(), "{create}");
        assert_eq!(update["required"][0], "id", "{update}");
        assert_eq!(update["properties"]["id"]["format"], "uuid", "{update}");
        assert!(
            schema(&format!("{kind}Input")).is_null(),
            "no shared schema left"
        );
    }
    assert_eq!(
        required("HostInput"),
        json!(["name", "ip", "os", "role", "network_group"])
    );
    // A required field is a value, never null.
    assert_eq!(
        schema("NetworkCreate")["properties"]["name"]["type"],
        "string"
    );

    let selector = schema("SelectorInput");
    for field in ["blades", "rack_servers", "rack"] {
        assert!(
            selector["properties"].get(field).is_some(),
            "{field}: {selector}"
        );
    }

    let power = &doc["paths"]["/api/v2/servers/{server_group}/power/{action}"]["put"];
    let action = power["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "action")
        .unwrap();
    assert_eq!(
        action["schema"]["enum"],
        json!(["on", "off", "hardreset", "softreset"])
    );

    let logs = &doc["paths"]["/api/v2/logs"]["get"]["parameters"];
    let param = |name: &str| {
        logs.as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == name)
            .unwrap()["schema"]
            .clone()
    };
    assert_eq!(
        (&param("limit")["minimum"], &param("limit")["maximum"]),
        (&json!(1), &json!(1000))
    );
    assert!(param("level")["pattern"]
        .as_str()
        .unwrap()
        .contains("[wW][aA][rR][nN]"));

    // The selector body may be left out: every server of the group.
    for (path, method) in [
        ("/api/v2/servers/{server_group}/disks", "get"),
        ("/api/v2/servers/{server_group}/disks", "delete"),
        ("/api/v2/servers/{server_group}/fsm", "get"),
        ("/api/v2/servers/{server_group}/powerstat", "get"),
        ("/api/v2/servers/{server_group}/power/{action}", "put"),
    ] {
        let body = &doc["paths"][path][method]["requestBody"];
        assert_ne!(body["required"], true, "{method} {path}: {body}");
        assert_eq!(
            body["content"]["application/json"]["schema"]["$ref"],
            "#/components/schemas/SelectorBody"
        );
    }

    let events = &doc["paths"]["/api/v2/jobs/{id}/events"]["get"]["responses"]["200"]["content"];
    assert_eq!(
        events.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["text/event-stream"]
    );
}

/// Every string schema anywhere in `v` with no `enum` of its own: `(where, its description)`.
fn plain_strings(v: &Value, at: &str, out: &mut Vec<(String, String)>) {
    match v {
        Value::Object(map) => {
            let string = match &map.get("type") {
                Some(Value::String(t)) => t == "string",
                Some(Value::Array(ts)) => ts.iter().any(|t| t == "string"),
                _ => false,
            };
            if string && !map.contains_key("enum") && !map.contains_key("$ref") {
                let words = map.get("description").and_then(Value::as_str).unwrap_or("");
                out.push((
                    at.to_owned(),
                    words.split_whitespace().collect::<Vec<_>>().join(" "),
                ));
            }
            for (k, v) in map {
                plain_strings(v, &format!("{at}/{k}"), out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                plain_strings(v, &format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// A field whose values are a set Bootsmith fixes is an enum, so generated clients check and
/// switch on it; a field whose values a manager words (open) says so. A description that lists
/// values otherwise (`` `a`, `b` or `c` ``, or a lone `` `ok`. ``) is the prose this forbids.
#[tokio::test]
async fn closed_value_sets_are_enums_and_open_ones_say_so() {
    let s = Server::start().await;
    let doc = document(&s).await;
    let listed = regex::Regex::new(
        r"`[A-Za-z][\w-]*`(\s*\([^)]*\))?(,\s*|,?\s+or\s+)`[A-Za-z][\w-]*`|^`[a-z]+`\.$",
    )
    .unwrap();
    let mut strings = Vec::new();
    plain_strings(&doc, "", &mut strings);
    let prose: Vec<_> = strings
        .iter()
        .filter(|(_, words)| listed.is_match(words) && !words.contains("an open set"))
        .collect();
    assert!(
        prose.is_empty(),
        "values listed in prose; make the field an enum, or say `an open set, examples: …`: {prose:#?}"
    );

    // The enums, with the values the server sent as plain strings before (the wire is unchanged).
    let schemas = &doc["components"]["schemas"];
    let job_kinds = json!([
        "images",
        "deploy",
        "vmedia",
        "undeploy",
        "iso_import",
        "iso_fetch"
    ]);
    for (owner, field, name, values) in [
        ("Job", "kind", "JobKind", job_kinds.clone()),
        ("JobSummary", "kind", "JobKind", job_kinds.clone()),
        (
            "AnswerPreview",
            "kind",
            "AnswerKind",
            json!(["kickstart", "esxi-kickstart", "autoinstall", "autounattend"]),
        ),
        (
            "ServerRecord",
            "type",
            "ServerType",
            json!(["blade", "rack"]),
        ),
        (
            "TemplateRecord",
            "type",
            "TemplateType",
            json!(["initial-template", "updating-template"]),
        ),
        ("ServiceStatus", "status", "OkStatus", json!(["ok"])),
    ] {
        assert_eq!(
            schemas[owner]["properties"][field]["$ref"],
            format!("#/components/schemas/{name}"),
            "{owner}.{field}"
        );
        assert_eq!(schemas[name]["enum"], values, "{name}");
    }
    assert_eq!(
        schemas["SelectionAnswer"]["allOf"][1]["properties"]["status"]["$ref"],
        "#/components/schemas/OkStatus"
    );
    let stages = schemas["Stage"]["enum"].as_array().unwrap().clone();
    let installs = &schemas["Overview"]["properties"]["installs"]["propertyNames"]["enum"];
    assert_eq!(
        installs,
        &Value::from([vec![json!("none")], stages].concat())
    );

    // What the server answers is in those enums.
    let (_, about) = s.get("/").await;
    assert_eq!(about["status"], "ok");
    for kind in [
        bootsmith_core::jobs::JobKind::Images,
        bootsmith_core::jobs::JobKind::IsoFetch,
    ] {
        assert_eq!(json!(kind), json!(kind.as_str()));
        assert!(schemas["JobKind"]["enum"]
            .as_array()
            .unwrap()
            .contains(&json!(kind)));
    }
}

/// A string schema's `pattern`, compiled.
fn pattern(schema: &Value) -> regex::Regex {
    let p = schema["pattern"].as_str();
    regex::Regex::new(p.unwrap_or_else(|| panic!("no pattern in {schema}"))).unwrap()
}

/// The parameter `name` of the operation at `path` and `method`.
fn parameter(doc: &Value, path: &str, method: &str, name: &str) -> Value {
    doc["paths"][path][method]["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("{method} {path} has no parameter {name}"))
        .clone()
}

/// The rules the server keeps that were prose: a delete names its record by a UUID or a name
/// (one of them, not empty), lists and names the server refuses empty, ISO file names.
#[tokio::test]
async fn delete_bodies_lists_and_iso_names_carry_their_rules() {
    let s = Server::start().await;
    let doc = document(&s).await;
    let schemas = &doc["components"]["schemas"];
    for (name, fields) in [
        ("NetworkRef", vec!["id", "name"]),
        ("AciRef", vec!["id", "name"]),
        ("ServerGroupRef", vec!["name", "id", "uid"]),
    ] {
        let schema = &schemas[name];
        let none: serde_json::Map<String, Value> = fields
            .iter()
            .map(|f| (f.to_string(), json!({"maxLength": 0})))
            .collect();
        assert_eq!(schema["not"], json!({"properties": none}), "{name}");
        for id in fields.iter().filter(|f| **f != "name") {
            assert_eq!(schema["properties"][id]["format"], "uuid", "{name}.{id}");
        }
    }
    assert_eq!(schemas["HostRef"]["properties"]["name"]["minLength"], 1);
    for field in ["os", "role"] {
        assert_eq!(schemas["HostInput"]["properties"][field]["minLength"], 1);
    }
    assert_eq!(
        schemas["IsoMapEntryInput"]["properties"]["os"]["minLength"],
        1
    );
    for kind in ["ServerGroupCreate", "ServerGroupUpdate"] {
        assert_eq!(schemas[kind]["properties"]["bmcs"]["minItems"], 1, "{kind}");
    }
    for (path, method) in [
        ("/api/v2/hosts", "post"),
        ("/api/v2/hosts", "put"),
        ("/api/v2/deploy/images", "post"),
    ] {
        let body = &doc["paths"][path][method]["requestBody"]["content"]["application/json"];
        assert_eq!(body["schema"]["minItems"], 1, "{method} {path}");
    }
    for body in ["SelectorBody", "GroupSelectorBody"] {
        let servers = &schemas[body]["properties"]["servers"];
        assert_eq!(
            servers["not"]["properties"]["blades"]["maxItems"], 0,
            "{body}: {servers}"
        );
    }

    // The pattern of a new ISO's name accepts exactly the names the server's check accepts.
    let upload = parameter(&doc, "/api/v2/isos/{file}", "put", "file");
    let name_rule = pattern(&upload["schema"]);
    assert_eq!(upload["schema"]["maxLength"], 255);
    let fetch_name = &schemas["FetchInput"]["properties"]["file_name"]["anyOf"][0]["pattern"];
    assert_eq!(fetch_name, &upload["schema"]["pattern"]);
    let long = format!("{}.iso", "a".repeat(251));
    for name in [
        "CentOS-7.iso",
        "rocky 9.ISO",
        "x.Iso",
        " lead.iso",
        long.as_str(),
        "image.img",
        ".hidden.iso",
        ".iso",
        "a/b.iso",
        "a\\b.iso",
        "line\nbreak.iso",
        "tab\t.iso",
        "trail.iso ",
        "",
        "..",
        "iso",
        "a.iso.part",
    ] {
        assert_eq!(
            name_rule.is_match(name),
            bootsmith_core::media::isos::check_new_name(name).is_ok(),
            "{name:?}"
        );
    }
    // A mapped ISO is a path in svc; an imported one an absolute path ending in such a name.
    let map = pattern(&schemas["IsoMapEntryInput"]["properties"]["file"]);
    for (file, ok) in [
        ("/svc/c74.iso", true),
        ("/svc/isos/inner.ISO", true),
        ("/svc/isos/.inner.iso", true),
        ("/svc/.hidden.iso", false),
        ("/svc/a\\b.iso", false),
        ("/svc/c74.img", false),
        ("c74.iso", false),
    ] {
        assert_eq!(map.is_match(file), ok, "{file}");
    }
    let import = pattern(&schemas["ImportInput"]["properties"]["path"]);
    for (path, ok) in [
        ("/srv/isos/Rocky-9.iso", true),
        ("/Rocky-9.ISO", true),
        ("/srv/.isos/x.iso", true),
        ("relative/x.iso", false),
        ("/srv/isos/.x.iso", false),
        ("/srv/isos/x.img", false),
    ] {
        assert_eq!(import.is_match(path), ok, "{path}");
    }
}

/// What the schemas above forbid, the server refuses with a 400 and a sentence, and changes
/// nothing: a client that skips the schema meets the same rule, and Schemathesis (which sends
/// such requests) sees them refused.
#[tokio::test]
async fn what_the_document_forbids_the_server_refuses() {
    // Listening, so svc is served and an image run gets as far as its hosts.
    let s = Server::listening().await;
    let r = s.post("/api/v2/servers", group("pod1", "secret")).await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    let pod1 = r.1["id"].as_str().unwrap().to_owned();
    let r = s.post("/api/v2/networks", network("mgmt")).await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);

    // A malformed id is refused even where the name decides which record.
    assert_error(
        &s.delete("/api/v2/servers", json!({"name": "pod1", "id": "pod1"}))
            .await,
        400,
        "invalid_id",
    );
    assert_error(
        &s.delete(
            "/api/v2/servers",
            json!({"name": "pod1", "id": pod1, "uid": "nope"}),
        )
        .await,
        400,
        "invalid_id",
    );
    // Nothing named: empty strings count as left out.
    assert_eq!(
        s.delete("/api/v2/servers", json!({"name": "", "id": ""}))
            .await
            .0,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        s.delete("/api/v2/networks", json!({"name": "", "id": null}))
            .await
            .0,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        s.delete("/api/v2/hosts", json!({"name": ""})).await.0,
        StatusCode::BAD_REQUEST
    );
    let (_, groups) = s.get("/api/v2/servers").await;
    assert_eq!(
        groups["servers"].as_array().map(Vec::len),
        Some(1),
        "{groups}"
    );
    let (_, nets) = s.get("/api/v2/networks").await;
    assert_eq!(nets["networks"].as_array().map(Vec::len), Some(1), "{nets}");

    // Empty lists.
    assert_error(
        &s.post("/api/v2/hosts", json!([])).await,
        400,
        "empty_host_list",
    );
    assert_error(
        &s.post("/api/v2/deploy/images", json!([])).await,
        400,
        "images_not_ready",
    );
    let no_bmcs = json!({"name": "lab", "type": "redfish", "bmcs": []});
    assert_eq!(
        s.post("/api/v2/servers", no_bmcs).await.0,
        StatusCode::BAD_REQUEST
    );
    // An ISO map row and an import must name ISO files.
    let map = json!({"iso_map": [{"file": "/svc/c74.img", "os": "centos7.4"}]});
    assert_eq!(
        s.post("/api/v1/isos/map", map).await.0,
        StatusCode::BAD_REQUEST
    );
    assert_error(
        &s.post("/api/v2/isos/import", json!({"path": "/tmp/c74.img"}))
            .await,
        400,
        "invalid_iso_name",
    );
}

/// An empty selection (every list empty or left out) names no server: refused, not taken as
/// "the whole group", as the selector bodies' schema says.
#[tokio::test]
async fn an_empty_selection_is_refused() {
    use std::time::Duration;
    let s = Server::start().await;
    let u = bootsmith_sim::Sim::start(bootsmith_sim::SimConfig {
        effect_delay: Duration::from_millis(50),
        ..bootsmith_sim::SimConfig::ucsm()
    })
    .await
    .unwrap();
    let group = json!({"name": "pod1", "type": "ucsm",
        "credentials": {"ip": u.address(), "user": "admin", "password": "password"}});
    let r = s.post("/api/v2/servers", group).await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    for servers in [
        json!({}),
        json!({"blades": [], "rack_servers": []}),
        json!({"blades": null, "rack": []}),
    ] {
        let r = s
            .call(
                Method::GET,
                "/api/v2/servers/pod1/powerstat",
                Some(json!({ "servers": servers })),
            )
            .await;
        assert_error(&r, 400, "empty_selection");
    }
    // Left out, or null: the group's servers.
    for body in [json!({}), json!({"servers": null})] {
        let r = s
            .call(Method::GET, "/api/v2/servers/pod1/powerstat", Some(body))
            .await;
        assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    }
}
