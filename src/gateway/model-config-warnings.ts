import { agentModelChoice, listAgentConfigs } from "../agents/agent-config.js";
import type { OpenClawConfig } from "../config/index.js";
import { resolveModel } from "../models/index.js";

/**
 * The configured model refs no turn could use (a ref without a provider, a provider nothing
 * defines, an alias that names nothing), one line each naming the key that holds it and the fix,
 * so the gateway says so when it starts or reloads instead of at the first message. API keys are
 * not checked here: they may come from auth profiles or arrive in the environment of a later
 * start; the turn names a missing one.
 */
export function modelConfigWarnings(config: OpenClawConfig, env: NodeJS.ProcessEnv): string[] {
  const warnings: string[] = [];
  const seen = new Set<string>();
  const check = (key: string, ref: string | undefined) => {
    if (!ref || seen.has(`${key}\0${ref}`)) return;
    seen.add(`${key}\0${ref}`);
    const resolved = resolveModel(ref, config, env, { requireKey: false });
    if (!resolved.ok) warnings.push(`${key}: ${resolved.message}`);
  };
  const defaults = agentModelChoice(config, undefined);
  check("agents.defaults.model", defaults.primary);
  for (const fallback of defaults.fallbacks) check("agents.defaults.model.fallbacks", fallback);
  for (const agent of listAgentConfigs(config)) {
    if (agent.model === undefined) continue;
    const own = agentModelChoice(config, agent);
    check(`the model of agent "${agent.id}"`, own.primary);
    for (const fallback of own.fallbacks) check(`the model fallbacks of agent "${agent.id}"`, fallback);
  }
  return warnings;
}
