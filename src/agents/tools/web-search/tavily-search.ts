import { postProviderJson } from "./provider-request.js";
import { endpointUrl, refuseArguments, type SearchHit, type SearchProvider } from "./search-types.js";

export const TAVILY_DEFAULT_BASE_URL = "https://api.tavily.com";

interface TavilyResult {
  title?: unknown;
  url?: unknown;
  content?: unknown;
  published_date?: unknown;
}

/**
 * Tavily's search API: `POST <baseUrl>/search` with the key as a bearer token, general topic,
 * basic depth, no generated answer. `freshness` is Tavily's `time_range`.
 */
export function tavilySearchProvider(options: { apiKey: string; baseUrl?: string }): SearchProvider {
  const baseUrl = options.baseUrl ?? TAVILY_DEFAULT_BASE_URL;
  return {
    id: "tavily",
    cacheIdentity: `tavily ${baseUrl}`,
    async search(query, signal) {
      refuseArguments("tavily", query, ["country", "language", "searchLang", "uiLang", "dateAfter", "dateBefore", "categories", "region", "safeSearch"]);
      const request = {
        query: query.query,
        max_results: query.count,
        topic: "general",
        search_depth: "basic",
        include_answer: false,
        ...(query.freshness ? { time_range: query.freshness } : {}),
      };
      const body = (await postProviderJson(endpointUrl(baseUrl, "/search"), { authorization: `Bearer ${options.apiKey}` }, request, signal)) as { results?: TavilyResult[] };
      return (Array.isArray(body?.results) ? body.results : []).map(toHit).filter((hit): hit is SearchHit => hit !== undefined);
    },
  };
}

function toHit(result: TavilyResult): SearchHit | undefined {
  if (typeof result?.url !== "string" || typeof result.title !== "string") return undefined;
  return {
    title: result.title,
    url: result.url,
    ...(typeof result.content === "string" && result.content ? { snippet: result.content } : {}),
    ...(typeof result.published_date === "string" ? { published: result.published_date } : {}),
  };
}
