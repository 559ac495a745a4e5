// A deploy's progress per host, from its job's step events: for each host the latest state of
// each stage it goes through (profile written → association → FSM stage → install media mounted
// by the server's controller → power → install).

import type { JobEvent, JobStep } from "./types";

export type StepEvent = Extract<JobEvent, { type: "step" }>;

/** The stages a deploy reports per host, in the order a host passes them. */
export const STAGES = ["service-profile", "association", "fsm", "media", "power", "install"] as const satisfies readonly JobStep[];
export type Stage = (typeof STAGES)[number];

export interface StageState {
  state: StepEvent["state"];
  message?: string;
}

export interface HostRow {
  host: string;
  stages: Partial<Record<Stage, StageState>>;
}

/** A stage in a word or two for the host's one line (its message is on demand): the FSM's
 * percentage while it runs, else the state; `…` before the host gets there. */
export function stageShort(stage: Stage, s?: StageState): string {
  if (!s) return "…";
  const pct = stage === "fsm" && s.state === "started" ? /\((\d+%)\)\s*$/.exec(s.message ?? "")?.[1] : undefined;
  return pct ?? s.state;
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
  // The manager's FSM ends with the association: done reads as done (its last poll's "(60%)"
  // was only where it was then); failed keeps the stage it failed in.
  for (const row of rows.values()) {
    const { association: a, fsm } = row.stages;
    if (fsm?.state !== "started") continue;
    if (a?.state === "done") row.stages.fsm = { state: "done", message: undefined };
    else if (a?.state === "failed") row.stages.fsm = { state: "failed", message: fsm.message?.replace(/\s*\(\d+%\)$/, "") };
  }
  return [...rows.values()];
}
