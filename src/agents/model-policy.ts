import type { OpenClawConfig } from "../config/index.js";
import { parseModelRef } from "../models/index.js";
import { agentModelChoice, findAgentEntry, resolveAgentConfig } from "./agent-config.js";

/** The allowlist that applies to one agent, and the config key it came from. */
export interface ModelPolicy {
  allow: readonly string[];
  keyPath: string;
}

/**
 * The agent's `modelPolicy.allow` when it sets one (non-empty), else `agents.defaults.modelPolicy.allow`
 * when that is non-empty, else none: any model may be chosen.
 */
export function resolveModelPolicy(config: OpenClawConfig, agentId: string): ModelPolicy | undefined {
  const entry = findAgentEntry(config, agentId);
  const own = entry?.modelPolicy?.allow;
  if (own && own.length > 0) return { allow: own, keyPath: `${entryKeyPath(config, agentId, entry)}.modelPolicy.allow` };
  const defaults = config.agents?.defaults?.modelPolicy?.allow;
  if (defaults && defaults.length > 0) return { allow: defaults, keyPath: "agents.defaults.modelPolicy.allow" };
  return undefined;
}

/** Where the agent's entry sits in the file: `agents.entries.<id>` or `agents.list[<n>]`. */
function entryKeyPath(config: OpenClawConfig, agentId: string, entry: unknown): string {
  const index = config.agents?.list?.indexOf(entry as never) ?? -1;
  return index >= 0 ? `agents.list[${index}]` : `agents.entries.${agentId}`;
}

/** True when `ref` is listed exactly or under a `provider/*` (or deeper `a/b/*`) prefix of the list. */
export function refMatchesAllow(allow: readonly string[], ref: string): boolean {
  if (allow.includes(ref)) return true;
  for (let slash = ref.indexOf("/"); slash > 0; slash = ref.indexOf("/", slash + 1)) {
    if (allow.includes(`${ref.slice(0, slash + 1)}*`)) return true;
  }
  return false;
}

/**
 * Whether an agent may run on `ref` (a canonical `provider/model`): no policy, a match in its
 * allowlist, or the agent's own configured primary or fallback. A refusal names the ref, the key,
 * what it allows and the fix.
 */
export function modelAllowed(config: OpenClawConfig, agentId: string, ref: string): { ok: true } | { ok: false; message: string } {
  const policy = resolveModelPolicy(config, agentId);
  if (!policy || refMatchesAllow(policy.allow, ref)) return { ok: true };
  const choice = agentModelChoice(config, resolveAgentConfig(config, agentId));
  const own = [choice.primary, ...choice.fallbacks].flatMap((raw) => {
    const parsed = raw ? parseModelRef(raw, config) : undefined;
    return parsed?.ok ? [`${parsed.parts.provider}/${parsed.parts.id}`] : [];
  });
  if (own.includes(ref)) return { ok: true };
  const provider = ref.slice(0, ref.indexOf("/"));
  return {
    ok: false,
    message: `Model "${ref}" is not allowed for agent "${agentId}" by ${policy.keyPath} (allows: ${policy.allow.join(", ")}). Add "${ref}" or "${provider}/*" to ${policy.keyPath}, or pick an allowed model (/model list).`,
  };
}
