/// <reference types="vite/client" />
// Every command the window registers works in a browser too (a REST call in `routes`) or is
// named app-only with its reason; and neither list names a command the window lacks.
import { describe, expect, it } from "vitest";
import table from "../../../crates/api/src/actions.rs?raw";
import source from "../../../src-tauri/src/commands.rs?raw";
import { APP_ONLY, routes } from "./api";

/** The command names the window registers: one per entry of the table of actions
 * (`module::function(app, …)` is `module_function`), and the window's own commands that
 * src-tauri/src/commands.rs hands the door (`for_each_action!(window_door, a, b)`). */
function registered(table: string, source: string): string[] {
  const declared = [...table.matchAll(/^\s*([a-z_]+)::([a-z_]+)\(app\b/gm)].map((m) => `${m[1]}_${m[2]}`);
  const window = /for_each_action!\(\s*window_door,([^)]*)\)/.exec(source)?.[1];
  if (window === undefined) throw new Error("no for_each_action!(window_door, …) in commands.rs");
  return [...declared, ...window.split(",").map((c) => c.trim()).filter(Boolean)];
}

const commands = registered(table, source);
const routed = Object.keys(routes);
const appOnly = Object.keys(APP_ONLY);

describe("the window's commands", () => {
  it("are read from the table of actions and src-tauri/src/commands.rs", () => {
    expect(
      registered(
        "    /// Doc.\n    #[rest(get, path = \"/x\")]\n    networks::list(app) -> Vec<N>;\n",
        "bootsmith_api::for_each_action!(\n    window_door,\n    overview,\n    new_one\n);",
      ),
    ).toEqual(["networks_list", "overview", "new_one"]);
    expect(commands).toContain("overview");
    expect(commands).toContain("networks_list");
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
