import type { OpenClawConfig } from "../../../config/index.js";
import type { WebSearchHost } from "../../types.js";
import { PROVIDER_SETUPS, type ReadyProvider } from "./provider-setups.js";
import { createWebSearchHost } from "./web-search-host.js";

export const WEB_SEARCH_DEFAULTS = { maxResults: 5, timeoutSeconds: 30, cacheTtlMinutes: 15 } as const;

/**
 * The providers auto-detection may pick, in OpenClaw's precedence (Brave 10, Gemini 20, Grok 30,
 * Perplexity 50, Exa 65, Tavily 70, SearXNG 200). DuckDuckGo and Ollama are used only when named, as in OpenClaw.
 */
export const AUTO_DETECT_ORDER = ["brave", "gemini", "grok", "perplexity", "exa", "tavily", "searxng"] as const;

/** web_search's host for this config, or why there is none (then web_search is not offered). */
export type WebSearchSetup = { host: WebSearchHost; problem?: undefined } | { host?: undefined; problem: string };

/**
 * Picks the providers: `tools.web.search.provider` when set, the only one asked (one that lacks its
 * key or address is not replaced by another); else every provider in AUTO_DETECT_ORDER that is set
 * up, the first asked first and each next one only when the one before failed, as in OpenClaw.
 */
export function webSearchSetup(config: OpenClawConfig, env: NodeJS.ProcessEnv): WebSearchSetup {
  const settings = config.tools?.web?.search ?? {};
  if (settings.enabled === false) return { problem: "tools.web.search.enabled is false" };
  let chosen: ReadyProvider[];
  if (settings.provider) {
    const resolve = PROVIDER_SETUPS[settings.provider];
    if (!resolve) return { problem: `tools.web.search.provider "${settings.provider}" is not supported here (${Object.keys(PROVIDER_SETUPS).join(", ")})` };
    const setup = resolve(config, env);
    if ("missing" in setup) return { problem: `tools.web.search.provider is "${settings.provider}" but ${setup.missing}` };
    chosen = [setup];
  } else {
    chosen = autoDetected(config, env);
    if (chosen.length === 0) return { problem: `no web search provider is set up: ${howToSetUp(config, env)}, or name duckduckgo or ollama in tools.web.search.provider` };
  }
  const candidates = chosen.map((ready) => ({
    provider: ready.provider,
    credentialHint: ready.credentialHint,
    timeoutMs: (settings.timeoutSeconds ?? ready.defaultTimeoutSeconds ?? WEB_SEARCH_DEFAULTS.timeoutSeconds) * 1000,
  }));
  return {
    host: createWebSearchHost(candidates, {
      maxResults: settings.maxResults ?? WEB_SEARCH_DEFAULTS.maxResults,
      cacheTtlMs: (settings.cacheTtlMinutes ?? WEB_SEARCH_DEFAULTS.cacheTtlMinutes) * 60_000,
    }),
  };
}

/** The auto-detectable providers that are set up, in AUTO_DETECT_ORDER. */
export function autoDetected(config: OpenClawConfig, env: NodeJS.ProcessEnv): ReadyProvider[] {
  const ready: ReadyProvider[] = [];
  for (const name of AUTO_DETECT_ORDER) {
    const setup = PROVIDER_SETUPS[name]!(config, env);
    if (!("missing" in setup)) ready.push(setup);
  }
  return ready;
}

/** What each auto-detectable provider lacks, joined: "set …; set …". */
function howToSetUp(config: OpenClawConfig, env: NodeJS.ProcessEnv): string {
  return AUTO_DETECT_ORDER.map((name) => {
    const setup = PROVIDER_SETUPS[name]!(config, env);
    return "missing" in setup ? `${name}: ${setup.missing.replace(/^.*?: /, "")}` : name;
  }).join("; ");
}

const setups = new WeakMap<OpenClawConfig, WebSearchSetup>();

/** The setup for a loaded config, worked out once per config (a reload brings a new one). */
export function cachedWebSearchSetup(config: OpenClawConfig, env: NodeJS.ProcessEnv): WebSearchSetup {
  let setup = setups.get(config);
  if (!setup) setups.set(config, (setup = webSearchSetup(config, env)));
  return setup;
}
