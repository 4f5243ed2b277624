import type { SessionEntry } from "../sessions/store/index.js";

/** Where a session's replies go in a chat channel: its last route. */
export interface SessionChatRoute {
  channel: string;
  accountId?: string;
  to: string;
  threadId?: string;
  /** The kind of chat the last message came from (`direct`, `group`, `channel`), when recorded. */
  chatType?: string;
}

/** The chat a session last talked in, or undefined for a session no channel message reached. */
export function sessionChatRoute(entry: SessionEntry | undefined): SessionChatRoute | undefined {
  if (!entry?.lastChannel || !entry.lastTo) return undefined;
  return {
    channel: entry.lastChannel,
    ...(entry.lastAccountId ? { accountId: entry.lastAccountId } : {}),
    to: entry.lastTo,
    ...(entry.lastThreadId ? { threadId: entry.lastThreadId } : {}),
    ...(entry.lastChatType ? { chatType: entry.lastChatType } : {}),
  };
}
