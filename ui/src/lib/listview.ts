// Search, sort and selection for the window's long lists (hosts, servers, and any screen that
// adopts them): pure functions, so they are unit-tested without a page.

import type { Disk } from "./types";

/** How a list is ordered: by which column, which way. No key keeps the list's own order. */
export interface Sort<K extends string = string> {
  key: K | "";
  dir: "asc" | "desc";
}

export const unsorted = <K extends string>(): Sort<K> => ({ key: "", dir: "asc" });

/** The words of a search, lower-cased; quotes keep a phrase together (`"k8s node"`). */
export function terms(query: string): string[] {
  const out: string[] = [];
  for (const m of query.toLowerCase().matchAll(/"([^"]*)"?|(\S+)/g)) {
    const t = (m[1] ?? m[2] ?? "").trim();
    if (t) out.push(t);
  }
  return out;
}

/** Whether a row whose searchable text is `haystack` shows for a search: every word of the
 * search is somewhere in it (case does not matter). An empty search shows every row. */
export function matches(haystack: string, query: string | readonly string[]): boolean {
  const words = typeof query === "string" ? terms(query) : query;
  if (!words.length) return true;
  const h = haystack.toLowerCase();
  return words.every((w) => h.includes(w));
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });

/** Compare as people read: numbers by value (`blade 1/10` after `blade 1/9`, `192.0.2.100`
 * after `192.0.2.20`), case ignored, blanks last. */
export function naturalCompare(a: string, b: string): number {
  if (a === b) return 0;
  if (!a) return 1;
  if (!b) return -1;
  return collator.compare(a, b);
}

/** The next sort after a click on column `key`: ascending first, then descending, then back
 * to the list's own order. */
export function nextSort<K extends string>(s: Sort<K>, key: K): Sort<K> {
  if (s.key !== key) return { key, dir: "asc" };
  return s.dir === "asc" ? { key, dir: "desc" } : unsorted<K>();
}

/** The `aria-sort` of a column header. */
export function ariaSort(s: Sort, key: string): "ascending" | "descending" | "none" {
  return s.key !== key ? "none" : s.dir === "asc" ? "ascending" : "descending";
}

/** What to show of `items`, as indices into it: the rows matching `query` (by `text`), ordered
 * by `sort` (by `value`, naturally; equal rows keep their order). Rows whose index is in
 * `pinned` always show, after the others, so a row just added is not hidden by the search. */
export function view<T, K extends string>(
  items: readonly T[],
  opts: {
    query?: string;
    text: (item: T) => string;
    sort?: Sort<K>;
    value?: (item: T, key: K) => string | number;
    pinned?: ReadonlySet<number>;
  },
): number[] {
  const words = terms(opts.query ?? "");
  const shown: number[] = [];
  const tail: number[] = [];
  items.forEach((item, i) => {
    if (opts.pinned?.has(i)) tail.push(i);
    else if (matches(opts.text(item), words)) shown.push(i);
  });
  const { sort, value } = opts;
  if (sort?.key && value) {
    const key = sort.key;
    const sign = sort.dir === "desc" ? -1 : 1;
    const keyed = new Map(shown.map((i) => [i, value(items[i], key)]));
    shown.sort((a, b) => {
      const x = keyed.get(a)!;
      const y = keyed.get(b)!;
      const c = typeof x === "number" && typeof y === "number" ? x - y : naturalCompare(String(x), String(y));
      return c * sign || a - b;
    });
  }
  return [...shown, ...tail];
}

/** The selection after the "select all" box of a filtered list is ticked or cleared: it acts
 * on the shown rows only and leaves hidden selected ones as they are. */
export function selectShown<Id>(selected: ReadonlySet<Id>, shown: readonly Id[], on: boolean): Set<Id> {
  const next = new Set(selected);
  for (const id of shown) {
    if (on) next.add(id);
    else next.delete(id);
  }
  return next;
}

/** The state of a "select all shown" box: all, some (indeterminate) or none of the shown rows. */
export function shownState<Id>(selected: ReadonlySet<Id>, shown: readonly Id[]): "all" | "some" | "none" {
  let n = 0;
  for (const id of shown) if (selected.has(id)) n++;
  return n === 0 ? "none" : n === shown.length ? "all" : "some";
}

/** "3 of 200 shown" or "200" when nothing is hidden, for a list's count. */
export function shownCount(shown: number, total: number, noun: string, plural = `${noun}s`): string {
  const word = total === 1 ? noun : plural;
  return shown === total ? `${total} ${word}` : `${shown} of ${total} ${word} shown`;
}

/** Megabytes as managers count memory and disks (UCS: MiB) in GiB or TiB: `384 GiB`. */
export function mebibytes(mb: number): string {
  if (!Number.isFinite(mb) || mb <= 0) return "—";
  const gib = mb / 1024;
  if (gib >= 1024) return `${trim(gib / 1024)} TiB`;
  if (gib >= 1) return `${trim(gib)} GiB`;
  return `${Math.round(mb)} MiB`;
}

const trim = (n: number) => (n >= 100 ? Math.round(n).toString() : n.toFixed(1).replace(/\.0$/, ""));

const UNITS: Record<string, number> = {
  b: 1 / 1048576,
  bytes: 1 / 1048576,
  kb: 1000 / 1048576,
  kib: 1 / 1024,
  mb: 1,
  mib: 1,
  gb: 1e9 / 1048576,
  gib: 1024,
  tb: 1e12 / 1048576,
  tib: 1048576,
};

/** A disk size as a manager reports it (UCS Manager: MB without a unit; IMC: `952720 MB`;
 * Redfish: `960 GB`) in GiB or TiB; text it cannot read is shown as it came. */
export function diskSize(reported: string): string {
  const m = /^\s*([\d.,]+)\s*([a-z]*)\s*$/i.exec(reported ?? "");
  if (!m) return reported?.trim() ? reported : "—";
  const n = Number(m[1].replace(/,/g, ""));
  const unit = UNITS[(m[2] || "mb").toLowerCase()];
  if (!Number.isFinite(n) || unit === undefined) return reported;
  return mebibytes(n * unit);
}

/** What kind of disk it is, as an install-disk hint tells disks apart: `SSD`, `HDD`, and how it
 * is attached when it is not a local disk (`SD card`, `USB`, `SAN LUN`). */
export function diskKind(d: Pick<Disk, "rotational" | "transport">): string {
  const media = d.rotational === true ? "HDD" : d.rotational === false ? "SSD" : "";
  const attached = { local: "", remote: "SAN LUN", usb: "USB", sd_card: "SD card" }[d.transport] ?? "";
  return [media, attached].filter(Boolean).join(", ") || "—";
}

/** Whether a key press happened while typing (a text field, a list, an editable element), where
 * single-key shortcuts must not fire. */
export function typing(target: EventTarget | null): boolean {
  if (!target || typeof target !== "object" || !("tagName" in target)) return false;
  const el = target as { tagName: string; isContentEditable?: boolean; type?: string };
  if (el.isContentEditable) return true;
  if (el.tagName === "TEXTAREA" || el.tagName === "SELECT") return true;
  return el.tagName === "INPUT" && !["checkbox", "radio", "button", "submit", "reset"].includes(el.type ?? "text");
}
