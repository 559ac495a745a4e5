//! The install disk's hint as hosts and server groups keep it: stored as its JSON text, and
//! the one a host's install goes by (its own, else its server group's).

use std::collections::HashMap;

use bootsmith_model::install_disk::InstallDiskHint;

use crate::records::host_record::Host;
use crate::records::server_groups::ServerGroup;

/// The hint a host's install goes by: the host's own, else its server group's (the group's
/// default for its hosts), else none (the default disk). `group` is the host's server group,
/// where it has one.
pub fn effective_hint<'a>(
    host: &'a Host,
    group: Option<&'a ServerGroup>,
) -> Option<&'a InstallDiskHint> {
    host.install_disk.as_ref().or_else(|| {
        group
            .filter(|g| host.server_group.as_ref() == Some(&g.name))
            .and_then(|g| g.install_disk.as_ref())
    })
}

/// [`effective_hint`] with the server groups' hints by group name (as media runs load them).
pub fn effective_hint_in<'a>(
    host: &'a Host,
    group_hints: &'a HashMap<String, InstallDiskHint>,
) -> Option<&'a InstallDiskHint> {
    host.install_disk.as_ref().or_else(|| {
        host.server_group
            .as_ref()
            .and_then(|g| group_hints.get(g.as_str()))
    })
}

/// A hint as its column holds it (JSON text), none for none.
pub(crate) fn to_stored(hint: Option<&InstallDiskHint>) -> Option<String> {
    hint.map(|h| serde_json::to_string(h).expect("text, numbers and booleans serialize"))
}

/// A hint read back from its column; the reason when it no longer reads as one.
pub(crate) fn from_stored(text: Option<&str>) -> Result<Option<InstallDiskHint>, String> {
    text.map(serde_json::from_str::<InstallDiskHint>)
        .transpose()
        .map_err(|e| e.to_string())
}
