// The manifest of the table of actions (actions.json, made by crates/actions and held to the
// code by `make test`) is how the page reaches every command: each works in a browser over
// REST or says why it cannot, and the page's calls are named after the commands they make.
import { afterEach, describe, expect, it, vi } from "vitest";
import { ACTIONS, api, type Command } from "./api";

const commands = Object.keys(ACTIONS) as Command[];

describe("the manifest of the window's commands", () => {
  it("lists every command the window registers", () => {
    expect(commands).toContain("overview_summary");
    expect(commands).toContain("host_views_list");
    expect(commands.length).toBeGreaterThan(50);
  });

  it("gives each command a REST call or why it has none, not both", () => {
    for (const c of commands) {
      const a = ACTIONS[c];
      expect(Boolean(a.method && a.path) !== Boolean(a.app_only), c).toBe(true);
      expect(a.app_only ?? "x", c).not.toBe("");
    }
  });

  it("names an argument for each segment of a path", () => {
    for (const c of commands) {
      const { path, segments = [] } = ACTIONS[c];
      expect(path?.match(/\{[^}]*\}/g)?.length ?? 0, c).toBe(segments.length);
    }
  });
});

describe("the page's calls in a browser", () => {
  const sent: { method: string; url: URL; body: unknown }[] = [];
  let answer: unknown = {};
  vi.stubGlobal("window", { location: { origin: "http://bootsmith.test" }, localStorage: { getItem: () => null } });
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    sent.push({ method: init.method ?? "GET", url: new URL(url), body: init.body && JSON.parse(String(init.body)) });
    return { ok: true, status: 200, json: async () => answer };
  });
  afterEach(() => {
    sent.length = 0;
    answer = {};
  });

  it("are each named after the command they make", async () => {
    const calls = Object.entries(api).filter(([name]) => name in ACTIONS && !ACTIONS[name as Command].app_only);
    expect(calls.length).toBeGreaterThan(45);
    for (const [name, call] of calls) {
      const { method, path } = ACTIONS[name as Command];
      sent.length = 0;
      await (call as (...args: string[]) => Promise<unknown>)("a0", "a1", "a2");
      expect(sent.map((s) => s.method), name).toEqual([method]);
      let i = 0;
      expect(sent[0].url.pathname, name).toBe(path?.replace(/\{[^}]*\}/g, () => `a${i++}`));
    }
  });

  it("fill segments, body and query, and unwrap the answer", async () => {
    answer = { status: { blades: ["1/1: on"] } };
    const status = await api.compute_power("pod 1", "on", { blades: ["1/1"], rack_servers: [] });
    expect(status).toEqual({ blades: ["1/1: on"] });
    expect(sent[0].url.pathname).toBe("/api/v2/servers/pod%201/power/on");
    expect(sent[0].body).toEqual({ servers: { blades: ["1/1"], rack_servers: [] }, force: false });

    await api.logs_read({ level: "warn", limit: 5 });
    expect(sent[1].url.search).toBe("?level=warn&limit=5");
  });

  it("send no body with GET, which browsers cannot", async () => {
    await api.compute_disks("pod1");
    expect(sent[0]).toMatchObject({ method: "GET", body: undefined });
  });

  it("start jobs without waiting for them", async () => {
    answer = { job: "j1" };
    expect(await api.images_start(["edge01"])).toBe("j1");
    expect(sent[0].url.search).toBe("?wait=false");
    expect(sent[0].body).toEqual(["edge01"]);
    expect(await api.deploy_deploy("pod1", { dry_run: false })).toEqual({ job: "j1" });
    answer = { objects: [] };
    expect(await api.deploy_deploy("pod1", { dry_run: true })).toEqual({ plan: { objects: [] } });
    expect(sent[2].url.search).toBe("?dry_run=true&wait=false");
  });

  it("refuse the window's own commands, with why", async () => {
    await expect(api.auth_token()).rejects.toMatchObject({ code: "not_implemented" });
    expect(sent).toEqual([]);
  });
});
