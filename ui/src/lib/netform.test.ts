import { describe, expect, it } from "vitest";
import { BOND_MODES, HASH_POLICIES, blankExtras, bondText, extrasInput, extrasOf, macsOf, macsText, takesHashPolicy, takesLacpRate } from "./netform";
import type { Network } from "./types";

const bonded: Network = {
  id: "00000000-0000-4000-8000-000000000001",
  name: "dc",
  netmask: "255.255.255.0",
  gateway: "192.0.2.1",
  nameserver: "192.0.2.53",
  ntpserver: "pool.ntp.org",
  vlan: "30",
  mtu: 9000,
  bond: { mode: "802.3ad", lacp_rate: "fast", xmit_hash_policy: "layer3+4" },
  routes: [{ to: "10.0.0.0/8", via: "192.0.2.254" }],
  ipv6_gateway: "fe80::1",
  params: { timezone: "Europe/Berlin", repo_token: { value: "********", secret: true } },
};

describe("the network form's settings", () => {
  it("offers every bonding mode, and the options only where the mode takes them", () => {
    expect(Object.keys(BOND_MODES).sort()).toEqual(["802.3ad", "active-backup", "balance-alb", "balance-rr", "balance-tlb", "balance-xor", "broadcast"]);
    expect(Object.keys(HASH_POLICIES)).toEqual(["layer2", "layer2+3", "layer3+4", "encap2+3", "encap3+4"]);
    expect(Object.keys(BOND_MODES).filter(takesLacpRate)).toEqual(["802.3ad"]);
    expect(Object.keys(BOND_MODES).filter(takesHashPolicy).sort()).toEqual(["802.3ad", "balance-alb", "balance-tlb", "balance-xor"]);
  });

  it("reads a stored group and sends it back the same", () => {
    const x = extrasOf(bonded);
    expect(x).toEqual({
      mtu: "9000",
      bond_mode: "802.3ad",
      lacp_rate: "fast",
      xmit_hash_policy: "layer3+4",
      routes: [{ to: "10.0.0.0/8", via: "192.0.2.254" }],
      ipv6_gateway: "fe80::1",
      params: [
        { key: "repo_token", value: "********", secret: true },
        { key: "timezone", value: "Europe/Berlin", secret: false },
      ],
    });
    // The secret goes back masked, which keeps its stored value.
    expect(extrasInput(x)).toEqual({ mtu: 9000, bond: bonded.bond, routes: bonded.routes, ipv6_gateway: "fe80::1", params: bonded.params });
    expect(bondText(bonded)).toBe("802.3ad, fast, layer3+4");
  });

  it("sends blanks as not set, drops options another mode left behind and empty route rows", () => {
    expect(extrasInput(blankExtras())).toEqual({ mtu: null, bond: null, routes: null, ipv6_gateway: null, params: {} });
    const x = { ...extrasOf(bonded), bond_mode: "active-backup", routes: [{ to: " ", via: "" }, { to: "172.16.0.0/12 ", via: " 192.0.2.253" }] };
    expect(extrasInput(x)).toMatchObject({ bond: { mode: "active-backup" }, routes: [{ to: "172.16.0.0/12", via: "192.0.2.253" }] });
    expect(extrasInput({ ...x, bond_mode: "balance-xor" }).bond).toEqual({ mode: "balance-xor", xmit_hash_policy: "layer3+4" });
    // Not a number: sent as typed, for the service to say what is wrong with it.
    expect(extrasInput({ ...blankExtras(), mtu: "jumbo" }).mtu).toBe("jumbo");
    expect(bondText({ ...bonded, bond: null })).toBe("—");
  });
});

describe("a host's MACs in one cell", () => {
  it("splits at commas, semicolons and spaces, and joins with a comma", () => {
    expect(macsOf(" aa:bb:cc:dd:ee:01, AA-BB-CC-DD-EE-02;aabb.ccdd.ee03  ")).toEqual(["aa:bb:cc:dd:ee:01", "AA-BB-CC-DD-EE-02", "aabb.ccdd.ee03"]);
    expect(macsOf("  ")).toEqual([]);
    expect(macsText(["aa:bb:cc:dd:ee:01", "aa:bb:cc:dd:ee:02"])).toBe("aa:bb:cc:dd:ee:01, aa:bb:cc:dd:ee:02");
    expect(macsText(undefined)).toBe("");
  });
});
