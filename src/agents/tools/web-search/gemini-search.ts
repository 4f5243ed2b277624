import { postProviderJson, ProviderRequestError } from "./provider-request.js";
import { refuseArguments, type SearchProvider, type SearchQuery } from "./search-types.js";

export const GEMINI_DEFAULT_BASE_URL = "https://generativelanguage.googleapis.com/v1beta";
export const GEMINI_DEFAULT_SEARCH_MODEL = "gemini-3.6-flash";

const FRESHNESS_DAYS = { day: 1, week: 7, month: 30, year: 365 } as const;
const DAY_HINT =
  "Search recency instruction: Prioritize web sources published in the last 24 hours. If no matching recent sources are available, state that limitation and use the most relevant available sources.";

interface GeminiResponse {
  candidates?: { content?: { parts?: { text?: unknown }[] }; finishReason?: unknown; groundingMetadata?: { groundingChunks?: { web?: { uri?: unknown; title?: unknown } }[] } }[];
  promptFeedback?: { blockReason?: unknown };
}

/**
 * Gemini with Google Search grounding: `POST <baseUrl>/models/<model>:generateContent` with the key
 * in `x-goog-api-key`, the query as the one content and the `google_search` tool; one synthesized
 * answer citing the grounding sources. `count` is accepted and ignored. `freshness: day` asks for
 * recent sources in the query; a longer freshness or a date range is the tool's `timeRangeFilter`.
 */
export function geminiSearchProvider(options: { apiKey: string; baseUrl: string; model: string }): SearchProvider {
  const url = new URL(`${options.baseUrl}/models/${encodeURIComponent(options.model)}:generateContent`);
  return {
    id: "gemini",
    style: "answer",
    cacheIdentity: `gemini ${url.href}`,
    async search(query, signal) {
      refuseArguments("gemini", query, ["country", "language", "searchLang", "uiLang", "categories", "region", "safeSearch"]);
      const body = (await postProviderJson(url, { "x-goog-api-key": options.apiKey }, geminiRequest(query), signal)) as GeminiResponse;
      const candidate = body?.candidates?.[0];
      const content = (candidate?.content?.parts ?? [])
        .map((part) => (typeof part?.text === "string" ? part.text : ""))
        .filter(Boolean)
        .join("\n");
      if (!content) {
        const reason = [body?.promptFeedback?.blockReason, candidate?.finishReason].find((value) => typeof value === "string" && value);
        throw new ProviderRequestError(`Gemini gave no answer${reason ? ` (${String(reason).slice(0, 60)})` : ""}`);
      }
      const citations: { url: string; title?: string }[] = [];
      for (const chunk of candidate?.groundingMetadata?.groundingChunks ?? []) {
        if (typeof chunk?.web?.uri !== "string") continue;
        citations.push({ url: chunk.web.uri, ...(typeof chunk.web.title === "string" ? { title: chunk.web.title } : {}) });
      }
      return { kind: "answer", content, citations };
    },
  };
}

function geminiRequest(query: SearchQuery, now = new Date()): Record<string, unknown> {
  const text = query.freshness === "day" ? `${query.query}\n\n${DAY_HINT}` : query.query;
  const range = timeRange(query, now);
  return { contents: [{ parts: [{ text }] }], tools: [{ google_search: range ? { timeRangeFilter: range } : {} }] };
}

/** Google Search grounding's time range: RFC 3339 instants, the end exclusive (the day after date_before). */
function timeRange(query: SearchQuery, now: Date): { startTime: string; endTime: string } | undefined {
  const instant = (date: Date) => date.toISOString().replace(/\.\d+Z$/, "Z");
  if (query.freshness && query.freshness !== "day") {
    return { startTime: instant(new Date(now.getTime() - FRESHNESS_DAYS[query.freshness] * 86_400_000)), endTime: instant(now) };
  }
  if (!query.dateAfter && !query.dateBefore) return undefined;
  const end = query.dateBefore ? new Date(`${query.dateBefore}T00:00:00Z`) : undefined;
  if (end) end.setUTCDate(end.getUTCDate() + 1);
  return { startTime: query.dateAfter ? `${query.dateAfter}T00:00:00Z` : "1970-01-01T00:00:00Z", endTime: instant(end ?? now) };
}

/** A configured base URL as Gemini requests use it: no trailing slash, Google's bare host with its `/v1beta`. */
export function geminiBaseUrl(configured: string | undefined): string {
  if (!configured) return GEMINI_DEFAULT_BASE_URL;
  const trimmed = configured.replace(/\/+$/, "");
  return trimmed === "https://generativelanguage.googleapis.com" ? GEMINI_DEFAULT_BASE_URL : trimmed;
}
