import { TOOL_ERRORS } from "../../tool-errors.js";
import { toolError, toolText } from "../../tool-result.js";
import type { ToolResult, WebSearchHost } from "../../types.js";
import { ProviderRequestError } from "./provider-request.js";
import { keepAnswer, keptAnswer } from "./search-cache.js";
import { answerOutput, errorOutput, resultsOutput, type SearchOutput } from "./search-output.js";
import { SearchArgumentError, type SearchProvider, type SearchQuery } from "./search-types.js";

export interface WebSearchLimits {
  maxResults: number;
  timeoutMs: number;
  cacheTtlMs: number;
  /** Where the provider's credential or address is set, for the hint after a refused request. */
  credentialHint: string;
}

/**
 * web_search through one provider: the cache first, then the request under the timeout, the
 * answer in OpenClaw's result shape, and every failure as its `error` shape naming the provider
 * and the fix. The caller's abort ends the call as aborted; nothing here throws.
 */
export function createWebSearchHost(provider: SearchProvider, limits: WebSearchLimits): WebSearchHost {
  return {
    provider: provider.id,
    answers: provider.style === "answer",
    maxResults: limits.maxResults,
    async search(query, signal) {
      // An answer-style provider ignores count: asking for another count is the same question.
      const key = `${provider.cacheIdentity}\n${JSON.stringify(provider.style === "answer" ? { ...query, count: undefined } : query)}`;
      const kept = keptAnswer(key, limits.cacheTtlMs);
      if (kept) return answer({ ...kept, cached: true });

      const controller = new AbortController();
      const onAbort = (): void => controller.abort("aborted");
      if (signal.aborted) onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      const timer = setTimeout(() => controller.abort("timeout"), limits.timeoutMs);
      const started = performance.now();
      try {
        const found = await provider.search(query, controller.signal);
        const tookMs = Math.round(performance.now() - started);
        const output = Array.isArray(found) ? resultsOutput(provider.id, query.query, found, tookMs) : answerOutput(provider.id, query.query, found, tookMs);
        keepAnswer(key, output, limits.cacheTtlMs);
        return answer(output);
      } catch (error) {
        return failure(error, query, controller.signal);
      } finally {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
      }
    },
  };

  function failure(error: unknown, query: SearchQuery, signal: AbortSignal): ToolResult {
    if (error instanceof SearchArgumentError) return toolError(TOOL_ERRORS.argumentsInvalid("web_search", error.message));
    if (signal.aborted && signal.reason === "aborted") return toolError(TOOL_ERRORS.abortedWhileRunning());
    const what = `${provider.id} search for "${query.query.slice(0, 100)}"`;
    if (signal.aborted) return providerError(`${what} did not answer within ${Math.round(limits.timeoutMs / 1000)} s; try again later or raise tools.web.search.timeoutSeconds`);
    const status = error instanceof ProviderRequestError ? error.status : undefined;
    const problem = error instanceof Error ? error.message : String(error);
    if (status === 401 || status === 403) return providerError(`${what} was refused (${problem}): check ${limits.credentialHint}`);
    if (status === 429) return providerError(`${what} was rate limited (${problem}); wait and try again, or check the plan's limits`);
    return providerError(`${what} failed: ${problem}`);
  }

  function providerError(message: string): ToolResult {
    return { content: [{ type: "text", text: JSON.stringify(errorOutput(provider.id, message)) }], isError: true, details: { provider: provider.id } };
  }
}

function answer(output: SearchOutput): ToolResult {
  const count = output.kind === "results" ? output.count : (output.citations?.length ?? 0);
  return toolText(JSON.stringify(output, null, 2), { provider: output.provider, count, ...(output.cached ? { cached: true } : {}) });
}
