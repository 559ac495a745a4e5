// The catalog's operating systems as the ISOs screen lists them: grouped by family, newest
// first, filtered by what the operator types, and the versions past their vendor's end of
// life after the rest (collapsed), so the long list starts with what is installed today.

import type { CatalogEntry } from "./types";

/** A family's operating systems, newest first. */
export interface OsGroup {
  family: string;
  label: string;
  entries: CatalogEntry[];
}

/** The list to show: supported versions by family, then those past their end of life. */
export interface OsList {
  current: OsGroup[];
  endOfLife: OsGroup[];
  /** How many entries the filter kept in all. */
  shown: number;
}

/** Families in the order the screen shows them; an unknown family comes last, under its own name. */
const FAMILIES: [string, string][] = [
  ["rhel", "Red Hat Enterprise Linux and rebuilds"],
  ["ubuntu", "Ubuntu"],
  ["esxi", "VMware ESXi"],
  ["windows", "Windows Server"],
  ["rhvh", "Red Hat Virtualization Host"],
];

/** The day `os` reached its end of life (YYYY-MM-DD) when that is before `today`, else null.
 * The catalog says the day (`eol`; general support, for Windows extended support); an entry
 * without one is treated as supported. */
export function endOfLife(os: Pick<CatalogEntry, "eol">, today: Date): string | null {
  const day = os.eol ?? undefined;
  return day !== undefined && new Date(`${day}T00:00:00Z`) < today ? day : null;
}

/** The numbers of a vendor's version: "8.10" → [8, 10], "2012R2" → [2012, 2]. */
function numbers(version: string): number[] {
  return (version.match(/\d+/g) ?? []).map(Number);
}

/** Newest first: 8.10 before 8.9; a bare major ("Rocky Linux 9", which follows the latest
 * minor) before its minors; then by name. */
export function newestFirst(a: CatalogEntry, b: CatalogEntry): number {
  const [x, y] = [numbers(a.version), numbers(b.version)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return y[i] - x[i];
  }
  return x.length - y.length || a.name.localeCompare(b.name);
}

/** The family's label as the screen shows it. */
export const familyLabel = (family: string): string => FAMILIES.find(([f]) => f === family)?.[1] ?? family;

/** Whether `os` matches every word of `filter` (in its id, name, family or version). */
export function matches(os: CatalogEntry, filter: string): boolean {
  const text = `${os.id} ${os.name} ${os.family} ${familyLabel(os.family)} ${os.version}`.toLowerCase();
  return filter
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => text.includes(w));
}

function grouped(entries: CatalogEntry[]): OsGroup[] {
  const order = (f: string) => {
    const i = FAMILIES.findIndex(([k]) => k === f);
    return i < 0 ? FAMILIES.length : i;
  };
  const families = [...new Set(entries.map((e) => e.family))].sort((a, b) => order(a) - order(b) || a.localeCompare(b));
  return families.map((family) => ({
    family,
    label: familyLabel(family),
    entries: entries.filter((e) => e.family === family).sort(newestFirst),
  }));
}

/** Arrange `catalog` for the screen: kept by `filter`, grouped, newest first, end of life last. */
export function arrangeOs(catalog: CatalogEntry[], filter: string, today: Date): OsList {
  const kept = catalog.filter((os) => matches(os, filter));
  return {
    current: grouped(kept.filter((os) => !endOfLife(os, today))),
    endOfLife: grouped(kept.filter((os) => endOfLife(os, today))),
    shown: kept.length,
  };
}

/** The whole catalog in the screen's order, as one list for a choice (the Hosts sheet's OS). */
export function osOrder(catalog: CatalogEntry[], today: Date): CatalogEntry[] {
  const { current, endOfLife } = arrangeOs(catalog, "", today);
  return [...current, ...endOfLife].flatMap((g) => g.entries);
}
