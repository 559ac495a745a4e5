//! Each host's install lifecycle, from built media to `installed` or `failed`: [`stage`]
//! (the stages and the moves between them), [`tracker`] (the one task that moves hosts and
//! stores it, fed by svc's answers, Bootsmith's own actions and the clock), [`media`] (stale
//! media, digesting the inputs the media hand in), [`timeouts`] (the install settings) and,
//! here, the values an install's state is read as and the records of media builds. The hosts
//! as the doors show them are `crate::host_views`.

mod handle;
mod media;
pub(crate) use bootsmith_model::stage;
mod timeouts;
mod tracker;

use std::collections::HashMap;

use serde::Serialize;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use crate::app::App;
use crate::error::{Error, ErrorCode, Result};
use crate::records::hosts::Host;
use bootsmith_model::time::{Millis, Time};
use bootsmith_store::lifecycle::{self as rows, MediaRow, StatusRow};
use bootsmith_store::Store;

pub use handle::Lifecycle;
pub(crate) use media::status as media_status;
pub(crate) use media::{Inputs, InputsContext, InputsNow};
pub use media::{MediaFile, MediaFreshness, MediaStatus};
pub use stage::Stage;
pub use timeouts::{Timeouts, TimeoutsInput};
use timeouts::{KEY, MAX_MINUTES};
pub use tracker::Fetch;

/// How far an install has fetched.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Progress {
    /// Bytes the installer fetched from svc.
    pub bytes: u64,
    /// Files it fetched.
    pub files: u64,
    /// What the last finished install of the same OS and role fetched, when there was one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_bytes: Option<u64>,
    /// `bytes` of `expected_bytes`, in percent (at most 99 until the installer reports back).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub percent: Option<u8>,
}

/// Where a host's install is.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct InstallStatus {
    /// The stage; null until its media are built.
    pub state: Option<Stage>,
    /// When it got there (RFC 3339).
    #[schema(value_type = Option<String>, format = DateTime)]
    pub since: Option<Time<Millis>>,
    /// What happened, in words.
    pub detail: Option<String>,
    /// What its installer fetched, once it started.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub progress: Option<Progress>,
}

impl InstallStatus {
    /// The status a stored row says, with the size of the last like install to count against.
    pub(crate) fn from_row(row: Option<&StatusRow>, expected: Option<u64>) -> Self {
        let Some(r) = row else {
            return InstallStatus {
                state: None,
                since: None,
                detail: None,
                progress: None,
            };
        };
        let state = Stage::parse(&r.state);
        let started = r.bytes > 0 || matches!(state, Some(Stage::Installing | Stage::Installed));
        let bytes = r.bytes.max(0) as u64;
        let percent = match (state, expected) {
            (Some(Stage::Installed), _) => Some(100),
            (_, Some(total)) if total > 0 => Some((bytes * 100 / total).min(99) as u8),
            _ => None,
        };
        InstallStatus {
            state,
            since: Some(r.since),
            detail: r.detail.clone(),
            progress: started.then_some(Progress {
                bytes,
                files: r.files.max(0) as u64,
                expected_bytes: expected,
                percent,
            }),
        }
    }
}

/// One change of state in a host's timeline.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TimelineEvent {
    /// When (RFC 3339).
    #[schema(value_type = String, format = DateTime)]
    pub at: Time<Millis>,
    /// The stage reached.
    pub state: Option<Stage>,
    /// What happened.
    pub detail: Option<String>,
}

/// What one fetcher fetched of one file (or install tree) for the host.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Access {
    /// The fetcher's address: the management controller, or the host's installer.
    pub peer: String,
    /// `/svc/<file>`, or an install tree (`/svc/rocky9/`).
    pub what: String,
    /// First request (RFC 3339).
    #[schema(value_type = String, format = DateTime)]
    pub first_at: Time<Millis>,
    /// Last request.
    #[schema(value_type = String, format = DateTime)]
    pub last_at: Time<Millis>,
    /// Requests.
    pub requests: u64,
    /// Bytes answered.
    pub bytes: u64,
    /// The last byte range asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_range: Option<String>,
}

/// A fresh install token for a host's answer files, and its SHA-256 (hex) to store.
pub(crate) fn new_token() -> (String, String) {
    use rand::RngCore;
    let mut bytes = [0u8; 24];
    rand::thread_rng().fill_bytes(&mut bytes);
    let token: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    let hash = token_hash(&token);
    (token, hash)
}

pub(crate) fn token_hash(token: &str) -> String {
    Sha256::digest(token.trim().as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Record a build of `host`'s media (its inputs and token) and start its new run.
pub(crate) async fn built(
    store: &Store,
    lifecycle: &Lifecycle,
    host: &Host,
    inputs: &Inputs,
    token_hash: Option<String>,
    what: &str,
) -> Result<()> {
    let row = MediaRow {
        host: host.name.to_string(),
        built_at: Time::now(),
        inputs: serde_json::to_string(inputs)
            .map_err(|e| Error::Corrupt(format!("media inputs do not serialize: {e}")))?,
        token_hash,
    };
    rows::set_media(store.writer(), &row).await?;
    lifecycle
        .set(
            host.name.as_str(),
            Stage::MediaReady,
            format!("media built: {what}"),
        )
        .await;
    Ok(())
}

/// The inputs `host`'s media were last built from, if Bootsmith built them.
pub(crate) async fn recorded_inputs(store: &Store, host: &Host) -> Result<Option<Inputs>> {
    let row = rows::media_of(store.reader(), host.name.as_str()).await?;
    Ok(row.and_then(|r| serde_json::from_str(&r.inputs).ok()))
}

/// Can `host`'s media stay as they are: built by Bootsmith from `inputs`, token unspent?
pub(crate) async fn reusable(store: &Store, host: &Host, inputs: &Inputs) -> Result<bool> {
    let row = rows::media_of(store.reader(), host.name.as_str()).await?;
    Ok(row.is_some_and(|r| {
        r.token_hash.is_some()
            && serde_json::from_str::<Inputs>(&r.inputs).ok().as_ref() == Some(inputs)
    }))
}

/// One host's install, as a deploy that follows installs reports it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HostInstall {
    /// Host name.
    pub host: String,
    /// Where its install is.
    pub status: InstallStatus,
}

/// Where the installs of the hosts `names` are, in that order.
pub(crate) async fn installs(store: &Store, names: &[String]) -> Result<Vec<HostInstall>> {
    let statuses: HashMap<String, StatusRow> = rows::statuses(store.reader())
        .await?
        .into_iter()
        .map(|r| (r.host.to_lowercase(), r))
        .collect();
    Ok(names
        .iter()
        .map(|n| HostInstall {
            host: n.clone(),
            status: InstallStatus::from_row(statuses.get(&n.to_lowercase()), None),
        })
        .collect())
}

/// The timeline lines of `host` after line `after` that happened at or after `since`:
/// (line number, line).
pub(crate) async fn events_after(
    store: &Store,
    host: &str,
    after: i64,
    since: Time<Millis>,
) -> Result<Vec<(i64, TimelineEvent)>> {
    Ok(rows::events(store.reader(), host)
        .await?
        .into_iter()
        .filter(|e| e.seq > after && e.at >= since)
        .map(|e| {
            (
                e.seq,
                TimelineEvent {
                    at: e.at,
                    state: Stage::parse(&e.state),
                    detail: e.detail,
                },
            )
        })
        .collect())
}

/// Now, as lifecycle times are kept (to the millisecond).
pub(crate) fn now() -> Time<Millis> {
    tracker::now()
}

/// A deploy that started at `started` wrote `hosts` (name, whether their objects changed) to the
/// manager: each starts its run on the manager, unless nothing of it changed and its install is
/// already under way or done, or the run's own writes already moved it on (a BMC that fetches
/// the media while it is being inserted, before the run ends its writes).
pub(crate) async fn deployed(
    store: &Store,
    lifecycle: &Lifecycle,
    hosts: &[(String, bool)],
    what: &str,
    started: Time<Millis>,
) -> Result<()> {
    let statuses: HashMap<String, (String, Time<Millis>)> = rows::statuses(store.reader())
        .await?
        .into_iter()
        .map(|r| (r.host.to_lowercase(), (r.state, r.since)))
        .collect();
    for (name, touched) in hosts {
        let (now, since) = match statuses.get(&name.to_lowercase()) {
            Some((state, since)) => (Stage::parse(state), Some(*since)),
            None => (None, None),
        };
        let moved_by_this_run = since.is_some_and(|t| t >= started)
            && !matches!(now, None | Some(Stage::MediaReady | Stage::Deployed));
        if moved_by_this_run {
            continue;
        }
        if *touched || matches!(now, None | Some(Stage::MediaReady)) {
            lifecycle.set(name, Stage::Deployed, what).await;
        }
    }
    Ok(())
}

/// The install settings as stored, with the defaults for what was never set.
pub async fn settings(app: &App) -> Result<Timeouts> {
    Timeouts::load(app.store()).await
}

/// Change the install settings; the fields left out keep their value.
pub async fn set_settings(app: &App, input: TimeoutsInput) -> Result<Timeouts> {
    let mut t = Timeouts::load(app.store()).await?;
    let mut check = bootsmith_model::validate::Check::default();
    for (field, value, slot) in [
        (
            "deployed_minutes",
            input.deployed_minutes,
            &mut t.deployed_minutes,
        ),
        (
            "media_mounted_minutes",
            input.media_mounted_minutes,
            &mut t.media_mounted_minutes,
        ),
        (
            "booting_minutes",
            input.booting_minutes,
            &mut t.booting_minutes,
        ),
        (
            "installing_minutes",
            input.installing_minutes,
            &mut t.installing_minutes,
        ),
    ] {
        // JSON has one number type: 30.0 is 30 minutes, 30.5 is not a number of minutes.
        match value {
            None => {}
            Some(m) if m.fract() == 0.0 && (0.0..=f64::from(MAX_MINUTES)).contains(&m) => {
                *slot = m as u32
            }
            Some(_) => check.fail(
                field,
                format!("must be a number of minutes from 0 (no limit) to {MAX_MINUTES} (a week)"),
            ),
        }
    }
    if let Some(u) = input.unmount_after_install {
        t.unmount_after_install = u;
    }
    check.finish(
        ErrorCode::InvalidSetting,
        "The install settings are invalid",
    )?;
    let text = serde_json::to_string(&t)
        .map_err(|e| Error::Corrupt(format!("install settings do not serialize: {e}")))?;
    app.store().set_setting(KEY, &text).await?;
    tracing::info!(settings = %text, "install settings changed");
    Ok(t)
}
