import type { OpenClawConfig } from "../../config/index.js";
import { parseModelRef } from "../model-ref.js";

/** The models one turn may use, in order; `selected` is the one asked for. */
export interface CandidateChain {
  selected: string;
  refs: string[];
  /** A user's own choice (`/model`, `sessions.patch`): reported when it fails, never swapped. */
  strict: boolean;
}

export interface ChainInput {
  /** The model this turn asks for. */
  requested: string;
  strict: boolean;
  /** Configured fallbacks, tried in order after the requested model. */
  fallbacks: readonly string[];
  /** The configured primary, tried last when the requested model is an override of it. */
  primary?: string;
}

/**
 * The requested model first, then the fallbacks (duplicates dropped), then the configured primary
 * when the request overrode it. A strict request is the whole chain.
 */
export function buildCandidateChain(input: ChainInput, config: OpenClawConfig): CandidateChain {
  const selected = canonicalRef(input.requested, config);
  if (input.strict) return { selected, refs: [selected], strict: true };
  const refs: string[] = [];
  for (const ref of [selected, ...input.fallbacks, ...(input.primary ? [input.primary] : [])]) {
    const canonical = canonicalRef(ref, config);
    if (!refs.includes(canonical)) refs.push(canonical);
  }
  return { selected, refs, strict: false };
}

/** `provider/model` for a ref or an alias; a ref that does not parse stays as written (its attempt reports why). */
function canonicalRef(ref: string, config: OpenClawConfig): string {
  const parsed = parseModelRef(ref, config);
  return parsed.ok ? `${parsed.parts.provider}/${parsed.parts.id}` : ref.trim();
}
