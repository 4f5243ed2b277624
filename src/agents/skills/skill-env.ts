import type { SkillEntryConfig } from "./filter-skills.js";
import { isSuppliedValue } from "./filter-skills.js";
import type { DiscoveredSkill } from "./skill-types.js";

/**
 * The variables a turn's skills bring to its `exec` commands on the host: each offered skill's
 * `skills.entries.<key>.env`, and its `apiKey` under the variable the skill names as `primaryEnv`.
 * A variable the gateway's own environment sets keeps that value (OpenClaw fills only what is not
 * set), and the first skill in precedence order wins a name two skills give. These names pass the
 * exec environment's secret filter: the user gave them to the skill for its commands.
 * Undefined when no offered skill brings any.
 */
export function skillExecEnv(
  skills: readonly DiscoveredSkill[],
  entries: Readonly<Record<string, SkillEntryConfig>> | undefined,
  gatewayEnv: NodeJS.ProcessEnv,
): Readonly<Record<string, string>> | undefined {
  if (!entries) return undefined;
  let out: Record<string, string> | undefined;
  const give = (name: string, value: string | undefined) => {
    if (!isSuppliedValue(value) || (out && name in out)) return;
    out ??= {};
    const own = gatewayEnv[name];
    out[name] = own !== undefined && own.trim() !== "" ? own : value;
  };
  for (const skill of skills) {
    const entry = entries[skill.gating.skillKey ?? skill.name];
    if (!entry || entry.enabled === false) continue;
    for (const [name, value] of Object.entries(entry.env ?? {})) give(name, value);
    if (skill.gating.primaryEnv) give(skill.gating.primaryEnv, entry.apiKey);
  }
  return out;
}
