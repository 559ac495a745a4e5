//! The overview screen's numbers and warnings.

use serde::Serialize;
use utoipa::ToSchema;

use crate::app::App;
use crate::error::Result;
use crate::secrets::KeyLocation;
use crate::{
    media::isos, records::hosts, records::keys, records::networks, records::server_groups,
    records::settings,
};

/// Counts of every record.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Counts {
    /// Server groups.
    pub server_groups: usize,
    /// Network groups.
    pub networks: usize,
    /// Hosts.
    pub hosts: usize,
    /// ISO files in svc.
    pub isos: usize,
    /// Mapped ISOs.
    pub mapped_isos: usize,
    /// SSH keys.
    pub keys: usize,
}

/// State of the records at a glance.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Overview {
    /// Boot-server address, if set.
    pub svc_ip: Option<String>,
    /// Where servers (and a browser) fetch svc: `http://<svc_ip>:<port>/svc/`, never the
    /// wildcard the listener may be bound to; null until the address is set and svc is served.
    pub svc_url: Option<String>,
    /// Data directory.
    pub data_dir: String,
    /// svc directory.
    pub svc_dir: String,
    /// Where the data key lives: `keyring` or the key file path.
    pub key_store: String,
    /// Record counts.
    pub counts: Counts,
    /// Hosts per install stage (`none`: nothing built yet), e.g. `{"installing": 3, "installed": 9}`.
    #[schema(schema_with = bootsmith_model::schema::installs)]
    pub installs: std::collections::BTreeMap<String, u64>,
    /// Things an operator should fix before creating images or deploying.
    pub warnings: Vec<String>,
}

/// Summarise the records and list what is missing for an install.
pub async fn summary(app: &App) -> Result<Overview> {
    let svc_ip = settings::svc_ip(app).await?;
    let groups = server_groups::list(app).await?;
    let nets = networks::list(app).await?;
    let host_list = hosts::list(app).await?;
    let iso_files = isos::list(app).await?;
    let map = isos::map(app).await?;
    let key_list = keys::list(app).await?;
    let mut warnings = Vec::new();
    match svc_ip {
        None => warnings.push(
            "The boot-server address (svc_ip) is not set: servers cannot fetch install media."
                .to_owned(),
        ),
        Some(ip) => warnings.extend(crate::media::reach::problems(
            ip.0,
            app.svc_port(),
            app.svc_listen_ip(),
        )),
    }
    let mut unmapped: Vec<&str> = host_list
        .iter()
        .map(|h| h.os.as_str())
        .filter(|os| !map.iter().any(|m| m.os == *os))
        .collect();
    unmapped.sort();
    unmapped.dedup();
    for os in unmapped {
        warnings.push(format!("No ISO is mapped to {os}, which hosts use."));
    }
    for g in groups.iter().filter(|g| g.password_missing) {
        warnings.push(format!(
            "Server group {} has no password (imported from KUBAM without its key file): enter it before using the group.",
            g.name
        ));
    }
    let views = crate::host_views::list(app).await?;
    let stale: Vec<String> = views
        .iter()
        .filter(|v| v.media.state == crate::lifecycle::MediaFreshness::Stale)
        .map(|v| v.host.name.to_string())
        .collect();
    if !stale.is_empty() {
        warnings.push(format!(
            "The install media of {} are stale (an input changed since they were built): make their images again before deploying.",
            stale.join(", ")
        ));
    }
    // A failed install is the operator's to look at, like a stale build: a warning.
    let failed: Vec<String> = views
        .iter()
        .filter(|v| v.status.state == Some(crate::lifecycle::Stage::Failed))
        .map(|v| v.host.name.to_string())
        .collect();
    if !failed.is_empty() {
        warnings.push(format!(
            "The install of {} failed: open the host's timeline and console, then make its images again and deploy it.",
            failed.join(", ")
        ));
    }
    let mut installs = std::collections::BTreeMap::new();
    for v in &views {
        let state = v
            .status
            .state
            .map_or("none", crate::lifecycle::Stage::as_str);
        *installs.entry(state.to_owned()).or_insert(0) += 1;
    }
    if !host_list.is_empty() {
        warnings.extend(keys::no_login_warning(app, &[]).await?);
    }
    let port = app.svc_port();
    Ok(Overview {
        svc_url: svc_ip.filter(|_| port != 0).map(|i| {
            format!(
                "{}/svc/",
                crate::media::layout::base_url(&i.to_string(), port)
            )
        }),
        svc_ip: svc_ip.map(|i| i.to_string()),
        data_dir: app.data_dir().display().to_string(),
        svc_dir: app.svc_dir().display().to_string(),
        key_store: match app.key_location() {
            KeyLocation::Keyring => "keyring".to_owned(),
            KeyLocation::File(p) => p.display().to_string(),
        },
        counts: Counts {
            server_groups: groups.len(),
            networks: nets.len(),
            hosts: host_list.len(),
            isos: iso_files.len(),
            mapped_isos: map.len(),
            keys: key_list.len(),
        },
        installs,
        warnings,
    })
}
