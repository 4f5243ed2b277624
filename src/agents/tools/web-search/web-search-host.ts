import { TOOL_ERRORS } from "../../tool-errors.js";
import { toolError, toolText } from "../../tool-result.js";
import type { ToolResult, WebSearchHost } from "../../types.js";
import { ProviderRequestError } from "./provider-request.js";
import { keepAnswer, keptAnswer } from "./search-cache.js";
import { answerOutput, errorOutput, resultsOutput, type SearchOutput } from "./search-output.js";
import { SearchArgumentError, type SearchProvider, type SearchQuery } from "./search-types.js";

/** One provider web_search may ask, with its own timeout and where its credential or address is set (the hint after a refusal). */
export interface SearchCandidate {
  provider: SearchProvider;
  timeoutMs: number;
  credentialHint: string;
}

export interface WebSearchLimits {
  maxResults: number;
  cacheTtlMs: number;
}

/** A provider that failed before the one that answered (or before all failed). */
export interface ProviderFailure {
  provider: string;
  message: string;
}

type Attempt = { output: SearchOutput } | { refused: ToolResult } | { failed: string };

/**
 * web_search through its providers, in order: the first is always asked; the next only when the
 * one before failed (auto-detection's fallback: a pinned provider is the only candidate). Each is
 * asked through the cache first, then under its timeout. The answer is OpenClaw's result shape from
 * the provider that answered, with `fallbackFrom` listing the failures before it; when all fail, the
 * first one's error, the others summarized after it. An argument a provider cannot take, or the
 * caller's abort, ends the call at once. Nothing here throws, and no message holds a key.
 */
export function createWebSearchHost(candidates: readonly SearchCandidate[], limits: WebSearchLimits): WebSearchHost {
  const first = candidates[0];
  if (!first) throw new Error("createWebSearchHost needs at least one provider");
  return {
    provider: first.provider.id,
    answers: first.provider.style === "answer",
    maxResults: limits.maxResults,
    async search(query, signal) {
      const failures: ProviderFailure[] = [];
      for (const candidate of candidates) {
        const attempt = await ask(candidate, query, signal, limits.cacheTtlMs);
        if ("refused" in attempt) return attempt.refused;
        if ("output" in attempt) return answer(attempt.output, failures);
        failures.push({ provider: candidate.provider.id, message: attempt.failed });
      }
      const [primary, ...others] = failures;
      const also = others.length > 0 ? `; the next auto-detected providers failed too: ${others.map((f) => `${f.provider} (${f.message})`).join("; ")}` : "";
      return providerError(primary!.provider, `${primary!.message}${also}`, failures);
    },
  };
}

async function ask(candidate: SearchCandidate, query: SearchQuery, signal: AbortSignal, cacheTtlMs: number): Promise<Attempt> {
  const { provider } = candidate;
  // An answer-style provider ignores count: asking for another count is the same question.
  const key = `${provider.cacheIdentity}\n${JSON.stringify(provider.style === "answer" ? { ...query, count: undefined } : query)}`;
  const kept = keptAnswer(key, cacheTtlMs);
  if (kept) return { output: { ...kept, cached: true } };

  const controller = new AbortController();
  const onAbort = (): void => controller.abort("aborted");
  if (signal.aborted) onAbort();
  signal.addEventListener("abort", onAbort, { once: true });
  const timer = setTimeout(() => controller.abort("timeout"), candidate.timeoutMs);
  const started = performance.now();
  try {
    const found = await provider.search(query, controller.signal);
    const tookMs = Math.round(performance.now() - started);
    const output = Array.isArray(found) ? resultsOutput(provider.id, query.query, found, tookMs) : answerOutput(provider.id, query.query, found, tookMs);
    keepAnswer(key, output, cacheTtlMs);
    return { output };
  } catch (error) {
    if (error instanceof SearchArgumentError) return { refused: toolError(TOOL_ERRORS.argumentsInvalid("web_search", error.message)) };
    if (controller.signal.aborted && controller.signal.reason === "aborted") return { refused: toolError(TOOL_ERRORS.abortedWhileRunning()) };
    return { failed: failureMessage(error, candidate, query, controller.signal) };
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", onAbort);
  }
}

/** What went wrong and what to do about it: never the provider's body, never a key. */
function failureMessage(error: unknown, candidate: SearchCandidate, query: SearchQuery, signal: AbortSignal): string {
  const what = `${candidate.provider.id} search for "${query.query.slice(0, 100)}"`;
  if (signal.aborted) return `${what} did not answer within ${Math.round(candidate.timeoutMs / 1000)} s; try again later or raise tools.web.search.timeoutSeconds`;
  const status = error instanceof ProviderRequestError ? error.status : undefined;
  const problem = error instanceof Error ? error.message : String(error);
  if (status === 401 || status === 403) return `${what} was refused (${problem}): check ${candidate.credentialHint}`;
  if (status === 429) return `${what} was rate limited (${problem}); wait and try again, or check the plan's limits`;
  return `${what} failed: ${problem}`;
}

function providerError(provider: string, message: string, failures: ProviderFailure[]): ToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(errorOutput(provider, message)) }],
    isError: true,
    details: { provider, ...(failures.length > 1 ? { tried: failures.map((f) => f.provider) } : {}) },
  };
}

function answer(output: SearchOutput, failures: ProviderFailure[]): ToolResult {
  const count = output.kind === "results" ? output.count : (output.citations?.length ?? 0);
  const shown = failures.length > 0 ? { ...output, fallbackFrom: failures } : output;
  return toolText(JSON.stringify(shown, null, 2), {
    provider: output.provider,
    count,
    ...(output.cached ? { cached: true } : {}),
    ...(failures.length > 0 ? { fallbackFrom: failures.map((f) => f.provider) } : {}),
  });
}
