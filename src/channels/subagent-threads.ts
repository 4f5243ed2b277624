import type { SpawnRefusal, SubagentThread, SubagentThreadPort } from "../agents/subagents/index.js";
import { TOOL_ERRORS } from "../agents/tool-errors.js";
import type { Logger } from "../infra/logger.js";
import type { SessionStore } from "../sessions/store/index.js";
import type { ChannelManager } from "./channel-manager.js";
import { isChannelId } from "./config/channel-accounts.js";
import type { ThreadBindingStore } from "./thread-bindings.js";
import { threadBindingSettings } from "./thread-binding-settings.js";
import type { OpenClawConfig } from "../config/index.js";
import { ChannelPermanentError } from "./types.js";

export interface SubagentThreadsDeps {
  /** Absent while no channel is configured (or before the channels started). */
  channels(): ChannelManager | undefined;
  bindings: ThreadBindingStore;
  store: SessionStore;
  logger: Logger;
  config(): OpenClawConfig;
}

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
    const settings = threadBindingSettings(deps.config());
    if (!settings.enabled) return TOOL_ERRORS.threadsOff("session.threadBindings.enabled: false");
    if (!settings.spawnSessions) return TOOL_ERRORS.threadsOff("session.threadBindings.spawnSessions: false");
    const chat = chatOf(requesterSessionKey);
    if (!chat) {
      return TOOL_ERRORS.notInAChat();
    }
    const support = deps.channels()?.threadSupport(chat.channel, chat.accountId) ?? "not-running";
    if (support === "not-running") {
      return TOOL_ERRORS.threadAccountDown(chat.channel, chat.accountId);
    }
    if (support === "unsupported") return TOOL_ERRORS.channelHasNoThreads(chat.channel);
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
        if (err instanceof ChannelPermanentError) return TOOL_ERRORS.threadRefused(message);
        return TOOL_ERRORS.threadFailed(message);
      }
    },
    bind(thread, childSessionKey, label) {
      deps.bindings.bind(thread, childSessionKey, { label });
    },
    deliverRun(childSessionKey, run) {
      const channels = deps.channels();
      if (!channels) return;
      void channels
        .deliverSessionRun(childSessionKey, run)
        .catch((err) => deps.logger.warn({ sessionKey: childSessionKey, err: (err as Error).message }, "sub-agent reply not delivered to its thread"));
    },
    deliverText(thread, text, idempotencyKey) {
      const channels = deps.channels();
      if (!channels) return;
      channels
        .send({ channel: thread.channel, accountId: thread.accountId, to: thread.chatId, threadId: thread.threadId, message: text, idempotencyKey })
        .catch((err: Error) => deps.logger.warn({ thread: thread.threadId, err: err.message }, "ACP child reply not delivered to its thread"));
    },
    release(childSessionKey) {
      const removed = deps.bindings.unbindSession(childSessionKey);
      if (removed > 0) deps.logger.info({ sessionKey: childSessionKey, removed }, "sub-agent ended; its thread binding was removed");
    },
  };
}
