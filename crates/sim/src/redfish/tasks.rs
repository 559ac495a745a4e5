//! Task monitors (injected by [`super::RedfishFaults::task_polls`]): an action answers 202 with
//! `Location` of a monitor; the monitor answers 202 with `Retry-After` a few times, then
//! performs the action and answers with its result, as sushy's `taskmonitor.py` expects.
//! The action runs only when the monitor is finally polled, so a client that ignores the 202
//! sees nothing happen.

use std::sync::Arc;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::Response;
use serde_json::json;

use super::errors::{json_response, missing};
use super::routes::action;
use super::state::{Req, Shared, State, Task};

/// Where monitors live.
pub(crate) const MONITORS: &str = "/redfish/v1/TaskService/TaskMonitors";

fn accepted(id: &str, retry_after: u64) -> Response {
    let loc = format!("{MONITORS}/{id}");
    let mut r = json_response(
        StatusCode::ACCEPTED,
        &json!({
            "@odata.id": format!("/redfish/v1/TaskService/Tasks/{id}"),
            "@odata.type": "#Task.v1_4_3.Task",
            "Id": id, "Name": "Task", "TaskState": "Running", "TaskStatus": "OK",
            "TaskMonitor": loc,
        }),
    );
    let h = r.headers_mut();
    h.insert(
        header::LOCATION,
        HeaderValue::from_str(&loc).expect("ascii"),
    );
    h.insert(header::RETRY_AFTER, HeaderValue::from(retry_after));
    r
}

/// Keep `req` behind a new monitor: 202.
pub(crate) fn start(st: &mut State, req: Req) -> Response {
    let id = format!("{}", st.next());
    let polls = st.faults.task_polls;
    let retry = st.faults.retry_after.unwrap_or(1);
    st.tasks.insert(
        id.clone(),
        Task {
            polls_left: polls,
            req,
        },
    );
    accepted(&id, retry)
}

/// `GET <monitor>`: 202 while polls are left, then the action's own answer.
pub(crate) fn poll(sh: &Arc<Shared>, st: &mut State, path: &str) -> Response {
    let id = path.rsplit('/').next().unwrap_or_default().to_owned();
    let retry = st.faults.retry_after.unwrap_or(1);
    let Some(t) = st.tasks.get_mut(&id) else {
        return missing(sh.q.base, path);
    };
    t.polls_left = t.polls_left.saturating_sub(1);
    if t.polls_left > 0 {
        return accepted(&id, retry);
    }
    let t = st.tasks.remove(&id).expect("present");
    action(sh, st, &t.req)
}
