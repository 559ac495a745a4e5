// The one way the page talks to Bootsmith: Tauri commands inside the app window, the REST API
// (with the token) in a plain browser. Both answer the same JSON and the same errors.

import { Channel, invoke, isTauri } from "@tauri-apps/api/core";
import { SseParser } from "./sse";
import type {
  ApiError,
  DeployResult,
  Host,
  IsoMapEntry,
  JobEvent,
  Network,
  Overview,
  ServerGroup,
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

/** Where the REST API is and the token it wants, in browser mode. */
function rest(): { base: string; token: string } {
  return { base: window.location.origin, token: window.localStorage.getItem("bootsmith-token") ?? "" };
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

/** The REST calls behind each command the page uses. */
const routes: Record<string, (a: Record<string, unknown>) => Promise<unknown>> = {
  overview: () => request("GET", "/api/v2/overview"),
  list_server_groups: async () => (await request<{ servers: ServerGroup[] }>("GET", "/api/v2/servers")).servers,
  list_networks: async () => (await request<{ networks: Network[] }>("GET", "/api/v2/networks")).networks,
  list_hosts: async () => (await request<{ hosts: Host[] }>("GET", "/api/v2/hosts")).hosts,
  iso_map: async () => (await request<{ iso_map: IsoMapEntry[] }>("GET", "/api/v1/isos/map")).iso_map,
  make_images: async (a) => (await request<{ job: string }>("POST", "/api/v2/deploy/images?wait=false", a.hosts ?? undefined)).job,
  deploy_plan: (a) => request("POST", `/api/v2/servers/${enc(String(a.group))}/deploy?dry_run=true`),
  deploy: async (a) => {
    const until = a.follow ? "associated" : "written";
    const path = `/api/v2/servers/${enc(String(a.group))}/deploy?wait=false&until=${until}&restart=${a.restart ? "true" : "false"}`;
    return (await request<{ job: string }>("POST", path)).job;
  },
  deploy_vmedia: async (a) =>
    (await request<{ job: string }>("POST", `/api/v2/servers/${enc(String(a.group))}/vmedia?wait=false`)).job,
};

const inBrowser: Transport = {
  call<T>(command: string, args: Record<string, unknown> = {}): Promise<T> {
    const route = routes[command];
    if (!route) {
      return Promise.reject({ error: `${command} is not available in the browser yet; use the app window`, code: "not_implemented" });
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

const transport: Transport = isTauri() ? inApp : inBrowser;

/** True inside the app window. */
export const insideApp = (): boolean => isTauri();

export const api = {
  overview: () => transport.call<Overview>("overview"),
  serverGroups: () => transport.call<ServerGroup[]>("list_server_groups"),
  networks: () => transport.call<Network[]>("list_networks"),
  hosts: () => transport.call<Host[]>("list_hosts"),
  isoMap: () => transport.call<IsoMapEntry[]>("iso_map"),
  makeImages: (hosts?: string[]) => transport.call<string>("make_images", hosts ? { hosts } : {}),
  deployPlan: (group: string) => transport.call<DeployResult>("deploy_plan", { group }),
  deploy: (group: string, follow: boolean, restart: boolean) => transport.call<string>("deploy", { group, follow, restart }),
  deployVmedia: (group: string) => transport.call<string>("deploy_vmedia", { group }),
  /** Follow a job's events (history, then live) until it finishes. */
  watch: (id: string, onEvent: (e: JobEvent) => void) => transport.watch(id, onEvent),
};
