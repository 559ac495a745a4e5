//! Encryption of stored secrets (manager passwords, the API token) with
//! AES-256-GCM under one data key. The key lives in the OS keyring; where
//! there is none (CI, headless servers) it lives in a 0600 file in the data
//! dir, never in svc, and we say so in the log.

use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

use aes_gcm::aead::{Aead, AeadCore, KeyInit, OsRng};
use aes_gcm::{Aes256Gcm, Key, Nonce};
use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine;
use serde::{Deserialize, Deserializer};

use crate::error::{Error, Result};

/// Prefix of every encrypted value we hand out; lets a PUT recognise a value it got back.
pub const ENCRYPTED_PREFIX: &str = "enc:v1:";
const KEY_FILE: &str = "secret.key";
const KEYRING_SERVICE: &str = "bootsmith";

/// A secret in clear text that never shows up in Debug output or logs.
#[derive(Clone, PartialEq, Eq)]
pub struct SecretString(String);

impl SecretString {
    /// Wrap a clear-text secret.
    pub fn new(s: impl Into<String>) -> Self {
        SecretString(s.into())
    }
    /// The clear text; call only where the secret is really used.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for SecretString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SecretString(<redacted>)")
    }
}

impl<'de> Deserialize<'de> for SecretString {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(SecretString)
    }
}

/// Encrypts and decrypts secrets with the data key.
#[derive(Clone)]
pub struct Cipher {
    aead: Aes256Gcm,
}

impl fmt::Debug for Cipher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Cipher(<key redacted>)")
    }
}

impl Cipher {
    /// A cipher over a 32-byte key.
    pub fn new(key: &[u8; 32]) -> Self {
        Cipher {
            aead: Aes256Gcm::new(Key::<Aes256Gcm>::from_slice(key)),
        }
    }

    /// Encrypt to `enc:v1:<base64(nonce | ciphertext)>`.
    pub fn encrypt(&self, plain: &SecretString) -> String {
        let nonce = Aes256Gcm::generate_nonce(&mut OsRng);
        let ct = self
            .aead
            .encrypt(&nonce, plain.expose().as_bytes())
            .expect("AES-GCM encryption of an in-memory buffer cannot fail");
        let mut blob = nonce.to_vec();
        blob.extend_from_slice(&ct);
        format!("{ENCRYPTED_PREFIX}{}", B64.encode(blob))
    }

    /// Decrypt a value made by [`Cipher::encrypt`] with this key.
    pub fn decrypt(&self, token: &str) -> Result<SecretString> {
        let undecryptable =
            || Error::Secret("a stored secret cannot be decrypted with this data key".into());
        let blob = token
            .strip_prefix(ENCRYPTED_PREFIX)
            .and_then(|b| B64.decode(b).ok())
            .filter(|b| b.len() > 12)
            .ok_or_else(undecryptable)?;
        let (nonce, ct) = blob.split_at(12);
        let plain = self
            .aead
            .decrypt(Nonce::from_slice(nonce), ct)
            .map_err(|_| undecryptable())?;
        String::from_utf8(plain)
            .map(SecretString)
            .map_err(|_| undecryptable())
    }

    /// True when `value` is an encrypted value made with this key, i.e. a client sent back what we returned.
    pub fn is_ours(&self, value: &str) -> bool {
        value.starts_with(ENCRYPTED_PREFIX) && self.decrypt(value).is_ok()
    }
}

/// Where the data key was found or put.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyLocation {
    /// The OS keyring (secret service).
    Keyring,
    /// A 0600 file in the data dir.
    File(PathBuf),
}

impl std::fmt::Display for KeyLocation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KeyLocation::Keyring => f.write_str("the OS keyring"),
            KeyLocation::File(p) => write!(f, "{}", p.display()),
        }
    }
}

/// Load the data key for `data_dir`, creating it on first start.
///
/// Order: an existing key file wins (a server set up without a keyring keeps
/// working when one appears); then the OS keyring when `use_keyring`; then a new
/// key file. Blocking: call from `spawn_blocking` in async code.
pub fn load_or_create_key(data_dir: &Path, use_keyring: bool) -> Result<([u8; 32], KeyLocation)> {
    let file = data_dir.join(KEY_FILE);
    if file.exists() {
        return Ok((read_key_file(&file)?, KeyLocation::File(file)));
    }
    let why_not_keyring = if use_keyring {
        match keyring_key(data_dir) {
            Ok(key) => return Ok((key, KeyLocation::Keyring)),
            Err(reason) => reason,
        }
    } else {
        "the OS keyring is switched off (BOOTSMITH_KEYRING=off)".to_owned()
    };
    let key: [u8; 32] = rand::random();
    write_key_file(&file, &key)?;
    tracing::warn!(
        path = %file.display(),
        reason = %why_not_keyring,
        "no OS secret service available; the data key is kept in a file readable only by this user (mode 0600)"
    );
    Ok((key, KeyLocation::File(file)))
}

fn keyring_key(data_dir: &Path) -> std::result::Result<[u8; 32], String> {
    let account = format!("data-key:{}", data_dir.display());
    let entry = keyring::Entry::new(KEYRING_SERVICE, &account).map_err(|e| e.to_string())?;
    match entry.get_password() {
        Ok(encoded) => {
            decode_key(&encoded).ok_or_else(|| "the key in the OS keyring is malformed".to_owned())
        }
        Err(keyring::Error::NoEntry) => {
            let key: [u8; 32] = rand::random();
            entry
                .set_password(&B64.encode(key))
                .map_err(|e| e.to_string())?;
            // Read back: some stores accept a write they cannot return.
            match entry.get_password() {
                Ok(back) if decode_key(&back) == Some(key) => Ok(key),
                Ok(_) => Err("the OS keyring returned a different key than was stored".into()),
                Err(e) => Err(e.to_string()),
            }
        }
        Err(e) => Err(e.to_string()),
    }
}

fn decode_key(encoded: &str) -> Option<[u8; 32]> {
    B64.decode(encoded.trim()).ok()?.try_into().ok()
}

fn read_key_file(path: &Path) -> Result<[u8; 32]> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::io(format!("reading the data key {}", path.display()), e))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if let Ok(meta) = std::fs::metadata(path) {
            if meta.permissions().mode() & 0o077 != 0 {
                tracing::warn!(path = %path.display(), "the data key file is readable by other users; run chmod 600 on it");
            }
        }
    }
    decode_key(&text)
        .ok_or_else(|| Error::Secret(format!("the data key file {} is malformed", path.display())))
}

fn write_key_file(path: &Path, key: &[u8; 32]) -> Result<()> {
    let dir = path.parent().expect("key file has a parent");
    let ctx = |e| Error::io(format!("writing the data key {}", path.display()), e);
    let mut tmp = tempfile_in(dir).map_err(ctx)?;
    tmp.1.write_all(B64.encode(key).as_bytes()).map_err(ctx)?;
    tmp.1.sync_all().map_err(ctx)?;
    std::fs::rename(&tmp.0, path).map_err(ctx)?;
    Ok(())
}

/// A new file in `dir` created with mode 0600 from the start, so the key is never readable by others.
fn tempfile_in(dir: &Path) -> std::io::Result<(PathBuf, std::fs::File)> {
    let path = dir.join(format!(".{KEY_FILE}.{}.tmp", std::process::id()));
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    let f = opts.open(&path)?;
    Ok((path, f))
}

/// The API token last decrypted, with the stored text it was decrypted from.
#[derive(Default)]
pub struct TokenCache(pub(crate) std::sync::Mutex<Option<(String, SecretString)>>);

impl std::fmt::Debug for TokenCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TokenCache(..)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_tamper() {
        let c = Cipher::new(&[7u8; 32]);
        let s = SecretString::new("s3cret!");
        let enc = c.encrypt(&s);
        assert!(enc.starts_with(ENCRYPTED_PREFIX));
        assert!(!enc.contains("s3cret"));
        assert_eq!(c.decrypt(&enc).unwrap(), s);
        assert_ne!(c.encrypt(&s), enc, "nonce must differ per encryption");
        let other = Cipher::new(&[8u8; 32]);
        assert!(other.decrypt(&enc).is_err());
        assert!(!other.is_ours(&enc));
        assert!(c.is_ours(&enc));
        let mut tampered = enc.clone();
        tampered.pop();
        tampered.push('A');
        assert!(c.decrypt(&tampered).is_err() || tampered == enc);
        assert!(format!("{s:?}").contains("redacted"));
    }

    #[test]
    fn key_file_is_private_and_reused() {
        let dir = tempfile::tempdir().unwrap();
        let (k1, loc) = load_or_create_key(dir.path(), false).unwrap();
        assert_eq!(loc, KeyLocation::File(dir.path().join(KEY_FILE)));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.path().join(KEY_FILE))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let (k2, _) = load_or_create_key(dir.path(), false).unwrap();
        assert_eq!(k1, k2);
    }
}
