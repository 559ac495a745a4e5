//! Every action that both doors offer (the REST API and the app window), declared once, and
//! the front end that reads that table for every door.
//!
//! [`for_each_action!`] hands the table to [`actions!`], the front end, which parses its
//! grammar once and hands a *door* (a `macro_rules!` of the door's crate) every entry in one
//! plain shape (below). The doors:
//! - REST (`crates/api/src/routes/actions.rs`): an axum handler with its OpenAPI entry,
//!   registered under its path (and aliases), and beside them the manifest
//!   `ui/src/lib/actions.json` (its types in `crates/api/src/actions.rs`), from which the
//!   page's one generic call in `ui/src/lib/api.ts` reaches each command over REST;
//! - the window (`src-tauri/src/commands.rs`): a Tauri command named `<module>_<function>`
//!   after the core function it calls, and the handler list the window registers.
//!
//! Adding an action is one entry here (and its name in `ui/src/lib/api.ts`'s facade). The
//! table names the core's functions and the REST door's answer types as tokens; they resolve
//! where a door expands it, which is why this crate depends on nothing. Where the core's answer
//! is structured and the seed fixes words for it, the entry answers a `wire::` type
//! (`bootsmith_api::wire`, made `From` the core's) that both doors name, so both answer the
//! same words. An entry reads:
//!
//! ```text
//! /// What it does: the OpenAPI summary (first line) and description, and the command's doc.
//! #[rest(<method>, path = "<path>", <more utoipa::path arguments: tag, operation_id, params, responses…>)]
//! #[alias(<method>, "<another path>", "<operation id>")]   // none or more: the same handler
//! module::function(app, path(a: String, …), body b: T, maybe_body m: T, query q: Q) -> Answer
//!     = { <the call, when it is not `module::function(app, &a, …, b, m, q)`> }
//!     => <how REST answers, when not with the answer as JSON>;
//! ```
//!
//! Refusals several entries answer alike are named sets (`refusals::SelectorErrors`,
//! `refusals::GroupErrors`, … in `crates/api/src/routes/refusals.rs`) among an entry's
//! `responses`, so that each sentence is written once.
//!
//! The entry is named after the function it calls: the command `module_function` calls
//! `module::function`, so one name runs from the Rust function to the page. The inputs, each
//! optional and in this order, are read the same way by both doors:
//! - `path(a: String, …)`: REST path segments, in the path's order; string arguments of the command.
//! - `body b: T`: the REST JSON body (required); the command's argument `b`, read as that body.
//! - `maybe_body m: T`: an optional body; the core gets `Option<T>`.
//! - `query q: Q`: the REST query string; the command's argument `q`, an object of the same fields.
//!
//! How REST answers (the window answers the core's answer as it is):
//! - `=> |answer| <expr>`: the core's answer wrapped in the seed's shape (a `status` sentence,
//!   201 for creations);
//! - `=> under key |answer| <expr>`: the same, with the core's answer under `key` (a list under
//!   its name): the page unwraps `key` in a browser;
//! - `=> cached under key |state| <expr>`: from a cache the REST door keeps, calling the core
//!   only when the store changed;
//! - `=> as job`: the core starts a job; REST waits for its result unless `?wait=false`, when
//!   it answers `202 {"job": id}`;
//! - `=> as job_or_plan`: a deploy: the plan of a dry run, else a job as above.
//!
//! Entries whose call or answer differ have a line saying why. What only one door has stays
//! outside the entries: the window's own commands are listed under `window` with their REST
//! route when REST answers the same under other terms (`rest(<method>, "<path>")`), else with
//! why a browser cannot have them (`app_only("…")`); REST's file upload, event stream, status
//! page and the seed's older paths whose inputs differ (`/api/v1/catalog`, `/api/v1/isos/boot`,
//! `/api/v2/fsm` with the group in the body) are REST's own.
//!
//! The shape a door receives, every field present and each value one token tree, in this
//! order. `inputs` lists the inputs one by one, each with its kind, for a door that takes each
//! as an argument of its own (the window's); what only REST reads is last, under `rest`,
//! among it the same inputs by kind, the path's segments together, as one extractor takes them:
//!
//! ```text
//! window [ { command <name>, rest [<method> "<path>"]?, app_only ["<why>"]? } … ]
//! {
//!     name [<module> <function>],
//!     docs [#[doc = "…"] …],
//!     app <the core's name in the call>,
//!     ret [<Answer>],
//!     call { <the call, an expression of `Result<Answer>` once the inputs are bound> },
//!     inputs [(path <a>: <T>) … (body <b>: <T>)? (maybe_body <m>: <T>)? (query <q>: <Q>)?],
//!     rest {
//!         path [(<a>: <T>, …)?],
//!         body [<b>: <T>?],
//!         maybe_body [<m>: <T>?],
//!         query [<q>: <Q>?],
//!         route [<method> "<path>"],
//!         api [<the other utoipa::path arguments>],
//!         aliases [[<method> "<path>" "<operation id>"] …],
//!         job [job | job_or_plan]?,
//!         answer [] | [wrap [<key>?] |<answer>| <expr>] | [cached [<key>] |<state>| <expr>],
//!     },
//! } …
//! ```

/// Parse the table's grammar (see the crate's documentation) and hand `$door!` every entry in
/// the one shape doors read. A table that does not read so is one error naming the grammar.
#[macro_export]
macro_rules! actions {
    (
        $door:ident
        window {
            $( $cmd:ident : $(rest($wm:ident, $wpath:literal))? $(app_only($why:literal))? ; )*
        }
        $(
            $(#[doc = $doc:literal])*
            #[rest($method:ident, path = $path:literal $(, $($api:tt)*)?)]
            $(#[alias($am:ident, $apath:literal, $aid:literal)])*
            $m:ident :: $f:ident ( $app:ident
                $(, path($($p:ident : $pty:ty),+))?
                $(, body $b:ident : $bty:ty)?
                $(, maybe_body $mb:ident : $mbty:ty)?
                $(, query $q:ident : $qty:ty)?
            ) -> $ret:ty
            $(= $call:block)?
            $(=> $(under $key:ident)? | $out:ident | $answer:expr)?
            $(=> cached under $ckey:ident | $cs:ident | $cached:expr)?
            $(=> as $job:ident)?
            ;
        )*
    ) => {
        $door! {
            window [$( { command $cmd, rest [$($wm $wpath)?], app_only [$($why)?] } )*]
            $( {
                name [$m $f],
                docs [$(#[doc = $doc])*],
                app $app,
                ret [$ret],
                call {
                    $crate::call!([$($call)?] $m::$f($app $($(, &$p)+)? $(, $b)? $(, $mb)? $(, $q)?))
                },
                inputs [$($((path $p : $pty))+)? $((body $b : $bty))? $((maybe_body $mb : $mbty))? $((query $q : $qty))?],
                rest {
                    path [$(($($p : $pty),+))?],
                    body [$($b : $bty)?],
                    maybe_body [$($mb : $mbty)?],
                    query [$($q : $qty)?],
                    route [$method $path],
                    api [$($($api)*)?],
                    aliases [$([$am $apath $aid])*],
                    job [$($job)?],
                    answer [$(wrap [$($key)?] |$out| $answer)? $(cached [$ckey] |$cs| $cached)?],
                },
            } )*
        }
    };
    ($($table:tt)*) => {
        compile_error!(
            "the table of actions does not read as `window { command: rest(method, \"path\") | app_only(\"why\"); … }` \
             then entries `#[rest(method, path = \"…\", …)] #[alias(…)]* module::function(app, path(a: T, …), \
             body b: T, maybe_body m: T, query q: Q) -> Answer = { call }? => answer?;` with the inputs in this order \
             (see the bootsmith_actions documentation)"
        );
    };
}

/// An entry's call: the table's own block when it has one, else `module::function(…)`.
#[doc(hidden)]
#[macro_export]
macro_rules! call {
    ([] $($default:tt)*) => { $($default)*.await };
    ([$call:block] $($default:tt)*) => { async $call.await };
}

/// Hand the table of actions to `$door!`, through [`actions!`]: `for_each_action!(rest_door)`.
#[macro_export]
macro_rules! for_each_action {
    ($door:ident) => {
        $crate::actions! { $door
            window {
                // The window's overview adds where the REST API listens.
                overview_summary: rest(get, "/api/v2/overview");
                about: rest(get, "/");
                auth_token: app_only("the REST API does not hand out its token: a browser is given it (`bootsmith token`)");
                auth_regenerate: app_only("the token is replaced in the window or by `bootsmith token --regenerate`, not over REST");
                jobs_watch: app_only("a Tauri channel; in a browser the page follows GET /api/v2/jobs/{id}/events (SSE) instead");
                console_open: app_only("opens the console page in the desktop's browser; a browser page opens it itself (window.open)");
                choose_isos: app_only("the desktop's file chooser, sized to the screen; a browser page uploads files instead");
            }


            /// List ACI instances; passwords come back encrypted.
            #[rest(get, path = "/api/v2/aci", tag = "aci", operation_id = "list_aci",
                responses((status = 200, body = answers::AciList)))]
            aci::list(app) -> Vec<aci::AciInstance>
                => under aci |aci| Reply(answers::AciList { aci });

            /// Create an ACI instance.
            #[rest(post, path = "/api/v2/aci", tag = "aci", operation_id = "create_aci", request_body = aci::AciInput,
                responses((status = 201, body = answers::Changed<aci::AciInstance>, description = "The instance, plus a status sentence"),
                          (status = 400, body = ErrorBody, description = "Every invalid field (with `details`)"),
                          refusals::NameTaken))]
            aci::create(app, body aci: aci::AciInput) -> aci::AciInstance
                => |a| answers::created(format!("new ACI group {} created!", a.name), a);

            /// Update the ACI instance with `id`.
            #[rest(put, path = "/api/v2/aci", tag = "aci", operation_id = "update_aci", request_body = aci::AciInput,
                responses((status = 200, body = answers::Changed<aci::AciInstance>, description = "The instance, plus a status sentence"),
                          (status = 400, body = ErrorBody, description = "No or a malformed `id` (`missing_id`, `invalid_id`), or every invalid field"),
                          (status = 404, body = ErrorBody, description = "No instance has this id"),
                          refusals::NameTaken))]
            aci::update(app, body aci: aci::AciInput) -> aci::AciInstance
                => |a| answers::changed(format!("ACI group {} updated!", a.name), a);

            /// Delete an ACI instance by `id` or `name`.
            #[rest(delete, path = "/api/v2/aci", tag = "aci", operation_id = "delete_aci", request_body = aci::AciRef,
                responses((status = 200, body = answers::Changed<aci::AciInstance>, description = "The deleted instance, plus a status sentence"),
                          refusals::NoIdOrName,
                          (status = 404, body = ErrorBody, description = "No such instance (`aci_not_found`)")))]
            aci::delete(app, body which: aci::AciRef) -> aci::AciInstance
                => |a| answers::changed(format!("ACI group {} deleted", a.name), a);

            /// The catalog with family, boot mode, UCS code and ISO marker of each OS.
            #[rest(get, path = "/api/v2/catalog", tag = "catalog", operation_id = "get_catalog_details",
                responses((status = 200, body = catalog::CatalogDetails)))]
            catalog::details(app) -> catalog::CatalogDetails
                // The catalog is loaded at start: nothing to wait for, nothing to fail.
                = { Ok(catalog::details(&app.catalog())) };

            /// The catalog packs of `svc/catalog.d/`: each with its version, the OS ids it adds or
            /// replaces, its templates, and whether it is applied (else why it was refused).
            #[rest(get, path = "/api/v2/catalog/packs", tag = "catalog", operation_id = "list_catalog_packs",
                responses((status = 200, body = packs::PackList)))]
            packs::list(app) -> packs::PackList;

            /// Add a catalog pack (or replace the pack of its name): its entries, and templates for
            /// them, checked whole against the catalog (known family, no id clash without
            /// `override`, each template renders for a sample host of each role, kickstarts pass
            /// ksvalidator where one is configured), then stored as `svc/catalog.d/<name>.json` and
            /// usable at once, without a restart.
            #[rest(post, path = "/api/v2/catalog/packs", tag = "catalog", operation_id = "add_catalog_pack", request_body = packs::PackBody,
                responses((status = 201, body = answers::Changed<packs::PackAdded>, description = "The pack as applied, how its kickstarts were checked, and a status sentence"),
                          (status = 400, body = ErrorBody, description = "The pack breaks a rule (`invalid_pack`, naming the pack, the entry and the rule); nothing of it is applied")))]
            packs::add(app, body pack: packs::PackBody) -> packs::PackAdded
                => |p| answers::created(format!("catalog pack {} version {} added: {}", p.pack.name, p.pack.version.clone().unwrap_or_default(), p.pack.entries.join(", ")), p);

            /// Remove a catalog pack: its file, the templates beside it, and its entries (a
            /// built-in entry it replaced is back).
            #[rest(delete, path = "/api/v2/catalog/packs/{name}", tag = "catalog", operation_id = "remove_catalog_pack",
                params(("name" = String, Path, description = "The pack's name")),
                responses((status = 200, body = answers::Changed<packs::PackInfo>, description = "The removed pack, plus a status sentence"),
                          (status = 404, body = ErrorBody, description = "No such pack (`pack_not_found`)"),
                          (status = 409, body = ErrorBody, description = "A host or an ISO mapping uses an OS id only this pack has, or another pack builds on it (`pack_in_use`, naming them)")))]
            packs::remove(app, path(name: String)) -> packs::PackInfo
                => |p| answers::changed(format!("catalog pack {} removed", p.name), p);

            /// Read `svc/catalog.d/` again and apply its packs, without a restart: each pack that
            /// breaks a rule is left out and listed with the reason.
            #[rest(post, path = "/api/v2/catalog/reload", tag = "catalog", operation_id = "reload_catalog",
                responses((status = 200, body = packs::PackList)))]
            packs::reload(app) -> packs::PackList;

            /// Every blade and rack server of the group's manager, with `selected` for the group's pool.
            #[rest(get, path = "/api/v2/servers/{server_group}/servers", tag = "servers", operation_id = "list_servers",
                params(("server_group" = String, Path, description = "Server group name")),
                responses((status = 200, body = answers::Servers),
                          refusals::GroupErrors))]
            compute::inventory(app, path(group: String)) -> Vec<compute::ServerRecord>
                => under servers |servers| Reply(answers::Servers { servers });

            /// Service-profile templates of the group (name, dn, type).
            #[rest(get, path = "/api/v2/servers/{server_group}/templates", tag = "servers", operation_id = "list_templates",
                params(("server_group" = String, Path, description = "Server group name")),
                responses((status = 200, body = answers::Templates),
                          refusals::GroupErrors))]
            compute::templates(app, path(group: String)) -> Vec<compute::TemplateRecord>
                => under templates |templates| Reply(answers::Templates { templates });

            /// The page where a server's KVM console opens in a browser: UCS Manager's KVM
            /// launcher, the IMC's web interface, or the BMC's (Redfish). The URL carries no
            /// credential; the page asks the person to sign in.
            #[rest(get, path = "/api/v2/servers/{server_group}/console", tag = "servers", operation_id = "server_console",
                params(("server_group" = String, Path, description = "Server group name"), compute::ConsoleQuery),
                responses((status = 200, body = compute::ConsoleLink),
                          (status = 400, body = ErrorBody, description = "No `server` (`missing_server`) or not a server id (`invalid_server`)"),
                          (status = 404, body = ErrorBody, description = "No such server group (`server_group_not_found`) or server (`server_not_found`)"),
                          (status = 422, body = ErrorBody, description = "The manager has no console page Bootsmith can open (`not_supported`: UCS Central)")))]
            compute::console(app, path(group: String), query which: compute::ConsoleQuery) -> compute::ConsoleLink;

            /// Power action on the selected servers (all when no selector): `on`, `off`, `hardreset`, `softreset`.
            #[rest(put, path = "/api/v2/servers/{server_group}/power/{action}", tag = "power", operation_id = "power_servers",
                request_body(content = Option<compute::SelectorBody>, description = WHICH_SERVERS),
                params(("server_group" = String, Path, description = "Server group name"), ("action" = inline(bootsmith_core::managers::PowerAction), Path, description = "The power action")),
                responses((status = 200, body = answers::Status),
                          (status = 400, body = ErrorBody, description = "An unknown action (`unknown_power_action`), an invalid selector (`invalid_selection`), no servers to act on (`no_servers`), or the manager refused the request as invalid"),
                          refusals::SelectionNotFound,
                          (status = 409, body = ErrorBody, description = "Powering off or restarting a server that runs a service profile Bootsmith did not create, without `force` (`server_in_use`, naming each with its profile and power state); or a selected server is in a domain its UCS Central cannot reach now (`domain_unreachable`, naming the servers and when the domain was last read; nothing is sent)")))]
            compute::power(app, path(group: String, action: String), maybe_body which: compute::SelectorBody) -> wire::PowerLines
                // The core answers each server's power; both doors word it as the seed's lines.
                = { compute::power(app, &group, &action, which).await.map(wire::PowerLines::from) }
                => under status |status| Reply(answers::Status { status });

            /// Power state of the selected servers (all when no selector).
            #[rest(get, path = "/api/v2/servers/{server_group}/powerstat", tag = "power", operation_id = "get_power_status",
                request_body(content = Option<compute::SelectorBody>, description = WHICH_SERVERS),
                params(("server_group" = String, Path, description = "Server group name")),
                responses((status = 200, body = answers::Status),
                          refusals::SelectorErrors))]
            compute::power_status(app, path(group: String), maybe_body which: compute::SelectorBody) -> wire::PowerLines
                // As above: the seed's lines at both doors.
                = { compute::power_status(app, &group, which).await.map(wire::PowerLines::from) }
                => under status |status| Reply(answers::Status { status });

            /// Local disks of the selected servers.
            #[rest(get, path = "/api/v2/servers/{server_group}/disks", tag = "disks", operation_id = "list_disks",
                request_body(content = Option<compute::SelectorBody>, description = WHICH_SERVERS),
                params(("server_group" = String, Path, description = "Server group name")),
                responses((status = 200, body = compute::Disks),
                          refusals::SelectorErrors))]
            #[alias(get, "/api/v2/{server_group}/disks", "list_disks_alias")]
            compute::disks(app, path(group: String), maybe_body which: compute::SelectorBody) -> compute::Disks;

            /// Reset the disks of the selected servers to unconfigured-good; answers with their new state.
            #[rest(delete, path = "/api/v2/servers/{server_group}/disks", tag = "disks", operation_id = "reset_disks",
                request_body(content = Option<compute::SelectorBody>, description = WHICH_SERVERS),
                params(("server_group" = String, Path, description = "Server group name")),
                responses((status = 200, body = compute::Disks),
                          refusals::SelectorErrors,
                          (status = 409, body = ErrorBody, description = "A server that runs a service profile Bootsmith did not create, without `force` (`server_in_use`, naming each with its profile and power state); or a selected server is in a domain its UCS Central cannot reach now (`domain_unreachable`, naming the servers and when the domain was last read; nothing is sent)")))]
            #[alias(delete, "/api/v2/{server_group}/disks", "reset_disks_alias")]
            compute::reset_disks(app, path(group: String), maybe_body which: compute::SelectorBody) -> compute::Disks;

            /// Network interfaces of the selected servers with their MACs, in the manager's order: what
            /// a host's `macs` name. On UCS a server has its associated service profile's vNICs.
            #[rest(get, path = "/api/v2/servers/{server_group}/nics", tag = "servers", operation_id = "list_nics",
                request_body(content = Option<compute::SelectorBody>, description = WHICH_SERVERS),
                params(("server_group" = String, Path, description = "Server group name")),
                responses((status = 200, body = compute::Nics),
                          refusals::SelectorErrors,
                          (status = 501, body = ErrorBody, description = "The group's manager driver does not read its servers' NICs (`not_implemented`)")))]
            compute::nics(app, path(group: String), maybe_body which: compute::SelectorBody) -> compute::Nics;

            /// FSM stages of the selected servers, sorted by order; also grouped per server.
            #[rest(get, path = "/api/v2/servers/{server_group}/fsm", tag = "monitoring", operation_id = "get_fsm",
                request_body(content = Option<compute::SelectorBody>, description = WHICH_SERVERS),
                params(("server_group" = String, Path, description = "Server group name")),
                responses((status = 200, body = compute::FsmReport),
                          refusals::SelectorErrors))]
            compute::fsm(app, path(group: String), maybe_body which: compute::SelectorBody) -> compute::FsmReport;

            /// The virtual-media policy of the group's OS (a CIMC-mounted CD with the boot ISO, or each
            /// ESXi host's own ISO, and an HDD with each host's answer disk, over HTTP from svc), and the
            /// group's existing service profiles pointed at it. Idempotent; `?dry_run=true` plans only.
            #[rest(post, path = "/api/v2/servers/{server_group}/vmedia", tag = "deploy", operation_id = "write_vmedia",
                params(("server_group" = String, Path, description = "Server group name"), deploy::VmediaParams, WaitQuery),
                responses(
                    (status = 200, body = deploy::DeployResult, description = "Done (or the plan, with `dry_run`)"),
                    (status = 202, body = JobAccepted, description = "Started (`?wait=false`)"),
                    (status = 400, body = ErrorBody, description = "No hosts, several OSes, missing images, no svc_ip: every problem listed"),
                    (status = 404, body = ErrorBody, description = "Unknown group, or the group's org is not on the manager (`unknown_org`); hosts without a service profile yet are `warnings` in the answer"),
                    (status = 409, body = ErrorBody, description = "A deploy of this group is running, some hosts' media are stale or missing (`media_stale`, naming each host and why; `allow_stale=true` goes ahead), media never made (`media_missing`, naming the hosts and files), or an install-media URL the manager would be given does not answer with its file from here (`svc_unreachable`, naming the hosts, the URL and why; a dry run lists these in `warnings`), or a host's server is in a domain its UCS Central cannot reach now (`domain_unreachable`)"),
                    refusals::DeployFailed))]
            #[alias(post, "/api/v2/{server_group}/vmedia", "write_vmedia_alias")]
            deploy::vmedia(app, path(group: String), query request: deploy::DeployRequest) -> deploy::JobOrPlan
                => as job_or_plan;

            /// Deploy the group's hosts: the OS's vMedia and boot policies, the `SVC_<code>` template and a
            /// pool of the selected servers where hosts have no template or server of their own, a service
            /// profile named after each host, and bindings for hosts tied to a server. Idempotent;
            /// `?dry_run=true` answers the plan without writing.
            #[rest(post, path = "/api/v2/servers/{server_group}/deploy", tag = "deploy", operation_id = "deploy_server_group",
                params(("server_group" = String, Path, description = "Server group name"), deploy::DeployRequest, WaitQuery),
                responses(
                    (status = 200, body = deploy::DeployResult, description = "Done (or the plan, with `dry_run`)"),
                    (status = 202, body = JobAccepted, description = "Started (`?wait=false`)"),
                    (status = 400, body = ErrorBody, description = "No hosts, missing images, no svc_ip, no servers selected for the pool: every problem listed"),
                    (status = 404, body = ErrorBody, description = "Unknown group or service-profile template, or the group's org is not on the manager (`unknown_org`)"),
                    (status = 409, body = ErrorBody, description = "A deploy of this group is running, a host's profile name is taken (`profile_name_taken`), some hosts' media are stale or missing (`media_stale`, naming each host and why; `allow_stale=true` goes ahead), media never made (`media_missing`, naming the hosts and files), or an install-media URL the manager would be given does not answer with its file from here (`svc_unreachable`, naming the hosts, the URL and why; a dry run lists these in `warnings`), or a host's server is in a domain its UCS Central cannot reach now (`domain_unreachable`)"),
                    refusals::DeployFailed))]
            #[alias(post, "/api/v2/{server_group}/deploy", "deploy_server_group_alias")]
            deploy::deploy(app, path(group: String), query request: deploy::DeployRequest) -> deploy::JobOrPlan
                => as job_or_plan;

            /// Remove exactly what deploys of the group created (profiles, the `SVC_<code>` template, pool
            /// and policies; bindings and pool members go with them), in one transaction; objects Bootsmith
            /// did not create are left alone. `?dry_run=true` answers the plan.
            #[rest(delete, path = "/api/v2/servers/{server_group}/deploy", tag = "deploy", operation_id = "undeploy_server_group",
                params(("server_group" = String, Path, description = "Server group name"), deploy::UndeployParams, WaitQuery),
                responses(
                    (status = 200, body = deploy::DeployResult, description = "Removed (or the plan, with `dry_run`)"),
                    (status = 202, body = JobAccepted, description = "Started (`?wait=false`)"),
                    (status = 404, body = ErrorBody, description = "Unknown group"),
                    (status = 409, body = ErrorBody, description = "A deploy of this group is running, or a service profile its deploys made runs on a server in a domain its UCS Central cannot reach now (`domain_unreachable`, naming the servers and when the domain was last read; nothing is sent)"),
                    refusals::DeployFailed))]
            deploy::undeploy(app, path(group: String), query request: deploy::DeployRequest) -> deploy::JobOrPlan
                => as job_or_plan;

            /// List hosts in submitted order, each with where its install is (`status`: state,
            /// since, detail, progress) and its install media (`media`: ready, stale with the
            /// changed inputs named, missing or unknown; the files in svc with their times).
            #[rest(get, path = "/api/v2/hosts", tag = "hosts", operation_id = "list_hosts",
                responses((status = 200, body = answers::HostList)))]
            host_views::list(app) -> Vec<host_views::HostView>
                => cached under hosts |s| answers::hosts_json(s).await?;

            /// One host's install from its last image build on: each stage with its time, and
            /// every fetch of its media from svc (who, what, bytes, last range).
            #[rest(get, path = "/api/v2/hosts/{name}/timeline", tag = "hosts", operation_id = "host_timeline",
                params(("name" = String, Path, description = "Host name")),
                responses((status = 200, body = host_views::Timeline),
                          refusals::HostNotFound))]
            host_views::timeline(app, path(name: String)) -> host_views::Timeline;

            /// The host's installer logs, per attempt (one image build's install token), newest
            /// first, each file with its size and arrival; `latest` names the file that tells why
            /// the newest attempt ended as it did (the one its installer sent last).
            #[rest(get, path = "/api/v2/hosts/{name}/logs", tag = "hosts", operation_id = "list_host_logs",
                params(("name" = String, Path, description = "Host name")),
                responses((status = 200, body = install_logs::HostLogs),
                          refusals::HostNotFound))]
            install_logs::list(app, path(name: String)) -> install_logs::HostLogs;

            /// One installer log of the host, as text: whole, or its last `tail` lines.
            #[rest(get, path = "/api/v2/hosts/{name}/logs/{attempt}/{file}", tag = "hosts", operation_id = "read_host_log",
                params(("name" = String, Path, description = "Host name"),
                       ("attempt" = String, Path, description = "Attempt number, from the list"),
                       ("file" = String, Path, description = "File name, from the list"),
                       install_logs::LogTextQuery),
                responses((status = 200, body = install_logs::LogText),
                          (status = 400, body = ErrorBody, description = "A file name that cannot name a log (`invalid_log_file_name`), or a tail outside 1 to 10000 (`invalid_log_query`)"),
                          (status = 404, body = ErrorBody, description = "No such host (`host_not_found`), or no such attempt or file (`install_log_not_found`)")))]
            install_logs::read(app, path(name: String, attempt: String, file: String), query query: install_logs::LogTextQuery) -> install_logs::LogText;

            /// The host's answer files (kickstart, ESXi ks.cfg, Ubuntu user-data, Windows
            /// autounattend) rendered exactly as the next image run would render them, nothing
            /// written, with every secret (password, password hash, install token, a proxy's
            /// password) replaced by `********`. JSON: the main file as `file_name` and `text`,
            /// every file in `files`.
            #[rest(get, path = "/api/v2/hosts/{name}/answer", tag = "hosts", operation_id = "host_answer_preview",
                params(("name" = String, Path, description = "Host name")),
                responses((status = 200, body = images::AnswerPreview),
                          refusals::HostNotFound,
                          (status = 409, body = ErrorBody, description = "The boot-server address is not set (`svc_ip_not_set`)"),
                          (status = 422, body = ErrorBody, description = "The host's OS has no answer files (`os_not_in_catalog`), or the operator's `svc/<os>.tmpl` does not render (naming the file and line)")))]
            images::answer_preview(app, path(name: String)) -> images::AnswerPreview;

            /// Replace the whole host list in one transaction; an invalid list changes nothing.
            #[rest(post, path = "/api/v2/hosts", tag = "hosts", operation_id = "replace_hosts", request_body = Vec<hosts::HostInput>,
                responses((status = 201, body = answers::Changed<answers::Hosts>, description = "The stored list, plus a status sentence"),
                          (status = 400, body = ErrorBody, description = "Every problem of every row at once (`invalid_hosts`, with `details` by row index and field): invalid fields, unknown OS, role or groups, duplicate names, addresses or servers, and with them any address outside its subnet and any OS a server group cannot take"),
                          (status = 422, body = ErrorBody, description = "When they are the list's only problems: two operating systems in one server group (`mixed_os_in_server_group`, with `details` on the rows whose OS differs from the group's), or host addresses outside their network group's `subnet` or on its gateway (`ip_outside_subnet`, with `details` naming each host and the field `ip`)")))]
            #[alias(put, "/api/v2/hosts", "replace_hosts_put")]
            hosts::replace(app, body hosts: Vec<hosts::HostInput>) -> Vec<hosts::Host>
                => under hosts |hosts| answers::created(format!("{} hosts stored", hosts.len()), answers::Hosts { hosts });

            /// Delete one host by `name`.
            #[rest(delete, path = "/api/v2/hosts", tag = "hosts", operation_id = "delete_host", request_body = hosts::HostRef,
                responses((status = 200, body = answers::Changed<hosts::Host>, description = "The deleted host, plus a status sentence"),
                          (status = 400, body = ErrorBody, description = "No `name` given"),
                          (status = 404, body = ErrorBody, description = "No such host (`host_not_found`, or `no_hosts` when there are none)")))]
            hosts::delete(app, body which: hosts::HostRef) -> hosts::Host
                => |h| answers::changed(format!("host {} deleted", h.name), h);

            /// Make install media: extract each OS's ISO into `svc/<os>/` (once), build the boot ISOs
            /// that are missing (one per RHEL-family or Ubuntu OS, one per ESXi host), and rewrite each
            /// host's `svc/<host>.img`. Everything is checked before anything is written. Answers with
            /// the result when done, or at once with the job to follow when `?wait=false`.
            #[rest(post, path = "/api/v2/deploy/images", tag = "images", operation_id = "create_images",
                params(WaitQuery),
                request_body(content = Option<Vec<String>>, description = "Host names; none for every host"),
                responses(
                    (status = 200, body = images::Images, description = "Done (waited)"),
                    (status = 202, body = JobAccepted, description = "Started (`?wait=false`)"),
                    (status = 400, body = ErrorBody, description = "Unknown host, unmapped OS, missing ISO or WinPE, no svc_ip: every problem listed"),
                    (status = 409, body = ErrorBody, description = "An image run is already going"),
                    (status = 422, body = ErrorBody, description = "An answer-file template that does not render (`template_error`), or an ISO that cannot be made bootable"),
                    (status = 507, body = ErrorBody, description = "The disk of svc is full (`disk_full`)")))]
            images::start(app, maybe_body hosts: Vec<String>) -> jobs::JobId
                => as job;

            /// Import an ISO file of this machine into svc (a hard link when svc is on the same filesystem,
            /// else a copy), then look into it and map it like an upload. Everything is checked before the
            /// job starts. Answers with the result when done, or at once with the job to follow when
            /// `?wait=false` (steps `link` or `copy` with byte progress, then `inspect` and `map`).
            #[rest(post, path = "/api/v2/isos/import", tag = "isos", operation_id = "import_iso",
                params(WaitQuery),
                request_body = iso_import::ImportInput,
                responses(
                    (status = 200, body = iso_import::ImportResult, description = "Done (waited)"),
                    (status = 202, body = JobAccepted, description = "Started (`?wait=false`)"),
                    (status = 400, body = ErrorBody, description = "A relative or missing path (`invalid_path`, `path_not_found`), a directory or device (`not_a_file`), not an ISO image (`not_an_iso`), a bad file name (`invalid_iso_name`), an OS not in the catalog (`unknown_os`)"),
                    (status = 401, body = ErrorBody),
                    (status = 409, body = ErrorBody, description = "The file exists in svc (`iso_exists`), or an import of it is running (`job_running`)"),
                    refusals::DiskFull))]
            iso_import::start(app, body file: iso_import::ImportInput) -> jobs::JobId
                => as job;

            /// Download an ISO from an http(s) URL (typically on the local network) into svc, optionally
            /// checking its SHA-256, then look into it and map it like an upload. The address is asked
            /// before the job starts (it must answer and serve an ISO image); the file gets its name only
            /// when complete and verified. Answers with the result when done, or at once with the job to
            /// follow when `?wait=false` (steps `download` with byte progress, `verify`, `inspect`, `map`).
            #[rest(post, path = "/api/v2/isos/fetch", tag = "isos", operation_id = "fetch_iso",
                params(WaitQuery),
                request_body = iso_import::FetchInput,
                responses(
                    (status = 200, body = iso_import::ImportResult, description = "Done (waited)"),
                    (status = 202, body = JobAccepted, description = "Started (`?wait=false`)"),
                    (status = 400, body = ErrorBody, description = "Not an http(s) address or no file name in it (`invalid_url`), a malformed checksum (`invalid_sha256`), not an ISO image (`not_an_iso`), a bad file name (`invalid_iso_name`), an OS not in the catalog (`unknown_os`)"),
                    (status = 401, body = ErrorBody),
                    (status = 409, body = ErrorBody, description = "The file exists in svc (`iso_exists`), or a download of it is running (`job_running`)"),
                    (status = 422, body = ErrorBody, description = "The address answered 404 (`url_not_found`), or the download has another SHA-256 (`checksum_mismatch`, naming both; nothing was kept)"),
                    (status = 502, body = ErrorBody, description = "The address could not be reached (`url_unreachable`), answered another error or broke off (`download_failed`)"),
                    refusals::DiskFull))]
            iso_import::fetch(app, body source: iso_import::FetchInput) -> jobs::JobId
                => as job;

            /// List the ISO files the user put into svc.
            #[rest(get, path = "/api/v1/isos", tag = "isos", operation_id = "list_isos",
                responses((status = 200, body = answers::Isos)))]
            isos::list(app) -> Vec<String>
                => under isos |isos| Reply(answers::Isos { isos });

            /// The ISO files in svc, looked into: volume id, detected OS, BIOS/UEFI boot entries, mapping.
            #[rest(get, path = "/api/v2/isos", tag = "isos", operation_id = "list_iso_details",
                responses((status = 200, body = answers::IsoDetails)))]
            isos::inspect_files(app) -> Vec<isos::IsoInfo>
                => under isos |isos| Reply(answers::IsoDetails { isos });

            /// Read the ISO → OS map.
            #[rest(get, path = "/api/v1/isos/map", tag = "isos", operation_id = "get_iso_map",
                responses((status = 200, body = answers::IsoMap)))]
            isos::map(app) -> Vec<isos::IsoMapEntry>
                => under iso_map |iso_map| Reply(answers::IsoMap { iso_map });

            /// Replace the whole ISO → OS map; answers with the resulting map, and warnings about ISOs it did not recognise.
            #[rest(post, path = "/api/v1/isos/map", tag = "isos", operation_id = "set_iso_map", request_body = isos::IsoMapInput,
                responses((status = 200, body = isos::MapResult),
                          (status = 400, body = ErrorBody, description = "Every invalid entry (with `details`): a path outside svc, a missing file, an OS not in the catalog, an ISO that holds another OS")))]
            isos::set_map(app, body map: isos::IsoMapInput) -> isos::MapResult;

            /// The most recent jobs (running ones and the last 100 finished, of this run and earlier ones), most recent first, without event histories. A job that was running when Bootsmith stopped is `interrupted`.
            #[rest(get, path = "/api/v2/jobs", tag = "jobs", operation_id = "list_jobs",
                responses((status = 200, body = answers::JobList), (status = 401, body = ErrorBody)))]
            jobs::list(app) -> Vec<jobs::JobSummary>
                => under jobs |jobs| Reply(answers::JobList { jobs });

            /// One job with its event history, and its result or error once it has ended.
            #[rest(get, path = "/api/v2/jobs/{id}", tag = "jobs", operation_id = "get_job",
                params(("id" = String, Path, description = "Job id")),
                responses((status = 200, body = jobs::Job), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
            jobs::get(app, path(id: String)) -> jobs::Job
                // A job id is a UUID: one that does not parse names no job.
                = { jobs::get(app, id.parse()?).await };

            /// List the SSH keys installed hosts accept.
            #[rest(get, path = "/api/v1/keys", tag = "settings", operation_id = "list_keys",
                responses((status = 200, body = answers::Keys)))]
            keys::list(app) -> Vec<String>
                => under keys |keys| Reply(answers::Keys { keys });

            /// The SSH keys with each key's type, comment and SHA256 fingerprint.
            #[rest(get, path = "/api/v2/keys", tag = "settings", operation_id = "key_details",
                responses((status = 200, body = answers::KeyDetails)))]
            keys::details(app) -> Vec<keys::KeyInfo>
                => under keys |keys| Reply(answers::KeyDetails { keys });

            /// Replace the SSH key list.
            #[rest(post, path = "/api/v1/keys", tag = "settings", operation_id = "replace_keys", request_body = keys::KeysInput,
                responses((status = 200, body = answers::Keys), (status = 400, body = ErrorBody)))]
            keys::replace(app, body keys: keys::KeysInput) -> Vec<String>
                => under keys |keys| Reply(answers::Keys { keys });

            /// Import KUBAM's settings and records (`kubam_ip`, `public_keys`, `proxy`, `ucsm.org`,
            /// `iso_map`, `server_groups`, `network_groups`, `aci`, `hosts`) in one transaction, the
            /// passwords decrypted with its `.kubam` key. Managers are not contacted.
            #[rest(post, path = "/api/v2/import/kubam", tag = "import", operation_id = "import_kubam", request_body = kubam::KubamImportInput,
                params(kubam::ImportOptions),
                responses(
                    (status = 200, body = kubam::ImportReport, description = "The plan (`dry_run`); nothing written"),
                    (status = 201, body = kubam::ImportReport, description = "Imported: what was created, renamed and skipped"),
                    (status = 400, body = ErrorBody, description = "Bad YAML or a shape KUBAM does not write (the line and key named), a key file that is no key (`invalid_kubam_key`) or does not decrypt the file's passwords (`kubam_key_mismatch`, naming the groups)"),
                    (status = 409, body = ErrorBody, description = "`kubam_conflicts`: names Bootsmith already uses, each listed; nothing written")))]
            kubam::import(app, body file: kubam::KubamImportInput, query options: kubam::ImportOptions) -> kubam::ImportReport
                => |report| answers::written_or_planned(report);

            /// Lines of the JSON log, newest first, filtered by lowest level and by text; page to older
            /// lines with `before` set to the answer's `next`. The log is read from its end, never whole.
            #[rest(get, path = "/api/v2/logs", tag = "logs", operation_id = "read_logs", params(logs::LogQuery),
                responses((status = 200, body = logs::LogPage),
                          (status = 400, body = ErrorBody, description = "Unknown level, bad cursor, or a limit over 1000 (`log_limit_too_large`)"),
                          (status = 401, body = ErrorBody)))]
            logs::read(app, query query: logs::LogQuery) -> logs::LogPage;

            /// List network groups.
            #[rest(get, path = "/api/v2/networks", tag = "networks", operation_id = "list_networks",
                responses((status = 200, body = answers::Networks)))]
            networks::list(app) -> Vec<networks::NetworkGroup>
                => under networks |networks| Reply(answers::Networks { networks });

            /// One network group by name.
            #[rest(get, path = "/api/v2/networks/{network}", tag = "networks", operation_id = "get_network",
                params(("network" = String, Path, description = "Network group name")),
                responses((status = 200, body = networks::NetworkGroup),
                          (status = 404, body = ErrorBody, description = "No such group (`network_not_found`)")))]
            networks::get(app, path(network: String)) -> networks::NetworkGroup;

            /// Create a network group: `{"status": "Network <name> created!", "id": …}`.
            #[rest(post, path = "/api/v2/networks", tag = "networks", operation_id = "create_network", request_body = networks::NetworkInput,
                responses((status = 201, body = answers::Changed<networks::NetworkGroup>, description = "The group, plus a status sentence"),
                          (status = 400, body = ErrorBody, description = "Every invalid field (`invalid_network`, with `details`), a gateway outside the `subnet` among them"),
                          refusals::NameTaken))]
            networks::create(app, body network: networks::NetworkInput) -> networks::NetworkGroup
                => |n| answers::created(format!("Network {} created!", n.name), n);

            /// Update the network group with `id`.
            #[rest(put, path = "/api/v2/networks", tag = "networks", operation_id = "update_network", request_body = networks::NetworkInput,
                responses((status = 200, body = answers::Changed<networks::NetworkGroup>, description = "The group, plus a status sentence"),
                          (status = 400, body = ErrorBody, description = "No or a malformed `id` (`missing_id`, `invalid_id`), or every invalid field (`invalid_network`)"),
                          (status = 404, body = ErrorBody, description = "No group has this id"),
                          refusals::NameTaken,
                          (status = 422, body = ErrorBody, description = "The new `subnet` leaves out addresses of the group's hosts (`hosts_outside_subnet`, naming each)")))]
            networks::update(app, body network: networks::NetworkInput) -> networks::NetworkGroup
                => |n| answers::changed(format!("Network {} updated", n.name), n);

            /// Delete a network group by `id` or `name`; refused while hosts use it.
            #[rest(delete, path = "/api/v2/networks", tag = "networks", operation_id = "delete_network", request_body = networks::NetworkRef,
                responses((status = 200, body = answers::Changed<networks::NetworkGroup>, description = "The deleted group, plus a status sentence"),
                          refusals::NoIdOrName,
                          (status = 404, body = ErrorBody, description = "No such group"),
                          (status = 409, body = ErrorBody, description = "Hosts use the group")))]
            networks::delete(app, body which: networks::NetworkRef) -> networks::NetworkGroup
                => |n| answers::changed(format!("Network {} deleted", n.name), n);

            /// List server groups; passwords come back encrypted.
            #[rest(get, path = "/api/v2/servers", tag = "server groups", operation_id = "list_server_groups",
                responses((status = 200, body = answers::ServerGroups)))]
            server_groups::list(app) -> Vec<server_groups::ServerGroup>
                => under servers |groups| Reply(answers::ServerGroups { servers: groups.clone(), server_groups: groups });

            /// One server group, with what its manager can do (`capabilities`); the password comes back encrypted.
            #[rest(get, path = "/api/v2/servers/{server_group}", tag = "server groups", operation_id = "get_server_group",
                params(("server_group" = String, Path, description = "Server group name")),
                responses((status = 200, body = server_groups::ServerGroup),
                          refusals::NoSuchGroup))]
            server_groups::get(app, path(group: String)) -> server_groups::ServerGroup;

            /// Create a server group.
            #[rest(post, path = "/api/v2/servers", tag = "server groups", operation_id = "create_server_group", request_body = server_groups::ServerGroupInput,
                responses((status = 201, body = answers::Changed<server_groups::ServerGroup>, description = "The group, plus a status sentence"),
                          (status = 400, body = ErrorBody, description = "Every invalid field (`invalid_server_group`, with `details`)"),
                          refusals::NameTaken,
                          refusals::ManagerLoginErrors))]
            server_groups::create(app, body group: server_groups::ServerGroupInput) -> server_groups::ServerGroup
                => |g| answers::created(format!("new server group {} created!", g.name), g);

            /// Update a server group found by `id` (or `uid`).
            #[rest(put, path = "/api/v2/servers", tag = "server groups", operation_id = "update_server_group", request_body = server_groups::ServerGroupInput,
                responses((status = 200, body = answers::Changed<server_groups::ServerGroup>, description = "The group, plus a status sentence"),
                          (status = 400, body = ErrorBody, description = "No or a malformed `id` (`missing_id`, `invalid_id`), or every invalid field (`invalid_server_group`)"),
                          (status = 404, body = ErrorBody, description = "No group has this id (`server_group_not_found`)"),
                          refusals::NameTaken,
                          refusals::ManagerLoginErrors))]
            server_groups::update(app, body group: server_groups::ServerGroupInput) -> server_groups::ServerGroup
                => |g| answers::changed(format!("server group {} updated!", g.name), g);

            /// Delete a server group by `name`; refused while hosts use it.
            #[rest(delete, path = "/api/v2/servers", tag = "server groups", operation_id = "delete_server_group", request_body = server_groups::ServerGroupRef,
                responses((status = 200, body = answers::Changed<server_groups::ServerGroup>, description = "The deleted group, plus a status sentence"),
                          (status = 400, body = ErrorBody, description = "Neither `name` nor `id` given, or a malformed `id`"),
                          refusals::NoSuchGroup,
                          (status = 409, body = ErrorBody, description = "Hosts use the group (`server_group_in_use`)")))]
            server_groups::delete(app, body which: server_groups::ServerGroupRef) -> server_groups::ServerGroup
                => |g| answers::changed(format!("server group {} deleted", g.name), g);

            /// Replace the servers selected in a group.
            #[rest(post, path = "/api/v2/servers/{server_group}/servers", tag = "server groups", operation_id = "select_servers", request_body = server_groups::SelectInput,
                params(("server_group" = String, Path, description = "Server group name")),
                responses((status = 200, body = answers::SelectionAnswer),
                          (status = 400, body = ErrorBody, description = "No `servers`, an invalid id, or blades for an IMC group (`invalid_selection`); servers the manager does not have (`unknown_servers`)"),
                          refusals::NoSuchGroup,
                          (status = 409, body = ErrorBody, description = "A server that runs a service profile Bootsmith did not create, without `force` (`server_in_use`, naming each with its profile and power state)")))]
            server_groups::select_servers(app, path(group: String), body selection: server_groups::SelectInput) -> server_groups::Selection
                => |selection| Reply(answers::SelectionAnswer { status: answers::OkStatus::Ok, selection });

            /// Read the boot-server address.
            #[rest(get, path = "/api/v1/ip", tag = "settings", operation_id = "get_svc_ip",
                responses((status = 200, body = answers::SvcIp)))]
            settings::svc_ip(app) -> Option<settings::IpAddress>
                => under svc_ip |ip| Reply(answers::SvcIp::new(ip));

            /// Set the boot-server address.
            #[rest(post, path = "/api/v1/ip", tag = "settings", operation_id = "set_svc_ip", request_body = settings::SvcIpInput,
                responses((status = 200, body = answers::SvcIp), (status = 400, body = ErrorBody)))]
            settings::set_svc_ip(app, body address: settings::SvcIpInput) -> settings::SvcIpSaved
                => |saved| Reply(answers::SvcIp::saved(saved));

            /// Read the default proxy of network groups that name none.
            #[rest(get, path = "/api/v1/proxy", tag = "settings", operation_id = "get_proxy",
                responses((status = 200, body = answers::Proxy)))]
            settings::proxy(app) -> Option<settings::ProxyUrl>
                => under proxy |proxy| Reply(answers::Proxy { proxy });

            /// Set (or with `""` clear) the default proxy.
            #[rest(post, path = "/api/v1/proxy", tag = "settings", operation_id = "set_proxy", request_body = settings::ProxyInput,
                responses((status = 200, body = answers::Proxy), (status = 400, body = ErrorBody)))]
            settings::set_proxy(app, body proxy: settings::ProxyInput) -> Option<settings::ProxyUrl>
                => under proxy |proxy| Reply(answers::Proxy { proxy });

            /// Read the install settings: how long each install stage may take before the host
            /// is marked failed (minutes; 0: no limit), and whether virtual media are taken away
            /// once a host is installed.
            #[rest(get, path = "/api/v2/settings/install", tag = "settings", operation_id = "get_install_settings",
                responses((status = 200, body = lifecycle::Timeouts)))]
            lifecycle::settings(app) -> lifecycle::Timeouts;

            /// Change the install settings; fields left out keep their value.
            #[rest(put, path = "/api/v2/settings/install", tag = "settings", operation_id = "set_install_settings", request_body = lifecycle::TimeoutsInput,
                responses((status = 200, body = lifecycle::Timeouts), (status = 400, body = ErrorBody, description = "A limit out of range (`invalid_setting`)")))]
            lifecycle::set_settings(app, body settings: lifecycle::TimeoutsInput) -> lifecycle::Timeouts;

            /// Read the default template parameters: each host's `params.<key>` where neither it
            /// nor its server group nor its network group gives one. Secrets read `********`.
            #[rest(get, path = "/api/v2/params", tag = "settings", operation_id = "get_params",
                responses((status = 200, body = BTreeMap<String, ParamSchema>)))]
            params::defaults(app) -> params::Params;

            /// Replace the default template parameters (`{}` clears them): `{"key": "value"}`, a
            /// secret as `{"key": {"value": "…", "secret": true}}`, stored encrypted; one sent
            /// back as read (`********`) keeps its value. Keys `[a-z][a-z0-9_]*`.
            #[rest(put, path = "/api/v2/params", tag = "settings", operation_id = "set_params", request_body = params::ParamsInput,
                responses((status = 200, body = BTreeMap<String, ParamSchema>), (status = 400, body = ErrorBody, description = "A key or value that is not a parameter (`invalid_setting`)")))]
            params::set_defaults(app, body params: params::ParamsInput) -> params::Params;

            /// Read the default UCS org of server groups that name none.
            #[rest(get, path = "/api/v1/org", tag = "settings", operation_id = "get_org",
                responses((status = 200, body = answers::Org)))]
            settings::org(app) -> Option<settings::OrgDn>
                => under org |org| Reply(answers::Org { org });

            /// Set (or with `""` clear) the default UCS org.
            #[rest(post, path = "/api/v1/org", tag = "settings", operation_id = "set_org", request_body = settings::OrgInput,
                responses((status = 200, body = answers::Org), (status = 400, body = ErrorBody)))]
            settings::set_org(app, body org: settings::OrgInput) -> Option<settings::OrgDn>
                => under org |org| Reply(answers::Org { org });
        }
    };
}
