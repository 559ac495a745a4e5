//! Tauri commands: thin adapters from the window to the core. Errors reach the
//! page as `{error, code, details}`, the same shape the REST API uses.

use bootsmith_core::selector::SelectorInput;
use bootsmith_core::{
    aci, catalog::OsEntry, compute, deploy, hosts, images, isos, jobs, keys, networks, overview,
    server_groups, App, Problem,
};
use serde::Serialize;
use tauri::ipc::Channel;
use tauri::State;

/// What the window's commands share.
pub struct GuiState {
    /// The core.
    pub app: App,
    /// Where the embedded REST listener answers, or why it does not.
    pub listener: Result<String, String>,
}

/// An error as the page sees it.
#[derive(Debug, Serialize)]
pub struct CommandError {
    error: String,
    code: String,
    details: Vec<Problem>,
    ucs_code: Option<String>,
    fingerprint: Option<String>,
}

impl From<bootsmith_core::Error> for CommandError {
    fn from(e: bootsmith_core::Error) -> Self {
        CommandError {
            error: e.to_string(),
            code: e.code().to_owned(),
            details: e.details().to_vec(),
            ucs_code: e.ucs_code().map(str::to_owned),
            fingerprint: e.fingerprint().map(str::to_owned),
        }
    }
}

type CmdResult<T> = Result<T, CommandError>;

/// The overview plus where the REST API listens.
#[derive(Debug, Serialize)]
pub struct WindowOverview {
    #[serde(flatten)]
    overview: overview::Overview,
    listen_url: Option<String>,
    listen_error: Option<String>,
    version: &'static str,
}

#[tauri::command]
pub async fn overview(state: State<'_, GuiState>) -> CmdResult<WindowOverview> {
    Ok(WindowOverview {
        overview: overview::summary(&state.app).await?,
        listen_url: state.listener.clone().ok(),
        listen_error: state.listener.clone().err(),
        version: env!("CARGO_PKG_VERSION"),
    })
}

#[tauri::command]
pub fn catalog(state: State<'_, GuiState>) -> Vec<OsEntry> {
    state.app.catalog().entries().to_vec()
}

#[tauri::command]
pub async fn list_isos(state: State<'_, GuiState>) -> CmdResult<Vec<String>> {
    Ok(isos::list(&state.app).await?)
}

#[tauri::command]
pub async fn iso_map(state: State<'_, GuiState>) -> CmdResult<Vec<isos::IsoMapEntry>> {
    Ok(isos::map(&state.app).await?)
}

#[tauri::command]
pub async fn list_server_groups(
    state: State<'_, GuiState>,
) -> CmdResult<Vec<server_groups::ServerGroup>> {
    Ok(server_groups::list(&state.app).await?)
}

#[tauri::command]
pub async fn list_networks(state: State<'_, GuiState>) -> CmdResult<Vec<networks::NetworkGroup>> {
    Ok(networks::list(&state.app).await?)
}

#[tauri::command]
pub async fn list_hosts(state: State<'_, GuiState>) -> CmdResult<Vec<hosts::Host>> {
    Ok(hosts::list(&state.app).await?)
}

#[tauri::command]
pub async fn list_keys(state: State<'_, GuiState>) -> CmdResult<Vec<String>> {
    Ok(keys::list(&state.app).await?)
}

#[tauri::command]
pub async fn list_aci(state: State<'_, GuiState>) -> CmdResult<Vec<aci::AciInstance>> {
    Ok(aci::list(&state.app).await?)
}

#[tauri::command]
pub async fn api_token(state: State<'_, GuiState>) -> CmdResult<String> {
    Ok(bootsmith_core::auth::token(&state.app)
        .await?
        .expose()
        .to_owned())
}

#[tauri::command]
pub async fn server_inventory(
    state: State<'_, GuiState>,
    group: String,
) -> CmdResult<Vec<compute::ServerRecord>> {
    Ok(compute::inventory(&state.app, &group).await?)
}

#[tauri::command]
pub async fn server_templates(
    state: State<'_, GuiState>,
    group: String,
) -> CmdResult<Vec<compute::TemplateRecord>> {
    Ok(compute::templates(&state.app, &group).await?)
}

#[tauri::command]
pub async fn power(
    state: State<'_, GuiState>,
    group: String,
    action: String,
    servers: Option<SelectorInput>,
) -> CmdResult<compute::PowerStatus> {
    Ok(compute::power(&state.app, &group, &action, servers).await?)
}

#[tauri::command]
pub async fn power_status(
    state: State<'_, GuiState>,
    group: String,
    servers: Option<SelectorInput>,
) -> CmdResult<compute::PowerStatus> {
    Ok(compute::power_status(&state.app, &group, servers).await?)
}

#[tauri::command]
pub async fn disks(
    state: State<'_, GuiState>,
    group: String,
    servers: Option<SelectorInput>,
) -> CmdResult<compute::Disks> {
    Ok(compute::disks(&state.app, &group, servers).await?)
}

#[tauri::command]
pub async fn reset_disks(
    state: State<'_, GuiState>,
    group: String,
    servers: Option<SelectorInput>,
) -> CmdResult<compute::Disks> {
    Ok(compute::reset_disks(&state.app, &group, servers).await?)
}

#[tauri::command]
pub async fn fsm(
    state: State<'_, GuiState>,
    group: String,
    servers: Option<SelectorInput>,
) -> CmdResult<compute::FsmReport> {
    Ok(compute::fsm(&state.app, &group, servers).await?)
}

#[tauri::command]
pub async fn iso_details(state: State<'_, GuiState>) -> CmdResult<Vec<isos::IsoInfo>> {
    Ok(isos::inspect_files(&state.app).await?)
}

/// Start making install media for the named hosts (all when absent); the job's id.
/// Everything is checked first: a refusal lists every problem and nothing is written.
#[tauri::command]
pub async fn make_images(
    state: State<'_, GuiState>,
    hosts: Option<Vec<String>>,
) -> CmdResult<jobs::JobId> {
    Ok(images::start(&state.app, hosts).await?)
}

/// What deploying the group would create, modify, delete or leave alone; nothing is written.
#[tauri::command]
pub async fn deploy_plan(
    state: State<'_, GuiState>,
    group: String,
) -> CmdResult<deploy::DeployResult> {
    Ok(deploy::plan(&state.app, &group).await?)
}

/// Start deploying the group; the job's id. `follow` keeps the job on each profile until its
/// server is associated; `restart` power-cycles the servers once the writes are done.
#[tauri::command]
pub async fn deploy(
    state: State<'_, GuiState>,
    group: String,
    follow: Option<bool>,
    restart: Option<bool>,
) -> CmdResult<jobs::JobId> {
    let opts = deploy::DeployOptions {
        until: if follow.unwrap_or(false) {
            deploy::Until::Associated
        } else {
            deploy::Until::Written
        },
        restart: restart.unwrap_or(false),
    };
    Ok(deploy::start(&state.app, &group, opts).await?)
}

/// Start writing only the group's virtual-media policy (for existing profiles); the job's id.
#[tauri::command]
pub async fn deploy_vmedia(state: State<'_, GuiState>, group: String) -> CmdResult<jobs::JobId> {
    Ok(deploy::start_vmedia(&state.app, &group).await?)
}

/// Every background job kept in memory, most recent first, without histories.
#[tauri::command]
pub async fn jobs_list(state: State<'_, GuiState>) -> CmdResult<Vec<jobs::JobSummary>> {
    Ok(jobs::list(&state.app).await)
}

/// One job with its event history.
#[tauri::command]
pub async fn job_get(state: State<'_, GuiState>, id: String) -> CmdResult<jobs::Job> {
    Ok(jobs::get(&state.app, id.parse()?).await?)
}

/// Send the job's events with a seq above `after` (all when absent) to
/// `on_event`: the history, then live ones; resolves after `finished`.
#[tauri::command]
pub async fn job_watch(
    state: State<'_, GuiState>,
    id: String,
    after: Option<u64>,
    on_event: Channel<jobs::JobEventRecord>,
) -> CmdResult<()> {
    let mut watch = jobs::watch(&state.app, id.parse()?, after)?;
    while let Some(record) = watch.next().await {
        // The page went away (reload, closed view): stop following; the job runs on.
        if on_event.send(record).is_err() {
            break;
        }
    }
    Ok(())
}
