import { describe, expect, it } from "vitest";
import {
  addressRange,
  blankCells,
  cellsOf,
  changed,
  columnOf,
  detectSeparator,
  dropProblems,
  headerOf,
  inputOf,
  isInvalid,
  isSheetPaste,
  likeAbove,
  newRow,
  noProblems,
  parseGrid,
  patchesFrom,
  placeProblems,
  problemText,
  rowInput,
  rowOf,
  sameInputs,
  suggestIps,
  toInput,
} from "./hostsheet";
import type { Host, HostInput, Problem } from "./types";

const kube01: Host = {
  name: "kube01",
  ip: "10.0.0.11",
  os: "centos7.4",
  role: "k8s master",
  network_group: "mgmt",
  server_group: "pod-east",
  service_profile_template: "org-root/ls-k8s",
  server: "1/3",
};
const web: Host = { name: "web", ip: "10.0.0.12", os: "centos7.4", role: "generic", network_group: "mgmt" };

describe("separators", () => {
  it("prefers tabs, as spreadsheets copy with them", () => {
    expect(detectSeparator("a,b\tc;d")).toBe("\t");
  });

  it("takes the more frequent of comma and semicolon", () => {
    expect(detectSeparator("a,b,c\nd,e,f")).toBe(",");
    expect(detectSeparator("a;b;c\nd;e,f")).toBe(";");
    expect(detectSeparator("kube01")).toBe(",");
  });

  it("does not count separators inside quotes", () => {
    expect(detectSeparator('"a,b,c,d";x;y')).toBe(";");
    expect(detectSeparator('"a\tb",c')).toBe(",");
  });
});

describe("parseGrid", () => {
  it("splits tab-separated lines and trims cells", () => {
    expect(parseGrid(" kube01 \t10.0.0.11\t centos7.4\r\nweb\t10.0.0.12\tcentos7.4\r\n")).toEqual([
      ["kube01", "10.0.0.11", "centos7.4"],
      ["web", "10.0.0.12", "centos7.4"],
    ]);
  });

  it("reads quoted CSV cells with separators, quotes and line breaks", () => {
    const csv = 'kube01,"k8s, master","say ""hi""","two\nlines"\nweb,generic,"",x';
    expect(parseGrid(csv)).toEqual([
      ["kube01", "k8s, master", 'say "hi"', "two\nlines"],
      ["web", "generic", "", "x"],
    ]);
  });

  it("reads semicolon CSV", () => {
    expect(parseGrid("a;b;c\n1;2;3")).toEqual([
      ["a", "b", "c"],
      ["1", "2", "3"],
    ]);
  });

  it("skips blank lines, also ones of separators only", () => {
    expect(parseGrid("a,b\n\n  \n,,\r\n\rc,d\n\n")).toEqual([
      ["a", "b"],
      ["c", "d"],
    ]);
    expect(parseGrid("")).toEqual([]);
  });

  it("keeps a quote in the middle of a cell as text", () => {
    expect(parseGrid('ab"c,d')).toEqual([['ab"c', "d"]]);
  });

  it("keeps empty cells so columns stay in place", () => {
    expect(parseGrid("a\t\tc")).toEqual([["a", "", "c"]]);
  });
});

describe("headers", () => {
  it("knows the column names and their aliases, in any case, with spaces or dashes", () => {
    expect(columnOf("Name")).toBe("name");
    expect(columnOf(" IP ")).toBe("ip");
    expect(columnOf("Network")).toBe("network_group");
    expect(columnOf("network group")).toBe("network_group");
    expect(columnOf("Server-Group")).toBe("server_group");
    expect(columnOf("GROUP")).toBe("server_group");
    expect(columnOf("Service Profile Template")).toBe("service_profile_template");
    expect(columnOf("template")).toBe("service_profile_template");
    expect(columnOf("Blade")).toBe("server");
    expect(columnOf("server")).toBe("server");
    expect(columnOf("notes")).toBeNull();
    expect(columnOf("constructor")).toBeNull();
  });

  it("tells a header from a host line", () => {
    expect(headerOf(["Name", "IP", "Notes", "OS"])).toEqual(["name", "ip", null, "os"]);
    expect(headerOf(["kube01", "10.0.0.11", "centos7.4", "generic", "mgmt", "group"])).toBeNull();
  });

  it("ignores a repeated column", () => {
    expect(headerOf(["network", "network_group"])).toEqual(["network_group", null]);
  });
});

describe("patchesFrom", () => {
  it("follows the table's order without a header", () => {
    const { macs: _macs, ipv6: _ipv6, ...seedColumns } = cellsOf(kube01);
    expect(patchesFrom("kube01,10.0.0.11,centos7.4,k8s master,mgmt,pod-east,org-root/ls-k8s,1/3")).toEqual([seedColumns]);
    // The MACs and IPv6 columns come after the seed's, as in the table.
    expect(patchesFrom('kube01,10.0.0.11,centos7.4,k8s master,mgmt,pod-east,org-root/ls-k8s,1/3,"aa:bb:cc:dd:ee:01, aa:bb:cc:dd:ee:02",2001:db8::11/64')).toEqual([
      { ...seedColumns, macs: "aa:bb:cc:dd:ee:01, aa:bb:cc:dd:ee:02", ipv6: "2001:db8::11/64" },
    ]);
  });

  it("maps columns by a header's names, in any order", () => {
    const text = "Blade;Host name;IP;Group;Role;OS;Network;Notes\n1/3;kube01;10.0.0.11;pod-east;k8s master;centos7.4;mgmt;rack A";
    expect(patchesFrom(text)).toEqual([
      { server: "1/3", name: "kube01", ip: "10.0.0.11", server_group: "pod-east", role: "k8s master", os: "centos7.4", network_group: "mgmt" },
    ]);
  });

  it("starts at the pasted-into column and drops cells past the last one", () => {
    expect(patchesFrom("10.0.0.11\tcentos7.4\n10.0.0.12\tcentos7.3", "ip")).toEqual([
      { ip: "10.0.0.11", os: "centos7.4" },
      { ip: "10.0.0.12", os: "centos7.3" },
    ]);
    expect(patchesFrom("1/3\taa:bb:cc:dd:ee:01\t2001:db8::11/64\textra", "server")).toEqual([
      { server: "1/3", macs: "aa:bb:cc:dd:ee:01", ipv6: "2001:db8::11/64" },
    ]);
  });

  it("keeps blank cells, so a paste clears what it covers as in a spreadsheet", () => {
    expect(patchesFrom("a\t\tc", "os")).toEqual([{ os: "a", role: "", network_group: "c" }]);
  });

  it("gives nothing for a header alone", () => {
    expect(patchesFrom("name,ip\n")).toEqual([]);
  });
});

describe("isSheetPaste", () => {
  it("spreads several lines or tab-split cells, not one value", () => {
    expect(isSheetPaste("a\nb")).toBe(true);
    expect(isSheetPaste("a\tb")).toBe(true);
    expect(isSheetPaste("kube01")).toBe(false);
    expect(isSheetPaste("kube01\r\n")).toBe(false);
    expect(isSheetPaste("a,b")).toBe(false);
  });
});

describe("rows and inputs", () => {
  it("round-trips a host through cells", () => {
    expect(toInput(cellsOf(kube01))).toEqual(kube01);
    expect(toInput(cellsOf(web))).toEqual(web);
  });

  it("turns nulls into blank cells and blank cells into absent fields", () => {
    const cells = cellsOf({ ...web, server_group: null, server: null });
    expect(cells.server_group).toBe("");
    const input = toInput({ ...cells, ip: "  10.0.0.9 ", role: "   " });
    expect(input).toEqual({ name: "web", ip: "10.0.0.9", os: "centos7.4", network_group: "mgmt" });
    expect("role" in input).toBe(false);
    expect(toInput(blankCells())).toEqual({});
  });

  it("keeps a host's parameters through the sheet, a stored secret masked as it came", () => {
    const h: HostInput = { ...toInput(cellsOf(kube01)), params: { timezone: "Asia/Tokyo", token: { value: "********", secret: true } } };
    const row = rowOf(h);
    expect(rowInput(row)).toEqual(h);
    expect(inputOf(h)).toEqual(h);
    expect(changed([h], [row])).toBe(false);
    row.params[0].value = "Europe/Berlin";
    expect(changed([h], [row])).toBe(true);
    expect(sameInputs([h], [rowInput(row)])).toBe(false);
    // None: left out, as the seed's hosts are sent.
    expect("params" in rowInput(rowOf(kube01))).toBe(false);
  });

  it("compares input lists field by field", () => {
    const a: HostInput[] = [toInput(cellsOf(kube01))];
    const same: HostInput = { ...web, server_group: "pod-east", service_profile_template: "org-root/ls-k8s", server: "1/3" };
    expect(sameInputs(a, [{ ...same, name: "kube01", ip: "10.0.0.11", role: "k8s master" }])).toBe(true);
    expect(sameInputs(a, [{ ...same, name: "kube01", ip: "10.0.0.11", role: "k8s master", server: undefined }])).toBe(false);
    expect(sameInputs(a, [])).toBe(false);
  });
});

describe("changed", () => {
  const stored = [kube01, web].map((h) => toInput(cellsOf(h)));
  const rows = () => [kube01, web].map((h) => newRow(cellsOf(h)));

  it("is false for the stored list, also with spaces around cells", () => {
    const r = rows();
    expect(changed(stored, r)).toBe(false);
    r[1].cells.ip = " 10.0.0.12 ";
    expect(changed(stored, r)).toBe(false);
  });

  it("sees an edit, a removal, a new row and a reorder", () => {
    const edited = rows();
    edited[0].cells.role = "k8s node";
    expect(changed(stored, edited)).toBe(true);

    const removed = rows();
    removed[1].removed = true;
    expect(changed(stored, removed)).toBe(true);

    expect(changed(stored, [...rows(), newRow()])).toBe(true);
    expect(changed(stored, rows().reverse())).toBe(true);
  });

  it("is false once a new row is removed again", () => {
    const extra = newRow({ name: "x" });
    extra.removed = true;
    expect(changed(stored, [...rows(), extra])).toBe(false);
  });

  it("gives every row its own key", () => {
    expect(newRow().key).not.toBe(newRow().key);
  });
});

describe("problems", () => {
  // As the API answers an invalid list: `index` counts the rows that were sent.
  const details: Problem[] = [
    { index: 0, name: "kube01", field: "ip", message: "'10.0.0' is not a valid IPv4 or IPv6 address" },
    { index: 0, name: "kube01", field: "role", message: "is required" },
    { index: 2, field: "name", message: "the name web is also used by row 2" },
    { field: "os", message: "server group pod-east would install centos7.3 (a) and centos7.4 (b)" },
    { index: 7, field: "ip", message: "a row that was not sent" },
  ];
  const keys = [41, 42, 43];

  it("puts each problem on the row it was sent as", () => {
    const placed = placeProblems(details, keys);
    expect(placed.byRow.get(41)?.map((p) => p.field)).toEqual(["ip", "role"]);
    expect(placed.byRow.get(42)).toBeUndefined();
    expect(placed.byRow.get(43)?.map((p) => p.field)).toEqual(["name"]);
    expect(isInvalid(placed, 41, "ip")).toBe(true);
    expect(isInvalid(placed, 41, "name")).toBe(false);
    expect(isInvalid(placed, 42, "ip")).toBe(false);
  });

  it("keeps problems without a known row for above the table", () => {
    const placed = placeProblems(details, keys);
    expect(placed.general.map((p) => p.message)).toEqual([details[3].message, details[4].message]);
    expect(placeProblems(undefined, keys)).toEqual(noProblems());
  });

  it("forgets a cell's problems when it is edited, and only then makes a new object", () => {
    const placed = placeProblems(details, keys);
    expect(dropProblems(placed, 41, ["name"])).toBe(placed);
    expect(dropProblems(placed, 42, ["ip"])).toBe(placed);

    const fewer = dropProblems(placed, 41, ["ip"]);
    expect(fewer.byRow.get(41)?.map((p) => p.field)).toEqual(["role"]);
    expect(placed.byRow.get(41)).toHaveLength(2);

    const none = dropProblems(fewer, 43, ["name"]);
    expect(none.byRow.has(43)).toBe(false);
    expect(none.general).toHaveLength(2);
  });

  it("words a problem with its column's title", () => {
    expect(problemText(details[0])).toBe("IP: '10.0.0' is not a valid IPv4 or IPv6 address");
    expect(problemText(details[1])).toBe("Role is required");
    expect(problemText({ field: "service_profile_template", message: "a template needs a server_group" })).toBe(
      "Template: a template needs a server_group",
    );
    expect(problemText({ field: "other", message: "must be set" })).toBe("other must be set");
    expect(problemText({ field: "", message: "the list is too long" })).toBe("the list is too long");
  });
});

describe("addresses for new and selected rows", () => {
  const nets = [
    { name: "lab", subnet: "192.0.2.0/24", gateway: "192.0.2.1" },
    { name: "open", subnet: null, gateway: "10.0.0.1" },
  ];
  const row = (ip: string, network_group: string) => ({ ...blankCells(), ip, network_group });

  it("gives each pasted row without an address its own next free one of its network", () => {
    const all = [row("192.0.2.2", "lab"), row("192.0.2.4", "lab")];
    const pasted = [row("", "lab"), row("192.0.2.3", "lab"), row("", "lab"), row("", "open"), row("", "")];
    expect(suggestIps(pasted, [...all, ...pasted], nets)).toBe(2);
    expect(pasted.map((c) => c.ip)).toEqual(["192.0.2.5", "192.0.2.3", "192.0.2.6", "", ""]);
  });

  it("gives a range from the first address, stepping over the other rows' addresses", () => {
    expect(addressRange("192.0.2.50", 4, ["192.0.2.51", "192.0.2.53", "2001:db8::51"])).toEqual(["192.0.2.50", "192.0.2.52", "192.0.2.54", "192.0.2.55"]);
    expect(addressRange("192.0.2.254", 3, [])).toEqual(["192.0.2.254", "192.0.2.255", "192.0.3.0"]);
    expect(addressRange("2001:db8::fffe", 3, [])).toEqual(["2001:db8::fffe", "2001:db8::ffff", "2001:db8::1:0"]);
  });

  it("says why a range cannot be given", () => {
    expect(addressRange("192.0.2.x", 2, [])).toMatch(/is not an IP address/);
    expect(addressRange("255.255.255.255", 2, [])).toMatch(/run past the last address/);
  });

  it("takes OS, role and network from the row above, nothing else", () => {
    const above = { ...blankCells(), name: "kube01", ip: "192.0.2.9", os: "centos7.4", role: "k8s node", network_group: "lab", server: "1/3" };
    expect(likeAbove(above)).toEqual({ os: "centos7.4", role: "k8s node", network_group: "lab" });
    expect(likeAbove({ ...blankCells(), os: "esxi8.0" })).toEqual({ os: "esxi8.0" });
    expect(likeAbove(undefined)).toEqual({});
  });
});

describe("MACs and IPv6 cells", () => {
  const nics: Host = { ...web, macs: ["aa:bb:cc:dd:ee:01", "aa:bb:cc:dd:ee:02"], ipv6: "2001:db8::12/64" };

  it("shows the MACs comma-separated and sends them as a list", () => {
    const cells = cellsOf(nics);
    expect(cells.macs).toBe("aa:bb:cc:dd:ee:01, aa:bb:cc:dd:ee:02");
    expect(cells.ipv6).toBe("2001:db8::12/64");
    expect(toInput({ ...cells, macs: "AA-BB-CC-DD-EE-01;  aabb.ccdd.ee02" })).toMatchObject({ macs: ["AA-BB-CC-DD-EE-01", "aabb.ccdd.ee02"], ipv6: "2001:db8::12/64" });
    expect(toInput(cellsOf(web))).not.toHaveProperty("macs");
  });

  it("sees a changed MAC but not a respaced list", () => {
    const stored: HostInput[] = [toInput(cellsOf(nics))];
    const row = newRow(cellsOf(nics));
    expect(changed(stored, [row])).toBe(false);
    row.cells.macs = "aa:bb:cc:dd:ee:01,aa:bb:cc:dd:ee:02";
    expect(changed(stored, [row])).toBe(false);
    row.cells.macs = "aa:bb:cc:dd:ee:01";
    expect(changed(stored, [row])).toBe(true);
    expect(sameInputs(stored, [toInput(cellsOf(nics))])).toBe(true);
    expect(sameInputs(stored, [toInput(cellsOf(web))])).toBe(false);
  });

  it("reads MAC and IPv6 columns of a paste by their names", () => {
    expect(columnOf("MAC addresses")).toBe("macs");
    expect(columnOf("IPv6")).toBe("ipv6");
    expect(patchesFrom('name,ip,macs\nweb,10.0.0.12,"aa:bb:cc:dd:ee:01, aa:bb:cc:dd:ee:02"')).toEqual([
      { name: "web", ip: "10.0.0.12", macs: "aa:bb:cc:dd:ee:01, aa:bb:cc:dd:ee:02" },
    ]);
  });

  it("marks the MACs cell for a problem of one MAC, and words it by its place", () => {
    const p: Problem = { index: 0, field: "macs[1]", message: "aa:bb:cc:dd:ee:01 is a NIC of host kube01 (row 1)" };
    const placed = placeProblems([p], [7]);
    expect(isInvalid(placed, 7, "macs")).toBe(true);
    expect(problemText(p)).toBe("MAC 2: aa:bb:cc:dd:ee:01 is a NIC of host kube01 (row 1)");
    expect(dropProblems(placed, 7, ["macs"]).byRow.has(7)).toBe(false);
  });
});
