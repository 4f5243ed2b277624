import { postProviderJson, ProviderRequestError } from "./provider-request.js";
import { endpointUrl, refuseArguments, type SearchHit, type SearchProvider } from "./search-types.js";

export const OLLAMA_DEFAULT_HOST = "http://127.0.0.1:11434";

interface OllamaResult {
  title?: unknown;
  url?: unknown;
  content?: unknown;
}

/**
 * Ollama Web Search: `POST <host>/api/web_search` with `{query, max_results}`. A host other than
 * `https://ollama.com` (a local or LAN Ollama, signed in with `ollama signin`) is asked at its
 * proxy `/api/experimental/web_search` first, then at `/api/web_search` when the proxy is not
 * there (404). `apiKey` goes as a bearer token to the host it was configured for.
 */
export function ollamaSearchProvider(options: { host: string; apiKey?: string }): SearchProvider {
  const hosted = new URL(options.host).hostname === "ollama.com";
  return {
    id: "ollama",
    cacheIdentity: `ollama ${options.host}`,
    async search(query, signal) {
      refuseArguments("ollama", query, ["country", "language", "searchLang", "uiLang", "freshness", "dateAfter", "dateBefore", "categories", "region", "safeSearch"]);
      const headers: Record<string, string> = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {};
      const body = { query: query.query, max_results: query.count };
      let answer: unknown;
      if (hosted) answer = await postProviderJson(endpointUrl(options.host, "/api/web_search"), headers, body, signal);
      else {
        try {
          answer = await postProviderJson(endpointUrl(options.host, "/api/experimental/web_search"), headers, body, signal);
        } catch (error) {
          if (!(error instanceof ProviderRequestError && error.status === 404)) throw error;
          answer = await postProviderJson(endpointUrl(options.host, "/api/web_search"), headers, body, signal);
        }
      }
      const results = (answer as { results?: OllamaResult[] } | undefined)?.results;
      return (Array.isArray(results) ? results : []).map(toHit).filter((hit): hit is SearchHit => hit !== undefined);
    },
  };
}

function toHit(result: OllamaResult): SearchHit | undefined {
  if (typeof result?.url !== "string" || typeof result.title !== "string") return undefined;
  return { title: result.title, url: result.url, ...(typeof result.content === "string" && result.content ? { snippet: result.content } : {}) };
}
