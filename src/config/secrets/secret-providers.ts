import type { ConfigIssue } from "../errors.js";
import { formatKeyPath } from "../key-path.js";
import { SECRET_PROVIDER_ALIAS } from "../schema/secrets.js";
import type { SecretProviderSettings, SecretsSettings } from "../../infra/secrets/secret-provider.js";

/** The keys each source reads; any other key on a provider of that source is an error. */
const SOURCE_KEYS: Record<SecretProviderSettings["source"], ReadonlySet<string>> = {
  env: new Set(["source", "allowlist"]),
  file: new Set(["source", "path", "mode", "maxBytes"]),
  exec: new Set(["source", "command", "args", "env", "passEnv", "timeoutMs", "maxOutputBytes", "jsonOnly", "trustedDirs"]),
};

/** What is wrong with `secrets.providers` beyond its shape: aliases, keys of another source, required keys. */
export function secretProviderIssues(secrets: SecretsSettings | undefined): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const [alias, provider] of Object.entries(secrets?.providers ?? {})) {
    const at = (key?: string) => formatKeyPath(key ? ["secrets", "providers", alias, key] : ["secrets", "providers", alias]);
    if (!SECRET_PROVIDER_ALIAS.test(alias)) issues.push({ path: at(), message: "a provider alias is a-z, 0-9, _ or -, starting with a letter" });
    for (const key of Object.keys(provider)) {
      if (!SOURCE_KEYS[provider.source].has(key)) issues.push({ path: at(key), message: `${provider.source} providers do not take ${key}` });
    }
    if (provider.source === "file" && provider.path === undefined) issues.push({ path: at("path"), message: "required: the file the secrets are read from" });
    if (provider.source === "exec") {
      if (provider.command === undefined) issues.push({ path: at("command"), message: "required: the resolver's absolute path" });
      else if (!provider.command.startsWith("/"))
        issues.push({ path: at("command"), message: `expected an absolute path (run \`realpath "$(command -v ${provider.command})"\` for it)` });
    }
  }
  return issues;
}
