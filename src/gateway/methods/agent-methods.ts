import { Type } from "@sinclair/typebox";
import type { TaskRecorder } from "../../tasks/index.js";
import { trackAgentRunTask } from "../agent-run-task.js";
import type { ConversationPort } from "../../agents/conversation-port.js";
import { agentDelivery, withDeliveryStatus } from "./agent-delivery.js";
import { agentFinalPayload } from "./agent-final-payload.js";
import { readInputProvenance } from "./chat-provenance.js";
import { readAgentRunSettings } from "./agent-run-settings.js";
import { sessionKeyOfSessionId } from "./agent-session-id.js";
import { agentSessionKey, assertAgentRoutingFields } from "./agent-routing.js";
import { assertSessionLabelFree, parseLabel, setSessionLabel } from "./session-label.js";
import { assertKnownAgent } from "../known-agent.js";
import { ErrorCodes, GatewayError, invalidRequest, missingScope } from "../protocol/errors.js";
import { scopeSatisfied } from "../protocol/scopes.js";
import type { MethodRegistry } from "./registry.js";
import { assertKeyForSession } from "./reused-idempotency-key.js";
import { operatorCommandContext, type ChatCommands } from "../operator-commands.js";
import { CHAT_COMMANDS, matchChatCommand } from "../../conversations/commands/chat-commands.js";
import { resolveSendPolicy, SEND_BLOCKED } from "../../sessions/send-policy.js";
import { wholeReplyText } from "../../conversations/commands/chat-command-registry.js";
import type { ClientMedia } from "../client-media.js";
import { readAttachments, withAttachments } from "./chat-attachments.js";

const Str = Type.Optional(Type.String());
const Bool = Type.Optional(Type.Boolean());

/** AgentParams: the fields real clients send; unknown fields are rejected. */
const AgentParams = Type.Object(
  {
    message: Type.String({ minLength: 1, maxLength: 4 * 1024 * 1024 }),
    idempotencyKey: Type.String({ minLength: 1, maxLength: 256 }),
    agentId: Str,
    provider: Str,
    model: Str,
    to: Str,
    replyTo: Str,
    sessionId: Str,
    sessionKey: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
    thinking: Str,
    deliver: Bool,
    attachments: Type.Optional(Type.Array(Type.Unknown())),
    channel: Str,
    replyChannel: Str,
    accountId: Str,
    replyAccountId: Str,
    threadId: Type.Optional(Type.Union([Type.String(), Type.Number()])),
    groupId: Str,
    groupChannel: Str,
    groupSpace: Str,
    timeout: Type.Optional(Type.Integer({ minimum: 0 })),
    bestEffortDeliver: Bool,
    lane: Str,
    extraSystemPrompt: Str,
    promptMode: Type.Optional(Type.Union([Type.Literal("full"), Type.Literal("minimal"), Type.Literal("none")])),
    bootstrapContextMode: Type.Optional(Type.Union([Type.Literal("full"), Type.Literal("lightweight")])),
    inputProvenance: Type.Optional(Type.Unknown()),
    label: Type.Optional(Type.String({ maxLength: 512 })),
    internalEvents: Type.Optional(Type.Unknown()),
    suppressPromptPersistence: Bool,
    sessionEffects: Type.Optional(Type.Union([Type.Literal("visible"), Type.Literal("internal")])),
    sourceReplyDeliveryMode: Type.Optional(Type.Union([Type.Literal("automatic"), Type.Literal("message_tool_only")])),
    disableMessageTool: Bool,
    voiceWakeTrigger: Str,
    modelRun: Type.Optional(Type.Unknown()),
    cleanupBundleMcpOnRunEnd: Bool,
  },
  { additionalProperties: false },
);

/** `agent` (two responses: `accepted`, then the result) and `agent.wait` (see docs/protocol.md, "Methods"). */
/**
 * `tasks`: the background task ledger; each run `agent` accepts is a `cli` task, as in OpenClaw,
 * except a message another session sent (`inter_session` provenance).
 */
export function registerAgentMethods(registry: MethodRegistry, conversations: ConversationPort, commands: ChatCommands, media: ClientMedia, tasks?: TaskRecorder): void {
  registry.register({
    name: "agent",
    scope: "operator.write",
    params: AgentParams,
    handler: async (params, { ack, caller, runtime }) => {
      // Attachments as chat.send takes them; a message with attachments is never a command.
      const attached = readAttachments(params.attachments, runtime.config());
      const command = attached.length > 0 ? undefined : matchChatCommand(params.message, "operator", runtime.config());
      // Through `agent`, starting a session over is for admins (chat.send lets a writer reset its chat).
      if ((command?.name === "new" || command?.name === "reset") && !scopeSatisfied(caller.scopes, "operator.admin")) throw missingScope("operator.admin");
      assertKnownAgent(runtime.config(), params.agentId);
      const turnSettings = readAgentRunSettings(params);
      const provenance = readInputProvenance(params.inputProvenance, caller.scopes);
      assertAgentRoutingFields(params);
      const label = params.label === undefined ? undefined : parseLabel(params.label);
      const pickedKey = await agentSessionKey(params, commands.deliverToChat);
      const requestedKey =
        params.sessionId === undefined
          ? pickedKey
          : sessionKeyOfSessionId(runtime.sessions(), params.sessionId, {
              ...(pickedKey !== undefined ? { sessionKey: conversations.resolveSessionKey(pickedKey, params.agentId).sessionKey } : {}),
              ...(params.agentId ? { agentId: params.agentId } : {}),
            });
      const { sessionKey } = conversations.resolveSessionKey(requestedKey, params.agentId);
      if (params.deliver === true && resolveSendPolicy(runtime.config(), { sessionKey, entry: runtime.sessions().peek(sessionKey) }) === "deny") throw invalidRequest(SEND_BLOCKED);
      const { target: delivery, skipped } = await agentDelivery(params, sessionKey, commands.deliverToChat);
      // Checked now, set once the message is accepted: a message refused later leaves no label behind.
      if (label) assertSessionLabelFree(runtime.sessions(), sessionKey, label);
      let message = params.message;
      if (command) {
        if (label) setSessionLabel(runtime.sessions(), sessionKey, label);
        const result = await CHAT_COMMANDS.run(
          command,
          operatorCommandContext(
            conversations,
            runtime,
            commands,
            { sessionKey, idempotencyKey: params.idempotencyKey, method: "agent" },
            scopeSatisfied(caller.scopes, "operator.admin"),
          ),
        );
        const done = (summary: string, payloads: { text: string }[], meta: Record<string, unknown>) => ({
          runId: params.idempotencyKey,
          status: "ok",
          summary,
          result: { payloads, meta },
        });
        // `/skill` hands the agent a message in place of the typed command; `/new <message>` its message.
        if (result.kind === "agent") message = result.text;
        else
          switch (result.kind) {
            case "stopped":
              return done("stopped", [], { durationMs: 0 });
            case "reset":
              if (result.outcome.kind === "reset") return done("session reset", [], { durationMs: 0 });
              if (result.outcome.status === "interrupted") {
                throw new GatewayError({
                  code: ErrorCodes.UNAVAILABLE,
                  message: "this run was interrupted by a gateway restart",
                  details: { code: "CACHED_AGENT_RESULT", runId: params.idempotencyKey },
                });
              }
              return {
                ...done(result.outcome.summary ?? "", result.outcome.summary ? [{ text: result.outcome.summary }] : [], { cached: true }),
                status: result.outcome.status === "ok" ? "ok" : "error",
              };
            case "reply": {
              const text = await wholeReplyText(result);
              return done(text, [{ text }], { durationMs: 0, command: command.name });
            }
          }
      }
      const withFiles = await withAttachments(media, conversations, { text: message, idempotencyKey: params.idempotencyKey, sessionKey }, attached);
      message = withFiles.text;
      const outcome = await conversations.submit({
        message,
        ...(withFiles.images.length > 0 ? { images: withFiles.images } : {}),
        idempotencyKey: params.idempotencyKey,
        sessionKey: requestedKey,
        agentId: params.agentId,
        method: "agent",
        extraSystemPrompt: params.extraSystemPrompt,
        ...(provenance ? { provenance: { ...provenance, method: "agent" } } : {}),
        ...(Object.keys(turnSettings).length ? { turnSettings } : {}),
      });
      if (outcome.kind === "rejected") throw invalidRequest(outcome.notice, { reason: outcome.reason ?? "queue-full", runId: outcome.runId });
      if (outcome.kind === "duplicate") {
        assertKeyForSession(params.idempotencyKey, outcome.sessionKey, sessionKey);
        if (!outcome.run) {
          if (outcome.status === "interrupted") {
            throw new GatewayError({
              code: ErrorCodes.UNAVAILABLE,
              message: "this run was interrupted by a gateway restart",
              details: { code: "CACHED_AGENT_RESULT", runId: outcome.runId },
            });
          }
          return {
            runId: outcome.runId,
            status: outcome.status === "ok" ? "ok" : "error",
            summary: outcome.summary ?? "",
            result: { payloads: outcome.summary ? [{ text: outcome.summary }] : [], meta: { cached: true } },
          };
        }
        ack({ runId: outcome.runId, status: outcome.run.endedAt ? outcome.run.status : "in_flight", acceptedAt: outcome.run.acceptedAt });
        return agentFinalPayload(await outcome.run.done);
      }
      if (label) setSessionLabel(runtime.sessions(), sessionKey, label);
      if (tasks && provenance?.kind !== "inter_session") trackAgentRunTask(tasks, outcome.run, params.message, label);
      // The reply owed to the chat is on disk before the run is acknowledged.
      if (delivery && commands.deliverToChat) await commands.deliverToChat.owe(outcome.run, delivery);
      ack({ runId: outcome.run.runId, status: "accepted", acceptedAt: outcome.run.acceptedAt });
      return withDeliveryStatus(agentFinalPayload(await outcome.run.done), skipped);
    },
  });

  registry.register({
    name: "agent.wait",
    scope: "operator.write",
    params: Type.Object({ runId: Type.String({ minLength: 1 }), timeoutMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 24 * 3600_000 })) }, { additionalProperties: false }),
    handler: async (params, { signal }) => {
      const run = conversations.runs.get(params.runId);
      if (!run) throw new GatewayError({ code: ErrorCodes.AGENT_RESULT_NOT_FOUND, message: `no run with id ${params.runId}` });
      const waitMs = params.timeoutMs ?? 30_000;
      let timer: NodeJS.Timeout | undefined;
      const ended = await Promise.race([
        run.done,
        new Promise<undefined>((resolve) => {
          timer = setTimeout(() => resolve(undefined), waitMs);
          signal.addEventListener("abort", () => resolve(undefined), { once: true });
        }),
      ]);
      clearTimeout(timer);
      if (!ended) return { runId: run.runId, status: "timeout", ...(run.startedAt ? { startedAt: run.startedAt } : {}) };
      return {
        runId: run.runId,
        status: ended.status === "ok" ? "ok" : ended.status === "timeout" ? "timeout" : "error",
        startedAt: ended.startedAt,
        endedAt: ended.endedAt,
        ...(ended.result?.error ? { error: ended.result.error.message } : ended.status === "aborted" ? { error: "aborted" } : {}),
      };
    },
  });
}
