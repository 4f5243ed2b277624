import type { ToolServices } from "../types.js";

/** What the `message` tool asks of the gateway's channels. */
export interface ChannelMessageRequest {
  message: string;
  /** Absent: the chat the session's conversation lives in. */
  to?: string;
  channel?: string;
  accountId?: string;
  threadId?: string;
  /** The calling session (its last route is the default target). */
  sessionKey?: string;
}

export interface ChannelMessageResult {
  channel: string;
  accountId: string;
  chatId: string;
  messageIds: string[];
}

/** Present in `services.channelMessenger` when the gateway runs channels. */
export interface ChannelMessenger {
  send(request: ChannelMessageRequest): Promise<ChannelMessageResult>;
}

export function getChannelMessenger(services: ToolServices): ChannelMessenger | undefined {
  const messenger = services.channelMessenger as Partial<ChannelMessenger> | undefined;
  return messenger && typeof messenger.send === "function" ? (messenger as ChannelMessenger) : undefined;
}
