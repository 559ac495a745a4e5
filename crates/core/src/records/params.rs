//! Template parameters as the records keep them: what was sent made into what is stored (a
//! secret encrypted with the data key; a secret sent back without its value keeps the stored
//! one), the global defaults (`GET`/`PUT /api/v2/params`, the settings row `params`), and the
//! values a host's templates see, each with the record it came from.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::app::App;
use crate::error::{Error, ErrorCode, Result};
use crate::records::host_record::Host;
use crate::secrets::{Cipher, SecretString};
use bootsmith_model::params::{self as model, Param, ParamKey, ParamLevel, SentParam, MASK};
pub use bootsmith_model::params::{ParamSchema, Params};
use bootsmith_model::validate::Check;

pub(crate) const SETTING: &str = "params";

/// What the records keep of `sent` (read at `field`): plain values as they are, secrets
/// encrypted, and a secret sent without its value taken from `before` (the record as stored).
/// Problems go to `c`; `None` when any.
pub(crate) fn keep(
    c: &mut Check,
    cipher: &Cipher,
    field: &str,
    value: Option<&serde_json::Value>,
    before: &Params,
) -> Option<Params> {
    let sent = model::sent(c, field, value)?;
    resolve(c, cipher, field, sent, before)
}

/// [`keep`] for parameters already read: encrypt the secrets, take the kept ones from `before`.
pub(crate) fn resolve(
    c: &mut Check,
    cipher: &Cipher,
    field: &str,
    sent: BTreeMap<ParamKey, SentParam>,
    before: &Params,
) -> Option<Params> {
    let mut out = BTreeMap::new();
    let mut ok = true;
    for (k, v) in sent {
        let kept = match v {
            SentParam::Plain(text) => Param::Plain(text),
            SentParam::Secret(text) => Param::Secret {
                enc: cipher.encrypt(&SecretString::new(text)),
            },
            SentParam::KeepSecret => match before.0.get(&k) {
                Some(p @ Param::Secret { .. }) => p.clone(),
                _ => {
                    c.fail(
                        &format!("{field}.{k}"),
                        "is a secret with no stored value to keep: give {\"value\": \"…\", \"secret\": true}",
                    );
                    ok = false;
                    continue;
                }
            },
        };
        out.insert(k, kept);
    }
    ok.then_some(Params(out))
}

/// A record's stored parameters; `what` names the record in the corruption error.
pub(crate) fn stored(text: Option<&str>, what: &str) -> Result<Params> {
    Params::from_stored(text).map_err(|e| Error::Corrupt(format!("{what}: params: {e}")))
}

/// The global defaults: every host's parameters where its records give none.
pub async fn defaults(app: &App) -> Result<Params> {
    stored(app.store().setting(SETTING).await?.as_deref(), "settings")
}

/// Body of `PUT /api/v2/params`: every default parameter, `{"key": "value"}` or a secret as
/// `{"key": {"value": "…", "secret": true}}`; an empty object clears them.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(transparent)]
#[schema(value_type = BTreeMap<String, ParamSchema>)]
pub struct ParamsInput(pub serde_json::Map<String, serde_json::Value>);

/// Replace the global defaults with `input`; a secret sent back as read keeps its value.
pub async fn set_defaults(app: &App, input: ParamsInput) -> Result<Params> {
    let before = defaults(app).await?;
    let mut c = Check::default();
    let input = serde_json::Value::Object(input.0);
    let params = keep(&mut c, app.cipher(), "params", Some(&input), &before);
    c.finish(
        ErrorCode::InvalidSetting,
        "The default parameters were not saved",
    )?;
    let params = params.expect("checked");
    let mut conn = app.store().writing().await?;
    match params.to_stored() {
        Some(text) => bootsmith_store::settings::set(&mut *conn, SETTING, &text).await?,
        None => bootsmith_store::settings::delete(&mut *conn, SETTING).await?,
    }
    tracing::info!(keys = params.0.len(), "default template parameters set");
    Ok(params)
}

/// One of a host's parameters as its answer preview shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct ParamSource {
    /// The key, as templates write `params.<key>`.
    pub key: String,
    /// The value (a secret's as `********`).
    pub value: String,
    /// Whether it is a secret.
    pub secret: bool,
    /// Which layer it came from.
    pub from: ParamLevel,
    /// The record of that layer (the network group's, server group's or host's name); none for a default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record: Option<String>,
}

/// The layers above hosts: the defaults and each group's parameters by the group's name, read
/// once for a run over many hosts (the callers read the groups; this module stays below them).
#[derive(Debug, Clone, Default)]
pub(crate) struct Above {
    /// The global defaults.
    pub defaults: Params,
    /// Each network group's that gives any.
    pub network_groups: HashMap<String, Params>,
    /// Each server group's that gives any.
    pub server_groups: HashMap<String, Params>,
}

impl Above {
    /// The layers of `h`'s parameters.
    pub(crate) fn layers<'a>(&'a self, h: &'a Host) -> Layers<'a> {
        static NONE: std::sync::OnceLock<Params> = std::sync::OnceLock::new();
        let none = NONE.get_or_init(Params::default);
        let net = h.network_group.as_str();
        Layers {
            defaults: &self.defaults,
            network: (net, self.network_groups.get(net).unwrap_or(none)),
            server_group: h.server_group.as_ref().map(|g| {
                (
                    g.as_str(),
                    self.server_groups.get(g.as_str()).unwrap_or(none),
                )
            }),
            host: (h.name.as_str(), &h.params),
        }
    }
}

/// The layers of one host's parameters, lowest first.
pub(crate) struct Layers<'a> {
    pub defaults: &'a Params,
    pub network: (&'a str, &'a Params),
    pub server_group: Option<(&'a str, &'a Params)>,
    pub host: (&'a str, &'a Params),
}

impl Layers<'_> {
    fn winners(&self) -> BTreeMap<&ParamKey, (&Param, ParamLevel, Option<&str>)> {
        let mut layers = vec![
            (ParamLevel::Default, None, self.defaults),
            (
                ParamLevel::NetworkGroup,
                Some(self.network.0),
                self.network.1,
            ),
        ];
        if let Some((name, p)) = self.server_group {
            layers.push((ParamLevel::ServerGroup, Some(name), p));
        }
        layers.push((ParamLevel::Host, Some(self.host.0), self.host.1));
        model::layered(&layers)
    }

    /// What the templates see: each key's winning value, secrets decrypted (or [`MASK`] where
    /// `masked`, for a preview).
    pub(crate) fn values(&self, cipher: &Cipher, masked: bool) -> Result<BTreeMap<String, String>> {
        self.winners()
            .into_iter()
            .map(|(k, (p, _, _))| {
                let v = match p {
                    Param::Plain(text) => text.clone(),
                    Param::Secret { .. } if masked => MASK.to_owned(),
                    Param::Secret { enc } => cipher.decrypt(enc)?.expose().to_owned(),
                };
                Ok((k.to_string(), v))
            })
            .collect()
    }

    /// The winning parameters as stored (a secret's ciphertext), as one text: what media built
    /// from them are judged stale by.
    pub(crate) fn fingerprint(&self) -> String {
        let won: BTreeMap<&ParamKey, &Param> = self
            .winners()
            .into_iter()
            .map(|(k, (p, _, _))| (k, p))
            .collect();
        serde_json::to_string(&won).expect("strings serialise")
    }

    /// Each key's winning value with where it came from, secrets masked.
    pub(crate) fn sources(&self) -> Vec<ParamSource> {
        self.winners()
            .into_iter()
            .map(|(k, (p, from, record))| ParamSource {
                key: k.to_string(),
                value: match p {
                    Param::Plain(text) => text.clone(),
                    Param::Secret { .. } => MASK.to_owned(),
                },
                secret: matches!(p, Param::Secret { .. }),
                from,
                record: record.map(str::to_owned),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cipher() -> Cipher {
        Cipher::new(&[7; 32])
    }

    #[test]
    fn a_secret_is_stored_encrypted_and_one_sent_back_masked_keeps_its_value() {
        let cipher = cipher();
        let mut c = Check::default();
        let first = keep(
            &mut c,
            &cipher,
            "params",
            Some(&serde_json::json!({"repo_password": {"value": "hunter2", "secret": true}, "tz": "UTC"})),
            &Params::default(),
        )
        .unwrap();
        let stored = first.to_stored().unwrap();
        assert!(!stored.contains("hunter2"), "{stored}");
        // A client reads the record (masked) and sends it back with a change.
        let mut again = first.to_json();
        again["tz"] = "Europe/Berlin".into();
        let second = keep(&mut c, &cipher, "params", Some(&again), &first).unwrap();
        assert!(c.problems.is_empty(), "{:?}", c.problems);
        assert_eq!(
            second.0[&ParamKey::parse("repo_password").unwrap()],
            first.0[&ParamKey::parse("repo_password").unwrap()]
        );
        let layers = Layers {
            defaults: &Params::default(),
            network: ("net", &Params::default()),
            server_group: None,
            host: ("kube01", &second),
        };
        let values = layers.values(&cipher, false).unwrap();
        assert_eq!(values["repo_password"], "hunter2");
        assert_eq!(values["tz"], "Europe/Berlin");
        assert_eq!(layers.values(&cipher, true).unwrap()["repo_password"], MASK);
        // With nothing stored, a masked secret has nothing to keep.
        let none = keep(&mut c, &cipher, "params", Some(&again), &Params::default());
        assert!(none.is_none());
        assert_eq!(c.problems[0].field, "params.repo_password");
    }
}
