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
 * isLocalBaseUrl, or a host on a private network: a private or carrier-grade NAT (tailnet) IPv4
 * address, an IPv6 unique-local address, or a bare host name without a dot (a LAN machine's name).
 * Such a host is the user's own server, which needs no key to be called (Ollama's rule).
 */
export function isLocalOrLanBaseUrl(baseUrl: string): boolean {
  if (isLocalBaseUrl(baseUrl)) return true;
  const host = hostOf(baseUrl);
  if (host === undefined) return false;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}$/.exec(host);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
  }
  if (host.includes(":")) return /^f[cd][0-9a-f]{2}:/.test(host);
  return !host.includes(".");
}

function hostOf(baseUrl: string): string | undefined {
  try {
    return new URL(baseUrl).hostname.toLowerCase().replace(/^\[|\]$/g, "");
  } catch {
    return undefined;
  }
}
