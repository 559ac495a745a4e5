//! One pooled connection per server group's manager: sessions are reused
//! across requests and logged out when the app closes. A change of address,
//! login or trust makes a new connection.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bootsmith_ucs::{Endpoint, Kind, Target, Trust};
use uuid::Uuid;

use crate::error::Result;
use crate::secrets::{Cipher, SecretString};
use crate::server_groups::{GroupKind, ServerGroup};

/// Time allowed for one request to a manager.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// The pool.
#[derive(Debug, Default)]
pub struct Managers {
    endpoints: Mutex<HashMap<Uuid, (String, Arc<Endpoint>)>>,
}

/// Connection settings, with the password given in clear.
pub fn target(
    kind: Kind,
    address: &str,
    user: &str,
    password: &SecretString,
    insecure: bool,
    fingerprint: Option<&str>,
) -> Target {
    Target {
        kind,
        address: address.to_owned(),
        user: user.to_owned(),
        password: password.expose().to_owned(),
        trust: if insecure {
            Trust::Insecure
        } else {
            fingerprint.map_or(Trust::Verify, |f| Trust::Pinned(f.to_owned()))
        },
        timeout: REQUEST_TIMEOUT,
    }
}

fn group_target(group: &ServerGroup, kind: Kind, password: &SecretString) -> Target {
    target(
        kind,
        &group.credentials.ip,
        &group.credentials.user,
        password,
        group.insecure,
        group.fingerprint.as_deref(),
    )
}

impl Managers {
    /// The connection for `group`, made on first use.
    pub fn endpoint(&self, cipher: &Cipher, group: &ServerGroup) -> Result<Arc<Endpoint>> {
        let kind = match group.kind {
            GroupKind::Ucsm => Kind::Ucsm,
            GroupKind::Imc => Kind::Imc,
            GroupKind::Ucsc => return Err(GroupKind::ucsc_not_supported(&group.name)),
        };
        // The stored (encrypted) password stands in for the password in the key: it changes when the password does.
        let key = format!(
            "{:?}|{}|{}|{}|{}|{:?}",
            group.kind,
            group.credentials.ip,
            group.credentials.user,
            group.credentials.password,
            group.insecure,
            group.fingerprint
        );
        let mut map = self.endpoints.lock().expect("managers lock");
        if let Some((k, ep)) = map.get(&group.id) {
            if *k == key {
                return Ok(ep.clone());
            }
        }
        if group.password_missing {
            return Err(crate::server_groups::password_missing(group.name.as_str()));
        }
        let password = cipher.decrypt(&group.credentials.password)?;
        let ep = Arc::new(Endpoint::new(group_target(group, kind, &password))?);
        if let Some((_, old)) = map.insert(group.id, (key, ep.clone())) {
            tokio::spawn(async move { old.logout().await });
        }
        Ok(ep)
    }

    /// Forget a deleted group's connection (logging it out).
    pub fn forget(&self, id: Uuid) {
        if let Some((_, old)) = self.endpoints.lock().expect("managers lock").remove(&id) {
            tokio::spawn(async move { old.logout().await });
        }
    }

    /// Log out of every manager (at shutdown).
    pub async fn logout_all(&self) {
        let all: Vec<Arc<Endpoint>> = self
            .endpoints
            .lock()
            .expect("managers lock")
            .drain()
            .map(|(_, (_, ep))| ep)
            .collect();
        for ep in all {
            ep.logout().await;
        }
    }
}
