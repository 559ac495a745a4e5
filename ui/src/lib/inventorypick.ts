// Picking a host's install disk and MACs from what its server's manager reports: a disk
// becomes the hint that names it alone, a NIC's MAC goes in or out of the host's `macs`
// cell. Pure functions, so they are unit-tested without a page.

import { blankDisk, type DiskCells } from "./diskhint";
import type { Disk, Disks, NicRecord, Nics } from "./types";

/** A server's entries of a per-server answer, whichever map (blades or rack servers) holds it. */
function ofServer<T>(answer: { blades: Record<string, T[]>; rack_servers: Record<string, T[]> } | undefined, server: string): T[] | undefined {
  if (!answer) return undefined;
  return answer.blades[server] ?? answer.rack_servers[server];
}

/** The disks the manager reports for `server`; undefined when the answer does not name it. */
export function disksOf(disks: Disks | undefined, server: string): Disk[] | undefined {
  return ofServer(disks, server);
}

/** The NICs the manager reports for `server`; undefined when the answer does not name it. */
export function nicsOf(nics: Nics | undefined, server: string): NicRecord[] | undefined {
  return ofServer(nics, server);
}

/** The hint fields that name `disk` and no other: its serial where the manager reports one
 * (what stays with the disk if it moves slot), else its WWN; undefined where it reports
 * neither (a hint by size or model could match another disk). */
export function cellsFor(disk: Disk): DiskCells | undefined {
  // The installed system sees a member drive's virtual drive, never the drive itself.
  if (disk.member_of) return undefined;
  const cells = blankDisk();
  if (disk.serial?.trim()) cells.serial = disk.serial.trim();
  else if (disk.wwn?.trim()) cells.wwn = disk.wwn.trim();
  else return undefined;
  return cells;
}

/** Why the default rule would never take `disk` (a SAN LUN, USB disk or SD card), in words;
 * empty for a local disk. */
export function notLocal(disk: Disk): string {
  switch (disk.transport) {
    case "remote":
      return "SAN LUN";
    case "usb":
      return "USB";
    case "sd_card":
      return "SD card";
    default:
      return "";
  }
}

/** A RAID level as operators write it: "raid10" → "RAID 10". */
function raidWords(raid: string): string {
  return raid.replace(/^raid/, "RAID ");
}

/** A disk in a few words for the picker: "1 · 447 GiB · Micron 5300 · S/N 21033A4E", a
 * virtual drive as "vd-0 · RAID 1 virtual drive · …", a member drive "… · in vd-0". */
export function diskWords(disk: Disk): string {
  const gib = disk.size_bytes != null ? `${Math.floor(disk.size_bytes / 2 ** 30)} GiB` : disk.size;
  const make = [disk.vendor, disk.model].filter((x) => x?.trim()).join(" ");
  const kind = disk.rotational == null ? "" : disk.rotational ? "HDD" : "SSD";
  const id = disk.serial ? `S/N ${disk.serial}` : disk.wwn ? `WWN ${disk.wwn}` : "";
  const virtual = disk.kind === "virtual_drive" ? `${disk.raid ? `${raidWords(disk.raid)} ` : ""}virtual drive` : "";
  const member = disk.member_of ? `in ${disk.member_of}` : "";
  return [disk.id, virtual, gib, make, kind, id, notLocal(disk), member].filter((x) => x?.trim()).join(" · ");
}

/** The MACs a `macs` cell holds, lower case, in order, without repeats. */
export function macsIn(cell: string): string[] {
  const out: string[] = [];
  for (const m of cell.split(/[\s,;]+/)) {
    const mac = m.trim().toLowerCase();
    if (mac && !out.includes(mac)) out.push(mac);
  }
  return out;
}

/** The `macs` cell with `mac` added (at the end) or taken out; the others kept as they were. */
export function withMac(cell: string, mac: string, on: boolean): string {
  const macs = macsIn(cell).filter((m) => m !== mac.toLowerCase());
  if (on) macs.push(mac.toLowerCase());
  return macs.join(", ");
}
