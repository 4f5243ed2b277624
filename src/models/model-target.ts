import type { OpenClawConfig } from "../config/index.js";
import { BUILTIN_PROVIDERS, EXAMPLE_MODEL_REF } from "./builtin-providers.js";
import { parseModelRef } from "./model-ref.js";
import { knownModelProviders } from "./resolve-model.js";

/** A model a config edit may name: its canonical `provider/model`, and a warning when its provider does not list it. */
export interface ModelTarget {
  ref: string;
  provider: string;
  id: string;
  /** Set when the provider lists its models and this one is not among them (the choice stands: the list may be behind). */
  warning?: string;
}

/**
 * An alias, a `provider/model` or a model id one provider lists → the canonical ref a config edit
 * writes, as OpenClaw's `models set` resolves it. A ref that does not parse, or whose provider is
 * neither built in nor configured, is refused with the providers there are; a model its provider
 * does not list is accepted with a warning (new and self-hosted models are often not listed).
 */
export function resolveModelTarget(raw: string, config: OpenClawConfig): { ok: true; target: ModelTarget } | { ok: false; message: string } {
  const trimmed = raw.trim();
  if (!trimmed || /\s/.test(trimmed)) {
    return { ok: false, message: `Invalid model reference: "${raw}". Use "provider/model" (e.g. "${EXAMPLE_MODEL_REF}") or an alias from agents.defaults.models.` };
  }
  const parsed = parseModelRef(trimmed, config);
  if (!parsed.ok) return parsed;
  const { provider, id } = parsed.parts;
  const ref = `${provider}/${id}`;
  if (!knownModelProviders(config).includes(provider)) return { ok: false, message: unknownProviderMessage(provider, ref, config) };
  const listed = config.models?.providers?.[provider]?.models ?? [];
  if (listed.length > 0 && !listed.some((m) => m.id === id)) {
    return {
      ok: true,
      target: {
        ref,
        provider,
        id,
        warning: `Model "${ref}" is not in models.providers.${provider}.models (${listed.map((m) => m.id).join(", ")}); check the model id, or add it there so its context window and input are known.`,
      },
    };
  }
  return { ok: true, target: { ref, provider, id } };
}

function unknownProviderMessage(provider: string, ref: string, config: OpenClawConfig): string {
  const configured = Object.keys(config.models?.providers ?? {});
  const builtin = config.models?.mode === "replace" ? [] : Object.keys(BUILTIN_PROVIDERS).filter((p) => !configured.includes(p));
  const known = [`configured providers: ${configured.length > 0 ? configured.join(", ") : "none"}`, ...(builtin.length > 0 ? [`built in: ${builtin.join(", ")}`] : [])].join("; ");
  return `Unknown model provider "${provider}" (model ${ref}): add it under models.providers.${provider} (baseUrl, api, apiKey) or pick a known provider (${known}).`;
}
