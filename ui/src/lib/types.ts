// The records and results the core answers, as the page uses them (same JSON as the REST API).
// They are the OpenAPI document's schemas (`api-schema.ts`, generated: `npm run gen:api`) under
// the names the page uses; only what the REST API does not have is written out here.

import type { components, operations } from "./api-schema";

type S = components["schemas"];

export type Problem = S["Problem"];

/** An error from a command or the REST API: a sentence, a stable code, the problems. */
export type ApiError = S["ErrorBody"];
/** Every code the core and the REST door answer with. */
export type ErrorCode = S["ErrorCode"];

/** Record counts and what an install still needs. The window's `overview` command adds where
 * the REST listener answers and the version (window-only: REST has `/` for the version). */
export type Overview = S["Overview"] & {
  listen_url?: string | null;
  listen_error?: string | null;
  version?: string;
};

/** The program's version and build, as `GET /` answers them. */
export type About = S["ServiceStatus"];

/** Selected blades (`1/3`) and rack servers (`2`). */
export type Selector = S["ServerSelector"];

export type ServerGroup = S["ServerGroup"];
/** Something a manager can do (its driver declares it); other actions answer `not_supported`. */
export type Capability = S["Capability"];
/** A ServerGroup form's body: the create schema, with the id an update needs (left out on create). */
export type ServerGroupInput = S["ServerGroupCreate"] & { id?: S["ServerGroupUpdate"]["id"] };

/** A stored SSH key and what identifies it to a person. */
export type KeyInfo = S["KeyInfo"];

/** A stored server selection, with what could not be checked against the manager. */
export type Selection = S["Selection"];

/** A blade or rack server of a group's manager. */
export type InventoryServer = S["ServerRecord"];
export type Template = S["TemplateRecord"];
/** Lines like `1/3: on`, per kind. */
export type PowerStatus = S["PowerStatus"];
export type Disk = S["DiskRecord"];
export type Disks = S["Disks"];
export type Nics = S["Nics"];
export type NicRecord = S["NicRecord"];
export type FsmStage = S["StageRecord"];
export type FsmReport = S["FsmReport"];

export type Network = S["NetworkGroup"];
/** A Network form's body: the create schema, with the id an update needs (left out on create). */
export type NetworkInput = S["NetworkCreate"] & { id?: S["NetworkUpdate"]["id"] };

export type Host = S["Host"];
/** A host as listed: the record, where its install is, and its install media. */
export type HostView = S["HostView"];
export type InstallStatus = S["InstallStatus"];
export type InstallStage = S["Stage"];
export type MediaStatus = S["MediaStatus"];
/** One host's install from its last build on, stage by stage, with every fetch of its media. */
export type HostTimeline = S["Timeline"];
/** A host's installer logs, per attempt (one image build's install token), newest first. */
export type HostLogs = S["HostLogs"];
export type LogAttempt = S["LogAttempt"];
/** One installer log's text, whole or its last lines. */
export type LogText = S["LogText"];
/** Stage limits (minutes) and what happens after `installed`. */
export type InstallSettings = S["Timeouts"];
export type InstallSettingsInput = S["TimeoutsInput"];
/** The disk a host (or a server group's hosts) install on: Ironic's root-device hints. */
export type InstallDiskHint = S["InstallDiskHint"];
/** A host row as the sheet sends it: every field a string, blanks left out, so the core names
 * each missing field of each row (the schema's `HostInput` is what it accepts); the install
 * disk's hint an object, left out for the default disk; the MACs a list. */
export type HostInput = { [K in Exclude<keyof S["HostInput"], "install_disk" | "macs" | "ipv6" | "params">]?: string } & {
  install_disk?: InstallDiskHint | null;
  macs?: string[] | null;
  ipv6?: string | null;
  params?: Record<string, S["ParamValue"]> | null;
};

export type CatalogEntry = S["OsEntry"];
/** A catalog pack as written: entries (with `override` where one replaces an id) and templates. */
export type Pack = S["Pack"];
/** A pack in svc/catalog.d: applied, or refused with why. */
export type PackInfo = S["PackInfo"];
export type PackList = S["PackList"];
/** A pack added, and whether ksvalidator checked its kickstarts. */
export type PackAdded = S["PackAdded"];
/** An ISO file in svc as Bootsmith sees it. */
export type IsoInfo = S["IsoInfo"];
export type IsoMapEntry = S["IsoMapEntry"];
export type MapResult = S["MapResult"];
/** The result of bringing an ISO into svc. */
export type ImportResult = S["ImportResult"];

export type JobSummary = S["JobSummary"];
export type StepState = S["StepState"];
/** One event of a job, as its stream sends it. */
export type JobEvent = S["JobEventRecord"];
/** What a step of a job does (`service-profile`, `boot-once`, …). */
export type JobStep = S["JobStep"];

export type LogLine = S["LogLine"];
export type LogPage = S["LogPage"];
export type LogQuery = NonNullable<operations["read_logs"]["parameters"]["query"]>;

export type PlannedObject = S["PlannedObject"];
export type HostProgress = S["HostProgress"];
export type DeployResult = S["DeployResult"];
/** How a deploy, virtual-media run or undeploy runs: the REST query's fields but `wait`. */
export type DeployRequest = Omit<NonNullable<operations["deploy_server_group"]["parameters"]["query"]>, "wait">;
/** What the window's deploy commands answer (window-only: REST answers the job or the plan
 * itself, by `?wait=false` and `?dry_run`): the job to follow, or for a dry run the plan. */
export interface JobOrPlan {
  job?: S["JobId"];
  plan?: DeployResult;
}
export type ImagesResult = S["Images"];

/** A Cisco ACI (APIC) instance the hosts' networks live in. */
export type Aci = S["AciInstance"];
/** A Aci form's body: the create schema, with the id an update needs (left out on create). */
export type AciInput = S["AciCreate"] & { id?: S["AciUpdate"]["id"] };

/** One record of a KUBAM kubam.yaml and what its import does with it. */
export type KubamPlanItem = S["PlanItem"];
/** The plan (dry run) or the result of a KUBAM import. */
export type KubamReport = S["ImportReport"];

/** A host's answer files as the next image run renders them, secrets masked. */
export type AnswerPreview = S["AnswerPreview"];
/** Where a server's KVM console opens, and what to do there. */
export type ConsoleLink = S["ConsoleLink"];
