import { getProviderJson } from "./provider-request.js";
import { endpointUrl, refuseArguments, SearchArgumentError, type SearchHit, type SearchProvider, type SearchQuery } from "./search-types.js";

export const BRAVE_DEFAULT_BASE_URL = "https://api.search.brave.com";

const FRESHNESS = { day: "pd", week: "pw", month: "pm", year: "py" } as const;

interface BraveWebResult {
  title?: unknown;
  url?: unknown;
  description?: unknown;
  page_age?: unknown;
  profile?: { name?: unknown };
  meta_url?: { hostname?: unknown };
}

/** Brave Search API, web mode: `GET <baseUrl>/res/v1/web/search` with the key in `X-Subscription-Token`. */
export function braveSearchProvider(options: { apiKey: string; baseUrl?: string }): SearchProvider {
  const baseUrl = options.baseUrl ?? BRAVE_DEFAULT_BASE_URL;
  return {
    id: "brave",
    cacheIdentity: `brave ${baseUrl}`,
    async search(query, signal) {
      const url = endpointUrl(baseUrl, "/res/v1/web/search");
      for (const [name, value] of Object.entries(braveParams(query))) url.searchParams.set(name, value);
      const body = (await getProviderJson(url, { "x-subscription-token": options.apiKey }, signal)) as { web?: { results?: BraveWebResult[] } };
      return (Array.isArray(body?.web?.results) ? body.web.results : []).map(toHit).filter((hit): hit is SearchHit => hit !== undefined);
    },
  };
}

function braveParams(query: SearchQuery): Record<string, string> {
  refuseArguments("brave", query, ["categories", "region", "safeSearch"]);
  if (query.dateBefore && !query.dateAfter) {
    throw new SearchArgumentError("date_before needs date_after: Brave's date ranges have a start and an end");
  }
  if (query.uiLang && !/^[a-z]{2,3}-[A-Za-z]{2}$/.test(query.uiLang)) {
    throw new SearchArgumentError(`ui_lang "${query.uiLang}" needs a region, like en-US`);
  }
  const params: Record<string, string> = { q: query.query, count: String(query.count) };
  if (query.country) params.country = query.country.toUpperCase();
  const searchLang = query.searchLang ?? query.language;
  if (searchLang) params.search_lang = searchLang;
  if (query.uiLang) params.ui_lang = query.uiLang;
  if (query.dateAfter) params.freshness = `${query.dateAfter}to${query.dateBefore ?? new Date().toISOString().slice(0, 10)}`;
  else if (query.freshness) params.freshness = FRESHNESS[query.freshness];
  return params;
}

function toHit(result: BraveWebResult): SearchHit | undefined {
  if (typeof result?.url !== "string" || typeof result.title !== "string") return undefined;
  const siteName = typeof result.profile?.name === "string" ? result.profile.name : typeof result.meta_url?.hostname === "string" ? result.meta_url.hostname : undefined;
  return {
    title: withoutTags(result.title),
    url: result.url,
    ...(typeof result.description === "string" ? { snippet: withoutTags(result.description) } : {}),
    ...(typeof result.page_age === "string" ? { published: result.page_age } : {}),
    ...(siteName ? { siteName } : {}),
  };
}

/** Brave marks the matched words with <strong> (and escapes the rest); the model gets plain text. */
function withoutTags(text: string): string {
  return text.replace(/<\/?(strong|b|em|i)>/gi, "").replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[name] ?? "");
}
