import { describe, expect, it } from "vitest";
import {
  bytesLine,
  deploySummary,
  describe as words,
  fieldErrors,
  fixesFor,
  imagesSummary,
  importSummary,
  jobLine,
  lastRead,
  lostDomain,
  logFields,
  logMessage,
  logSource,
  nextSteps,
  planByHost,
  planLine,
  planSummary,
  powerStates,
  reachableUrl,
  size,
  stepLine,
  text,
} from "./words";
import { screenFromHash } from "./screens";
import type { DeployResult } from "./types";

const plan: DeployResult = {
  server_group: "pod-east",
  os: "centos7.4",
  dry_run: true,
  objects: [
    { dn: "org-root/ls-SVC_c74", class: "lsServer", action: "create", what: "service profile SVC_c74" },
    {
      dn: "org-root/mnt-cfg-policy-SVC_c74/cfg-mnt-entry-bootsmith-cd",
      class: "cimcvmediaConfigMountEntry",
      action: "modify",
      changed: ["remoteIpAddress: '192.0.2.10' -> '192.0.2.99'"],
      what: "virtual-media policy SVC_c74: mount bootsmith-cd",
    },
    { dn: "org-root/ls-old", class: "lsServer", action: "delete", what: "service profile old" },
    { dn: "org-root/boot-policy-SVC_c74", class: "lsbootPolicy", action: "unchanged", what: "boot policy SVC_c74" },
    { dn: "org-root/ls-kube01", class: "lsServer", action: "unchanged", host: "kube01", what: "profile kube01 from template SVC_c74" },
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

  it("writes byte progress with the OS or host it is for", () => {
    expect(bytesLine({ seq: 3, type: "bytes", step: "extract", host: "rhel9", done: 5 * 1048576, total: 900 * 1048576 })).toBe(
      "rhel9: extract: 5 of 900 MiB",
    );
    expect(bytesLine({ seq: 4, type: "bytes", step: "download", done: 0, total: 1048576 })).toBe("download: 0 of 1 MiB");
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
    // The same format as every other screen's times (local time; seconds only for today).
    const at = new Date(2026, 10, 23, 10, 0, 0).toISOString();
    expect(jobLine({ kind: "deploy", scope: "pod1", state: "failed", created_at: at, error: { error: "No server." } })).toBe(
      "Deploy (pod1) failed: No server. — started 2026-11-23 10:00",
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

describe("errors lead to the screen that fixes them", () => {
  it("maps a deploy's problems to Settings, ISOs, Hosts and Server groups, one link per screen", () => {
    const e = {
      error: "Server group pod1 cannot be deployed yet: …",
      code: "deploy_not_ready",
      details: [
        { field: "svc_ip", message: "set the boot-server address first" },
        { field: "hosts", message: "no host is in server group pod1" },
        { field: "hosts", message: "different operating systems" },
        { field: "server_pool", message: "select the group's servers first" },
      ],
    };
    expect(fixesFor(e).map((f) => f.screen)).toEqual(["settings", "hosts", "server-groups"]);
    expect(fixesFor(e)[0].label).toBe("Set the boot-server address");
  });

  it("sends missing media to Images and an unmapped OS to ISOs", () => {
    expect(fixesFor({ error: "stale", code: "media_stale", details: [{ field: "media", message: "x", name: "kube01" }] })).toEqual([
      { screen: "images", label: "Make the images" },
    ]);
    expect(fixesFor({ error: "x", code: "images_not_ready", details: [{ field: "iso_map", message: "map an ISO to centos7.4 first" }] })[0].screen).toBe("isos");
    expect(fixesFor({ error: "x", code: "password_missing" })[0].screen).toBe("server-groups");
  });

  it("offers nothing it cannot name", () => {
    expect(fixesFor({ error: "the database failed", code: "storage_error" })).toEqual([]);
    expect(fixesFor(new Error("network down"))).toEqual([]);
    expect(fixesFor(null)).toEqual([]);
  });
});

describe("the deploy plan by host and meaning", () => {
  it("puts what the group shares first, then each host, changes apart from what is as wanted", () => {
    const withHost: DeployResult = {
      ...plan,
      objects: [
        ...plan.objects,
        { dn: "org-root/ls-kube02", class: "lsServer", action: "create", host: "kube02", what: "profile kube02 from template SVC_c74, bound to blade 1/2" },
        { dn: "org-root/ls-kube02/pn", class: "lsBinding", action: "create", host: "kube02", what: "profile kube02 bound to blade 1/2" },
      ],
    };
    const groups = planByHost(withHost);
    expect(groups.map((g) => g.title)).toEqual(["Shared by pod-east", "Host kube01", "Host kube02"]);
    expect(groups[0].changes.map(planLine)).toEqual([
      "service profile SVC_c74: create",
      "virtual-media policy SVC_c74: mount bootsmith-cd: change",
      "service profile old: remove",
    ]);
    expect(groups[0].unchanged.map((o) => o.dn)).toEqual(["org-root/boot-policy-SVC_c74"]);
    expect(groups[1].changes).toEqual([]);
    expect(groups[2].changes.map(planLine)).toEqual([
      "profile kube02 from template SVC_c74, bound to blade 1/2: create",
      "profile kube02 bound to blade 1/2: create",
    ]);
  });

  it("falls back to the class and DN when the object has no words", () => {
    expect(planLine({ dn: "sys/x", class: "fooBar", action: "create", what: "" })).toBe("fooBar sys/x: create");
  });
});

describe("log records in words", () => {
  const line = (target: string, message: string, fields: Record<string, unknown>) => ({ time: "2026-11-26T04:00:00Z", level: "info" as const, target, message, fields });

  it("shows fields by name, the request last, and no empty values", () => {
    const l = line("bootsmith_core::jobs", "job started", {
      job: "j1",
      kind: "deploy",
      scope: "pod1",
      servers: 1,
      files: ["a.cfg", "b.img"],
      span: { method: "POST", uri: "/api/v2/servers/pod1/deploy", name: "request" },
      empty: "",
    });
    expect(logFields(l)).toEqual([
      ["job", "j1"],
      ["kind", "deploy"],
      ["for", "pod1"],
      ["servers", "1"],
      ["files", "a.cfg, b.img"],
      ["request", "POST /api/v2/servers/pod1/deploy"],
    ]);
    expect(logSource(l)).toBe("jobs");
    expect(logSource(line("bootsmith_core::records::hosts", "x", {}))).toBe("hosts");
    expect(logSource(line("bootsmith_api", "x", {}))).toBe("REST API");
  });

  it("says what a refusal refused and why in its sentence, from the action's area", () => {
    const l = line("bootsmith_core::error", "an action was refused", { action: "server_groups::create", code: "ucs_unreachable", error: "cannot reach 10.0.0.1" });
    expect(logMessage(l)).toBe("an action was refused (server groups: create): cannot reach 10.0.0.1");
    expect(logSource(l)).toBe("server groups");
    expect(logFields(l)).toEqual([["code", "ucs_unreachable"]]);
  });
});

describe("next steps on the overview", () => {
  const empty = { svc_ip: null, counts: { isos: 0, mapped_isos: 0, server_groups: 0, networks: 0, hosts: 0 }, installs: {} };
  it("lists every step in order, none done, on a new install", () => {
    const steps = nextSteps(empty);
    expect(steps.map((s) => s.screen)).toEqual(["settings", "isos", "server-groups", "networks", "hosts", "images", "deploy"]);
    expect(steps.every((s) => !s.done)).toBe(true);
  });

  it("says, before the images are made, that without an SSH key the hosts accept no login", () => {
    const steps = nextSteps({ ...empty, counts: { ...empty.counts, hosts: 2, keys: 0 } });
    expect(steps[5].screen).toBe("keys");
    expect(steps[5].label).toContain("without a key the hosts accept no login");
    const keyed = nextSteps({ ...empty, counts: { ...empty.counts, hosts: 2, keys: 1 } });
    expect(keyed[5]).toEqual({ screen: "images", label: "Make the install images", done: false });
  });

  it("marks what is done: an address, a mapped ISO (not just an ISO), hosts with media", () => {
    const steps = nextSteps({
      svc_ip: "192.0.2.10",
      counts: { isos: 2, mapped_isos: 0, server_groups: 1, networks: 1, hosts: 3 },
      installs: { none: 1, "media-ready": 2 },
    });
    expect(steps.filter((s) => s.done).map((s) => s.screen)).toEqual(["settings", "server-groups", "networks", "hosts", "images"]);
  });
});

describe("a deploy in which hosts failed", () => {
  const r = {
    server_group: "pod1",
    os: "centos7.4",
    dry_run: false,
    objects: [{ action: "create", class: "lsServer", dn: "org-root/ls-a", what: "" }],
    outcomes: { installed: 2, failed: 1 },
    failed_hosts: ["kube03"],
  } as unknown as DeployResult;

  it("does not read as a success", () => {
    const s = deploySummary(r);
    expect(s).toContain("finished with failures");
    expect(s).toContain("kube03");
    expect(s).toContain("2 installed, 1 failed");
    expect(s).not.toMatch(/^Deployed/);
  });

  it("is listed as finished with failures", () => {
    expect(jobLine({ kind: "deploy", scope: "pod1", state: "finished_with_failures", created_at: "2026-11-26T16:24:00Z" })).toMatch(
      /^Deploy \(pod1\) finished with failures — started /,
    );
  });
});

describe("lastRead", () => {
  it("says a UCS time stamp to the minute, in UTC", () => {
    expect(lastRead("2026-11-26T23:40:07.123")).toBe("2026-11-26 23:40 UTC");
    expect(lastRead("never")).toBe("never");
  });
});

describe("lostDomain", () => {
  it("says why a server of a lost domain cannot be chosen, and nothing for the others", () => {
    expect(lostDomain({ domain_reachable: false, domain_id: "1002", domain_name: "ucs-1002", domain_last_read: "2026-11-26T23:40:07.123" })).toBe(
      "Domain 1002 (ucs-1002) unreachable since 2026-11-26 23:40 UTC: its servers cannot be chosen until UCS Central reads it again",
    );
    expect(lostDomain({ domain_reachable: false, domain_id: "1003" })).toMatch(/^Domain 1003 unreachable \(never read\):/);
    expect(lostDomain({ domain_reachable: true, domain_id: "1001" })).toBeNull();
    expect(lostDomain({})).toBeNull();
  });
});

describe("imagesSummary", () => {
  it("counts in the singular and the plural, and passes the run's warnings on", () => {
    expect(imagesSummary({ trees: [], boot_isos: [{ file: "/svc/a.iso", os: "centos7.4", host: null, built: true, bios: null, uefi: null }], images: [] })).toBe(
      "Done: 0 answer images, 1 boot ISO.",
    );
    const img = { host: "n1", file: "/svc/n1.img", label: "OEMDRV", note: null } as unknown as Parameters<typeof imagesSummary>[0]["images"][0];
    expect(imagesSummary({ trees: [], boot_isos: [], images: [img, img], warnings: ["No SSH key is set."] })).toBe("Done: 2 answer images, 0 boot ISOs. No SSH key is set.");
  });
});

describe("reachableUrl", () => {
  it("puts the boot-server address where the listener's wildcard is", () => {
    expect(reachableUrl("http://0.0.0.0:8080/", "192.0.2.10")).toBe("http://192.0.2.10:8080/");
    expect(reachableUrl("http://[::]:8080/", "2001:db8::10")).toBe("http://[2001:db8::10]:8080/");
    expect(reachableUrl("http://0.0.0.0:8080/", null)).toBe("http://127.0.0.1:8080/");
  });
  it("leaves a real address alone", () => {
    expect(reachableUrl("http://192.0.2.7:8080/", "192.0.2.10")).toBe("http://192.0.2.7:8080/");
    expect(reachableUrl("not a url", "192.0.2.10")).toBe("not a url");
  });
});
