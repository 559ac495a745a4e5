// What the window keeps of unsaved forms while other screens are open, and how it names them.
import { describe, expect, it } from "vitest";
import { drafts } from "./drafts.svelte";

describe("drafts", () => {
  it("keeps each form's input until it is dropped, and names it by screen", () => {
    drafts.keep("networks", "networks", "a new network", { name: "lab" });
    drafts.keep("hosts", "hosts", "2 host rows", { rows: [] });
    expect(drafts.peek<{ name: string }>("networks")?.name).toBe("lab");
    expect(drafts.on("networks")).toBe("a new network");
    expect(drafts.on("keys")).toBe("");
    expect(drafts.all()).toEqual(["a new network", "2 host rows"]);
    drafts.keep("networks", "networks", "network lab (editing)", { name: "lab2" });
    expect(drafts.all()).toEqual(["network lab (editing)", "2 host rows"]);
    drafts.drop("networks");
    drafts.drop("networks");
    expect(drafts.peek("networks")).toBeUndefined();
    expect(drafts.all()).toEqual(["2 host rows"]);
    drafts.drop("hosts");
    expect(drafts.all()).toEqual([]);
  });

  it("keeps a form's input while it differs from the stored values, and waits until they are read", () => {
    const stored = { svcIp: "192.0.2.10", proxy: "" };
    // Typed before the stored values are in: nothing is decided, a draft from an earlier visit stays.
    drafts.note("settings", "settings", "defaults", { svcIp: "192.0.2", proxy: "" }, undefined);
    expect(drafts.peek("settings")).toBeUndefined();
    drafts.note("settings", "settings", "defaults", { svcIp: "192.0.2", proxy: "" }, stored);
    expect(drafts.peek("settings")).toEqual({ svcIp: "192.0.2", proxy: "" });
    expect(drafts.on("settings")).toBe("defaults");
    drafts.note("settings", "settings", "defaults", { svcIp: "192.0.2.11", proxy: "" }, undefined);
    expect(drafts.peek("settings")).toEqual({ svcIp: "192.0.2", proxy: "" });
    // Typed back to what is stored (or saved): nothing unsaved.
    drafts.note("settings", "settings", "defaults", { svcIp: "192.0.2.10", proxy: "" }, stored);
    expect(drafts.peek("settings")).toBeUndefined();
    expect(drafts.on("settings")).toBe("");
  });
});
