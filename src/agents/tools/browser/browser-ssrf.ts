import dns from "node:dns/promises";
import net from "node:net";
import { isBlockedAddress } from "../network-guard.js";

/** `browser.ssrfPolicy` as the browser applies it (OpenClaw's keys; the legacy allowPrivateNetwork folded in). */
export interface BrowserSsrfPolicy {
  allowPrivateNetwork: boolean;
  /** Lower-cased exact hostnames (or IP literals) allowed whatever they resolve to. */
  allowedHostnames: readonly string[];
  allowRfc2544BenchmarkRange: boolean;
  allowIpv6UniqueLocalRange: boolean;
}

export const STRICT_BROWSER_SSRF_POLICY: BrowserSsrfPolicy = {
  allowPrivateNetwork: false,
  allowedHostnames: [],
  allowRfc2544BenchmarkRange: false,
  allowIpv6UniqueLocalRange: false,
};

/** The policy `browser.ssrfPolicy` states: private networks stay refused unless a key opens them. */
export function browserSsrfPolicy(
  raw:
    | {
        dangerouslyAllowPrivateNetwork?: boolean;
        allowPrivateNetwork?: boolean;
        allowedHostnames?: readonly string[];
        allowRfc2544BenchmarkRange?: boolean;
        allowIpv6UniqueLocalRange?: boolean;
      }
    | undefined,
): BrowserSsrfPolicy {
  if (!raw) return STRICT_BROWSER_SSRF_POLICY;
  return {
    allowPrivateNetwork: raw.dangerouslyAllowPrivateNetwork === true || raw.allowPrivateNetwork === true,
    allowedHostnames: (raw.allowedHostnames ?? []).map((host) => bareHost(host)),
    allowRfc2544BenchmarkRange: raw.allowRfc2544BenchmarkRange === true,
    allowIpv6UniqueLocalRange: raw.allowIpv6UniqueLocalRange === true,
  };
}

/** What the policy says about one URL the browser would load. */
export type NavigationDecision =
  | { allowed: true; addresses?: readonly string[] }
  | { allowed: false; reason: "scheme"; scheme: string }
  | { allowed: false; reason: "invalid" }
  | { allowed: false; reason: "private"; address: string }
  | { allowed: false; reason: "dns"; host: string };

/** Resolves a hostname to every address it has (DNS and /etc/hosts, as Chromium would). */
export type HostResolver = (host: string) => Promise<string[]>;

export const systemResolver: HostResolver = async (host) => (await dns.lookup(host, { all: true })).map((entry) => entry.address);

function bareHost(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");
}

const rfc2544 = new net.BlockList();
rfc2544.addSubnet("198.18.0.0", 15, "ipv4");
const uniqueLocal = new net.BlockList();
uniqueLocal.addSubnet("fc00::", 7, "ipv6");

/** A blocked address the policy's narrow range switches let through. */
function allowedByRange(address: string, policy: BrowserSsrfPolicy): boolean {
  const family = net.isIP(address);
  if (family === 4 && policy.allowRfc2544BenchmarkRange) return rfc2544.check(address, "ipv4");
  if (family === 6 && policy.allowIpv6UniqueLocalRange) return uniqueLocal.check(address, "ipv6");
  return false;
}

/**
 * Whether the browser may load `url`: http(s) only (about:blank too, an empty page), and every
 * address its host resolves to public, unless the policy opens private networks, names the host
 * exactly, or opens the narrow range the address is in. Checked before every top-level and frame
 * navigation, redirects included (the route guard), so a page cannot send the browser inward.
 */
export async function decideNavigation(url: string, policy: BrowserSsrfPolicy, resolve: HostResolver = systemResolver): Promise<NavigationDecision> {
  if (url === "about:blank") return { allowed: true };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { allowed: false, reason: "invalid" };
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return { allowed: false, reason: "scheme", scheme: parsed.protocol.replace(/:$/, "") };
  if (policy.allowPrivateNetwork) return { allowed: true };
  const host = bareHost(parsed.hostname);
  if (policy.allowedHostnames.includes(host)) return { allowed: true };
  let addresses: string[];
  if (net.isIP(host)) addresses = [host];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      return { allowed: false, reason: "dns", host };
    }
    if (addresses.length === 0) return { allowed: false, reason: "dns", host };
  }
  const refused = addresses.find((address) => isBlockedAddress(address) && !allowedByRange(address, policy));
  // The addresses checked: a connection goes to one of these, never to a second DNS answer.
  return refused ? { allowed: false, reason: "private", address: refused } : { allowed: true, addresses };
}
