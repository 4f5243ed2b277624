import { decodeEntities } from "../html-to-text.js";
import { ProviderRequestError, requestProviderText } from "./provider-request.js";
import { endpointUrl, refuseArguments, type SearchHit, type SearchProvider } from "./search-types.js";

export const DUCKDUCKGO_DEFAULT_BASE_URL = "https://html.duckduckgo.com";

export type SafeSearch = "strict" | "moderate" | "off";

/** DuckDuckGo's `kp` per SafeSearch level. */
const SAFE_SEARCH_KP: Record<SafeSearch, string> = { strict: "1", moderate: "-1", off: "-2" };
/** DuckDuckGo's `df` (date filter) per freshness. */
const FRESHNESS_DF = { day: "d", week: "w", month: "m", year: "y" } as const;

/**
 * DuckDuckGo without a key: its page for browsers without JavaScript (`GET <baseUrl>/html/`), read
 * for its result links and snippets. Not an API: a page that changes shape finds nothing, and a bot
 * challenge instead of results is an error saying so. `region` (`kl`, e.g. `us-en`) and
 * `safeSearch` come from the call, else from the config; SafeSearch is moderate unless set.
 */
export function duckduckgoSearchProvider(options: { baseUrl?: string; region?: string; safeSearch?: SafeSearch }): SearchProvider {
  const baseUrl = options.baseUrl ?? DUCKDUCKGO_DEFAULT_BASE_URL;
  return {
    id: "duckduckgo",
    cacheIdentity: `duckduckgo ${baseUrl}`,
    async search(query, signal) {
      refuseArguments("duckduckgo", query, ["country", "language", "searchLang", "uiLang", "dateAfter", "dateBefore", "categories"]);
      const url = endpointUrl(baseUrl, "/html/");
      url.searchParams.set("q", query.query);
      const region = query.region ?? options.region;
      if (region) url.searchParams.set("kl", region);
      url.searchParams.set("kp", SAFE_SEARCH_KP[query.safeSearch ?? options.safeSearch ?? "moderate"]);
      if (query.freshness) url.searchParams.set("df", FRESHNESS_DF[query.freshness]);
      const html = await requestProviderText(url, { headers: { accept: "text/html", "user-agent": "Mozilla/5.0 (compatible; OpenClaw web_search)" } }, signal);
      const hits = parseResults(html);
      if (hits.length === 0 && isChallenge(html)) {
        throw new ProviderRequestError("DuckDuckGo answered with a bot challenge instead of results; try again later, or set up another provider (tools.web.search.provider)");
      }
      return hits.slice(0, query.count);
    },
  };
}

/** Each organic result of the page: its title link (`result__a`) and snippet (`result__snippet`); ads (`result--ad`) are left out. */
export function parseResults(html: string): SearchHit[] {
  const hits: SearchHit[] = [];
  for (const block of html.split(/(?=<div\b[^>]*\bclass="[^"]*\bresult\b)/)) {
    const classes = /^<div\b[^>]*\bclass="([^"]*)"/.exec(block)?.[1] ?? "";
    if (!/\bresult\b/.test(classes) || /\bresult--ad\b/.test(classes)) continue;
    const link = /<a\b([^>]*\bclass="[^"]*\bresult__a\b[^"]*"[^>]*)>([\s\S]*?)<\/a>/.exec(block);
    if (!link) continue;
    const href = /\bhref="([^"]*)"/.exec(link[1]!)?.[1];
    const target = href ? resultTarget(decodeEntities(href)) : undefined;
    const title = plainText(link[2]!);
    if (!target || !title) continue;
    const snippet = /<(a|div|td)\b[^>]*\bclass="[^"]*\bresult__snippet\b[^"]*"[^>]*>([\s\S]*?)<\/\1>/.exec(block)?.[2];
    const text = snippet ? plainText(snippet) : "";
    hits.push({ title, url: target, ...(text ? { snippet: text } : {}) });
  }
  return hits;
}

/** A result link goes through DuckDuckGo's redirect (`//duckduckgo.com/l/?uddg=<target>`); the target is the result. */
function resultTarget(href: string): string | undefined {
  let url: URL;
  try {
    url = new URL(href, "https://duckduckgo.com");
  } catch {
    return undefined;
  }
  const target = url.hostname.endsWith("duckduckgo.com") ? url.searchParams.get("uddg") : url.href;
  if (!target || !/^https?:\/\//i.test(target)) return undefined;
  return target;
}

function plainText(html: string): string {
  return decodeEntities(html.replace(/<[^>]*>/g, ""))
    .replace(/\s+/g, " ")
    .trim();
}

function isChallenge(html: string): boolean {
  return /\banomaly\b|challenge-form|bots use DuckDuckGo/i.test(html);
}
