import { describe, expect, it } from "vitest";
import { diskKind, diskSize, matches, mebibytes, naturalCompare, nextSort, selectShown, shownCount, shownState, terms, typing, view } from "./listview";

interface Row {
  name: string;
  ip: string;
  os: string;
}

const rows: Row[] = [
  { name: "kube-node-10", ip: "192.0.2.100", os: "centos7.4" },
  { name: "kube-node-9", ip: "192.0.2.20", os: "ubuntu22.04" },
  { name: "Kube-Master-01", ip: "192.0.2.9", os: "centos7.4" },
  { name: "esx-01", ip: "", os: "esxi6.7" },
];
const text = (r: Row) => `${r.name} ${r.ip} ${r.os}`;
const value = (r: Row, k: keyof Row) => r[k];
const names = (idx: number[]) => idx.map((i) => rows[i].name);

describe("search", () => {
  it("needs every word, in any column, case ignored", () => {
    expect(matches("kube-node-10 192.0.2.100 centos7.4", "CENTOS node")).toBe(true);
    expect(matches("kube-node-10 192.0.2.100 centos7.4", "centos ubuntu")).toBe(false);
    expect(names(view(rows, { query: "centos kube", text }))).toEqual(["kube-node-10", "Kube-Master-01"]);
  });

  it("keeps a quoted phrase together", () => {
    expect(terms('"k8s node" pod')).toEqual(["k8s node", "pod"]);
    expect(matches("k8s master, pod-east, node 3", '"k8s node"')).toBe(false);
  });

  it("shows everything for an empty or blank search", () => {
    expect(view(rows, { query: "   ", text })).toEqual([0, 1, 2, 3]);
  });

  it("always shows pinned rows (just added), after the matches", () => {
    expect(names(view(rows, { query: "esx", text, pinned: new Set([1]) }))).toEqual(["esx-01", "kube-node-9"]);
  });
});

describe("sort", () => {
  it("orders numbers by value and ignores case", () => {
    expect(naturalCompare("kube-node-9", "kube-node-10")).toBeLessThan(0);
    expect(naturalCompare("blade 1/10", "blade 1/9")).toBeGreaterThan(0);
    expect(names(view(rows, { text, sort: { key: "name", dir: "asc" }, value }))).toEqual(["esx-01", "Kube-Master-01", "kube-node-9", "kube-node-10"]);
  });

  it("sorts addresses by their numbers and puts blanks last", () => {
    expect(view(rows, { text, sort: { key: "ip", dir: "asc" }, value }).map((i) => rows[i].ip)).toEqual(["192.0.2.9", "192.0.2.20", "192.0.2.100", ""]);
  });

  it("descends, keeping equal rows in their order", () => {
    expect(names(view(rows, { text, sort: { key: "os", dir: "desc" }, value }))).toEqual(["kube-node-9", "esx-01", "kube-node-10", "Kube-Master-01"]);
  });

  it("sorts numbers as numbers", () => {
    const mem = [{ gb: 1024 }, { gb: 256 }, { gb: 64 }];
    expect(view(mem, { text: () => "", sort: { key: "gb", dir: "asc" }, value: (r) => r.gb })).toEqual([2, 1, 0]);
  });

  it("cycles a column: ascending, descending, own order", () => {
    let s = nextSort({ key: "", dir: "asc" }, "name");
    expect(s).toEqual({ key: "name", dir: "asc" });
    s = nextSort(s, "name");
    expect(s).toEqual({ key: "name", dir: "desc" });
    expect(nextSort(s, "name").key).toBe("");
    expect(nextSort(s, "ip")).toEqual({ key: "ip", dir: "asc" });
  });
});

describe("selection of a filtered list", () => {
  it("ticks and clears only the shown rows", () => {
    const hiddenPick = new Set(["a"]);
    const all = selectShown(hiddenPick, ["b", "c"], true);
    expect([...all].sort()).toEqual(["a", "b", "c"]);
    expect([...selectShown(all, ["b", "c"], false)]).toEqual(["a"]);
  });

  it("says whether all, some or none of the shown rows are selected", () => {
    expect(shownState(new Set(["a"]), ["a", "b"])).toBe("some");
    expect(shownState(new Set(["a", "b", "z"]), ["a", "b"])).toBe("all");
    expect(shownState(new Set(["z"]), ["a", "b"])).toBe("none");
  });

  it("counts what is shown", () => {
    expect(shownCount(3, 200, "host")).toBe("3 of 200 hosts shown");
    expect(shownCount(1, 1, "host")).toBe("1 host");
    expect(shownCount(8, 8, "server")).toBe("8 servers");
  });
});

describe("sizes", () => {
  it("shows a manager's megabytes of memory in GiB or TiB", () => {
    expect(mebibytes(393216)).toBe("384 GiB");
    expect(mebibytes(65536)).toBe("64 GiB");
    expect(mebibytes(1572864)).toBe("1.5 TiB");
    expect(mebibytes(0)).toBe("—");
  });

  it("reads disk sizes in each manager's way", () => {
    expect(diskSize("915715")).toBe("894 GiB"); // UCS Manager: MB, no unit
    expect(diskSize("952720 MB")).toBe("930 GiB"); // IMC
    expect(diskSize("960 GB")).toBe("894 GiB"); // Redfish, from bytes
    expect(diskSize("3815447 MB")).toBe("3.6 TiB");
    expect(diskSize("unknown")).toBe("unknown");
    expect(diskSize("")).toBe("—");
  });

  it("names a disk's kind as a hint tells disks apart", () => {
    expect(diskKind({ rotational: false, transport: "local" })).toBe("SSD");
    expect(diskKind({ rotational: true, transport: "local" })).toBe("HDD");
    expect(diskKind({ transport: "sd_card" })).toBe("SD card");
    expect(diskKind({ rotational: false, transport: "remote" })).toBe("SSD, SAN LUN");
    expect(diskKind({ transport: "local" })).toBe("—");
  });
});

describe("typing", () => {
  it("tells text fields from buttons and boxes", () => {
    expect(typing({ tagName: "INPUT", type: "text" } as unknown as EventTarget)).toBe(true);
    expect(typing({ tagName: "INPUT", type: "checkbox" } as unknown as EventTarget)).toBe(false);
    expect(typing({ tagName: "TEXTAREA" } as unknown as EventTarget)).toBe(true);
    expect(typing({ tagName: "BUTTON" } as unknown as EventTarget)).toBe(false);
    expect(typing(null)).toBe(false);
  });
});
