//! Public SSH keys that installed hosts accept.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::app::App;
use crate::error::{Error, ErrorCode, Problem, Result};
use bootsmith_model::types::SshPublicKey;
use bootsmith_store::{self as store, Conn};

/// Body of `POST /api/v1/keys`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct KeysInput {
    /// The complete list of keys to keep.
    #[schema(required = true, nullable = false)]
    pub keys: Option<Vec<String>>,
}

/// A stored key and what identifies it to a person.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct KeyInfo {
    /// The key as stored (one OpenSSH line).
    pub key: String,
    /// Its algorithm as OpenSSH names it: an open set, examples: `ssh-ed25519`,
    /// `ecdsa-sha2-nistp256`, `ssh-rsa`, `sk-ssh-ed25519@openssh.com`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The comment after the key material (often `user@host`); empty when there is none.
    pub comment: String,
    /// `SHA256:<base64>`, as `ssh-keygen -l` prints it.
    pub fingerprint: String,
}

impl KeyInfo {
    pub(crate) fn of(key: String) -> KeyInfo {
        match ssh_key::PublicKey::from_openssh(&key) {
            Ok(k) => KeyInfo {
                kind: k.algorithm().to_string(),
                comment: k.comment().to_owned(),
                fingerprint: k.fingerprint(ssh_key::HashAlg::Sha256).to_string(),
                key,
            },
            // Only parsed keys are stored; one a newer version cannot read still shows.
            Err(_) => KeyInfo {
                kind: key.split_whitespace().next().unwrap_or("").to_owned(),
                comment: String::new(),
                fingerprint: String::new(),
                key,
            },
        }
    }
}

/// The stored keys with their type, comment and fingerprint.
pub async fn details(app: &App) -> Result<Vec<KeyInfo>> {
    Ok(list(app).await?.into_iter().map(KeyInfo::of).collect())
}

/// The stored keys, in the order they were given.
pub async fn list(app: &App) -> Result<Vec<String>> {
    Ok(store::keys::list(app.store().reader()).await?)
}

/// With no key stored, the sentence the overview, the images run and the deploy plan say about
/// `hosts` (all hosts when empty): installed, they accept no login at all, because the root
/// password the answer files set is random and never shown. None when a key is set.
pub async fn no_login_warning(app: &App, hosts: &[String]) -> Result<Option<String>> {
    if !list(app).await?.is_empty() {
        return Ok(None);
    }
    let who = if hosts.is_empty() {
        "the hosts".to_owned()
    } else {
        hosts.join(", ")
    };
    Ok(Some(format!(
        "No SSH key is set: {who} will accept no login once installed (logins are by key; the root password is random and never shown). Add a key on the Keys screen, then make the images."
    )))
}

/// Replace the key list; every key is parsed, duplicates are dropped.
pub async fn replace(app: &App, input: KeysInput) -> Result<Vec<String>> {
    let Some(raw) = input.keys else {
        return Err(Error::invalid_field(
            ErrorCode::InvalidKeys,
            "The SSH keys are invalid",
            "keys",
            "is required (a list of OpenSSH public keys)",
        ));
    };
    // A private key refuses the whole list with one sentence: its lines are never checked one
    // by one, so no message (and no log line, which repeats the message) quotes any of it.
    if let Some(i) = raw.iter().position(|k| SshPublicKey::is_private(k)) {
        return Err(Error::Invalid {
            code: ErrorCode::PrivateKey,
            message: format!(
                "Key {} is a private key, which must never be pasted here or shared: paste the public key instead (the .pub file, one line starting with ssh- or ecdsa-); nothing was saved",
                i + 1
            ),
            details: vec![Problem::field(
                "keys",
                "this is a private key; paste the public key (.pub) instead",
            )
            .at(i, None)],
        });
    }
    let mut problems = Vec::new();
    let mut keys = Vec::new();
    let mut seen = HashSet::new();
    for (i, k) in raw.iter().enumerate() {
        match SshPublicKey::parse(k) {
            Ok(key) => {
                if seen.insert(key.as_str().to_owned()) {
                    keys.push(key);
                }
            }
            Err(m) => problems.push(Problem::field("keys", m).at(i, None)),
        }
    }
    Error::invalid_if_any(ErrorCode::InvalidKeys, "The SSH keys are invalid", problems)?;
    let mut tx = app.store().begin().await?;
    write_list(&mut tx, &keys).await?;
    tx.commit().await?;
    Ok(keys.into_iter().map(|k| k.as_str().to_owned()).collect())
}

/// Replace the stored list with `keys` (parsed, without duplicates): the one write of the key
/// list and of the KUBAM import, which passes the stored keys followed by the new ones.
pub(crate) async fn write_list(conn: &mut Conn, keys: &[SshPublicKey]) -> Result<()> {
    let keys: Vec<&str> = keys.iter().map(SshPublicKey::as_str).collect();
    Ok(store::keys::replace(conn, &keys).await?)
}
