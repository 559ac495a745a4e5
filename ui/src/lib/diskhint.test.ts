import { describe, expect, it } from "vitest";
import {
  blankDisk,
  diskCellsOf,
  diskFieldInvalid,
  diskFieldOf,
  diskProblemTitle,
  diskSummary,
  hintOf,
  isDiskProblem,
  sameDisk,
  sameHint,
} from "./diskhint";
import { changed, inputOf, newRow, problemText, rowInput, rowOf, sameInputs } from "./hostsheet";
import type { Host, InstallDiskHint } from "./types";

const full: InstallDiskHint = {
  serial: "21033A4E",
  wwn: "0x500a07512a1b2c3d",
  model: "Micron_5300_MTFDDAK480TDS",
  vendor: "ATA",
  size_gb: { min: 400, max: 500 },
  name: "/dev/disk/by-path/pci-0000:3b:00.0-sas-phy0-lun-0",
  rotational: false,
};

describe("the install disk's fields", () => {
  it("round-trip every key of a hint", () => {
    const cells = diskCellsOf(full);
    expect(cells).toEqual({
      serial: "21033A4E",
      wwn: "0x500a07512a1b2c3d",
      model: "Micron_5300_MTFDDAK480TDS",
      vendor: "ATA",
      size_min: "400",
      size_max: "500",
      name: "/dev/disk/by-path/pci-0000:3b:00.0-sas-phy0-lun-0",
      rotational: "false",
    });
    expect(hintOf(cells)).toEqual(full);
    for (const h of [{ size_gb: 447 }, { size_gb: { min: 400 } }, { size_gb: { max: 100 } }, { rotational: true }, { serial: "x" }] as InstallDiskHint[]) {
      expect(hintOf(diskCellsOf(h))).toEqual(h);
    }
  });

  it("leave blank fields out, trim the rest, and give no hint when all are blank", () => {
    expect(hintOf(blankDisk())).toBeUndefined();
    expect(diskCellsOf(null)).toEqual(blankDisk());
    expect(hintOf({ ...blankDisk(), serial: "  S1 ", model: "   " })).toEqual({ serial: "S1" });
    expect(hintOf({ ...blankDisk(), rotational: "" })).toBeUndefined();
  });

  it("make the same from and to an exact size, and a bound alone a range", () => {
    expect(hintOf({ ...blankDisk(), size_min: "447", size_max: " 447 " })).toEqual({ size_gb: 447 });
    expect(hintOf({ ...blankDisk(), size_min: "400" })).toEqual({ size_gb: { min: 400 } });
    expect(hintOf({ ...blankDisk(), size_max: "500" })).toEqual({ size_gb: { max: 500 } });
    // Stored as a range of one size, it reads as the same disk.
    expect(sameHint({ size_gb: { min: 447, max: 447 } }, { size_gb: 447 })).toBe(true);
    expect(sameHint({ size_gb: 447 }, { size_gb: 448 })).toBe(false);
  });

  it("send a size that is not a number as typed, for the service to name", () => {
    expect(hintOf({ ...blankDisk(), size_min: "lots" })).toEqual({ size_gb: { min: "lots" } });
  });

  it("compare as the hint they give", () => {
    expect(sameDisk({ ...blankDisk(), serial: "A " }, { ...blankDisk(), serial: "A" })).toBe(true);
    expect(sameDisk({ ...blankDisk(), serial: "A" }, blankDisk())).toBe(false);
    expect(sameHint(undefined, null)).toBe(true);
  });

  it("read as a short summary", () => {
    expect(diskSummary(blankDisk())).toBe("Default");
    expect(diskSummary(diskCellsOf(full))).toBe(
      "S/N 21033A4E · WWN 0x500a07512a1b2c3d · ATA Micron_5300_MTFDDAK480TDS · 400–500 GiB · /dev/disk/by-path/pci-0000:3b:00.0-sas-phy0-lun-0 · SSD",
    );
    expect(diskSummary(diskCellsOf({ size_gb: 447, rotational: true }))).toBe("447 GiB · HDD");
    expect(diskSummary(diskCellsOf({ size_gb: { min: 400 } }))).toBe("≥ 400 GiB");
    expect(diskSummary(diskCellsOf({ size_gb: { max: 400 } }))).toBe("≤ 400 GiB");
  });
});

describe("the install disk's problems", () => {
  const p = (field: string, message = "is wrong") => ({ field, message });

  it("land on the field they are about", () => {
    expect(isDiskProblem(p("install_disk"))).toBe(true);
    expect(isDiskProblem(p("install_disk.size_gb.min"))).toBe(true);
    expect(isDiskProblem(p("install_diskette"))).toBe(false);
    const list = [p("install_disk.size_gb"), p("install_disk.wwn")];
    expect(diskFieldInvalid(list, "size_min")).toBe(true);
    expect(diskFieldInvalid(list, "size_max")).toBe(true);
    expect(diskFieldInvalid(list, "wwn")).toBe(true);
    expect(diskFieldInvalid(list, "serial")).toBe(false);
    expect(diskFieldInvalid([p("install_disk.size_gb.max")], "size_min")).toBe(false);
    expect(diskFieldOf(p("install_disk.size_gb.max"))).toBe("size_max");
    expect(diskFieldOf(p("install_disk.size_gb"))).toBe("size_min");
    expect(diskFieldOf(p("install_disk.rotational"))).toBe("rotational");
    expect(diskFieldOf(p("install_disk"))).toBe("serial");
  });

  it("are worded with the editor's names", () => {
    expect(diskProblemTitle("install_disk")).toBe("Install disk");
    expect(diskProblemTitle("install_disk.wwn")).toBe("Install disk, WWN");
    expect(diskProblemTitle("install_disk.size_gb")).toBe("Install disk, size");
    expect(diskProblemTitle("install_disk.size_gb.min")).toBe("Install disk, size from (GiB)");
    expect(diskProblemTitle("install_disk.size_gb.max")).toBe("Install disk, size to (GiB)");
    expect(diskProblemTitle("install_disk.colour")).toBe("Install disk, colour");
    expect(diskProblemTitle("ip")).toBeNull();
    expect(problemText(p("install_disk.serial", "is empty"))).toBe("Install disk, serial is empty");
    expect(problemText(p("install_disk.size_gb", "min (500 GiB) is more than max (400 GiB)"))).toBe(
      "Install disk, size: min (500 GiB) is more than max (400 GiB)",
    );
  });
});

describe("a host row's install disk", () => {
  const host: Host = { name: "kube01", ip: "10.0.0.11", os: "centos7.4", role: "generic", network_group: "mgmt", install_disk: full };

  it("goes from the stored host to the row and back to the same input", () => {
    const row = rowOf(host);
    expect(row.disk.serial).toBe("21033A4E");
    expect(rowInput(row)).toEqual(inputOf(host));
    expect(rowInput(row).install_disk).toEqual(full);
    expect(inputOf({ ...host, install_disk: null }).install_disk).toBeUndefined();
  });

  it("counts as a change only when it asks for another disk", () => {
    const stored = [inputOf(host)];
    const row = rowOf(host);
    expect(changed(stored, [row])).toBe(false);
    row.disk.serial = "21033A4F";
    expect(changed(stored, [row])).toBe(true);
    row.disk.serial = " 21033A4E ";
    expect(changed(stored, [row])).toBe(false);
    expect(changed([inputOf({ ...host, install_disk: undefined })], [newRow(rowOf(host).cells)])).toBe(false);
    expect(sameInputs([inputOf(host)], [inputOf({ ...host, install_disk: { serial: "x" } })])).toBe(false);
  });
});
