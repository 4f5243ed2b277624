import { Type } from "@sinclair/typebox";
import { ApiBaseUrl, integer, NonEmptyString, stringEnum, wholeTimeoutSeconds } from "./primitives.js";

/** The web_search providers this gateway speaks to (auto-detection: web-search-setup.ts). */
export const WEB_SEARCH_PROVIDERS = ["brave", "gemini", "grok", "perplexity", "exa", "tavily", "searxng", "duckduckgo", "ollama"] as const;

/** `tools.web.search`: whether web_search is offered, through which provider, and its result cache. */
const WebSearchSettings = Type.Object({
  enabled: Type.Optional(Type.Boolean()),
  /**
   * Omitted: the providers that are set up, in OpenClaw's auto-detection order (web-search-setup.ts),
   * each next one asked when the one before fails; DuckDuckGo and Ollama only when named. Any of
   * OpenClaw's other providers loads with a warning that it is not supported (web_search is not offered).
   */
  provider: Type.Optional(NonEmptyString),
  maxResults: Type.Optional(integer(1, 10)),
  timeoutSeconds: Type.Optional(wholeTimeoutSeconds()),
  /** 0: no cache (neither read nor written). */
  cacheTtlMinutes: Type.Optional(integer(0, 10_080)),
});

/** `tools.web.fetch`: web_fetch's limits. */
const WebFetchSettings = Type.Object({
  enabled: Type.Optional(Type.Boolean()),
  maxChars: Type.Optional(integer(100)),
  /** The most text a call may ask for with its own maxChars. */
  maxCharsCap: Type.Optional(integer(100)),
  maxResponseBytes: Type.Optional(integer(32_000, 10_000_000)),
  timeoutSeconds: Type.Optional(wholeTimeoutSeconds()),
  maxRedirects: Type.Optional(integer(0, 20)),
  userAgent: Type.Optional(NonEmptyString),
  /** 0: no cache (neither read nor written). */
  cacheTtlMinutes: Type.Optional(integer(0, 10_080)),
  /** HTML pages: Readability's main content (default true), or the whole page. */
  readability: Type.Optional(Type.Boolean()),
});

export const WebToolsSchema = Type.Object({
  search: Type.Optional(WebSearchSettings),
  fetch: Type.Optional(WebFetchSettings),
});

/**
 * `plugins.entries.brave.config.webSearch`: the Brave Search API key and where requests go. Brave's
 * web mode only: OpenClaw's `mode: "llm-context"` is not supported (an unknown key here).
 */
export const BraveWebSearchConfig = Type.Object({
  apiKey: Type.Optional(NonEmptyString),
  /** A Brave-compatible proxy; `/res/v1/web/search` is appended. http:// only to a loopback or private host. */
  baseUrl: Type.Optional(ApiBaseUrl),
});

/** `plugins.entries.tavily.config.webSearch`: the Tavily API key and where requests go. */
export const TavilyWebSearchConfig = Type.Object({
  apiKey: Type.Optional(NonEmptyString),
  /** A Tavily-compatible endpoint; `/search` is appended. http:// only to a loopback or private host. */
  baseUrl: Type.Optional(ApiBaseUrl),
});

/** `plugins.entries.duckduckgo.config.webSearch`: DuckDuckGo's defaults (it takes no key). */
export const DuckDuckGoWebSearchConfig = Type.Object({
  /** Region code (`kl`), e.g. `us-en`. */
  region: Type.Optional(Type.String({ pattern: "^[a-z]{2,3}-[a-z]{2,3}$" })),
  safeSearch: Type.Optional(stringEnum(["strict", "moderate", "off"])),
  /** Where DuckDuckGo's no-JavaScript page is asked (default https://html.duckduckgo.com); `/html/` is appended. */
  baseUrl: Type.Optional(ApiBaseUrl),
});

/** `plugins.entries.ollama.config.webSearch`: the Ollama host web search goes to (else the ollama model provider's). */
export const OllamaWebSearchConfig = Type.Object({
  baseUrl: Type.Optional(ApiBaseUrl),
});

/** `plugins.entries.searxng.config.webSearch`: a SearXNG instance and its defaults. */
export const SearxngWebSearchConfig = Type.Object({
  baseUrl: Type.Optional(ApiBaseUrl),
  /** Comma-separated SearXNG categories (default `general`). */
  categories: Type.Optional(NonEmptyString),
  language: Type.Optional(NonEmptyString),
});

/**
 * `plugins.entries.perplexity.config.webSearch`: the Perplexity (or OpenRouter) key; a `baseUrl`
 * or `model` switches to Sonar chat completions there, as in OpenClaw.
 */
export const PerplexityWebSearchConfig = Type.Object({
  apiKey: Type.Optional(NonEmptyString),
  /** A chat-completions endpoint serving Sonar; `/chat/completions` is appended. http:// only to a loopback or private host. */
  baseUrl: Type.Optional(ApiBaseUrl),
  model: Type.Optional(NonEmptyString),
});

/** `plugins.entries.exa.config.webSearch`: the Exa API key and where requests go. */
export const ExaWebSearchConfig = Type.Object({
  apiKey: Type.Optional(NonEmptyString),
  /** An Exa-compatible endpoint; `/search` is appended unless the path ends there. http:// only to a loopback or private host. */
  baseUrl: Type.Optional(ApiBaseUrl),
});

/**
 * `plugins.entries.google.config.webSearch`: Gemini web search (Google Search grounding). OpenClaw's
 * `headers` is not supported (an unknown key here).
 */
export const GeminiWebSearchConfig = Type.Object({
  apiKey: Type.Optional(NonEmptyString),
  /** A Gemini API base (`/models/<model>:generateContent` is appended). http:// only to a loopback or private host. */
  baseUrl: Type.Optional(ApiBaseUrl),
  model: Type.Optional(NonEmptyString),
});
