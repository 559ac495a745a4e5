// The records and results the core answers, as the page uses them (same JSON as the REST API).

export interface Problem {
  /** Row of a submitted list (hosts), when the input was a list. */
  index?: number;
  /** Name of that row, when it has one. */
  name?: string;
  field?: string;
  message: string;
}

/** An error from a command or the REST API: a sentence, a stable code, the problems. */
export interface ApiError {
  error: string;
  code: string;
  details?: Problem[];
  /** The manager's certificate, when it is not trusted yet (code untrusted_certificate). */
  fingerprint?: string;
  ucs_code?: string;
}

export interface Overview {
  svc_ip: string | null;
  listen_url?: string | null;
  listen_error?: string | null;
  data_dir: string;
  svc_dir: string;
  key_store?: string;
  counts: {
    server_groups: number;
    networks: number;
    hosts: number;
    isos: number;
    mapped_isos: number;
    keys: number;
  };
  warnings: string[];
  version?: string;
}

/** Selected blades (`1/3`) and rack servers (`2`). */
export interface Selector {
  blades: string[];
  rack_servers: string[];
}

export interface ServerGroup {
  id: string;
  name: string;
  /** ucsc groups (UCS Central, imported from KUBAM) are stored but not usable yet. */
  type: "ucsm" | "imc" | "ucsc";
  description?: string | null;
  /** The UCS org DN deploys work under; null: the default org. */
  org?: string | null;
  /** The password comes back encrypted; sending it back unchanged keeps it. */
  credentials: { ip: string; user: string; password: string };
  server_pool: Selector;
  vlan?: string | null;
  insecure: boolean;
  fingerprint?: string;
  /** No password yet (imported from KUBAM without its key file): enter one before use. */
  password_missing?: boolean;
  /** What its manager can do; other actions answer `not_supported`. */
  capabilities: Capability[];
}

/** Something a manager can do (its driver declares it). */
export type Capability =
  | "inventory"
  | "templates"
  | "power"
  | "disks"
  | "disk_reset"
  | "progress"
  | "install_media"
  | "deploy"
  | "undeploy"
  | "follow_association";

export interface ServerGroupInput {
  id?: string;
  name: string;
  type: string;
  credentials: { ip: string; user: string; password: string };
  vlan?: string | null;
  insecure?: boolean;
  fingerprint?: string;
  check_login?: boolean;
  description?: string | null;
  org?: string | null;
}

/** A stored SSH key and what identifies it to a person. */
export interface KeyInfo {
  key: string;
  type: string;
  comment: string;
  /** `SHA256:…`, as `ssh-keygen -l` prints it. */
  fingerprint: string;
}

/** A stored server selection, with what could not be checked against the manager. */
export interface Selection {
  servers: Selector;
  warnings?: string[];
}

/** A blade or rack server of a group's manager. */
export interface InventoryServer {
  id: string;
  dn: string;
  type: string;
  model: string;
  num_cpus: string;
  num_cores: string;
  ram: string;
  oper_power: string;
  association: string;
  service_profile: string;
  serial: string;
  label: string;
  selected: boolean;
}

export interface Template {
  /** The DN, as KUBAM's clients compare it. */
  name: string;
  dn: string;
  short_name: string;
  type: string;
}

/** Lines like `1/3: on`, per kind. */
export interface PowerStatus {
  blades: string[];
  rack_servers: string[];
}

export interface Disk {
  id: string;
  dn: string;
  state: string;
  model: string;
  size: string;
}

export interface Disks {
  blades: Record<string, Disk[]>;
  rack_servers: Record<string, Disk[]>;
}

export interface FsmStage {
  name: string;
  descr: string;
  order: string;
  stage_status: string;
  last_update_time: string;
  server: string;
}

export interface FsmReport {
  stages: FsmStage[];
}

export interface Network {
  id: string;
  name: string;
  netmask: string;
  gateway: string;
  nameserver: string;
  ntpserver: string;
  proxy?: string | null;
  vlan?: string | null;
}

export interface NetworkInput {
  id?: string;
  name: string;
  netmask: string;
  gateway: string;
  nameserver: string;
  ntpserver: string;
  proxy?: string | null;
  vlan?: string | null;
}

export interface Host {
  name: string;
  ip: string;
  os: string;
  role: string;
  network_group: string;
  server_group?: string | null;
  service_profile_template?: string | null;
  server?: string | null;
}

/** A host row as sent: every field a string, blanks left out. */
export type HostInput = Partial<Record<keyof Host, string>>;

export interface CatalogEntry {
  id: string;
  name: string;
  family: string;
  version: string;
  code: string;
  roles: string[];
  boot: string;
}

/** An ISO file in svc as Bootsmith sees it. */
export interface IsoInfo {
  file: string;
  size: number;
  volume_id: string | null;
  detected: string[];
  bios_boot: boolean;
  uefi_boot: boolean;
  mapped_to: string | null;
  problem?: string;
}

export interface MapResult {
  iso_map: IsoMapEntry[];
  warnings?: string[];
}

/** The result of bringing an ISO into svc. */
export interface ImportResult {
  file: string;
  linked: boolean;
  bytes: number;
  detected: string | null;
  mapped: string | null;
  warnings: string[];
}

export interface JobSummary {
  id: string;
  kind: string;
  scope?: string;
  state: string;
  created_at: string;
  finished_at?: string;
  error?: ApiError;
}

export interface LogLine {
  time: string | null;
  level: string;
  target: string;
  message: string;
  fields: Record<string, unknown>;
}

export interface LogPage {
  lines: LogLine[];
  /** Pass as `before` for older lines; absent at the start of the log. */
  next?: string | null;
}

export interface LogQuery {
  level?: string;
  q?: string;
  limit?: number;
  before?: string;
}

export interface IsoMapEntry {
  file: string;
  os: string;
}

export type StepState = "started" | "done" | "failed" | "skipped";

/** One event of a job, as its stream sends it. */
export type JobEvent =
  | { seq: number; type: "step"; step: string; state: StepState; host?: string; message?: string }
  | { seq: number; type: "bytes"; step: string; host?: string; done: number; total: number }
  | { seq: number; type: "finished"; state: "succeeded" | "failed"; result?: unknown; error?: ApiError };

export interface PlannedObject {
  dn: string;
  class: string;
  action: "create" | "modify" | "delete" | "unchanged";
  changed?: string[];
}

export interface HostProgress {
  host: string;
  association: string;
  server: string;
  power: string;
}

export interface DeployResult {
  server_group: string;
  os: string;
  dry_run: boolean;
  objects: PlannedObject[];
  hosts?: HostProgress[];
  restarted?: string[];
  warnings?: string[];
}

/** How a deploy, virtual-media run or undeploy runs (the REST query's fields). */
export interface DeployRequest {
  dry_run?: boolean;
  until?: "written" | "associated";
  restart?: boolean;
}

/** A write answers with the job to follow; a dry run with the plan. */
export interface JobOrPlan {
  job?: string;
  plan?: DeployResult;
}

export interface ImagesResult {
  images: { host: string; file: string | null; label: string | null; note?: string }[];
  boot_isos: { file: string; os: string; host?: string | null; built: boolean }[];
  trees: { os: string; tree: string; built: boolean; files: number; bytes: number }[];
}

/** A Cisco ACI (APIC) instance the hosts' networks live in. */
export interface Aci {
  id: string;
  name: string;
  /** The password comes back encrypted; sending it back unchanged keeps it. */
  credentials: { ip: string; user: string; password: string };
  tenant_name: string;
  vrf_name: string;
  bridge_domain: string;
}

export type AciInput = Omit<Aci, "id"> & { id?: string };

/** One record of a KUBAM kubam.yaml and what its import does with it. */
export interface KubamPlanItem {
  kind: "setting" | "ssh_key" | "iso_map" | "server_group" | "network_group" | "aci" | "host";
  name: string;
  action: "create" | "rename" | "unchanged" | "skip" | "conflict";
  new_name?: string;
  reason?: string;
  notes?: string[];
  line?: number;
}

/** The plan (dry run) or the result of a KUBAM import. */
export interface KubamReport {
  dry_run: boolean;
  written: boolean;
  summary: { create: number; rename: number; unchanged: number; skip: number; conflict: number };
  records: KubamPlanItem[];
  missing_isos: string[];
  custom_templates: { host: string; template: string }[];
}
