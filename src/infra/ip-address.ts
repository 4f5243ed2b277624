import net from "node:net";

/** An address or CIDR range (`10.0.0.0/8`, `::1`), parsed. */
export interface IpRange {
  address: string;
  family: "ipv4" | "ipv6";
  /** Absent: the one address. */
  prefix?: number;
}

/**
 * `entry` as an address or CIDR range; undefined when it is neither. An IPv4-mapped range
 * (`::ffff:10.0.0.0/104`, `::ffff:0:0/96`) is the IPv4 range it maps: its prefix counts the 96
 * mapped bits, so it matches IPv4 peers however they are written, and never a native IPv6 peer.
 */
export function parseIpRange(entry: string): IpRange | undefined {
  const [raw, prefixText, extra] = entry.trim().split("/");
  if (extra !== undefined || (prefixText !== undefined && !/^\d+$/.test(prefixText))) return undefined;
  const prefix = prefixText === undefined ? undefined : Number(prefixText);
  const mapped = raw === undefined ? undefined : mappedIpv4(raw);
  if (mapped && prefix !== undefined) return prefix >= 96 && prefix <= 128 ? { address: mapped, family: "ipv4", prefix: prefix - 96 } : undefined;
  const address = normalizeIp(raw);
  if (!address) return undefined;
  const family = net.isIP(address) === 6 ? "ipv6" : "ipv4";
  if (prefix === undefined) return { address, family };
  return prefix <= (family === "ipv6" ? 128 : 32) ? { address, family, prefix } : undefined;
}

/** The IPv4 address an IPv4-mapped IPv6 literal (`::ffff:a.b.c.d` or `::ffff:xxxx:yyyy`) carries; undefined for any other. */
function mappedIpv4(literal: string): string | undefined {
  const ip = (literal.startsWith("[") && literal.endsWith("]") ? literal.slice(1, -1) : literal).toLowerCase();
  if (net.isIPv6(ip) === false) return undefined;
  const groups = ipv6Groups(ip);
  if (!groups || groups.slice(0, 5).some((g) => g !== 0) || groups[5] !== 0xffff) return undefined;
  return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join(".");
}

/** The eight 16-bit groups of a valid IPv6 literal, a dotted IPv4 tail included. */
function ipv6Groups(ip: string): number[] | undefined {
  let text = ip;
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (tail) {
    const [a, b, c, d] = tail.split(".").map(Number) as [number, number, number, number];
    text = `${text.slice(0, -tail.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split("::") as [string, string | undefined];
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((group) => Number.parseInt(group, 16)));
  const left = parse(head);
  const right = rest === undefined ? [] : parse(rest);
  const groups = rest === undefined ? left : [...left, ...new Array(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 ? groups : undefined;
}

/** An IP literal as compared: IPv4-mapped IPv6 as plain IPv4, brackets and a zone dropped, lower case; undefined when it is none. */
export function normalizeIp(value: string | undefined): string | undefined {
  if (!value) return undefined;
  let ip = value.startsWith("[") && value.endsWith("]") ? value.slice(1, -1) : value;
  ip = ip.split("%")[0]!;
  if (ip.toLowerCase().startsWith("::ffff:") && net.isIPv4(ip.slice(7))) ip = ip.slice(7);
  return net.isIP(ip) ? ip.toLowerCase() : undefined;
}
