import type { ConfigIssue } from "./errors.js";
import { formatKeyPath } from "./key-path.js";
import type { RawOpenClawConfig } from "./schema/index.js";

/** Keys of a `hooks.mappings[]` entry that shape an agent turn; a wake runs none. */
const AGENT_ONLY_KEYS = ["name", "sessionMode", "deliver", "channel", "to", "model"] as const;

/** A `wake` mapping queues its text for the heartbeat: keys that only an agent turn has are refused. */
export function hookMappingIssues(config: RawOpenClawConfig): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  config.hooks?.mappings?.forEach((mapping, index) => {
    if (mapping.action === "agent" && mapping.sessionMode === "persistent" && !mapping.sessionKey && !config.hooks?.defaultSessionKey) {
      issues.push({
        path: formatKeyPath(["hooks", "mappings", index, "sessionMode"]),
        message: 'a "persistent" mapping needs a session to keep: give it a sessionKey, or set hooks.defaultSessionKey',
      });
    }
    if (mapping.action !== "wake") return;
    for (const key of AGENT_ONLY_KEYS) {
      if (mapping[key] === undefined) continue;
      issues.push({
        path: formatKeyPath(["hooks", "mappings", index, key]),
        message: 'only a mapping with action "agent" takes it (a "wake" mapping hands its text to the heartbeat as a system event, it runs no turn of its own)',
      });
    }
  });
  return issues;
}

/**
 * OpenClaw's own mapping examples carry `wakeMode` on `agent` mappings, where it has no effect
 * here: the config still loads, and the warning says the key is ignored. A mapping that names an
 * agent `hooks.allowedAgentIds` leaves out loads too, with a warning that its requests are refused.
 */
export function hookMappingWarnings(config: RawOpenClawConfig): string[] {
  const warnings: string[] = [];
  const allowed = config.hooks?.allowedAgentIds?.map((id) => id.trim().toLowerCase());
  config.hooks?.mappings?.forEach((mapping, index) => {
    const agentId = mapping.agentId?.trim().toLowerCase();
    if (allowed && agentId && !allowed.includes("*") && !allowed.includes(agentId)) {
      const path = formatKeyPath(["hooks", "mappings", index, "agentId"]);
      warnings.push(`${path} "${agentId}" is not in hooks.allowedAgentIds, so every request to this mapping is refused (add it there, or name an allowed agent)`);
    }
    if (mapping.action !== "agent" || mapping.wakeMode === undefined) return;
    const path = formatKeyPath(["hooks", "mappings", index, "wakeMode"]);
    warnings.push(`${path} is ignored: an "agent" mapping runs its turn in its own session and wakes no heartbeat (wakeMode is for action "wake")`);
  });
  return warnings;
}
