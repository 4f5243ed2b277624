import type { OpenClawConfig } from "../../../config/index.js";
import { configuredApiKey, ollamaBearerKey, usableApiKey } from "../../../models/index.js";
import { XAI_DEFAULT_TOOL_MODEL, XAI_KEY_HINT, xaiApiKey, xaiBaseUrl } from "../xai/xai-credentials.js";
import { BRAVE_DEFAULT_BASE_URL, braveSearchProvider } from "./brave-search.js";
import { duckduckgoSearchProvider } from "./duckduckgo-search.js";
import { EXA_DEFAULT_BASE_URL, exaSearchProvider } from "./exa-search.js";
import { GEMINI_DEFAULT_SEARCH_MODEL, geminiBaseUrl, geminiSearchProvider } from "./gemini-search.js";
import { grokSearchProvider } from "./grok-search.js";
import { OLLAMA_DEFAULT_HOST, ollamaSearchProvider } from "./ollama-search.js";
import { perplexitySetup } from "./perplexity-setup.js";
import { searxngSearchProvider } from "./searxng-search.js";
import type { SearchProvider } from "./search-types.js";
import { TAVILY_DEFAULT_BASE_URL, tavilySearchProvider } from "./tavily-search.js";

/** A provider ready to ask: where its credential is set (the hint after a refusal) and its own timeout, if it has one. */
export interface ReadyProvider {
  provider: SearchProvider;
  credentialHint: string;
  /** Used when tools.web.search.timeoutSeconds is not set. */
  defaultTimeoutSeconds?: number;
}

/** A provider this gateway speaks but that lacks its key or address: `missing` says what to set. */
export type ProviderSetup = ReadyProvider | { missing: string };

/** Grok's searches run longer than the others': its timeout unless tools.web.search.timeoutSeconds says otherwise. */
export const GROK_DEFAULT_TIMEOUT_SECONDS = 60;

export const BRAVE_KEY_HINT = "plugins.entries.brave.config.webSearch.apiKey or BRAVE_API_KEY";
export const TAVILY_KEY_HINT = "plugins.entries.tavily.config.webSearch.apiKey or TAVILY_API_KEY";
export const EXA_KEY_HINT = "plugins.entries.exa.config.webSearch.apiKey or EXA_API_KEY";
export const GEMINI_KEY_HINT = "plugins.entries.google.config.webSearch.apiKey, GEMINI_API_KEY or models.providers.google.apiKey";
export const SEARXNG_URL_HINT = "plugins.entries.searxng.config.webSearch.baseUrl or SEARXNG_BASE_URL";

type Resolver = (config: OpenClawConfig, env: NodeJS.ProcessEnv) => ProviderSetup;

/**
 * How each provider this gateway speaks is set up from the config and the environment. A `${VAR}`
 * key left as written (the variable was not set) is no key.
 */
export const PROVIDER_SETUPS: Readonly<Record<string, Resolver>> = {
  brave(config, env) {
    const webSearch = config.plugins?.entries?.brave?.config?.webSearch;
    const apiKey = usableApiKey(webSearch?.apiKey) ?? nonEmpty(env.BRAVE_API_KEY);
    if (!apiKey) return { missing: `no API key is set: set ${BRAVE_KEY_HINT}` };
    return { provider: braveSearchProvider({ apiKey, baseUrl: webSearch?.baseUrl ?? BRAVE_DEFAULT_BASE_URL }), credentialHint: `the API key (${BRAVE_KEY_HINT})` };
  },
  gemini(config, env) {
    const webSearch = config.plugins?.entries?.google?.config?.webSearch;
    const apiKey = usableApiKey(webSearch?.apiKey) ?? nonEmpty(env.GEMINI_API_KEY) ?? configuredApiKey(config, "google");
    if (!apiKey) return { missing: `no API key is set: set ${GEMINI_KEY_HINT}` };
    return {
      provider: geminiSearchProvider({
        apiKey,
        // models.providers.google.baseUrl is not reused: a model provider here speaks OpenAI's API, not generateContent.
        baseUrl: geminiBaseUrl(webSearch?.baseUrl),
        model: webSearch?.model ?? GEMINI_DEFAULT_SEARCH_MODEL,
      }),
      credentialHint: `the API key (${GEMINI_KEY_HINT})`,
    };
  },
  grok(config, env) {
    const apiKey = xaiApiKey(config, env);
    if (!apiKey) return { missing: `no xAI key is set: set ${XAI_KEY_HINT}` };
    return {
      provider: grokSearchProvider({ apiKey, baseUrl: xaiBaseUrl(config), model: XAI_DEFAULT_TOOL_MODEL, timeoutMs: grokTimeoutMs(config) }),
      credentialHint: `the xAI key (${XAI_KEY_HINT})`,
      defaultTimeoutSeconds: GROK_DEFAULT_TIMEOUT_SECONDS,
    };
  },
  perplexity: perplexitySetup,
  exa(config, env) {
    const webSearch = config.plugins?.entries?.exa?.config?.webSearch;
    const apiKey = usableApiKey(webSearch?.apiKey) ?? nonEmpty(env.EXA_API_KEY);
    if (!apiKey) return { missing: `no API key is set: set ${EXA_KEY_HINT}` };
    return { provider: exaSearchProvider({ apiKey, baseUrl: webSearch?.baseUrl ?? EXA_DEFAULT_BASE_URL }), credentialHint: `the API key (${EXA_KEY_HINT})` };
  },
  tavily(config, env) {
    const webSearch = config.plugins?.entries?.tavily?.config?.webSearch;
    const apiKey = usableApiKey(webSearch?.apiKey) ?? nonEmpty(env.TAVILY_API_KEY);
    if (!apiKey) return { missing: `no API key is set: set ${TAVILY_KEY_HINT}` };
    return {
      provider: tavilySearchProvider({ apiKey, baseUrl: webSearch?.baseUrl ?? nonEmpty(env.TAVILY_BASE_URL) ?? TAVILY_DEFAULT_BASE_URL }),
      credentialHint: `the API key (${TAVILY_KEY_HINT})`,
    };
  },
  searxng(config, env) {
    const webSearch = config.plugins?.entries?.searxng?.config?.webSearch;
    const baseUrl = webSearch?.baseUrl ?? nonEmpty(env.SEARXNG_BASE_URL);
    if (!baseUrl) return { missing: `no instance is set: set ${SEARXNG_URL_HINT}` };
    return {
      provider: searxngSearchProvider({
        baseUrl,
        ...(webSearch?.categories ? { categories: webSearch.categories } : {}),
        ...(webSearch?.language ? { language: webSearch.language } : {}),
      }),
      credentialHint: `that the instance at ${baseUrl} allows the json format`,
    };
  },
  duckduckgo(config) {
    const ddg = config.plugins?.entries?.duckduckgo?.config?.webSearch;
    return {
      provider: duckduckgoSearchProvider({
        ...(ddg?.baseUrl ? { baseUrl: ddg.baseUrl } : {}),
        ...(ddg?.region ? { region: ddg.region } : {}),
        ...(ddg?.safeSearch ? { safeSearch: ddg.safeSearch } : {}),
      }),
      credentialHint: "that DuckDuckGo answers from this network (it takes no key)",
    };
  },
  ollama(config, env) {
    const host = config.plugins?.entries?.ollama?.config?.webSearch?.baseUrl ?? config.models?.providers?.ollama?.baseUrl ?? OLLAMA_DEFAULT_HOST;
    const hosted = new URL(host).hostname === "ollama.com";
    // The provider's own key goes to its host; OLLAMA_API_KEY from the environment is Ollama Cloud's, sent only there.
    const apiKey = ollamaBearerKey(usableApiKey(config.models?.providers?.ollama?.apiKey)) ?? (hosted ? nonEmpty(env.OLLAMA_API_KEY) : undefined);
    if (hosted && !apiKey) return { missing: "https://ollama.com needs an API key: set OLLAMA_API_KEY or models.providers.ollama.apiKey" };
    return {
      provider: ollamaSearchProvider({ host, ...(apiKey ? { apiKey } : {}) }),
      credentialHint: hosted ? "the API key (OLLAMA_API_KEY or models.providers.ollama.apiKey)" : `that the Ollama at ${host} is running and signed in (ollama signin)`,
    };
  },
};

function grokTimeoutMs(config: OpenClawConfig): number {
  return (config.tools?.web?.search?.timeoutSeconds ?? GROK_DEFAULT_TIMEOUT_SECONDS) * 1000;
}

export function nonEmpty(value: string | undefined): string | undefined {
  return value?.trim() ? value.trim() : undefined;
}
