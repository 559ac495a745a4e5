//! Collects every problem of a record instead of stopping at the first, so a
//! form can mark all bad fields at once.

use serde_json::Value;

use crate::error::{Error, Problem, Result};
use crate::ErrorCode;

/// Problems found so far while checking one record (or one row of a list).
#[derive(Debug, Default)]
pub struct Check {
    pub problems: Vec<Problem>,
}

/// Empty strings count as absent: forms send "" for a field left blank.
fn present(value: &Option<String>) -> Option<&str> {
    value.as_deref().filter(|v| !v.trim().is_empty())
}

impl Check {
    /// Note a problem with `field`.
    pub fn fail(&mut self, field: &str, message: impl Into<String>) {
        self.problems.push(Problem::field(field, message));
    }

    /// A required field, parsed by `parse`.
    pub fn required<T>(
        &mut self,
        field: &str,
        value: &Option<String>,
        parse: impl FnOnce(&str) -> Result<T, String>,
    ) -> Option<T> {
        match present(value) {
            None => {
                self.fail(field, "is required");
                None
            }
            Some(v) => self.parsed(field, parse(v)),
        }
    }

    /// An optional field; `Some(None)` when absent, `None` when present but invalid.
    pub fn optional<T>(
        &mut self,
        field: &str,
        value: &Option<String>,
        parse: impl FnOnce(&str) -> Result<T, String>,
    ) -> Option<Option<T>> {
        match present(value) {
            None => Some(None),
            Some(v) => self.parsed(field, parse(v)).map(Some),
        }
    }

    /// The items of an optional JSON list: none when absent or null; `None` when it is not a
    /// list (noted with `shape`, which says what one looks like). More than `max` items are
    /// noted with `too_many`'s words for the count, and still given, so each is checked too.
    pub fn list<'v>(
        &mut self,
        field: &str,
        value: Option<&'v Value>,
        shape: &str,
        max: usize,
        too_many: impl FnOnce(usize) -> String,
    ) -> Option<&'v [Value]> {
        let items = match value {
            None | Some(Value::Null) => return Some(&[]),
            Some(Value::Array(items)) => items,
            Some(_) => {
                self.fail(field, shape);
                return None;
            }
        };
        if items.len() > max {
            self.fail(field, too_many(items.len()));
        }
        Some(items)
    }

    fn parsed<T>(&mut self, field: &str, r: Result<T, String>) -> Option<T> {
        match r {
            Ok(v) => Some(v),
            Err(m) => {
                self.fail(field, m);
                None
            }
        }
    }

    /// Ok when nothing failed, else an `Invalid` error listing every problem.
    pub fn finish(self, code: ErrorCode, what: &str) -> Result<()> {
        Error::invalid_if_any(code, what, self.problems)
    }
}

/// Parse a non-empty free-text field up to `max` characters with no control characters.
pub fn text(max: usize) -> impl Fn(&str) -> Result<String, String> {
    move |s: &str| {
        if s.chars().count() > max {
            Err(format!("is longer than {max} characters"))
        } else if s.chars().any(char::is_control) {
            Err("must not contain control characters".into())
        } else {
            Ok(s.to_owned())
        }
    }
}

/// Parse a UUID the service assigned.
pub fn uuid(s: &str) -> Result<uuid::Uuid, String> {
    uuid::Uuid::parse_str(s).map_err(|_| {
        format!(
            "'{}' is not an id this service assigned (a UUID)",
            crate::types::shorten(s)
        )
    })
}
