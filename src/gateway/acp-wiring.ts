import { randomUUID } from "node:crypto";
import type { ExecApprovalBroker } from "../agents/approvals/approval-broker.js";
import { resolveAcpSettings } from "../acp/config.js";
import { AcpSessionManager } from "../acp/control-plane/manager.js";
import { AcpChildren } from "../acp/spawn/acp-children.js";
import type { InputAsker } from "../acp/stdio/elicitation.js";
import type { PermissionAsker } from "../acp/stdio/permissions.js";
import type { QuestionBroker } from "../agents/questions/question-broker.js";
import type { QuestionChats } from "./question-chat.js";
import { LazyAcpRuntime } from "../acp/control-plane/lazy-runtime.js";
import type { ChannelManager } from "../channels/channel-manager.js";
import type { OpenClawConfig } from "../config/index.js";
import type { Logger } from "../infra/logger.js";
import type { SessionStore } from "../sessions/store/index.js";
import { sessionChatRoute, type SessionChatRoute } from "./session-chat-route.js";
import { parseSessionKey } from "../sessions/keys/index.js";
import { resolveWorkspaceDir } from "../agents/context/workspace.js";
import type { SessionToolCaller } from "../agents/tools/index.js";
import type { RunTracer } from "../traces/index.js";

/** How long a person has to answer one round of an agent's form. */
const ELICITATION_TIMEOUT_MS = 15 * 60_000;

export interface AcpWiringDeps {
  stateDir: string;
  config: () => OpenClawConfig;
  logger: Logger;
  approvals: ExecApprovalBroker;
  /** Where an agent's form (`elicitation/create`) is asked: the gateway's questions, and their chat prompts. */
  questions: { broker: QuestionBroker; chats: QuestionChats };
  /** True when a connected operator would see `exec.approval.requested`. */
  hasApprover: () => boolean;
  /** True when a connected operator would see `question.requested`. */
  hasQuestioner: () => boolean;
  broadcast: (event: string, payload: unknown) => void;
  channels: () => ChannelManager | undefined;
  store: SessionStore;
  /** Records each ACP child's turn as a trace. */
  tracer?: RunTracer;
}

/**
 * Builds the gateway's ACP control plane: the session manager on the stdio runtime, whose
 * permission questions become exec approvals and whose forms the gateway's questions, and the
 * port sub-agent spawns run ACP children through, whose `streamTo: "parent"` progress goes to
 * the requester's clients and chat.
 */
export function createAcpControlPlane(deps: AcpWiringDeps): { manager: AcpSessionManager; children: AcpChildren } {
  const settings = () => resolveAcpSettings(deps.config());
  // The chat an ACP session answers to: a bound chat's, else its requester's last route.
  const chatOf = (sessionKey: string): SessionChatRoute | undefined => {
    const bound = deps.channels()?.acpChatOf(sessionKey);
    if (bound) return { channel: bound.channel, accountId: bound.accountId, to: bound.chatId, ...(bound.threadId ? { threadId: bound.threadId } : {}) };
    const requester = manager.records.get(sessionKey)?.requesterSessionKey;
    return requester ? sessionChatRoute(deps.store.get(requester)) : undefined;
  };
  const permissions: PermissionAsker = {
    async ask(request) {
      const chat = deps.channels() ? chatOf(request.sessionKey) : undefined;
      if (!deps.hasApprover() && !chat) return "unavailable";
      const { id, decision } = deps.approvals.request({
        command: `ACP agent \`${request.agent}\` asks: ${request.title}`,
        cwd: request.cwd,
        agentId: request.agent,
        sessionKey: request.sessionKey,
        reason: request.kind ? `acp permission (${request.kind})` : "acp permission",
        ...(chat ? { promptedInChat: true as const } : {}),
      });
      // The person in the chat can answer too, with /approve (owners only).
      if (chat) {
        const question = `🔐 ACP agent \`${request.agent}\` asks: ${request.title}\nReply /approve ${id} allow-once | allow-always | deny`;
        deps
          .channels()!
          .send({ ...chat, message: question, idempotencyKey: `acp-permission:${id}` })
          .catch((err: Error) => deps.logger.warn({ sessionKey: request.sessionKey, err: err.message }, "acp permission question not delivered to the chat"));
      }
      return (await decision) ?? "deny";
    },
  };
  // An agent's form is asked as the gateway's questions: of its requester's session (a bound
  // chat's own, or the spawning session), so a plain reply in that chat answers it.
  const input: InputAsker = {
    async ask(request) {
      const chat = deps.channels() ? chatOf(request.sessionKey) : undefined;
      if (!deps.hasQuestioner() && !chat) return "unavailable";
      const requester = manager.records.get(request.sessionKey)?.requesterSessionKey;
      const { broker, chats } = deps.questions;
      const record = broker.request(
        {
          id: `acp_${randomUUID().replaceAll("-", "")}`,
          questions: request.questions,
          // The gateway's agent whose session asks (the ACP agent is named in the run id's session).
          ...(requester ? { sessionKey: requester, agentId: parseSessionKey(requester).agentId } : {}),
          runId: `acp:${request.sessionKey}`,
        },
        ELICITATION_TIMEOUT_MS,
      );
      // The agent withdrawing its request (or leaving) ends the question.
      const withdraw = () => broker.cancel(record.id, "the ACP agent withdrew its request");
      request.signal.addEventListener("abort", withdraw, { once: true });
      if (chat) void chats.post(record, undefined, chat);
      try {
        return await broker.wait(record.id)!;
      } finally {
        request.signal.removeEventListener("abort", withdraw);
      }
    },
  };
  const manager = new AcpSessionManager({
    stateDir: deps.stateDir,
    settings,
    logger: deps.logger,
    // The stdio backend (and the ACP SDK) loads when the first ACP session starts.
    createRuntime: (hooks) =>
      new LazyAcpRuntime(async () => {
        const { StdioAcpRuntime } = await import("../acp/stdio/stdio-runtime.js");
        return new StdioAcpRuntime({ settings, logger: deps.logger, permissions, input, onProcess: hooks.onProcess });
      }),
  });
  const children = new AcpChildren({
    manager,
    settings,
    logger: deps.logger,
    ...(deps.tracer ? { tracer: deps.tracer } : {}),
    relayProgress: async (requesterSessionKey, childSessionKey, text) => {
      deps.broadcast("agent", { sessionKey: requesterSessionKey, stream: "acp", ts: Date.now(), data: { childSessionKey, text } });
      const route = sessionChatRoute(deps.store.get(requesterSessionKey));
      const channels = deps.channels();
      if (!channels || !route) return;
      await channels
        .send({
          ...route,
          message: text,
          idempotencyKey: `acp-progress:${randomUUID()}`,
        })
        .then(
          () => {},
          (err: Error) => deps.logger.warn({ sessionKey: requesterSessionKey, err: err.message }, "acp progress not delivered to the chat"),
        );
    },
  });
  return { manager, children };
}

/**
 * A chat session acting as an ACP spawn's requester: its agent, that agent's workspace; `/acp`
 * is owner-only, so it runs as the owner. The session is created if the chat has none yet, so
 * the child's result has somewhere to arrive.
 */
export function chatCaller(sessionKey: string, config: OpenClawConfig, stateDir: string, store: SessionStore): SessionToolCaller {
  const { agentId } = parseSessionKey(sessionKey);
  store.ensure(sessionKey, { agentId });
  return { sessionKey, agentId, senderIsOwner: true, workspaceDir: resolveWorkspaceDir(config, agentId, stateDir, process.env) };
}
