//! One pooled connection per server group's manager: sessions are reused across requests
//! and logged out when the app closes. A change of address, login or trust makes a new
//! connection.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use uuid::Uuid;

use super::{password_missing, Capability, Connection, ManagedGroup, Manager};
use crate::error::Result;
use crate::secrets::Cipher;

/// Time allowed for one request to a manager.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// A group's connection, with the settings it was made from.
type Connected = (String, Arc<dyn Manager>);

/// One logged-in driver per server group, reused across requests and replaced when the
/// group's address, login or trust settings change.
#[derive(Default)]
pub struct Managers {
    connections: Mutex<HashMap<Uuid, Connected>>,
}

impl std::fmt::Debug for Managers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.connections.lock().map_or(0, |m| m.len());
        write!(f, "Managers({n} connected)")
    }
}

impl Managers {
    /// [`Self::connect`] for a listing: None when the group's kind declares it has no such
    /// things (an IMC has no templates or FSM stages), which truthfully lists none.
    pub fn connect_to_list(
        &self,
        cipher: &Cipher,
        group: &ManagedGroup,
        what: Capability,
    ) -> Result<Option<Arc<dyn Manager>>> {
        if super::driver(group.kind).is_some_and(|d| !d.capabilities.contains(&what)) {
            return Ok(None);
        }
        self.connect(cipher, group, what).map(Some)
    }

    /// The connection for `group`, made on first use, once its manager is known to be able
    /// to do `action` (else the group's `not_supported` error).
    pub fn connect(
        &self,
        cipher: &Cipher,
        group: &ManagedGroup,
        action: Capability,
    ) -> Result<Arc<dyn Manager>> {
        let driver = super::require(group, action)?;
        let key = key(group);
        let mut map = self.connections.lock().expect("managers lock");
        if let Some((k, m)) = map.get(&group.id) {
            if *k == key {
                return Ok(m.clone());
            }
        }
        if group.password_missing {
            return Err(password_missing(group.name.as_str()));
        }
        let connection = Connection {
            address: group.address.clone(),
            user: group.user.clone(),
            password: cipher.decrypt(&group.password)?,
            insecure: group.insecure,
            fingerprint: group.fingerprint.clone(),
            more: group
                .more
                .iter()
                .map(|l| {
                    Ok(Connection {
                        address: l.address.clone(),
                        user: l.user.clone(),
                        password: cipher.decrypt(&l.password)?,
                        insecure: l.insecure,
                        fingerprint: l.fingerprint.clone(),
                        more: Vec::new(),
                    })
                })
                .collect::<Result<_>>()?,
        };
        let manager = (driver.connect)(&connection)?;
        if let Some((_, old)) = map.insert(group.id, (key, manager.clone())) {
            tokio::spawn(async move { old.logout().await });
        }
        Ok(manager)
    }

    /// Answer `group` with `manager` from now on, in place of a connection its driver would
    /// make, until the group's login changes: tests put an in-memory manager behind a group.
    #[cfg(any(test, feature = "testing"))]
    pub fn insert_for_tests(&self, group: &ManagedGroup, manager: Arc<dyn Manager>) {
        self.connections
            .lock()
            .expect("managers lock")
            .insert(group.id, (key(group), manager));
    }

    /// Forget a deleted group's connection (logging it out).
    pub fn forget(&self, id: Uuid) {
        if let Some((_, old)) = self.connections.lock().expect("managers lock").remove(&id) {
            tokio::spawn(async move { old.logout().await });
        }
    }

    /// Log out of every manager (at shutdown).
    pub async fn logout_all(&self) {
        let all: Vec<Arc<dyn Manager>> = self
            .connections
            .lock()
            .expect("managers lock")
            .drain()
            .map(|(_, (_, m))| m)
            .collect();
        for m in all {
            m.logout().await;
        }
    }
}

/// What a group's connection is made from: a change of it makes a new connection. The stored
/// (encrypted) password stands in for the password: it changes when the password does.
fn key(group: &ManagedGroup) -> String {
    format!(
        "{:?}|{}|{}|{}|{}|{:?}|{:?}",
        group.kind,
        group.address,
        group.user,
        group.password,
        group.insecure,
        group.fingerprint,
        group.more
    )
}
