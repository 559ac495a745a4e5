// What the page says: errors, job steps and results in words, never raw JSON.

import type { ApiError, Capability, ErrorCode, DeployResult, ImagesResult, InventoryServer, JobEvent, LogLine as LogRecord, PlannedObject } from "./types";
import { SCREENS, type ScreenId } from "./screens";

/** A value for a table cell: an em dash for nothing. */
export function text(v: unknown): string {
  return v === null || v === undefined || v === "" ? "—" : String(v);
}

/** An error as a sentence (the problems are already in it). */
export function describe(e: unknown): string {
  if (e && typeof e === "object" && "error" in e && typeof (e as ApiError).error === "string") {
    return (e as ApiError).error;
  }
  if (e instanceof Error) return e.message;
  return String(e);
}

/** One line of a job's log for a step event: `host: step state (message)`. */
export function stepLine(e: Extract<JobEvent, { type: "step" }>): string {
  const who = e.host ? `${e.host}: ` : "";
  const what = e.message ? ` (${e.message})` : "";
  return `${who}${e.step} ${e.state}${what}`;
}

/** Byte progress in MiB, with the host or OS it is for: `rhel9: extract: 12 of 900 MiB`. */
export function bytesLine(e: Extract<JobEvent, { type: "bytes" }>): string {
  const who = e.host ? `${e.host}: ` : "";
  return `${who}${e.step}: ${Math.floor(e.done / 1048576)} of ${Math.ceil(e.total / 1048576)} MiB`;
}

/** How many objects a plan creates, modifies, deletes and leaves. */
export function planSummary(p: DeployResult): string {
  const count = (a: PlannedObject["action"]) => p.objects.filter((o) => o.action === a).length;
  return `${p.os} on ${p.server_group}: ${count("create")} to create, ${count("modify")} to modify, ${count("delete")} to delete, ${count("unchanged")} unchanged.`;
}

/** The outcome of a deploy job. */
export function deploySummary(r: DeployResult): string {
  const written = r.objects.filter((o) => o.action !== "unchanged").length;
  const hosts = (r.hosts ?? []).map(
    (h) => `${h.host}${h.association ? ` ${h.association}` : ""}${h.server ? ` on ${h.server}` : ""}${h.media ? ` (media ${h.media.state})` : ""}`,
  );
  const restarted = r.restarted?.length ? ` Restarted: ${r.restarted.join(", ")}.` : "";
  const failed = r.failed_hosts ?? [];
  if (failed.length) {
    const counts = Object.entries(r.outcomes ?? {})
      .map(([o, n]) => `${n} ${o.replace("_", " ")}`)
      .join(", ");
    return `Deploy to ${r.server_group} finished with failures: ${failed.join(", ")} failed or ran out of time (${counts}). ${written} of ${r.objects.length} objects written.${restarted}`;
  }
  return `Deployed to ${r.server_group}: ${written} of ${r.objects.length} objects written.${hosts.length ? ` ${hosts.join(", ")}.` : ""}${restarted}`;
}

/** Every screen's one time format.  `13:04:05` today, else `2026-11-23 13:04`: when a stage was reached. */
export function when(iso?: string | null): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const today = new Date().toDateString() === d.toDateString();
  const pad = (n: number) => String(n).padStart(2, "0");
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  return today ? time : `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${time.slice(0, 5)}`;
}

/** The outcome of an image run. */
export function imagesSummary(r: ImagesResult): string {
  const warned = r.warnings?.length ? ` ${r.warnings.join(" ")}` : "";
  return `Done: ${count(r.images.length, "answer image")}, ${count(r.boot_isos.length, "boot ISO")}.${warned}`;
}

const JOB_KINDS: Record<string, string> = {
  images: "Install media",
  deploy: "Deploy",
  vmedia: "Virtual media",
  undeploy: "Undeploy",
  iso_import: "ISO import",
  iso_fetch: "ISO download",
};

/** How a job ended (or that it runs), in words. */
export function jobStateWords(state: string): string {
  return state === "finished_with_failures" ? "finished with failures" : state;
}

/** One line for a job in a list: what, for what, how it ended, when. */
export function jobLine(j: { kind: string; scope?: string | null; state: string; created_at: string; error?: { error: string } | null }): string {
  const what = JOB_KINDS[j.kind] ?? j.kind;
  const scope = j.scope ? ` (${j.scope})` : "";
  const why = j.error ? `: ${j.error.error}` : "";
  return `${what}${scope} ${jobStateWords(j.state)}${why} — started ${when(j.created_at)}`;
}

/** A byte count for people: `1.4 GiB`. */
export function size(bytes: number): string {
  const units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
  let n = bytes;
  let u = 0;
  while (n >= 1024 && u < units.length - 1) {
    n /= 1024;
    u += 1;
  }
  return u === 0 ? `${n} bytes` : `${n.toFixed(1)} ${units[u]}`;
}

/** The problems of an error, by field (for inline messages next to form fields). */
export function fieldErrors(e: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  const details = (e as { details?: { field?: string; message: string }[] } | null)?.details ?? [];
  for (const d of details) {
    if (d.field) out[d.field] = out[d.field] ? `${out[d.field]}; ${d.message}` : d.message;
  }
  return out;
}

/** The outcome of bringing an ISO into svc. */
export function importSummary(
  r: { file: string; linked: boolean; detected?: string | null; mapped?: string | null; warnings: string[] },
  uploaded = false,
): string {
  const how = uploaded ? "uploaded" : r.linked ? "linked" : "copied";
  const os = r.mapped ? ` and mapped to ${r.mapped}` : r.detected ? ` (holds ${r.detected}; not mapped)` : " (not recognised: map it by hand)";
  const warn = r.warnings.length ? ` ${r.warnings.join(" ")}` : "";
  return `${r.file} ${how} into svc${os}.${warn}`;
}

/** Power lines (`1/3: on`) as a map from server id to state. */
export function powerStates(s: { blades: string[]; rack_servers: string[] }): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of [...s.blades, ...s.rack_servers]) {
    const at = line.lastIndexOf(": ");
    if (at > 0) out[line.slice(0, at)] = line.slice(at + 2);
  }
  return out;
}

/** `url` as the servers and a browser can use it: a listener bound to every address
 * (`0.0.0.0`, `[::]`) is reached at the boot-server address `svcIp` (127.0.0.1 until one is
 * set), never at the wildcard, which no client can connect to. */
export function reachableUrl(url: string, svcIp?: string | null): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  if (u.hostname !== "0.0.0.0" && u.hostname !== "[::]") return url;
  const ip = svcIp || "127.0.0.1";
  u.hostname = ip.includes(":") ? `[${ip}]` : ip;
  return u.toString();
}

/** The noun for `n` of a thing: `server` for one, `servers` otherwise. */
export function noun(n: number, one: string, many = `${one}s`): string {
  return n === 1 ? one : many;
}

/** When a UCS manager last read something (`2026-11-26T23:40:00.123`, UTC with no zone) to the
 *  minute: `2026-11-26 23:40 UTC`; what it cannot read stays as given. */
export function lastRead(stamp: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(stamp);
  return m ? `${m[1]} ${m[2]} UTC` : stamp;
}

/** Why a server cannot be chosen now, or null when it can: its domain is one UCS Central
 * cannot reach, so what is shown of it is old and anything asked of it is refused. */
export function lostDomain(s: Pick<InventoryServer, "domain_reachable" | "domain_id" | "domain_name" | "domain_last_read">): string | null {
  if (s.domain_reachable !== false) return null;
  const domain = s.domain_name ? `${s.domain_id} (${s.domain_name})` : (s.domain_id ?? "");
  const since = s.domain_last_read ? `since ${lastRead(s.domain_last_read)}` : "(never read)";
  return `Domain ${domain} unreachable ${since}: its servers cannot be chosen until UCS Central reads it again`;
}

/** `1 server`, `2 servers`: a count with its noun. */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${noun(n, one, many)}`;
}

/** What each manager capability means, for the server-group screen. */
export const CAPABILITY_WORDS: Record<Capability, string> = {
  inventory: "servers",
  templates: "templates",
  power: "power",
  disks: "disks",
  disk_reset: "disk reset",
  progress: "FSM progress",
  install_media: "virtual media",
  deploy: "deploy",
  undeploy: "undeploy",
  follow_association: "follow association",
};

/** A way out of an error: the screen that fixes it, and what to do there. */
export interface Fix {
  screen: ScreenId;
  label: string;
}

// What the problem's field or the error's code asks for, and where it is done. The REST
// answers' `hint` names the call for scripts; the window names its own screens.
const FIELD_FIXES: Record<string, Fix> = {
  svc_ip: { screen: "settings", label: "Set the boot-server address" },
  iso_map: { screen: "isos", label: "Add and map an ISO" },
  os: { screen: "isos", label: "Add and map an ISO" },
  media: { screen: "images", label: "Make the images" },
  images: { screen: "images", label: "Make the images" },
  hosts: { screen: "hosts", label: "Edit the hosts" },
  host: { screen: "hosts", label: "Edit the hosts" },
  server: { screen: "hosts", label: "Edit the hosts" },
  service_profile_template: { screen: "hosts", label: "Edit the hosts" },
  install_disk: { screen: "hosts", label: "Set the host's install disk" },
  server_pool: { screen: "server-groups", label: "Select the group's servers" },
  servers: { screen: "server-groups", label: "Select the group's servers" },
  "credentials.password": { screen: "server-groups", label: "Enter the manager's password" },
  keys: { screen: "keys", label: "Edit the SSH keys" },
  network: { screen: "networks", label: "Edit the network groups" },
};

// Every code, so a new one is a type error here until someone decides whether a screen fixes
// it (null: the sentence says what to do, and no one screen does it).
const CODE_FIXES: Record<ErrorCode, Fix | null> = {
  aci_not_found: { screen: "aci", label: "Edit the ACI fabrics" },
  answer_files_too_large: null,
  bmc_changed: null,
  bmc_error: null,
  bmc_login_failed: { screen: "server-groups", label: "Check the manager's login" },
  bmc_protocol_error: null,
  bmc_timeout: null,
  bmc_unreachable: null,
  body_too_large: null,
  body_unreadable: null,
  certificate_changed: { screen: "server-groups", label: "Check the manager's certificate" },
  checksum_mismatch: null,
  corrupt_record: null,
  deploy_not_ready: null,
  disk_full: null,
  domain_not_found: null,
  domain_unreachable: null,
  download_failed: null,
  duplicate_name: null,
  empty_host_list: null,
  empty_selection: null,
  file_unreadable: null,
  host_not_found: null,
  hosts_outside_subnet: null,
  images_not_ready: null,
  in_use: null,
  install_disk_ambiguous: FIELD_FIXES.install_disk,
  install_disk_not_found: FIELD_FIXES.install_disk,
  install_disk_unsupported: FIELD_FIXES.install_disk,
  install_log_not_found: null,
  install_log_too_large: null,
  internal_error: null,
  interrupted: null,
  invalid_aci: null,
  invalid_bmc_request: null,
  invalid_body: null,
  invalid_catalog: null,
  invalid_host: null,
  invalid_hosts: FIELD_FIXES.hosts,
  invalid_id: null,
  invalid_install_token: null,
  invalid_iso_map: FIELD_FIXES.iso_map,
  invalid_iso_name: null,
  invalid_keys: FIELD_FIXES.keys,
  invalid_kubam_file: null,
  invalid_kubam_import: null,
  invalid_kubam_key: null,
  invalid_kubam_yaml: null,
  invalid_log_file_name: null,
  invalid_log_query: null,
  invalid_media_request: null,
  invalid_network: FIELD_FIXES.network,
  invalid_pack: null,
  invalid_path: null,
  invalid_request: null,
  invalid_selection: FIELD_FIXES.server_pool,
  invalid_server: null,
  invalid_server_group: null,
  invalid_setting: null,
  invalid_sha256: null,
  invalid_svc_ip: null,
  invalid_ucs_request: null,
  invalid_url: null,
  io_error: null,
  ip_outside_subnet: null,
  iso_exists: null,
  iso_os_mismatch: null,
  job_running: null,
  kubam_conflicts: null,
  kubam_key_mismatch: null,
  log_limit_too_large: null,
  mac_in_use: FIELD_FIXES.hosts,
  malformed_header: null,
  malformed_json: null,
  malformed_path: null,
  malformed_query: null,
  media_missing: FIELD_FIXES.media,
  media_stale: FIELD_FIXES.media,
  media_tool_failed: null,
  method_not_allowed: null,
  missing_body: null,
  missing_id: null,
  missing_server: null,
  missing_server_group: null,
  mixed_os_in_server_group: FIELD_FIXES.hosts,
  network_in_use: null,
  network_not_found: null,
  no_hosts: { screen: "hosts", label: "Add hosts" },
  no_server_group: null,
  no_servers: FIELD_FIXES.server_pool,
  no_such_route: null,
  not_a_file: null,
  not_an_iso: { screen: "isos", label: "Pick another ISO" },
  not_implemented: null,
  not_supported: null,
  os_not_in_catalog: null,
  pack_in_use: null,
  pack_not_found: null,
  password_missing: FIELD_FIXES["credentials.password"],
  path_not_found: null,
  private_key: null,
  profile_name_taken: FIELD_FIXES.hosts,
  secret_error: null,
  server_group_in_use: null,
  server_group_not_found: null,
  server_in_use: null,
  server_not_found: null,
  single_device_unsupported: null,
  source_changed: null,
  storage_error: null,
  svc_contains_data: null,
  svc_ip_not_set: null,
  svc_not_served: FIELD_FIXES.svc_ip,
  svc_unreachable: FIELD_FIXES.svc_ip,
  template_error: null,
  ucs_error: null,
  ucs_login_failed: { screen: "server-groups", label: "Check the manager's login" },
  ucs_protocol_error: null,
  ucs_timeout: null,
  ucs_unreachable: null,
  ui_not_built: null,
  unauthorized: null,
  unknown_job: null,
  unknown_org: null,
  unknown_os: null,
  unknown_power_action: null,
  unknown_server_group: null,
  unknown_servers: null,
  unknown_template: null,
  unsupported_media_type: null,
  untrusted_certificate: { screen: "server-groups", label: "Trust the manager's certificate" },
  upload_interrupted: null,
  url_not_found: null,
  url_unreachable: null,
};

/** The screens that fix an error, from its problems' fields and its code; one link per screen. */
export function fixesFor(e: unknown): Fix[] {
  if (!e || typeof e !== "object") return [];
  const { code, details } = e as Partial<ApiError>;
  const found = [...(details ?? []).map((d) => FIELD_FIXES[d.field ?? ""]), code ? CODE_FIXES[code] ?? undefined : undefined];
  const out: Fix[] = [];
  for (const f of found) if (f && !out.some((o) => o.screen === f.screen)) out.push(f);
  return out;
}

/** A screen's title as the menu shows it. */
export function screenTitle(id: ScreenId): string {
  return SCREENS.find((s) => s.id === id)?.title ?? id;
}

/** The objects of a plan for one host, or those the group shares (`host` null). */
export interface PlanGroup {
  host: string | null;
  title: string;
  /** Objects the run writes or removes, in write order. */
  changes: PlannedObject[];
  /** Objects already as wanted. */
  unchanged: PlannedObject[];
}

/** A plan by host: what the group shares first, then each host in the order the plan names it. */
export function planByHost(p: DeployResult): PlanGroup[] {
  const groups: PlanGroup[] = [];
  for (const o of p.objects) {
    const host = o.host ?? null;
    let g = groups.find((x) => x.host === host);
    if (!g) {
      g = { host, title: host ? `Host ${host}` : `Shared by ${p.server_group}`, changes: [], unchanged: [] };
      if (host) groups.push(g);
      else groups.unshift(g);
    }
    (o.action === "unchanged" ? g.unchanged : g.changes).push(o);
  }
  return groups;
}

const ACTION_WORDS: Record<PlannedObject["action"], string> = {
  create: "create",
  modify: "change",
  delete: "remove",
  unchanged: "unchanged",
};

/** One object of a plan by what it means: `boot policy SVC_c74: create`. */
export function planLine(o: PlannedObject): string {
  return `${o.what || `${o.class} ${o.dn}`}: ${ACTION_WORDS[o.action]}`;
}

// Fields of a log record by the name an operator knows them by.
const FIELD_NAMES: Record<string, string> = {
  scope: "for",
  group: "server group",
};

/** An action's name as words: `server_groups::create` is `server groups: create`. */
function actionWords(action: string): string {
  const [area, what] = action.split("::");
  const a = area.replaceAll("_", " ");
  return what && what !== area ? `${a}: ${what.replaceAll("_", " ")}` : a;
}

/** A refused or failed action's record says what was refused and why in its sentence. */
function refusal(l: LogRecord): { action: string; error: string } | null {
  const { action, error } = l.fields as Record<string, unknown>;
  return typeof action === "string" && typeof error === "string" ? { action, error } : null;
}

/** A log record's sentence: its message, with the action and the error of a refusal in it. */
export function logMessage(l: LogRecord): string {
  const r = refusal(l);
  return r ? `${l.message} (${actionWords(r.action)}): ${r.error}` : l.message;
}

/** A log record's fields as `name: value` pairs, the request it was part of last; what the
 * message already says is left out. */
export function logFields(l: LogRecord): [string, string][] {
  const out: [string, string][] = [];
  const said = refusal(l) ? ["action", "error"] : [];
  let span = "";
  for (const [k, v] of Object.entries(l.fields)) {
    if (v === null || v === undefined || v === "" || said.includes(k)) continue;
    if (k === "span" && v && typeof v === "object") {
      const s = v as Record<string, unknown>;
      span = [s.method, s.uri].filter(Boolean).join(" ") || String(s.name ?? "");
      continue;
    }
    const value = typeof v === "string" ? v : Array.isArray(v) ? v.join(", ") : typeof v === "object" ? JSON.stringify(v) : String(v);
    out.push([FIELD_NAMES[k] ?? k.replaceAll("_", " "), value]);
  }
  if (span) out.push(["request", span]);
  return out;
}

/** Where a log record comes from, by name: `bootsmith_core::records::hosts` is `hosts`; a
 * refusal comes from its action's area (`deploy`). */
export function logSource(l: LogRecord): string {
  const r = refusal(l);
  if (r) return r.action.split("::")[0].replaceAll("_", " ");
  const target = l.target;
  if (!target) return "";
  if (target === "bootsmith_api" || target.startsWith("bootsmith_api::")) return "REST API";
  const last = target.split("::").pop() ?? target;
  return last.replace(/^bootsmith_/, "").replaceAll("_", " ");
}

/** What to do first, in order, and whether it is done: the overview's next steps. */
export interface NextStep {
  screen: ScreenId;
  label: string;
  done: boolean;
}

/** The steps from an empty app to a deployed host, each marked done from the overview's counts. */
export function nextSteps(o: {
  svc_ip?: string | null;
  counts: { isos: number; mapped_isos: number; server_groups: number; networks: number; hosts: number; keys?: number };
  installs?: Record<string, number>;
}): NextStep[] {
  const installs = o.installs ?? {};
  const withMedia = Object.entries(installs).some(([state, n]) => state !== "none" && n > 0);
  const deployed = ["deployed", "media-mounted", "booting", "installing", "installed"].some((s) => (installs[s] ?? 0) > 0);
  return [
    { screen: "settings", label: "Set the boot-server address", done: !!o.svc_ip },
    { screen: "isos", label: "Add an ISO and map it to its OS", done: o.counts.mapped_isos > 0 },
    { screen: "server-groups", label: "Add a server group (the manager of your servers)", done: o.counts.server_groups > 0 },
    { screen: "networks", label: "Add a network group", done: o.counts.networks > 0 },
    { screen: "hosts", label: "Add hosts", done: o.counts.hosts > 0 },
    // No key: the images would install hosts nobody can log in to; said where they are made.
    {
      screen: o.counts.keys === 0 && !withMedia ? "keys" : "images",
      label:
        o.counts.keys === 0 && !withMedia
          ? "Add an SSH key, then make the install images: without a key the hosts accept no login (the root password is random and never shown)"
          : "Make the install images",
      done: withMedia,
    },
    { screen: "deploy", label: "Deploy", done: deployed },
  ];
}
