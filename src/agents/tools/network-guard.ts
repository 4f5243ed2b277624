import dns from "node:dns";
import net from "node:net";
import os from "node:os";

/**
 * Addresses web_fetch must not reach unless private access is allowed: a model steered by a web
 * page could otherwise read the gateway's own admin endpoints, cloud metadata (169.254.169.254)
 * or anything else on the local network.
 */
const blocked = new net.BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved and broadcast
] as const) {
  blocked.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128],
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // old site-local
  ["ff00::", 8], // multicast
] as const) {
  blocked.addSubnet(network, prefix, "ipv6");
}

/**
 * An address web_fetch refuses: private, loopback or link-local, or one of this host's own
 * addresses (a public address of the gateway's machine reaches services bound to 0.0.0.0 as
 * surely as 127.0.0.1 does). The interfaces are read on every check: addresses come and go.
 */
export function isBlockedAddress(address: string, interfaces: NodeJS.Dict<os.NetworkInterfaceInfo[]> = os.networkInterfaces()): boolean {
  if (isPrivateAddress(address)) return true;
  const bare = address
    .replace(/^\[|\]$/g, "")
    .replace(/%.*$/, "")
    .toLowerCase();
  const embedded = EMBEDDED_IPV4.exec(normalizeIpv6(bare))?.[1];
  for (const list of Object.values(interfaces)) {
    for (const info of list ?? []) {
      const own = info.address.replace(/%.*$/, "").toLowerCase();
      if (own === bare || own === embedded) return true;
    }
  }
  return false;
}

/** IPv6 forms that carry an IPv4 address: mapped (::ffff:a.b.c.d), NAT64 (64:ff9b::/96), compatible (::a.b.c.d). */
const EMBEDDED_IPV4 = /^(?:::ffff:|64:ff9b::|::)((?:\d{1,3}\.){3}\d{1,3})$/i;

export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const family = net.isIP(bare);
  if (family === 4) return blocked.check(bare, "ipv4");
  if (family !== 6) return false;
  const normalized = normalizeIpv6(bare);
  const embedded = EMBEDDED_IPV4.exec(normalized);
  if (embedded?.[1]) return blocked.check(embedded[1], "ipv4");
  return blocked.check(bare, "ipv6");
}

/** Rewrites hex-written IPv4 tails (::ffff:7f00:1) in dotted form so one pattern covers both. */
function normalizeIpv6(address: string): string {
  const hexTail = /^(::ffff:|64:ff9b::|::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hexTail) return address;
  const high = Number.parseInt(hexTail[2] ?? "0", 16);
  const low = Number.parseInt(hexTail[3] ?? "0", 16);
  return `${hexTail[1]}${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/**
 * A `lookup` for http.request that refuses blocked addresses (isBlockedAddress) at connect time. Checking here,
 * rather than resolving once beforehand, means a DNS answer that changes between the check and
 * the connection (DNS rebinding) is still caught.
 */
export function guardedLookup(
  hostname: string,
  options: dns.LookupOptions,
  callback: (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void,
): void {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, "");
    const list = addresses as dns.LookupAddress[];
    const refused = list.find((entry) => isBlockedAddress(entry.address));
    if (refused) {
      return callback(new PrivateAddressError(hostname, refused.address), "");
    }
    if (options.all) return callback(null, list);
    const first = list[0];
    if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }), "");
    return callback(null, first.address, first.family);
  });
}

export class PrivateAddressError extends Error {
  readonly code = "EPRIVATEADDRESS";
  constructor(
    readonly hostname: string,
    readonly address: string,
  ) {
    super(`${hostname} resolves to ${address}, a private, loopback or link-local address or one of this host's own`);
  }
}
