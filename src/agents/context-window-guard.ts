import type { OpenClawConfig } from "../config/index.js";
import type { ContextWindowInfo } from "../models/index.js";

/** Below this window a run cannot hold a system prompt, tools and a useful history: it is refused. */
export const CONTEXT_WINDOW_HARD_MIN_TOKENS = 16_000;
/** Below this window runs work but compact often; the gateway logs a warning once per model. */
export const CONTEXT_WINDOW_WARN_BELOW_TOKENS = 32_000;

export type ContextWindowVerdict = { action: "run" } | { action: "warn"; message: string } | { action: "block"; message: string };

/** The model a turn would run on, as `resolveModel` names it. */
export interface GuardedModel {
  ref: string;
  provider: string;
  id: string;
}

/**
 * Checks a model's resolved window (docs/sessions.md, "Context-window guard"). The thresholds
 * can be lowered with `agents.defaults.contextWindowGuard` for small local models.
 */
export function evaluateContextWindow(model: GuardedModel, window: ContextWindowInfo, config: OpenClawConfig): ContextWindowVerdict {
  const guard = config.agents.defaults.contextWindowGuard ?? {};
  const hardMin = guard.hardMinTokens ?? CONTEXT_WINDOW_HARD_MIN_TOKENS;
  const warnBelow = guard.warnBelowTokens ?? CONTEXT_WINDOW_WARN_BELOW_TOKENS;
  if (window.tokens < hardMin) {
    return {
      action: "block",
      message:
        `Model ${model.ref} has a context window of ${window.tokens} tokens, below the minimum of ${hardMin}: a turn would not fit. ` +
        `Pick a model with a larger window, ${howToWiden(model, window)}, or lower agents.defaults.contextWindowGuard.hardMinTokens.`,
    };
  }
  if (window.tokens < warnBelow) {
    return { action: "warn", message: `Model ${model.ref} has a small context window (${window.tokens} tokens, under ${warnBelow}): sessions will compact often.` };
  }
  return { action: "run" };
}

/** The setting that made the window this small: the `contextTokens` caps only ever lower it. */
function howToWiden(model: GuardedModel, window: ContextWindowInfo): string {
  const entry = `the contextWindow of "${model.id}" in models.providers.${model.provider}.models`;
  switch (window.source) {
    case "agentContextTokens":
      return `raise or remove agents.defaults.contextTokens, which caps every model at ${window.tokens}`;
    case "modelContextTokens":
      return `raise or remove the contextTokens of "${model.id}" in models.providers.${model.provider}.models, which caps it at ${window.tokens}`;
    case "modelsConfig":
      return `raise ${entry} if it understates the model's window`;
    default:
      return `set ${entry} if the model's window is larger`;
  }
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
