/// <reference types="vite/client" />
// Every command the window registers works in a browser too (a REST call in `routes`) or is
// named app-only with its reason; and neither list names a command the window lacks.
import { describe, expect, it } from "vitest";
import source from "../../../src-tauri/src/commands.rs?raw";
import { APP_ONLY, routes } from "./api";

/** The command names the `commands! { … }` table of src-tauri/src/commands.rs declares:
 * `module::function(app, …)` is `module_function`, and `window: a, b` adds those. */
function registered(source: string): string[] {
  const table = /\ncommands! \{([\s\S]*?)\n\}/.exec(source)?.[1];
  if (table === undefined) throw new Error("no commands! { … } table");
  const declared = [...table.matchAll(/^\s*([a-z_]+)::([a-z_]+)\(app\b/gm)].map((m) => `${m[1]}_${m[2]}`);
  const window = /window:([^;]*);/.exec(table)?.[1] ?? "";
  return [...declared, ...window.split(",").map((c) => c.trim()).filter(Boolean)];
}

const commands = registered(source);
const routed = Object.keys(routes);
const appOnly = Object.keys(APP_ONLY);

describe("the window's commands", () => {
  it("are read from src-tauri/src/commands.rs", () => {
    expect(registered("\ncommands! {\n    window: overview, new_one;\n    /// Doc.\n    networks::list(app) -> Vec<N>;\n}")).toEqual([
      "networks_list",
      "overview",
      "new_one",
    ]);
    expect(commands).toContain("overview");
    expect(commands.length).toBeGreaterThan(40);
  });

  it("each have a REST route in api.ts or are on its APP_ONLY list", () => {
    const missing = commands.filter((c) => !routed.includes(c) && !appOnly.includes(c));
    expect(missing, "add a route to `routes` in ui/src/lib/api.ts, or the command with its reason to APP_ONLY").toEqual([]);
  });

  it("are what the route table and the app-only list name, each in one of them", () => {
    expect(routed.filter((c) => !commands.includes(c)), "routes for commands commands.rs does not declare").toEqual([]);
    expect(appOnly.filter((c) => !commands.includes(c)), "APP_ONLY names commands commands.rs does not declare").toEqual([]);
    expect(appOnly.filter((c) => routed.includes(c)), "commands both routed and app-only").toEqual([]);
    expect(Object.values(APP_ONLY).every((why) => why.length > 0)).toBe(true);
  });
});
