import { describe, expect, it } from "vitest";
import { parseIpRange } from "../../../src/infra/ip-address.js";

describe("parseIpRange", () => {
  it("reads addresses and CIDR ranges of both families, and refuses anything else", () => {
    expect(parseIpRange("10.0.0.0/8")).toEqual({ address: "10.0.0.0", family: "ipv4", prefix: 8 });
    expect(parseIpRange("::1")).toEqual({ address: "::1", family: "ipv6" });
    expect(parseIpRange("fd00::/8")).toEqual({ address: "fd00::", family: "ipv6", prefix: 8 });
    for (const bad of ["10.0.0.0/33", "10.0.0.0/x", "proxy.local", "10.0.0.0/8/1", "::/129"]) expect(parseIpRange(bad)).toBeUndefined();
  });
  it("reads an IPv4-mapped range as the IPv4 range it maps, counting the 96 mapped bits", () => {
    expect(parseIpRange("::ffff:10.0.0.0/104")).toEqual({ address: "10.0.0.0", family: "ipv4", prefix: 8 });
    expect(parseIpRange("::ffff:0:0/96")).toEqual({ address: "0.0.0.0", family: "ipv4", prefix: 0 });
    expect(parseIpRange("[::FFFF:0a00:0001]/128")).toEqual({ address: "10.0.0.1", family: "ipv4", prefix: 32 });
    expect(parseIpRange("::ffff:10.0.0.0/95")).toBeUndefined();
    expect(parseIpRange("::ffff:10.0.0.1")).toEqual({ address: "10.0.0.1", family: "ipv4" });
  });
});
