import type { OpenClawConfig } from "../config/index.js";

/** The window assumed for a model neither the config nor the catalog knows. */
export const DEFAULT_CONTEXT_TOKENS = 200_000;

/**
 * Context windows of well-known model families, by id prefix (longest match wins), for models
 * the config lists without `contextWindow`. A provider's own entry always wins over this.
 */
const CATALOG: readonly (readonly [prefix: string, tokens: number])[] = [
  ["claude-", 200_000],
  ["gpt-4o", 128_000],
  ["gpt-4-turbo", 128_000],
  ["gpt-4.1", 1_047_576],
  ["gpt-5", 400_000],
  ["o1", 200_000],
  ["o3", 200_000],
  ["o4-mini", 200_000],
  ["gemini-1.5-pro", 2_097_152],
  ["gemini-1.5-flash", 1_048_576],
  ["gemini-2", 1_048_576],
];

export type ContextWindowSource = "modelsConfig" | "catalog" | "default" | "modelContextTokens" | "agentContextTokens";

export interface ContextWindowInfo {
  tokens: number;
  source: ContextWindowSource;
}

/**
 * A model's usable window: `models.providers.<p>.models[].contextWindow`, else the catalog, else
 * 200,000 — then capped by the entry's own `contextTokens` (the active input budget for that
 * model), then by `agents.defaults.contextTokens`, each when it is smaller.
 */
export function resolveContextWindow(config: OpenClawConfig, provider: string, modelId: string): ContextWindowInfo {
  const entry = config.models?.providers?.[provider]?.models?.find((m) => m.id === modelId);
  const base: ContextWindowInfo = entry?.contextWindow
    ? { tokens: entry.contextWindow, source: "modelsConfig" }
    : (catalogWindow(modelId) ?? { tokens: DEFAULT_CONTEXT_TOKENS, source: "default" });
  const forModel = entry?.contextTokens !== undefined && entry.contextTokens < base.tokens ? { tokens: entry.contextTokens, source: "modelContextTokens" as const } : base;
  const cap = config.agents?.defaults?.contextTokens;
  return cap !== undefined && cap < forModel.tokens ? { tokens: cap, source: "agentContextTokens" } : forModel;
}

function catalogWindow(modelId: string): ContextWindowInfo | undefined {
  const id = modelId.toLowerCase();
  let best: readonly [string, number] | undefined;
  for (const row of CATALOG) if (id.startsWith(row[0]) && (!best || row[0].length > best[0].length)) best = row;
  return best ? { tokens: best[1], source: "catalog" } : undefined;
}
