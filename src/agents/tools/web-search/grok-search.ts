import { askXai, XaiRequestError } from "../xai/xai-responses.js";
import { ProviderRequestError } from "./provider-request.js";
import { refuseArguments, type SearchProvider } from "./search-types.js";

/**
 * Grok through xAI's Responses API with its server-side `web_search` tool: one synthesized answer
 * with the URLs it cites. `count` is accepted and ignored (there is one answer); no other filter
 * is supported.
 */
export function grokSearchProvider(options: { apiKey: string; baseUrl: string; model: string; timeoutMs: number }): SearchProvider {
  return {
    id: "grok",
    style: "answer",
    cacheIdentity: `grok ${options.baseUrl} ${options.model}`,
    async search(query, signal) {
      refuseArguments("grok", query, ["country", "language", "searchLang", "uiLang", "freshness", "dateAfter", "dateBefore", "categories", "region", "safeSearch"]);
      try {
        const answer = await askXai({ ...options, input: query.query, tool: { type: "web_search" } }, signal);
        return { kind: "answer", content: answer.content, citations: answer.citations.map((url) => ({ url })) };
      } catch (error) {
        if (error instanceof XaiRequestError) throw new ProviderRequestError(error.message, error.status);
        throw error;
      }
    },
  };
}
