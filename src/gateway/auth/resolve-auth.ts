import type { OpenClawConfig } from "../../config/index.js";
import { ensurePersistedToken, readPersistedToken } from "./gateway-token.js";

export type AuthMode = "none" | "token" | "password" | "trusted-proxy";

/** `gateway.auth.trustedProxy` with its defaults filled. */
export interface TrustedProxyPolicy {
  userHeader: string;
  requiredHeaders: readonly string[];
  allowUsers: readonly string[];
  allowLoopback: boolean;
  /** `gateway.auth.identityScopes`: operator scopes granted to a verified user for its connection. */
  identityScopes: Readonly<Record<string, readonly string[]>>;
}

export interface ResolvedAuth {
  mode: AuthMode;
  token?: string;
  /** In `trusted-proxy` mode: what same-host clients that bypass the proxy may present instead (optional). */
  password?: string;
  /** Set in `trusted-proxy` mode. */
  trustedProxy?: TrustedProxyPolicy;
  /** Set when this start generated the token: the caller prints it once with where it lives. */
  generatedTokenFile?: string;
}

export interface AuthOverrides {
  mode?: AuthMode;
  token?: string;
  password?: string;
}

/**
 * The server's credentials. Precedence: CLI flag → OPENCLAW_GATEWAY_TOKEN/PASSWORD → config →
 * the token persisted by an earlier start → a newly generated one (token mode only).
 */
export function resolveServerAuth(config: OpenClawConfig, stateDir: string, env: NodeJS.ProcessEnv, overrides: AuthOverrides = {}): ResolvedAuth {
  const { mode, token, password } = resolveServerSecrets(config, env, overrides);
  if (mode === "none") return { mode };
  if (mode === "trusted-proxy") {
    const refusal = trustedProxyRefusal(config, token);
    if (refusal) throw new Error(refusal);
    return { mode, trustedProxy: trustedProxyPolicy(config), ...(password ? { password } : {}) };
  }
  if (mode === "password") {
    if (!password) throw new Error(MISSING_PASSWORD);
    return { mode, password };
  }
  if (token) return { mode, token };
  const persisted = ensurePersistedToken(stateDir);
  return { mode, token: persisted.token, ...(persisted.generated ? { generatedTokenFile: persisted.file } : {}) };
}

const MISSING_PASSWORD = 'gateway.auth.mode is "password" but no password is set (gateway.auth.password or OPENCLAW_GATEWAY_PASSWORD)';

/** Why a gateway started with this config and env could not set up its auth (none when it could); reads and writes no file. */
export function serverAuthRefusal(config: OpenClawConfig, env: NodeJS.ProcessEnv, overrides: AuthOverrides = {}): string | undefined {
  const { mode, token, password } = resolveServerSecrets(config, env, overrides);
  if (mode === "trusted-proxy") return trustedProxyRefusal(config, token);
  return mode === "password" && !password ? MISSING_PASSWORD : undefined;
}

// A shared token beside trusted-proxy auth would be a second way in that skips the proxy's
// authentication; the config rules refuse one in the file, this catches the flag and the env.
function trustedProxyRefusal(config: OpenClawConfig, token: string | undefined): string | undefined {
  if (!config.gateway?.auth?.trustedProxy) return "gateway auth mode is trusted-proxy, but gateway.auth.trustedProxy is not set (set at least its userHeader)";
  if (token) {
    return "gateway auth mode is trusted-proxy, but a shared token is also configured; remove gateway.auth.token / OPENCLAW_GATEWAY_TOKEN / --token (trusted-proxy and token auth are mutually exclusive; same-host clients use gateway.auth.password)";
  }
  return undefined;
}

/** `gateway.auth.trustedProxy` and `identityScopes` of a config whose mode is `trusted-proxy`, normalized. */
export function trustedProxyPolicy(config: OpenClawConfig): TrustedProxyPolicy {
  const auth = config.gateway!.auth!;
  const proxy = auth.trustedProxy!;
  return {
    userHeader: proxy.userHeader.trim().toLowerCase(),
    requiredHeaders: (proxy.requiredHeaders ?? []).map((name) => name.trim().toLowerCase()).filter((name) => name !== ""),
    allowUsers: (proxy.allowUsers ?? []).map((user) => user.trim()).filter((user) => user !== ""),
    allowLoopback: proxy.allowLoopback === true,
    identityScopes: auth.identityScopes ?? {},
  };
}

/** The auth mode a gateway started with this config and env runs in; reads and writes no file. */
export function resolveServerAuthMode(config: OpenClawConfig, env: NodeJS.ProcessEnv, overrides: AuthOverrides = {}): AuthMode {
  return resolveServerSecrets(config, env, overrides).mode;
}

function resolveServerSecrets(config: OpenClawConfig, env: NodeJS.ProcessEnv, overrides: AuthOverrides) {
  const auth = config.gateway?.auth ?? {};
  const token = nonEmpty(overrides.token) ?? nonEmpty(env.OPENCLAW_GATEWAY_TOKEN) ?? nonEmpty(auth.token);
  const password = nonEmpty(overrides.password) ?? nonEmpty(env.OPENCLAW_GATEWAY_PASSWORD) ?? nonEmpty(auth.password);
  // The config layer defaults mode to "token" (or "password" when the file holds only a
  // password); a password given only by flag or env, with no token anywhere, means password mode too.
  const configured = (auth.mode as AuthMode | undefined) ?? "token";
  const mode: AuthMode = overrides.mode ?? (configured === "token" && !token && password ? "password" : configured);
  return { mode, token, password };
}

/**
 * The credentials a local client (CLI) presents: flag → env → gateway.remote.* → gateway.auth.*
 * → the persisted token.
 */
export function resolveClientCredentials(
  config: OpenClawConfig,
  stateDir: string,
  env: NodeJS.ProcessEnv,
  flags: { token?: string; password?: string } = {},
): { token?: string; password?: string } {
  const token =
    nonEmpty(flags.token) ??
    nonEmpty(env.OPENCLAW_GATEWAY_TOKEN) ??
    nonEmpty(config.gateway?.remote?.token) ??
    nonEmpty(config.gateway?.auth?.token) ??
    readPersistedToken(stateDir);
  const password = nonEmpty(flags.password) ?? nonEmpty(env.OPENCLAW_GATEWAY_PASSWORD) ?? nonEmpty(config.gateway?.remote?.password) ?? nonEmpty(config.gateway?.auth?.password);
  return { ...(token ? { token } : {}), ...(password ? { password } : {}) };
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}
