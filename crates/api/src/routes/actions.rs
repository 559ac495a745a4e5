//! The REST door of `bootsmith_actions::for_each_action!`: for each action, an axum handler that reads
//! the inputs from the path, query and JSON body, calls the core, and answers in the seed's
//! shape, with its `#[utoipa::path]` entry; then [`register`] routes them all (and aliases),
//! and [`manifest`] says how a browser reaches each (`crate::actions`).

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::Json as Reply;
use bootsmith_core::{
    compute, deploy, host_views, install_logs, jobs, kubam, lifecycle, logs, media::images,
    media::iso_import, media::isos, packs, records::aci, records::hosts, records::keys,
    records::networks, records::params, records::server_groups, records::settings,
};
use bootsmith_model::catalog;
use bootsmith_model::params::ParamSchema;
use utoipa::openapi::path::{HttpMethod, Paths};
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouter};
use utoipa_axum::routes;

use super::answers::{self, job_or_plan};
use super::jobs::{run_or_wait, JobAccepted, WaitQuery};
use super::refusals;
use crate::actions::{Command, Job as ManifestJob, Manifest, Method, Route};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{Json, MaybeJson, Path, Query};
use crate::wire;
use crate::ApiState;

/// The request body of the entries that act on a selection of a group's servers.
const WHICH_SERVERS: &str =
    "Which servers; no body (or no `servers`) means every server of the group";

/// Make the handlers of the table (see `bootsmith_actions` for an entry's parts).
macro_rules! rest_door {
    ( window [$( { command $cmd:ident, rest [$($wm:ident $wpath:literal)?], app_only [$($why:literal)?] } )*]
      $( {
        name [$m:ident $f:ident],
        docs [$($doc:tt)*],
        app $app:ident,
        ret [$ret:ty],
        call $call:block,
        inputs $inputs:tt,
        rest {
            path [$(($($p:ident : $pty:ty),+))?],
            body [$($b:ident : $bty:ty)?],
            maybe_body [$($mb:ident : $mbty:ty)?],
            query [$($q:ident : $qty:ty)?],
            route [$method:ident $path:literal],
            api [$($api:tt)*],
            aliases [$([$am:ident $apath:literal $aid:literal])*],
            job [$($job:ident)?],
            answer $answer:tt,
        },
    } )* ) => { paste::paste! {
        $(
            $($doc)*
            #[utoipa::path($method, path = $path, $($api)*)]
            #[allow(unused_parens)]
            pub async fn [<$m _ $f>](
                State(state): State<ApiState>,
                $( Path(($($p,)+)): Path<($($pty,)+)>, )?
                $( Query($q): Query<$qty>, )?
                // `?wait=`, bound to the job's kind (`job` or `job_or_plan`) as its name: a
                // repetition needs a variable of the entry to repeat on.
                $( Query($job): Query<WaitQuery>, )?
                $( Json($b): Json<$bty>, )?
                $( MaybeJson($mb): MaybeJson<$mbty>, )?
            ) -> ApiResult<Response> {
                let $app = &state.app;
                let answer: ApiResult<Response> = async {
                    rest_door!(@answer state, $app, $call, $ret, [$($job $job)?], $answer)
                }.await;
                if let Err(ApiError::Core(e)) = &answer {
                    bootsmith_core::error::log_refusal(concat!(stringify!($m), "::", stringify!($f)), e);
                }
                answer
            }
        )*

        /// How a browser reaches each command of the window over REST (`crate::actions`).
        pub(crate) fn manifest() -> Manifest {
            let mut m = Manifest::new();
            $( m.insert(stringify!($cmd), Command::window(&[$((stringify!($wm), $wpath))?], &[$($why)?])); )*
            $(
                m.insert(concat!(stringify!($m), "_", stringify!($f)), Command::Rest(Route {
                    method: Method::named(stringify!($method)),
                    path: $path,
                    segments: &[$($(stringify!($p)),+)?],
                    body: [$(stringify!($b),)? $(stringify!($mb),)?].first().copied(),
                    query: [$(stringify!($q))?].first().copied(),
                    unwrap: rest_door!(@unwrap $answer),
                    job: [$(ManifestJob::named(stringify!($job)))?].first().copied(),
                }));
            )*
            m
        }

        /// Add every action's route (and its aliases) to `r`.
        pub(super) fn register(r: OpenApiRouter<ApiState>) -> OpenApiRouter<ApiState> {
            r $(
                .routes(routes!([<$m _ $f>]))
                $( .routes(alias(
                    routes!([<$m _ $f>]),
                    axum::routing::$am([<$m _ $f>]),
                    HttpMethod::[<$am:camel>],
                    $apath,
                    $aid,
                )) )*
            )*
        }
    } };

    // The key of REST's answer under which the core's answer is.
    (@unwrap [wrap [$($key:ident)?] $($rest:tt)*]) => { [$(stringify!($key))?].first().copied() };
    (@unwrap [cached [$key:ident] $($rest:tt)*]) => { Some(stringify!($key)) };
    (@unwrap []) => { None };
    // The core's answer; named, as an entry's own call leaves the error type open.
    (@core $call:block, $ret:ty) => {{
        let answer: bootsmith_core::Result<$ret> = $call;
        answer
    }};

    // A job the core started: its result, or `202` with it at once (`?wait=false`).
    (@answer $state:ident, $app:ident, $call:block, $ret:ty, [job $wait:ident], []) => {{
        let job = rest_door!(@core $call, $ret)?;
        Ok(run_or_wait(&$state, job, $wait.wait()).await)
    }};
    // A deploy: the plan of a dry run, else its job as above.
    (@answer $state:ident, $app:ident, $call:block, $ret:ty, [job_or_plan $wait:ident], []) => {{
        let outcome = rest_door!(@core $call, $ret)?;
        Ok(job_or_plan(&$state, outcome, &$wait).await)
    }};
    // The REST door's own cached answer: the core is called only when the cache is stale.
    (@answer $state:ident, $app:ident, $call:block, $ret:ty, [], [cached [$key:ident] |$cs:ident| $cached:expr]) => {{
        let _ = $app;
        let $cs = &$state;
        Ok($cached.into_response())
    }};
    // The core's answer, wrapped in the seed's shape.
    (@answer $state:ident, $app:ident, $call:block, $ret:ty, [], [wrap [$($key:ident)?] |$out:ident| $answer:expr]) => {{
        let $out = rest_door!(@core $call, $ret)?;
        Ok($answer.into_response())
    }};
    // The core's answer as it is.
    (@answer $state:ident, $app:ident, $call:block, $ret:ty, [], []) => {{
        let out = rest_door!(@core $call, $ret)?;
        Ok(Reply(out).into_response())
    }};
}

bootsmith_actions::for_each_action!(rest_door);

/// `route` (one handler's router and OpenAPI entry) again under `method path`, answered by
/// `router` and documented as an alias of the original under `operation_id`.
fn alias(
    (schemas, paths, _): UtoipaMethodRouter<ApiState>,
    router: axum::routing::MethodRouter<ApiState>,
    method: HttpMethod,
    path: &str,
    operation_id: &str,
) -> UtoipaMethodRouter<ApiState> {
    let mut documented = Paths::new();
    for (original, item) in paths.paths {
        let operations = [
            ("GET", item.get),
            ("PUT", item.put),
            ("POST", item.post),
            ("DELETE", item.delete),
        ];
        for (verb, op) in operations {
            let Some(mut op) = op else { continue };
            op.operation_id = Some(operation_id.to_owned());
            op.summary = Some(format!("Alias of `{verb} {original}`."));
            op.description = None;
            documented.add_path_operation(path, vec![method.clone()], op);
        }
    }
    (schemas, documented, router)
}
