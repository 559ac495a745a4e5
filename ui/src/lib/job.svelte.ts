// A job followed live: its log lines, its byte progress and its outcome, as reactive state.

import { api } from "./api";
import { bytesLine, describe, stepLine } from "./words";
import type { StepState } from "./types";
import type { StepEvent } from "./timeline";

export interface LogLine {
  text: string;
  state: StepState;
}

/** Reactive view of one job at a time; `run` starts it and follows it to the end. */
export class JobView {
  lines = $state<LogLine[]>([]);
  /** The step events as they came, for views that arrange them (per host, per stage). */
  steps = $state<StepEvent[]>([]);
  status = $state("");
  /** `warn`: the job ended with a result in which some hosts failed (`finished_with_failures`). */
  outcome = $state<"" | "ok" | "warn" | "error">("");
  bytes = $state<{ done: number; total: number } | null>(null);
  /** Byte progress of every step that reports it (`host: step` or `step`), kept when done. */
  transfers = $state<Record<string, { done: number; total: number }>>({});
  busy = $state(false);
  /** The error the last run ended with, for the links to the screens that fix it. */
  error = $state<unknown>(null);
  /** What the last successful job answered. */
  result = $state<unknown>(null);

  reset(status = ""): void {
    this.lines = [];
    this.steps = [];
    this.transfers = {};
    this.result = null;
    this.error = null;
    this.status = status;
    this.outcome = "";
    this.bytes = null;
  }

  fail(e: unknown): void {
    this.error = e;
    this.status = describe(e);
    this.outcome = "error";
  }

  /** Start a job with `start` and follow it; `done(result)` words a success. */
  async run<T>(start: () => Promise<string>, done: (result: T) => string): Promise<void> {
    let id: string;
    try {
      id = await start();
    } catch (e) {
      this.fail(e);
      return;
    }
    this.busy = true;
    this.status = "Working…";
    try {
      await api.jobs_watch(id, (e) => {
        if (e.type === "step") {
          this.lines.push({ text: stepLine(e), state: e.state });
          this.steps.push(e);
        } else if (e.type === "bytes") {
          this.transfers[e.host ? `${e.host}: ${e.step}` : e.step] = { done: e.done, total: e.total };
          this.bytes = e.done >= e.total ? null : { done: e.done, total: e.total };
          this.status = bytesLine(e);
        } else if (e.type === "finished") {
          this.bytes = null;
          if (e.state === "succeeded" || e.state === "finished_with_failures") {
            this.result = e.result;
            this.status = done(e.result as T);
            this.outcome = e.state === "succeeded" ? "ok" : "warn";
          } else {
            this.fail(e.error);
          }
        }
      });
    } catch (e) {
      this.fail(e);
    } finally {
      this.busy = false;
    }
  }
}

/** The jobs the page starts, one view each, kept while the operator works on other screens. */
export const running = {
  imports: new JobView(),
  images: new JobView(),
  deploy: new JobView(),
};

/** True while any job the page started is still working. */
export const anyRunning = (): boolean => Object.values(running).some((j) => j.busy);
