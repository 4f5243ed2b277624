import { getProviderJson } from "./provider-request.js";
import { endpointUrl, refuseArguments, type SearchHit, type SearchProvider, type SearchQuery } from "./search-types.js";

interface SearxngResult {
  title?: unknown;
  url?: unknown;
  content?: unknown;
  publishedDate?: unknown;
}

/**
 * A SearXNG instance's JSON API (`GET <baseUrl>/search?format=json`; the instance must list `json`
 * in `search.formats`). A category search other than `general` that finds nothing is asked once
 * more in `general`.
 */
export function searxngSearchProvider(options: { baseUrl: string; categories?: string; language?: string }): SearchProvider {
  return {
    id: "searxng",
    cacheIdentity: `searxng ${options.baseUrl}`,
    async search(query, signal) {
      refuseArguments("searxng", query, ["country", "searchLang", "uiLang", "dateAfter", "dateBefore", "region", "safeSearch"]);
      const categories = query.categories ?? options.categories ?? "general";
      const hits = await searchIn(categories, query, signal);
      if (hits.length > 0 || categories === "general") return hits;
      return searchIn("general", query, signal);
    },
  };

  async function searchIn(categories: string, query: SearchQuery, signal: AbortSignal): Promise<SearchHit[]> {
    const url = endpointUrl(options.baseUrl, "/search");
    url.searchParams.set("q", query.query);
    url.searchParams.set("format", "json");
    url.searchParams.set("categories", categories);
    const language = query.language ?? options.language;
    if (language) url.searchParams.set("language", language);
    if (query.freshness) url.searchParams.set("time_range", query.freshness);
    const body = (await getProviderJson(url, {}, signal)) as { results?: SearxngResult[] };
    return (Array.isArray(body?.results) ? body.results : [])
      .map(toHit)
      .filter((hit): hit is SearchHit => hit !== undefined)
      .slice(0, query.count);
  }
}

function toHit(result: SearxngResult): SearchHit | undefined {
  if (typeof result?.url !== "string" || typeof result.title !== "string") return undefined;
  return {
    title: result.title,
    url: result.url,
    ...(typeof result.content === "string" && result.content ? { snippet: result.content } : {}),
    ...(typeof result.publishedDate === "string" ? { published: result.publishedDate } : {}),
  };
}
