import { LRUCache } from "lru-cache";
import type { OpenClawConfig } from "../config/index.js";
import { resolveEffectiveTools, type EffectiveTools } from "./policy/index.js";
import type { ToolPolicyInput } from "./policy/types.js";
import type { DiscoveredSkill } from "./skills/skill-types.js";
import { filterSkills, skillSettings } from "./skills/filter-skills.js";
import { resolveSkillAllowlist } from "./skills/skill-allowlist.js";
import { toolSpecFor } from "./turn-context-cache.js";
import type { AgentTool, ModelApi, ToolSpec } from "./types.js";

/**
 * What a turn derives from the config and the agent's tools and skills alone — the tool policy,
 * the tools it leaves, their schemas and prompt summaries, the skills that pass their gates —
 * is the same for every turn until one of those inputs changes. Each is kept per config object
 * (a reload makes a new one, so old entries go with it), per tool set and per discovered skill
 * list (rediscovered every few seconds), and worked out again only when they change.
 */
const MAX_PER_CONFIG = 64;

const policies = new WeakMap<object, LRUCache<string, EffectiveTools>>();
const toolSetIds = new WeakMap<readonly AgentTool[], number>();
let nextToolSetId = 1;

/** resolveEffectiveTools for `tools`, remembered for this config and these inputs. */
export function effectiveToolsFor(config: OpenClawConfig, tools: readonly AgentTool[], input: Omit<ToolPolicyInput, "config" | "available" | "ownerOnlyTools">): EffectiveTools {
  let toolSetId = toolSetIds.get(tools);
  if (toolSetId === undefined) toolSetIds.set(tools, (toolSetId = nextToolSetId++));
  const key = JSON.stringify([
    toolSetId,
    input.agentId,
    input.provider,
    input.modelId,
    input.channel,
    input.senderIsOwner,
    input.spawnDepth,
    input.sandboxed,
    input.runAllow,
    input.runDeny,
    input.repliesThroughMessageTool === true,
    input.chatTools,
    input.senderTools,
  ]);
  let byKey = policies.get(config);
  if (!byKey) policies.set(config, (byKey = new LRUCache({ max: MAX_PER_CONFIG })));
  let policy = byKey.get(key);
  if (!policy) {
    policy = resolveEffectiveTools({ ...input, config, ownerOnlyTools: tools.filter((t) => t.ownerOnly).map((t) => t.name), available: tools.map((t) => t.name) });
    byKey.set(key, policy);
  }
  return policy;
}

/** The tools a policy leaves (minus those a read-only sandbox withholds), their schemas for one API, and their prompt lines. */
export interface TurnTools {
  tools: AgentTool[];
  specs: ToolSpec[];
  summaries: { name: string; summary: string }[];
}

const turnToolSets = new WeakMap<EffectiveTools, Map<string, TurnTools>>();

export function turnToolsFor(
  policy: EffectiveTools,
  allTools: readonly AgentTool[],
  withheld: readonly string[] | undefined,
  model: { api: ModelApi; provider: string },
  summary: (description: string) => string,
): TurnTools {
  const key = `${model.api}\0${model.provider}\0${withheld?.join(",") ?? ""}`;
  let byKey = turnToolSets.get(policy);
  if (!byKey) turnToolSets.set(policy, (byKey = new Map()));
  let set = byKey.get(key);
  if (!set) {
    const allowed = new Set(policy.allowed);
    for (const name of withheld ?? []) allowed.delete(name);
    const tools = allTools.filter((t) => allowed.has(t.name));
    set = {
      tools,
      specs: tools.map((t) => toolSpecFor(t, model.api, model.provider)),
      summaries: tools.map((t) => ({ name: t.name, summary: summary(t.description) })),
    };
    byKey.set(key, set);
  }
  return set;
}

const keptSkills = new WeakMap<readonly DiscoveredSkill[], WeakMap<object, Map<string, { env: NodeJS.ProcessEnv; kept: DiscoveredSkill[] }>>>();

/** The agent's skills that pass their gates (allowlist, requirements), per discovered list, config and environment. */
export function keptSkillsFor(skills: readonly DiscoveredSkill[], config: OpenClawConfig, agentId: string, env: NodeJS.ProcessEnv): DiscoveredSkill[] {
  let byConfig = keptSkills.get(skills);
  if (!byConfig) keptSkills.set(skills, (byConfig = new WeakMap()));
  let byAgent = byConfig.get(config);
  if (!byAgent) byConfig.set(config, (byAgent = new Map()));
  const known = byAgent.get(agentId);
  if (known?.env === env) return known.kept;
  const kept = filterSkills(skills, { env, config, ...skillSettings(config), allowlist: resolveSkillAllowlist(config, agentId) }).kept;
  byAgent.set(agentId, { env, kept });
  return kept;
}
