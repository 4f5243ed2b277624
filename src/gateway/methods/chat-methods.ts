import { Type } from "@sinclair/typebox";
import type { ConversationPort } from "../../agents/conversation-port.js";
import { displayPage } from "../../conversations/display-messages.js";
import { invalidRequest } from "../protocol/errors.js";
import { scopeSatisfied } from "../protocol/scopes.js";
import { CHAT_COMMANDS, matchChatCommand } from "../../conversations/commands/chat-commands.js";
import { extractInlineDirectives } from "../../conversations/commands/inline-directives.js";
import { reasoningLevelFor } from "../../agents/reasoning-visibility.js";
import { resolveSendPolicy, SEND_BLOCKED } from "../../sessions/send-policy.js";
import { operatorCommandContext, type ChatCommands } from "../operator-commands.js";
import { readSystemProvenance } from "./chat-provenance.js";
import { checkExpectedLeaf, readChatSendOptions } from "./chat-send-options.js";
import { commandReplyEvent } from "./command-reply-event.js";
import { assertKnownAgent } from "../known-agent.js";
import type { MethodRegistry } from "./registry.js";
import { assertKeyForSession } from "./reused-idempotency-key.js";
import { elevatedAccess, WEBCHAT_SENDER } from "../../channels/access/elevated-access.js";
import { parseSessionKey } from "../../sessions/keys/index.js";
import type { ClientMedia } from "../client-media.js";
import { readAttachments, withAttachments } from "./chat-attachments.js";

const SessionKey = Type.String({ minLength: 1, maxLength: 512 });
const QueueMode = Type.Union(["steer", "followup", "collect", "interrupt"].map((m) => Type.Literal(m)));

/**
 * `chat.send`, `chat.history`, `chat.abort` — the WebChat/Control-UI contract (see docs/protocol.md).
 * `media` saves a message's attachments and makes them what the agent reads.
 */
export function registerChatMethods(registry: MethodRegistry, conversations: ConversationPort, commands: ChatCommands, media: ClientMedia): void {
  registry.register({
    name: "chat.send",
    scope: "operator.write",
    params: Type.Object(
      {
        sessionKey: SessionKey,
        message: Type.String({ maxLength: 1_000_000 }),
        idempotencyKey: Type.String({ minLength: 1, maxLength: 256 }),
        agentId: Type.Optional(Type.String()),
        sessionId: Type.Optional(Type.String()),
        thinking: Type.Optional(Type.String()),
        fastMode: Type.Optional(Type.Union([Type.Boolean(), Type.Literal("auto")])),
        fastAutoOnSeconds: Type.Optional(Type.Number()),
        deliver: Type.Optional(Type.Boolean()),
        originatingChannel: Type.Optional(Type.String()),
        originatingTo: Type.Optional(Type.String()),
        originatingAccountId: Type.Optional(Type.String()),
        originatingThreadId: Type.Optional(Type.String()),
        attachments: Type.Optional(Type.Array(Type.Unknown())),
        timeoutMs: Type.Optional(Type.Integer({ minimum: 0 })),
        systemInputProvenance: Type.Optional(Type.Unknown()),
        systemProvenanceReceipt: Type.Optional(Type.Unknown()),
        suppressCommandInterpretation: Type.Optional(Type.Boolean()),
        clarification: Type.Optional(Type.Unknown()),
        queueMode: Type.Optional(QueueMode),
        expectedLeafEntryId: Type.Optional(Type.String()),
        replyToId: Type.Optional(Type.String()),
        // OpenClaw's structured Goal start (`{kind: "session-goal-start"}`): refused below, not ignored.
        intent: Type.Optional(Type.Unknown()),
      },
      { additionalProperties: false },
    ),
    handler: async (params, { runtime, caller }) => {
      if (params.intent !== undefined) {
        throw invalidRequest("not supported: chat.send intent (this gateway has no structured Goal start; send /goal start <objective> as the message)");
      }
      if (!params.message.trim() && !params.attachments?.length) throw invalidRequest("message or attachment required");
      const system = readSystemProvenance(params, caller.scopes);
      const attached = readAttachments(params.attachments, runtime.config());
      if (!params.message.trim() && attached.length === 0) throw invalidRequest("message or attachment required");
      const options = readChatSendOptions(params, caller.scopes);
      assertKnownAgent(runtime.config(), params.agentId);
      const target = conversations.resolveSessionKey(params.sessionKey, params.agentId).sessionKey;
      // As OpenClaw: a session whose policy denies sending takes no chat.send at all (commands included).
      if (resolveSendPolicy(runtime.config(), { sessionKey: target, entry: runtime.sessions().peek(target) }) === "deny") throw invalidRequest(SEND_BLOCKED);
      const delivery = !options.deliver ? undefined : commands.deliverToChat ? commands.deliverToChat.chatOf(target) : { refusal: "this gateway has no chat channels" };
      if (delivery && "refusal" in delivery) throw invalidRequest(`deliver: ${delivery.refusal}`);
      checkExpectedLeaf(conversations, target, params.expectedLeafEntryId);
      let message = params.message;
      // chat.send's chat is `webchat`: `tools.elevated.allowFrom.webchat` may admit operators.
      const elevated = elevatedAccess(runtime.config(), parseSessionKey(target).agentId, WEBCHAT_SENDER);
      let turnSettings = options.turnSettings;
      if (elevated.allowed) turnSettings = { ...turnSettings, elevated: {} };
      // An admin's inline `/think`, `/verbose`, `/reasoning` set this message's levels (its `thinking` field still wins).
      if (!options.suppressCommands && scopeSatisfied(caller.scopes, "operator.admin")) {
        const inline = extractInlineDirectives(message);
        if (inline.found > 0 && inline.text) {
          message = inline.text;
          turnSettings = { ...inline.levels, ...turnSettings };
        }
      }
      // A message with attachments is never a command, nor the answer to a waiting question.
      const command = options.suppressCommands || attached.length > 0 ? undefined : matchChatCommand(message, "operator", runtime.config());
      if (command) {
        const { sessionKey } = conversations.resolveSessionKey(params.sessionKey, params.agentId);
        const ctx = operatorCommandContext(
          conversations,
          runtime,
          commands,
          { sessionKey, idempotencyKey: params.idempotencyKey, method: "chat.send", elevated },
          scopeSatisfied(caller.scopes, "operator.admin"),
        );
        const result = await CHAT_COMMANDS.run(command, ctx);
        // `/skill` hands the agent a message in place of the typed command; `/new <message>` its message.
        if (result.kind === "agent") {
          message = result.text;
          if (result.settings?.elevated) turnSettings = { ...turnSettings, elevated: result.settings.elevated };
        } else
          switch (result.kind) {
            case "stopped":
              return { ok: true, aborted: result.runIds.length > 0, runIds: result.runIds };
            case "reset":
              return result.outcome.kind === "reset"
                ? { runId: params.idempotencyKey, status: "ok", reset: true, sessionKey }
                : { runId: params.idempotencyKey, status: result.outcome.status };
            case "reply":
              // Chat clients show a command's answer from the run's `final` event (marked `command`),
              // sent right after this acknowledgement, as they do for a reply of the agent.
              setImmediate(() => {
                runtime.broadcast("chat", commandReplyEvent(params.idempotencyKey, sessionKey, result.text));
                // A follow-up (a long `/bash`'s output) is its own `final`, after the reply.
                void result.followUp?.then((text) => runtime.broadcast("chat", commandReplyEvent(`${params.idempotencyKey}:more`, sessionKey, text)));
              });
              return { runId: params.idempotencyKey, status: "started", command: command.name, reply: result.text };
          }
      }
      // While the session's run waits on its ask_user question, a person's plain message is the
      // answer (as a chat's reply is), not a message queued behind the waiting run.
      const answered =
        command || attached.length > 0 || system.provenance || !commands.answerWaiting ? undefined : await commands.answerWaiting(target, message.trim(), params.idempotencyKey);
      // Acknowledged as a handled message (a retry of its key is told the same, from the ledger).
      if (answered) return { runId: params.idempotencyKey, status: "ok", answered: true, reply: answered.problem ? `⚠️ ${answered.problem}` : "✅ Answer sent." };
      const withFiles = await withAttachments(media, conversations, { text: message, idempotencyKey: params.idempotencyKey, sessionKey: target }, attached);
      message = withFiles.text;
      const outcome = await conversations.submit({
        message: system.receipt ? `${system.receipt}\n\n${message}` : message,
        ...(withFiles.images.length > 0 ? { images: withFiles.images } : {}),
        idempotencyKey: params.idempotencyKey,
        sessionKey: params.sessionKey,
        agentId: params.agentId,
        method: "chat.send",
        queueMode: params.queueMode as never,
        ...(system.provenance ? { provenance: { ...system.provenance, method: "chat.send" } } : {}),
        ...(Object.keys(turnSettings).length ? { turnSettings } : {}),
      });
      switch (outcome.kind) {
        case "accepted":
          // The reply owed to the chat is on disk before the message is acknowledged.
          if (delivery && commands.deliverToChat) await commands.deliverToChat.owe(outcome.run, delivery.chat);
          return { runId: outcome.run.runId, status: "started", ...(outcome.queued !== "started" ? { queued: outcome.queued } : {}) };
        case "duplicate":
          assertKeyForSession(params.idempotencyKey, outcome.sessionKey, target);
          return { runId: outcome.runId, status: outcome.status === "in_flight" || outcome.status === "running" || outcome.status === "queued" ? "in_flight" : outcome.status };
        case "rejected":
          throw invalidRequest(outcome.notice, { reason: outcome.reason ?? "queue-full", runId: outcome.runId });
      }
    },
  });

  registry.register({
    name: "chat.history",
    scope: "operator.read",
    params: Type.Object(
      {
        sessionKey: SessionKey,
        agentId: Type.Optional(Type.String()),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
        maxChars: Type.Optional(Type.Integer({ minimum: 1, maximum: 500_000 })),
        // Paging back: skip this many of the newest messages (the previous answer's nextOffset).
        offset: Type.Optional(Type.Integer({ minimum: 0 })),
      },
      { additionalProperties: false },
    ),
    handler: (params, { runtime }) => {
      const { sessionKey } = conversations.resolveSessionKey(params.sessionKey, params.agentId);
      const store = runtime.sessions();
      const entry = store.get(sessionKey);
      if (!entry) return { sessionKey, sessionId: null, messages: [], hasMore: false };
      const offset = params.offset ?? 0;
      const { messages, hasMore } = displayPage(conversations.displayHistory(sessionKey), {
        limit: params.limit ?? 200,
        offset,
        maxChars: params.maxChars,
        idOf: (m) => conversations.entryIdOf(m),
      });
      const active = conversations.runs.activeFor(sessionKey).map((r) => r.runId);
      return {
        sessionKey,
        sessionId: entry.sessionId,
        messages,
        hasMore,
        ...(hasMore ? { nextOffset: offset + messages.length } : {}),
        ...(entry.thinkingLevel ? { thinkingLevel: entry.thinkingLevel } : {}),
        // What the Control UI shows of saved reasoning: the session's level, else the agent's default (an operator is the owner).
        reasoningLevel: reasoningLevelFor(runtime.config(), parseSessionKey(sessionKey).agentId, entry.reasoningLevel, true),
        sessionInfo: { hasActiveRun: active.length > 0, activeRunIds: active },
      };
    },
  });

  registry.register({
    name: "chat.abort",
    scope: "operator.write",
    params: Type.Object(
      {
        sessionKey: SessionKey,
        agentId: Type.Optional(Type.String()),
        runId: Type.Optional(Type.String()),
        // Side runs (OpenClaw's `/btw`) do not exist here, so keeping them changes nothing.
        preserveSideRuns: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    handler: async (params) => {
      const { sessionKey } = conversations.resolveSessionKey(params.sessionKey, params.agentId);
      if (params.runId) {
        const run = conversations.runs.get(params.runId);
        if (run && run.sessionKey !== sessionKey) throw invalidRequest(`run ${params.runId} belongs to another session`);
      }
      const runIds = await conversations.abortDurably(sessionKey, params.runId);
      return { ok: true, aborted: runIds.length > 0, runIds };
    },
  });
}
