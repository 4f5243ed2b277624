import type { SecretProviderSettings } from "./secret-provider.js";
import { secretValue, type SecretOutcome } from "./secret-value.js";

/** Env refs: the variable of that name (the process's, then `env.vars`), within the provider's `allowlist` when it has one. */
export function readEnvSecrets(provider: SecretProviderSettings, ids: readonly string[], env: NodeJS.ProcessEnv): Map<string, SecretOutcome> {
  return new Map(
    ids.map((id): [string, SecretOutcome] => {
      if (provider.allowlist && !provider.allowlist.includes(id)) return [id, { problem: `${id} is not on the provider's allowlist` }];
      const value = env[id];
      if (value === undefined) return [id, { problem: `environment variable ${id} is not set: export it, or set it in env.vars or the state dir's .env` }];
      return [id, secretValue(value)];
    }),
  );
}
