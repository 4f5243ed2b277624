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

export type RouteMatch = "peer" | "guild+roles" | "guild" | "team" | "account" | "channel" | "default";

/**
 * Which agent handles a channel conversation (see docs/channels.md, "Which agent and which
 * session"). The most specific binding wins, whatever its position: exact peer → guild with roles →
 * guild → team → account → channel → the default agent. Among bindings of the same rank the first
 * listed wins. A binding that names an account only matches that account.
 */
export function resolveAgentRoute(bindings: readonly Binding[] | undefined, input: RouteInput, defaultAgentId: string): { agentId: string; matchedBy: RouteMatch } {
  const candidates = (bindings ?? []).filter(
    (b) => b.type !== "acp" && sameId(b.match.channel, input.channel) && (!b.match.accountId || sameId(b.match.accountId, input.accountId)),
  );
  const ranks: [RouteMatch, (b: Binding) => boolean][] = [
    ["peer", (b) => Boolean(b.match.peer) && peerMatches(b.match.peer!, input)],
    [
      "guild+roles",
      (b) =>
        !b.match.peer &&
        Boolean(b.match.guildId && b.match.roles?.length) &&
        sameId(b.match.guildId!, input.guildId) &&
        b.match.roles!.some((r) => input.memberRoleIds?.includes(r)),
    ],
    ["guild", (b) => !b.match.peer && !b.match.roles?.length && Boolean(b.match.guildId) && sameId(b.match.guildId!, input.guildId)],
    ["team", (b) => !b.match.peer && !b.match.guildId && Boolean(b.match.teamId) && sameId(b.match.teamId!, input.teamId)],
    ["account", (b) => isChannelWide(b) && Boolean(b.match.accountId)],
    ["channel", (b) => isChannelWide(b) && !b.match.accountId],
  ];
  for (const [rank, test] of ranks) {
    const hit = candidates.find(test);
    if (hit) return { agentId: hit.agentId.toLowerCase(), matchedBy: rank };
  }
  return { agentId: defaultAgentId, matchedBy: "default" };
}

function isChannelWide(b: Binding): boolean {
  return !b.match.peer && !b.match.guildId && !b.match.teamId && !b.match.roles?.length;
}

export function peerMatches(peer: { kind?: ChannelChatKind; id: string }, input: RouteInput): boolean {
  if (peer.kind && peer.kind !== input.chatType) return false;
  return sameId(peer.id, input.peerId) || (input.parentPeerId !== undefined && sameId(peer.id, input.parentPeerId));
}

export function sameId(a: string, b: string | undefined): boolean {
  return b !== undefined && a.trim().toLowerCase() === b.trim().toLowerCase();
}
