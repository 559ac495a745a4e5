// Template parameters as the screens edit them: rows of key, value and "secret", to and from
// the API's `params` object (`{"timezone": "UTC", "token": {"value": "…", "secret": true}}`).
// A stored secret comes back as `********`; sent back so, the service keeps its value. Pure
// functions, so they are unit-tested without a page.

import type { components } from "./api-schema";

type S = components["schemas"];
/** One parameter as the API answers and takes it. */
export type ParamValue = S["ParamValue"];
/** A record's parameters as the API answers and takes them. */
export type ParamMap = Record<string, ParamValue>;
/** One parameter of a host's answer preview, with the record it came from. */
export type ParamSource = S["ParamSource"];

/** What the service shows for a stored secret, and takes back as "keep it". */
export const MASK = "********";

/** One parameter as typed. */
export interface ParamRow {
  key: string;
  value: string;
  secret: boolean;
}

const KEY = /^[a-z][a-z0-9_]*$/;

/** The rows of a record's parameters, in key order. */
export function paramRows(map: ParamMap | null | undefined): ParamRow[] {
  return Object.keys(map ?? {})
    .sort()
    .map((key) => {
      const v = (map ?? {})[key];
      return typeof v === "string" ? { key, value: v, secret: false } : { key, value: v.value ?? MASK, secret: v.secret === true };
    });
}

/** The object the API takes; rows without a key are left out (a blank row being typed). */
export function paramMap(rows: readonly ParamRow[]): ParamMap {
  const out: ParamMap = {};
  for (const r of rows) {
    const key = r.key.trim();
    if (!key) continue;
    out[key] = r.secret ? { value: r.value, secret: true } : r.value;
  }
  return out;
}

/** Whether two sets of rows send the same parameters. */
export function sameParams(a: readonly ParamRow[], b: readonly ParamRow[]): boolean {
  return JSON.stringify(paramMap(a)) === JSON.stringify(paramMap(b));
}

/** What is wrong with the rows before they are sent, by row index: a key templates cannot
 * write, or one given twice. The service checks the same and says so too. */
export function paramProblems(rows: readonly ParamRow[]): Map<number, string> {
  const out = new Map<number, string>();
  const seen = new Map<string, number>();
  rows.forEach((r, i) => {
    const key = r.key.trim();
    if (!key) {
      if (r.value) out.set(i, "give the parameter a name");
      return;
    }
    if (!KEY.test(key)) out.set(i, `'${key}' is not a parameter name: a lower-case letter, then a-z, 0-9 and _`);
    // A stored secret reads ********: made plain so, it would store those stars as its value.
    else if (!r.secret && r.value === MASK) out.set(i, `${key} is no longer secret: type its value again (the stored one is never shown)`);
    else if (seen.has(key)) out.set(i, `${key} is also row ${(seen.get(key) ?? 0) + 1}`);
    else seen.set(key, i);
  });
  return out;
}

/** Whether a problem the service named is about a parameter (`params`, `params.timezone`). */
export function isParamProblem(p: { field?: string | null }): boolean {
  return p.field === "params" || (p.field ?? "").startsWith("params.");
}

/** A row's parameters after its disk in the sheet's cell: ` · 2 parameters`, or nothing. */
export function paramsWords(rows: readonly ParamRow[]): string {
  const n = rows.filter((r) => r.key.trim()).length;
  return n ? ` · ${n} parameter${n === 1 ? "" : "s"}` : "";
}

/** Where a host's parameter came from, in words. */
export function sourceWords(p: ParamSource): string {
  switch (p.from) {
    case "default":
      return "the defaults (Settings)";
    case "network_group":
      return `network group ${p.record ?? ""}`;
    case "server_group":
      return `server group ${p.record ?? ""}`;
    case "host":
      return "the host";
  }
}
