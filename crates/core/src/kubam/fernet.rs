//! KUBAM's password encryption (prior-art §2.4): Python's `cryptography.fernet.Fernet` under
//! the key in `.kubam` next to kubam.yaml. Only server groups and ACI instances created by a
//! POST carry a token; KUBAM's PUT stored what it was sent, in clear.

use base64::alphabet::URL_SAFE;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use base64::Engine;

use crate::error::{Error, ErrorCode, Result};
use crate::secrets::SecretString;

/// URL-safe base64 as Fernet writes it, padded or not.
const B64: GeneralPurpose = GeneralPurpose::new(
    &URL_SAFE,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// A checked `.kubam` key; its Debug output hides it.
pub(crate) struct KubamKey(fernet::Fernet);

impl std::fmt::Debug for KubamKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("KubamKey(<redacted>)")
    }
}

/// Read the text of `.kubam`: 32 random bytes in URL-safe base64 (44 characters), as
/// `Fernet.generate_key()` made it; surrounding white space (an editor's newline) is ignored.
pub(crate) fn parse_key(text: &SecretString) -> Result<KubamKey> {
    let trimmed = text.expose().trim();
    // Never echo any of it: it is the key to every password in the file.
    fernet::Fernet::new(trimmed).map(KubamKey).ok_or_else(|| {
        Error::invalid_field(ErrorCode::InvalidKubamKey, "The KUBAM key file is not a key", "key", format!(
                    "KUBAM's .kubam holds 44 characters of URL-safe base64 (32 bytes); this text has {} characters{}",
                    trimmed.chars().count(),
                    if trimmed.starts_with("gAAAAA") {
                        " and looks like an encrypted password, not the key"
                    } else {
                        ""
                    }
                ))
    })
}

/// True when `value` is a Fernet token rather than a password KUBAM stored in clear: version
/// byte 0x80, an 8-byte time, a 16-byte IV, whole AES blocks, a 32-byte HMAC.
pub(crate) fn is_token(value: &str) -> bool {
    B64.decode(value.trim())
        .is_ok_and(|b| b.len() >= 1 + 8 + 16 + 16 + 32 && b[0] == 0x80 && (b.len() - 57) % 16 == 0)
}

/// Decrypt a token; `None` when this key did not make it (or its clear text is not UTF-8).
pub(crate) fn decrypt(key: &KubamKey, token: &str) -> Option<SecretString> {
    // KUBAM decrypted without a TTL, and Python then ignores the token's time; the crate
    // refuses a time over a minute ahead of ours, which a lab box's clock often was. A "now"
    // at the end of time turns that check off (and no TTL is asked for).
    let clear = key
        .0
        .decrypt_at_time(token.trim(), None, u64::MAX - 60)
        .ok()?;
    String::from_utf8(clear).ok().map(SecretString::new)
}

#[cfg(test)]
mod tests {
    use super::*;

    // 32 bytes of text, base64: a key no KUBAM ever made.
    const KEY: &str = "dGhpcyBpcyBub3QgYSByZWFsIGtleSwganVzdCBhIHQ=";

    #[test]
    fn tokens_are_told_from_clear_passwords() {
        let key = parse_key(&SecretString::new(format!("{KEY}\n"))).unwrap();
        let f = fernet::Fernet::new(KEY).unwrap();
        let token = f.encrypt(b"s3cret");
        assert!(token.starts_with("gAAAAA"));
        assert!(is_token(&token));
        assert_eq!(decrypt(&key, &token).unwrap().expose(), "s3cret");
        for clear in ["password", "gAAAAAnotreally", "", "C1sco12345!"] {
            assert!(!is_token(clear), "{clear}");
        }
        let ahead = f.encrypt_at_time(b"from the future", u64::from(u32::MAX));
        assert_eq!(decrypt(&key, &ahead).unwrap().expose(), "from the future");
        let other = parse_key(&SecretString::new(fernet::Fernet::generate_key())).unwrap();
        assert!(decrypt(&other, &token).is_none());
    }

    #[test]
    fn a_key_file_that_is_no_key_is_refused_without_echoing_it() {
        for bad in [
            "",
            "no-fernet-key-here",
            "gAAAAABkc2Rmc2RmZHNmc2Rmc2Rmc2RmZHNmc2Rmc2Rmc2Q=",
        ] {
            let e = parse_key(&SecretString::new(bad)).unwrap_err();
            assert_eq!(e.code(), "invalid_kubam_key");
            assert!(bad.is_empty() || !e.to_string().contains(bad), "{e}");
        }
    }
}
