import { perConfig, type OpenClawConfig } from "../config/index.js";
import type { WebFetchToolSetup } from "./tools/web-fetch.js";

/**
 * `tools.web.fetch` as web_fetch's options: `enabled: false` leaves the tool out of every tool
 * list (turns, `tools.*`, `/tools/invoke`, `openclaw tools`); an unset limit keeps the tool's
 * default. Only keys that are set appear, so the result is a stable cache key.
 */
export const webFetchOptionsFromConfig: (config: OpenClawConfig) => WebFetchToolSetup = perConfig(readSetup);

function readSetup(config: OpenClawConfig): WebFetchToolSetup {
  const fetch = config.tools?.web?.fetch ?? {};
  return {
    enabled: fetch.enabled !== false,
    options: {
      ...(fetch.maxChars !== undefined ? { maxChars: fetch.maxChars } : {}),
      ...(fetch.maxCharsCap !== undefined ? { maxCharsCap: fetch.maxCharsCap } : {}),
      ...(fetch.maxResponseBytes !== undefined ? { maxResponseBytes: fetch.maxResponseBytes } : {}),
      ...(fetch.timeoutSeconds !== undefined ? { timeoutMs: fetch.timeoutSeconds * 1000 } : {}),
      ...(fetch.maxRedirects !== undefined ? { maxRedirects: fetch.maxRedirects } : {}),
      ...(fetch.userAgent !== undefined ? { userAgent: fetch.userAgent } : {}),
      ...(fetch.cacheTtlMinutes !== undefined ? { cacheTtlMs: fetch.cacheTtlMinutes * 60_000 } : {}),
      ...(fetch.readability !== undefined ? { readability: fetch.readability } : {}),
    },
  };
}
