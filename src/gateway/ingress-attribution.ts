import type { IncomingHttpHeaders } from "node:http";
import net from "node:net";
import { normalizeIp, parseIpRange } from "../infra/ip-address.js";
import { isLoopbackAddress } from "./auth/rate-limiter.js";

/** What a refused proxied request is told, as OpenClaw says it. */
export const PROXY_ATTRIBUTION_REQUIRED = "proxy_attribution_required";
export const PROXY_ATTRIBUTION_MESSAGE =
  "Proxy client attribution is required. Configure gateway.trustedProxies narrowly and make the proxy overwrite or safely rebuild forwarded client headers.";

export interface ProxySettings {
  /** `gateway.trustedProxies`: addresses or CIDR ranges of the reverse proxies whose forwarding headers are believed. */
  trustedProxies: readonly string[];
  /** `gateway.allowRealIpFallback`: without `X-Forwarded-For`, a trusted proxy's `X-Real-IP` names the client. */
  allowRealIpFallback: boolean;
}

/**
 * Who a request comes from. `direct-local`: this host, with no forwarding headers (the loopback
 * exemption of the auth limiter, health details). `direct-remote`: another host, connected
 * directly. `trusted-proxy`: a configured proxy named the client. `unattributable-proxy`: the
 * request carries forwarding headers no configured proxy vouches for, or a trusted proxy named no
 * client beyond this host; routes behind the gateway's auth refuse it, since a proxy on this host
 * would otherwise make every client on the internet look local.
 */
export type Ingress = { kind: "direct-local" | "direct-remote" | "trusted-proxy"; clientIp: string } | { kind: "unattributable-proxy"; remoteAddress: string };

const NO_PROXIES: readonly string[] = Object.freeze([]);

/** The proxy settings of a config (`gateway.trustedProxies`, `gateway.allowRealIpFallback`). */
export function proxySettingsOf(config: { gateway?: { trustedProxies?: string[]; allowRealIpFallback?: boolean } }): ProxySettings {
  return { trustedProxies: config.gateway?.trustedProxies ?? NO_PROXIES, allowRealIpFallback: config.gateway?.allowRealIpFallback === true };
}

/** The refusal of an unattributable proxied request, as an HTTP status and an OpenAI-shaped body. */
export const PROXY_ATTRIBUTION_REFUSAL = { status: 403, body: { error: { message: PROXY_ATTRIBUTION_MESSAGE, type: PROXY_ATTRIBUTION_REQUIRED } } } as const;

/** Attributes a request to its client, as OpenClaw's gateway does (`gateway.trustedProxies`, `allowRealIpFallback`). */
export function attributeIngress(socketAddress: string | undefined, headers: IncomingHttpHeaders, settings: ProxySettings): Ingress {
  const remoteAddress = normalizeIp(socketAddress) ?? socketAddress ?? "unknown";
  const forwarded = hasForwardingHeaders(headers);
  if (isLoopbackAddress(remoteAddress) && !forwarded) return { kind: "direct-local", clientIp: remoteAddress };
  const trusted = trustedList(settings.trustedProxies);
  if (isTrusted(remoteAddress, trusted)) {
    const clientIp = forwardedClient(first(headers["x-forwarded-for"]), trusted) ?? (settings.allowRealIpFallback ? normalizeIp(first(headers["x-real-ip"])?.trim()) : undefined);
    if (!clientIp || isLoopbackAddress(clientIp)) return { kind: "unattributable-proxy", remoteAddress };
    return { kind: "trusted-proxy", clientIp };
  }
  if (forwarded) return { kind: "unattributable-proxy", remoteAddress };
  return { kind: "direct-remote", clientIp: remoteAddress };
}

/** Whether a socket address is one of `gateway.trustedProxies`. */
export function isTrustedProxyAddress(socketAddress: string | undefined, settings: ProxySettings): boolean {
  const address = normalizeIp(socketAddress);
  return address !== undefined && isTrusted(address, trustedList(settings.trustedProxies));
}

function hasForwardingHeaders(headers: IncomingHttpHeaders): boolean {
  return Object.keys(headers).some((name) => name === "forwarded" || name === "x-real-ip" || name.startsWith("x-forwarded-"));
}

/** The client a trusted chain names: the last hop from the right that is neither this host nor a trusted proxy. */
function forwardedClient(header: string | undefined, trusted: net.BlockList): string | undefined {
  const hops = (header ?? "")
    .split(",")
    .map((hop) => normalizeIp(hop.trim()))
    .filter((hop): hop is string => hop !== undefined);
  for (let i = hops.length - 1; i >= 0; i -= 1) {
    const hop = hops[i]!;
    if (isLoopbackAddress(hop)) continue;
    if (!isTrusted(hop, trusted)) return hop;
  }
  return undefined;
}

const lists = new WeakMap<readonly string[], net.BlockList>();

function trustedList(entries: readonly string[]): net.BlockList {
  let list = lists.get(entries);
  if (list) return list;
  list = new net.BlockList();
  for (const entry of entries) {
    const parsed = parseIpRange(entry);
    if (!parsed) continue;
    if (parsed.prefix === undefined) list.addAddress(parsed.address, parsed.family);
    else list.addSubnet(parsed.address, parsed.prefix, parsed.family);
  }
  lists.set(entries, list);
  return list;
}

function isTrusted(ip: string, list: net.BlockList): boolean {
  const family = net.isIP(ip);
  return family !== 0 && list.check(ip, family === 6 ? "ipv6" : "ipv4");
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
