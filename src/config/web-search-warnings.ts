import { isEnvReference } from "./env-substitution.js";
import type { RawOpenClawConfig } from "./schema/index.js";
import { WEB_SEARCH_PROVIDERS } from "./schema/web-tools.js";

/**
 * A chosen web_search provider this gateway does not speak, or one without its key or address:
 * web_search is then not offered, and another provider is never used in its place. Said at load,
 * naming the providers there are or where the setting goes.
 */
export function webSearchWarnings(config: RawOpenClawConfig, env: NodeJS.ProcessEnv): string[] {
  const search = config.tools?.web?.search;
  if (!search?.provider || search.enabled === false) return [];
  if (!(WEB_SEARCH_PROVIDERS as readonly string[]).includes(search.provider)) {
    return [`tools.web.search.provider "${search.provider}" is not supported by this gateway (${WEB_SEARCH_PROVIDERS.join(", ")}): web_search is not offered`];
  }
  const entries = config.plugins?.entries;
  const braveKey = entries?.brave?.config?.webSearch?.apiKey;
  if (search.provider === "brave" && (!braveKey || isEnvReference(braveKey)) && !env.BRAVE_API_KEY?.trim()) {
    return ['tools.web.search.provider is "brave" but no API key is set (plugins.entries.brave.config.webSearch.apiKey or $BRAVE_API_KEY): web_search is not offered'];
  }
  if (search.provider === "grok" && !hasXaiKey(config, env)) {
    return [
      'tools.web.search.provider is "grok" but no xAI key is set (plugins.entries.xai.config.webSearch.apiKey, models.providers.xai.apiKey or $XAI_API_KEY): web_search is not offered',
    ];
  }
  const perplexityKey = entries?.perplexity?.config?.webSearch?.apiKey;
  if (search.provider === "perplexity" && (!perplexityKey || isEnvReference(perplexityKey)) && !env.PERPLEXITY_API_KEY?.trim() && !env.OPENROUTER_API_KEY?.trim()) {
    return [
      'tools.web.search.provider is "perplexity" but no API key is set (plugins.entries.perplexity.config.webSearch.apiKey, $PERPLEXITY_API_KEY or $OPENROUTER_API_KEY): web_search is not offered',
    ];
  }
  const geminiKey = entries?.google?.config?.webSearch?.apiKey;
  const googleModelKey = config.models?.providers?.google?.apiKey;
  const usable = (value: string | undefined) => Boolean(value?.trim()) && !isEnvReference(value!.trim());
  if (search.provider === "gemini" && !usable(geminiKey) && !env.GEMINI_API_KEY?.trim() && !usable(googleModelKey)) {
    return [
      'tools.web.search.provider is "gemini" but no API key is set (plugins.entries.google.config.webSearch.apiKey, $GEMINI_API_KEY or models.providers.google.apiKey): web_search is not offered',
    ];
  }
  const exaKey = entries?.exa?.config?.webSearch?.apiKey;
  if (search.provider === "exa" && (!exaKey || isEnvReference(exaKey)) && !env.EXA_API_KEY?.trim()) {
    return ['tools.web.search.provider is "exa" but no API key is set (plugins.entries.exa.config.webSearch.apiKey or $EXA_API_KEY): web_search is not offered'];
  }
  if (search.provider === "searxng" && !entries?.searxng?.config?.webSearch?.baseUrl && !env.SEARXNG_BASE_URL?.trim()) {
    return ['tools.web.search.provider is "searxng" but no instance is set (plugins.entries.searxng.config.webSearch.baseUrl or $SEARXNG_BASE_URL): web_search is not offered'];
  }
  return [];
}

/** Whether an xAI key is there for the xAI tools (the same places, in the same order, as the tools read it). */
export function hasXaiKey(config: RawOpenClawConfig, env: NodeJS.ProcessEnv): boolean {
  const usable = (value: string | undefined) => Boolean(value?.trim()) && !isEnvReference(value!.trim());
  return usable(config.plugins?.entries?.xai?.config?.webSearch?.apiKey) || usable(config.models?.providers?.xai?.apiKey) || Boolean(env.XAI_API_KEY?.trim());
}
