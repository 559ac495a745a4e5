// A deploy's progress per host, from its job's step events: for each host the latest state of
// each stage it goes through (profile written → association → FSM stage → install media mounted
// by the server's controller → power → install).

import type { JobEvent } from "./types";

export type StepEvent = Extract<JobEvent, { type: "step" }>;

/** The stages a deploy reports per host, in the order a host passes them. */
export const STAGES = ["service-profile", "association", "fsm", "media", "power", "install"] as const;
export type Stage = (typeof STAGES)[number];

export interface StageState {
  state: StepEvent["state"];
  message?: string;
}

export interface HostRow {
  host: string;
  stages: Partial<Record<Stage, StageState>>;
}

/** One row per host in the order hosts first appear; later events replace earlier ones. */
export function hostTimeline(steps: StepEvent[]): HostRow[] {
  const rows = new Map<string, HostRow>();
  for (const s of steps) {
    if (!s.host || !(STAGES as readonly string[]).includes(s.step)) continue;
    let row = rows.get(s.host);
    if (!row) {
      row = { host: s.host, stages: {} };
      rows.set(s.host, row);
    }
    row.stages[s.step as Stage] = { state: s.state, message: s.message ?? undefined };
  }
  // The manager's FSM ends with the association: its last stage seen is where it ended.
  for (const row of rows.values()) {
    const { association: a, fsm } = row.stages;
    if (fsm?.state === "started" && (a?.state === "done" || a?.state === "failed")) row.stages.fsm = { ...fsm, state: a.state };
  }
  return [...rows.values()];
}
