import type { ConversationPort } from "../../agents/conversation-port.js";
import type { SessionStore } from "../../sessions/store/index.js";
import { helpText, QUEUE_MODES, type ChatQueueMode, type CommandSpec, type ParsedCommand } from "../commands/control-commands.js";
import { runFocusCommand, runUnfocusCommand, type ThreadFocusDeps } from "../commands/focus-command.js";
import type { MsgContext } from "../inbound/msg-context.js";
import type { OpenClawConfig } from "../../config/index.js";
import { parseSessionKey } from "../../sessions/keys/index.js";
import { modelCommand, thinkCommand, verboseCommand, type SessionControlDeps } from "../commands/session-control-commands.js";

export interface CommandDeps {
  config: OpenClawConfig;
  conversations: ConversationPort;
  store: SessionStore;
  /** Per-session `/queue` choices (not persisted, like OpenClaw's session toggles). */
  queueModes: Map<string, ChatQueueMode>;
  isOwner: boolean;
  idempotencyKey: string;
  subagentsCommand?: (sessionKey: string, args: string) => Promise<string>;
  acpCommand?: (sessionKey: string, args: string) => Promise<string>;
  /** `/focus`, `/unfocus`: absent where chats cannot be bound (no binding store). */
  threadFocus?: ThreadFocusDeps;
}

/** Run one control command; the returned text is the reply (empty: say nothing). */
export async function runControlCommand(command: ParsedCommand & { spec: CommandSpec }, ctx: MsgContext, deps: CommandDeps): Promise<string> {
  if (command.spec.ownerOnly && !deps.isOwner) return `/${command.name} is for the bot owner only (commands.ownerAllowFrom).`;
  const sessionKey = ctx.SessionKey;
  switch (command.name) {
    case "stop": {
      const stopped = deps.conversations.stop(sessionKey);
      if (stopped.runIds.length === 0 && stopped.subagents === 0) return "Nothing is running.";
      return stopped.subagents > 0 ? `⏹ Stopped (and ${stopped.subagents} sub-agent${stopped.subagents === 1 ? "" : "s"}).` : "⏹ Stopped.";
    }
    case "new":
    case "reset": {
      await deps.conversations.submit({ message: "/reset", idempotencyKey: deps.idempotencyKey, sessionKey, method: "channel", senderIsOwner: deps.isOwner });
      return "✅ New session started.";
    }
    case "status":
      return statusText(ctx, deps);
    case "model":
    case "think":
    case "verbose": {
      const controls = sessionControlDeps(ctx, deps);
      return command.name === "model" ? modelCommand(command.args, controls) : command.name === "think" ? thinkCommand(command.args, controls) : verboseCommand(command.args, controls);
    }
    case "help":
      return helpText();
    case "whoami":
      return [
        `Channel: ${ctx.Provider} (account ${ctx.AccountId})`,
        `Your id: ${ctx.SenderId}${ctx.SenderUsername ? ` (@${ctx.SenderUsername})` : ""}`,
        `Chat: ${ctx.OriginatingTo} (${ctx.ChatType})${ctx.MessageThreadId ? `, thread ${ctx.MessageThreadId}` : ""}`,
        `Owner: ${deps.isOwner ? "yes" : "no"}`,
        `Session: ${sessionKey}`,
      ].join("\n");
    case "queue": {
      const mode = command.args.toLowerCase();
      if (!mode) return `Queue mode: ${deps.queueModes.get(sessionKey) ?? "default"}. Choose one of: ${QUEUE_MODES.join(", ")}.`;
      if (!(QUEUE_MODES as readonly string[]).includes(mode)) return `Unknown queue mode "${command.args}". Choose one of: ${QUEUE_MODES.join(", ")}.`;
      deps.queueModes.set(sessionKey, mode as ChatQueueMode);
      return `Queue mode for this session: ${mode}.`;
    }
    case "subagents":
      return deps.subagentsCommand ? deps.subagentsCommand(sessionKey, command.args) : "Sub-agents are not available on this gateway.";
    case "acp":
      return deps.acpCommand ? deps.acpCommand(sessionKey, command.args) : "ACP agents are not available on this gateway.";
    case "focus":
      return deps.threadFocus ? runFocusCommand(command.args, deps.threadFocus) : "Sub-agents are not available on this gateway.";
    case "unfocus":
      return deps.threadFocus ? runUnfocusCommand(deps.threadFocus) : "Sub-agents are not available on this gateway.";
    default:
      return "";
  }
}

/** The session row the model / think / verbose commands read and change (created if this is the chat's first message). */
function sessionControlDeps(ctx: MsgContext, deps: CommandDeps): SessionControlDeps {
  const sessionKey = ctx.SessionKey;
  return {
    config: deps.config,
    env: process.env,
    sessionKey,
    entry: deps.store.get(sessionKey),
    patch: (patch) => {
      deps.store.ensure(sessionKey, { agentId: parseSessionKey(sessionKey).agentId });
      deps.store.patch(sessionKey, patch);
    },
  };
}

function statusText(ctx: MsgContext, deps: CommandDeps): string {
  const entry = deps.store.get(ctx.SessionKey);
  const running = deps.conversations.isActive(ctx.SessionKey);
  const chosen = entry?.modelOverrideSource === "user" ? entry.modelOverride : undefined;
  return [
    `Session: ${ctx.SessionKey}`,
    `Model: ${chosen ? `${chosen} (chosen with /model)` : "the agent's"}${entry?.model ? ` · last answer from ${entry.model}` : ""}`,
    `Thinking: ${entry?.thinkingLevel ?? deps.config.agents.defaults.thinkingDefault ?? "off"} · verbose ${entry?.verboseLevel ?? "off"}`,
    `Messages: ${entry?.messageCount ?? 0} · tokens in ${entry?.inputTokens ?? 0} / out ${entry?.outputTokens ?? 0}`,
    `Run: ${running ? "active" : "idle"} · queue ${deps.queueModes.get(ctx.SessionKey) ?? "default"}`,
  ].join("\n");
}
