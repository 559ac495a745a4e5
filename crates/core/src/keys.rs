//! Public SSH keys that installed hosts accept.

use std::collections::HashSet;

use serde::Deserialize;
use utoipa::ToSchema;

use crate::app::App;
use crate::error::{Error, Problem, Result};
use crate::types::SshPublicKey;

/// Body of `POST /api/v1/keys`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct KeysInput {
    /// The complete list of keys to keep.
    #[schema(required = true, nullable = false)]
    pub keys: Option<Vec<String>>,
}

/// The stored keys, in the order they were given.
pub async fn list(app: &App) -> Result<Vec<String>> {
    Ok(
        sqlx::query_scalar("SELECT key FROM ssh_keys ORDER BY position")
            .fetch_all(app.store().reader())
            .await?,
    )
}

/// Replace the key list; every key is parsed, duplicates are dropped.
pub async fn replace(app: &App, input: KeysInput) -> Result<Vec<String>> {
    let Some(raw) = input.keys else {
        return Err(Error::invalid(
            "invalid_keys",
            "The SSH keys are invalid",
            vec![Problem::field(
                "keys",
                "is required (a list of OpenSSH public keys)",
            )],
        ));
    };
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
    if !problems.is_empty() {
        return Err(Error::invalid(
            "invalid_keys",
            "The SSH keys are invalid",
            problems,
        ));
    }
    let mut tx = app.store().writer().begin().await?;
    sqlx::query("DELETE FROM ssh_keys")
        .execute(&mut *tx)
        .await?;
    for (i, k) in keys.iter().enumerate() {
        sqlx::query("INSERT INTO ssh_keys (position, key) VALUES (?, ?)")
            .bind(i as i64)
            .bind(k.as_str())
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(keys.into_iter().map(|k| k.as_str().to_owned()).collect())
}
