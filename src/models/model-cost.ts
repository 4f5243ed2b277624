import type { OpenClawConfig } from "../config/index.js";
import { parseModelRef } from "./model-ref.js";
import type { Usage } from "./messages.js";

/** A model's price per million tokens, as `models.providers.<p>.models[].cost` states it. */
export interface ModelCostRates {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** The configured price of `provider/model`, or undefined when the config names none. */
export function modelCostRates(ref: string | undefined, config: OpenClawConfig): ModelCostRates | undefined {
  if (!ref) return undefined;
  const parsed = parseModelRef(ref, config);
  if (!parsed.ok) return undefined;
  const entry = config.models?.providers?.[parsed.parts.provider]?.models?.find((m) => m.id === parsed.parts.id);
  const cost = entry?.cost;
  if (!cost) return undefined;
  return { input: cost.input ?? 0, output: cost.output ?? 0, cacheRead: cost.cacheRead ?? 0, cacheWrite: cost.cacheWrite ?? 0 };
}

/**
 * Estimated US dollars for `usage` at the model's configured price; undefined when the model has
 * no `cost` in the config (an unknown price is not zero). `usage.input` counts only uncached
 * prompt tokens; cache reads and writes are priced at their own rates.
 */
export function estimateCostUsd(usage: Usage, rates: ModelCostRates | undefined): number | undefined {
  if (!rates) return undefined;
  const micro = usage.input * rates.input + usage.output * rates.output + usage.cacheRead * rates.cacheRead + usage.cacheWrite * rates.cacheWrite;
  return micro / 1_000_000;
}
