//! The installers' callbacks: an installer reports its host installed (then, if the settings
//! say so, its virtual media are taken away) or failed, with the host's install token. Above
//! the lifecycle and the deploy, since a callback moves the one and may call the other.

use serde::Deserialize;
use utoipa::ToSchema;

use crate::app::App;
use crate::error::{Error, ErrorCode, Result};
use crate::host_views::status_of;
use crate::lifecycle::{token_hash, InstallStatus, Stage, Timeouts};
use crate::records::hosts::{self, Host};
use bootsmith_store::lifecycle as rows;

/// Body of an installer's callback.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct Callback {
    /// The host's install token, as rendered into its answer file.
    pub token: Option<String>,
    /// Why the install failed (`…/failed` only), in a few words.
    pub reason: Option<String>,
    /// The disk the installer put the OS on, in words (`…/installed` only): what the
    /// answer file's install-disk step chose (`sdb (447 GiB, MICRON …, S/N …)`).
    pub disk: Option<String>,
}

/// Text an installer sent, as the timeline keeps it: no control characters, at most `max`.
fn sent_text(text: &str, max: usize) -> String {
    text.chars().filter(|c| !c.is_control()).take(max).collect()
}

fn bad_token(name: &str) -> Error {
    Error::Unauthorized {
        code: ErrorCode::InvalidInstallToken,
        message: format!(
            "The install token for host {name} is not valid: it is missing, was already used (the host reported installed), or its images were rebuilt since; the token is in the host's answer file"
        ),
    }
}

/// The callback's host, when `token` is its current install token.
pub(crate) async fn check_token(
    app: &App,
    name: &str,
    token: Option<&str>,
) -> Result<(Host, String)> {
    let token = token
        .filter(|t| !t.trim().is_empty())
        .ok_or_else(|| bad_token(name))?;
    let host = hosts::get(app, name).await.map_err(|_| bad_token(name))?;
    let hash = token_hash(token);
    let row = rows::media_of(app.store().reader(), host.name.as_str()).await?;
    match row.and_then(|r| r.token_hash) {
        Some(h) if h == hash => Ok((host, hash)),
        _ => {
            tracing::warn!(host = %name, "an install callback came with a wrong or spent token");
            Err(bad_token(name))
        }
    }
}

/// The installer of host `name` is done (`POST /api/v2/hosts/<name>/installed`, from the end of
/// its answer file). Needs the host's install token, which is spent by this call.
pub async fn installed(app: &App, name: &str, body: Callback) -> Result<InstallStatus> {
    let (host, hash) = check_token(app, name, body.token.as_deref()).await?;
    if !rows::spend_token(app.store().writer(), host.name.as_str(), &hash).await? {
        return Err(bad_token(name));
    }
    let detail = match body
        .disk
        .as_deref()
        .map(str::trim)
        .filter(|d| !d.is_empty())
    {
        Some(disk) => format!(
            "the installer reported the install done, on {}",
            sent_text(disk, 300)
        ),
        None => "the installer reported the install done".to_owned(),
    };
    app.lifecycle()
        .set(host.name.as_str(), Stage::Installed, detail)
        .await;
    if Timeouts::load(app.store()).await?.unmount_after_install {
        // The installer is waiting for its answer; the manager can take its time.
        let (core, h) = (app.clone(), host.clone());
        tokio::spawn(async move {
            let name = h.name.to_string();
            match crate::deploy::unmount(&core, &h).await {
                Ok(done) => core.lifecycle().note(&name, done),
                Err(e) => {
                    tracing::warn!(host = %name, error = %e, "the virtual media could not be taken away after the install");
                    core.lifecycle()
                        .note(&name, format!("its virtual media stay mounted: {e}"));
                }
            }
        });
    }
    status_of(app, host).await
}

/// The installer of host `name` failed (`POST /api/v2/hosts/<name>/failed`, from its answer
/// file's error hook), with a short reason. Needs the host's install token (not spent: a retry
/// may still finish and call `installed`).
pub async fn failed(app: &App, name: &str, body: Callback) -> Result<InstallStatus> {
    let (host, _) = check_token(app, name, body.token.as_deref()).await?;
    // Room for a disk list: the install-disk refusal names every disk it saw.
    let reason = sent_text(body.reason.as_deref().unwrap_or("no reason given"), 1000);
    app.lifecycle()
        .set(
            host.name.as_str(),
            Stage::Failed,
            format!("the installer reported a failure: {reason}"),
        )
        .await;
    status_of(app, host).await
}
