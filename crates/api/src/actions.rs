//! The manifest of the table of actions (`bootsmith_actions::for_each_action!`): for each
//! command the window registers, how a browser reaches the same action over REST (method,
//! path, which arguments are its segments, the body and the query, the key to unwrap, or that
//! it is a job), or why it cannot. `ui/src/lib/actions.json` is its checked-in copy, from which
//! `ui/src/lib/api.ts` makes every call in browser mode.

use std::collections::BTreeMap;

use serde::Serialize;

/// Every command by name (sorted, so the file's diff shows what changed).
pub type Manifest = BTreeMap<&'static str, Command>;

/// How a command reaches its action over REST, or why it does not.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum Command {
    /// The window's own command: no REST call does it.
    AppOnly {
        /// Why a browser cannot have it.
        app_only: &'static str,
    },
    /// A REST call does what the command does.
    Rest(Route),
}

/// One REST call.
#[derive(Debug, Serialize)]
pub struct Route {
    /// `GET`, `POST`, `PUT` or `DELETE`.
    pub method: Method,
    /// The path, with `{…}` for each segment.
    pub path: &'static str,
    /// The command's arguments that fill the path's segments, in their order.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub segments: &'static [&'static str],
    /// The argument sent as the JSON body (absent or null: no body).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<&'static str>,
    /// The argument whose fields make the query string.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query: Option<&'static str>,
    /// The key of REST's answer under which the window's answer is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unwrap: Option<&'static str>,
    /// The action starts a job: asked with `?wait=false`, REST answers `{"job": id}` at once.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub job: Option<Job>,
}

/// An HTTP method of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Method {
    Get,
    Post,
    Put,
    Delete,
}

impl Method {
    /// The table's spelling (`get`, `post`, …).
    fn named(method: &str) -> Method {
        match method {
            "get" => Method::Get,
            "post" => Method::Post,
            "put" => Method::Put,
            "delete" => Method::Delete,
            other => unreachable!("the table has no {other} action"),
        }
    }
}

/// What a job action answers, once started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Job {
    /// The job's id.
    Job,
    /// The plan of a dry run, or the job's id.
    JobOrPlan,
}

impl Job {
    fn named(kind: &str) -> Job {
        match kind {
            "job" => Job::Job,
            "job_or_plan" => Job::JobOrPlan,
            other => unreachable!("the table has no `as {other}` answer"),
        }
    }
}

/// Write the manifest (see `bootsmith_actions` for the shape a door receives).
macro_rules! manifest_door {
    ( window [$( { command $cmd:ident, rest [$($wm:ident $wpath:literal)?], app_only [$($why:literal)?] } )*]
      $( {
        name [$m:ident $f:ident],
        docs $docs:tt,
        route [$method:ident $path:literal],
        api $api:tt,
        aliases $aliases:tt,
        app $app:ident,
        path [$(($($p:ident : $pty:ty),+))?],
        body [$($b:ident : $bty:ty)?],
        maybe_body [$($mb:ident : $mbty:ty)?],
        query [$($q:ident : $qty:ty)?],
        ret $ret:tt,
        call $call:block,
        job [$($job:ident)?],
        answer [$($kind:ident [$($key:ident)?] $($rest:tt)*)?],
      } )* ) => {
        /// The manifest the table makes.
        pub fn manifest() -> Manifest {
            let mut m = Manifest::new();
            $(
                let command = manifest_door!(@window $([$wm $wpath])? $([$why])?);
                m.insert(stringify!($cmd), command);
            )*
            $(
                m.insert(concat!(stringify!($m), "_", stringify!($f)), Command::Rest(Route {
                    method: Method::named(stringify!($method)),
                    path: $path,
                    segments: &[$($(stringify!($p)),+)?],
                    body: [$(stringify!($b),)? $(stringify!($mb),)?].first().copied(),
                    query: [$(stringify!($q))?].first().copied(),
                    unwrap: [$($(stringify!($key))?)?].first().copied(),
                    job: [$(Job::named(stringify!($job)))?].first().copied(),
                }));
            )*
            m
        }
    };
    (@window [$wm:ident $wpath:literal]) => {
        Command::Rest(Route {
            method: Method::named(stringify!($wm)),
            path: $wpath,
            segments: &[],
            body: None,
            query: None,
            unwrap: None,
            job: None,
        })
    };
    (@window [$why:literal]) => {
        Command::AppOnly { app_only: $why }
    };
}

bootsmith_actions::for_each_action!(manifest_door);
