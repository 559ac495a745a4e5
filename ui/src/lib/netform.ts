// A network group's settings beyond the seed's (issue 29) as the Networks screen edits them:
// the MTU, a bond (its options offered only where the mode takes them), static routes as
// rows, and the IPv6 gateway; to and from the API's fields. And a host's MACs as the Hosts
// sheet's one cell of comma-separated text. Pure functions, so they are unit-tested without a page.

import type { components } from "./api-schema";
import type { Network, NetworkInput } from "./types";
import { paramMap, paramRows, type ParamRow } from "./params";

type S = components["schemas"];
export type BondMode = S["BondMode"];
export type LacpRate = S["LacpRate"];
export type XmitHashPolicy = S["XmitHashPolicy"];

/** Every bonding mode with what it needs of the switch, in the select's order. A Record, so a
 * mode the service adds is a type error here until it has its words. */
export const BOND_MODES: Record<BondMode, string> = {
  "active-backup": "active-backup (one NIC at a time; nothing needed of the switch)",
  "802.3ad": "802.3ad (LACP; the switch ports form a port channel)",
  "balance-alb": "balance-alb (adaptive load balancing)",
  "balance-tlb": "balance-tlb (adaptive transmit load balancing)",
  "balance-xor": "balance-xor (a NIC by address hash; a static port channel)",
  "balance-rr": "balance-rr (round robin; a static port channel)",
  broadcast: "broadcast (every packet on every NIC)",
};

export const LACP_RATES: Record<LacpRate, string> = {
  slow: "slow (every 30 s)",
  fast: "fast (every second)",
};

export const HASH_POLICIES: Record<XmitHashPolicy, string> = {
  layer2: "layer2 (MAC addresses)",
  "layer2+3": "layer2+3 (MAC and IP addresses)",
  "layer3+4": "layer3+4 (IP addresses and ports)",
  "encap2+3": "encap2+3 (inner MAC and IP of a tunnel)",
  "encap3+4": "encap3+4 (inner IP and ports of a tunnel)",
};

/** Whether a mode talks LACP, so it takes a rate (the service refuses one elsewhere). */
export function takesLacpRate(mode: string): boolean {
  return mode === "802.3ad";
}

/** Whether a mode hashes to choose a NIC, so it takes a hash policy. */
export function takesHashPolicy(mode: string): boolean {
  return ["802.3ad", "balance-xor", "balance-tlb", "balance-alb"].includes(mode);
}

/** One route as typed. */
export interface RouteRow {
  to: string;
  via: string;
}

/** The settings as typed: blank means "not set"; `bond_mode` blank is no bond. */
export interface NetExtras {
  mtu: string;
  bond_mode: string;
  lacp_rate: string;
  xmit_hash_policy: string;
  routes: RouteRow[];
  ipv6_gateway: string;
  /** Its hosts' template parameters. */
  params: ParamRow[];
}

export function blankExtras(): NetExtras {
  return { mtu: "", bond_mode: "", lacp_rate: "", xmit_hash_policy: "", routes: [], ipv6_gateway: "", params: [] };
}

/** The settings of a stored group, as the form shows them. */
export function extrasOf(n: Network | null): NetExtras {
  if (!n) return blankExtras();
  return {
    mtu: n.mtu == null ? "" : String(n.mtu),
    bond_mode: n.bond?.mode ?? "",
    lacp_rate: n.bond?.lacp_rate ?? "",
    xmit_hash_policy: n.bond?.xmit_hash_policy ?? "",
    routes: (n.routes ?? []).map((r) => ({ to: r.to, via: r.via })),
    ipv6_gateway: n.ipv6_gateway ?? "",
    params: paramRows(n.params),
  };
}

type ExtraFields = Pick<NetworkInput, "mtu" | "bond" | "routes" | "ipv6_gateway" | "params">;

/** The API's fields from the form: blanks null (not set), an option the mode does not take
 * left out (the select hides it, but a value picked under another mode may remain), rows with
 * both cells blank dropped. The MTU goes as typed where it is not a number, for the service to
 * name what is wrong with it. */
export function extrasInput(x: NetExtras): ExtraFields {
  const mtu = x.mtu.trim();
  const mode = x.bond_mode.trim();
  const bond = mode
    ? {
        mode: mode as BondMode,
        ...(takesLacpRate(mode) && x.lacp_rate ? { lacp_rate: x.lacp_rate as LacpRate } : {}),
        ...(takesHashPolicy(mode) && x.xmit_hash_policy ? { xmit_hash_policy: x.xmit_hash_policy as XmitHashPolicy } : {}),
      }
    : null;
  const routes = x.routes.map((r) => ({ to: r.to.trim(), via: r.via.trim() })).filter((r) => r.to || r.via);
  return {
    mtu: mtu === "" ? null : /^\d+$/.test(mtu) ? Number(mtu) : (mtu as unknown as number),
    bond,
    routes: routes.length ? routes : null,
    ipv6_gateway: x.ipv6_gateway.trim() || null,
    params: paramMap(x.params),
  };
}

/** A short word for a group's bond in the list: `802.3ad, fast, layer3+4`. */
export function bondText(n: Network): string {
  const b = n.bond;
  if (!b) return "—";
  return [b.mode, b.lacp_rate, b.xmit_hash_policy].filter(Boolean).join(", ");
}

/** A host's MACs as the sheet's cell shows them: comma-separated. */
export function macsText(macs: readonly string[] | null | undefined): string {
  return (macs ?? []).join(", ");
}

/** The MACs typed in a cell, split at commas, semicolons or spaces, blanks dropped; checked
 * (and written lower case with colons) by the service. */
export function macsOf(text: string): string[] {
  return text
    .split(/[,;\s]+/)
    .map((m) => m.trim())
    .filter(Boolean);
}
