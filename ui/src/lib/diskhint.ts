// A host's install disk as the Hosts screen edits it: Ironic's root-device hints as a few text
// fields (the size as a range of whole GiB), to and from the API's `install_disk` object.
// Pure functions, so they are unit-tested without a page.

import type { InstallDiskHint, Problem } from "./types";

/** The fields of the editor, in its order. */
export const DISK_FIELDS = ["serial", "wwn", "model", "vendor", "size_min", "size_max", "name", "rotational"] as const;

export type DiskField = (typeof DISK_FIELDS)[number];

/** Each field as typed: blank means "any". `rotational` is "", "true" or "false". */
export type DiskCells = Record<DiskField, string>;

export const DISK_LABELS: Record<DiskField, string> = {
  serial: "Serial",
  wwn: "WWN",
  model: "Model",
  vendor: "Vendor",
  size_min: "Size from (GiB)",
  size_max: "Size to (GiB)",
  name: "Name",
  rotational: "Kind",
};

/** What the editor says of a blank hint, for its summary and its note. */
export const DEFAULT_DISK = "Default";
export const DEFAULT_RULE = "the smallest local disk of at least 16 GiB (never a SAN LUN, USB disk, SD card or multipath disk)";

export function blankDisk(): DiskCells {
  return { serial: "", wwn: "", model: "", vendor: "", size_min: "", size_max: "", name: "", rotational: "" };
}

/** The fields of a stored or sent hint; an exact size shows as the same from and to. */
export function diskCellsOf(hint: InstallDiskHint | null | undefined): DiskCells {
  const cells = blankDisk();
  if (!hint) return cells;
  for (const k of ["serial", "wwn", "model", "vendor", "name"] as const) cells[k] = hint[k] ?? "";
  const size = hint.size_gb;
  if (typeof size === "number") cells.size_min = cells.size_max = String(size);
  else if (size) {
    cells.size_min = size.min == null ? "" : String(size.min);
    cells.size_max = size.max == null ? "" : String(size.max);
  }
  if (hint.rotational != null) cells.rotational = String(hint.rotational);
  return cells;
}

/** A size as typed: the number where it is one, else the text as typed, for the API to name. */
function gib(text: string): number {
  const t = text.trim();
  return /^\d+$/.test(t) ? Number(t) : (t as unknown as number);
}

/** The hint the fields give, trimmed, blank fields left out; none when every field is blank
 * (the default disk). The same from and to is an exact size. */
export function hintOf(cells: DiskCells): InstallDiskHint | undefined {
  const hint: InstallDiskHint = {};
  for (const k of ["serial", "wwn", "model", "vendor", "name"] as const) {
    const v = cells[k].trim();
    if (v) hint[k] = v;
  }
  const min = cells.size_min.trim();
  const max = cells.size_max.trim();
  if (min && min === max) hint.size_gb = gib(min);
  else if (min || max) {
    hint.size_gb = {};
    if (min) hint.size_gb.min = gib(min);
    if (max) hint.size_gb.max = gib(max);
  }
  if (cells.rotational === "true" || cells.rotational === "false") hint.rotational = cells.rotational === "true";
  return Object.keys(hint).length ? hint : undefined;
}

/** Whether two hints ask for the same disk, however each was written (trimmed, an exact size
 * as a number or as the same min and max). */
export function sameHint(a: InstallDiskHint | null | undefined, b: InstallDiskHint | null | undefined): boolean {
  return sameDisk(diskCellsOf(a), diskCellsOf(b));
}

/** Whether two sets of fields give the same hint. */
export function sameDisk(a: DiskCells, b: DiskCells): boolean {
  return JSON.stringify(hintOf(a) ?? null) === JSON.stringify(hintOf(b) ?? null);
}

/** The hint in a few words for the sheet's cell: "S/N 21033A4E · 400–500 GiB", or "Default". */
export function diskSummary(cells: DiskCells): string {
  const h = hintOf(cells);
  if (!h) return DEFAULT_DISK;
  const parts: string[] = [];
  if (h.serial) parts.push(`S/N ${h.serial}`);
  if (h.wwn) parts.push(`WWN ${h.wwn}`);
  const make = [h.vendor, h.model].filter(Boolean).join(" ");
  if (make) parts.push(make);
  const min = cells.size_min.trim();
  const max = cells.size_max.trim();
  if (min && min === max) parts.push(`${min} GiB`);
  else if (min && max) parts.push(`${min}–${max} GiB`);
  else if (min) parts.push(`≥ ${min} GiB`);
  else if (max) parts.push(`≤ ${max} GiB`);
  if (h.name) parts.push(h.name);
  if (h.rotational != null) parts.push(h.rotational ? "HDD" : "SSD");
  return parts.join(" · ");
}

/** The API's field of each editor field: its problems are about these (a size's are about
 * `install_disk.size_gb` as a whole, or one of its bounds). */
const API_FIELDS: Record<DiskField, string[]> = {
  serial: ["install_disk.serial"],
  wwn: ["install_disk.wwn"],
  model: ["install_disk.model"],
  vendor: ["install_disk.vendor"],
  size_min: ["install_disk.size_gb", "install_disk.size_gb.min"],
  size_max: ["install_disk.size_gb", "install_disk.size_gb.max"],
  name: ["install_disk.name"],
  rotational: ["install_disk.rotational"],
};

/** The API fields a problem of an editor field can name. */
export function apiFieldsOf(field: DiskField): string[] {
  return API_FIELDS[field];
}

/** Whether a problem is about the install disk (any of its keys, or the hint as a whole). */
export function isDiskProblem(p: Problem): boolean {
  return p.field === "install_disk" || (p.field ?? "").startsWith("install_disk.");
}

/** Whether one of `problems` is about the editor field. */
export function diskFieldInvalid(problems: readonly Problem[] | undefined, field: DiskField): boolean {
  return problems?.some((p) => API_FIELDS[field].includes(p.field ?? "")) ?? false;
}

/** The editor field a problem points at (the first of the editor for one about the whole
 * hint or a key the editor does not have). */
export function diskFieldOf(p: Problem): DiskField {
  if (p.field === "install_disk.size_gb.max") return "size_max";
  return DISK_FIELDS.find((f) => API_FIELDS[f].includes(p.field ?? "")) ?? "serial";
}

/** A title for a problem's field: "Install disk, size to (GiB)"; none for other fields. */
export function diskProblemTitle(field: string): string | null {
  if (field === "install_disk") return "Install disk";
  if (!field.startsWith("install_disk.")) return null;
  if (field === "install_disk.size_gb") return "Install disk, size";
  const f = DISK_FIELDS.find((d) => API_FIELDS[d].includes(field) && (d !== "size_min" || field.endsWith(".min")));
  if (!f) return `Install disk, ${field.slice("install_disk.".length)}`;
  const label = DISK_LABELS[f];
  return `Install disk, ${label === label.toUpperCase() ? label : label[0].toLowerCase() + label.slice(1)}`;
}
