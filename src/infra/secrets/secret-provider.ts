/** One `secrets.providers` entry: where secrets of one source are read. The keys of other sources are absent. */
export interface SecretProviderSettings {
  source: "env" | "file" | "exec";
  allowlist?: string[];
  path?: string;
  mode?: "json" | "singleValue";
  maxBytes?: number;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  passEnv?: string[];
  timeoutMs?: number;
  maxOutputBytes?: number;
  jsonOnly?: boolean;
  trustedDirs?: string[];
}

/** The `secrets` block: the providers by alias, and each source's default alias. */
export interface SecretsSettings {
  providers?: Record<string, SecretProviderSettings>;
  defaults?: Partial<Record<SecretProviderSettings["source"], string>>;
}

export type ProviderChoice = { alias: string; provider: SecretProviderSettings } | { alias: string; problem: string };

/**
 * The provider a ref of `source` reads from: the alias it names, or its source's default alias
 * (`default` unless `secrets.defaults` says otherwise). An env ref at the default alias needs no
 * entry: it reads the environment. Every other ref needs a `secrets.providers` entry of its source.
 */
export function chooseSecretProvider(source: SecretProviderSettings["source"], named: string | undefined, secrets: SecretsSettings | undefined): ProviderChoice {
  const defaultAlias = secrets?.defaults?.[source] ?? "default";
  const alias = named ?? defaultAlias;
  const entry = secrets?.providers?.[alias];
  if (entry?.source === source) return { alias, provider: entry };
  if (source === "env" && alias === defaultAlias) return { alias, provider: { source: "env" } };
  if (entry) return { alias, problem: `secrets.providers.${alias} is a ${entry.source} provider, not ${source}` };
  return { alias, problem: `no ${source} provider "${alias}": add secrets.providers.${alias} with source: "${source}"` };
}
