// The host list as a sheet: what operators paste from spreadsheets and CSV files, the rows the
// Hosts screen edits, and where the API's problems land. Pure functions, so they are unit-tested
// without a page.

import type { Host, HostInput, Problem } from "./types";
import { formatIp, nextFree, parseIp } from "./subnet";
import { blankDisk, diskCellsOf, diskProblemTitle, hintOf, sameDisk, sameHint, type DiskCells } from "./diskhint";
import { macsOf, macsText } from "./netform";
import { paramMap, paramRows, sameParams, type ParamRow } from "./params";

/** The columns of the sheet, in the order of the table and of a paste without a header. */
export const FIELDS = [
  "name",
  "ip",
  "os",
  "role",
  "network_group",
  "server_group",
  "service_profile_template",
  "server",
  "macs",
  "ipv6",
] as const satisfies readonly (keyof Host)[];

export type Field = (typeof FIELDS)[number];

/** Short column titles, also used to word the API's problems. */
export const LABELS: Record<Field, string> = {
  name: "Name",
  ip: "IP",
  os: "OS",
  role: "Role",
  network_group: "Network",
  server_group: "Server group",
  service_profile_template: "Template",
  server: "Server",
  macs: "MACs",
  ipv6: "IPv6",
};

/** One host as typed: every cell a string, blank meaning "not set". */
export type Cells = Record<Field, string>;

/** Some cells of a row, as one line of a paste sets them. */
export type Patch = Partial<Cells>;

/** A row of the editor. The key stays with the row while rows around it come and go. */
export interface SheetRow {
  key: number;
  cells: Cells;
  /** The install disk's hint, field by field (all blank: the default disk). */
  disk: DiskCells;
  /** Its template parameters (a stored secret as ********, which sent back keeps it). */
  params: ParamRow[];
  /** Marked for removal: left out of the list that is saved. */
  removed: boolean;
}

let lastKey = 0;

export function blankCells(): Cells {
  return { name: "", ip: "", os: "", role: "", network_group: "", server_group: "", service_profile_template: "", server: "", macs: "", ipv6: "" };
}

export function newRow(cells: Patch = {}, disk: DiskCells = blankDisk(), params: ParamRow[] = []): SheetRow {
  lastKey += 1;
  return { key: lastKey, cells: { ...blankCells(), ...cells }, disk: { ...disk }, params: params.map((p) => ({ ...p })), removed: false };
}

/** A row of a stored or sent host. */
export function rowOf(h: Host | HostInput): SheetRow {
  return newRow(cellsOf(h), diskCellsOf(h.install_disk), paramRows(h.params));
}

/** The cells a new row takes from the row above it: an operator adds hosts like the last. */
export function likeAbove(above: Cells | undefined): Patch {
  if (!above) return {};
  const p: Patch = {};
  for (const f of ["os", "role", "network_group"] as const) if (above[f].trim()) p[f] = above[f];
  return p;
}

// ---- addresses

/** What a network group tells about addresses. */
export interface AddressPlan {
  name: string;
  subnet?: string | null;
  gateway: string;
}

/** Give each of `targets` without an IP the next free address of its network group's subnet,
 * counting the addresses of `all` (every row) and those given before it as taken: pasted rows
 * get addresses as a typed row does, and never the same one twice. Returns how many got one. */
export function suggestIps(targets: Cells[], all: readonly Cells[], networks: readonly AddressPlan[]): number {
  const taken = all.map((c) => c.ip.trim()).filter(Boolean);
  let given = 0;
  for (const cells of targets) {
    if (cells.ip.trim()) continue;
    const net = networks.find((n) => n.name === cells.network_group.trim());
    const free = net?.subnet ? nextFree(net.subnet, taken, net.gateway) : null;
    if (!free) continue;
    cells.ip = free;
    taken.push(free);
    given++;
  }
  return given;
}

/** `count` addresses from `start` up, stepping over `taken` (the other rows' addresses): the
 * bulk "Set IPs" of the selected rows. An error sentence when `start` is not an address or
 * the range would run past the last address of its kind. */
export function addressRange(start: string, count: number, taken: Iterable<string>): string[] | string {
  const first = parseIp(start);
  if (!first) return `'${start.trim()}' is not an IP address: give the first address, like 192.0.2.50`;
  const skip = new Set<bigint>();
  for (const t of taken) {
    const a = parseIp(t);
    if (a && a.version === first.version) skip.add(a.value);
  }
  const max = (1n << (first.version === 4 ? 32n : 128n)) - 1n;
  const out: string[] = [];
  for (let a = first.value; out.length < count; a++) {
    if (a > max) return `${count} addresses from ${start.trim()} run past the last address`;
    if (!skip.has(a)) out.push(formatIp(first.version, a));
  }
  return out;
}

// ---- rows ⇄ inputs

/** A field of a stored or sent host as its cell shows it: the MACs comma-separated. */
function cellText(h: Host | HostInput, f: Field): string {
  return f === "macs" ? macsText(h.macs) : (h[f] ?? "");
}

/** The cells of a stored or sent host; absent values become blank cells. */
export function cellsOf(h: Host | HostInput): Cells {
  const cells = blankCells();
  for (const f of FIELDS) cells[f] = cellText(h, f);
  return cells;
}

/** A row as the API wants it: trimmed, blank cells left out (the API reads "" as absent too,
 * but leaving them out keeps the request readable in the log), the install disk's hint
 * where it names one, and the template parameters where there are any. */
export function toInput(cells: Cells, disk?: DiskCells, params?: readonly ParamRow[]): HostInput {
  const input: HostInput = {};
  for (const f of FIELDS) {
    const v = cells[f].trim();
    if (!v) continue;
    if (f === "macs") input.macs = macsOf(v);
    else input[f] = v;
  }
  const hint = disk && hintOf(disk);
  if (hint) input.install_disk = hint;
  const map = params && paramMap(params);
  if (map && Object.keys(map).length) input.params = map;
  return input;
}

/** A stored or sent host as the sheet would send it again. */
export function inputOf(h: Host | HostInput): HostInput {
  return toInput(cellsOf(h), diskCellsOf(h.install_disk), paramRows(h.params));
}

/** A row of the sheet as it would be sent. */
export function rowInput(r: SheetRow): HostInput {
  return toInput(r.cells, r.disk, r.params);
}

export function sameInputs(a: readonly HostInput[], b: readonly HostInput[]): boolean {
  return (
    a.length === b.length &&
    a.every(
      (x, i) =>
        FIELDS.every((f) => cellText(x, f) === cellText(b[i], f)) &&
        sameHint(x.install_disk, b[i].install_disk) &&
        sameParams(paramRows(x.params), paramRows(b[i].params)),
    )
  );
}

/** Whether saving would change the stored list. Linear, as it runs on every keystroke. */
export function changed(stored: readonly HostInput[], rows: readonly SheetRow[]): boolean {
  const kept = rows.filter((r) => !r.removed);
  if (kept.length !== stored.length) return true;
  return kept.some(
    (r, i) =>
      FIELDS.some((f) => (f === "macs" ? macsText(macsOf(r.cells.macs)) : r.cells[f].trim()) !== cellText(stored[i], f)) ||
      !sameDisk(r.disk, diskCellsOf(stored[i].install_disk)) ||
      !sameParams(r.params, paramRows(stored[i].params)),
  );
}

// ---- pasted text

export type Separator = "\t" | "," | ";";

/** Spreadsheets copy with tabs, so any tab wins; otherwise the more frequent of `,` and `;`
 * (`;` is what spreadsheets in comma-decimal locales save as CSV). Quoted text does not count. */
export function detectSeparator(text: string): Separator {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (ch === "\t") return "\t";
    else if (ch === ",") commas += 1;
    else if (ch === ";") semicolons += 1;
  }
  return semicolons > commas ? ";" : ",";
}

/** Split delimited text into trimmed cells. Quotes work as in CSV (`""` is a quote, and a quoted
 * cell may hold separators and line breaks). Blank lines are dropped. */
export function parseGrid(text: string, sep: Separator = detectSeparator(text)): string[][] {
  const grid: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  const endCell = () => {
    row.push(cell.trim());
    cell = "";
  };
  const endRow = () => {
    endCell();
    if (row.some((c) => c !== "")) grid.push(row);
    row = [];
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch !== '"') cell += ch;
      else if (text[i + 1] === '"') {
        cell += '"';
        i++;
      } else quoted = false;
    } else if (ch === '"' && cell.trim() === "") {
      // Only a quote that opens a cell quotes it; elsewhere it is just a character.
      cell = "";
      quoted = true;
    } else if (ch === sep) endCell();
    else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      endRow();
    } else cell += ch;
  }
  if (cell !== "" || row.length > 0) endRow();
  return grid;
}

const ALIASES = new Map<string, Field>([
  ["name", "name"],
  ["host", "name"],
  ["hostname", "name"],
  ["host_name", "name"],
  ["ip", "ip"],
  ["ip_address", "ip"],
  ["address", "ip"],
  ["os", "os"],
  ["role", "role"],
  ["network_group", "network_group"],
  ["network", "network_group"],
  ["server_group", "server_group"],
  ["group", "server_group"],
  ["service_profile_template", "service_profile_template"],
  ["template", "service_profile_template"],
  ["server", "server"],
  ["blade", "server"],
  ["macs", "macs"],
  ["mac", "macs"],
  ["mac_address", "macs"],
  ["mac_addresses", "macs"],
  ["ipv6", "ipv6"],
  ["ipv6_address", "ipv6"],
]);

/** The field a header cell names: case, spaces and dashes do not matter. */
export function columnOf(title: string): Field | null {
  return ALIASES.get(title.trim().toLowerCase().replace(/[\s_-]+/g, "_")) ?? null;
}

/** The columns a first line names, or null when it is data. It is a header when at least half
 * of its cells are column names: a host's line has an address and an OS, never names. Unknown
 * and repeated titles give null columns, whose cells are ignored. */
export function headerOf(cells: readonly string[]): (Field | null)[] | null {
  const seen = new Set<Field>();
  const columns = cells.map((c) => {
    const f = columnOf(c);
    if (!f || seen.has(f)) return null;
    seen.add(f);
    return f;
  });
  const filled = cells.filter((c) => c !== "").length;
  return seen.size > 0 && seen.size * 2 >= filled ? columns : null;
}

/** Pasted text as row patches. With a header the columns go by name; without one they follow
 * the table's order from `from` on (the cell pasted into), and extra cells are dropped. */
export function patchesFrom(text: string, from: Field = "name"): Patch[] {
  const grid = parseGrid(text);
  const header = grid.length ? headerOf(grid[0]) : null;
  const columns = header ?? FIELDS.slice(FIELDS.indexOf(from));
  const lines = header ? grid.slice(1) : grid;
  return lines.map((line) => {
    const patch: Patch = {};
    line.forEach((v, j) => {
      const f = columns[j];
      if (f) patch[f] = v;
    });
    return patch;
  });
}

/** Whether a paste into one cell is a piece of sheet to spread (several lines, or cells split by
 * tabs) rather than text for that cell. */
export function isSheetPaste(text: string): boolean {
  const t = text.replace(/[\r\n]+$/, "");
  return t.includes("\n") || t.includes("\r") || t.includes("\t");
}

// ---- the API's problems

export interface SheetProblems {
  /** Problems of a row, by row key. */
  byRow: Map<number, Problem[]>;
  /** Problems of the list as a whole (no row), such as two OSes in one server group. */
  general: Problem[];
}

export const noProblems = (): SheetProblems => ({ byRow: new Map(), general: [] });

/** Put each problem on its row: `index` counts the rows as sent, `keys` are those rows' keys. */
export function placeProblems(details: readonly Problem[] | undefined, keys: readonly number[]): SheetProblems {
  const placed = noProblems();
  for (const p of details ?? []) {
    const key = p.index == null ? undefined : keys[p.index];
    if (key === undefined) {
      placed.general.push(p);
      continue;
    }
    const list = placed.byRow.get(key);
    if (list) list.push(p);
    else placed.byRow.set(key, [p]);
  }
  return placed;
}

/** The sheet's column an API field is in: `macs[1]` (the second MAC) is in MACs. */
export function columnOfProblem(field: string): string {
  return field.startsWith("macs[") ? "macs" : field;
}

/** Whether a cell has a problem. */
export function isInvalid(problems: SheetProblems, key: number, field: Field): boolean {
  return problems.byRow.get(key)?.some((p) => columnOfProblem(p.field ?? "") === field) ?? false;
}

/** Forget a row's problems with the given cells once they are edited; the same object when
 * there were none, so an edit of a sound cell re-renders nothing. */
export function dropProblems(problems: SheetProblems, key: number, fields: readonly string[]): SheetProblems {
  const list = problems.byRow.get(key);
  const hit = (p: Problem) => fields.includes(p.field ?? "") || fields.includes(columnOfProblem(p.field ?? ""));
  if (!list?.some(hit)) return problems;
  const byRow = new Map(problems.byRow);
  const rest = list.filter((p) => !hit(p));
  if (rest.length) byRow.set(key, rest);
  else byRow.delete(key);
  return { byRow, general: problems.general };
}

/** A problem in words, titled by its column: "IP is required", "OS: 'x' is not in the catalog". */
export function problemText(p: Problem): string {
  const mac = /^macs\[(\d+)\]$/.exec(p.field ?? "");
  const title = mac
    ? `MAC ${Number(mac[1]) + 1}`
    : p.field && Object.hasOwn(LABELS, p.field)
      ? LABELS[p.field as Field]
      : (diskProblemTitle(p.field ?? "") ?? p.field ?? "");
  if (!title) return p.message;
  // The API words field rules as predicates ("is required", "must not …") to follow a name.
  return /^(is|must)\b/.test(p.message) ? `${title} ${p.message}` : `${title}: ${p.message}`;
}
