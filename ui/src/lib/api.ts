// The one way the page talks to Bootsmith: Tauri commands inside the app window, the REST API
// (with the token) in a plain browser. Both answer the same JSON and the same errors.

import { Channel, invoke, isTauri } from "@tauri-apps/api/core";
import { SseParser } from "./sse";
import manifest from "./actions.json";
import type { ParamMap } from "./params";
import type {
  Aci,
  AciInput,
  ApiError,
  CatalogEntry,
  Pack,
  PackAdded,
  PackInfo,
  PackList,
  DeployRequest,
  JobOrPlan,
  Disks,
  Nics,
  FsmReport,
  Host,
  HostInput,
  HostTimeline,
  HostLogs,
  LogText,
  HostView,
  InstallSettings,
  InstallSettingsInput,
  ImportResult,
  InventoryServer,
  IsoInfo,
  IsoMapEntry,
  JobEvent,
  KeyInfo,
  JobSummary,
  AnswerPreview,
  ConsoleLink,
  KubamReport,
  LogPage,
  LogQuery,
  MapResult,
  Network,
  NetworkInput,
  Overview,
  About,
  PowerStatus,
  Selection,
  Selector,
  ServerGroup,
  ServerGroupInput,
  Template,
} from "./types";

interface Transport {
  call<T>(command: Command, args?: Record<string, unknown>): Promise<T>;
  watch(id: string, onEvent: (e: JobEvent) => void): Promise<void>;
}

const inApp: Transport = {
  call: (command, args) => invoke(command, args),
  async watch(id, onEvent) {
    const channel = new Channel<JobEvent>();
    channel.onmessage = onEvent;
    await invoke("jobs_watch" satisfies Command, { id, onEvent: channel });
  },
};

const TOKEN_KEY = "bootsmith-token";

/** Where the REST API is and the token it wants, in browser mode. */
function rest(): { base: string; token: string } {
  return { base: window.location.origin, token: window.localStorage.getItem(TOKEN_KEY) ?? "" };
}

/** The token header, none without a token (so the API says one is needed, not that it is wrong). */
function auth(token: string): Record<string, string> {
  return token ? { Authorization: `Bearer ${token}` } : {};
}

async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const { base, token } = rest();
  const resp = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...auth(token),
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await resp.json().catch(() => null);
  if (!resp.ok) {
    throw (json as ApiError | null) ?? { error: `${method} ${path} answered HTTP ${resp.status}`, code: "http_error" };
  }
  return json as T;
}

const enc = encodeURIComponent;
/** A query string of the values that are set. */
function query(params: Record<string, unknown>): string {
  const q = Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== null && v !== "")
    .map(([k, v]) => `${enc(k)}=${enc(String(v))}`);
  return q.length ? `?${q.join("&")}` : "";
}

/** Every command the window registers, by name: the manifest the table of actions makes
 * (crates/actions), checked in as actions.json and held to the code by `make test`. */
export type Command = keyof typeof manifest;

/** How a command reaches its action over REST (see crates/api/src/actions.rs), or why not. */
export interface Action {
  method?: "GET" | "POST" | "PUT" | "DELETE";
  /** With `{…}` for each of `segments`, the command's arguments in the path's order. */
  path?: string;
  segments?: string[];
  /** The argument sent as the JSON body, and the one whose fields make the query. */
  body?: string;
  query?: string;
  /** The key of REST's answer under which the window's answer is. */
  unwrap?: string;
  /** A job: asked not to wait, REST answers `{job}` at once (or a dry run's plan). */
  job?: "job" | "job_or_plan";
  /** Why a browser cannot have the command. */
  app_only?: string;
}

export const ACTIONS: Readonly<Record<Command, Action>> = manifest as Record<Command, Action>;

/** The REST call behind `command`, with the window's answer made of REST's. */
async function viaRest(command: Command, a: Record<string, unknown>): Promise<unknown> {
  const action = ACTIONS[command];
  if (!action.method || !action.path) {
    throw { error: `${command} is only available in the app window: ${action.app_only}`, code: "not_implemented" };
  }
  const segments = [...(action.segments ?? [])];
  const path = action.path.replace(/\{[^}]*\}/g, () => enc(String(a[segments.shift() ?? ""])));
  const params = {
    ...((action.query ? a[action.query] : undefined) ?? {}),
    ...(action.job ? { wait: false } : {}),
  } as Record<string, unknown>;
  // Browsers cannot send a body with GET, so the GETs that take a selector ask for the whole
  // group; the page picks its servers from the answer.
  const body = action.body && action.method !== "GET" ? (a[action.body] ?? undefined) : undefined;
  const answer = await request<Record<string, unknown>>(action.method, path + query(params), body);
  if (action.job === "job") return answer.job;
  if (action.job === "job_or_plan") return "job" in answer ? { job: answer.job } : { plan: answer };
  return action.unwrap ? answer[action.unwrap] : answer;
}

const inBrowser: Transport = {
  call: <T>(command: Command, args: Record<string, unknown> = {}) => viaRest(command, args) as Promise<T>,
  async watch(id, onEvent) {
    const { base, token } = rest();
    const resp = await fetch(`${base}/api/v2/jobs/${enc(id)}/events`, { headers: auth(token) });
    if (!resp.ok || !resp.body) {
      throw (await resp.json().catch(() => null)) ?? { error: `the job's events answered HTTP ${resp.status}`, code: "http_error" };
    }
    let finished = false;
    const parser = new SseParser((m) => {
      const e = JSON.parse(m.data) as JobEvent;
      onEvent(e);
      if (e.type === "finished") finished = true;
    });
    const reader = resp.body.pipeThrough(new TextDecoderStream()).getReader();
    while (!finished) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.push(value);
    }
    parser.end();
    await reader.cancel().catch(() => undefined);
  },
};

/** Upload a dropped file into svc over the REST API with byte progress (browser mode). */
function upload(file: File, os: string | undefined, onProgress: (done: number, total: number) => void): Promise<ImportResult> {
  const { base, token } = rest();
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", `${base}/api/v2/isos/${enc(file.name)}${query({ os })}`);
    if (token) xhr.setRequestHeader("Authorization", `Bearer ${token}`);
    xhr.setRequestHeader("Content-Type", "application/octet-stream");
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.total || file.size);
    xhr.onload = () => {
      let json: unknown = null;
      try {
        json = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON: worded below */
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(json as ImportResult);
      else reject(json ?? { error: `the upload answered HTTP ${xhr.status}`, code: "http_error" });
    };
    xhr.onerror = () => reject({ error: `the upload of ${file.name} failed: the connection broke`, code: "http_error" });
    xhr.send(file);
  });
}

const transport: Transport = isTauri() ? inApp : inBrowser;

/** True inside the app window. */
export const insideApp = (): boolean => isTauri();

/** The token this browser keeps for the REST API (browser mode). */
export const browserToken = {
  get: (): string => window.localStorage.getItem(TOKEN_KEY) ?? "",
  set: (t: string): void => window.localStorage.setItem(TOKEN_KEY, t.trim()),
  forget: (): void => window.localStorage.removeItem(TOKEN_KEY),
};

const c = <T>(command: Command, args?: Record<string, unknown>) => transport.call<T>(command, args);
/** A selector body: none means the group's servers. */
const sel = (servers?: Selector, force = false) => (servers ? { servers, force } : null);

/** The page's calls, each named after its command (and so after the core function it calls,
 * `host_views_list` → `host_views::list`), with typed arguments and answers. */
export const api = {
  overview_summary: () => c<Overview>("overview_summary"),
  /** The program's version and build (commit and date). */
  about: () => c<About>("about"),
  catalog_details: async () => (await c<{ os: CatalogEntry[] }>("catalog_details")).os,
  /** The catalog packs of svc/catalog.d, applied or refused (with why). */
  packs_list: async () => (await c<PackList>("packs_list")).packs,
  /** Add (or replace) a catalog pack: checked whole, then stored and usable at once. */
  packs_add: (pack: Pack) => c<PackAdded>("packs_add", { pack }),
  packs_remove: (name: string) => c<PackInfo>("packs_remove", { name }),
  /** Read svc/catalog.d again and apply its packs. */
  packs_reload: async () => (await c<PackList>("packs_reload")).packs,
  auth_token: () => c<string>("auth_token"),
  auth_regenerate: () => c<string>("auth_regenerate"),
  settings_svc_ip: () => c<string | null>("settings_svc_ip"),
  /** The address saved, with why servers may not reach it (loopback, not this machine's, …). */
  settings_set_svc_ip: async (svcIp: string) => {
    // REST leaves the warnings out when there are none.
    const r = await c<{ svc_ip: string; warnings?: string[] }>("settings_set_svc_ip", { address: { svc_ip: svcIp } });
    return { svc_ip: r.svc_ip, warnings: r.warnings ?? [] };
  },
  keys_details: () => c<KeyInfo[]>("keys_details"),
  settings_proxy: () => c<string | null>("settings_proxy"),
  settings_set_proxy: (proxy: string) => c<string | null>("settings_set_proxy", { proxy: { proxy } }),
  /** The default template parameters, secrets as `********`. */
  params_defaults: () => c<ParamMap>("params_defaults"),
  /** Replace the default template parameters; a secret sent back as `********` keeps its value. */
  params_set_defaults: (params: ParamMap) => c<ParamMap>("params_set_defaults", { params }),
  settings_org: () => c<string | null>("settings_org"),
  settings_set_org: (org: string) => c<string | null>("settings_set_org", { org: { org } }),
  keys_replace: (keys: string[]) => c<string[]>("keys_replace", { keys: { keys } }),
  isos_inspect_files: () => c<IsoInfo[]>("isos_inspect_files"),
  isos_map: () => c<IsoMapEntry[]>("isos_map"),
  isos_set_map: (isoMap: IsoMapEntry[]) => c<MapResult>("isos_set_map", { map: { iso_map: isoMap } }),
  /** Bring a local file into svc (app window): hard link or copy, then detect and map; a job. */
  iso_import_start: (path: string, os?: string) => c<string>("iso_import_start", { file: { path, os: os ?? null } }),
  /** Download an ISO from an http(s) URL into svc (checked against `sha256` when given), then detect and map it; a job. */
  iso_import_fetch: (url: string, sha256?: string) => c<string>("iso_import_fetch", { source: { url, sha256: sha256 || null } }),
  /** Upload a file into svc with byte progress (browser mode): a route of REST's own, no command. */
  isos_upload: upload,
  server_groups_list: () => c<ServerGroup[]>("server_groups_list"),
  server_groups_get: (group: string) => c<ServerGroup>("server_groups_get", { group }),
  server_groups_create: (group: ServerGroupInput) => c<ServerGroup>("server_groups_create", { group }),
  server_groups_update: (group: ServerGroupInput) => c<ServerGroup>("server_groups_update", { group }),
  server_groups_delete: (name: string) => c<ServerGroup>("server_groups_delete", { which: { name } }),
  /** Select `servers` for `group`; `force` also selects servers running a profile Bootsmith did not create. */
  server_groups_select_servers: (group: string, servers: Selector, force = false) =>
    c<Selection>("server_groups_select_servers", { group, selection: { servers, force } }),
  compute_inventory: (group: string) => c<InventoryServer[]>("compute_inventory", { group }),
  compute_templates: (group: string) => c<Template[]>("compute_templates", { group }),
  /** `force` acts on servers running a profile Bootsmith did not create too. */
  compute_power: (group: string, action: string, servers?: Selector, force = false) =>
    c<PowerStatus>("compute_power", { group, action, which: sel(servers, force) }),
  compute_power_status: (group: string) => c<PowerStatus>("compute_power_status", { group }),
  compute_disks: (group: string) => c<Disks>("compute_disks", { group }),
  compute_nics: (group: string) => c<Nics>("compute_nics", { group }),
  compute_reset_disks: (group: string, servers: Selector, force = false) => c<Disks>("compute_reset_disks", { group, which: { servers, force } }),
  compute_fsm: (group: string) => c<FsmReport>("compute_fsm", { group }),
  networks_list: () => c<Network[]>("networks_list"),
  networks_get: (network: string) => c<Network>("networks_get", { network }),
  networks_create: (network: NetworkInput) => c<Network>("networks_create", { network }),
  networks_update: (network: NetworkInput) => c<Network>("networks_update", { network }),
  networks_delete: (name: string) => c<Network>("networks_delete", { which: { name } }),
  aci_list: () => c<Aci[]>("aci_list"),
  aci_create: (aci: AciInput) => c<Aci>("aci_create", { aci }),
  aci_update: (aci: AciInput) => c<Aci>("aci_update", { aci }),
  aci_delete: (name: string) => c<Aci>("aci_delete", { which: { name } }),
  host_views_list: () => c<HostView[]>("host_views_list"),
  host_views_timeline: (name: string) => c<HostTimeline>("host_views_timeline", { name }),
  /** The host's installer logs, per attempt, newest first; `latest` is the one that tells why. */
  install_logs_list: (name: string) => c<HostLogs>("install_logs_list", { name }),
  /** One installer log as text: whole, or its last `tail` lines. */
  install_logs_read: (name: string, attempt: number, file: string, tail?: number) =>
    c<LogText>("install_logs_read", { name, attempt: String(attempt), file, query: tail ? { tail } : {} }),
  /** The host's answer files as the next image run renders them, secrets masked. */
  images_answer_preview: (name: string) => c<AnswerPreview>("images_answer_preview", { name }),
  /** Where the server's KVM console opens (its manager's page). */
  compute_console: (group: string, server: string) => c<ConsoleLink>("compute_console", { group, which: { server } }),
  /** Open the server's console page in the desktop's browser (app window only). */
  console_open: (group: string, server: string) => c<ConsoleLink>("console_open", { group, which: { server } }),
  /** The desktop's Open dialog for ISO files (app window only): the chosen paths, none when cancelled. */
  choose_isos: () => c<string[]>("choose_isos"),
  lifecycle_settings: () => c<InstallSettings>("lifecycle_settings"),
  lifecycle_set_settings: (settings: InstallSettingsInput) => c<InstallSettings>("lifecycle_set_settings", { settings }),
  hosts_replace: (hosts: HostInput[]) => c<Host[]>("hosts_replace", { hosts }),
  hosts_delete: (name: string) => c<Host>("hosts_delete", { which: { name } }),
  images_start: (hosts?: string[]) => c<string>("images_start", hosts ? { hosts } : {}),
  deploy_deploy: (group: string, request: DeployRequest) => c<JobOrPlan>("deploy_deploy", { group, request }),
  deploy_vmedia: (group: string, request: DeployRequest) => c<JobOrPlan>("deploy_vmedia", { group, request }),
  deploy_undeploy: (group: string, request: DeployRequest) => c<JobOrPlan>("deploy_undeploy", { group, request }),
  jobs_list: () => c<JobSummary[]>("jobs_list"),
  logs_read: (q: LogQuery) => c<LogPage>("logs_read", { query: q }),
  /** Import KUBAM's kubam.yaml (its text) with its .kubam key (text, optional): the plan with `dryRun`. */
  kubam_import: (yaml: string, key: string | null, dryRun: boolean, skipExisting: boolean) =>
    c<KubamReport>("kubam_import", { file: { yaml, key }, options: { dry_run: dryRun, skip_existing: skipExisting } }),
  /** Follow a job's events (history, then live) until it finishes. */
  jobs_watch: (id: string, onEvent: (e: JobEvent) => void) => transport.watch(id, onEvent),
} satisfies Partial<Record<Command | "isos_upload", unknown>>;
