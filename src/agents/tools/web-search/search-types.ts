import type { WebSearchQuery } from "../../types.js";

export type SearchQuery = WebSearchQuery;

/** One result as a provider reports it, before it is checked and wrapped (search-output.ts). */
export interface SearchHit {
  title: string;
  url: string;
  snippet?: string;
  published?: string;
  siteName?: string;
}

/** A synthesized answer with its sources (an answer-style provider such as grok), before it is wrapped. */
export interface SearchAnswer {
  kind: "answer";
  content: string;
  citations: { url: string; title?: string }[];
}

export interface SearchProvider {
  id: string;
  /** Tells cached answers apart: the provider and where its requests go (never the key). */
  cacheIdentity: string;
  /** Answer-style providers answer with one SearchAnswer and ignore `count`. */
  style?: "answer";
  /**
   * Rejects with SearchArgumentError for a query this provider cannot run, ProviderRequestError for a failed request.
   * The signal ends at the host's timeout too.
   */
  search(query: SearchQuery, signal: AbortSignal): Promise<SearchHit[] | SearchAnswer>;
}

/** A query the chosen provider cannot run as asked: the model is told which argument to change. */
export class SearchArgumentError extends Error {}

/** `base` with `path` appended to its own path (a proxy base URL may carry a path of its own). */
export function endpointUrl(base: string, path: string): URL {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, "")}${path}`;
  return url;
}

/** Arguments another provider has, refused by a provider that has no such setting. */
export function refuseArguments(provider: string, query: SearchQuery, names: (keyof SearchQuery)[]): void {
  const given = names.filter((name) => query[name] !== undefined);
  if (given.length === 0) return;
  const wire: Partial<Record<keyof SearchQuery, string>> = { searchLang: "search_lang", uiLang: "ui_lang", dateAfter: "date_after", dateBefore: "date_before" };
  throw new SearchArgumentError(
    `${given.map((name) => wire[name] ?? name).join(", ")} ${given.length > 1 ? "are" : "is"} not supported by ${provider}; leave ${given.length > 1 ? "them" : "it"} out`,
  );
}
