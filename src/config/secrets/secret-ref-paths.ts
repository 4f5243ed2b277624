import type { KeyPathSegment } from "../key-path.js";

/**
 * The credential keys a SecretRef may stand in for: OpenClaw's SecretRef credential surface, as
 * far as this gateway has the keys. `*` is any one key (a provider, an account, a header name).
 * Anywhere else a SecretRef is refused: a ref where a model name or a path belongs is a mistake.
 */
export const SECRET_REF_PATHS: readonly string[] = [
  "gateway.auth.token",
  "gateway.auth.password",
  "gateway.remote.token",
  "gateway.remote.password",
  "models.providers.*.apiKey",
  "models.providers.*.headers.*",
  "channels.telegram.botToken",
  "channels.telegram.webhookSecret",
  "channels.telegram.accounts.*.botToken",
  "channels.telegram.accounts.*.webhookSecret",
  "channels.discord.token",
  "channels.discord.accounts.*.token",
  "channels.slack.botToken",
  "channels.slack.appToken",
  "channels.slack.signingSecret",
  "channels.slack.accounts.*.botToken",
  "channels.slack.accounts.*.appToken",
  "channels.slack.accounts.*.signingSecret",
  "memory.search.remote.apiKey",
  "plugins.entries.brave.config.webSearch.apiKey",
  "plugins.entries.perplexity.config.webSearch.apiKey",
  "plugins.entries.exa.config.webSearch.apiKey",
  "plugins.entries.google.config.webSearch.apiKey",
  "plugins.entries.tavily.config.webSearch.apiKey",
  "plugins.entries.xai.config.webSearch.apiKey",
  "cron.webhookToken",
  "skills.entries.*.apiKey",
  "tts.providers.*.apiKey",
];

const PATTERNS = SECRET_REF_PATHS.map((pattern) => pattern.split("."));

/** Whether a SecretRef may stand at this key path. */
export function acceptsSecretRef(path: readonly KeyPathSegment[]): boolean {
  return PATTERNS.some((pattern) => pattern.length === path.length && pattern.every((part, index) => part === "*" || part === path[index]));
}
