//! Tauri commands: thin adapters from the window to the core. Errors reach the
//! page as `{error, code, details}`, the same shape the REST API uses.

use bootsmith_core::error::{from_json, Shape};
use bootsmith_core::selector::SelectorInput;
use bootsmith_core::{
    aci, catalog::OsEntry, compute, deploy, hosts, images, iso_import, isos, jobs, keys, kubam,
    logs, networks, overview, server_groups, settings, App, Problem,
};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};
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

// Arguments that carry input are taken as JSON values and read by the core the way the REST
// API reads the same body, so a value of the wrong JSON type is the core's `invalid_body`
// error with a sentence, not Tauri's own message (which is a bare string, not an error object).

/// Arguments put together as the REST body they stand for (e.g. `{"svc_ip": …}`), read as it.
fn body<T: DeserializeOwned>(value: Value) -> Result<T, bootsmith_core::Error> {
    from_json(value, Shape::Object, "an object")
}

/// An argument that is a whole record (a network or server group), read as its REST body.
fn record<T: DeserializeOwned>(
    value: Option<Value>,
    expected: &str,
) -> Result<T, bootsmith_core::Error> {
    from_json(value.unwrap_or_default(), Shape::Object, expected)
}

const NETWORK: &str = "a network group {name, netmask, gateway, nameserver, ntpserver}";
const SERVER_GROUP: &str = "a server group {name, type, credentials: {ip, user, password}}";
const ACI: &str =
    "an ACI instance {name, credentials: {ip, user, password}, tenant_name, vrf_name, bridge_domain}";
const HOSTS: &str = "the full list of hosts [{name, ip, os, role, network_group}, …]";

/// The overview plus where the REST API listens.
#[derive(Debug, Serialize)]
pub struct WindowOverview {
    #[serde(flatten)]
    overview: overview::Overview,
    listen_url: Option<String>,
    listen_error: Option<String>,
    version: &'static str,
}

/// Record counts, what an install still needs, and where the REST API listens.
#[tauri::command]
pub async fn overview(state: State<'_, GuiState>) -> CmdResult<WindowOverview> {
    Ok(WindowOverview {
        overview: overview::summary(&state.app).await?,
        listen_url: state.listener.clone().ok(),
        listen_error: state.listener.clone().err(),
        version: env!("CARGO_PKG_VERSION"),
    })
}

/// The OS catalog: ids, roles, families.
#[tauri::command]
pub fn catalog(state: State<'_, GuiState>) -> Vec<OsEntry> {
    state.app.catalog().entries().to_vec()
}

/// Names of the ISO files the user put into svc.
#[tauri::command]
pub async fn list_isos(state: State<'_, GuiState>) -> CmdResult<Vec<String>> {
    Ok(isos::list(&state.app).await?)
}

/// The ISO → OS map.
#[tauri::command]
pub async fn iso_map(state: State<'_, GuiState>) -> CmdResult<Vec<isos::IsoMapEntry>> {
    Ok(isos::map(&state.app).await?)
}

/// Every server group; passwords come back encrypted.
#[tauri::command]
pub async fn list_server_groups(
    state: State<'_, GuiState>,
) -> CmdResult<Vec<server_groups::ServerGroup>> {
    Ok(server_groups::list(&state.app).await?)
}

/// Every network group.
#[tauri::command]
pub async fn list_networks(state: State<'_, GuiState>) -> CmdResult<Vec<networks::NetworkGroup>> {
    Ok(networks::list(&state.app).await?)
}

/// Every host, in submitted order.
#[tauri::command]
pub async fn list_hosts(state: State<'_, GuiState>) -> CmdResult<Vec<hosts::Host>> {
    Ok(hosts::list(&state.app).await?)
}

/// The SSH keys installed hosts accept, with each key's type, comment and fingerprint.
#[tauri::command]
pub async fn list_keys(state: State<'_, GuiState>) -> CmdResult<Vec<keys::KeyInfo>> {
    Ok(keys::details(&state.app).await?)
}

/// Every ACI instance.
#[tauri::command]
pub async fn list_aci(state: State<'_, GuiState>) -> CmdResult<Vec<aci::AciInstance>> {
    Ok(aci::list(&state.app).await?)
}

/// The REST API token (created on first use).
#[tauri::command]
pub async fn api_token(state: State<'_, GuiState>) -> CmdResult<String> {
    Ok(bootsmith_core::auth::token(&state.app)
        .await?
        .expose()
        .to_owned())
}

/// The group's servers as its manager reports them, with `selected`.
#[tauri::command]
pub async fn server_inventory(
    state: State<'_, GuiState>,
    group: String,
) -> CmdResult<Vec<compute::ServerRecord>> {
    Ok(compute::inventory(&state.app, &group).await?)
}

/// The manager's service-profile templates.
#[tauri::command]
pub async fn server_templates(
    state: State<'_, GuiState>,
    group: String,
) -> CmdResult<Vec<compute::TemplateRecord>> {
    Ok(compute::templates(&state.app, &group).await?)
}

/// Power action on the selected servers (all of the group when absent).
#[tauri::command]
pub async fn power(
    state: State<'_, GuiState>,
    group: String,
    action: String,
    servers: Option<SelectorInput>,
) -> CmdResult<compute::PowerStatus> {
    Ok(compute::power(&state.app, &group, &action, servers).await?)
}

/// Power state of the selected servers.
#[tauri::command]
pub async fn power_status(
    state: State<'_, GuiState>,
    group: String,
    servers: Option<SelectorInput>,
) -> CmdResult<compute::PowerStatus> {
    Ok(compute::power_status(&state.app, &group, servers).await?)
}

/// Local disks of the selected servers.
#[tauri::command]
pub async fn disks(
    state: State<'_, GuiState>,
    group: String,
    servers: Option<SelectorInput>,
) -> CmdResult<compute::Disks> {
    Ok(compute::disks(&state.app, &group, servers).await?)
}

/// Reset the local disks of the selected servers to unconfigured-good.
#[tauri::command]
pub async fn reset_disks(
    state: State<'_, GuiState>,
    group: String,
    servers: Option<SelectorInput>,
) -> CmdResult<compute::Disks> {
    Ok(compute::reset_disks(&state.app, &group, servers).await?)
}

/// FSM stages of the selected servers.
#[tauri::command]
pub async fn fsm(
    state: State<'_, GuiState>,
    group: String,
    servers: Option<SelectorInput>,
) -> CmdResult<compute::FsmReport> {
    Ok(compute::fsm(&state.app, &group, servers).await?)
}

/// The ISO files in svc, looked into: volume id, detected OS, boot entries, mapping.
#[tauri::command]
pub async fn iso_details(state: State<'_, GuiState>) -> CmdResult<Vec<isos::IsoInfo>> {
    Ok(isos::inspect_files(&state.app).await?)
}

/// Start bringing a local ISO file into svc (hard link, else a copy with byte progress), then
/// recognise and map it; the job's id. Checked first: only ISO 9660 files under a new name.
#[tauri::command]
pub async fn import_iso(
    state: State<'_, GuiState>,
    path: String,
    os: Option<String>,
) -> CmdResult<jobs::JobId> {
    Ok(iso_import::start(&state.app, iso_import::ImportInput { path, os }).await?)
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

/// How a deploy, virtual-media run or undeploy runs: `{dry_run, until, restart}`, as the
/// REST query; none means write, end when written, no restart.
fn deploy_request(value: Option<Value>) -> Result<deploy::DeployRequest, bootsmith_core::Error> {
    record(
        value.or(Some(json!({}))),
        "a deploy request {dry_run, until, restart}",
    )
}

/// Deploy the group: `{job}` to follow, or with `dry_run` `{plan}` and nothing written.
#[tauri::command]
pub async fn deploy(
    state: State<'_, GuiState>,
    group: String,
    request: Option<Value>,
) -> CmdResult<deploy::JobOrPlan> {
    Ok(deploy::deploy(&state.app, &group, deploy_request(request)?).await?)
}

/// Write only the group's virtual-media policy (for existing profiles): `{job}` or `{plan}`.
#[tauri::command]
pub async fn vmedia(
    state: State<'_, GuiState>,
    group: String,
    request: Option<Value>,
) -> CmdResult<deploy::JobOrPlan> {
    Ok(deploy::vmedia(&state.app, &group, deploy_request(request)?).await?)
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

/// The boot-server address, or null when it is not set yet.
#[tauri::command]
pub async fn svc_ip(state: State<'_, GuiState>) -> CmdResult<Option<String>> {
    Ok(settings::svc_ip(&state.app).await?.map(|ip| ip.to_string()))
}

/// Set the boot-server address (`svcIp`); the address as stored.
#[tauri::command]
pub async fn set_svc_ip(state: State<'_, GuiState>, svc_ip: Option<Value>) -> CmdResult<String> {
    Ok(
        settings::set_svc_ip(&state.app, body(json!({ "svc_ip": svc_ip }))?)
            .await?
            .to_string(),
    )
}

/// The default proxy of network groups that name none.
#[tauri::command]
pub async fn proxy(state: State<'_, GuiState>) -> CmdResult<Option<String>> {
    Ok(settings::proxy(&state.app).await?.map(|p| p.to_string()))
}

/// Set (or with "" clear) the default proxy; the proxy as stored.
#[tauri::command]
pub async fn set_proxy(
    state: State<'_, GuiState>,
    proxy: Option<Value>,
) -> CmdResult<Option<String>> {
    let stored = settings::set_proxy(&state.app, body(json!({ "proxy": proxy }))?).await?;
    Ok(stored.map(|p| p.to_string()))
}

/// The default UCS org of server groups that name none.
#[tauri::command]
pub async fn org(state: State<'_, GuiState>) -> CmdResult<Option<String>> {
    Ok(settings::org(&state.app).await?.map(|o| o.to_string()))
}

/// Set (or with "" clear) the default UCS org; the org as stored.
#[tauri::command]
pub async fn set_org(state: State<'_, GuiState>, org: Option<Value>) -> CmdResult<Option<String>> {
    let stored = settings::set_org(&state.app, body(json!({ "org": org }))?).await?;
    Ok(stored.map(|o| o.to_string()))
}

/// Replace the SSH key list; the keys as stored (duplicates dropped).
#[tauri::command]
pub async fn set_keys(state: State<'_, GuiState>, keys: Option<Value>) -> CmdResult<Vec<String>> {
    Ok(keys::replace(&state.app, body(json!({ "keys": keys }))?).await?)
}

/// Create a network group; the group as stored.
#[tauri::command]
pub async fn create_network(
    state: State<'_, GuiState>,
    network: Option<Value>,
) -> CmdResult<networks::NetworkGroup> {
    Ok(networks::create(&state.app, record(network, NETWORK)?).await?)
}

/// Update the network group with the record's `id`; a rename follows through to its hosts.
#[tauri::command]
pub async fn update_network(
    state: State<'_, GuiState>,
    network: Option<Value>,
) -> CmdResult<networks::NetworkGroup> {
    Ok(networks::update(&state.app, record(network, NETWORK)?).await?)
}

/// Delete a network group by name; refused while hosts use it. The deleted group.
#[tauri::command]
pub async fn delete_network(
    state: State<'_, GuiState>,
    name: Option<Value>,
) -> CmdResult<networks::NetworkGroup> {
    Ok(networks::delete(&state.app, body(json!({ "name": name }))?).await?)
}

/// Create a server group (logging in to check it unless `check_login` is false); the group as stored.
#[tauri::command]
pub async fn create_server_group(
    state: State<'_, GuiState>,
    group: Option<Value>,
) -> CmdResult<server_groups::ServerGroup> {
    Ok(server_groups::create(&state.app, record(group, SERVER_GROUP)?).await?)
}

/// Update the server group with the record's `id`; the encrypted password sent back keeps the stored one.
#[tauri::command]
pub async fn update_server_group(
    state: State<'_, GuiState>,
    group: Option<Value>,
) -> CmdResult<server_groups::ServerGroup> {
    Ok(server_groups::update(&state.app, record(group, SERVER_GROUP)?).await?)
}

/// Delete a server group by name; refused while hosts use it. The deleted group.
#[tauri::command]
pub async fn delete_server_group(
    state: State<'_, GuiState>,
    name: Option<Value>,
) -> CmdResult<server_groups::ServerGroup> {
    Ok(server_groups::delete(&state.app, body(json!({ "name": name }))?).await?)
}

/// Replace the servers selected in a group with `servers` (`{blades, rack_servers}`); the selection.
#[tauri::command]
pub async fn select_servers(
    state: State<'_, GuiState>,
    group: String,
    servers: Option<Value>,
) -> CmdResult<server_groups::Selection> {
    Ok(
        server_groups::select_servers(&state.app, &group, body(json!({ "servers": servers }))?)
            .await?,
    )
}

/// Create an ACI instance; the instance as stored (password encrypted).
#[tauri::command]
pub async fn create_aci(
    state: State<'_, GuiState>,
    aci: Option<Value>,
) -> CmdResult<aci::AciInstance> {
    Ok(aci::create(&state.app, record(aci, ACI)?).await?)
}

/// Update the ACI instance with the record's `id`; the encrypted password sent back keeps the stored one.
#[tauri::command]
pub async fn update_aci(
    state: State<'_, GuiState>,
    aci: Option<Value>,
) -> CmdResult<aci::AciInstance> {
    Ok(aci::update(&state.app, record(aci, ACI)?).await?)
}

/// Delete an ACI instance by name; the deleted instance.
#[tauri::command]
pub async fn delete_aci(
    state: State<'_, GuiState>,
    name: Option<Value>,
) -> CmdResult<aci::AciInstance> {
    Ok(aci::delete(&state.app, body(json!({ "name": name }))?).await?)
}

/// Replace the whole host list in one transaction (an invalid list changes nothing); the hosts as stored.
#[tauri::command]
pub async fn replace_hosts(
    state: State<'_, GuiState>,
    hosts: Option<Value>,
) -> CmdResult<Vec<hosts::Host>> {
    Ok(hosts::replace(
        &state.app,
        from_json(hosts.unwrap_or_default(), Shape::Records, HOSTS)?,
    )
    .await?)
}

/// Delete one host by name; the deleted host.
#[tauri::command]
pub async fn delete_host(
    state: State<'_, GuiState>,
    name: Option<Value>,
) -> CmdResult<hosts::Host> {
    Ok(hosts::delete(&state.app, body(json!({ "name": name }))?).await?)
}

/// Replace the whole ISO → OS map (`isoMap`: `[{file, os}]`); the map and warnings about unrecognised ISOs.
#[tauri::command]
pub async fn set_iso_map(
    state: State<'_, GuiState>,
    iso_map: Option<Value>,
) -> CmdResult<isos::MapResult> {
    Ok(isos::set_map(&state.app, body(json!({ "iso_map": iso_map }))?).await?)
}

/// Replace the REST API token with a new one (the old one stops working); the new token.
#[tauri::command]
pub async fn regenerate_token(state: State<'_, GuiState>) -> CmdResult<String> {
    Ok(bootsmith_core::auth::regenerate(&state.app)
        .await?
        .expose()
        .to_owned())
}

/// Remove what deploys of the group created: `{job}` to follow, or with `dry_run` `{plan}`.
#[tauri::command]
pub async fn undeploy(
    state: State<'_, GuiState>,
    group: String,
    request: Option<Value>,
) -> CmdResult<deploy::JobOrPlan> {
    Ok(deploy::undeploy(&state.app, &group, deploy_request(request)?).await?)
}

/// Import KUBAM's kubam.yaml (`yaml`, its text) with its `.kubam` key (`key`, optional): the
/// plan with `dryRun`, else the import (`skipExisting` keeps records Bootsmith has already).
#[tauri::command]
pub async fn import_kubam(
    state: State<'_, GuiState>,
    yaml: Option<Value>,
    key: Option<Value>,
    dry_run: Option<bool>,
    skip_existing: Option<bool>,
) -> CmdResult<kubam::ImportReport> {
    let opts = kubam::ImportOptions {
        dry_run: dry_run.unwrap_or(false),
        skip_existing: skip_existing.unwrap_or(false),
    };
    Ok(kubam::import(&state.app, body(json!({ "yaml": yaml, "key": key }))?, opts).await?)
}

/// A page of the log, newest first: lowest `level`, text `q`, `limit` lines, older than `before`.
#[tauri::command]
pub async fn read_logs(
    state: State<'_, GuiState>,
    level: Option<Value>,
    q: Option<Value>,
    limit: Option<Value>,
    before: Option<Value>,
) -> CmdResult<logs::LogPage> {
    let query = json!({ "level": level, "q": q, "limit": limit, "before": before });
    Ok(logs::read(&state.app, body(query)?).await?)
}

#[cfg(test)]
mod tests {
    use bootsmith_core::settings::SvcIpInput;

    use super::*;

    /// The page sees exactly this object for an error.
    fn as_page_sees_it(e: bootsmith_core::Error) -> Value {
        serde_json::to_value(CommandError::from(e)).unwrap()
    }

    #[test]
    fn arguments_of_the_wrong_json_type_are_the_cores_invalid_body_error() {
        let e = as_page_sees_it(body::<SvcIpInput>(json!({ "svc_ip": 10 })).unwrap_err());
        assert_eq!(e["code"], "invalid_body");
        assert_eq!(
            e["error"],
            "the body does not have the expected shape: invalid type: integer `10`, expected a string"
        );
        assert_eq!(e["details"], json!([]));

        let e = record::<networks::NetworkInput>(Some(json!(["mgmt"])), NETWORK).unwrap_err();
        assert_eq!(e.code(), "invalid_body");
        assert!(
            e.to_string().ends_with(&format!("expected {NETWORK}")),
            "{e}"
        );
        let e = record::<server_groups::ServerGroupInput>(None, SERVER_GROUP).unwrap_err();
        assert_eq!(e.code(), "invalid_body");
        let e =
            from_json::<Vec<hosts::HostInput>>(json!({"name": "kube01"}), Shape::Records, HOSTS)
                .unwrap_err();
        assert!(e.to_string().ends_with(&format!("expected {HOSTS}")), "{e}");
        let e = body::<logs::LogQuery>(json!({ "level": null, "limit": "many" })).unwrap_err();
        assert_eq!(e.code(), "invalid_body");
    }

    #[test]
    fn absent_arguments_are_left_to_the_cores_own_checks() {
        // A missing or null argument reads as an absent field, so the core names it as required.
        let input = body::<SvcIpInput>(json!({ "svc_ip": None::<Value> })).unwrap();
        assert!(input.svc_ip.is_none());
        let q = body::<logs::LogQuery>(
            json!({ "level": "warn", "q": null, "limit": 5, "before": null }),
        )
        .unwrap();
        assert_eq!(
            (q.level.as_deref(), q.q, q.limit),
            (Some("warn"), None, Some(5))
        );
    }
}
