import type { ConversationRun } from "../agents/conversation-port.js";
import type { ChannelManager } from "../channels/channel-manager.js";
import type { ChatDelivery } from "./operator-commands.js";

/**
 * `chat.send` with `deliver: true`: the run's reply also goes to the chat the session last talked
 * in (its `lastChannel`/`lastTo`), through the delivery ledger like a channel message's reply. The
 * entry, with its chat, is on disk before the message is acknowledged, so a restart recovers it as
 * a channel message's: the run's recorded answer, or the interrupted notice for a run that never
 * ended; and it does not depend on the session index, which is written up to a second later.
 * Every message a merged or steered turn answers ends with the same reply, which each chat gets
 * once. A session no channel message ever reached has nowhere to deliver: the request is refused.
 * `agent` with `deliver` does the same for the chat it names (`channel`, `to`), or, naming none, the session's;
 * `agent` with `to` and no `sessionKey` runs in the session that chat's messages use.
 */
export function createChatDelivery(deps: { channels(): Pick<ChannelManager, "sessionChat" | "oweRunReply" | "resolveChat" | "peerSession"> | undefined }): ChatDelivery {
  return {
    chatOf: (sessionKey) => {
      const channels = deps.channels();
      if (!channels) return { refusal: "this gateway has no chat channel running" };
      const chat = channels.sessionChat(sessionKey);
      return chat ? { chat } : { refusal: `session ${sessionKey} has no chat to deliver to (no channel message reached it yet)` };
    },
    chatTo: (target) => askChannels(deps.channels(), async (channels) => ({ chat: await channels.resolveChat(target) })),
    sessionTo: (target) => askChannels(deps.channels(), async (channels) => ({ sessionKey: await channels.peerSession(target) })),
    owe: async (run: ConversationRun, chat) => {
      const channels = deps.channels();
      if (!channels) throw new Error("this gateway has no chat channel running");
      await channels.oweRunReply(chatDeliveryId(run.runId), chat, run.sessionKey, run);
    },
  };
}

/** What the running channels answer, or the reason they cannot (none running, or theirs as a refusal). */
async function askChannels<C, T>(channels: C | undefined, ask: (channels: C) => Promise<T>): Promise<T | { refusal: string }> {
  if (!channels) return { refusal: "this gateway has no chat channel running" };
  try {
    return await ask(channels);
  } catch (err) {
    return { refusal: (err as Error).message };
  }
}

/** The delivery-ledger id of a `chat.send` run's reply to the session's chat. */
export function chatDeliveryId(runId: string): string {
  return `chat.send:${runId}`;
}
