import type { RawOpenClawConfig } from "../../config/index.js";
import { normalizeAgentId } from "../agent-config.js";

/** One entry of the config's `bindings` list, as the file holds it. */
export type Binding = NonNullable<RawOpenClawConfig["bindings"]>[number];

/** Route bindings choose the agent for a chat; `type: acp` ones bind a chat to an ACP agent instead and are never edited here. */
export function isRouteBinding(binding: Binding): boolean {
  return binding.type !== "acp";
}

/** A binding's match as one line: `telegram accountId=ops peer=group:-100123`. */
export function describeBinding({ match }: Binding): string {
  const parts = [match.channel];
  if (match.accountId) parts.push(`accountId=${match.accountId}`);
  if (match.peer) parts.push(`peer=${match.peer.kind ? `${match.peer.kind}:` : ""}${match.peer.id}`);
  if (match.guildId) parts.push(`guild=${match.guildId}`);
  if (match.teamId) parts.push(`team=${match.teamId}`);
  if (match.roles?.length) parts.push(`roles=${match.roles.join(",")}`);
  return parts.join(" ");
}

/** Everything a binding matches on but its account: channel, peer, guild, team and roles (in any order). */
export function scopeKey({ match }: Binding): string {
  const roles = [...new Set((match.roles ?? []).map((r) => r.trim()))].sort();
  return JSON.stringify([match.channel.trim().toLowerCase(), match.peer?.kind ?? "", match.peer?.id ?? "", match.guildId ?? "", match.teamId ?? "", roles]);
}

/**
 * The chats a binding matches, as a key: two bindings with the same key match the same chats. A
 * binding without `accountId` matches the account named `default`, so it has that account's key.
 */
export function matchKey(binding: Binding): string {
  return JSON.stringify([scopeKey(binding), binding.match.accountId?.trim().toLowerCase() || "default"]);
}

/** The agent a binding sends chats to, its id read as the config reads agent ids. */
export function ownerOf(binding: Binding): string {
  return normalizeAgentId(binding.agentId);
}
