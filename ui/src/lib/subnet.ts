// Subnets (CIDR) as network groups name them: parse, test membership, suggest the next free
// host address. The server checks the same rules on save; this lets a form suggest and warn.

/** A parsed subnet: its network address as a number, its prefix and its IP version. */
export interface Subnet {
  version: 4 | 6;
  network: bigint;
  prefix: number;
  /** As written back: `192.0.2.0/24`. */
  text: string;
}

const V4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** An IPv4 or IPv6 address as a number and its version; null when it is not one. */
export function parseIp(s: string): { version: 4 | 6; value: bigint } | null {
  const t = s.trim();
  const m = V4.exec(t);
  if (m) {
    const parts = m.slice(1).map(Number);
    // No leading zeros (010 reads as octal in some tools) and each part a byte.
    if (m.slice(1).some((p) => p.length > 1 && p.startsWith("0")) || parts.some((p) => p > 255)) return null;
    return { version: 4, value: parts.reduce((acc, p) => (acc << 8n) | BigInt(p), 0n) };
  }
  if (!t.includes(":")) return null;
  const halves = t.split("::");
  if (halves.length > 2) return null;
  const groups = (h: string) => (h === "" ? [] : h.split(":"));
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 1 && missing !== 0) || (halves.length === 2 && missing < 1)) return null;
  const all = [...head, ...Array(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (all.some((g) => !/^[0-9a-fA-F]{1,4}$/.test(g))) return null;
  return { version: 6, value: all.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n) };
}

/** The address `value` of `version` written out (IPv6 in full groups, `::` for the longest run of zeros). */
export function formatIp(version: 4 | 6, value: bigint): string {
  if (version === 4) return [24n, 16n, 8n, 0n].map((s) => String((value >> s) & 255n)).join(".");
  const groups = Array.from({ length: 8 }, (_, i) => Number((value >> BigInt(112 - 16 * i)) & 0xffffn));
  let best = { at: -1, len: 0 };
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) { i++; continue; }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > best.len && j - i > 1) best = { at: i, len: j - i };
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best.at < 0) return hex.join(":");
  return `${hex.slice(0, best.at).join(":")}::${hex.slice(best.at + best.len).join(":")}`;
}

const width = (v: 4 | 6) => (v === 4 ? 32 : 128);
const mask = (v: 4 | 6, prefix: number) => {
  const all = (1n << BigInt(width(v))) - 1n;
  return (all >> BigInt(width(v) - prefix)) << BigInt(width(v) - prefix);
};

/** Parse `address/prefix`; an error sentence when it is not a subnet (host bits set included). */
export function parseCidr(s: string): Subnet | string {
  const t = s.trim();
  const [addr, prefix, ...rest] = t.split("/");
  const ip = parseIp(addr ?? "");
  if (!ip || prefix === undefined || rest.length) return `'${t}' is not a subnet: give it as address/prefix, like 192.0.2.0/24`;
  const p = /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
  if (!(p >= 0 && p <= width(ip.version))) return `'${t}' has no valid prefix length: use 0 to ${width(ip.version)} after the /`;
  const network = ip.value & mask(ip.version, p);
  const text = `${formatIp(ip.version, network)}/${p}`;
  if (network !== ip.value) return `'${t}' has host bits set: the subnet of ${addr}/${p} is ${text}`;
  return { version: ip.version, network, prefix: p, text };
}

/** Whether `ip` lies in `subnet` (an address of the other IP version never does). */
export function contains(subnet: Subnet | string, ip: string): boolean {
  const net = typeof subnet === "string" ? parseCidr(subnet) : subnet;
  const a = parseIp(ip);
  if (typeof net === "string" || !a || a.version !== net.version) return false;
  return (a.value & mask(net.version, net.prefix)) === net.network;
}

/** The first address of `cidr` no host uses and that is not the gateway, the network's own
 * address or (IPv4) its broadcast address; null when the subnet is full or `cidr` is not one.
 * Give it the group's subnet, the addresses of every host (of every group: addresses are
 * unique across them all) and the group's gateway. */
export function nextFree(cidr: string, used: Iterable<string>, gateway?: string | null): string | null {
  const net = parseCidr(cidr);
  if (typeof net === "string") return null;
  const taken = new Set<bigint>();
  for (const u of [...used, ...(gateway ? [gateway] : [])]) {
    const a = parseIp(u);
    if (a && a.version === net.version) taken.add(a.value);
  }
  const size = 1n << BigInt(width(net.version) - net.prefix);
  // /31 and /32 (and IPv6 /127, /128) have no network or broadcast address to skip.
  const small = size <= 2n;
  const first = small ? net.network : net.network + 1n;
  const last = net.network + size - 1n - (small || net.version === 6 ? 0n : 1n);
  // A bounded walk: a subnet with more used addresses than this is not what a form fills.
  for (let a = first, n = 0; a <= last && n <= taken.size + 1; a++, n++) {
    if (!taken.has(a)) return formatIp(net.version, a);
  }
  return null;
}
