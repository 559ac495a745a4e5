//! Tauri commands: the window's door to the core. Every action the REST API offers too is
//! declared once, in the table of `bootsmith_actions`; `window_door!` below makes a command of
//! each, named after the core function it calls (`networks::list` → `networks_list`), and the
//! handler list the window registers. The window's own commands, which the table lists under
//! `window`, follow it. Errors reach the page as the core's one error body, the shape the
//! REST API answers with.

use bootsmith_api::wire;
use bootsmith_core::bodies::{self, Body};
use bootsmith_core::error::ErrorBody;
use bootsmith_core::{
    auth, compute, deploy, host_views, install_logs, jobs, kubam, lifecycle, logs, media::images,
    media::iso_import, media::isos, overview, packs, records::aci, records::hosts, records::keys,
    records::networks, records::params, records::server_groups, records::settings, App,
};
use bootsmith_model::catalog;
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

/// The overview plus where the REST API listens.
#[derive(Debug, Serialize)]
pub struct WindowOverview {
    #[serde(flatten)]
    overview: overview::Overview,
    listen_url: Option<String>,
    listen_error: Option<String>,
    version: &'static str,
}

// Inputs are taken as JSON values and read by the core the way the REST API reads the same
// body or query, so a value of the wrong JSON type is the core's `invalid_body` error with a
// sentence, not Tauri's own message (which is a bare string, not an error object).

/// A required body argument, read as the REST body it stands for.
fn body<T: Body>(value: Option<Value>) -> Result<T, bootsmith_core::Error> {
    bodies::read(value.unwrap_or_default())
}

/// An optional body argument: none (or null) is no body.
fn maybe_body<T: Body>(value: Option<Value>) -> Result<Option<T>, bootsmith_core::Error> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(v) => bodies::read(v).map(Some),
    }
}

/// A query argument, an object of the query's fields; none is an empty query.
fn query<T: Body>(value: Option<Value>) -> Result<T, bootsmith_core::Error> {
    bodies::read(value.unwrap_or_else(|| json!({})))
}

/// Make a Tauri command of each action of the table (see `bootsmith_actions` for an entry's
/// parts), and the handler list the window registers, with the table's `window` commands (the
/// window's own, below).
macro_rules! window_door {
    ( window [$( { command $cmd:ident, $($window:tt)* } )*]
      $( {
        name [$m:ident $f:ident],
        docs [$($doc:tt)*],
        app $app:ident,
        ret [$ret:ty],
        call $call:block,
        inputs [$(($kind:ident $arg:ident : $ty:ty))*],
        $($rest:tt)*
    } )* ) => { paste::paste! {
        $(
            $($doc)*
            #[tauri::command]
            pub async fn [<$m _ $f>](
                state: State<'_, GuiState>,
                $( $arg: window_door!(@argument $kind $ty), )*
            ) -> CmdResult<$ret> {
                let $app = &state.app;
                let answer: Result<$ret, bootsmith_core::Error> = async {
                    $( let $arg = window_door!(@read $kind $arg: $ty); )*
                    $call
                }.await;
                if let Err(e) = &answer {
                    bootsmith_core::error::log_refusal(concat!(stringify!($m), "::", stringify!($f)), e);
                }
                Ok(answer?)
            }
        )*

        /// Every command of the window, for `invoke_handler`.
        pub fn handlers<R: tauri::Runtime>() -> impl Fn(tauri::ipc::Invoke<R>) -> bool + Send + Sync + 'static {
            tauri::generate_handler![$([<$m _ $f>],)* $($cmd),*]
        }
    } };

    // A path segment is a string argument; a body or query, any JSON value, read below.
    (@argument path $ty:ty) => { $ty };
    (@argument $kind:ident $ty:ty) => { Option<Value> };
    (@read path $arg:ident: $ty:ty) => { $arg };
    (@read body $arg:ident: $ty:ty) => { body::<$ty>($arg)? };
    (@read maybe_body $arg:ident: $ty:ty) => { maybe_body::<$ty>($arg)? };
    (@read query $arg:ident: $ty:ty) => { query::<$ty>($arg)? };
}

bootsmith_actions::for_each_action!(window_door);

/// The program's version and build, as `GET /` answers them (the Settings screen's About).
#[tauri::command]
pub async fn about() -> CmdResult<serde_json::Value> {
    Ok(json!({"status": "ok", "version": crate::VERSION, "build": crate::BUILD}))
}

/// The REST API token (created on first use).
#[tauri::command]
pub async fn auth_token(state: State<'_, GuiState>) -> CmdResult<String> {
    Ok(auth::token(&state.app).await?.expose().to_owned())
}

/// Replace the REST API token with a new one (the old one stops working); the new token.
#[tauri::command]
pub async fn auth_regenerate(state: State<'_, GuiState>) -> CmdResult<String> {
    Ok(auth::regenerate(&state.app).await?.expose().to_owned())
}

/// Record counts, what an install still needs, and where the REST API listens.
#[tauri::command]
pub async fn overview_summary(state: State<'_, GuiState>) -> CmdResult<WindowOverview> {
    Ok(WindowOverview {
        overview: overview::summary(&state.app).await?,
        listen_url: state.listener.clone().ok(),
        listen_error: state.listener.clone().err(),
        version: env!("CARGO_PKG_VERSION"),
    })
}

/// Open the server's KVM console page (its manager's, found by the core) in the desktop's
/// browser; the link, so the page can show it too. Only the core's URL is opened, never one
/// the page names.
#[tauri::command]
pub async fn console_open(
    state: State<'_, GuiState>,
    group: String,
    which: Option<Value>,
) -> CmdResult<compute::ConsoleLink> {
    let link = compute::console(&state.app, &group, query(which)?).await?;
    open_in_browser(&link.url).map_err(|e| {
        bootsmith_core::Error::io(format!("opening {} in the desktop's browser", link.url), e)
    })?;
    Ok(link)
}

/// Hand an http(s) URL to the desktop's opener, as one argument (no shell in between).
fn open_in_browser(url: &str) -> std::io::Result<()> {
    if !(url.starts_with("https://") || url.starts_with("http://")) {
        return Err(std::io::Error::other("not a web address"));
    }
    #[cfg(target_os = "macos")]
    let mut cmd = std::process::Command::new("open");
    #[cfg(target_os = "windows")]
    let mut cmd = {
        let mut c = std::process::Command::new("rundll32");
        c.arg("url.dll,FileProtocolHandler");
        c
    };
    #[cfg(not(any(target_os = "macos", target_os = "windows")))]
    let mut cmd = std::process::Command::new("xdg-open");
    // Reaped by a thread: the opener may live as long as the browser it started.
    let mut child = cmd.arg(url).spawn()?;
    std::thread::spawn(move || child.wait());
    Ok(())
}

/// Send the job's events with a seq above `after` (all when absent) to
/// `on_event`: the history, then live ones; resolves after `finished`.
#[tauri::command]
pub async fn jobs_watch(
    state: State<'_, GuiState>,
    id: String,
    after: Option<u64>,
    on_event: Channel<jobs::JobEventRecord>,
) -> CmdResult<()> {
    let mut watch = jobs::watch(&state.app, id.parse()?, after).await?;
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
    use bootsmith_core::records::settings::SvcIpInput;

    use super::*;

    /// The page sees exactly this object for an error.
    fn as_page_sees_it(e: bootsmith_core::Error) -> Value {
        serde_json::to_value(CommandError::from(e)).unwrap()
    }

    #[test]
    fn arguments_of_the_wrong_json_type_are_the_cores_invalid_body_error() {
        let e = as_page_sees_it(body::<SvcIpInput>(Some(json!({ "svc_ip": 10 }))).unwrap_err());
        assert_eq!(e["code"], "invalid_body");
        assert_eq!(
            e["error"],
            "the body does not have the expected shape: invalid type: integer `10`, expected a string"
        );
        assert_eq!(e["details"], json!([]));

        let e = body::<networks::NetworkInput>(Some(json!(["mgmt"]))).unwrap_err();
        assert_eq!(e.code(), "invalid_body");
        assert!(
            e.to_string().ends_with(&format!(
                "expected {}",
                <networks::NetworkInput as Body>::EXPECTED
            )),
            "{e}"
        );
        let e = body::<server_groups::ServerGroupInput>(None).unwrap_err();
        assert_eq!(e.code(), "invalid_body");
        let e = body::<Vec<hosts::HostInput>>(Some(json!({"name": "kube01"}))).unwrap_err();
        assert!(
            e.to_string().ends_with(&format!(
                "expected {}",
                <Vec<hosts::HostInput> as Body>::EXPECTED
            )),
            "{e}"
        );
        let e =
            query::<logs::LogQuery>(Some(json!({ "level": null, "limit": "many" }))).unwrap_err();
        assert_eq!(e.code(), "invalid_body");
        let e = maybe_body::<compute::SelectorBody>(Some(json!("1/1"))).unwrap_err();
        assert_eq!(e.code(), "invalid_body");
    }

    #[test]
    fn absent_arguments_are_left_to_the_cores_own_checks() {
        // A missing or null argument reads as an absent field, so the core names it as required.
        let input = body::<SvcIpInput>(Some(json!({ "svc_ip": None::<Value> }))).unwrap();
        assert!(input.svc_ip.is_none());
        let q = query::<logs::LogQuery>(Some(
            json!({ "level": "warn", "q": null, "limit": 5, "before": null }),
        ))
        .unwrap();
        assert_eq!(
            (q.level.as_deref(), q.q, q.limit),
            (Some("warn"), None, Some(5))
        );
        // No query is an empty one; no optional body is none (every server of the group).
        assert!(query::<logs::LogQuery>(None).unwrap().limit.is_none());
        assert!(maybe_body::<compute::SelectorBody>(None).unwrap().is_none());
        assert!(maybe_body::<compute::SelectorBody>(Some(Value::Null))
            .unwrap()
            .is_none());
    }
}

/// The ISOs screen's Open dialog, sized to the screen (see `crate::chooser`): the paths the
/// operator chose, none when cancelled. The page brings them in like dropped files.
#[tauri::command]
pub async fn choose_isos<R: tauri::Runtime>(
    window: tauri::WebviewWindow<R>,
) -> CmdResult<Vec<String>> {
    let not_opened = |why: String| {
        CommandError::from(bootsmith_core::Error::Io {
            context: "the file chooser could not open".into(),
            source: std::io::Error::other(why),
        })
    };
    let (tx, rx) = tokio::sync::oneshot::channel();
    let parent = window.clone();
    window
        .run_on_main_thread(move || match parent.gtk_window() {
            Ok(gtk_window) => crate::chooser::open(&gtk_window, tx),
            Err(e) => tracing::error!(error = %e, "the file chooser has no window to open over"),
        })
        .map_err(|e| not_opened(e.to_string()))?;
    rx.await
        .map_err(|_| not_opened("the window gave no answer".into()))
}
