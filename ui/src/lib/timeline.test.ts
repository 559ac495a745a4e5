import { describe, expect, it } from "vitest";
import { hostTimeline, stageShort, type StepEvent } from "./timeline";

const step = (seq: number, host: string | undefined, s: StepEvent["step"], state: StepEvent["state"], message?: string): StepEvent => ({
  seq,
  type: "step",
  step: s,
  state,
  host,
  message,
});

describe("hostTimeline", () => {
  it("keeps each host's latest state per stage, hosts in order of first appearance", () => {
    const rows = hostTimeline([
      step(1, undefined, "objects", "started"),
      step(2, "b", "service-profile", "done"),
      step(3, "a", "service-profile", "done"),
      step(4, "b", "association", "started"),
      step(5, "b", "fsm", "started", "AssociatePnuOSIdent (10%)"),
      step(6, "b", "fsm", "started", "AssociateConfigPnuOS (40%)"),
      step(7, "b", "association", "done", "sys/chassis-1/blade-3"),
      step(8, "a", "association", "failed", "insufficient resources"),
    ]);
    expect(rows.map((r) => r.host)).toEqual(["b", "a"]);
    expect(rows[0].stages).toEqual({
      "service-profile": { state: "done", message: undefined },
      association: { state: "done", message: "sys/chassis-1/blade-3" },
      fsm: { state: "done", message: undefined },
    });
    expect(rows[1].stages.association).toEqual({ state: "failed", message: "insufficient resources" });
    expect(rows[1].stages.power).toBeUndefined();
  });

  it("names the stage a failed FSM stopped in, without its last percentage", () => {
    const [row] = hostTimeline([
      step(1, "a", "association", "started"),
      step(2, "a", "fsm", "started", "AssociateConfigPnuOS (60%)"),
      step(3, "a", "association", "failed", "no free server"),
    ]);
    expect(row.stages.fsm).toEqual({ state: "failed", message: "AssociateConfigPnuOS" });
  });

  it("leaves the FSM running while the association is", () => {
    const [row] = hostTimeline([step(1, "a", "association", "started"), step(2, "a", "fsm", "started", "X (10%)")]);
    expect(row.stages.fsm).toEqual({ state: "started", message: "X (10%)" });
  });

  it("shows whether each host's server mounted its install media", () => {
    const rows = hostTimeline([
      step(1, "a", "power", "done", "on"),
      step(2, "a", "media", "done", "mounted http://127.0.0.1:8080/svc/c7-boot.iso"),
      step(3, "b", "media", "failed", "b: blade 1/3 could not mount http://127.0.0.1:8080/svc/b.img (connection refused)"),
    ]);
    expect(rows[0].stages.media?.state).toBe("done");
    expect(rows[1].stages.media).toEqual({
      state: "failed",
      message: "b: blade 1/3 could not mount http://127.0.0.1:8080/svc/b.img (connection refused)",
    });
  });

  it("ignores job-wide steps and steps of other kinds", () => {
    expect(hostTimeline([step(1, undefined, "objects", "done"), step(2, "a", "extract", "done")])).toEqual([]);
  });
});

describe("stageShort", () => {
  it("is a word or a percentage, so a host is one short line", () => {
    expect(stageShort("fsm", { state: "started", message: "AssociateConfigPnuOS (60%)" })).toBe("60%");
    expect(stageShort("fsm", { state: "done" })).toBe("done");
    expect(stageShort("association", { state: "done", message: "sys/chassis-1/blade-3" })).toBe("done");
    expect(stageShort("power", undefined)).toBe("…");
  });
});
