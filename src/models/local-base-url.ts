/**
 * Whether a provider's base URL points at this machine or the local network's mDNS names
 * (localhost, 127.x, 0.0.0.0, ::1, *.local): `models.list` reports it as `local`, as OpenClaw does.
 */
export function isLocalBaseUrl(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase().replace(/^\[|\]$/g, "");
  } catch {
    return false;
  }
  return host === "localhost" || /^127(\.\d{1,3}){3}$/.test(host) || host === "0.0.0.0" || host === "::" || host === "::1" || host.endsWith(".local");
}
