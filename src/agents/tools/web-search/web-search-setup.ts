import type { OpenClawConfig } from "../../../config/index.js";
import { ollamaBearerKey, usableApiKey } from "../../../models/index.js";
import type { WebSearchHost } from "../../types.js";
import { BRAVE_DEFAULT_BASE_URL, braveSearchProvider } from "./brave-search.js";
import { duckduckgoSearchProvider } from "./duckduckgo-search.js";
import { grokSearchProvider } from "./grok-search.js";
import { OLLAMA_DEFAULT_HOST, ollamaSearchProvider } from "./ollama-search.js";
import { searxngSearchProvider } from "./searxng-search.js";
import { TAVILY_DEFAULT_BASE_URL, tavilySearchProvider } from "./tavily-search.js";
import type { SearchProvider } from "./search-types.js";
import { createWebSearchHost } from "./web-search-host.js";
import { XAI_DEFAULT_TOOL_MODEL, XAI_KEY_HINT, xaiApiKey, xaiBaseUrl } from "../xai/xai-credentials.js";

export const WEB_SEARCH_DEFAULTS = { maxResults: 5, timeoutSeconds: 30, cacheTtlMinutes: 15 } as const;

/** Grok's searches run longer than the others': its timeout unless tools.web.search.timeoutSeconds says otherwise. */
export const GROK_DEFAULT_TIMEOUT_SECONDS = 60;

const BRAVE_KEY_HINT = "plugins.entries.brave.config.webSearch.apiKey or BRAVE_API_KEY";
const TAVILY_KEY_HINT = "plugins.entries.tavily.config.webSearch.apiKey or TAVILY_API_KEY";
const SEARXNG_URL_HINT = "plugins.entries.searxng.config.webSearch.baseUrl or SEARXNG_BASE_URL";

/** web_search's host for this config, or why there is none (then web_search is not offered). */
export type WebSearchSetup = { host: WebSearchHost; problem?: undefined } | { host?: undefined; problem: string };

type Chosen = { provider: SearchProvider; credentialHint: string } | { problem: string };

/**
 * Picks the provider: `tools.web.search.provider` when set, else the first that is set up (a Brave
 * key, an xAI key for grok, a Tavily key, a SearXNG base URL), in OpenClaw's auto-detection order. DuckDuckGo and
 * Ollama Web Search are used only when named, as in OpenClaw. A chosen provider that lacks its key or URL is
 * not replaced by another.
 */
export function webSearchSetup(config: OpenClawConfig, env: NodeJS.ProcessEnv): WebSearchSetup {
  const settings = config.tools?.web?.search ?? {};
  if (settings.enabled === false) return { problem: "tools.web.search.enabled is false" };
  const entries = config.plugins?.entries;
  // A `${VAR}` left as written (the variable was not set) is no key to send.
  const braveKey = usableApiKey(entries?.brave?.config?.webSearch?.apiKey) ?? nonEmpty(env.BRAVE_API_KEY);
  const tavilyKey = usableApiKey(entries?.tavily?.config?.webSearch?.apiKey) ?? nonEmpty(env.TAVILY_API_KEY);
  const searxngUrl = entries?.searxng?.config?.webSearch?.baseUrl ?? nonEmpty(env.SEARXNG_BASE_URL);
  const xaiKey = xaiApiKey(config, env);
  const name = settings.provider ?? (braveKey ? "brave" : xaiKey ? "grok" : tavilyKey ? "tavily" : searxngUrl ? "searxng" : undefined);
  if (!name)
    return {
      problem: `no web search provider is set up: set ${BRAVE_KEY_HINT}, an xAI key (${XAI_KEY_HINT}), ${TAVILY_KEY_HINT} or ${SEARXNG_URL_HINT}, or name duckduckgo or ollama in tools.web.search.provider`,
    };
  const timeoutMs = (settings.timeoutSeconds ?? (name === "grok" ? GROK_DEFAULT_TIMEOUT_SECONDS : WEB_SEARCH_DEFAULTS.timeoutSeconds)) * 1000;
  const chosen = chooseProvider(name, config, env, { braveKey, tavilyKey, searxngUrl, xaiKey, timeoutMs });
  if ("problem" in chosen) return { problem: chosen.problem };
  return {
    host: createWebSearchHost(chosen.provider, {
      maxResults: settings.maxResults ?? WEB_SEARCH_DEFAULTS.maxResults,
      timeoutMs,
      cacheTtlMs: (settings.cacheTtlMinutes ?? WEB_SEARCH_DEFAULTS.cacheTtlMinutes) * 60_000,
      credentialHint: chosen.credentialHint,
    }),
  };
}

function chooseProvider(
  name: string,
  config: OpenClawConfig,
  env: NodeJS.ProcessEnv,
  found: { braveKey: string | undefined; tavilyKey: string | undefined; searxngUrl: string | undefined; xaiKey: string | undefined; timeoutMs: number },
): Chosen {
  const entries = config.plugins?.entries;
  switch (name) {
    case "brave":
      if (!found.braveKey) return { problem: `tools.web.search.provider is "brave" but no API key is set: set ${BRAVE_KEY_HINT}` };
      return {
        provider: braveSearchProvider({ apiKey: found.braveKey, baseUrl: entries?.brave?.config?.webSearch?.baseUrl ?? BRAVE_DEFAULT_BASE_URL }),
        credentialHint: `the API key (${BRAVE_KEY_HINT})`,
      };
    case "grok":
      if (!found.xaiKey) return { problem: `tools.web.search.provider is "grok" but no xAI key is set: set ${XAI_KEY_HINT}` };
      return {
        provider: grokSearchProvider({ apiKey: found.xaiKey, baseUrl: xaiBaseUrl(config), model: XAI_DEFAULT_TOOL_MODEL, timeoutMs: found.timeoutMs }),
        credentialHint: `the xAI key (${XAI_KEY_HINT})`,
      };
    case "tavily":
      if (!found.tavilyKey) return { problem: `tools.web.search.provider is "tavily" but no API key is set: set ${TAVILY_KEY_HINT}` };
      return {
        provider: tavilySearchProvider({
          apiKey: found.tavilyKey,
          baseUrl: entries?.tavily?.config?.webSearch?.baseUrl ?? nonEmpty(env.TAVILY_BASE_URL) ?? TAVILY_DEFAULT_BASE_URL,
        }),
        credentialHint: `the API key (${TAVILY_KEY_HINT})`,
      };
    case "searxng": {
      if (!found.searxngUrl) return { problem: `tools.web.search.provider is "searxng" but no instance is set: set ${SEARXNG_URL_HINT}` };
      const searxng = entries?.searxng?.config?.webSearch;
      return {
        provider: searxngSearchProvider({
          baseUrl: found.searxngUrl,
          ...(searxng?.categories ? { categories: searxng.categories } : {}),
          ...(searxng?.language ? { language: searxng.language } : {}),
        }),
        credentialHint: `that the instance at ${found.searxngUrl} allows the json format`,
      };
    }
    case "duckduckgo": {
      const ddg = entries?.duckduckgo?.config?.webSearch;
      return {
        provider: duckduckgoSearchProvider({
          ...(ddg?.baseUrl ? { baseUrl: ddg.baseUrl } : {}),
          ...(ddg?.region ? { region: ddg.region } : {}),
          ...(ddg?.safeSearch ? { safeSearch: ddg.safeSearch } : {}),
        }),
        credentialHint: "that DuckDuckGo answers from this network (it takes no key)",
      };
    }
    case "ollama": {
      const host = entries?.ollama?.config?.webSearch?.baseUrl ?? config.models?.providers?.ollama?.baseUrl ?? OLLAMA_DEFAULT_HOST;
      const hosted = new URL(host).hostname === "ollama.com";
      // The provider's own key goes to its host; OLLAMA_API_KEY from the environment is Ollama Cloud's, sent only there.
      const apiKey = ollamaBearerKey(usableApiKey(config.models?.providers?.ollama?.apiKey)) ?? (hosted ? nonEmpty(env.OLLAMA_API_KEY) : undefined);
      if (hosted && !apiKey)
        return { problem: 'tools.web.search.provider is "ollama" with https://ollama.com but no API key is set: set OLLAMA_API_KEY or models.providers.ollama.apiKey' };
      return {
        provider: ollamaSearchProvider({ host, ...(apiKey ? { apiKey } : {}) }),
        credentialHint: hosted ? "the API key (OLLAMA_API_KEY or models.providers.ollama.apiKey)" : `that the Ollama at ${host} is running and signed in (ollama signin)`,
      };
    }
    default:
      return { problem: `tools.web.search.provider "${name}" is not supported here (brave, grok, tavily, searxng, duckduckgo, ollama)` };
  }
}

const setups = new WeakMap<OpenClawConfig, WebSearchSetup>();

/** The setup for a loaded config, worked out once per config (a reload brings a new one). */
export function cachedWebSearchSetup(config: OpenClawConfig, env: NodeJS.ProcessEnv): WebSearchSetup {
  let setup = setups.get(config);
  if (!setup) setups.set(config, (setup = webSearchSetup(config, env)));
  return setup;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value?.trim() ? value.trim() : undefined;
}
