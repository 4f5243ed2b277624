import type { ChannelChatKind } from "../types.js";

export interface Binding {
  /** `acp` bindings bind a chat to an external ACP agent (acp-binding.ts); they never route to an agent. */
  type?: "route" | "acp";
  agentId: string;
  match: {
    channel: string;
    accountId?: string;
    peer?: { kind?: ChannelChatKind; id: string };
    guildId?: string;
    teamId?: string;
    roles?: string[];
  };
}

export interface RouteInput {
  channel: string;
  accountId: string;
  chatType: ChannelChatKind;
  /** The DM sender, or the group/channel id. */
  peerId: string;
  /** For thread messages: the parent chat, so a binding on the channel also covers its threads. */
  parentPeerId?: string;
  guildId?: string;
  teamId?: string;
  memberRoleIds?: string[];
}

export type RouteMatch = "peer" | "peer-parent" | "peer-wildcard" | "guild+roles" | "guild" | "team" | "account" | "channel" | "default";

/**
 * Which agent handles a channel conversation (see docs/channels.md, "Which agent and which
 * session"). A binding matches only when every key of its `match` does (peer, guildId, teamId,
 * roles, accountId); its rank is its most specific key: exact peer → the parent chat of a thread →
 * any peer (`id: "*"`) → guild with roles → guild → team → account (one account, named or the
 * `default` one when `accountId` is absent) → channel (`accountId: "*"`) → the default agent.
 * The best rank wins, whatever the position; among bindings of the same rank the first listed wins.
 */
export function resolveAgentRoute(bindings: readonly Binding[] | undefined, input: RouteInput, defaultAgentId: string): { agentId: string; matchedBy: RouteMatch } {
  let best: { binding: Binding; rank: number } | undefined;
  for (const binding of bindings ?? []) {
    if (binding.type === "acp" || !matchesAll(binding, input)) continue;
    const rank = RANKS.indexOf(rankOf(binding, input));
    if (!best || rank < best.rank) best = { binding, rank };
  }
  return best ? { agentId: best.binding.agentId.toLowerCase(), matchedBy: RANKS[best.rank]! } : { agentId: defaultAgentId, matchedBy: "default" };
}

const RANKS: readonly RouteMatch[] = ["peer", "peer-parent", "peer-wildcard", "guild+roles", "guild", "team", "account", "channel"];

function rankOf({ match }: Binding, input: RouteInput): RouteMatch {
  if (match.peer) return isAnyPeer(match.peer) ? "peer-wildcard" : sameId(match.peer.id, input.peerId) ? "peer" : "peer-parent";
  if (match.guildId) return match.roles?.length ? "guild+roles" : "guild";
  if (match.teamId) return "team";
  return isAnyAccount(match.accountId) ? "channel" : "account";
}

function matchesAll({ match }: Binding, input: RouteInput): boolean {
  return (
    sameId(match.channel, input.channel) &&
    accountMatches(match.accountId, input.accountId) &&
    (!match.peer || (isAnyPeer(match.peer) ? !match.peer.kind || match.peer.kind === input.chatType : peerMatches(match.peer, input))) &&
    (!match.guildId || sameId(match.guildId, input.guildId)) &&
    (!match.teamId || sameId(match.teamId, input.teamId)) &&
    (!match.roles?.length || match.roles.some((role) => input.memberRoleIds?.includes(role)))
  );
}

/**
 * A binding's `accountId`: `"*"` is every account of the channel; absent is the account named
 * `default` only (a channel block without `accounts` is that one account), as in OpenClaw, where
 * `defaultAccount` does not take part in routing.
 */
export function accountMatches(pattern: string | undefined, accountId: string): boolean {
  if (isAnyAccount(pattern)) return true;
  return sameId(pattern?.trim() || DEFAULT_ACCOUNT_ID, accountId);
}

/** The account a channel block without `accounts` is, and the one a binding without `accountId` matches. */
const DEFAULT_ACCOUNT_ID = "default";

/** A route binding's peer id `"*"` is every peer (of its kind, when it names one); ACP bindings bind one chat and never take it. */
function isAnyPeer(peer: { id: string }): boolean {
  return peer.id.trim() === "*";
}

/** `accountId: "*"`: every account of the channel. */
export function isAnyAccount(pattern: string | undefined): boolean {
  return pattern?.trim() === "*";
}

export function peerMatches(peer: { kind?: ChannelChatKind; id: string }, input: RouteInput): boolean {
  if (peer.kind && peer.kind !== input.chatType) return false;
  return sameId(peer.id, input.peerId) || (input.parentPeerId !== undefined && sameId(peer.id, input.parentPeerId));
}

export function sameId(a: string, b: string | undefined): boolean {
  return b !== undefined && a.trim().toLowerCase() === b.trim().toLowerCase();
}
