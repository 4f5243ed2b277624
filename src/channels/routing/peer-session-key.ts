import type { OpenClawConfig } from "../../config/index.js";
import { buildChannelSessionKey, type DmScope } from "../../sessions/keys/index.js";
import type { ChannelChatKind } from "../types.js";

/** One chat peer as its messages' session is keyed: the DM sender, or the group or channel. */
export interface PeerSessionInput {
  agentId: string;
  channel: string;
  accountId: string;
  chatType: ChannelChatKind;
  peerId: string;
  threadId?: string;
}

/**
 * The session a chat peer's messages run in under the configured `session.dmScope`,
 * `session.groupScope`, `session.identityLinks` and `session.mainKey`: the inbound dispatcher keys channel messages with it, and `agent` with `to`
 * finds the same session with it.
 */
export function peerSessionKey(config: OpenClawConfig, input: PeerSessionInput): string {
  return buildChannelSessionKey({
    agentId: input.agentId,
    channel: input.channel,
    accountId: input.accountId,
    chatType: input.chatType,
    peerId: input.peerId,
    ...(input.threadId ? { threadId: input.threadId } : {}),
    dmScope: (config.session.dmScope ?? "main") as DmScope,
    mainKey: config.session.mainKey,
    ...(config.session.groupScope ? { groupScope: config.session.groupScope } : {}),
    ...(config.session.identityLinks ? { identityLinks: config.session.identityLinks } : {}),
  });
}
