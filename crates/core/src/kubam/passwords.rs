//! KUBAM's passwords: each record's token decrypted with the `.kubam` key file given, or
//! taken as KUBAM stored it in clear, and a key that opens none of them refused.

use crate::error::{Error, ErrorCode, Problem, Result};
use crate::records::server_groups::CredentialsInput;
use crate::secrets::SecretString;

use super::fernet;
use super::file::{KubamFile, Record};

/// A record's password as the import will store it.
pub(super) enum Password {
    /// In clear: decrypted with the key file, or stored in clear by KUBAM's PUT.
    Clear(SecretString, &'static str),
    /// A token, and no key file to decrypt it.
    Missing,
    /// A token the key file does not decrypt.
    WrongKey,
    /// None in the file; the record's own check names it.
    Absent,
}

pub(super) fn passwords(records: &[Record], key: Option<&fernet::KubamKey>) -> Vec<Password> {
    records
        .iter()
        .map(|r| match r.get("credentials.password") {
            None | Some("") => Password::Absent,
            Some(t) if fernet::is_token(t) => match key {
                None => Password::Missing,
                Some(k) => fernet::decrypt(k, t).map_or(Password::WrongKey, |p| {
                    Password::Clear(p, "password decrypted with the key file")
                }),
            },
            Some(clear) => Password::Clear(
                SecretString::new(clear),
                "password stored in clear by KUBAM (its PUT did not encrypt): taken as it is",
            ),
        })
        .collect()
}

/// A key file that does not open the file's tokens is the wrong one: refuse it naming them,
/// rather than import some groups and leave the others without a password.
pub(super) fn wrong_key(file: &KubamFile, groups: &[Password], aci: &[Password]) -> Result<()> {
    let mut details = Vec::new();
    for (what, list, records) in [
        ("server_groups", groups, &file.server_groups),
        ("aci", aci, &file.aci),
    ] {
        for (i, (pw, rec)) in list.iter().zip(records).enumerate() {
            if matches!(pw, Password::WrongKey) {
                details.push(
                    Problem::field(
                        format!("{what}[{i}].credentials.password"),
                        format!("line {}: not decrypted by this key", rec.line),
                    )
                    .at(i, rec.get("name")),
                );
            }
        }
    }
    if details.is_empty() {
        return Ok(());
    }
    let names: Vec<String> = details
        .iter()
        .map(|p| format!("'{}'", p.name.as_deref().unwrap_or("(no name)")))
        .collect();
    Err(Error::Invalid {
        code: ErrorCode::KubamKeyMismatch,
        message: format!(
            "The key file does not decrypt the passwords of {}: give the .kubam file that was next to this kubam.yaml (KUBAM makes a new key when its file is lost, and then cannot read its own passwords either)",
            names.join(", ")
        ),
        details,
    })
}

/// The credentials of a record's `credentials.*` fields, with its password when it is in clear.
pub(super) fn credentials(rec: &Record, pw: &Password) -> CredentialsInput {
    CredentialsInput {
        ip: rec.text("credentials.ip"),
        user: rec.text("credentials.user"),
        password: match pw {
            Password::Clear(p, _) => Some(p.clone()),
            _ => None,
        },
    }
}
