import { describe, expect, it } from "vitest";
import { contains, formatIp, nextFree, parseCidr, parseIp } from "./subnet";

describe("parseCidr", () => {
  it("reads IPv4 and IPv6 subnets and writes them back", () => {
    const v4 = parseCidr("192.0.2.0/24");
    expect(typeof v4 === "string" ? v4 : v4.text).toBe("192.0.2.0/24");
    const v6 = parseCidr("2001:db8::/64");
    expect(typeof v6 === "string" ? v6 : v6.text).toBe("2001:db8::/64");
  });
  it("names host bits and bad prefixes", () => {
    expect(parseCidr("192.0.2.5/24")).toMatch(/192\.0\.2\.0\/24/);
    expect(parseCidr("192.0.2.0/33")).toMatch(/prefix/);
    expect(parseCidr("192.0.2.0")).toMatch(/address\/prefix/);
    expect(parseCidr("010.0.0.0/8")).toMatch(/not a subnet/);
    expect(parseCidr("2001:db8::/129")).toMatch(/0 to 128/);
  });
});

describe("contains", () => {
  it("holds its own addresses only", () => {
    expect(contains("192.0.2.0/24", "192.0.2.77")).toBe(true);
    expect(contains("192.0.2.0/24", "10.9.9.9")).toBe(false);
    expect(contains("192.0.2.0/24", "192.0.3.1")).toBe(false);
    expect(contains("192.0.2.0/24", "2001:db8::1")).toBe(false);
    expect(contains("2001:db8::/64", "2001:db8::abcd")).toBe(true);
    expect(contains("2001:db8::/64", "2001:db9::1")).toBe(false);
    expect(contains("0.0.0.0/0", "8.8.8.8")).toBe(true);
    expect(contains("not a subnet", "10.0.0.1")).toBe(false);
  });
});

describe("nextFree", () => {
  it("skips the network address, the gateway and used addresses", () => {
    expect(nextFree("192.0.2.0/24", [], "192.0.2.1")).toBe("192.0.2.2");
    expect(nextFree("192.0.2.0/24", ["192.0.2.2", "192.0.2.3", "10.0.0.4"], "192.0.2.1")).toBe("192.0.2.4");
  });
  it("never offers the broadcast address, and says when the subnet is full", () => {
    expect(nextFree("192.0.2.0/30", ["192.0.2.1"], null)).toBe("192.0.2.2");
    expect(nextFree("192.0.2.0/30", ["192.0.2.1", "192.0.2.2"], null)).toBeNull();
    expect(nextFree("192.0.2.8/31", ["192.0.2.8"])).toBe("192.0.2.9");
  });
  it("works for IPv6 and refuses what is not a subnet", () => {
    expect(nextFree("2001:db8::/64", ["2001:db8::1"], "2001:db8::2")).toBe("2001:db8::3");
    expect(nextFree("192.0.2.1/24", [])).toBeNull();
  });
});

describe("parseIp / formatIp", () => {
  it("round-trips addresses", () => {
    for (const a of ["192.0.2.1", "2001:db8::1", "fe80::1:0:0:5", "::1", "::"]) {
      const ip = parseIp(a);
      expect(ip).not.toBeNull();
      expect(formatIp(ip!.version, ip!.value)).toBe(a);
    }
    for (const bad of ["256.1.1.1", "1.2.3", "1::2::3", "x"]) expect(parseIp(bad)).toBeNull();
  });
});
