import type { OpenClawConfig } from "../../config/index.js";
import { configuredApiKey } from "../configured-api-key.js";
import { apiKeyEnvVar } from "../builtin-providers.js";

/** One credential a provider's requests can carry. */
export interface AuthProfile {
  /** `provider:name`, e.g. `openai:default`, `openai:env-2`. */
  id: string;
  provider: string;
  /** `api_key` is sent as the provider's key header; `token` as `Authorization: Bearer`. */
  type: "api_key" | "token";
  secret: string;
  /** Where it was found: the profiles file, the provider's `apiKey` in the config, or the environment. */
  source: "file" | "config" | "env";
}

/** A profile as written in auth-profiles.json. */
export interface StoredProfile {
  type: "api_key" | "token";
  provider: string;
  key?: string;
  token?: string;
}

/**
 * Every key for `provider`, in source order: the profiles file, `models.providers.<p>.apiKey`,
 * then the environment: `<P>_API_KEY`, each key of `<P>_API_KEYS` (comma or semicolon separated),
 * and `<P>_API_KEY_1`, `<P>_API_KEY_2`, …. The same secret found twice is one profile.
 */
export function collectProfiles(provider: string, stored: Readonly<Record<string, StoredProfile>>, config: OpenClawConfig, env: NodeJS.ProcessEnv): AuthProfile[] {
  const out: AuthProfile[] = [];
  const seen = new Set<string>();
  const add = (id: string, type: AuthProfile["type"], secret: string | undefined, source: AuthProfile["source"]) => {
    const value = secret?.trim();
    if (!value || seen.has(value)) return;
    seen.add(value);
    out.push({ id, provider, type, secret: value, source });
  };
  for (const [id, profile] of Object.entries(stored)) {
    if (profile?.provider !== provider) continue;
    add(id, profile.type === "token" ? "token" : "api_key", profile.type === "token" ? profile.token : profile.key, "file");
  }
  add(`${provider}:config`, "api_key", configuredApiKey(config, provider), "config");
  const base = apiKeyEnvVar(provider);
  add(`${provider}:env`, "api_key", env[base], "env");
  const list = (env[`${base}S`] ?? "")
    .split(/[,;]/)
    .map((k) => k.trim())
    .filter(Boolean);
  list.forEach((key, i) => add(`${provider}:env-list-${i + 1}`, "api_key", key, "env"));
  const numberedName = new RegExp(`^${base}_(\\d+)$`);
  const numbered = Object.keys(env)
    .map((name) => ({ name, n: numberedName.exec(name)?.[1] }))
    .filter((e): e is { name: string; n: string } => e.n !== undefined)
    .sort((a, b) => Number(a.n) - Number(b.n));
  for (const { name, n } of numbered) add(`${provider}:env-${n}`, "api_key", env[name], "env");
  return out;
}

/** A secret as `status` shows it: enough to tell keys apart, never enough to use one. */
export function maskSecret(secret: string): string {
  if (secret.length <= 8) return "…";
  return `${secret.slice(0, 3)}…${secret.slice(-4)}`;
}
