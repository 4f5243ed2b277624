import { channelBlocks } from "./channel-blocks.js";
import type { ConfigIssue } from "./errors.js";
import { formatKeyPath, isPlainObject, type KeyPathSegment } from "./key-path.js";
import type { RawOpenClawConfig } from "./schema/index.js";

/** The agents the config defines (`agents.entries` keys, `agents.list` ids), lower-cased; `main` when it defines none. */
function configuredAgentIds(config: RawOpenClawConfig): string[] {
  const ids = [...(config.agents?.list ?? []).map((entry) => entry.id), ...Object.keys(config.agents?.entries ?? {})].map((id) => id.trim().toLowerCase());
  return ids.length > 0 ? [...new Set(ids)] : ["main"];
}

/** Every `agentId` of a chat entry in a channel block (or account): Telegram groups and topics, Discord guild channels, Slack channels. */
function chatEntryAgentIds(block: Record<string, unknown>, path: KeyPathSegment[], out: { path: KeyPathSegment[]; agentId: unknown }[]): void {
  const entries = (map: unknown, at: KeyPathSegment[], nested?: string) => {
    if (!isPlainObject(map)) return;
    for (const [id, entry] of Object.entries(map)) {
      if (!isPlainObject(entry)) continue;
      if (entry.agentId !== undefined) out.push({ path: [...at, id, "agentId"], agentId: entry.agentId });
      if (nested) entries(entry[nested], [...at, id, nested]);
    }
  };
  entries(block.groups, [...path, "groups"], "topics");
  entries(block.channels, [...path, "channels"]);
  if (isPlainObject(block.guilds)) {
    for (const [guildId, guild] of Object.entries(block.guilds)) {
      if (isPlainObject(guild)) entries(guild.channels, [...path, "guilds", guildId, "channels"]);
    }
  }
}

/** A key that sends chats or webhook turns to an agent: its key path and the agent id it holds. */
export interface AgentReference {
  path: string;
  agentId: string;
}

/**
 * Every key that sends chats or webhook turns to one of the config's agents: route bindings, chat
 * entries' `agentId` in channel blocks, hook mappings and the heartbeat's owner. ACP bindings name
 * ACP agents and are not among them.
 */
export function agentReferences(config: Pick<RawOpenClawConfig, "bindings" | "channels" | "hooks" | "agents">): AgentReference[] {
  const refs: { path: KeyPathSegment[]; agentId: unknown }[] = [];
  config.bindings?.forEach((binding, index) => {
    if (binding.type !== "acp") refs.push({ path: ["bindings", index, "agentId"], agentId: binding.agentId });
  });
  for (const { path, block } of channelBlocks(config.channels)) chatEntryAgentIds(block, path, refs);
  config.hooks?.mappings?.forEach((mapping, index) => refs.push({ path: ["hooks", "mappings", index, "agentId"], agentId: mapping.agentId }));
  if (config.agents?.defaults?.heartbeat?.agentId !== undefined)
    refs.push({ path: ["agents", "defaults", "heartbeat", "agentId"], agentId: config.agents.defaults.heartbeat.agentId });
  return refs.flatMap(({ path, agentId }) => (typeof agentId === "string" ? [{ path: formatKeyPath(path), agentId }] : []));
}

/**
 * Config that sends chats or webhook turns to an agent must name one the config defines: an
 * unknown id would start sessions, files and turns for an agent nobody configured (as the
 * methods that take an agentId refuse it).
 */
export function checkAgentReferences(config: RawOpenClawConfig): ConfigIssue[] {
  const known = configuredAgentIds(config);
  const issues: ConfigIssue[] = [];
  for (const { path, agentId } of agentReferences(config)) {
    if (known.includes(agentId.trim().toLowerCase())) continue;
    issues.push({ path, message: `unknown agent "${agentId}"; known agents: ${known.join(", ")} (define it under agents.entries to use it)` });
  }
  return issues;
}
