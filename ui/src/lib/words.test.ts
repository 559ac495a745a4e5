import { describe, expect, it } from "vitest";
import { deploySummary, describe as words, fieldErrors, importSummary, jobLine, planSummary, powerStates, size, stepLine, text } from "./words";
import { screenFromHash } from "./screens";
import type { DeployResult } from "./types";

const plan: DeployResult = {
  server_group: "pod-east",
  os: "centos7.4",
  dry_run: true,
  objects: [
    { dn: "org-root/ls-SVC_c74", class: "lsServer", action: "create" },
    { dn: "org-root/mnt-cfg-policy-SVC_c74/cfg-mnt-entry-bootsmith-cd", class: "cimcvmediaConfigMountEntry", action: "modify", changed: ["remoteIpAddress: '192.0.2.10' -> '192.0.2.99'"] },
    { dn: "org-root/ls-old", class: "lsServer", action: "delete" },
    { dn: "org-root/boot-policy-SVC_c74", class: "lsbootPolicy", action: "unchanged" },
    { dn: "org-root/ls-kube01", class: "lsServer", action: "unchanged" },
  ],
};

describe("words", () => {
  it("counts a plan by action", () => {
    expect(planSummary(plan)).toBe("centos7.4 on pod-east: 1 to create, 1 to modify, 1 to delete, 2 unchanged.");
  });

  it("sums up a deploy with each followed host", () => {
    const done: DeployResult = {
      ...plan,
      dry_run: false,
      hosts: [
        { host: "kube01", association: "associated", server: "sys/chassis-1/blade-2", power: "on" },
        { host: "kube02", association: "failed", server: "", power: "" },
      ],
      restarted: ["kube01"],
    };
    expect(deploySummary(done)).toBe(
      "Deployed to pod-east: 3 of 5 objects written. kube01 associated on sys/chassis-1/blade-2, kube02 failed. Restarted: kube01.",
    );
  });

  it("says whether each host's server mounted its install media", () => {
    const done: DeployResult = {
      ...plan,
      dry_run: false,
      hosts: [
        {
          host: "kube01",
          association: "associated",
          server: "sys/chassis-1/blade-2",
          power: "on",
          media: { state: "mounted", urls: ["http://127.0.0.1:8080/svc/c7-boot.iso"] },
        },
        {
          host: "c240-01",
          association: "",
          server: "sys/rack-unit-1",
          power: "off",
          media: { state: "failed", urls: ["http://127.0.0.1:8080/svc/c240-01.img"], error: "c240-01: rack server 1 could not mount …" },
        },
      ],
    };
    expect(deploySummary(done)).toBe(
      "Deployed to pod-east: 3 of 5 objects written. kube01 associated on sys/chassis-1/blade-2 (media mounted), c240-01 on sys/rack-unit-1 (media failed).",
    );
  });

  it("writes a step with its host and message", () => {
    expect(stepLine({ seq: 5, type: "step", host: "kube01", step: "fsm", state: "started", message: "AssociatePnuOSIdent (10%)" })).toBe(
      "kube01: fsm started (AssociatePnuOSIdent (10%))",
    );
    expect(stepLine({ seq: 1, type: "step", step: "objects", state: "done" })).toBe("objects done");
  });

  it("shows errors as their sentence, never as JSON", () => {
    expect(words({ error: "Server group pod1 cannot be deployed yet: svc_ip: set it", code: "deploy_not_ready" })).toBe(
      "Server group pod1 cannot be deployed yet: svc_ip: set it",
    );
    expect(words(new Error("network down"))).toBe("network down");
    expect(text(null)).toBe("—");
    expect(text("")).toBe("—");
    expect(text(0)).toBe("0");
  });
});


describe("words for the screens", () => {
  it("reads power lines into states by server id", () => {
    expect(powerStates({ blades: ["1/3: on", "2/1: off"], rack_servers: ["1: unknown"] })).toEqual({ "1/3": "on", "2/1": "off", "1": "unknown" });
  });

  it("gathers an error's problems by field for inline messages", () => {
    const e = { error: "x", code: "invalid_network", details: [{ field: "gateway", message: "bad" }, { field: "gateway", message: "worse" }, { message: "no field" }] };
    expect(fieldErrors(e)).toEqual({ gateway: "bad; worse" });
    expect(fieldErrors(new Error("plain"))).toEqual({});
  });

  it("says how an ISO came into svc and what it was mapped to", () => {
    const r = { file: "/svc/a.iso", linked: true, bytes: 1, detected: "centos7.4", mapped: "centos7.4", warnings: [] };
    expect(importSummary(r)).toBe("/svc/a.iso linked into svc and mapped to centos7.4.");
    expect(importSummary({ ...r, linked: false, mapped: null }, true)).toBe("/svc/a.iso uploaded into svc (holds centos7.4; not mapped).");
    expect(importSummary({ ...r, linked: false, detected: null, mapped: null, warnings: ["Odd label."] })).toBe(
      "/svc/a.iso copied into svc (not recognised: map it by hand). Odd label.",
    );
  });

  it("words a job for the overview", () => {
    expect(jobLine({ kind: "deploy", scope: "pod1", state: "failed", created_at: "2026-11-23T10:00:00.123Z", error: { error: "No server." } })).toBe(
      "Deploy (pod1) failed: No server. — started 2026-11-23 10:00:00",
    );
  });

  it("sizes bytes for people", () => {
    expect(size(512)).toBe("512 bytes");
    expect(size(3.5 * 1024 * 1024)).toBe("3.5 MiB");
  });

  it("takes the screen from the address, the overview for anything else", () => {
    expect(screenFromHash("#/hosts")).toBe("hosts");
    expect(screenFromHash("#hosts")).toBe("hosts");
    expect(screenFromHash("#/nowhere")).toBe("overview");
    expect(screenFromHash("")).toBe("overview");
  });
});
