//! `GET /api/v2/logs`: the server's own JSON log, written by tracing-subscriber as the program
//! writes it, read back over HTTP: newest first, filtered, paged; bad queries refused.

mod common;

use std::io::Write;

use bootsmith_core::logs::LOG_FILE;
use common::*;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

fn messages(page: &Value) -> Vec<&str> {
    page["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["message"].as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn the_log_reads_back_what_the_server_logged() {
    let s = Server::start().await;
    log_to(&s.data());

    // Real work that the core logs; the names are this test's own, other tests log too.
    assert_eq!(
        s.post("/api/v2/networks", network("logtest-a")).await.0,
        201
    );
    assert_eq!(
        s.post("/api/v2/networks", network("logtest-b")).await.0,
        201
    );
    let r = s
        .delete("/api/v2/networks", json!({"name": "logtest-a"}))
        .await;
    assert_eq!(r.0, 200);
    tracing::warn!(target: "bootsmith_api::tests", network = "logtest-b", "a warning about logtest-b");

    let (status, page) = s.get("/api/v2/logs?q=logtest").await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(
        messages(&page),
        [
            "a warning about logtest-b",
            "network group deleted",
            "network group created",
            "network group created"
        ],
        "newest first: {page}"
    );
    assert_eq!(page["next"], Value::Null, "the whole log was read");
    let deleted = &page["lines"][1];
    assert_eq!(deleted["level"], "info");
    assert_eq!(deleted["target"], "bootsmith_core::records::networks");
    assert_eq!(deleted["fields"]["network"], "logtest-a");
    assert!(deleted["time"]
        .as_str()
        .is_some_and(|t| t.starts_with("20")));

    // Level and text together; the text in any case, also in a field.
    let (_, warn) = s.get("/api/v2/logs?level=warn&q=LOGTEST-B").await;
    assert_eq!(messages(&warn), ["a warning about logtest-b"]);
    assert_eq!(warn["lines"][0]["level"], "warn");

    // Paging: one line at a time, each page older than the last.
    let (_, first) = s.get("/api/v2/logs?q=logtest&limit=1").await;
    assert_eq!(messages(&first), ["a warning about logtest-b"]);
    let next = first["next"]
        .as_str()
        .expect("older lines remain")
        .to_owned();
    let (_, second) = s
        .get(&format!("/api/v2/logs?q=logtest&limit=2&before={next}"))
        .await;
    assert_eq!(
        messages(&second),
        ["network group deleted", "network group created"]
    );

    // A line that is not a record (a crash, a hand edit) is shown raw, with level "?".
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(s.data().join(LOG_FILE))
        .unwrap();
    f.write_all(b"logtest: not JSON at all\n").unwrap();
    let (status, page) = s.get("/api/v2/logs?q=logtest&limit=2").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(page["lines"][0]["level"], "?");
    assert_eq!(page["lines"][0]["message"], "logtest: not JSON at all");
    assert_eq!(page["lines"][0]["time"], Value::Null);

    // A refused save and a wrong API token reach the log too: the record named, the token not.
    let mut bad = network("logtest-bad");
    bad["gateway"] = json!("10.0.0");
    assert_error(
        &s.post("/api/v2/networks", bad).await,
        400,
        "invalid_network",
    );
    let (status, _) = s
        .request(Method::GET, "/api/v2/networks")
        .bearer_auth("logtest-not-the-token")
        .read()
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (_, refusals) = s.get("/api/v2/logs?level=warn&q=refused").await;
    let refused = refusals["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["fields"]["action"] == "networks::create")
        .unwrap_or_else(|| panic!("no refusal logged: {refusals}"));
    assert_eq!(refused["message"], "an action was refused");
    assert_eq!(refused["fields"]["code"], "invalid_network");
    assert!(
        refused["fields"]["error"]
            .as_str()
            .unwrap()
            .starts_with("The network group 'logtest-bad' is invalid: gateway"),
        "{refused}"
    );
    assert!(
        messages(&refusals).contains(&"a request with a wrong API token was refused"),
        "{refusals}"
    );
    let log = std::fs::read_to_string(s.data().join(LOG_FILE)).unwrap();
    assert!(
        !log.contains("logtest-not-the-token"),
        "the token sent stays out of the log"
    );
}

#[tokio::test]
async fn a_missing_log_is_an_empty_page() {
    let s = Server::start().await;
    let _ = std::fs::remove_file(s.data().join(LOG_FILE));
    let r = s.get("/api/v2/logs").await;
    assert_eq!(r, (StatusCode::OK, json!({"lines": [], "next": null})));
}

#[tokio::test]
async fn bad_log_queries_are_refused() {
    let s = Server::start().await;
    let r = s.get("/api/v2/logs?limit=5000").await;
    assert_error(&r, 400, "log_limit_too_large");
    assert_eq!(r.1["details"][0]["field"], "limit");
    assert_error(
        &s.get("/api/v2/logs?limit=0").await,
        400,
        "invalid_log_query",
    );
    let r = s.get("/api/v2/logs?level=loud&before=yesterday").await;
    assert_error(&r, 400, "invalid_log_query");
    assert_eq!(r.1["details"].as_array().unwrap().len(), 2, "{}", r.1);
    assert_error(
        &s.get("/api/v2/logs?limit=many").await,
        400,
        "malformed_query",
    );
    assert_eq!(s.get("/api/v2/logs?limit=1000&level=ERROR").await.0, 200);

    let no_token = s.request(Method::GET, "/api/v2/logs").read().await;
    assert_error(&no_token, 401, "unauthorized");
    let spec = s.get("/api/openapi.json").await.1;
    let params: Vec<&str> =
        field_of_each(&spec["paths"]["/api/v2/logs"]["get"]["parameters"], "name");
    assert_eq!(params, ["level", "q", "limit", "before"]);
}
