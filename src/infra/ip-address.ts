import net from "node:net";

/** An address or CIDR range (`10.0.0.0/8`, `::1`), parsed. */
export interface IpRange {
  address: string;
  family: "ipv4" | "ipv6";
  /** Absent: the one address. */
  prefix?: number;
}

/** `entry` as an address or CIDR range; undefined when it is neither. */
export function parseIpRange(entry: string): IpRange | undefined {
  const [raw, prefixText, extra] = entry.trim().split("/");
  if (extra !== undefined) return undefined;
  const address = normalizeIp(raw);
  if (!address) return undefined;
  const family = net.isIP(address) === 6 ? "ipv6" : "ipv4";
  if (prefixText === undefined) return { address, family };
  const prefix = Number(prefixText);
  return /^\d+$/.test(prefixText) && prefix <= (family === "ipv6" ? 128 : 32) ? { address, family, prefix } : undefined;
}

/** An IP literal as compared: IPv4-mapped IPv6 as plain IPv4, brackets and a zone dropped, lower case; undefined when it is none. */
export function normalizeIp(value: string | undefined): string | undefined {
  if (!value) return undefined;
  let ip = value.startsWith("[") && value.endsWith("]") ? value.slice(1, -1) : value;
  ip = ip.split("%")[0]!;
  if (ip.toLowerCase().startsWith("::ffff:") && net.isIPv4(ip.slice(7))) ip = ip.slice(7);
  return net.isIP(ip) ? ip.toLowerCase() : undefined;
}
