// The records and results the core answers, as the page uses them (same JSON as the REST API).

export interface Problem {
  field?: string;
  message: string;
}

/** An error from a command or the REST API: a sentence, a stable code, the problems. */
export interface ApiError {
  error: string;
  code: string;
  details?: Problem[];
}

export interface Overview {
  svc_ip: string | null;
  listen_url?: string | null;
  listen_error?: string | null;
  data_dir: string;
  svc_dir: string;
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

export interface ServerGroup {
  name: string;
  type: string;
  credentials: { ip: string; user: string };
  server_pool: { blades: string[]; rack_servers: string[] };
}

export interface Network {
  name: string;
  netmask: string;
  gateway: string;
  nameserver: string | null;
  ntpserver: string | null;
  vlan: string | null;
}

export interface Host {
  name: string;
  ip: string;
  os: string;
  role: string;
  network_group: string | null;
  server_group: string | null;
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
}

export interface ImagesResult {
  images: unknown[];
  boot_isos: unknown[];
  trees: unknown[];
}
