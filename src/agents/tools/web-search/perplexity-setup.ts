import type { OpenClawConfig } from "../../../config/index.js";
import { usableApiKey } from "../../../models/index.js";
import { OPENROUTER_BASE_URL, PERPLEXITY_DEFAULT_BASE_URL, PERPLEXITY_DEFAULT_SONAR_MODEL, perplexitySearchProvider, sonarSearchProvider } from "./perplexity-search.js";
import type { ProviderSetup } from "./provider-setups.js";

export const PERPLEXITY_KEY_HINT = "plugins.entries.perplexity.config.webSearch.apiKey, PERPLEXITY_API_KEY or OPENROUTER_API_KEY";

/**
 * Perplexity's key and path, as OpenClaw picks them. The key: `webSearch.apiKey`, else
 * $PERPLEXITY_API_KEY, else $OPENROUTER_API_KEY. The path: a `webSearch.baseUrl` or `model` always
 * means Sonar chat completions there; otherwise a configured `sk-or-` key or $OPENROUTER_API_KEY
 * means Sonar through OpenRouter, and any other key the Search API (at
 * $PERPLEXITY_SEARCH_BASE_URL when set, for a proxy in front of it).
 */
export function perplexitySetup(config: OpenClawConfig, env: NodeJS.ProcessEnv): ProviderSetup {
  const webSearch = config.plugins?.entries?.perplexity?.config?.webSearch;
  const configured = usableApiKey(webSearch?.apiKey);
  const perplexityEnv = env.PERPLEXITY_API_KEY?.trim() || undefined;
  const openRouterEnv = env.OPENROUTER_API_KEY?.trim() || undefined;
  const apiKey = configured ?? perplexityEnv ?? openRouterEnv;
  if (!apiKey) return { missing: `no API key is set: set ${PERPLEXITY_KEY_HINT}` };
  const credentialHint = `the API key (${PERPLEXITY_KEY_HINT})`;
  const viaOpenRouter = configured ? configured.startsWith("sk-or-") : !perplexityEnv;
  if (webSearch?.baseUrl || webSearch?.model || viaOpenRouter) {
    const baseUrl = webSearch?.baseUrl ?? (viaOpenRouter ? OPENROUTER_BASE_URL : PERPLEXITY_DEFAULT_BASE_URL);
    return { provider: sonarSearchProvider({ apiKey, baseUrl, model: sonarModel(webSearch?.model, baseUrl) }), credentialHint };
  }
  const baseUrl = env.PERPLEXITY_SEARCH_BASE_URL?.trim() || PERPLEXITY_DEFAULT_BASE_URL;
  return { provider: perplexitySearchProvider({ apiKey, baseUrl }), credentialHint };
}

/** The model named, else Sonar Pro: OpenRouter's id (`perplexity/sonar-pro`), or Perplexity's own (`sonar-pro`) at its own API. */
function sonarModel(configured: string | undefined, baseUrl: string): string {
  if (configured) return configured;
  return new URL(baseUrl).hostname === "api.perplexity.ai" ? PERPLEXITY_DEFAULT_SONAR_MODEL.replace(/^perplexity\//, "") : PERPLEXITY_DEFAULT_SONAR_MODEL;
}
