//! The hosts as both doors show them, a read model over the records, the lifecycle and
//! svc: each host with where its install is and whether its media are still right, and one
//! host's timeline.

use std::collections::HashMap;

use serde::Serialize;
use utoipa::ToSchema;

use crate::app::App;
use crate::error::Result;
use crate::lifecycle::{
    media_status, Access, InputsContext, InstallStatus, MediaFreshness, MediaStatus, Stage,
    TimelineEvent,
};
use crate::media::inputs;
use crate::records::hosts::{self, Host};
use bootsmith_store::lifecycle::{self as rows, MediaRow, StatusRow};

/// A host with where its install is and the state of its media (`GET /api/v2/hosts`).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HostView {
    /// The host record.
    #[serde(flatten)]
    pub host: Host,
    /// Where its install is.
    pub status: InstallStatus,
    /// Its install media in svc, and whether they are still right.
    pub media: MediaStatus,
}

/// Everything the lifecycle and svc know of hosts, read once for many.
struct Known {
    statuses: HashMap<String, StatusRow>,
    media: HashMap<String, MediaRow>,
    sizes: HashMap<(String, String), u64>,
    inputs: InputsContext,
}

impl Known {
    async fn load(app: &App, hosts: &[Host]) -> Result<Self> {
        let db = app.store().reader();
        Ok(Known {
            statuses: rows::statuses(db)
                .await?
                .into_iter()
                .map(|r| (r.host.to_lowercase(), r))
                .collect(),
            media: rows::media(db)
                .await?
                .into_iter()
                .map(|r| (r.host.to_lowercase(), r))
                .collect(),
            sizes: rows::install_sizes(db)
                .await?
                .into_iter()
                .map(|(os, role, bytes, _)| ((os, role), bytes.max(0) as u64))
                .collect(),
            inputs: inputs::load(app, hosts, app.svc_port()).await?,
        })
    }

    fn view(&self, app: &App, h: Host) -> HostView {
        let key = h.name.as_str().to_lowercase();
        let expected = self.sizes.get(&(h.os.clone(), h.role.clone())).copied();
        let status = InstallStatus::from_row(self.statuses.get(&key), expected);
        let installed_at = status
            .state
            .filter(|s| *s == Stage::Installed)
            .and(status.since);
        let (files, missing) = inputs::files(app.svc_dir(), &app.catalog(), &h);
        let media = media_status(
            self.media.get(&key),
            &self.inputs.inputs(&h),
            files,
            missing,
            installed_at,
        );
        HostView {
            host: h,
            status,
            media,
        }
    }
}

/// Every host, in submitted order, with where its install is and the state of its media.
pub async fn list(app: &App) -> Result<Vec<HostView>> {
    let list = hosts::list(app).await?;
    let known = Known::load(app, &list).await?;
    Ok(list.into_iter().map(|h| known.view(app, h)).collect())
}

/// The hosts of `chosen` whose media cannot serve a new install (stale, used or missing),
/// each with why in words.
pub(crate) async fn unusable_media(app: &App, chosen: &[Host]) -> Result<Vec<(String, String)>> {
    let known = Known::load(app, chosen).await?;
    let mut out = Vec::new();
    for h in chosen {
        let name = h.name.to_string();
        let v = known.view(app, h.clone());
        match v.media.state {
            MediaFreshness::Stale => out.push((
                name,
                format!(
                    "its media were built {} and {} changed since",
                    v.media.built_at.map(|t| t.to_string()).unwrap_or_default(),
                    v.media.changed.join(", ")
                ),
            )),
            MediaFreshness::Used => out.push((
                name,
                format!(
                    "its media were used by the install of {}; a new install needs new images (make its images again)",
                    v.media.used_at.map_or_else(|| "an earlier run".to_owned(), |t| t.to_string())
                ),
            )),
            MediaFreshness::Missing => {
                out.push((name, format!("{} not in svc", v.media.missing.join(", "))))
            }
            MediaFreshness::Ready | MediaFreshness::Unknown => {}
        }
    }
    Ok(out)
}

/// A host's install from its last build on: each stage with its time, and every fetch of its media.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Timeline {
    /// Host name.
    pub host: String,
    /// Where its install is.
    pub status: InstallStatus,
    /// Its media.
    pub media: MediaStatus,
    /// Each change of state, oldest first.
    pub events: Vec<TimelineEvent>,
    /// What was fetched from svc for it, by whom.
    pub access: Vec<Access>,
}

/// The host `name`'s timeline; 404 `unknown_host` when there is no such host.
pub async fn timeline(app: &App, name: &str) -> Result<Timeline> {
    let host = hosts::get(app, name).await?;
    let known = Known::load(app, std::slice::from_ref(&host)).await?;
    let name = host.name.to_string();
    let view = known.view(app, host);
    let db = app.store().reader();
    let events = rows::events(db, &name)
        .await?
        .into_iter()
        .map(|e| TimelineEvent {
            at: e.at,
            state: Stage::parse(&e.state),
            detail: e.detail,
        })
        .collect();
    let access = rows::access(db, &name)
        .await?
        .into_iter()
        .map(|a| Access {
            peer: a.peer,
            what: format!("/svc/{}", a.what),
            first_at: a.first_at,
            last_at: a.last_at,
            requests: a.requests.max(0) as u64,
            bytes: a.bytes.max(0) as u64,
            last_range: a.last_range,
        })
        .collect();
    Ok(Timeline {
        host: name,
        status: view.status,
        media: view.media,
        events,
        access,
    })
}

pub(crate) async fn status_of(app: &App, host: Host) -> Result<InstallStatus> {
    let known = Known::load(app, std::slice::from_ref(&host)).await?;
    Ok(known.view(app, host).status)
}
