//! Tauri commands: thin adapters from the window to the core, declared once each in the
//! [`commands!`] table below. A command is named after the core function it calls
//! (`networks::list` → `networks_list`), the table also makes the handler list the window
//! registers, so adding an action here is one entry. Errors reach the page as the core's
//! one error body, the shape the REST API answers with.

use bootsmith_core::bodies::{self, Body};
use bootsmith_core::error::{from_json, ErrorBody, Shape};
use bootsmith_core::selector::SelectorInput;
use bootsmith_core::{
    aci, auth, catalog::OsEntry, compute, deploy, hosts, images, iso_import, isos, jobs, keys,
    kubam, logs, networks, overview, server_groups, settings, App,
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

/// An error as the page sees it: the one error body the REST API answers with, with
/// `details` always a list (the page reads it without checking).
#[derive(Debug)]
pub struct CommandError(ErrorBody);

impl From<bootsmith_core::Error> for CommandError {
    fn from(e: bootsmith_core::Error) -> Self {
        CommandError(ErrorBody::from(&e))
    }
}

impl Serialize for CommandError {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut body = serde_json::to_value(&self.0).map_err(serde::ser::Error::custom)?;
        if let Some(map) = body.as_object_mut() {
            map.entry("details").or_insert_with(|| json!([]));
        }
        body.serialize(s)
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
fn record<T: Body>(value: Option<Value>) -> Result<T, bootsmith_core::Error> {
    bodies::read(value.unwrap_or_default())
}

/// The overview plus where the REST API listens.
#[derive(Debug, Serialize)]
pub struct WindowOverview {
    #[serde(flatten)]
    overview: overview::Overview,
    listen_url: Option<String>,
    listen_error: Option<String>,
    version: &'static str,
}

/// Declare window commands: `module::function(app, args…) -> Answer` calls the core function
/// with the same arguments; `=> { … }` adapts them (the block evaluates to the core's
/// `Result<Answer>`). `window: …` first lists hand-written commands of the window only.
macro_rules! commands {
    (
        window: $($extra:ident),* ;
        $( $(#[$doc:meta])* $m:ident :: $f:ident ( $app:ident $(, $arg:ident : $ty:ty)* ) -> $ret:ty $(=> $body:block)? ; )*
    ) => {
        paste::paste! {
            $(
                $(#[$doc])*
                #[tauri::command]
                pub async fn [<$m _ $f>](
                    state: State<'_, GuiState>,
                    $($arg: $ty),*
                ) -> CmdResult<$ret> {
                    let $app = &state.app;
                    let answer: Result<$ret, bootsmith_core::Error> =
                        commands!(@call $m $f $app ($($arg),*) $($body)?);
                    Ok(answer?)
                }
            )*

            /// Every command of the window, for `invoke_handler`.
            pub fn handlers<R: tauri::Runtime>() -> impl Fn(tauri::ipc::Invoke<R>) -> bool + Send + Sync + 'static {
                tauri::generate_handler![$([<$m _ $f>],)* $($extra),*]
            }
        }
    };
    (@call $m:ident $f:ident $app:ident ($($arg:ident),*)) => {
        $m::$f($app $(, $arg)*).await
    };
    (@call $m:ident $f:ident $app:ident ($($arg:ident),*) $body:block) => {
        async { $body }.await
    };
}

commands! {
    window: overview, job_watch;

    /// Every ACI instance.
    aci::list(app) -> Vec<aci::AciInstance>;
    /// Create an ACI instance; the instance as stored (password encrypted).
    aci::create(app, aci: Option<Value>) -> aci::AciInstance => { aci::create(app, record(aci)?).await };
    /// Update the ACI instance with the record's `id`; the encrypted password sent back keeps the stored one.
    aci::update(app, aci: Option<Value>) -> aci::AciInstance => { aci::update(app, record(aci)?).await };
    /// Delete an ACI instance by name; the deleted instance.
    aci::delete(app, name: Option<Value>) -> aci::AciInstance => { aci::delete(app, body(json!({ "name": name }))?).await };

    /// The REST API token (created on first use).
    auth::token(app) -> String => { Ok(auth::token(app).await?.expose().to_owned()) };
    /// Replace the REST API token with a new one (the old one stops working); the new token.
    auth::regenerate(app) -> String => { Ok(auth::regenerate(app).await?.expose().to_owned()) };

    /// The OS catalog: ids, roles, families.
    catalog::entries(app) -> Vec<OsEntry> => { Ok(app.catalog().entries().to_vec()) };

    /// The group's servers as its manager reports them, with `selected`.
    compute::inventory(app, group: String) -> Vec<compute::ServerRecord> => { compute::inventory(app, &group).await };
    /// The manager's service-profile templates.
    compute::templates(app, group: String) -> Vec<compute::TemplateRecord> => { compute::templates(app, &group).await };
    /// Power action on the selected servers (all of the group when absent).
    compute::power(app, group: String, action: String, servers: Option<SelectorInput>) -> compute::PowerStatus => {
        compute::power(app, &group, &action, servers).await
    };
    /// Power state of the selected servers.
    compute::power_status(app, group: String, servers: Option<SelectorInput>) -> compute::PowerStatus => {
        compute::power_status(app, &group, servers).await
    };
    /// Local disks of the selected servers.
    compute::disks(app, group: String, servers: Option<SelectorInput>) -> compute::Disks => {
        compute::disks(app, &group, servers).await
    };
    /// Reset the local disks of the selected servers to unconfigured-good.
    compute::reset_disks(app, group: String, servers: Option<SelectorInput>) -> compute::Disks => {
        compute::reset_disks(app, &group, servers).await
    };
    /// FSM stages of the selected servers.
    compute::fsm(app, group: String, servers: Option<SelectorInput>) -> compute::FsmReport => {
        compute::fsm(app, &group, servers).await
    };

    /// Deploy the group: `{job}` to follow, or with `dry_run` `{plan}` and nothing written.
    deploy::deploy(app, group: String, request: Option<Value>) -> deploy::JobOrPlan => {
        deploy::deploy(app, &group, deploy_request(request)?).await
    };
    /// Write only the group's virtual-media policy (for existing profiles): `{job}` or `{plan}`.
    deploy::vmedia(app, group: String, request: Option<Value>) -> deploy::JobOrPlan => {
        deploy::vmedia(app, &group, deploy_request(request)?).await
    };
    /// Remove what deploys of the group created: `{job}` to follow, or with `dry_run` `{plan}`.
    deploy::undeploy(app, group: String, request: Option<Value>) -> deploy::JobOrPlan => {
        deploy::undeploy(app, &group, deploy_request(request)?).await
    };

    /// Every host, in submitted order.
    hosts::list(app) -> Vec<hosts::Host>;
    /// Replace the whole host list in one transaction (an invalid list changes nothing); the hosts as stored.
    hosts::replace(app, hosts: Option<Value>) -> Vec<hosts::Host> => {
        hosts::replace(app, bodies::read(hosts.unwrap_or_default())?).await
    };
    /// Delete one host by name; the deleted host.
    hosts::delete(app, name: Option<Value>) -> hosts::Host => { hosts::delete(app, body(json!({ "name": name }))?).await };

    /// Start making install media for the named hosts (all when absent); the job's id.
    /// Everything is checked first: a refusal lists every problem and nothing is written.
    images::start(app, hosts: Option<Vec<String>>) -> jobs::JobId;

    /// Start bringing a local ISO file into svc (hard link, else a copy with byte progress), then
    /// recognise and map it; the job's id. Checked first: only ISO 9660 files under a new name.
    iso_import::start(app, path: String, os: Option<String>) -> jobs::JobId => {
        iso_import::start(app, iso_import::ImportInput { path, os }).await
    };

    /// Names of the ISO files the user put into svc.
    isos::list(app) -> Vec<String>;
    /// The ISO files in svc, looked into: volume id, detected OS, boot entries, mapping.
    isos::inspect_files(app) -> Vec<isos::IsoInfo>;
    /// The ISO → OS map.
    isos::map(app) -> Vec<isos::IsoMapEntry>;
    /// Replace the whole ISO → OS map (`isoMap`: `[{file, os}]`); the map and warnings about unrecognised ISOs.
    isos::set_map(app, iso_map: Option<Value>) -> isos::MapResult => {
        isos::set_map(app, body(json!({ "iso_map": iso_map }))?).await
    };

    /// Every background job kept in memory, most recent first, without histories.
    jobs::list(app) -> Vec<jobs::JobSummary> => { Ok(jobs::list(app).await) };
    /// One job with its event history.
    jobs::get(app, id: String) -> jobs::Job => { jobs::get(app, id.parse()?).await };

    /// The SSH keys installed hosts accept, with each key's type, comment and fingerprint.
    keys::details(app) -> Vec<keys::KeyInfo>;
    /// Replace the SSH key list; the keys as stored (duplicates dropped).
    keys::replace(app, keys: Option<Value>) -> Vec<String> => { keys::replace(app, body(json!({ "keys": keys }))?).await };

    /// Import KUBAM's kubam.yaml (`yaml`, its text) with its `.kubam` key (`key`, optional): the
    /// plan with `dryRun`, else the import (`skipExisting` keeps records Bootsmith has already).
    kubam::import(app, yaml: Option<Value>, key: Option<Value>, dry_run: Option<bool>, skip_existing: Option<bool>) -> kubam::ImportReport => {
        let opts = kubam::ImportOptions {
            dry_run: dry_run.unwrap_or(false),
            skip_existing: skip_existing.unwrap_or(false),
        };
        kubam::import(app, body(json!({ "yaml": yaml, "key": key }))?, opts).await
    };

    /// A page of the log, newest first: lowest `level`, text `q`, `limit` lines, older than `before`.
    logs::read(app, level: Option<Value>, q: Option<Value>, limit: Option<Value>, before: Option<Value>) -> logs::LogPage => {
        logs::read(app, body(json!({ "level": level, "q": q, "limit": limit, "before": before }))?).await
    };

    /// Every network group.
    networks::list(app) -> Vec<networks::NetworkGroup>;
    /// Create a network group; the group as stored.
    networks::create(app, network: Option<Value>) -> networks::NetworkGroup => { networks::create(app, record(network)?).await };
    /// Update the network group with the record's `id`; a rename follows through to its hosts.
    networks::update(app, network: Option<Value>) -> networks::NetworkGroup => { networks::update(app, record(network)?).await };
    /// Delete a network group by name; refused while hosts use it. The deleted group.
    networks::delete(app, name: Option<Value>) -> networks::NetworkGroup => {
        networks::delete(app, body(json!({ "name": name }))?).await
    };

    /// Every server group; passwords come back encrypted.
    server_groups::list(app) -> Vec<server_groups::ServerGroup>;
    /// One server group, with what its manager can do.
    server_groups::get(app, group: String) -> server_groups::ServerGroup => { server_groups::get(app, &group).await };
    /// Create a server group (logging in to check it unless `check_login` is false); the group as stored.
    server_groups::create(app, group: Option<Value>) -> server_groups::ServerGroup => {
        server_groups::create(app, record(group)?).await
    };
    /// Update the server group with the record's `id`; the encrypted password sent back keeps the stored one.
    server_groups::update(app, group: Option<Value>) -> server_groups::ServerGroup => {
        server_groups::update(app, record(group)?).await
    };
    /// Delete a server group by name; refused while hosts use it. The deleted group.
    server_groups::delete(app, name: Option<Value>) -> server_groups::ServerGroup => {
        server_groups::delete(app, body(json!({ "name": name }))?).await
    };
    /// Replace the servers selected in a group with `servers` (`{blades, rack_servers}`); the selection.
    server_groups::select_servers(app, group: String, servers: Option<Value>) -> server_groups::Selection => {
        server_groups::select_servers(app, &group, body(json!({ "servers": servers }))?).await
    };

    /// The boot-server address, or null when it is not set yet.
    settings::svc_ip(app) -> Option<String> => { Ok(settings::svc_ip(app).await?.map(|ip| ip.to_string())) };
    /// Set the boot-server address (`svcIp`); the address as stored.
    settings::set_svc_ip(app, svc_ip: Option<Value>) -> String => {
        Ok(settings::set_svc_ip(app, body(json!({ "svc_ip": svc_ip }))?).await?.to_string())
    };
    /// The default proxy of network groups that name none.
    settings::proxy(app) -> Option<String> => { Ok(settings::proxy(app).await?.map(|p| p.to_string())) };
    /// Set (or with "" clear) the default proxy; the proxy as stored.
    settings::set_proxy(app, proxy: Option<Value>) -> Option<String> => {
        Ok(settings::set_proxy(app, body(json!({ "proxy": proxy }))?).await?.map(|p| p.to_string()))
    };
    /// The default UCS org of server groups that name none.
    settings::org(app) -> Option<String> => { Ok(settings::org(app).await?.map(|o| o.to_string())) };
    /// Set (or with "" clear) the default UCS org; the org as stored.
    settings::set_org(app, org: Option<Value>) -> Option<String> => {
        Ok(settings::set_org(app, body(json!({ "org": org }))?).await?.map(|o| o.to_string()))
    };

}

/// How a deploy, virtual-media run or undeploy runs: `{dry_run, until, restart}`, as the
/// REST query; none means write, end when written, no restart.
fn deploy_request(value: Option<Value>) -> Result<deploy::DeployRequest, bootsmith_core::Error> {
    record(value.or(Some(json!({}))))
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

        let e = record::<networks::NetworkInput>(Some(json!(["mgmt"]))).unwrap_err();
        assert_eq!(e.code(), "invalid_body");
        assert!(
            e.to_string().ends_with(&format!(
                "expected {}",
                <networks::NetworkInput as Body>::EXPECTED
            )),
            "{e}"
        );
        let e = record::<server_groups::ServerGroupInput>(None).unwrap_err();
        assert_eq!(e.code(), "invalid_body");
        let e = bodies::read::<Vec<hosts::HostInput>>(json!({"name": "kube01"})).unwrap_err();
        assert!(
            e.to_string().ends_with(&format!(
                "expected {}",
                <Vec<hosts::HostInput> as Body>::EXPECTED
            )),
            "{e}"
        );
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
