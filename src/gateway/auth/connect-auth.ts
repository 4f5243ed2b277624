import type { ResolvedAuth } from "./resolve-auth.js";
import { secretsEqual } from "./secret-compare.js";
import { proxyIdentityDetailCode, proxyIdentityRefusal, type ProxyIdentity } from "./trusted-proxy.js";

export type CredentialCheck = { ok: true } | { ok: false; message: string; detailsCode: string; countsAsFailure: boolean; authReason?: string };

/**
 * Check the shared secret a connecting client presents. Messages keep OpenClaw's
 * `unauthorized: …` texts, which clients and users grep for; they never echo the secret.
 */
export function checkSharedSecret(
  auth: ResolvedAuth,
  provided: { token?: string; password?: string } | undefined,
  proxy?: { identity: ProxyIdentity; localDirect: boolean },
): CredentialCheck {
  if (auth.mode === "none") return { ok: true };
  if (auth.mode === "trusted-proxy") return checkWithoutProxy(auth, provided, proxy);
  if (auth.mode === "token") {
    // Real OpenClaw also accepts the token sent in the password field (`--password <token>`).
    const token = provided?.token ?? provided?.password;
    if (!token) {
      return { ok: false, message: "unauthorized: gateway token missing (pass --token or set gateway.remote.token)", detailsCode: "AUTH_TOKEN_MISSING", countsAsFailure: false };
    }
    if (!auth.token || !secretsEqual(token, auth.token)) {
      return {
        ok: false,
        message: "unauthorized: gateway token mismatch (use this gateway's gateway.auth.token or pair the device)",
        detailsCode: "AUTH_TOKEN_MISMATCH",
        countsAsFailure: true,
      };
    }
    return { ok: true };
  }
  const password = provided?.password;
  if (!password) {
    return {
      ok: false,
      message: "unauthorized: gateway password missing (pass --password or set gateway.remote.password)",
      detailsCode: "AUTH_PASSWORD_MISSING",
      countsAsFailure: false,
    };
  }
  if (!auth.password || !secretsEqual(password, auth.password)) {
    return { ok: false, message: "unauthorized: gateway password mismatch", detailsCode: "AUTH_PASSWORD_MISMATCH", countsAsFailure: true };
  }
  return { ok: true };
}

/**
 * `trusted-proxy` mode, for a request the proxy did not vouch for: only a same-host client with no
 * forwarding headers may present `gateway.auth.password` instead. A token is never taken.
 */
function checkWithoutProxy(auth: ResolvedAuth, provided: { password?: string } | undefined, proxy: { identity: ProxyIdentity; localDirect: boolean } | undefined): CredentialCheck {
  const password = provided?.password;
  if (proxy?.localDirect && auth.password && password) {
    if (secretsEqual(password, auth.password)) return { ok: true };
    return { ok: false, message: "unauthorized: gateway password mismatch", detailsCode: "AUTH_PASSWORD_MISMATCH", countsAsFailure: true };
  }
  const reason = proxy && "reason" in proxy.identity ? proxy.identity.reason : "trusted_proxy_untrusted_source";
  return {
    ok: false,
    message: proxyIdentityRefusal(reason, auth.trustedProxy!, proxy?.localDirect),
    detailsCode: proxyIdentityDetailCode(reason),
    countsAsFailure: false,
    authReason: reason,
  };
}
