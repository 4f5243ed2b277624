import { Type } from "@sinclair/typebox";
import type { ConversationPort } from "../../agents/conversation-port.js";
import { assertKnownAgent } from "../known-agent.js";
import { invalidRequest } from "../protocol/errors.js";
import type { SessionMessageEvents } from "../session-message-events.js";
import type { MethodRegistry } from "./registry.js";

const Key = Type.String({ minLength: 1, maxLength: 512 });
const SubscribeParams = Type.Object({ key: Key, agentId: Type.Optional(Type.String()), includeApprovals: Type.Optional(Type.Boolean()) }, { additionalProperties: false });
const UnsubscribeParams = Type.Object({ key: Key, agentId: Type.Optional(Type.String()) }, { additionalProperties: false });

/**
 * `sessions.messages.subscribe` / `unsubscribe`: the calling connection follows (or stops
 * following) one session's transcript through `session.message` events, until it closes.
 */
export function registerSessionMessageMethods(registry: MethodRegistry, conversations: ConversationPort, events: SessionMessageEvents): void {
  registry.register({
    name: "sessions.messages.subscribe",
    scope: "operator.read",
    params: SubscribeParams,
    handler: (params, { runtime, caller }) => {
      // OpenClaw's session.approval events are not built: an opt-in to them cannot be honoured.
      if (params.includeApprovals) throw invalidRequest("not supported: includeApprovals (this gateway sends no session.approval events; follow exec.approval.* instead)");
      assertKnownAgent(runtime.config(), params.agentId);
      const { sessionKey } = conversations.resolveSessionKey(params.key, params.agentId);
      events.subscribe(caller.connId, sessionKey);
      return { subscribed: true, key: sessionKey };
    },
  });

  registry.register({
    name: "sessions.messages.unsubscribe",
    scope: "operator.read",
    params: UnsubscribeParams,
    handler: (params, { runtime, caller }) => {
      assertKnownAgent(runtime.config(), params.agentId);
      const { sessionKey } = conversations.resolveSessionKey(params.key, params.agentId);
      events.unsubscribe(caller.connId, sessionKey);
      return { subscribed: false, key: sessionKey };
    },
  });
}
