//! Redfish answers: JSON documents with the headers every persona sends, and the error body
//! of the Redfish specification (`{"error": {"code", "message", "@Message.ExtendedInfo"}}`).

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

/// A JSON answer with `OData-Version`.
pub(crate) fn json_response(status: StatusCode, body: &Value) -> Response {
    let mut r = (status, body.to_string()).into_response();
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json; charset=utf-8"),
    );
    h.insert("OData-Version", HeaderValue::from_static("4.0"));
    r
}

/// A Redfish error: `message_id` is the full MessageId (`Base.1.17.PropertyUnknown`).
pub(crate) fn error(status: StatusCode, message_id: &str, message: &str) -> Response {
    json_response(
        status,
        &json!({ "error": {
            "code": message_id,
            "message": message,
            "@Message.ExtendedInfo": [{
                "@odata.type": "#Message.v1_1_1.Message",
                "MessageId": message_id,
                "Message": message,
                "Severity": "Warning",
                "Resolution": "See the message.",
            }],
        } }),
    )
}

/// 404 for a path the persona does not have.
pub(crate) fn missing(base: &str, path: &str) -> Response {
    error(
        StatusCode::NOT_FOUND,
        &format!("{base}.ResourceMissingAtURI"),
        &format!("The resource at the URI {path} was not found."),
    )
}

/// 405 for a method the resource does not take.
pub(crate) fn not_allowed(base: &str, method: &str, path: &str) -> Response {
    error(
        StatusCode::METHOD_NOT_ALLOWED,
        &format!("{base}.OperationNotAllowed"),
        &format!("The {method} operation is not allowed on {path}."),
    )
}
