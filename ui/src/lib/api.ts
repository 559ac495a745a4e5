// The one way the page talks to Bootsmith: Tauri commands inside the app window, the REST API
// (with the token) in a plain browser. Both answer the same JSON and the same errors.

import { Channel, invoke, isTauri } from "@tauri-apps/api/core";
import { SseParser } from "./sse";
import type {
  Aci,
  AciInput,
  ApiError,
  CatalogEntry,
  DeployRequest,
  DeployResult,
  JobOrPlan,
  Disks,
  FsmReport,
  Host,
  HostInput,
  HostTimeline,
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
  call<T>(command: string, args?: Record<string, unknown>): Promise<T>;
  watch(id: string, onEvent: (e: JobEvent) => void): Promise<void>;
}

const inApp: Transport = {
  call: (command, args) => invoke(command, args),
  async watch(id, onEvent) {
    const channel = new Channel<JobEvent>();
    channel.onmessage = onEvent;
    await invoke("job_watch", { id, onEvent: channel });
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
const g = (a: Record<string, unknown>) => `/api/v2/servers/${enc(String(a.group))}`;
/** A query string of the values that are set. */
function query(params: Record<string, unknown>): string {
  const q = Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== null && v !== "")
    .map(([k, v]) => `${enc(k)}=${enc(String(v))}`);
  return q.length ? `?${q.join("&")}` : "";
}
/** A deploy call the window's way: `{job}` answered at once, or `{plan}` for a dry run. */
async function jobOrPlan(method: string, path: string, r: DeployRequest = {}): Promise<JobOrPlan> {
  const res = await request<DeployResult | { job: string }>(method, path + query({ ...r, wait: false }));
  return "job" in res ? { job: res.job } : { plan: res };
}
/** A job's id from a `?wait=false` answer. */
const job = async (p: Promise<{ job: string }>) => (await p).job;

/** The REST calls behind each command: a command's arguments are the call's path segments,
 * body and query by the names the table of actions gives them (crates/api/src/actions.rs).
 * Browsers cannot send a body with GET, so the GETs that take a selector ask for the whole
 * group; the page picks its servers from the answer. Every command the window registers is
 * here or in `APP_ONLY` (commands.test.ts holds both to it). */
export const routes: Record<string, (a: Record<string, unknown>) => Promise<unknown>> = {
  overview: () => request("GET", "/api/v2/overview"),
  about: () => request("GET", "/"),
  catalog_details: () => request("GET", "/api/v2/catalog"),
  settings_svc_ip: async () => (await request<{ svc_ip: string | null }>("GET", "/api/v1/ip")).svc_ip,
  settings_set_svc_ip: async (a) => {
    const r = await request<{ svc_ip: string; warnings?: string[] }>("POST", "/api/v1/ip", a.address);
    return { svc_ip: r.svc_ip, warnings: r.warnings ?? [] };
  },
  keys_list: async () => (await request<{ keys: string[] }>("GET", "/api/v1/keys")).keys,
  keys_details: async () => (await request<{ keys: KeyInfo[] }>("GET", "/api/v2/keys")).keys,
  keys_replace: async (a) => (await request<{ keys: string[] }>("POST", "/api/v1/keys", a.keys)).keys,
  settings_proxy: async () => (await request<{ proxy: string | null }>("GET", "/api/v1/proxy")).proxy,
  settings_set_proxy: async (a) => (await request<{ proxy: string | null }>("POST", "/api/v1/proxy", a.proxy)).proxy,
  settings_org: async () => (await request<{ org: string | null }>("GET", "/api/v1/org")).org,
  settings_set_org: async (a) => (await request<{ org: string | null }>("POST", "/api/v1/org", a.org)).org,
  isos_list: async () => (await request<{ isos: string[] }>("GET", "/api/v1/isos")).isos,
  isos_inspect_files: async () => (await request<{ isos: IsoInfo[] }>("GET", "/api/v2/isos")).isos,
  isos_map: async () => (await request<{ iso_map: IsoMapEntry[] }>("GET", "/api/v1/isos/map")).iso_map,
  isos_set_map: (a) => request("POST", "/api/v1/isos/map", a.map),
  server_groups_list: async () => (await request<{ servers: ServerGroup[] }>("GET", "/api/v2/servers")).servers,
  server_groups_get: (a) => request("GET", g(a)),
  server_groups_create: (a) => request("POST", "/api/v2/servers", a.group),
  server_groups_update: (a) => request("PUT", "/api/v2/servers", a.group),
  server_groups_delete: (a) => request("DELETE", "/api/v2/servers", a.which),
  server_groups_select_servers: (a) => request<Selection>("POST", `${g(a)}/servers`, a.selection),
  compute_inventory: async (a) => (await request<{ servers: InventoryServer[] }>("GET", `${g(a)}/servers`)).servers,
  compute_templates: async (a) => (await request<{ templates: Template[] }>("GET", `${g(a)}/templates`)).templates,
  compute_power: async (a) =>
    (await request<{ status: PowerStatus }>("PUT", `${g(a)}/power/${enc(String(a.action))}`, a.which ?? undefined)).status,
  compute_power_status: async (a) => (await request<{ status: PowerStatus }>("GET", `${g(a)}/powerstat`)).status,
  compute_disks: (a) => request("GET", `${g(a)}/disks`),
  compute_reset_disks: (a) => request("DELETE", `${g(a)}/disks`, a.which ?? undefined),
  compute_fsm: (a) => request("GET", `${g(a)}/fsm`),
  networks_list: async () => (await request<{ networks: Network[] }>("GET", "/api/v2/networks")).networks,
  networks_get: (a) => request("GET", `/api/v2/networks/${enc(String(a.network))}`),
  networks_create: (a) => request("POST", "/api/v2/networks", a.network),
  networks_update: (a) => request("PUT", "/api/v2/networks", a.network),
  networks_delete: (a) => request("DELETE", "/api/v2/networks", a.which),
  aci_list: async () => (await request<{ aci: Aci[] }>("GET", "/api/v2/aci")).aci,
  aci_create: (a) => request("POST", "/api/v2/aci", a.aci),
  aci_update: (a) => request("PUT", "/api/v2/aci", a.aci),
  aci_delete: (a) => request("DELETE", "/api/v2/aci", a.which),
  hosts_list: async () => (await request<{ hosts: HostView[] }>("GET", "/api/v2/hosts")).hosts,
  lifecycle_timeline: (a) => request("GET", `/api/v2/hosts/${enc(String(a.name))}/timeline`),
  images_answer_preview: (a) => request("GET", `/api/v2/hosts/${enc(String(a.name))}/answer`),
  compute_console: (a) => request("GET", `${g(a)}/console${query((a.which ?? {}) as Record<string, unknown>)}`),
  lifecycle_settings: () => request("GET", "/api/v2/settings/install"),
  lifecycle_set_settings: (a) => request("PUT", "/api/v2/settings/install", a.settings),
  hosts_replace: async (a) => (await request<{ hosts: Host[] }>("POST", "/api/v2/hosts", a.hosts)).hosts,
  hosts_delete: (a) => request("DELETE", "/api/v2/hosts", a.which),
  images_start: (a) => job(request("POST", "/api/v2/deploy/images?wait=false", a.hosts ?? undefined)),
  deploy_deploy: (a) => jobOrPlan("POST", `${g(a)}/deploy`, a.request as DeployRequest),
  deploy_vmedia: (a) => jobOrPlan("POST", `${g(a)}/vmedia`, a.request as DeployRequest),
  deploy_undeploy: (a) => jobOrPlan("DELETE", `${g(a)}/deploy`, a.request as DeployRequest),
  jobs_list: async () => (await request<{ jobs: JobSummary[] }>("GET", "/api/v2/jobs")).jobs,
  jobs_get: (a) => request("GET", `/api/v2/jobs/${enc(String(a.id))}`),
  logs_read: (a) => request("GET", `/api/v2/logs${query((a.query ?? {}) as Record<string, unknown>)}`),
  iso_import_start: (a) => job(request("POST", "/api/v2/isos/import?wait=false", a.file)),
  iso_import_fetch: (a) => job(request("POST", "/api/v2/isos/fetch?wait=false", a.source)),
  kubam_import: (a) =>
    request("POST", `/api/v2/import/kubam${query((a.options ?? {}) as Record<string, unknown>)}`, a.file),
};

/** The commands with no REST call behind them, and why. */
export const APP_ONLY: Readonly<Record<string, string>> = {
  auth_token: "the REST API does not hand out its token: a browser is given it (`bootsmith token`)",
  auth_regenerate: "the token is replaced in the window or by `bootsmith token --regenerate`, not over REST",
  job_watch: "a Tauri channel; in a browser `watch` follows GET /api/v2/jobs/{id}/events (SSE) instead",
  console_open: "opens the console page in the desktop's browser; a browser page opens it itself (window.open)",
  choose_isos: "the desktop's file chooser, sized to the screen; a browser page uploads files instead",
};

const inBrowser: Transport = {
  call<T>(command: string, args: Record<string, unknown> = {}): Promise<T> {
    const route = routes[command];
    if (!route) {
      return Promise.reject({ error: `${command} is only available in the app window`, code: "not_implemented" });
    }
    return route(args) as Promise<T>;
  },
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

const c = <T>(command: string, args?: Record<string, unknown>) => transport.call<T>(command, args);
/** A selector body: none means the group's servers. */
const sel = (servers?: Selector, force = false) => (servers ? { servers, force } : null);

export const api = {
  overview: () => c<Overview>("overview"),
  /** The program's version and build (commit and date). */
  about: () => c<About>("about"),
  catalog: async () => (await c<{ os: CatalogEntry[] }>("catalog_details")).os,
  apiToken: () => c<string>("auth_token"),
  regenerateToken: () => c<string>("auth_regenerate"),
  svcIp: () => c<string | null>("settings_svc_ip"),
  /** The address saved, with why servers may not reach it (loopback, not this machine's, …). */
  setSvcIp: (svcIp: string) => c<{ svc_ip: string; warnings: string[] }>("settings_set_svc_ip", { address: { svc_ip: svcIp } }),
  keys: () => c<KeyInfo[]>("keys_details"),
  proxy: () => c<string | null>("settings_proxy"),
  setProxy: (proxy: string) => c<string | null>("settings_set_proxy", { proxy: { proxy } }),
  org: () => c<string | null>("settings_org"),
  setOrg: (org: string) => c<string | null>("settings_set_org", { org: { org } }),
  setKeys: (keys: string[]) => c<string[]>("keys_replace", { keys: { keys } }),
  isos: () => c<IsoInfo[]>("isos_inspect_files"),
  isoMap: () => c<IsoMapEntry[]>("isos_map"),
  setIsoMap: (isoMap: IsoMapEntry[]) => c<MapResult>("isos_set_map", { map: { iso_map: isoMap } }),
  /** Bring a local file into svc (app window): hard link or copy, then detect and map; a job. */
  importIso: (path: string, os?: string) => c<string>("iso_import_start", { file: { path, os: os ?? null } }),
  /** Download an ISO from an http(s) URL into svc (checked against `sha256` when given), then detect and map it; a job. */
  fetchIso: (url: string, sha256?: string) => c<string>("iso_import_fetch", { source: { url, sha256: sha256 || null } }),
  uploadIso: upload,
  serverGroups: () => c<ServerGroup[]>("server_groups_list"),
  serverGroup: (group: string) => c<ServerGroup>("server_groups_get", { group }),
  createServerGroup: (group: ServerGroupInput) => c<ServerGroup>("server_groups_create", { group }),
  updateServerGroup: (group: ServerGroupInput) => c<ServerGroup>("server_groups_update", { group }),
  deleteServerGroup: (name: string) => c<ServerGroup>("server_groups_delete", { which: { name } }),
  /** Select `servers` for `group`; `force` also selects servers running a profile Bootsmith did not create. */
  selectServers: (group: string, servers: Selector, force = false) =>
    c<Selection>("server_groups_select_servers", { group, selection: { servers, force } }),
  inventory: (group: string) => c<InventoryServer[]>("compute_inventory", { group }),
  templates: (group: string) => c<Template[]>("compute_templates", { group }),
  /** `force` acts on servers running a profile Bootsmith did not create too. */
  power: (group: string, action: string, servers?: Selector, force = false) =>
    c<PowerStatus>("compute_power", { group, action, which: sel(servers, force) }),
  powerStatus: (group: string) => c<PowerStatus>("compute_power_status", { group }),
  disks: (group: string) => c<Disks>("compute_disks", { group }),
  resetDisks: (group: string, servers: Selector, force = false) => c<Disks>("compute_reset_disks", { group, which: { servers, force } }),
  fsm: (group: string) => c<FsmReport>("compute_fsm", { group }),
  networks: () => c<Network[]>("networks_list"),
  network: (network: string) => c<Network>("networks_get", { network }),
  createNetwork: (network: NetworkInput) => c<Network>("networks_create", { network }),
  updateNetwork: (network: NetworkInput) => c<Network>("networks_update", { network }),
  deleteNetwork: (name: string) => c<Network>("networks_delete", { which: { name } }),
  aci: () => c<Aci[]>("aci_list"),
  createAci: (aci: AciInput) => c<Aci>("aci_create", { aci }),
  updateAci: (aci: AciInput) => c<Aci>("aci_update", { aci }),
  deleteAci: (name: string) => c<Aci>("aci_delete", { which: { name } }),
  hosts: () => c<HostView[]>("hosts_list"),
  timeline: (name: string) => c<HostTimeline>("lifecycle_timeline", { name }),
  /** The host's answer files as the next image run renders them, secrets masked. */
  answerPreview: (name: string) => c<AnswerPreview>("images_answer_preview", { name }),
  /** Where the server's KVM console opens (its manager's page). */
  console: (group: string, server: string) => c<ConsoleLink>("compute_console", { group, which: { server } }),
  /** Open the server's console page in the desktop's browser (app window only). */
  openConsole: (group: string, server: string) => c<ConsoleLink>("console_open", { group, which: { server } }),
  /** The desktop's Open dialog for ISO files (app window only): the chosen paths, none when cancelled. */
  chooseIsos: () => c<string[]>("choose_isos"),
  installSettings: () => c<InstallSettings>("lifecycle_settings"),
  setInstallSettings: (settings: InstallSettingsInput) => c<InstallSettings>("lifecycle_set_settings", { settings }),
  replaceHosts: (hosts: HostInput[]) => c<Host[]>("hosts_replace", { hosts }),
  deleteHost: (name: string) => c<Host>("hosts_delete", { which: { name } }),
  makeImages: (hosts?: string[]) => c<string>("images_start", hosts ? { hosts } : {}),
  deploy: (group: string, request: DeployRequest) => c<JobOrPlan>("deploy_deploy", { group, request }),
  vmedia: (group: string, request: DeployRequest) => c<JobOrPlan>("deploy_vmedia", { group, request }),
  undeploy: (group: string, request: DeployRequest) => c<JobOrPlan>("deploy_undeploy", { group, request }),
  jobs: () => c<JobSummary[]>("jobs_list"),
  logs: (q: LogQuery) => c<LogPage>("logs_read", { query: q }),
  /** Import KUBAM's kubam.yaml (its text) with its .kubam key (text, optional): the plan with `dryRun`. */
  importKubam: (yaml: string, key: string | null, dryRun: boolean, skipExisting: boolean) =>
    c<KubamReport>("kubam_import", { file: { yaml, key }, options: { dry_run: dryRun, skip_existing: skipExisting } }),
  /** Follow a job's events (history, then live) until it finishes. */
  watch: (id: string, onEvent: (e: JobEvent) => void) => transport.watch(id, onEvent),
};
