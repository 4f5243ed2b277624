import { isIP } from "node:net";

/**
 * Whether a provider's base URL points at this machine or the local network's mDNS names
 * (localhost, 127.x, 0.0.0.0, ::1, *.local): `models.list` reports it as `local`, as OpenClaw does.
 */
export function isLocalBaseUrl(baseUrl: string): boolean {
  const host = hostOf(baseUrl);
  if (host === undefined) return false;
  return host === "localhost" || /^127(\.\d{1,3}){3}$/.test(host) || host === "0.0.0.0" || host === "::" || host === "::1" || host.endsWith(".local");
}

/**
 * The user's own server: `localhost` or a `.localhost` / `.local` name, a host name without a dot
 * (a LAN machine), 0.0.0.0, or a loopback, private, link-local or carrier-grade NAT (tailnet)
 * address. Such a server gets the longer stalled-stream deadlines, and an Ollama there is asked
 * without a key.
 */
export function isSelfHosted(baseUrl: string | undefined): boolean {
  if (!baseUrl) return false;
  let known = selfHosted.get(baseUrl);
  if (known === undefined) {
    if (selfHosted.size >= 256) selfHosted.clear();
    selfHosted.set(baseUrl, (known = hostIsSelfHosted(baseUrl)));
  }
  return known;
}

/** The answer per base URL: every model call asks it, and the few configured URLs never change it. */
const selfHosted = new Map<string, boolean>();

function hostIsSelfHosted(baseUrl: string): boolean {
  const host = hostOf(baseUrl);
  if (host === undefined) return false;
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local") || host === "0.0.0.0") return true;
  const version = isIP(host);
  if (version === 4) {
    const [a, b] = host.split(".").map(Number) as [number, number];
    return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254) || (a === 100 && b >= 64 && b <= 127);
  }
  if (version === 6) return host === "::1" || /^f[cd]/.test(host) || /^fe[89ab]/.test(host);
  return !host.includes(".");
}

function hostOf(baseUrl: string): string | undefined {
  try {
    return new URL(baseUrl).hostname.toLowerCase().replace(/^\[|\]$/g, "");
  } catch {
    return undefined;
  }
}
