//! The API token: created on first start, stored encrypted like the other
//! secrets, compared in constant time.
//!
//! Every request reads the stored (encrypted) token, so `bootsmith token --regenerate` run by
//! another process takes effect at once; the clear token is kept beside the encrypted text it
//! came from, and decrypted again only when that text changed.

use std::sync::{Mutex, MutexGuard, PoisonError};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

use crate::app::App;
use crate::error::Result;
use crate::secrets::SecretString;

const TOKEN: &str = "api_token";

/// Whether `presented` is the API token (creating the token on first use).
pub async fn check(app: &App, presented: &str) -> Result<bool> {
    let Some(enc) = app.store().setting(TOKEN).await? else {
        return Ok(matches(&regenerate(app).await?, presented));
    };
    let cache = &app.token_cache().0;
    if let Some((cached_enc, real)) = &*lock(cache) {
        if *cached_enc == enc {
            return Ok(matches(real, presented));
        }
    }
    let real = app.cipher().decrypt(&enc)?;
    let ok = matches(&real, presented);
    *lock(cache) = Some((enc, real));
    Ok(ok)
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // The value is replaced whole, so a panic elsewhere cannot leave it half-written.
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The API token, creating it on first use.
pub async fn token(app: &App) -> Result<SecretString> {
    if let Some(enc) = app.store().setting(TOKEN).await? {
        return app.cipher().decrypt(&enc);
    }
    regenerate(app).await
}

/// Replace the API token with a new random one; the old one stops working.
pub async fn regenerate(app: &App) -> Result<SecretString> {
    let bytes: [u8; 32] = rand::random();
    let token = SecretString::new(format!("bst_{}", URL_SAFE_NO_PAD.encode(bytes)));
    app.store()
        .set_setting(TOKEN, &app.cipher().encrypt(&token))
        .await?;
    tracing::info!("a new API token was created");
    Ok(token)
}

/// Constant-time comparison of a presented token with the real one.
pub fn matches(real: &SecretString, presented: &str) -> bool {
    let a = real.expose().as_bytes();
    let b = presented.as_bytes();
    // Length is not secret (fixed format); content comparison must not short-circuit.
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
