//! The import of group-like records (server groups, network groups, ACI instances): the
//! name each is stored under, clashes with stored records, the id kept, the password stored.

use std::collections::{HashMap, HashSet};

use uuid::Uuid;

use crate::error::Result;
use crate::records::aci::AciInput;
use crate::records::networks::NetworkInput;
use crate::records::server_groups::{ServerGroupInput, NO_PASSWORD};
use crate::{records::aci, records::networks, records::server_groups};
use bootsmith_model::selector::SelectorInput;
use bootsmith_model::types::Name;
use bootsmith_store::{Conn, Named};

use super::file::{KubamFile, Record};
use super::host_records::Ref;
use super::passwords::{credentials, Password};
use super::{item, skip, Action, PlanItem, RecordKind, Run};

/// A group-like kind of record of the file (server group, network group, ACI instance): its
/// plan items, its table, its list in the file and how messages name one.
pub(super) struct GroupKind {
    record: RecordKind,
    table: Named,
    list: &'static str,
    what: &'static str,
}

pub(super) const SERVER_GROUP: GroupKind = GroupKind {
    record: RecordKind::ServerGroup,
    table: Named::ServerGroups,
    list: "server_groups",
    what: "a server group",
};

pub(super) const NETWORK_GROUP: GroupKind = GroupKind {
    record: RecordKind::NetworkGroup,
    table: Named::NetworkGroups,
    list: "network_groups",
    what: "a network group",
};

pub(super) const ACI_INSTANCE: GroupKind = GroupKind {
    record: RecordKind::Aci,
    table: Named::AciInstances,
    list: "aci",
    what: "an ACI instance",
};

/// How a group-like record of the file starts its import.
pub(super) enum Claim {
    /// Its plan item and the name it is stored under.
    Free(PlanItem, Name),
    /// A stored record has this name; the plan has the clash already.
    Exists(Name),
    /// No usable name, or one the file used before; the plan has the skip already.
    Skipped,
}

/// A name for a group, network or ACI instance: the file's when Bootsmith can take it, else
/// the same text made printable (spaces trimmed, `/` and control characters replaced, cut to
/// 64 characters); `Err` with the reason when nothing usable is left.
pub(super) fn take_name(raw: &str) -> Result<(Name, bool), String> {
    if let Ok(n) = Name::parse(raw) {
        return Ok((n, false));
    }
    let fixed: String = raw
        .trim()
        .chars()
        .map(|c| if c == '/' || c.is_control() { '-' } else { c })
        .take(64)
        .collect();
    Name::parse(fixed.trim_end()).map(|n| (n, true))
}

impl Run<'_> {
    /// A group-like record's name: taken as it is or renamed, unless the file used it for an
    /// earlier record of the kind (`Err` with the reason).
    pub(super) fn name_of(
        rec: &Record,
        seen: &mut HashMap<String, usize>,
        it: &mut PlanItem,
    ) -> Result<Name, String> {
        let raw = rec.get("name").ok_or("has no name")?;
        let (name, renamed) = take_name(raw)?;
        if let Some(first) = seen.get(name.as_str()) {
            return Err(format!(
                "the name '{name}' is used by the record on line {first} already"
            ));
        }
        seen.insert(name.as_str().to_owned(), rec.line);
        if renamed {
            it.action = Action::Rename;
            it.new_name = Some(name.to_string());
            it.notes.push(format!(
                "renamed: Bootsmith's names are 1 to 64 printable characters without '/' or surrounding spaces; records of the file that name '{raw}' follow"
            ));
        }
        Ok(name)
    }

    /// A record's KUBAM id when it is a free UUID (KUBAM's clients update records by id).
    pub(super) async fn keep_id(
        conn: &mut Conn,
        table: Named,
        rec: &Record,
        used: &mut HashSet<Uuid>,
    ) -> Result<Uuid> {
        if let Some(id) = rec.get("id").and_then(|i| Uuid::parse_str(i).ok()) {
            let taken = table.id_exists(&mut *conn, &id.to_string()).await?;
            if !taken && used.insert(id) {
                return Ok(id);
            }
        }
        let id = Uuid::new_v4();
        used.insert(id);
        Ok(id)
    }

    pub(super) async fn exists(conn: &mut Conn, table: Named, name: &Name) -> Result<bool> {
        Ok(table.name_exists(&mut *conn, name.as_str()).await?)
    }

    /// The start every group-like record shares: its plan item and name, unless the name is
    /// unusable or taken (then the plan has its skip or clash).
    pub(super) async fn claim(
        &mut self,
        conn: &mut Conn,
        kind: &GroupKind,
        i: usize,
        rec: &Record,
        seen: &mut HashMap<String, usize>,
    ) -> Result<Claim> {
        let raw = rec.get("name").unwrap_or("(no name)");
        let mut it = item(kind.record, raw, rec.line);
        let name = match Self::name_of(rec, seen, &mut it) {
            Ok(n) => n,
            Err(why) => {
                self.push(skip(it, why));
                return Ok(Claim::Skipped);
            }
        };
        if Self::exists(conn, kind.table, &name).await? {
            self.clash(
                it,
                format!("{}[{i}].name", kind.list),
                format!("{} named '{name}' exists already", kind.what),
            );
            return Ok(Claim::Exists(name));
        }
        Ok(Claim::Free(it, name))
    }

    /// The password to store for a record, noting on its item where it came from; `missing` is
    /// the note for one KUBAM encrypted with no key file given.
    pub(super) fn store_password(&self, pw: &Password, it: &mut PlanItem, missing: &str) -> String {
        match pw {
            Password::Clear(p, note) => {
                it.notes.push((*note).to_owned());
                self.app.cipher().encrypt(p)
            }
            _ => {
                it.notes.push(missing.to_owned());
                NO_PASSWORD.to_owned()
            }
        }
    }

    pub(super) async fn server_groups(
        &mut self,
        conn: &mut Conn,
        file: &KubamFile,
        passwords: Vec<Password>,
    ) -> Result<HashMap<String, Ref>> {
        let mut refs = HashMap::new();
        let mut seen = HashMap::new();
        let mut ids = HashSet::new();
        for (i, (rec, pw)) in file.server_groups.iter().zip(passwords).enumerate() {
            let raw = rec.get("name").unwrap_or("(no name)").to_owned();
            let (mut it, name) = match self.claim(conn, &SERVER_GROUP, i, rec, &mut seen).await? {
                Claim::Free(it, name) => (it, name),
                Claim::Exists(name) => {
                    refs.entry(raw).or_insert(Ref::Existing(name));
                    continue;
                }
                Claim::Skipped => continue,
            };
            let pool = rec.pool.as_ref().map(|p| SelectorInput {
                blades: Some(p.value.blades.clone()),
                rack_servers: Some(p.value.racks.clone()),
            });
            let input = ServerGroupInput {
                id: None,
                uid: None,
                name: Some(name.to_string()),
                kind: rec.text("type"),
                credentials: Some(credentials(rec, &pw)),
                server_pool: pool,
                vlan: rec.text("vlan"),
                insecure: None,
                fingerprint: None,
                check_login: Some(false),
                description: rec.text("description"),
                org: rec.text("org"),
                bmcs: None,
                // KUBAM never named an install disk: its groups' hosts take the default one.
                install_disk: None,
                params: None,
            };
            let checked = match server_groups::check(&input, !matches!(pw, Password::Missing)) {
                Ok(c) => c,
                Err(e) => {
                    refs.entry(raw).or_insert(Ref::Skipped(format!(
                        "server group '{name}' was not imported"
                    )));
                    self.push(skip(it, e.to_string()));
                    continue;
                }
            };
            let stored_password = self.store_password(&pw, &mut it, "password encrypted by KUBAM and no key file given: stored without one; enter it before using the group (until then it answers 422 password_missing)");
            if let Some(pool) = &rec.pool {
                it.notes.extend(pool.value.notes.iter().cloned());
                let list = |ids: &[String]| {
                    if ids.is_empty() {
                        "none".to_owned()
                    } else {
                        ids.join(", ")
                    }
                };
                it.notes.push(format!(
                    "selected servers: blades {}; rack servers {}",
                    list(&pool.value.blades),
                    list(&pool.value.racks)
                ));
            }
            if !rec.get("credentials.ip").unwrap_or("").contains("://") {
                it.notes.push("its certificate is checked on first use, which KUBAM did not do: a self-signed one is refused with its fingerprint to pin".to_owned());
            }
            it.notes.extend(rec.ignored.iter().cloned());
            let id = Self::keep_id(conn, Named::ServerGroups, rec, &mut ids).await?;
            server_groups::insert(conn, id, &checked, &stored_password).await?;
            refs.entry(raw).or_insert(Ref::Stored(name));
            self.push(it);
        }
        Ok(refs)
    }

    pub(super) async fn network_groups(
        &mut self,
        conn: &mut Conn,
        file: &KubamFile,
    ) -> Result<HashMap<String, Ref>> {
        let mut refs = HashMap::new();
        let mut seen = HashMap::new();
        let mut ids = HashSet::new();
        for (i, rec) in file.network_groups.iter().enumerate() {
            let raw = rec.get("name").unwrap_or("(no name)").to_owned();
            let (mut it, name) = match self.claim(conn, &NETWORK_GROUP, i, rec, &mut seen).await? {
                Claim::Free(it, name) => (it, name),
                Claim::Exists(name) => {
                    refs.entry(raw).or_insert(Ref::Existing(name));
                    continue;
                }
                Claim::Skipped => continue,
            };
            let input = NetworkInput {
                id: None,
                name: Some(name.to_string()),
                netmask: rec.text("netmask"),
                gateway: rec.text("gateway"),
                nameserver: rec.text("nameserver"),
                ntpserver: rec.text("ntpserver"),
                proxy: rec.text("proxy"),
                vlan: rec.text("vlan"),
                subnet: None,
                // KUBAM knew one untagged NIC per host: no MTU, bond, routes or IPv6.
                mtu: None,
                bond: None,
                routes: None,
                ipv6_gateway: None,
                // Nor template parameters.
                params: None,
            };
            let id = Self::keep_id(conn, Named::NetworkGroups, rec, &mut ids).await?;
            match networks::check(&input, id, self.app.cipher(), &Default::default()) {
                Ok(net) => {
                    networks::insert(conn, &net).await?;
                    it.notes.extend(rec.ignored.iter().cloned());
                    refs.entry(raw).or_insert(Ref::Stored(name));
                    self.push(it);
                }
                Err(e) => {
                    refs.entry(raw).or_insert(Ref::Skipped(format!(
                        "network group '{name}' was not imported"
                    )));
                    self.push(skip(it, e.to_string()));
                }
            }
        }
        Ok(refs)
    }

    pub(super) async fn aci(
        &mut self,
        conn: &mut Conn,
        file: &KubamFile,
        passwords: Vec<Password>,
    ) -> Result<()> {
        let mut seen = HashMap::new();
        let mut ids = HashSet::new();
        for (i, (rec, pw)) in file.aci.iter().zip(passwords).enumerate() {
            let Claim::Free(mut it, name) =
                self.claim(conn, &ACI_INSTANCE, i, rec, &mut seen).await?
            else {
                continue;
            };
            let input = AciInput {
                id: None,
                name: Some(name.to_string()),
                credentials: Some(credentials(rec, &pw)),
                tenant_name: rec.text("tenant_name"),
                vrf_name: rec.text("vrf_name"),
                bridge_domain: rec.text("bridge_domain"),
            };
            let checked = match aci::check(&input, !matches!(pw, Password::Missing)) {
                Ok(c) => c,
                Err(e) => {
                    self.push(skip(it, e.to_string()));
                    continue;
                }
            };
            let stored_password = self.store_password(&pw, &mut it, "password encrypted by KUBAM and no key file given: stored without one; enter it when editing the instance");
            it.notes.extend(rec.ignored.iter().cloned());
            let id = Self::keep_id(conn, Named::AciInstances, rec, &mut ids).await?;
            aci::insert(conn, id, &checked, &stored_password).await?;
            self.push(it);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_bootsmith_cannot_take_are_made_printable() {
        assert_eq!(
            take_name("Lab Pod 1").unwrap(),
            (Name::parse("Lab Pod 1").unwrap(), false)
        );
        assert_eq!(take_name(" pod/1 ").unwrap().0.as_str(), "pod-1");
        assert_eq!(
            take_name(&"x".repeat(70)).unwrap().0.as_str(),
            "x".repeat(64)
        );
        assert!(take_name("   ").is_err());
    }
}
