//! The API token: created on first start, stored encrypted like the other
//! secrets, compared in constant time.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

use crate::app::App;
use crate::error::Result;
use crate::secrets::SecretString;

const TOKEN: &str = "api_token";

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
