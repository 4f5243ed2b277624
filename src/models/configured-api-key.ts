import { isEnvReference, type OpenClawConfig } from "../config/index.js";

/**
 * A configured key, trimmed, unless it is empty or still a `${NAME}` reference: the variable was
 * not set when the config loaded (a warning said so), and that text is no key to send.
 */
export function usableApiKey(value: string | undefined): string | undefined {
  const key = value?.trim();
  return key && !isEnvReference(key) ? key : undefined;
}

/** `models.providers.<p>.apiKey`, when usableApiKey. */
export function configuredApiKey(config: OpenClawConfig, provider: string): string | undefined {
  return usableApiKey(config.models?.providers?.[provider]?.apiKey);
}

/** Why `models.providers.<p>.apiKey` gave no key: it names a variable not set in the gateway's environment. */
export function unsetApiKeyVariable(config: OpenClawConfig, provider: string): string | undefined {
  const value = config.models?.providers?.[provider]?.apiKey?.trim();
  if (!value || !isEnvReference(value)) return undefined;
  const name = value.slice(2, -1);
  return `models.providers.${provider}.apiKey is "${value}", and ${name} is not set in the gateway's environment. Set it where the gateway runs (a service's environment too), or write the key itself in the config.`;
}
