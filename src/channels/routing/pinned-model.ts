import type { OpenClawConfig } from "../../config/index.js";

/** What a pinned model is looked up by. */
export interface PinnedModelChat {
  chatType: string;
  chatId: string;
  threadId?: string;
  senderId: string;
}

/**
 * The model `channels.modelByChannel.<channel>` pins to a message's chat, as OpenClaw keys it: in
 * a group or channel its topic or thread (`<chatId>:topic:<threadId>`) before the chat itself; in
 * a DM the sender (`user:<id>` on Slack, the bare user id elsewhere). A session's own choice
 * (`/model`) still wins over it.
 */
export function pinnedModelFor(config: OpenClawConfig, channel: string, chat: PinnedModelChat): string | undefined {
  const byChannel = config.channels?.modelByChannel;
  const pinned = { telegram: byChannel?.telegram, discord: byChannel?.discord, slack: byChannel?.slack }[channel];
  if (!pinned) return undefined;
  const keys =
    chat.chatType === "direct"
      ? [...(channel === "slack" ? [`user:${chat.senderId}`] : []), chat.senderId]
      : [...(chat.threadId ? [`${chat.chatId}:topic:${chat.threadId}`] : []), chat.chatId];
  for (const key of keys) if (pinned[key]) return pinned[key];
  return undefined;
}
