//! Dell's OEM one-time boot from virtual media for iDRAC 8 and iDRAC 9 before 6.00, where the
//! standard `BootSourceOverrideTarget=Cd` boots the *physical* drive (`shared/reference/redfish.md`
//! §1.4 and §2 ★1): `POST …/Managers/iDRAC.Embedded.1/Actions/Oem/EID_674_Manager.ImportSystemConfiguration`
//! with a Server Configuration Profile setting `ServerBoot.1#BootOnce=Enabled` and
//! `ServerBoot.1#FirstBootDevice=VCD-DVD`, with no whitespace in the XML. The import is a job:
//! 202 with `Location` of a task (`/redfish/v1/TaskService/Tasks/JID_…`, followed by
//! [`Client::execute`] while it answers 202) or of a Dell job
//! (`/redfish/v1/Managers/iDRAC.Embedded.1/Jobs/JID_…`, which answers 200 with
//! `JobState: Running` while it runs, so it is polled here until it ends).
//!
//! Sources: sushy `sushy/oem/dell/resources/manager/manager.py` `set_virtual_boot_device` (the
//! body, and the retry on MessageIds `LC068` "config pending" and `RAC0679` "job running",
//! `sushy/oem/dell/constants.py`); ironic `drivers/modules/drac/boot.py`;
//! dell/iDRAC-Redfish-Scripting#90 and #116.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::client::Client;
use crate::error::{Error, Result};
use crate::request::Request;

/// The Manager every iDRAC has.
pub const MANAGER: &str = "/redfish/v1/Managers/iDRAC.Embedded.1";
/// The OEM action's name as it ends the target path.
pub const IMPORT_ACTION: &str = "EID_674_Manager.ImportSystemConfiguration";
/// `FirstBootDevice` for the virtual CD/DVD (`VFDD` is the virtual floppy).
pub const VIRTUAL_CD: &str = "VCD-DVD";
/// MessageId part of "pending configuration changes" (sushy `IDRAC_CONFIG_PENDING`).
pub const CONFIG_PENDING: &str = "LC068";
/// MessageId part of "a job is already running" (sushy `IDRAC_JOB_RUNNING`).
pub const JOB_RUNNING: &str = "RAC0679";

/// How often and how long to retry an import refused as busy (sushy: 35 × 15 s).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BusyRetry {
    /// Attempts in all (at least 1).
    pub attempts: u32,
    /// Wait between attempts.
    pub wait: Duration,
}

impl Default for BusyRetry {
    fn default() -> Self {
        BusyRetry {
            attempts: 35,
            wait: Duration::from_secs(15),
        }
    }
}

/// The Server Configuration Profile that boots `device` once, as one line with no whitespace
/// between elements (iDRAC fails the job otherwise: dell/iDRAC-Redfish-Scripting#90).
pub fn boot_once_buffer(device: &str) -> String {
    format!(
        "<SystemConfiguration><Component FQDD=\"iDRAC.Embedded.1\">\
         <Attribute Name=\"ServerBoot.1#BootOnce\">Enabled</Attribute>\
         <Attribute Name=\"ServerBoot.1#FirstBootDevice\">{device}</Attribute>\
         </Component></SystemConfiguration>"
    )
}

/// The ImportSystemConfiguration body for a one-time boot from `device`.
pub fn import_body(device: &str) -> Value {
    json!({"ShareParameters": {"Target": "ALL"}, "ImportBuffer": boot_once_buffer(device)})
}

/// The import action's target: the one the Manager advertises under `Actions.Oem`, else the
/// documented path under `manager`.
pub fn import_target(manager: &str, manager_doc: &Value) -> String {
    manager_doc["Actions"]["Oem"]
        .as_object()
        .and_then(|oem| {
            oem.iter()
                .find(|(k, _)| k.ends_with("ImportSystemConfiguration"))
                .and_then(|(_, v)| v["target"].as_str())
        })
        .map(str::to_owned)
        .unwrap_or_else(|| format!("{manager}/Actions/Oem/{IMPORT_ACTION}"))
}

/// Where a Dell job or task stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JobPhase {
    /// Still going (New, Scheduled, Running, Downloading, …).
    Running,
    /// Done.
    Completed,
    /// Ended badly, with the BMC's message.
    Failed(String),
}

/// The messages a job or task carries: `Message`, `Messages[].Message`, `Oem.Dell.Message`.
pub fn job_message(body: &Value) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut push = |m: Option<&str>| {
        if let Some(m) = m.map(str::trim).filter(|m| !m.is_empty()) {
            if !out.iter().any(|o| o == m) {
                out.push(m.to_owned());
            }
        }
    };
    push(body["Message"].as_str());
    push(body["Oem"]["Dell"]["Message"].as_str());
    for m in body["Messages"].as_array().into_iter().flatten() {
        push(m["Message"].as_str());
    }
    out.join("; ")
}

/// Read a Dell job (`JobState`) or a Redfish task (`TaskState`, `Oem.Dell.JobState`).
pub fn job_phase(body: &Value) -> JobPhase {
    let state = body["JobState"]
        .as_str()
        .or(body["Oem"]["Dell"]["JobState"].as_str())
        .or(body["TaskState"].as_str())
        .unwrap_or("");
    match state {
        "Completed" => {
            // A task may read Completed with a critical status.
            if body["TaskStatus"].as_str() == Some("Critical") {
                JobPhase::Failed(job_message(body))
            } else {
                JobPhase::Completed
            }
        }
        "Failed" | "CompletedWithErrors" | "Exception" | "Killed" | "Cancelled" | "Aborted" => {
            JobPhase::Failed(format!("{state}: {}", job_message(body)))
        }
        // A body with no state at all (a synchronous 200/204): nothing to wait for.
        "" => JobPhase::Completed,
        _ => JobPhase::Running,
    }
}

/// True for a refusal iDRAC gives while configuration is pending or another job runs.
pub fn is_busy(e: &Error) -> bool {
    let Error::Refused {
        message,
        message_id,
        related,
        ..
    } = e
    else {
        return false;
    };
    let ids = message_id.iter().chain(related.iter());
    let by_id = ids
        .clone()
        .any(|i| i.contains(CONFIG_PENDING) || i.contains(JOB_RUNNING));
    let m = message.to_ascii_lowercase();
    by_id
        || m.contains(CONFIG_PENDING.to_ascii_lowercase().as_str())
        || m.contains(JOB_RUNNING.to_ascii_lowercase().as_str())
        || m.contains("pending configuration")
        || m.contains("config pending")
        || m.contains("job running")
        || m.contains("already running")
}

/// What the import did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportOutcome {
    /// The job's id (`JID_…`), when the BMC named one.
    pub job: Option<String>,
    /// The job's final message.
    pub message: String,
    /// Attempts refused as busy before the one that ran.
    pub busy_retries: u32,
}

/// Import the one-time boot from `device` and wait for the job to complete. A failed job is
/// [`Error::Refused`] with Dell's message; busy refusals are retried as `retry` says.
pub async fn import_boot_once(
    client: &Client,
    manager: &str,
    device: &str,
    retry: BusyRetry,
) -> Result<ImportOutcome> {
    let doc = client.get(manager).await.unwrap_or(Value::Null);
    let target = import_target(manager, &doc);
    let mut busy_retries = 0;
    let reply = loop {
        match client
            .execute(Request::action(&target, import_body(device)))
            .await
        {
            Err(e) if is_busy(&e) && busy_retries + 1 < retry.attempts.max(1) => {
                busy_retries += 1;
                client.note_applied("dell_import_busy_retry");
                tracing::info!(address = client.address(), error = %e, busy_retries, "iDRAC busy; retrying the import");
                tokio::time::sleep(retry.wait).await;
            }
            other => break other?,
        }
    };
    // `execute` followed a 202 task monitor until it stopped answering 202; a Dell job
    // resource answers 200 while it runs, so follow it here.
    let mut body = reply.body;
    let job_path = body["@odata.id"]
        .as_str()
        .filter(|p| p.contains("JID_"))
        .map(str::to_owned)
        .or_else(|| {
            body["Id"]
                .as_str()
                .filter(|i| i.starts_with("JID_"))
                .map(|i| format!("{manager}/Jobs/{i}"))
        });
    let job = body["Id"].as_str().map(str::to_owned).or_else(|| {
        job_path
            .as_deref()
            .and_then(|p| p.rsplit('/').next())
            .map(str::to_owned)
    });
    let timeout = client.config().task_timeout;
    let deadline = Instant::now() + timeout;
    loop {
        match job_phase(&body) {
            JobPhase::Completed => {
                return Ok(ImportOutcome {
                    job,
                    message: job_message(&body),
                    busy_retries,
                })
            }
            JobPhase::Failed(m) => {
                return Err(Error::Refused {
                    address: client.address().to_owned(),
                    request: format!("POST {target}"),
                    status: 200,
                    message: format!(
                        "iDRAC job {} failed: {m}",
                        job.as_deref().unwrap_or("(no id)")
                    ),
                    message_id: None,
                    related: vec![],
                })
            }
            JobPhase::Running => {}
        }
        let Some(path) = &job_path else {
            return Err(client.protocol("the import job reads Running but names no job to poll"));
        };
        if Instant::now() + Duration::from_secs(1) > deadline {
            return Err(client.timeout(&format!("iDRAC job {path}"), timeout));
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
        body = client.get(path).await?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_body_is_exact_and_has_no_whitespace_between_elements() {
        let b = import_body(VIRTUAL_CD);
        let buf = "<SystemConfiguration><Component FQDD=\"iDRAC.Embedded.1\"><Attribute Name=\"ServerBoot.1#BootOnce\">Enabled</Attribute><Attribute Name=\"ServerBoot.1#FirstBootDevice\">VCD-DVD</Attribute></Component></SystemConfiguration>";
        assert_eq!(
            b,
            json!({"ShareParameters": {"Target": "ALL"}, "ImportBuffer": buf})
        );
        let s = b["ImportBuffer"].as_str().unwrap();
        assert!(!s.contains(['\n', '\r', '\t']));
        assert!(!s.contains("> ") && !s.contains(" <"));
    }

    #[test]
    fn the_target_is_advertised_or_documented() {
        let doc = json!({"Actions": {"Oem": {"#OemManager.v1_1_0#OemManager.ImportSystemConfiguration": {
            "target": "/redfish/v1/Managers/iDRAC.Embedded.1/Actions/Oem/EID_674_Manager.ImportSystemConfiguration"}}}});
        assert_eq!(
            import_target(MANAGER, &doc),
            format!("{MANAGER}/Actions/Oem/{IMPORT_ACTION}")
        );
        assert_eq!(
            import_target("/redfish/v1/Managers/X", &Value::Null),
            format!("/redfish/v1/Managers/X/Actions/Oem/{IMPORT_ACTION}")
        );
    }

    #[test]
    fn job_phases() {
        assert_eq!(
            job_phase(&json!({"JobState": "Running"})),
            JobPhase::Running
        );
        assert_eq!(
            job_phase(&json!({"JobState": "Scheduled"})),
            JobPhase::Running
        );
        assert_eq!(
            job_phase(&json!({"TaskState": "Completed"})),
            JobPhase::Completed
        );
        assert_eq!(
            job_phase(&json!({"JobState": "Failed", "Message": "bad XML"})),
            JobPhase::Failed("Failed: bad XML".into())
        );
        assert_eq!(
            job_phase(&json!({"TaskState": "Exception",
                "Messages": [{"Message": "no"}], "Oem": {"Dell": {"JobState": "Failed"}}})),
            JobPhase::Failed("Failed: no".into())
        );
        assert_eq!(job_phase(&Value::Null), JobPhase::Completed);
    }

    #[test]
    fn busy_refusals() {
        let refused = |id: Option<&str>, m: &str| Error::Refused {
            address: "a".into(),
            request: "POST x".into(),
            status: 400,
            message: m.into(),
            message_id: id.map(str::to_owned),
            related: vec![],
        };
        assert!(is_busy(&refused(Some("IDRAC.2.8.LC068"), "x")));
        assert!(is_busy(&refused(Some("IDRAC.2.8.RAC0679"), "x")));
        assert!(is_busy(&refused(None, "A job is already running")));
        assert!(!is_busy(&refused(Some("Base.1.8.PropertyUnknown"), "no")));
    }
}
