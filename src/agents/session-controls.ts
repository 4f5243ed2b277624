import type { OpenClawConfig } from "../config/index.js";
import { parseModelRef, resolveModel } from "../models/index.js";
import { modelAllowed } from "./model-policy.js";

/** The thinking levels a session or agent may ask for; each model supports a subset (docs/models.md). */
export const THINKING_LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh", "adaptive", "max"] as const;
export type ThinkingLevel = (typeof THINKING_LEVELS)[number];

/** `off`: replies only; `on`: a line per tool call before the reply; `full`: with each tool's result too. */
export const VERBOSE_LEVELS = ["off", "on", "full"] as const;
export type VerboseLevel = (typeof VERBOSE_LEVELS)[number];

export interface ControlsInput {
  model?: string | null;
  thinkingLevel?: string | null;
  verboseLevel?: string | null;
}

/** Session fields to write; `null` clears a choice (back to the agent's default). */
export interface ControlsPatch {
  modelOverride?: string | null;
  modelOverrideSource?: "user" | null;
  thinkingLevel?: string | null;
  verboseLevel?: string | null;
}

/**
 * Checks a session's model / thinking / verbose choice and turns it into session fields. Bad
 * input is an error naming the value and the choices, and nothing is changed: a model must be a
 * ref (or alias) of a known provider and api, allowed for the session's agent by its model policy.
 */
export function sessionControlsPatch(
  input: ControlsInput,
  agentId: string,
  config: OpenClawConfig,
  env: NodeJS.ProcessEnv,
): { ok: true; patch: ControlsPatch } | { ok: false; message: string } {
  const patch: ControlsPatch = {};
  if (input.model !== undefined) {
    if (input.model === null || input.model.trim() === "") {
      patch.modelOverride = null;
      patch.modelOverrideSource = null;
    } else {
      const checked = checkModelChoice(input.model, agentId, config, env);
      if (!checked.ok) return checked;
      patch.modelOverride = checked.ref;
      patch.modelOverrideSource = "user";
    }
  }
  if (input.thinkingLevel !== undefined) {
    const level = input.thinkingLevel?.trim().toLowerCase();
    if (level && !(THINKING_LEVELS as readonly string[]).includes(level)) {
      return { ok: false, message: `Unknown thinking level "${input.thinkingLevel}". Use one of: ${THINKING_LEVELS.join(", ")}.` };
    }
    patch.thinkingLevel = level || null;
  }
  if (input.verboseLevel !== undefined) {
    const level = input.verboseLevel?.trim().toLowerCase();
    if (level && !(VERBOSE_LEVELS as readonly string[]).includes(level)) {
      return { ok: false, message: `Unknown verbose level "${input.verboseLevel}". Use one of: ${VERBOSE_LEVELS.join(", ")}.` };
    }
    patch.verboseLevel = level || null;
  }
  return { ok: true, patch };
}

/**
 * A model a user or job may pick for an agent: it parses, its provider and api are known (a missing
 * key is reported at the turn), and the agent's `modelPolicy.allow` allows it.
 */
export function checkModelChoice(ref: string, agentId: string, config: OpenClawConfig, env: NodeJS.ProcessEnv): { ok: true; ref: string } | { ok: false; message: string } {
  const parsed = parseModelRef(ref, config);
  if (!parsed.ok) return parsed;
  const canonical = `${parsed.parts.provider}/${parsed.parts.id}`;
  const resolved = resolveModel(canonical, config, env, { requireKey: false });
  if (!resolved.ok) return { ok: false, message: resolved.message };
  const allowed = modelAllowed(config, agentId, canonical);
  return allowed.ok ? { ok: true, ref: canonical } : allowed;
}
