/// <reference types="vite/client" />
// Every command the window registers works in a browser too (a REST call in `routes`) or is
// named app-only with its reason; and neither list names a command the window lacks.
import { describe, expect, it } from "vitest";
import gui from "../../../src-tauri/src/gui.rs?raw";
import { APP_ONLY, routes } from "./api";

/** The command names of a `tauri::generate_handler![commands::a, …]` list. */
function registered(source: string): string[] {
  const list = /generate_handler!\s*\[([^\]]*)\]/.exec(source)?.[1];
  if (list === undefined) throw new Error("no generate_handler![…] list");
  return list
    .split(",")
    .map((path) => path.trim().replace(/^.*::/, ""))
    .filter(Boolean);
}

const commands = registered(gui);
const routed = Object.keys(routes);
const appOnly = Object.keys(APP_ONLY);

describe("the window's commands", () => {
  it("are read from src-tauri/src/gui.rs", () => {
    expect(registered("tauri::generate_handler![\n  commands::overview,\n  commands::new_one,\n]")).toEqual(["overview", "new_one"]);
    expect(commands).toContain("overview");
    expect(commands.length).toBeGreaterThan(40);
  });

  it("each have a REST route in api.ts or are on its APP_ONLY list", () => {
    const missing = commands.filter((c) => !routed.includes(c) && !appOnly.includes(c));
    expect(missing, "add a route to `routes` in ui/src/lib/api.ts, or the command with its reason to APP_ONLY").toEqual([]);
  });

  it("are what the route table and the app-only list name, each in one of them", () => {
    expect(routed.filter((c) => !commands.includes(c)), "routes for commands gui.rs does not register").toEqual([]);
    expect(appOnly.filter((c) => !commands.includes(c)), "APP_ONLY names commands gui.rs does not register").toEqual([]);
    expect(appOnly.filter((c) => routed.includes(c)), "commands both routed and app-only").toEqual([]);
    expect(Object.values(APP_ONLY).every((why) => why.length > 0)).toBe(true);
  });
});
