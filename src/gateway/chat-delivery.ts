import type { ConversationRun } from "../agents/conversation-port.js";
import type { Logger } from "../infra/logger.js";
import type { SessionStore } from "../sessions/store/index.js";
import type { ChatDelivery } from "./operator-commands.js";
import { sessionChatRoute, type SessionChatRoute } from "./session-chat-route.js";

/** What sends a text to a chat: the channel manager's `send`. */
export type ChatSender = (params: SessionChatRoute & { message: string; idempotencyKey: string }) => Promise<unknown>;

/**
 * `chat.send` with `deliver: true`: the run's reply also goes to the chat the session last talked
 * in (its `lastChannel`/`lastTo`), once. It is keyed by the turn that answered the run (the run its
 * reply streamed under): every message a merged or steered turn answers ends with the same reply,
 * and the one delivery-ledger entry of that key sends it once, also when it is resumed after a
 * restart. A session no channel message ever reached has nowhere to deliver: the request is refused.
 */
export function createChatDelivery(deps: { sessions(): SessionStore; send(): ChatSender | undefined; logger(): Logger }): ChatDelivery {
  return {
    refusal: (sessionKey) => {
      if (!deps.send()) return "this gateway has no chat channel running";
      return sessionChatRoute(deps.sessions().get(sessionKey)) ? undefined : `session ${sessionKey} has no chat to deliver to (no channel message reached it yet)`;
    },
    after: (run) => {
      void run.done.then(async (ended: ConversationRun) => {
        const text = (ended.result?.payloads ?? [])
          .map((p) => p.text)
          .join("\n\n")
          .trim();
        const route = sessionChatRoute(deps.sessions().get(ended.sessionKey));
        const send = deps.send();
        if (!text || !route || !send) return;
        try {
          await send({ ...route, message: text, idempotencyKey: `deliver:${ended.result?.runId ?? ended.runId}` });
        } catch (err) {
          deps.logger().warn({ sessionKey: ended.sessionKey, runId: ended.runId, err: (err as Error).message }, "chat.send reply not delivered to the chat");
        }
      });
    },
  };
}
