//! The operator's records: network groups, server groups, ACI instances, hosts, SSH keys and
//! settings, one module each, the install disk's hint hosts and server groups may give
//! (`install_disk`), and the template parameters all three kinds of group and host carry (`params`). This module holds what every kind of stored record does the same way:
//! find one by id or by name, refuse a delete while hosts use it (naming them), keep a
//! password sent back encrypted or encrypt a new one, answer a taken name, and require a
//! well-formed id. One place, so the codes and sentences cannot drift apart.

pub mod aci;
pub mod host_record;
pub mod hosts;
pub mod install_disk;
pub mod keys;
pub mod networks;
pub mod params;
pub mod server_groups;
pub mod settings;

use uuid::Uuid;

use crate::error::{Error, ErrorCode, Result};
use crate::secrets::{Cipher, SecretString};
use bootsmith_model::validate;
use bootsmith_store::{Named, Store, Written};

/// Which of `id` and `name` picks the record when a body sends both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Prefer {
    /// The id wins; a body with neither is told to "give the id or the name".
    Id,
    /// The name wins; a body with neither is told the name "is required".
    Name,
}

/// How the messages and codes of one kind of record read.
#[derive(Debug)]
pub(crate) struct Kind {
    /// How a sentence names one ("network group").
    pub what: &'static str,
    /// Code of "there is no such record".
    pub not_found: ErrorCode,
    /// Code of a body that does not say which record.
    pub invalid: ErrorCode,
    /// What picks the record when both are sent.
    pub prefer: Prefer,
    /// Whether names match without regard to case (host names do, as UCS and file names).
    pub names_ignore_case: bool,
}

/// A stored record that can be looked up.
pub(crate) trait Record {
    /// Its id, when the kind has ids.
    fn id(&self) -> Option<Uuid>;
    /// Its name.
    fn name(&self) -> &str;
}

/// [`Record`] for a record type with an `id: Uuid` and a `name` newtype.
macro_rules! with_id {
    ($ty:ty) => {
        impl $crate::records::Record for $ty {
            fn id(&self) -> Option<uuid::Uuid> {
                Some(self.id)
            }
            fn name(&self) -> &str {
                self.name.as_str()
            }
        }
    };
}
pub(crate) use with_id;

/// What a request names: a record's id or its name.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Lookup<'a> {
    /// By id.
    Id(Uuid),
    /// By name.
    Name(&'a str),
}

/// The record a delete body names: its id or name (`kind.prefer` wins when both are sent;
/// an empty name counts as absent, and callers pass the id as their contract reads it).
pub(crate) fn which<'a>(
    kind: &Kind,
    id: Option<&'a str>,
    name: Option<&'a str>,
) -> Result<Lookup<'a>> {
    let name = name.filter(|s| !s.is_empty());
    // A malformed id is refused even where the name decides: ids are UUIDs, and a body naming
    // a record twice, one of them wrongly, is a mistake to point out rather than to guess past.
    let id = id
        .filter(|s| !s.is_empty())
        .map(|id| require_id(Some(id)))
        .transpose()?;
    match (kind.prefer, id, name) {
        (Prefer::Name, _, Some(name)) | (Prefer::Id, None, Some(name)) => Ok(Lookup::Name(name)),
        (_, Some(id), _) => Ok(Lookup::Id(id)),
        (prefer, None, None) => {
            let (field, message) = match prefer {
                Prefer::Id => ("id", "give the id or the name"),
                Prefer::Name => ("name", "is required"),
            };
            Err(Error::invalid_field(
                kind.invalid,
                &format!("Say which {} to delete", kind.what),
                field,
                message,
            ))
        }
    }
}

/// Refuse an `id` sent on create: Bootsmith assigns ids, and replacing the caller's silently
/// would leave it holding an id that names nothing. A blank one counts as absent.
pub(crate) fn no_id_on_create(kind: &Kind, id: Option<&str>) -> Result<()> {
    match id.map(str::trim) {
        Some(id) if !id.is_empty() => Err(Error::invalid_field(
            kind.invalid,
            &format!("A new {} cannot bring its own id", kind.what),
            "id",
            "is assigned by Bootsmith: leave it out when creating (a PUT with the id changes an existing one)",
        )),
        _ => Ok(()),
    }
}

/// The record of `items` that `lookup` names, if any.
pub(crate) fn find<T: Record>(kind: &Kind, items: Vec<T>, lookup: Lookup<'_>) -> Option<T> {
    items.into_iter().find(|r| match lookup {
        Lookup::Id(id) => r.id() == Some(id),
        Lookup::Name(name) if kind.names_ignore_case => r.name().eq_ignore_ascii_case(name),
        Lookup::Name(name) => r.name() == name,
    })
}

/// The record of `items` that `lookup` names, or the kind's not-found error.
pub(crate) fn resolve<T: Record>(kind: &Kind, items: Vec<T>, lookup: Lookup<'_>) -> Result<T> {
    find(kind, items, lookup).ok_or_else(|| not_found(kind, lookup))
}

/// "There is no network group named 'x'" (or "with id …"), with the kind's code.
pub(crate) fn not_found(kind: &Kind, lookup: Lookup<'_>) -> Error {
    let message = match lookup {
        Lookup::Id(id) => format!("There is no {} with id {id}", kind.what),
        Lookup::Name(name) => format!("There is no {} named '{name}'", kind.what),
    };
    Error::not_found(kind.not_found, message)
}

/// Delete `record` of `table` unless hosts use it: then refuse with `code` (the kind's own,
/// as clients already match on it), naming the hosts. The check and the delete are one
/// transaction, so a host cannot start using the record in between.
pub(crate) async fn delete_unless_used<T: Record>(
    store: &Store,
    kind: &Kind,
    table: Named,
    code: ErrorCode,
    record: &T,
) -> Result<()> {
    let id = record.id().expect("records of a named table have ids");
    let mut tx = store.begin().await?;
    let users = bootsmith_store::hosts::using(&mut *tx, table, record.name()).await?;
    if !users.is_empty() {
        let mut what = kind.what.to_owned();
        what[..1].make_ascii_uppercase();
        return Err(Error::conflict(
            code,
            format!(
                "{what} '{}' is used by hosts {}; move or delete them first",
                record.name(),
                users.join(", ")
            ),
        ));
    }
    table.delete(&mut *tx, &id.to_string()).await?;
    tx.commit().await?;
    Ok(())
}

/// The password to store on an update: the stored one when none is sent, the sent one when it
/// is our own encrypted value sent back (GET returns passwords so), else the sent one encrypted.
pub(crate) fn password_to_store(
    cipher: &Cipher,
    sent: Option<&SecretString>,
    stored: String,
) -> String {
    match sent {
        None => stored,
        Some(p) if cipher.is_ours(p.expose()) => p.expose().to_owned(),
        Some(p) => cipher.encrypt(p),
    }
}

/// Turn a write's outcome into the answer: a taken name is `409 duplicate_name`, a missing
/// row the kind's not-found error for `id`.
pub(crate) fn written(kind: &Kind, outcome: Written, name: &str, id: Uuid) -> Result<()> {
    match outcome {
        Written::Done => Ok(()),
        Written::NameTaken => Err(Error::conflict(
            ErrorCode::DuplicateName,
            format!("The name '{name}' is already taken"),
        )),
        Written::Missing => Err(not_found(kind, Lookup::Id(id))),
    }
}

/// The id a change names: required, and a UUID.
pub(crate) fn require_id(id: Option<&str>) -> Result<Uuid> {
    let raw = id.filter(|s| !s.is_empty()).ok_or_else(|| {
        Error::invalid_field(
            ErrorCode::MissingId,
            "Say which record to change",
            "id",
            "is required",
        )
    })?;
    validate::uuid(raw)
        .map_err(|m| Error::invalid_field(ErrorCode::InvalidId, "The id is invalid", "id", m))
}

/// How a refusal of a `what` (`network group`) starts: naming the record by the name it was
/// sent with, when it has one, so the answer and the log say which.
pub(crate) fn invalid_what(what: &str, name: &Option<String>) -> String {
    // A name too long (or blank) to be one is left out rather than echoed.
    let named = name.as_deref().map(str::trim);
    match named
        .filter(|n| !n.is_empty() && n.chars().count() <= 64 && !n.contains(char::is_control))
    {
        Some(n) => format!("The {what} '{n}' is invalid"),
        None => format!("The {what} is invalid"),
    }
}
