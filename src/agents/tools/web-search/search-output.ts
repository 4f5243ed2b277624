import { neutralizeMarkers, UNTRUSTED_BEGIN, UNTRUSTED_END } from "../web-fetch.js";
import type { SearchAnswer, SearchHit } from "./search-types.js";

export interface SearchResultsOutput {
  kind: "results";
  provider: string;
  query: string;
  count: number;
  tookMs: number;
  results: SearchHit[];
  externalContent: { untrusted: true; source: "web_search"; wrapped: true; provider: string };
  cached?: true;
}

/**
 * OpenClaw's `results` shape. Every piece of provider prose (title, snippet, site name) is wrapped
 * once as untrusted data, with any marker it carried defused; a result whose URL is not http(s) is
 * dropped, URLs are given in canonical form, and `published` is kept only when it is ISO-date shaped.
 */
export function resultsOutput(provider: string, query: string, hits: readonly SearchHit[], tookMs: number): SearchResultsOutput {
  const results: SearchHit[] = [];
  for (const hit of hits) {
    const url = canonicalWebUrl(hit.url);
    if (!url) continue;
    results.push({
      title: wrapUntrusted(hit.title),
      url,
      ...(hit.snippet ? { snippet: wrapUntrusted(hit.snippet) } : {}),
      ...(hit.published && ISO_DATE.test(hit.published) ? { published: hit.published } : {}),
      ...(hit.siteName ? { siteName: wrapUntrusted(hit.siteName) } : {}),
    });
  }
  return { kind: "results", provider, query, count: results.length, tookMs, results, externalContent: { untrusted: true, source: "web_search", wrapped: true, provider } };
}

export interface SearchAnswerOutput {
  kind: "answer";
  provider: string;
  query: string;
  tookMs: number;
  content: string;
  citations?: { url: string; title?: string }[];
  externalContent: { untrusted: true; source: "web_search"; wrapped: true; provider: string };
  cached?: true;
}

export type SearchOutput = SearchResultsOutput | SearchAnswerOutput;

/**
 * OpenClaw's `answer` shape for a synthesized answer: the content and every citation title
 * wrapped once as untrusted data, citations kept only when their URL is http(s) (canonical form).
 */
export function answerOutput(provider: string, query: string, answer: SearchAnswer, tookMs: number): SearchAnswerOutput {
  const citations: { url: string; title?: string }[] = [];
  for (const citation of answer.citations) {
    const url = canonicalWebUrl(citation.url);
    if (url) citations.push({ url, ...(citation.title ? { title: wrapUntrusted(citation.title) } : {}) });
  }
  return {
    kind: "answer",
    provider,
    query,
    tookMs,
    content: wrapUntrusted(answer.content),
    ...(citations.length > 0 ? { citations } : {}),
    externalContent: { untrusted: true, source: "web_search", wrapped: true, provider },
  };
}

/** OpenClaw's `error` shape: which provider failed and what to do about it (never the provider's body). */
export function errorOutput(provider: string, message: string): { kind: "error"; provider: string; error: "provider_error"; message: string } {
  return { kind: "error", provider, error: "provider_error", message };
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

function canonicalWebUrl(raw: string): string | undefined {
  try {
    const url = new URL(raw);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** Provider prose as untrusted data: inside the markers once, with any marker it carried defused. */
export function wrapUntrusted(text: string): string {
  return `${UNTRUSTED_BEGIN}\n${neutralizeMarkers(text)}\n${UNTRUSTED_END}`;
}
