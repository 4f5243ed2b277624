import { Type } from "@sinclair/typebox";
import type { ConversationPort } from "../../agents/conversation-port.js";
import { displayRow } from "../../conversations/display-messages.js";
import { ErrorCodes, GatewayError, invalidRequest } from "../protocol/errors.js";
import type { MethodRegistry } from "./registry.js";
import { ownedSession } from "./owned-session.js";

const NonEmpty = Type.String({ minLength: 1 });

/**
 * `chat.inject` (admin, OpenClaw's): an assistant note written into a session's conversation with
 * no run, no model call and no channel delivery; `label` goes in front as `[label]`. Clients
 * following the session get it as one `chat` event (`final`, run id `inject-<messageId>`), and
 * the next turns see it as the agent's words. Answers `{ok: true, messageId}` once it is on disk.
 */
export function registerChatInjectMethod(registry: MethodRegistry, conversations: ConversationPort): void {
  registry.register({
    name: "chat.inject",
    scope: "operator.admin",
    params: Type.Object(
      { sessionKey: NonEmpty, agentId: Type.Optional(NonEmpty), message: NonEmpty, label: Type.Optional(Type.String({ maxLength: 100 })) },
      { additionalProperties: false },
    ),
    handler: async (params, { runtime }) => {
      const { sessionKey, agentId } = ownedSession(runtime.config(), conversations, params.sessionKey, params.agentId);
      const text = params.label ? `[${params.label}]\n\n${params.message}` : params.message;
      let outcome: Awaited<ReturnType<ConversationPort["inject"]>>;
      try {
        outcome = await conversations.inject(sessionKey, text);
      } catch (err) {
        throw new GatewayError({ code: ErrorCodes.UNAVAILABLE, message: `failed to write transcript: ${(err as Error).message}`, retryable: true });
      }
      if (!outcome.ok) throw invalidRequest(`${outcome.reason}: ${sessionKey}`);
      runtime.broadcast("chat", { runId: `inject-${outcome.messageId}`, sessionKey, agentId, seq: 0, state: "final", message: displayRow(outcome.message, outcome.messageId) });
      return { ok: true, messageId: outcome.messageId };
    },
  });
}
