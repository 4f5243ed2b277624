import type { SpawnRefusal, SubagentThread, SubagentThreadPort } from "../agents/subagents/index.js";
import type { Logger } from "../infra/logger.js";
import type { SessionStore } from "../sessions/store/index.js";
import type { ChannelManager } from "./channel-manager.js";
import { isChannelId } from "./config/channel-accounts.js";
import type { ThreadBindingStore } from "./thread-bindings.js";
import { ChannelPermanentError } from "./types.js";

export interface SubagentThreadsDeps {
  /** Absent while no channel is configured (or before the channels started). */
  channels(): ChannelManager | undefined;
  bindings: ThreadBindingStore;
  store: SessionStore;
  logger: Logger;
}

const WITHOUT_THREAD = "Spawn without thread; its result still comes back here.";

/**
 * Thread-bound sub-agents on the chat channels: the thread is opened in the chat the requester's
 * conversation lives in (its session's last route), bound in the store, and the child's own runs
 * answer into it through the delivery ledger like any reply.
 */
export function createSubagentThreads(deps: SubagentThreadsDeps): SubagentThreadPort {
  const chatOf = (sessionKey: string) => {
    const entry = deps.store.get(sessionKey);
    if (!entry?.lastChannel || !entry.lastTo || !isChannelId(entry.lastChannel)) return undefined;
    return { channel: entry.lastChannel, accountId: entry.lastAccountId ?? "default", chatId: entry.lastTo, ...(entry.lastThreadId ? { threadId: entry.lastThreadId } : {}) };
  };

  const check = (requesterSessionKey: string): SpawnRefusal | undefined => {
    const chat = chatOf(requesterSessionKey);
    if (!chat) {
      return refusal("thread: true opens a thread in the chat this conversation happens in, and this session is not in a chat channel (it talks through the gateway API).", WITHOUT_THREAD);
    }
    const support = deps.channels()?.threadSupport(chat.channel, chat.accountId) ?? "not-running";
    if (support === "not-running") {
      return refusal(`The ${chat.channel} account "${chat.accountId}" this chat uses is not running, so no thread can be opened.`, `${WITHOUT_THREAD} Or try again once the channel is back.`);
    }
    if (support === "unsupported") return refusal(`${chat.channel} has no threads to bind a sub-agent to.`, WITHOUT_THREAD);
    return undefined;
  };

  return {
    check,
    async open(requesterSessionKey, title) {
      const refused = check(requesterSessionKey);
      if (refused) return refused;
      const chat = chatOf(requesterSessionKey)!;
      try {
        const target = await deps.channels()!.createThread(chat, title);
        if (!target.threadId) throw new Error(`${chat.channel} opened no thread`);
        return { channel: chat.channel, accountId: chat.accountId, chatId: target.chatId, threadId: target.threadId } satisfies SubagentThread;
      } catch (err) {
        const message = (err as Error).message;
        // The platform's own reason (not a forum, a DM) will not change by trying again.
        if (err instanceof ChannelPermanentError) return refusal(`No thread can be opened in this chat: ${message}`, WITHOUT_THREAD);
        return { code: "THREAD_FAILED", message: `Opening the thread failed: ${message}`, suggestion: "Try again, or spawn without thread." };
      }
    },
    bind(thread, childSessionKey, label) {
      deps.bindings.bind(thread, childSessionKey, { label });
    },
    deliverRun(childSessionKey, run) {
      const channels = deps.channels();
      if (!channels) return;
      void channels.deliverSessionRun(childSessionKey, run).catch((err) => deps.logger.warn({ sessionKey: childSessionKey, err: (err as Error).message }, "sub-agent reply not delivered to its thread"));
    },
    release(childSessionKey) {
      const removed = deps.bindings.unbindSession(childSessionKey);
      if (removed > 0) deps.logger.info({ sessionKey: childSessionKey, removed }, "sub-agent ended; its thread binding was removed");
    },
  };
}

function refusal(message: string, suggestion: string): SpawnRefusal {
  return { code: "THREAD_UNAVAILABLE", message, suggestion };
}
