import net from "node:net";
import { normalizeIp } from "../ip-address.js";

/** Addresses a plaintext connection stays on this machine or a private network for: loopback, RFC 1918, link-local, CGNAT, IPv6 ULA and site-local. */
const PRIVATE_RANGES = new net.BlockList();
for (const [address, prefix] of [
  ["127.0.0.0", 8],
  ["10.0.0.0", 8],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
  ["169.254.0.0", 16],
  ["100.64.0.0", 10],
] as const)
  PRIVATE_RANGES.addSubnet(address, prefix, "ipv4");
for (const [address, prefix] of [
  ["::1", 128],
  ["fe80::", 10],
  ["fc00::", 7],
  ["fec0::", 10],
] as const)
  PRIVATE_RANGES.addSubnet(address, prefix, "ipv6");

/** The break-glass variable: plaintext to private DNS names as well (never to a public address). */
export const ALLOW_INSECURE_PRIVATE_WS = "OPENCLAW_ALLOW_INSECURE_PRIVATE_WS";

/**
 * Why a client must not open `url` (a gateway address): credentials and chats would cross a
 * network in plaintext. `wss://` is always fine, and so is `ws://` to localhost, a loopback or
 * private IP literal, a `.local` name or a Tailscale `.ts.net` name (Tailscale encrypts). With
 * `OPENCLAW_ALLOW_INSECURE_PRIVATE_WS=1` any other host name is allowed too, for private DNS;
 * a public IP literal never is. Undefined when the URL may be opened.
 */
export function plaintextWebSocketRefusal(url: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined; // not a URL: the connection attempt reports it
  }
  if (parsed.protocol !== "ws:" && parsed.protocol !== "http:") return undefined;
  const host = parsed.hostname.toLowerCase().replace(/\.+$/, "");
  const ip = normalizeIp(host);
  if (ip ? PRIVATE_RANGES.check(ip, net.isIPv6(ip) ? "ipv6" : "ipv4") : isPrivateName(host)) return undefined;
  if (!ip && env[ALLOW_INSECURE_PRIVATE_WS] === "1") return undefined;
  return (
    `refusing to connect to ${parsed.host} over plaintext ws://: the gateway credentials and your chats would cross the network unencrypted. ` +
    "Use wss:// (gateway.tls on that gateway, or a TLS proxy in front of it), or reach it through an SSH tunnel (ssh -N -L 18789:127.0.0.1:18789 user@host, then ws://127.0.0.1:18789) or Tailscale" +
    (ip ? "." : `; on a trusted private network, ${ALLOW_INSECURE_PRIVATE_WS}=1 allows a private DNS name.`)
  );
}

function isPrivateName(host: string): boolean {
  return host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local") || host.endsWith(".ts.net");
}
