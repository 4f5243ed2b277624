import type { OpenClawConfig } from "../../config/index.js";
import { apiKeyEnvVar, BUILTIN_PROVIDERS } from "../builtin-providers.js";
import { configuredApiKey, unsetApiKeyVariable } from "../configured-api-key.js";
import { ollamaKeyOptional } from "../ollama-auth.js";
import type { AuthProfileStore } from "./auth-profile-store.js";
import { blockedUntil } from "./cooldowns.js";
import type { AuthProfile } from "./profile-sources.js";

/** One key or token of a provider: where it comes from and whether failover rests it. Never the secret. */
export interface AuthStatusProfile {
  profileId: string;
  type: "api_key" | "token";
  /** Keys and tokens carry no expiry here: always `static`. */
  status: "static";
  /** `saved`: auth-profiles.json; `config`: `models.providers.<p>.apiKey`; `env`: an environment variable. */
  source: "saved" | "config" | "env";
  /** `cooldown` after failures (until `cooldownUntil`), `disabled` after a billing failure. */
  state: "ready" | "cooldown" | "disabled";
  cooldownUntil?: number;
  reason?: string;
  /** A rate limit rests the key for this model only. */
  model?: string;
  errorCount?: number;
}

export interface AuthStatusProvider {
  provider: string;
  authProvider: string;
  displayName: string;
  /** `static`: a key or token to use; `missing`: none (or the order names none of them). */
  status: "static" | "missing";
  profiles: AuthStatusProfile[];
  /** The operator's order (`auth.order.<p>`, else the file's); profiles it leaves out are not used. */
  profileOrder?: string[];
  /** The provider's own key: from the config, else from `<P>_API_KEY`. */
  apiKey?: { source: "config" } | { source: "env"; envVar: string };
  /** An Ollama server on this machine or the LAN: requests need no key. */
  keyOptional?: true;
  /** Why a key that looks configured is not used, and the fix. */
  problem?: string;
}

export interface AuthStatus {
  ts: number;
  agentId: string;
  providers: AuthStatusProvider[];
}

const SOURCE_NAMES: Record<AuthProfile["source"], AuthStatusProfile["source"]> = { file: "saved", config: "config", env: "env" };

/**
 * Each provider this agent could use: those in `models.providers`, in its auth profiles or
 * `auth.order`, the built-in ones that have a key, and `alsoProviders` (the agent's model chain).
 */
export function modelsAuthStatus(input: {
  config: OpenClawConfig;
  env: NodeJS.ProcessEnv;
  agentId: string;
  store: AuthProfileStore;
  alsoProviders?: readonly string[];
  now?: number;
}): AuthStatus {
  const { config, env, store } = input;
  const now = input.now ?? Date.now();
  const names = new Set([...Object.keys(config.models?.providers ?? {}), ...Object.keys(config.auth?.order ?? {}), ...store.fileProviders(), ...(input.alsoProviders ?? [])]);
  for (const builtin of Object.keys(BUILTIN_PROVIDERS)) if (store.ordered(builtin, config, env).length > 0) names.add(builtin);
  const providers = [...names].sort().map((provider) => providerStatus(provider, config, env, store, now));
  return { ts: now, agentId: input.agentId, providers };
}

function providerStatus(provider: string, config: OpenClawConfig, env: NodeJS.ProcessEnv, store: AuthProfileStore, now: number): AuthStatusProvider {
  const usable = store.ordered(provider, config, env);
  const order = store.explicitOrder(provider, config);
  const envVar = apiKeyEnvVar(provider);
  const problem = store.orderExcludesAll(provider, config, env) ?? unsetApiKeyVariable(config, provider);
  return {
    provider,
    authProvider: provider,
    displayName: provider,
    status: usable.length > 0 ? "static" : "missing",
    profiles: usable.map((profile) => profileStatus(profile, store, now)),
    ...(order ? { profileOrder: order } : {}),
    ...(configuredApiKey(config, provider) ? { apiKey: { source: "config" as const } } : env[envVar]?.trim() ? { apiKey: { source: "env" as const, envVar } } : {}),
    ...(keyOptional(provider, config) ? { keyOptional: true as const } : {}),
    ...(problem ? { problem } : {}),
  };
}

function profileStatus(profile: AuthProfile, store: AuthProfileStore, now: number): AuthStatusProfile {
  const usage = store.usage(profile.id);
  // A rate limit rests the key for one model: asking for that model shows it.
  const block = blockedUntil(usage, usage?.cooldownModel ?? "", now);
  const disabled = block !== undefined && usage?.disabledUntil !== undefined && usage.disabledUntil > now;
  return {
    profileId: profile.id,
    type: profile.type,
    status: "static",
    source: SOURCE_NAMES[profile.source],
    state: block ? (disabled ? "disabled" : "cooldown") : "ready",
    ...(block ? { cooldownUntil: block.until, reason: block.reason } : {}),
    ...(block && !disabled && usage?.cooldownModel ? { model: usage.cooldownModel } : {}),
    ...(usage?.errorCount ? { errorCount: usage.errorCount } : {}),
  };
}

function keyOptional(provider: string, config: OpenClawConfig): boolean {
  const configured = config.models?.providers?.[provider];
  const builtin = BUILTIN_PROVIDERS[provider];
  const api = configured?.api ?? builtin?.api;
  const baseUrl = configured?.baseUrl ?? builtin?.baseUrl;
  return api === "ollama" && baseUrl !== undefined && ollamaKeyOptional(baseUrl);
}
