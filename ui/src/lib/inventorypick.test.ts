import { describe, expect, it } from "vitest";
import { hintOf } from "./diskhint";
import { cellsFor, diskWords, disksOf, macsIn, nicsOf, notLocal, withMac } from "./inventorypick";
import type { Disk, Disks, Nics } from "./types";

const micron: Disk = {
  id: "1",
  dn: "sys/rack-unit-2/board/storage-SAS-1/disk-1",
  state: "jbod",
  model: "Micron_5300",
  size: "457862",
  size_bytes: 480103981056,
  vendor: "Micron",
  serial: "21033A4E",
  wwn: "0x500a07512a1b2c3d",
  rotational: false,
  transport: "local",
  kind: "drive",
};

describe("picking a disk from inventory", () => {
  it("names a disk by its serial alone, else by its WWN, else not at all", () => {
    expect(hintOf(cellsFor(micron)!)).toEqual({ serial: "21033A4E" });
    expect(hintOf(cellsFor({ ...micron, serial: undefined })!)).toEqual({ wwn: "0x500a07512a1b2c3d" });
    expect(cellsFor({ ...micron, serial: " ", wwn: undefined })).toBeUndefined();
  });

  it("says a disk in the words an operator reads off its label", () => {
    expect(diskWords(micron)).toBe("1 · 447 GiB · Micron Micron_5300 · SSD · S/N 21033A4E");
    const lun = { ...micron, id: "lun-0", transport: "remote" as const, size_bytes: undefined, size: "", serial: undefined, wwn: undefined, rotational: undefined, vendor: undefined, model: "" };
    expect(diskWords(lun)).toBe("lun-0 · SAN LUN");
    expect(notLocal(micron)).toBe("");
  });

  it("names a RAID virtual drive, and never offers a drive inside one", () => {
    const vd: Disk = { ...micron, id: "vd-0", kind: "virtual_drive", raid: "raid1", serial: undefined, wwn: "0x600508b1001c4d2e", vendor: undefined, model: "", rotational: undefined };
    expect(diskWords(vd)).toBe("vd-0 · RAID 1 virtual drive · 447 GiB · WWN 0x600508b1001c4d2e");
    expect(hintOf(cellsFor(vd)!)).toEqual({ wwn: "0x600508b1001c4d2e" });
    const member = { ...micron, member_of: "vd-0" };
    expect(cellsFor(member)).toBeUndefined();
    expect(diskWords(member)).toMatch(/ · in vd-0$/);
  });

  it("finds a server's disks and NICs whether it is a blade or a rack server", () => {
    const disks: Disks = { blades: { "1/3": [micron] }, rack_servers: { "2": [] } };
    expect(disksOf(disks, "1/3")).toEqual([micron]);
    expect(disksOf(disks, "2")).toEqual([]);
    expect(disksOf(disks, "9")).toBeUndefined();
    const nics: Nics = { blades: {}, rack_servers: { "2": [{ name: "eth0", mac: "00:25:b5:00:00:1a", link_up: true }] } };
    expect(nicsOf(nics, "2")?.map((n) => n.mac)).toEqual(["00:25:b5:00:00:1a"]);
    expect(nicsOf(undefined, "2")).toBeUndefined();
  });
});

describe("picking MACs from inventory", () => {
  it("adds a MAC at the end and takes one out, keeping the others in order", () => {
    expect(withMac("", "00:25:B5:00:00:1A", true)).toBe("00:25:b5:00:00:1a");
    expect(withMac("00:25:b5:00:00:1a", "00:25:b5:00:00:1b", true)).toBe("00:25:b5:00:00:1a, 00:25:b5:00:00:1b");
    expect(withMac("00:25:b5:00:00:1a, 00:25:b5:00:00:1b", "00:25:B5:00:00:1A", false)).toBe("00:25:b5:00:00:1b");
    // Ticking one already typed (in another case) does not list it twice.
    expect(withMac("00:25:B5:00:00:1A", "00:25:b5:00:00:1a", true)).toBe("00:25:b5:00:00:1a");
  });

  it("reads a cell typed with commas, spaces or semicolons", () => {
    expect(macsIn(" 00:25:b5:00:00:1a;00:25:b5:00:00:1b  00:25:b5:00:00:1a ")).toEqual(["00:25:b5:00:00:1a", "00:25:b5:00:00:1b"]);
    expect(macsIn("")).toEqual([]);
  });
});
