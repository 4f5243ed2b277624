import { postProviderJson } from "./provider-request.js";
import { endpointUrl, refuseArguments, type SearchHit, type SearchProvider, type SearchQuery } from "./search-types.js";

export const EXA_DEFAULT_BASE_URL = "https://api.exa.ai";

const FRESHNESS_DAYS = { day: 1, week: 7, month: 30, year: 365 } as const;

interface ExaResult {
  title?: unknown;
  url?: unknown;
  publishedDate?: unknown;
  highlights?: unknown;
  summary?: unknown;
  text?: unknown;
}

/**
 * Exa's search API: `POST <baseUrl>/search` (`/search` appended unless the base ends there) with
 * the key in `x-api-key`, Exa's `auto` mode and highlights as the page content. A result's snippet
 * is its highlights, else its summary, else its text. `freshness` and the dates are Exa's
 * published-date range.
 */
export function exaSearchProvider(options: { apiKey: string; baseUrl?: string }): SearchProvider {
  const baseUrl = options.baseUrl ?? EXA_DEFAULT_BASE_URL;
  const url = new URL(baseUrl).pathname.replace(/\/+$/, "").endsWith("/search") ? new URL(baseUrl) : endpointUrl(baseUrl, "/search");
  return {
    id: "exa",
    cacheIdentity: `exa ${url.href}`,
    async search(query, signal) {
      refuseArguments("exa", query, ["country", "language", "searchLang", "uiLang", "categories", "region", "safeSearch"]);
      const body = (await postProviderJson(url, { "x-api-key": options.apiKey }, exaRequest(query), signal)) as { results?: ExaResult[] };
      return (Array.isArray(body?.results) ? body.results : []).map(toHit).filter((hit): hit is SearchHit => hit !== undefined);
    },
  };
}

function exaRequest(query: SearchQuery, now = new Date()): Record<string, unknown> {
  let start = query.dateAfter ? `${query.dateAfter}T00:00:00.000Z` : undefined;
  if (query.freshness) start = new Date(now.getTime() - FRESHNESS_DAYS[query.freshness] * 86_400_000).toISOString();
  return {
    query: query.query,
    numResults: query.count,
    type: "auto",
    contents: { highlights: true },
    ...(start ? { startPublishedDate: start } : {}),
    ...(query.dateBefore ? { endPublishedDate: `${query.dateBefore}T23:59:59.999Z` } : {}),
  };
}

function toHit(result: ExaResult): SearchHit | undefined {
  if (typeof result?.url !== "string") return undefined;
  const snippet = description(result);
  return {
    title: typeof result.title === "string" && result.title ? result.title : result.url,
    url: result.url,
    ...(snippet ? { snippet } : {}),
    ...(typeof result.publishedDate === "string" ? { published: result.publishedDate } : {}),
  };
}

function description(result: ExaResult): string | undefined {
  const highlights = Array.isArray(result.highlights) ? result.highlights.filter((h): h is string => typeof h === "string" && h.trim() !== "") : [];
  if (highlights.length > 0) return highlights.join(" … ");
  if (typeof result.summary === "string" && result.summary.trim()) return result.summary;
  if (typeof result.text === "string" && result.text.trim()) return result.text;
  return undefined;
}
