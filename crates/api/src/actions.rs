//! The manifest of the table of actions (`bootsmith_actions::for_each_action!`), which the
//! REST door writes beside its handlers: for each
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
    pub(crate) fn named(method: &str) -> Method {
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
    pub(crate) fn named(kind: &str) -> Job {
        match kind {
            "job" => Job::Job,
            "job_or_plan" => Job::JobOrPlan,
            other => unreachable!("the table has no `as {other}` answer"),
        }
    }
}

impl Command {
    /// A command of the window's own: its REST route when REST answers the same (`rest`),
    /// else why a browser cannot have it (`app_only`); the table gives one of them.
    pub(crate) fn window(rest: &[(&str, &'static str)], app_only: &[&'static str]) -> Command {
        match (rest, app_only) {
            ([(method, path)], []) => Command::Rest(Route {
                method: Method::named(method),
                path,
                segments: &[],
                body: None,
                query: None,
                unwrap: None,
                job: None,
            }),
            ([], [why]) => Command::AppOnly { app_only: why },
            _ => unreachable!("a window command has a REST route or why not, one of them"),
        }
    }
}

/// The manifest the table makes (written by the REST door, `crate::routes::actions`).
pub fn manifest() -> Manifest {
    crate::routes::actions::manifest()
}
