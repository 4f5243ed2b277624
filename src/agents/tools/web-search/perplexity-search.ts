import { postProviderJson, ProviderRequestError } from "./provider-request.js";
import { endpointUrl, refuseArguments, type SearchHit, type SearchProvider, type SearchQuery } from "./search-types.js";

/** Perplexity's own API: the Search API at `/search`, Sonar chat completions at `/chat/completions`. */
export const PERPLEXITY_DEFAULT_BASE_URL = "https://api.perplexity.ai";
/** Where an OpenRouter key (`sk-or-…`, or $OPENROUTER_API_KEY) reaches Sonar. */
export const OPENROUTER_BASE_URL = "https://openrouter.ai/api/v1";
/** The Sonar model asked on the chat-completions path unless `webSearch.model` names one. */
export const PERPLEXITY_DEFAULT_SONAR_MODEL = "perplexity/sonar-pro";

interface PerplexityResult {
  title?: unknown;
  url?: unknown;
  snippet?: unknown;
  date?: unknown;
}

/**
 * Perplexity's Search API: `POST <baseUrl>/search` with the key as a bearer token, structured
 * results. `language` is its `search_language_filter`, `freshness` its `search_recency_filter`,
 * the dates its `search_after_date_filter`/`search_before_date_filter` (M/D/YYYY).
 */
export function perplexitySearchProvider(options: { apiKey: string; baseUrl?: string }): SearchProvider {
  const baseUrl = options.baseUrl ?? PERPLEXITY_DEFAULT_BASE_URL;
  return {
    id: "perplexity",
    cacheIdentity: `perplexity ${baseUrl}`,
    async search(query, signal) {
      refuseArguments("perplexity", query, ["searchLang", "uiLang", "categories", "region", "safeSearch"]);
      const body = (await postProviderJson(endpointUrl(baseUrl, "/search"), { authorization: `Bearer ${options.apiKey}` }, searchRequest(query), signal)) as {
        results?: PerplexityResult[];
      };
      return (Array.isArray(body?.results) ? body.results : []).map(toHit).filter((hit): hit is SearchHit => hit !== undefined);
    },
  };
}

function searchRequest(query: SearchQuery): Record<string, unknown> {
  return {
    query: query.query,
    max_results: query.count,
    ...(query.country ? { country: query.country.toUpperCase() } : {}),
    ...(query.language ? { search_language_filter: [query.language.toLowerCase()] } : {}),
    ...(query.freshness ? { search_recency_filter: query.freshness } : {}),
    ...(query.dateAfter ? { search_after_date_filter: perplexityDate(query.dateAfter) } : {}),
    ...(query.dateBefore ? { search_before_date_filter: perplexityDate(query.dateBefore) } : {}),
  };
}

/** YYYY-MM-DD as Perplexity's date filters take it: M/D/YYYY. */
function perplexityDate(iso: string): string {
  const [year, month, day] = iso.split("-");
  return `${Number(month)}/${Number(day)}/${year}`;
}

function toHit(result: PerplexityResult): SearchHit | undefined {
  if (typeof result?.url !== "string" || typeof result.title !== "string") return undefined;
  return {
    title: result.title,
    url: result.url,
    ...(typeof result.snippet === "string" && result.snippet ? { snippet: result.snippet } : {}),
    ...(typeof result.date === "string" ? { published: result.date } : {}),
  };
}

interface SonarCompletion {
  choices?: { message?: { content?: unknown; annotations?: { type?: unknown; url_citation?: { url?: unknown; title?: unknown } }[] } }[];
  citations?: unknown;
}

/**
 * Perplexity's Sonar through chat completions (OpenRouter, or a `baseUrl`/`model` set): `POST
 * <baseUrl>/chat/completions` with the query as the one user message, one synthesized answer with
 * the URLs it cites (the response's `citations`, else its `url_citation` annotations). `count` is
 * accepted and ignored; `freshness` is Sonar's `search_recency_filter`; the Search API's other
 * filters are refused by name.
 */
export function sonarSearchProvider(options: { apiKey: string; baseUrl: string; model: string }): SearchProvider {
  return {
    id: "perplexity",
    style: "answer",
    cacheIdentity: `perplexity-sonar ${options.baseUrl} ${options.model}`,
    async search(query, signal) {
      refuseArguments("perplexity through Sonar chat completions", query, [
        "country",
        "language",
        "searchLang",
        "uiLang",
        "dateAfter",
        "dateBefore",
        "categories",
        "region",
        "safeSearch",
      ]);
      const request = {
        model: options.model,
        messages: [{ role: "user", content: query.query }],
        ...(query.freshness ? { search_recency_filter: query.freshness } : {}),
      };
      const body = (await postProviderJson(endpointUrl(options.baseUrl, "/chat/completions"), { authorization: `Bearer ${options.apiKey}` }, request, signal)) as SonarCompletion;
      const message = body?.choices?.[0]?.message;
      if (typeof message?.content !== "string" || !message.content.trim()) throw new ProviderRequestError("the answer held no text");
      return { kind: "answer", content: message.content, citations: sonarCitations(body, message.annotations) };
    },
  };
}

function sonarCitations(body: SonarCompletion, annotations: unknown): { url: string; title?: string }[] {
  if (Array.isArray(body.citations)) return body.citations.filter((url): url is string => typeof url === "string").map((url) => ({ url }));
  if (!Array.isArray(annotations)) return [];
  const citations: { url: string; title?: string }[] = [];
  for (const annotation of annotations as { type?: unknown; url_citation?: { url?: unknown; title?: unknown } }[]) {
    const cited = annotation?.type === "url_citation" ? annotation.url_citation : undefined;
    if (typeof cited?.url !== "string" || citations.some((c) => c.url === cited.url)) continue;
    citations.push({ url: cited.url, ...(typeof cited.title === "string" ? { title: cited.title } : {}) });
  }
  return citations;
}
