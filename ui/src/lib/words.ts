// What the page says: errors, job steps and results in words, never raw JSON.

import type { ApiError, Capability, DeployResult, ImagesResult, JobEvent, PlannedObject } from "./types";

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

/** Byte progress in MiB. */
export function bytesLine(e: Extract<JobEvent, { type: "bytes" }>): string {
  return `${e.step}: ${Math.floor(e.done / 1048576)} of ${Math.ceil(e.total / 1048576)} MiB`;
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
  return `Deployed to ${r.server_group}: ${written} of ${r.objects.length} objects written.${hosts.length ? ` ${hosts.join(", ")}.` : ""}${restarted}`;
}

/** The outcome of an image run. */
export function imagesSummary(r: ImagesResult): string {
  return `Done: ${r.images.length} answer images, ${r.boot_isos.length} boot ISOs.`;
}

const JOB_KINDS: Record<string, string> = {
  images: "Install media",
  deploy: "Deploy",
  vmedia: "Virtual media",
  undeploy: "Undeploy",
  iso_import: "ISO import",
  iso_fetch: "ISO download",
};

/** One line for a job in a list: what, for what, how it ended, when. */
export function jobLine(j: { kind: string; scope?: string | null; state: string; created_at: string; error?: { error: string } | null }): string {
  const what = JOB_KINDS[j.kind] ?? j.kind;
  const scope = j.scope ? ` (${j.scope})` : "";
  const why = j.error ? `: ${j.error.error}` : "";
  return `${what}${scope} ${j.state}${why} — started ${j.created_at.replace("T", " ").replace(/\..*$/, "")}`;
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

/** The noun for `n` of a thing: `server` for one, `servers` otherwise. */
export function noun(n: number, one: string, many = `${one}s`): string {
  return n === 1 ? one : many;
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
