import type { OpenClawConfig } from "../../../config/index.js";
import { usableApiKey } from "../../../models/index.js";
import type { WebSearchHost } from "../../types.js";
import { BRAVE_DEFAULT_BASE_URL, braveSearchProvider } from "./brave-search.js";
import { searxngSearchProvider } from "./searxng-search.js";
import type { SearchProvider } from "./search-types.js";
import { createWebSearchHost } from "./web-search-host.js";

export const WEB_SEARCH_DEFAULTS = { maxResults: 5, timeoutSeconds: 30, cacheTtlMinutes: 15 } as const;

const BRAVE_KEY_HINT = "plugins.entries.brave.config.webSearch.apiKey or BRAVE_API_KEY";
const SEARXNG_URL_HINT = "plugins.entries.searxng.config.webSearch.baseUrl or SEARXNG_BASE_URL";

/** web_search's host for this config, or why there is none (then web_search is not offered). */
export type WebSearchSetup = { host: WebSearchHost; problem?: undefined } | { host?: undefined; problem: string };

/**
 * Picks the provider: `tools.web.search.provider` when set, else the first that is set up (a Brave
 * key, then a SearXNG base URL), as OpenClaw's auto-detection orders them. A chosen provider that
 * lacks its key or URL is not replaced by another.
 */
export function webSearchSetup(config: OpenClawConfig, env: NodeJS.ProcessEnv): WebSearchSetup {
  const settings = config.tools?.web?.search ?? {};
  if (settings.enabled === false) return { problem: "tools.web.search.enabled is false" };
  const entries = config.plugins?.entries;
  // A `${VAR}` left as written (the variable was not set) is no key to send.
  const braveKey = usableApiKey(entries?.brave?.config?.webSearch?.apiKey) ?? nonEmpty(env.BRAVE_API_KEY);
  const searxngUrl = entries?.searxng?.config?.webSearch?.baseUrl ?? nonEmpty(env.SEARXNG_BASE_URL);
  const chosen = settings.provider ?? (braveKey ? "brave" : searxngUrl ? "searxng" : undefined);
  if (!chosen) return { problem: `no web search provider is set up: set ${BRAVE_KEY_HINT}, or ${SEARXNG_URL_HINT}` };
  if (chosen !== "brave" && chosen !== "searxng") return { problem: `tools.web.search.provider "${chosen}" is not supported here (brave, searxng)` };

  let provider: SearchProvider;
  let credentialHint: string;
  if (chosen === "brave") {
    if (!braveKey) return { problem: `tools.web.search.provider is "brave" but no API key is set: set ${BRAVE_KEY_HINT}` };
    provider = braveSearchProvider({ apiKey: braveKey, baseUrl: entries?.brave?.config?.webSearch?.baseUrl ?? BRAVE_DEFAULT_BASE_URL });
    credentialHint = `the API key (${BRAVE_KEY_HINT})`;
  } else {
    if (!searxngUrl) return { problem: `tools.web.search.provider is "searxng" but no instance is set: set ${SEARXNG_URL_HINT}` };
    const searxng = entries?.searxng?.config?.webSearch;
    provider = searxngSearchProvider({
      baseUrl: searxngUrl,
      ...(searxng?.categories ? { categories: searxng.categories } : {}),
      ...(searxng?.language ? { language: searxng.language } : {}),
    });
    credentialHint = `that the instance at ${searxngUrl} allows the json format`;
  }
  return {
    host: createWebSearchHost(provider, {
      maxResults: settings.maxResults ?? WEB_SEARCH_DEFAULTS.maxResults,
      timeoutMs: (settings.timeoutSeconds ?? WEB_SEARCH_DEFAULTS.timeoutSeconds) * 1000,
      cacheTtlMs: (settings.cacheTtlMinutes ?? WEB_SEARCH_DEFAULTS.cacheTtlMinutes) * 60_000,
      credentialHint,
    }),
  };
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
