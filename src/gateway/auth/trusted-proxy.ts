import type { IncomingHttpHeaders } from "node:http";
import os from "node:os";
import { normalizeIp } from "../../infra/ip-address.js";
import { isTrustedProxyAddress, type Ingress, type ProxySettings } from "../ingress-attribution.js";
import { isLoopbackAddress } from "./rate-limiter.js";
import type { TrustedProxyPolicy } from "./resolve-auth.js";

/** Why a request's proxy identity was not believed, in OpenClaw's reason codes. */
export type TrustedProxyReason =
  | "trusted_proxy_untrusted_source"
  | "trusted_proxy_loopback_source"
  | "trusted_proxy_local_interface_source"
  | "trusted_proxy_local_interface_check_failed"
  | `trusted_proxy_missing_header_${string}`
  | "trusted_proxy_user_missing"
  | "trusted_proxy_user_not_allowed"
  | "proxy_attribution_required";

export type ProxyIdentity = { user: string } | { reason: TrustedProxyReason };

/** The request a proxy identity is read from. */
export interface ProxiedRequest {
  socketAddress: string | undefined;
  headers: IncomingHttpHeaders;
  ingress: Ingress;
}

/**
 * The user an identity-aware proxy vouches for, checked in this order: the socket is one of
 * `gateway.trustedProxies`; a loopback socket only with `allowLoopback`; any other socket not one
 * of this host's own addresses (another process here could claim to be the proxy); every required
 * header present; the user header present; the user in `allowUsers` when that is set; and the
 * forwarded chain names a client beyond this host.
 */
export function readProxyIdentity(
  request: ProxiedRequest,
  policy: TrustedProxyPolicy,
  proxies: ProxySettings,
  localAddresses: () => ReadonlySet<string> | undefined = hostInterfaceAddresses,
): ProxyIdentity {
  const source = normalizeIp(request.socketAddress);
  if (!source || !isTrustedProxyAddress(source, proxies)) return { reason: "trusted_proxy_untrusted_source" };
  if (isLoopbackAddress(source)) {
    if (!policy.allowLoopback) return { reason: "trusted_proxy_loopback_source" };
  } else {
    const local = localAddresses();
    if (!local) return { reason: "trusted_proxy_local_interface_check_failed" };
    if (local.has(source)) return { reason: "trusted_proxy_local_interface_source" };
  }
  for (const name of policy.requiredHeaders) {
    if (!headerValue(request.headers, name)) return { reason: `trusted_proxy_missing_header_${name}` };
  }
  const user = headerValue(request.headers, policy.userHeader);
  if (!user) return { reason: "trusted_proxy_user_missing" };
  if (policy.allowUsers.length > 0 && !policy.allowUsers.includes(user)) return { reason: "trusted_proxy_user_not_allowed" };
  if (request.ingress.kind !== "trusted-proxy") return { reason: "proxy_attribution_required" };
  return { user };
}

/** What the client is told when its proxy identity was not believed: what failed and the fix. */
export function proxyIdentityRefusal(reason: TrustedProxyReason, policy: TrustedProxyPolicy, localDirect = false): string {
  const sameHost = "same-host clients that bypass the proxy use gateway.auth.password";
  if (localDirect) return `unauthorized: this connection comes from this host without the proxy's headers; ${sameHost} (${reason})`;
  if (reason.startsWith("trusted_proxy_missing_header_")) {
    return `unauthorized: the proxy did not send the required header ${reason.slice("trusted_proxy_missing_header_".length)} (gateway.auth.trustedProxy.requiredHeaders)`;
  }
  switch (reason) {
    case "trusted_proxy_untrusted_source":
      return `unauthorized: the connection did not come from a trusted proxy (gateway.trustedProxies); connect through the identity-aware proxy (${sameHost})`;
    case "trusted_proxy_loopback_source":
      return `unauthorized: trusted-proxy auth refuses loopback sources unless gateway.auth.trustedProxy.allowLoopback is true (${sameHost})`;
    case "trusted_proxy_local_interface_source":
      return "unauthorized: the connection came from one of this host's own addresses, not from the proxy; route the proxy through an address this host does not hold";
    case "trusted_proxy_local_interface_check_failed":
      return "unauthorized: this host's network addresses could not be read, so the proxy could not be told apart from a local process";
    case "trusted_proxy_user_missing":
      return `unauthorized: the proxy named no user in ${policy.userHeader} (gateway.auth.trustedProxy.userHeader); sign in at the proxy`;
    case "trusted_proxy_user_not_allowed":
      return "unauthorized: this user is not in gateway.auth.trustedProxy.allowUsers; sign in with a permitted account";
    default:
      return "unauthorized: proxy client attribution is required (configure gateway.trustedProxies narrowly and make the proxy overwrite or safely rebuild forwarded client headers)";
  }
}

/** The protocol's detail code for a refused proxy identity. */
export function proxyIdentityDetailCode(reason: TrustedProxyReason): string {
  return reason.startsWith("trusted_proxy_missing_header_") ? "AUTH_IDENTITY_HEADER_REQUIRED" : "AUTH_UNAUTHORIZED";
}

/** The scopes `gateway.auth.identityScopes` grants a verified user: an exact key, or an email key in any case. */
export function identityOperatorScopes(user: string, identityScopes: TrustedProxyPolicy["identityScopes"]): readonly string[] {
  const exact = identityScopes[user];
  if (exact !== undefined || !user.includes("@")) return exact ?? [];
  const lower = user.toLowerCase();
  return Object.entries(identityScopes).find(([key]) => key.includes("@") && key.toLowerCase() === lower)?.[1] ?? [];
}

/** `x-openclaw-scopes` from the proxy caps a connection's scopes; present but empty, it leaves none. */
export function capByProxyScopes(scopes: readonly string[], headers: IncomingHttpHeaders): string[] {
  const header = headers["x-openclaw-scopes"];
  const raw = Array.isArray(header) ? header[0] : header;
  if (raw === undefined) return [...scopes];
  const declared = new Set(
    raw
      .split(",")
      .map((scope) => scope.trim())
      .filter((scope) => scope !== ""),
  );
  return scopes.filter((scope) => declared.has(scope));
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  const trimmed = first?.trim();
  return trimmed ? trimmed : undefined;
}

/** How long a read of the host's addresses stands: every proxied request asks, and they rarely change. */
const INTERFACE_READ_TTL_MS = 1_000;
let interfaceRead: { at: number; addresses: ReadonlySet<string> | undefined } | undefined;

/** This host's own interface addresses (loopback aside), read at most once a second; undefined when they cannot be read. */
function hostInterfaceAddresses(): ReadonlySet<string> | undefined {
  const now = Date.now();
  if (!interfaceRead || now - interfaceRead.at >= INTERFACE_READ_TTL_MS) interfaceRead = { at: now, addresses: readInterfaceAddresses() };
  return interfaceRead.addresses;
}

function readInterfaceAddresses(): ReadonlySet<string> | undefined {
  try {
    const addresses = new Set<string>();
    for (const entries of Object.values(os.networkInterfaces())) {
      for (const entry of entries ?? []) {
        const ip = normalizeIp(entry.address);
        if (ip && !entry.internal) addresses.add(ip);
      }
    }
    return addresses;
  } catch {
    return undefined;
  }
}
