// The ISOs screen's list of operating systems, on the catalog Bootsmith ships.
import { describe, expect, it } from "vitest";
import shipped from "../../../crates/model/data/catalog.json";
import { arrangeOs, endOfLife, osOrder, type OsGroup } from "./oslist";
import type { CatalogEntry } from "./types";

const catalog = shipped.os as unknown as CatalogEntry[];
const today = new Date("2026-11-26T00:00:00Z");
const ids = (groups: OsGroup[]) => groups.flatMap((g) => g.entries.map((e) => e.id));

describe("the ISOs screen's OS list", () => {
  it("puts every entry somewhere, once", () => {
    const list = arrangeOs(catalog, "", today);
    const all = [...ids(list.current), ...ids(list.endOfLife)];
    expect(catalog.length).toBeGreaterThan(40);
    expect([...all].sort()).toEqual(catalog.map((os) => os.id).sort());
    expect(list.shown).toBe(catalog.length);
  });

  it("starts with the newest supported versions, grouped by family", () => {
    const list = arrangeOs(catalog, "", today);
    expect(list.current.map((g) => g.family)).toEqual(["rhel", "ubuntu", "esxi", "windows"]);
    const rhel = ids(list.current.slice(0, 1));
    expect(rhel.slice(0, 5)).toEqual(["alma10", "rocky10", "rhel10.1", "rhel10.0", "alma9"]);
    expect(rhel.indexOf("rhel9.7")).toBeLessThan(rhel.indexOf("rhel9.6"));
    // 8.10 is newer than 8.9 (not a string comparison).
    expect(rhel.indexOf("rhel8.10")).toBeLessThan(rhel.indexOf("rhel8.9"));
    expect(rhel.at(-1)).toBe("rhel8.0");
    expect(ids(list.current.slice(1, 2))).toEqual(["ubuntu26.04", "ubuntu24.04", "ubuntu22.04"]);
    expect(ids(list.current.slice(3, 4))).toEqual(["win2025", "win2022", "win2019", "win2016"]);
  });

  it("puts the versions past their end of life last, newest first there too", () => {
    const list = arrangeOs(catalog, "", today);
    const old = ids(list.endOfLife);
    for (const id of ["centos7.3", "redhat7.2", "esxi6.0", "esxi7.0", "ubuntu18.04", "win2012r2", "rhvh4.1"]) {
      expect(old, id).toContain(id);
    }
    expect(ids(list.current)).not.toContain("centos7.4");
    expect(old.indexOf("redhat7.6")).toBeLessThan(old.indexOf("redhat7.2"));
    expect(old.indexOf("esxi7.0")).toBeLessThan(old.indexOf("esxi6.0"));
    // A line reaches its end on its day, not before.
    const esxi8 = catalog.find((os) => os.id === "esxi8.0")!;
    expect(endOfLife(esxi8, today)).toBeNull();
    expect(endOfLife(esxi8, new Date("2027-10-12T00:00:00Z"))).toBe("2027-10-11");
  });

  it("keeps what matches every typed word, in any case", () => {
    expect(ids(arrangeOs(catalog, "ESXi", today).current)).toEqual(["esxi9.0", "esxi8.0"]);
    expect(ids(arrangeOs(catalog, "esxi", today).endOfLife)).toEqual(["esxi7.0", "esxi6.7", "esxi6.5", "esxi6.0"]);
    const rocky = arrangeOs(catalog, "rocky 9", today);
    expect([ids(rocky.current), rocky.shown]).toEqual([["rocky9"], 1]);
    // RHEL 10 ends its life in 2035: listed as supported.
    expect(endOfLife(catalog.find((os) => os.id === "rhel10.1")!, today)).toBeNull();
    expect(endOfLife(catalog.find((os) => os.id === "rocky10")!, new Date("2035-06-01T00:00:00Z"))).toBe("2035-05-31");
    // A pack's entry without a day is supported.
    expect(endOfLife({ eol: null }, new Date("2099-01-01T00:00:00Z"))).toBeNull();
    expect(ids(arrangeOs(catalog, "windows 2019", today).current)).toEqual(["win2019"]);
    const none = arrangeOs(catalog, "solaris", today);
    expect([none.current, none.endOfLife, none.shown]).toEqual([[], [], 0]);
  });
});

describe("the Hosts sheet's OS choice", () => {
  it("is the ISOs screen's list in one: newest first, end of life last", () => {
    const list = arrangeOs(catalog, "", today);
    const order = osOrder(catalog, today).map((o) => o.id);
    expect(order).toEqual([...ids(list.current), ...ids(list.endOfLife)]);
    expect(order[0]).toBe("alma10");
    expect(order.indexOf("centos7.4")).toBeGreaterThan(order.indexOf("ubuntu24.04"));
  });
});
