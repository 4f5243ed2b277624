import type { OpenClawConfig } from "../config/index.js";

/** Below this window a run cannot hold a system prompt, tools and a useful history: it is refused. */
export const CONTEXT_WINDOW_HARD_MIN_TOKENS = 16_000;
/** Below this window runs work but compact often; the gateway logs a warning once per model. */
export const CONTEXT_WINDOW_WARN_BELOW_TOKENS = 32_000;

export type ContextWindowVerdict = { action: "run" } | { action: "warn"; message: string } | { action: "block"; message: string };

/**
 * Checks a model's resolved window (docs/sessions.md, "Context-window guard"). The thresholds
 * can be lowered with `agents.defaults.contextWindowGuard` for small local models.
 */
export function evaluateContextWindow(modelRef: string, windowTokens: number, config: OpenClawConfig): ContextWindowVerdict {
  const guard = config.agents.defaults.contextWindowGuard ?? {};
  const hardMin = guard.hardMinTokens ?? CONTEXT_WINDOW_HARD_MIN_TOKENS;
  const warnBelow = guard.warnBelowTokens ?? CONTEXT_WINDOW_WARN_BELOW_TOKENS;
  if (windowTokens < hardMin) {
    return {
      action: "block",
      message:
        `Model ${modelRef} has a context window of ${windowTokens} tokens, below the minimum of ${hardMin}: a turn would not fit. ` +
        "Pick a model with a larger window, raise models.providers.<provider>.models[].contextWindow or agents.defaults.contextTokens if they understate it, " +
        "or lower agents.defaults.contextWindowGuard.hardMinTokens.",
    };
  }
  if (windowTokens < warnBelow) {
    return { action: "warn", message: `Model ${modelRef} has a small context window (${windowTokens} tokens, under ${warnBelow}): sessions will compact often.` };
  }
  return { action: "run" };
}

/**
 * The most characters one tool result may put into the context, by window: a small window
 * cannot afford a 64k-character file dump.
 */
export function liveToolResultMaxChars(windowTokens: number): number {
  if (windowTokens >= 200_000) return 64_000;
  if (windowTokens >= 100_000) return 32_000;
  return 16_000;
}
