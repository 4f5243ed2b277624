import type { OpenClawConfig } from "../config/index.js";
import { EXAMPLE_MODEL_REF } from "./builtin-providers.js";

export interface ModelRefParts {
  provider: string;
  id: string;
}

/** `agents.defaults.model`, whichever of its two spellings is used; undefined when unset. */
export function defaultModelRef(config: OpenClawConfig): string | undefined {
  const model = config.agents?.defaults?.model;
  const ref = typeof model === "string" ? model : model?.primary;
  return ref?.trim() || undefined;
}

/** The configured fallbacks of the default model (empty when none). */
export function defaultModelFallbacks(config: OpenClawConfig): string[] {
  const model = config.agents?.defaults?.model;
  return typeof model === "object" && model ? [...(model.fallbacks ?? [])] : [];
}

/**
 * Splits `provider/model` at the FIRST slash: model ids may contain slashes themselves
 * (`openrouter/moonshotai/kimi-k2` is provider `openrouter`). A bare id is resolved as an
 * alias from `agents.defaults.models`, then as a model id listed by exactly one provider.
 */
export function parseModelRef(ref: string, config: OpenClawConfig): { ok: true; parts: ModelRefParts } | { ok: false; message: string } {
  const trimmed = ref.trim();
  const slash = trimmed.indexOf("/");
  if (slash > 0) {
    const provider = trimmed.slice(0, slash).trim();
    const id = trimmed.slice(slash + 1).trim();
    if (id) return { ok: true, parts: { provider, id } };
    return { ok: false, message: `Model ref "${trimmed}" has no model id after the slash. Use "provider/model" (e.g. "${EXAMPLE_MODEL_REF}").` };
  }
  const viaAlias = findAlias(trimmed, config) ?? findUniqueListedModel(trimmed, config);
  if (viaAlias) return parseModelRef(viaAlias, config);
  return {
    ok: false,
    message: `Model "${trimmed}" names no provider. Use "provider/model" (e.g. "${EXAMPLE_MODEL_REF}"), or define it as an alias under agents.defaults.models.`,
  };
}

// Aliases match in any case, as OpenClaw's alias index does (`/model Sonnet` finds alias `sonnet`).
function findAlias(name: string, config: OpenClawConfig): string | undefined {
  const wanted = name.toLowerCase();
  const entries = Object.entries(config.agents?.defaults?.models ?? {});
  return entries.find(([ref, entry]) => typeof entry?.alias === "string" && entry.alias.trim().toLowerCase() === wanted && ref.includes("/"))?.[0];
}

function findUniqueListedModel(id: string, config: OpenClawConfig): string | undefined {
  const matches = Object.entries(config.models?.providers ?? {})
    .filter(([, provider]) => provider.models?.some((m) => m.id === id))
    .map(([providerId]) => `${providerId}/${id}`);
  return matches.length === 1 ? matches[0] : undefined;
}
