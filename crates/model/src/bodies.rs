//! Reading JSON input, the one way both doors do: a value of the wrong shape or type is
//! `invalid_body` with serde's reason, and a nested record is an object, never a list read
//! by position.

use crate::error::{Error, Result};

/// What a JSON input must be at its top level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// A JSON object (a record, or a body with named parts).
    Object,
    /// A JSON array (a list of names).
    List,
    /// A JSON array of objects (a whole list of records, e.g. the hosts).
    Records,
}

fn json_kind(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "a list",
        serde_json::Value::Object(_) => "an object",
    }
}

/// For a nested record field (`servers`, `credentials`, …): an object, or null for "absent".
/// serde alone would read a record from a list by position, so `{"servers": [null, null]}`
/// would pass as "no selection" — and mean every server.
pub fn object<'de, D, T>(d: D) -> std::result::Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::de::DeserializeOwned,
{
    use serde::de::Error as _;
    match <serde_json::Value as serde::Deserialize>::deserialize(d)? {
        serde_json::Value::Null => Ok(None),
        v @ serde_json::Value::Object(_) => serde_json::from_value(v)
            .map(Some)
            .map_err(D::Error::custom),
        other => Err(D::Error::custom(format!(
            "expected an object, found {}",
            json_kind(&other)
        ))),
    }
}

/// For a nested list of records: a list of objects, or null for "absent".
pub fn objects<'de, D, T>(d: D) -> std::result::Result<Option<Vec<T>>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::de::DeserializeOwned,
{
    use serde::de::Error as _;
    match <serde_json::Value as serde::Deserialize>::deserialize(d)? {
        serde_json::Value::Null => Ok(None),
        serde_json::Value::Array(items) => items
            .into_iter()
            .enumerate()
            .map(|(i, v)| {
                if v.is_object() {
                    serde_json::from_value(v).map_err(D::Error::custom)
                } else {
                    Err(D::Error::custom(format!(
                        "item {} is {}, expected an object",
                        i + 1,
                        json_kind(&v)
                    )))
                }
            })
            .collect::<std::result::Result<Vec<T>, _>>()
            .map(Some),
        other => Err(D::Error::custom(format!(
            "expected a list of objects, found {}",
            json_kind(&other)
        ))),
    }
}

/// Read JSON input as `T`, the one way both front doors do: a value of the wrong shape or
/// type is `invalid_body` with serde's reason, never a front door's own message. `expected`
/// describes the wanted input for the sentence.
pub fn from_json<T: serde::de::DeserializeOwned>(
    value: serde_json::Value,
    shape: Shape,
    expected: &str,
) -> Result<T> {
    // serde would read a struct from an array positionally; inputs are objects where they say so.
    let shape_ok = match shape {
        Shape::Object => value.is_object(),
        Shape::List => value.is_array(),
        Shape::Records => value.is_array(),
    };
    if !shape_ok {
        return Err(Error::invalid_body(format!("expected {expected}")));
    }
    if let (Shape::Records, serde_json::Value::Array(items)) = (shape, &value) {
        if let Some((i, v)) = items.iter().enumerate().find(|(_, v)| !v.is_object()) {
            return Err(Error::invalid_body(format!(
                "item {} is {}; expected {expected}",
                i + 1,
                json_kind(v)
            )));
        }
    }
    serde_json::from_value(value).map_err(Error::invalid_body)
}
