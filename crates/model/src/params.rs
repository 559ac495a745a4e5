//! Per-host parameters: key/value strings that answer templates read as `params.<key>`, set as
//! global defaults and on network groups, server groups and hosts. A host's value wins over its
//! server group's, which wins over its network group's, which wins over the default. A secret
//! value is held encrypted (the core's cipher does that); here is what is sent, what is kept,
//! how the layers combine, and how a record shows its parameters (secrets masked).

use std::collections::BTreeMap;

use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::validate::Check;

/// What stands in for a secret value wherever a person or a client may see it.
pub const MASK: &str = "********";
/// Most parameters one record may carry.
pub const MAX_PARAMS: usize = 64;
/// Longest key, in characters.
pub const MAX_KEY: usize = 64;
/// Longest value, in characters: room for a script URL or a short inline snippet.
pub const MAX_VALUE: usize = 4096;

/// A parameter's name: `[a-z][a-z0-9_]*`, so that a template can write `params.<key>`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct ParamKey(String);

impl ParamKey {
    /// Check a key as sent.
    pub fn parse(s: &str) -> Result<Self, String> {
        let mut chars = s.chars();
        let first_ok = chars.next().is_some_and(|c| c.is_ascii_lowercase());
        let rest_ok = chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        if !first_ok || !rest_ok || s.len() > MAX_KEY {
            return Err(format!(
                "'{}' is not a parameter name: start with a lower-case letter, then only a-z, 0-9 and _ (at most {MAX_KEY}), as a template writes params.<name>",
                crate::types::shorten(s)
            ));
        }
        Ok(ParamKey(s.to_owned()))
    }

    /// The key as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for ParamKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A parameter as kept: the value, or a secret's ciphertext (never its clear text).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Param {
    /// A plain value, shown as it is.
    Plain(String),
    /// A secret, encrypted with the data key; shown as [`MASK`].
    Secret {
        /// The ciphertext.
        enc: String,
    },
}

/// A parameter as sent: a value, or a secret whose value may be left out to keep the stored one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SentParam {
    /// A plain value.
    Plain(String),
    /// A secret's clear value, to be encrypted.
    Secret(String),
    /// A secret sent without a value (or with [`MASK`], as a record reads back): keep the stored one.
    KeepSecret,
}

/// One record's parameters as kept, in key order. Serialised as clients see them: plain values
/// as strings, secrets as `{"value": "********", "secret": true}`, which sent back keeps them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Params(pub BTreeMap<ParamKey, Param>);

impl Params {
    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The stored form: JSON text, or `None` for none.
    pub fn to_stored(&self) -> Option<String> {
        (!self.0.is_empty()).then(|| serde_json::to_string(&self.0).expect("strings serialise"))
    }

    /// Read the stored form.
    pub fn from_stored(text: Option<&str>) -> Result<Self, String> {
        let Some(text) = text else {
            return Ok(Params::default());
        };
        let raw: BTreeMap<String, Param> = serde_json::from_str(text).map_err(|e| e.to_string())?;
        raw.into_iter()
            .map(|(k, v)| Ok((ParamKey::parse(&k)?, v)))
            .collect::<Result<_, String>>()
            .map(Params)
    }

    /// The form a client sends back to keep these as they are.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).expect("strings serialise")
    }
}

impl Serialize for Params {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            match v {
                Param::Plain(text) => map.serialize_entry(k, text)?,
                Param::Secret { .. } => {
                    map.serialize_entry(k, &serde_json::json!({"value": MASK, "secret": true}))?
                }
            }
        }
        map.end()
    }
}

/// One parameter as the API documents it: a string, or an object that marks it secret.
#[derive(Deserialize, ToSchema)]
#[serde(untagged)]
#[allow(dead_code)] // a schema only
#[schema(as = ParamValue)]
pub enum ParamSchema {
    /// A plain value.
    Plain(String),
    /// A value marked secret: stored encrypted, answered as `********`; sent back without a
    /// value (or with `********`) it keeps the stored one.
    Marked {
        /// The value.
        value: Option<String>,
        /// Whether it is secret.
        secret: Option<bool>,
    },
}

/// Read `field` (a JSON object of parameters, or null/absent for none), noting each problem at
/// its place (`params.repo_url`). `None` when any entry is wrong.
pub fn sent(
    c: &mut Check,
    field: &str,
    value: Option<&Value>,
) -> Option<BTreeMap<ParamKey, SentParam>> {
    let map = match value {
        None | Some(Value::Null) => return Some(BTreeMap::new()),
        Some(Value::Object(map)) => map,
        Some(_) => {
            c.fail(
                field,
                "must be an object of parameters, like {\"timezone\": \"Europe/Berlin\"} or {\"repo_password\": {\"value\": \"…\", \"secret\": true}}",
            );
            return None;
        }
    };
    let before = c.problems.len();
    if map.len() > MAX_PARAMS {
        c.fail(
            field,
            format!("has {} parameters; at most {MAX_PARAMS}", map.len()),
        );
    }
    let mut out = BTreeMap::new();
    for (k, v) in map {
        let at = format!("{field}.{k}");
        let key = match ParamKey::parse(k) {
            Ok(key) => key,
            Err(m) => {
                c.fail(&at, m);
                continue;
            }
        };
        if let Some(p) = sent_one(c, &at, v) {
            out.insert(key, p);
        }
    }
    (c.problems.len() == before).then_some(out)
}

fn sent_one(c: &mut Check, at: &str, v: &Value) -> Option<SentParam> {
    let (value, secret) = match v {
        Value::String(s) => (Some(s.as_str()), false),
        Value::Object(o) => {
            for extra in o.keys().filter(|k| *k != "value" && *k != "secret") {
                c.fail(
                    &format!("{at}.{extra}"),
                    "is not a field of a parameter: use value and secret",
                );
            }
            let secret = match o.get("secret") {
                None | Some(Value::Null) => false,
                Some(Value::Bool(b)) => *b,
                Some(_) => {
                    c.fail(&format!("{at}.secret"), "must be true or false");
                    return None;
                }
            };
            match o.get("value") {
                None | Some(Value::Null) => (None, secret),
                Some(Value::String(s)) => (Some(s.as_str()), secret),
                Some(_) => {
                    c.fail(&format!("{at}.value"), "must be a string");
                    return None;
                }
            }
        }
        _ => {
            c.fail(
                at,
                "must be a string (numbers and lists too are written as text), or {\"value\": \"…\", \"secret\": true}",
            );
            return None;
        }
    };
    match (value, secret) {
        (None, true) => Some(SentParam::KeepSecret),
        (Some(MASK), true) => Some(SentParam::KeepSecret),
        (None, false) => {
            c.fail(
                at,
                "has no value: give {\"value\": \"…\"}, or leave the parameter out",
            );
            None
        }
        (Some(text), _) => {
            if text.chars().count() > MAX_VALUE {
                c.fail(at, format!("is longer than {MAX_VALUE} characters"));
                return None;
            }
            // Line breaks and tabs are fine (a snippet); other control characters are typos.
            if text
                .chars()
                .any(|ch| ch.is_control() && !matches!(ch, '\n' | '\r' | '\t'))
            {
                c.fail(
                    at,
                    "must not contain control characters other than line breaks and tabs",
                );
                return None;
            }
            Some(if secret {
                SentParam::Secret(text.to_owned())
            } else {
                SentParam::Plain(text.to_owned())
            })
        }
    }
}

/// Where a host's parameter came from, lowest first: a later level wins over an earlier one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ParamLevel {
    /// The global defaults (Settings, `PUT /api/v2/params`).
    Default,
    /// The host's network group.
    NetworkGroup,
    /// The host's server group.
    ServerGroup,
    /// The host itself.
    Host,
}

/// The winning parameter of each key over `layers` (lowest level first), with the level and
/// the record's name it came from.
pub fn layered<'a>(
    layers: &[(ParamLevel, Option<&'a str>, &'a Params)],
) -> BTreeMap<&'a ParamKey, (&'a Param, ParamLevel, Option<&'a str>)> {
    let mut out = BTreeMap::new();
    for (level, name, params) in layers {
        for (k, v) in &params.0 {
            out.insert(k, (v, *level, *name));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(v: Value) -> (Option<BTreeMap<ParamKey, SentParam>>, Vec<String>) {
        let mut c = Check::default();
        let got = sent(&mut c, "params", Some(&v));
        let problems = c
            .problems
            .iter()
            .map(|p| format!("{}: {}", p.field, p.message))
            .collect();
        (got, problems)
    }

    #[test]
    fn keys_are_lower_case_names_a_template_can_write() {
        for ok in ["timezone", "repo_url", "a1", "x"] {
            assert!(ParamKey::parse(ok).is_ok(), "{ok}");
        }
        for bad in ["", "Timezone", "1repo", "repo-url", "repo.url", "_x", "ö"] {
            assert!(ParamKey::parse(bad).is_err(), "{bad}");
        }
        assert!(ParamKey::parse(&"a".repeat(MAX_KEY + 1)).is_err());
    }

    #[test]
    fn values_are_strings_or_marked_secrets_and_each_bad_entry_is_named() {
        let (got, problems) = read(serde_json::json!({
            "timezone": "Europe/Berlin",
            "repo_password": {"value": "s3cret", "secret": true},
            "kept": {"secret": true},
            "masked": {"value": MASK, "secret": true},
        }));
        assert!(problems.is_empty(), "{problems:?}");
        let got = got.unwrap();
        let at = |k: &str| got[&ParamKey::parse(k).unwrap()].clone();
        assert_eq!(at("timezone"), SentParam::Plain("Europe/Berlin".into()));
        assert_eq!(at("repo_password"), SentParam::Secret("s3cret".into()));
        assert_eq!(at("kept"), SentParam::KeepSecret);
        assert_eq!(at("masked"), SentParam::KeepSecret);

        let (got, problems) = read(serde_json::json!({
            "Bad": "x", "n": 3, "o": {"value": "v", "colour": "red"}, "e": {"secret": false}
        }));
        assert!(got.is_none());
        let all = problems.join("\n");
        for want in [
            "params.Bad: 'Bad' is not a parameter name",
            "params.n: must be a string",
            "params.o.colour:",
            "params.e: has no value",
        ] {
            assert!(all.contains(want), "{want} in:\n{all}");
        }
        let (got, problems) = read(serde_json::json!(["timezone"]));
        assert!(got.is_none() && problems[0].starts_with("params: must be an object"));
    }

    #[test]
    fn a_record_shows_secrets_masked_and_stores_only_their_ciphertext() {
        let mut p = Params::default();
        p.0.insert(ParamKey::parse("tz").unwrap(), Param::Plain("UTC".into()));
        p.0.insert(
            ParamKey::parse("token").unwrap(),
            Param::Secret {
                enc: "gAAAA-cipher".into(),
            },
        );
        assert_eq!(
            p.to_json(),
            serde_json::json!({"token": {"value": MASK, "secret": true}, "tz": "UTC"})
        );
        let stored = p.to_stored().unwrap();
        assert!(stored.contains("gAAAA-cipher"));
        assert_eq!(Params::from_stored(Some(&stored)).unwrap(), p);
        assert_eq!(Params::default().to_stored(), None);
        // What a client reads back and sends again keeps the secret.
        let (again, _) = read(p.to_json());
        assert_eq!(
            again.unwrap()[&ParamKey::parse("token").unwrap()],
            SentParam::KeepSecret
        );
    }

    #[test]
    fn the_host_wins_over_its_server_group_over_its_network_group_over_the_default() {
        let one = |k: &str, v: &str| {
            let mut p = Params::default();
            p.0.insert(ParamKey::parse(k).unwrap(), Param::Plain(v.into()));
            p
        };
        let mut default = one("tz", "UTC");
        default.0.insert(
            ParamKey::parse("repo").unwrap(),
            Param::Plain("http://d".into()),
        );
        let net = one("tz", "Europe/Berlin");
        let group = one("repo", "http://g");
        let host = one("tz", "Asia/Tokyo");
        let layers = [
            (ParamLevel::Default, None, &default),
            (ParamLevel::NetworkGroup, Some("net"), &net),
            (ParamLevel::ServerGroup, Some("pod"), &group),
            (ParamLevel::Host, Some("kube01"), &host),
        ];
        let got = layered(&layers);
        let tz = got[&ParamKey::parse("tz").unwrap()];
        assert_eq!(
            (tz.0, tz.1, tz.2),
            (
                &Param::Plain("Asia/Tokyo".into()),
                ParamLevel::Host,
                Some("kube01")
            )
        );
        let repo = got[&ParamKey::parse("repo").unwrap()];
        assert_eq!((repo.1, repo.2), (ParamLevel::ServerGroup, Some("pod")));
        // Without the host's, the network group's wins over the default.
        let got = layered(&layers[..3]);
        assert_eq!(
            got[&ParamKey::parse("tz").unwrap()].1,
            ParamLevel::NetworkGroup
        );
    }
}
