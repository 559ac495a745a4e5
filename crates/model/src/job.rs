//! What a job is, as callers see it: its id, state, events and summary, and how its failure
//! reads (the one error body, with the status it maps to).

use std::str::FromStr;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::error::{Error, ErrorBody, Result};
use crate::time::{Micros, Time};
use crate::ErrorCode;

/// How many finished jobs stay in memory after they end.
pub const KEEP_FINISHED: usize = 100;

/// How many jobs the store keeps (across restarts); older ones are forgotten on start-up.
pub const KEEP_STORED: usize = 1000;

/// Identifies a job (a UUID v4, written as a string).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(transparent)]
pub struct JobId(Uuid);

impl JobId {
    /// A new random id, for a job about to start.
    pub fn generate() -> Self {
        JobId(Uuid::new_v4())
    }
}

impl std::fmt::Display for JobId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl FromStr for JobId {
    type Err = Error;

    /// A malformed id names no job, so it is a 404 like an unknown one.
    fn from_str(s: &str) -> Result<Self> {
        Uuid::parse_str(s).map(JobId).map_err(|_| unknown_job(s))
    }
}

pub fn unknown_job(id: impl std::fmt::Display) -> Error {
    Error::not_found(
        ErrorCode::UnknownJob,
        format!("there is no job {id} (Bootsmith keeps the last {KEEP_STORED} jobs)"),
    )
}

/// What a job does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum JobKind {
    /// An image run: boot ISOs and each host's answer media.
    Images,
    /// A deploy of a server group.
    Deploy,
    /// A run that only mounts a server group's install media.
    Vmedia,
    /// Taking back what deploys created for a server group.
    Undeploy,
    /// An ISO imported from a path on this machine.
    IsoImport,
    /// An ISO downloaded from a URL.
    IsoFetch,
}

impl JobKind {
    /// The kind as the API writes it (`iso_import`).
    pub fn as_str(self) -> &'static str {
        match self {
            JobKind::Images => "images",
            JobKind::Deploy => "deploy",
            JobKind::Vmedia => "vmedia",
            JobKind::Undeploy => "undeploy",
            JobKind::IsoImport => "iso_import",
            JobKind::IsoFetch => "iso_fetch",
        }
    }
}

impl std::fmt::Display for JobKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a job is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum JobState {
    /// Still working.
    Running,
    /// Ended with a result.
    Succeeded,
    /// Ended with a result in which some hosts failed or ran out of time (a deploy whose
    /// follow saw an install fail, say): the result counts each outcome and names the hosts.
    #[serde(rename = "finished_with_failures")]
    FinishedWithFailures,
    /// Ended with an error (or crashed).
    Failed,
    /// Bootsmith stopped while it ran (a crash, a kill, a power cut): its events say how far
    /// it got.
    Interrupted,
}

macro_rules! steps {
    ($($(#[$doc:meta])* $variant:ident = $wire:literal,)*) => {
        /// What a step of a job does. The words are the wire's (`service-profile`,
        /// `boot-once`): the window's deploy timeline and operators' scripts match on them.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, ToSchema)]
        #[serde(rename_all = "kebab-case")]
        pub enum JobStep {
            $($(#[$doc])* $variant,)*
        }

        impl JobStep {
            /// Every step, in the order of the work that takes them.
            pub const ALL: &[JobStep] = &[$(JobStep::$variant,)*];

            /// The step as the wire writes it (`boot-once`).
            pub fn as_str(self) -> &'static str {
                match self {
                    $(JobStep::$variant => $wire,)*
                }
            }
        }
    };
}

steps! {
    // Images.
    /// Checking that the servers can reach the boot-server address the media are made for.
    Reachability = "reachability",
    /// Checking the logins of the server groups the hosts belong to.
    Logins = "logins",
    /// Extracting an OS's ISO into its HTTP install tree (bytes: per OS).
    Extract = "extract",
    /// Unpacking a RHV-H ISO's squashfs image into its tree.
    RhvhImage = "rhvh-image",
    /// Building an OS's shared boot ISO (bytes: per OS).
    BootIso = "boot-iso",
    /// Building one host's own boot ISO.
    HostIso = "host-iso",
    /// Writing one host's answer image (OEMDRV, CIDATA, UNATTEND).
    AnswerImage = "answer-image",
    // ISO import and fetch.
    /// Hard-linking an imported ISO into svc.
    Link = "link",
    /// Copying an imported ISO into svc.
    Copy = "copy",
    /// Downloading an ISO from its URL.
    Download = "download",
    /// Checking a downloaded ISO against the SHA-256 the operator gave.
    Verify = "verify",
    /// Looking into an imported ISO for the OS it holds.
    Inspect = "inspect",
    /// Mapping an imported ISO to its OS.
    Map = "map",
    // Deploy, virtual media and undeploy.
    /// Writing the group's objects to its manager.
    Objects = "objects",
    /// A host's single-device media (one ISO holding boot and answers).
    SingleDevice = "single-device",
    /// A host's service profile.
    ServiceProfile = "service-profile",
    /// A host's service profile's association with its server.
    Association = "association",
    /// The manager's FSM progress for a host's server.
    Fsm = "fsm",
    /// The BMC a host's server is behind, as the deploy found it (vendor, firmware, rules).
    Session = "session",
    /// A host's media inserted into its BMC's virtual drives and read back.
    VirtualMedia = "virtual-media",
    /// A host's install media mounted, as the server's controller reports it.
    Media = "media",
    /// Setting a host's server to boot once from its media.
    BootOnce = "boot-once",
    /// Powering a host's server on or restarting it.
    Power = "power",
    /// A host's install, followed to its end.
    Install = "install",
    /// Removing what earlier deploys created.
    Remove = "remove",
}

impl std::fmt::Display for JobStep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for JobStep {
    type Err = String;

    /// Also reads the history of earlier releases, whose byte progress named its OS or file
    /// after the step (`extract rhel9`): the first word is the step.
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        let word = s.split(' ').next().unwrap_or_default();
        JobStep::ALL
            .iter()
            .copied()
            .find(|step| step.as_str() == word)
            .ok_or_else(|| format!("'{s}' is not a job step Bootsmith knows"))
    }
}

impl<'de> Deserialize<'de> for JobStep {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Where one step of a job is, for one host or for the whole job.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum StepState {
    /// The step began.
    Started,
    /// The step ended well.
    Done,
    /// The step ended badly.
    Failed,
    /// The step was not needed (e.g. the tree already exists).
    Skipped,
    /// Something the operator should look at, the job going on regardless (e.g. servers may
    /// not reach the boot-server address the media are made for).
    Warning,
}

/// Why a job failed: the one error body, with the status the failure maps to.
pub type JobError = ErrorBody;

/// What a job's work hands back when it ends well: its result, and whether some of the hosts
/// it worked on failed (the job then ends `finished_with_failures`, not `succeeded`).
#[derive(Debug, Clone, PartialEq)]
pub struct JobOutput {
    /// The job's result.
    pub result: serde_json::Value,
    /// Some hosts failed or ran out of time; the result says which.
    pub with_failures: bool,
}

impl From<serde_json::Value> for JobOutput {
    fn from(result: serde_json::Value) -> Self {
        JobOutput {
            result,
            with_failures: false,
        }
    }
}

/// A job's failure from the core's error.
pub fn job_error(e: &Error) -> JobError {
    ErrorBody {
        status: Some(e.kind().http_status()),
        ..ErrorBody::from(e)
    }
}

/// Bootsmith stopped while the job ran (found at the next start).
pub fn interrupted() -> JobError {
    ErrorBody {
        status: Some(500),
        ..ErrorBody::new(
            "Bootsmith stopped while this job ran; its events say how far it got. Run it again",
            ErrorCode::Interrupted,
        )
    }
}

/// The work panicked or was torn down; what happened goes to the log only, like a panicking request.
pub fn crashed() -> JobError {
    ErrorBody {
        status: Some(500),
        ..ErrorBody::new(
            "the job hit an internal error; the log has the details",
            ErrorCode::InternalError,
        )
    }
}

/// One thing that happened in a job.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum JobEvent {
    /// A step started or ended, for one host or (without `host`) for the whole job.
    Step {
        /// The host the step is about.
        #[serde(skip_serializing_if = "Option::is_none")]
        host: Option<String>,
        /// What the step does.
        step: JobStep,
        /// Where it is.
        state: StepState,
        /// A sentence for a person, e.g. why it failed or was skipped.
        #[serde(skip_serializing_if = "Option::is_none")]
        message: Option<String>,
    },
    /// Byte progress of a step. The history keeps only the latest per (step, host).
    Bytes {
        /// The step the bytes belong to.
        step: JobStep,
        /// The host (or OS) the bytes are for.
        #[serde(skip_serializing_if = "Option::is_none")]
        host: Option<String>,
        /// Bytes done so far.
        done: u64,
        /// Bytes in all (may be an estimate).
        total: u64,
    },
    /// The job ended; always the last event.
    Finished {
        /// `succeeded`, `finished_with_failures`, `failed` or `interrupted`.
        state: JobState,
        /// What the work returned, on success.
        #[serde(skip_serializing_if = "Option::is_none")]
        #[schema(schema_with = crate::schema::job_result)]
        result: Option<serde_json::Value>,
        /// Why it failed.
        #[serde(skip_serializing_if = "Option::is_none")]
        error: Option<JobError>,
    },
}

/// An event with its place in the job: `seq` counts up from 1 with every event sent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JobEventRecord {
    /// Position of the event; a resuming reader skips what it has already seen by it.
    pub seq: u64,
    /// The event.
    #[serde(flatten)]
    pub event: JobEvent,
}

/// The record's schema is [`JobEvent`]'s `oneOf` with `seq` in every member. A derived
/// schema would be an `allOf` over that `oneOf`, which client generators (openapi-python-client)
/// cannot model, and drop every type that holds events (`Job`).
impl utoipa::PartialSchema for JobEventRecord {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{
            KnownFormat, ObjectBuilder, OneOfBuilder, Schema, SchemaFormat, Type,
        };
        use utoipa::openapi::RefOr;
        let seq: Schema = ObjectBuilder::new()
            .schema_type(Type::Integer)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
            .minimum(Some(1))
            .description(Some(
                "Position of the event; a resuming reader skips what it has already seen by it.",
            ))
            .into();
        let RefOr::T(Schema::OneOf(events)) = <JobEvent as utoipa::PartialSchema>::schema() else {
            unreachable!("an internally tagged enum's schema is a oneOf")
        };
        let members = events.items.into_iter().map(|member| match member {
            RefOr::T(Schema::Object(mut o)) => {
                o.properties.insert("seq".into(), seq.clone().into());
                o.required.insert(0, "seq".into());
                RefOr::T(Schema::Object(o))
            }
            other => other,
        });
        members
            .fold(OneOfBuilder::new(), |b, m| b.item(m))
            .description(Some(
                "An event with its place in the job: `seq` counts up from 1 with every event sent.",
            ))
            .into()
    }
}

impl ToSchema for JobEventRecord {
    fn schemas(
        schemas: &mut Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )>,
    ) {
        <JobEvent as ToSchema>::schemas(schemas);
    }
}

impl JobEventRecord {
    /// The event's `type` (`step`, `bytes`, `finished`).
    pub fn kind(&self) -> &'static str {
        match self.event {
            JobEvent::Step { .. } => "step",
            JobEvent::Bytes { .. } => "bytes",
            JobEvent::Finished { .. } => "finished",
        }
    }

    /// True for the last event of a job.
    pub fn is_finished(&self) -> bool {
        matches!(self.event, JobEvent::Finished { .. })
    }
}

/// A job with its event history.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Job {
    /// Its id.
    pub id: JobId,
    /// What it does.
    pub kind: JobKind,
    /// What it works on (e.g. the server group), when it is about one thing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    /// Where it is.
    pub state: JobState,
    /// When it started (RFC 3339, UTC).
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Time<Micros>,
    /// When it ended (RFC 3339, UTC).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub finished_at: Option<Time<Micros>>,
    /// What the work returned, on success.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = crate::schema::job_result)]
    pub result: Option<serde_json::Value>,
    /// Why it failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<JobError>,
    /// What happened so far, in order (byte progress only the latest per step and host).
    pub events: Vec<JobEventRecord>,
}

/// A job without its history, for lists.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct JobSummary {
    /// Its id.
    pub id: JobId,
    /// What it does.
    pub kind: JobKind,
    /// What it works on, when it is about one thing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    /// Where it is.
    pub state: JobState,
    /// When it started (RFC 3339, UTC).
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Time<Micros>,
    /// When it ended (RFC 3339, UTC).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub finished_at: Option<Time<Micros>>,
    /// Why it failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<JobError>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_step_reads_back_from_its_wire_word_and_serde_agrees() {
        for &step in JobStep::ALL {
            assert_eq!(serde_json::to_value(step).unwrap(), step.as_str());
            let back: JobStep = serde_json::from_value(step.as_str().into()).unwrap();
            assert_eq!(back, step);
        }
        let mut words: Vec<_> = JobStep::ALL.iter().map(|s| s.as_str()).collect();
        words.sort_unstable();
        words.dedup();
        assert_eq!(words.len(), JobStep::ALL.len(), "no two steps share a word");
    }

    #[test]
    fn history_of_earlier_releases_still_reads() {
        // Byte progress named its OS or file after the step before steps were an enum.
        let old = r#"{"seq": 3, "type": "bytes", "step": "extract rhel9", "done": 1, "total": 2}"#;
        let record: JobEventRecord = serde_json::from_str(old).unwrap();
        assert!(matches!(
            record.event,
            JobEvent::Bytes {
                step: JobStep::Extract,
                host: None,
                ..
            }
        ));
        let unknown = serde_json::from_str::<JobStep>(r#""juggle""#).unwrap_err();
        assert!(
            unknown.to_string().contains("'juggle' is not a job step"),
            "{unknown}"
        );
    }
}
