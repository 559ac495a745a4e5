// What the page says: errors, job steps and results in words, never raw JSON.

import type { ApiError, DeployResult, ImagesResult, JobEvent, PlannedObject } from "./types";

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
  const hosts = (r.hosts ?? []).map((h) => `${h.host} ${h.association}${h.server ? ` on ${h.server}` : ""}`);
  const restarted = r.restarted?.length ? ` Restarted: ${r.restarted.join(", ")}.` : "";
  return `Deployed to ${r.server_group}: ${written} of ${r.objects.length} objects written.${hosts.length ? ` ${hosts.join(", ")}.` : ""}${restarted}`;
}

/** The outcome of an image run. */
export function imagesSummary(r: ImagesResult): string {
  return `Done: ${r.images.length} answer images, ${r.boot_isos.length} boot ISOs.`;
}
