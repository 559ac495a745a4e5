// A host's install and media in words, as the host, images and deploy tables show them.

import type { HostView, InstallStatus, MediaStatus } from "./types";
import { size, when } from "./words";

// Where the screens have always imported it from.
export { when };

/** The stage, with progress while installing: `installing 42%`, `installing 1.2 GiB`. */
export function stageText(s: InstallStatus): string {
  if (!s.state) return "not built";
  const p = s.progress;
  if (s.state === "installing" && p) return `installing ${p.percent != null ? `${p.percent}%` : size(p.bytes)}`;
  return s.state;
}


/** The media's state in words, with what changed for stale ones and when used ones served. */
export function mediaText(m: MediaStatus): string {
  switch (m.state) {
    case "ready":
      return `ready (built ${when(m.built_at)})`;
    case "stale":
      return `stale: ${(m.changed ?? []).join(", ")} changed since ${when(m.built_at)}`;
    case "used":
      // Spent by the install they were made for: their normal end, not a fault.
      return `used by the install of ${when(m.used_at ?? m.built_at)}; a new install needs new images`;
    case "missing":
      return `missing ${(m.missing ?? []).join(", ")}`;
    default:
      return "in svc, not built here";
  }
}

/** The badge class of a stage. */
export function stageClass(s: InstallStatus): string {
  if (s.state === "installed") return "ok";
  if (s.state === "failed") return "error";
  return s.state ? "working" : "";
}

/** The hosts of `group`, in list order. */
export function hostsOf(hosts: HostView[], group: string): HostView[] {
  return hosts.filter((h) => h.server_group === group);
}
