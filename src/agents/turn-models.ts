import type { OpenClawConfig } from "../config/index.js";
import { resolveModel, type ProviderModel } from "../models/index.js";
import { buildCandidateChain, type AuthProfileStore, type CandidateChain } from "../models/failover/index.js";
import { agentModelChoice, type AgentConfig } from "./agent-config.js";

export type TurnModelPlan = { ok: true; chain: CandidateChain; model: ProviderModel } | { ok: false; message: string };

/**
 * Which models a turn may use: the session's own choice alone (strict), else a sub-agent's
 * model, the agent's fallbacks and its primary, else the agent's primary and fallbacks. `model`
 * is the first candidate that resolves: the prompt, the tools and the history budget are sized
 * for it. A turn none of whose candidates has a key (or needs none) fails at once with what to set.
 */
export function planTurnModels(input: {
  config: OpenClawConfig;
  env: NodeJS.ProcessEnv;
  agent: AgentConfig | undefined;
  store: AuthProfileStore;
  sessionModel?: string;
  modelOverride?: string;
  /** Replaces the agent's fallbacks for this turn. */
  modelFallbacks?: string[];
}): TurnModelPlan {
  const { config, env, store } = input;
  const chain = turnCandidateChain(input);
  if (!chain) return resolveModel(undefined, config, env) as { ok: false; message: string };
  let first: ProviderModel | undefined;
  let firstFailure: string | undefined;
  let anyKey = false;
  for (const ref of chain.refs) {
    const resolved = resolveModel(ref, config, env, { requireKey: false });
    if (!resolved.ok) {
      firstFailure ??= resolved.message;
      continue;
    }
    first ??= resolved.model;
    if (!anyKey && (resolved.model.keyOptional || store.ordered(resolved.model.provider, config, env).length > 0)) anyKey = true;
  }
  if (!first) return { ok: false, message: firstFailure ?? `No usable model for ${chain.refs[0]}.` };
  if (!anyKey) {
    const excluded = store.orderExcludesAll(first.provider, config, env);
    if (excluded) return { ok: false, message: excluded };
    const named = resolveModel(first.ref, config, env);
    const message = named.ok ? `No API key for provider "${first.provider}".` : named.message;
    // Keys written in an auth-profiles.json that does not parse are not seen: say so, or the user looks elsewhere.
    return { ok: false, message: store.loadError ? `${message} Its auth profiles are unreadable: ${store.loadError}` : message };
  }
  return { ok: true, chain, model: first };
}

/** The models a turn would walk, in order (see planTurnModels); undefined when no model is configured at all. */
export function turnCandidateChain(input: {
  config: OpenClawConfig;
  agent: AgentConfig | undefined;
  sessionModel?: string;
  modelOverride?: string;
  modelFallbacks?: string[];
}): CandidateChain | undefined {
  const choice = agentModelChoice(input.config, input.agent);
  const requested = input.sessionModel ?? input.modelOverride ?? choice.primary;
  if (!requested) return undefined;
  return buildCandidateChain(
    {
      requested,
      strict: input.sessionModel !== undefined,
      fallbacks: input.modelFallbacks ?? choice.fallbacks,
      ...(requested !== choice.primary && choice.primary ? { primary: choice.primary } : {}),
    },
    input.config,
  );
}
