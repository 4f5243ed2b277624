import { OWNER_ONLY_TOOLS } from "./owner-only-tools.js";
import {
  findAgentTools,
  findKeyedBlock,
  findProviderBlock,
  readPolicyBlock,
  readRecord,
  readStringList,
  readToolsConfig,
  type ConfigRecord,
  type LocatedBlock,
} from "./policy-config.js";
import { PolicyRecorder, type LocatedList } from "./policy-recorder.js";
import { SANDBOX_DEFAULT_ALLOW, SANDBOX_DEFAULT_DENY } from "./sandbox-tool-defaults.js";
import { maySpawnAtDepth, SUBAGENT_DENIED_TOOLS, SUBAGENT_LEAF_DENIED_TOOLS } from "./subagent-tool-limits.js";
import { compileToolList } from "./tool-matcher.js";
import { isToolProfileName, profileAllowList } from "./tool-profiles.js";
import type { EffectiveTools, LocatedToolRule, PolicyStage, ToolPolicyInput } from "./types.js";

/**
 * Which tools this agent may use for this request. Layers, in order:
 *   1. profile   `agents…tools.profile`, else `tools.profile`
 *   2. global    `tools.allow` / `tools.deny`
 *   3. agent     `agents.entries.<id>.tools` or `agents.list[id=…].tools` allow / deny
 *   4. owner     exec, process, gateway, cron (+ `ownerOnlyTools`) for non-owner senders; `message`
 *                stays when the run replies through it (the tool then writes to that conversation only)
 *   5. channel   `tools.byChannel.<channel>` allow / deny
 *      chat      group chat messages only: the group's, channel's or topic's `tools` / `toolsBySender`
 *      sender    chat messages only: `tools.toolsBySender` or the agent's, for the channel sender
 *   6. provider  `tools.byProvider.<provider/model | provider>` profile, allow / deny, then the
 *                agent's own `tools.byProvider` the same way, then `tools.exec.applyPatch`
 *   7. sandbox   when sandboxed: `agents…tools.sandbox.tools`, else `tools.sandbox.tools`, else
 *                the built-in sandbox lists
 *   8. subagent  sub-agent sessions only: the built-in limits of subagent-tool-limits.ts (leaves lose more)
 *   9. run       only when the run brings its own allow or deny list (a scheduled job's `payload.tools`,
 *                an `agent` request's `disableMessageTool`)
 * Each layer only removes from what the previous one left, so the result is the intersection
 * of every layer; the order matters only for which layer an explanation blames.
 */
export function resolveEffectiveTools(input: ToolPolicyInput): EffectiveTools {
  const tools = readToolsConfig(input.config);
  const agent = findAgentTools(input.config, input.agentId);
  const recorder = new PolicyRecorder(dedupe(input.available));

  applyProfileLayer(recorder, tools, agent);
  applyScope(recorder, "global", "tools", readPolicyBlock(tools));
  if (agent) applyScope(recorder, "agent", agent.path, readPolicyBlock(agent.tools));
  else recorder.unchanged("agent", `agents.entries.${input.agentId}.tools`, "no per-agent tool policy");
  applyOwnerLayer(recorder, input);
  applyChannelLayer(recorder, tools, input.channel);
  if (input.chatTools) applyRuleLayer(recorder, "chat", input.chatTools);
  if (input.senderTools) applyRuleLayer(recorder, "sender", input.senderTools);
  applyProviderLayer(recorder, tools, agent, input);
  applyPatchSettings(recorder, tools, input);
  applySandboxLayer(recorder, tools, agent, input.sandboxed === true);
  applySubagentLayer(recorder, input);
  if (input.runAllow || input.runDeny) {
    const located = (list: { source: string; entries: string[] } | undefined) => list && { path: list.source, entries: list.entries, name: list.source };
    const source = [input.runAllow?.source, input.runDeny?.source].filter((s) => s !== undefined).join(", ");
    recorder.applyAllowDeny("run", source, located(input.runAllow), located(input.runDeny));
  }

  return {
    context: {
      agentId: input.agentId,
      ...(input.provider ? { provider: input.provider } : {}),
      ...(input.modelId ? { modelId: input.modelId } : {}),
      ...(input.channel ? { channel: input.channel } : {}),
      senderIsOwner: input.senderIsOwner,
      sandboxed: input.sandboxed === true,
    },
    allowed: recorder.current,
    steps: recorder.steps,
    removed: recorder.removed,
    warnings: recorder.warnings,
  };
}

function applyProfileLayer(recorder: PolicyRecorder, tools: ConfigRecord | undefined, agent: { path: string; tools: ConfigRecord } | undefined): void {
  // The agent's profile replaces the global one rather than stacking on it: an agent set to
  // "coding" under a global "messaging" gets coding tools (later layers still narrow). Its
  // `alsoAllow` likewise replaces `tools.alsoAllow`: the tools added to whichever profile applies.
  const agentBlock = agent ? readPolicyBlock(agent.tools) : undefined;
  const globalBlock = readPolicyBlock(tools);
  const source = agentBlock?.profile ? `${agent?.path}.profile` : "tools.profile";
  const alsoAllow = agentBlock?.alsoAllow ?? globalBlock.alsoAllow;
  applyProfile(recorder, "profile", source, agentBlock?.profile ?? globalBlock.profile, alsoAllow);
}

function applyProfile(recorder: PolicyRecorder, stage: PolicyStage, source: string, profile: string | undefined, alsoAllow: readonly string[] = []): void {
  if (!profile) {
    recorder.unchanged(stage, source, "no profile (no restriction)");
    return;
  }
  const name = profile.toLowerCase();
  if (!isToolProfileName(name)) {
    recorder.warn(`${source}: unknown profile "${profile}" ignored (expected minimal, coding, messaging or full)`);
    recorder.unchanged(stage, source, `unknown profile "${profile}" (ignored)`);
    return;
  }
  const allow = profileAllowList(name);
  if (!allow) {
    recorder.unchanged(stage, source, `profile "${name}" (no restriction)`);
    return;
  }
  const named = alsoAllow.length > 0 ? `profile "${name}" with alsoAllow` : `profile "${name}"`;
  recorder.applyAllowDeny(stage, source, { path: source, entries: [...allow, ...alsoAllow], name: named }, undefined);
}

/** A scope's allow/deny, each list located at its own key for precise blame. */
function applyScope(recorder: PolicyRecorder, stage: PolicyStage, path: string, block: LocatedBlock["block"]): void {
  const allow: LocatedList | undefined = block.allow ? { path: `${path}.allow`, entries: block.allow } : undefined;
  const deny: LocatedList | undefined = block.deny ? { path: `${path}.deny`, entries: block.deny } : undefined;
  recorder.applyAllowDeny(stage, path, allow, deny);
}

function applyOwnerLayer(recorder: PolicyRecorder, input: ToolPolicyInput): void {
  const source = "owner-only tools";
  if (input.senderIsOwner) {
    recorder.unchanged("owner", source, "sender is the owner");
    return;
  }
  const names = new Set([...OWNER_ONLY_TOOLS, ...input.ownerOnlyTools]);
  if (input.repliesThroughMessageTool) names.delete("message");
  const ownerOnly = compileToolList([...names]);
  recorder.removeWhere("owner", source, `sender is not the owner; removes ${ownerOnly.entries.join(", ")}`, (tool) =>
    ownerOnly.matchOf(tool) !== undefined ? { layer: source, reason: "only the owner may use it; this sender is not the owner" } : undefined,
  );
}

function applyChannelLayer(recorder: PolicyRecorder, tools: ConfigRecord | undefined, channel: string | undefined): void {
  const found = findKeyedBlock(readRecord(tools, "byChannel"), "tools.byChannel", channel);
  if (!found) {
    recorder.unchanged("channel", channel ? `tools.byChannel.${channel}` : "tools.byChannel", channel ? "no policy for this channel" : "no channel given");
    return;
  }
  applyScope(recorder, "channel", found.path, found.block);
}

/** A located rule: `allow` with `alsoAllow` added narrows (only `alsoAllow` narrows nothing), `deny` removes. */
function applyRuleLayer(recorder: PolicyRecorder, stage: PolicyStage, rule: LocatedToolRule): void {
  const allow = rule.allow ? [...rule.allow, ...(rule.alsoAllow ?? [])] : undefined;
  recorder.applyAllowDeny(stage, rule.source, allow && { path: `${rule.source}.allow`, entries: allow }, rule.deny && { path: `${rule.source}.deny`, entries: rule.deny });
}

function applyProviderLayer(recorder: PolicyRecorder, tools: ConfigRecord | undefined, agent: { path: string; tools: ConfigRecord } | undefined, input: ToolPolicyInput): void {
  const scopes: LocatedBlock[] = [];
  const global = findProviderBlock(readRecord(tools, "byProvider"), "tools.byProvider", input.provider, input.modelId);
  if (global) scopes.push(global);
  const own = agent && findProviderBlock(readRecord(agent.tools, "byProvider"), `${agent.path}.byProvider`, input.provider, input.modelId);
  if (own) scopes.push(own);
  if (scopes.length === 0) {
    const detail = input.provider || input.modelId ? "no policy for this provider or model" : "no provider given";
    recorder.unchanged("provider", "tools.byProvider", detail);
    return;
  }
  for (const scope of scopes) {
    // A provider entry may carry its own profile; it narrows like any other allow list.
    if (scope.block.profile) applyProfile(recorder, "provider", `${scope.path}.profile`, scope.block.profile);
    if (scope.block.allow || scope.block.deny || !scope.block.profile) applyScope(recorder, "provider", scope.path, scope.block);
  }
}

/**
 * `tools.exec.applyPatch`: `enabled: false` removes apply_patch; `allowModels` keeps it only for
 * the models it names, by id (`gpt-5.4`) or by ref (`openai/gpt-5.4`). Part of the provider layer:
 * like `tools.byProvider`, it depends on the turn's model.
 */
function applyPatchSettings(recorder: PolicyRecorder, tools: ConfigRecord | undefined, input: ToolPolicyInput): void {
  const settings = readRecord(readRecord(tools, "exec"), "applyPatch");
  const source = "tools.exec.applyPatch";
  if (settings?.enabled === false) {
    recorder.removeWhere("provider", `${source}.enabled`, "apply_patch is off", (tool) =>
      tool === "apply_patch" ? { layer: `${source}.enabled`, reason: "tools.exec.applyPatch.enabled is false" } : undefined,
    );
    return;
  }
  const allowModels = readStringList(settings?.allowModels);
  if (!allowModels || allowModels.length === 0) return;
  const ref = input.provider && input.modelId ? `${input.provider}/${input.modelId}` : undefined;
  const allowed = allowModels.some((entry) => entry === input.modelId || entry === ref);
  if (allowed) return;
  recorder.removeWhere("provider", `${source}.allowModels`, `apply_patch only for ${allowModels.join(", ")}`, (tool) =>
    tool === "apply_patch" ? { layer: `${source}.allowModels`, reason: `the turn's model (${ref ?? "unknown"}) is not in tools.exec.applyPatch.allowModels` } : undefined,
  );
}

function applySandboxLayer(recorder: PolicyRecorder, tools: ConfigRecord | undefined, agent: { path: string; tools: ConfigRecord } | undefined, sandboxed: boolean): void {
  if (!sandboxed) {
    recorder.unchanged("sandbox", "tools.sandbox.tools", "not sandboxed");
    return;
  }
  const agentPath = agent ? `${agent.path}.sandbox.tools` : undefined;
  const agentLists = readRecord(readRecord(agent?.tools, "sandbox"), "tools");
  const globalLists = readRecord(readRecord(tools, "sandbox"), "tools");
  // Each list is picked on its own: the agent's value replaces the global one, which replaces
  // the built-in default.
  const pick = (key: "allow" | "deny", fallback: readonly string[]): LocatedList => {
    const fromAgent = readStringList(agentLists?.[key]);
    if (fromAgent && agentPath) return { path: `${agentPath}.${key}`, entries: fromAgent };
    const fromGlobal = readStringList(globalLists?.[key]);
    if (fromGlobal) return { path: `tools.sandbox.tools.${key}`, entries: fromGlobal };
    return { path: `sandbox default ${key} list`, entries: fallback, ...(key === "allow" ? { name: "the sandbox default allow list" } : {}) };
  };
  recorder.applyAllowDeny("sandbox", "tools.sandbox.tools", pick("allow", SANDBOX_DEFAULT_ALLOW), pick("deny", SANDBOX_DEFAULT_DENY));
}

function applySubagentLayer(recorder: PolicyRecorder, input: ToolPolicyInput): void {
  // Recorded only for sub-agents: a main session's explanation stays the seven layers it always had.
  const depth = input.spawnDepth ?? 0;
  if (depth <= 0) return;
  const source = "sub-agent limits";
  const subagents = readRecord(readRecord(readRecord(input.config, "agents"), "defaults"), "subagents");
  const maxSpawnDepth = typeof subagents?.maxSpawnDepth === "number" ? subagents.maxSpawnDepth : undefined;
  const leaf = !maySpawnAtDepth(depth, maxSpawnDepth);
  const denied = compileToolList(leaf ? [...SUBAGENT_DENIED_TOOLS, ...SUBAGENT_LEAF_DENIED_TOOLS] : SUBAGENT_DENIED_TOOLS);
  const role = leaf ? `leaf sub-agent at depth ${depth}` : `orchestrator sub-agent at depth ${depth}`;
  recorder.removeWhere("subagent", source, `${role}; removes ${denied.entries.join(", ")}`, (tool) =>
    denied.matchOf(tool) !== undefined ? { layer: source, reason: `not available to a ${role}` } : undefined,
  );
}

function dedupe(names: readonly string[]): string[] {
  return [...new Set(names)];
}
