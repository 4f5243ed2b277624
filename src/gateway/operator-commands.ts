import type { ConversationPort, ConversationRun } from "../agents/conversation-port.js";
import type { DeliveryTarget } from "../channels/outbound/delivery-ledger.js";
import type { ChatCommandContext } from "../conversations/commands/chat-command-registry.js";
import type { OpenClawConfig } from "../config/index.js";
import type { SessionStore } from "../sessions/store/index.js";
import { readOnlyAdminPort } from "./chat-admin-port.js";

/** What chat commands typed by operator clients (`chat.send`, `agent`, the OpenAI route) may use beyond the conversation core. */
export interface ChatCommands {
  /** `/subagents …`: the caller's session key and what follows the command; resolves to the reply text. */
  subagents?: (sessionKey: string, args: string) => Promise<string>;
  /** `/tasks`: the session's background tasks. */
  tasks?: ChatCommandContext["tasks"];
  /** `/acp …`: the same shape as `subagents`. */
  acp?: (sessionKey: string, args: string) => Promise<string>;
  /** `/approve <id> <decision>`: answers a pending exec approval; resolves to the reply text. */
  approve?: ChatCommandContext["approve"];
  /** `/answer <id> <reply>`: answers a pending ask_user question of the session. */
  answer?: ChatCommandContext["answer"];
  /**
   * A plain message to a session whose run waits on an ask_user question answers it instead of
   * going to the agent (`chat.send`, as a chat's reply does): resolves, once the message is
   * recorded as accepted by the question's run, with why the reply did not answer it (if it did
   * not). Undefined when no question waits (or the key was used before).
   */
  answerWaiting?: (sessionKey: string, text: string, idempotencyKey: string) => Promise<WaitingAnswer | undefined>;
  /** `/skill`: the skills a user may run for an agent. */
  skills?: ChatCommandContext["skills"];
  /** `/goal`: the sessions' goals. */
  goals?: ChatCommandContext["goals"];
  /** `/tools`: what the session's next turn could use. */
  tools?: ChatCommandContext["tools"];
  /** `/config`, `/allowlist`, `/restart`, `/bash`: the gateway's administration. */
  admin?: ChatCommandContext["admin"];
  /** `chat.send` with `deliver: true`: the reply also goes to the chat the session last talked in. */
  deliverToChat?: ChatDelivery;
}

export interface WaitingAnswer {
  problem?: string;
}

export interface ChatDelivery {
  /** The chat a reply of this session goes to, or why there is none (no channel message reached it, channels down). */
  chatOf(sessionKey: string): { chat: DeliveryTarget } | { refusal: string };
  /** The chat `to` names on a channel (`agent` with `deliver`, `channel` and `to`), or why it cannot be delivered to. */
  chatTo(target: { channel?: string; to: string; accountId?: string; threadId?: string }): Promise<{ chat: DeliveryTarget } | { refusal: string }>;
  /** The session the chat `to` names runs in (`agent` with `to` and no `sessionKey`), or why it cannot be told. */
  sessionTo(target: { channel?: string; to: string; accountId?: string; threadId?: string; agentId?: string }): Promise<{ sessionKey: string } | { refusal: string }>;
  /** Records durably that the run's reply is owed to `chat` (resolves once it is on disk); it is sent when the run ends, or after a restart. */
  owe(run: ConversationRun, chat: DeliveryTarget): Promise<void>;
}

/** The context a chat command typed by an operator client runs in: operators are the owner. */
export function operatorCommandContext(
  conversations: ConversationPort,
  gateway: { config(): OpenClawConfig; sessions(): SessionStore },
  commands: ChatCommands,
  how: { sessionKey: string; idempotencyKey?: string; method: ChatCommandContext["method"]; elevated?: ChatCommandContext["elevated"] },
  /** False for a client without `operator.admin`: the administration commands may read but not change. */
  adminScope = true,
): ChatCommandContext {
  const admin = commands.admin && (adminScope ? commands.admin : readOnlyAdminPort(commands.admin));
  return {
    surface: "operator",
    senderIsOwner: true,
    conversations,
    ...how,
    config: gateway.config,
    sessions: gateway.sessions(),
    ...(commands.subagents ? { subagents: commands.subagents } : {}),
    ...(commands.tasks ? { tasks: commands.tasks } : {}),
    ...(commands.acp ? { acp: commands.acp } : {}),
    ...(commands.approve ? { approve: commands.approve } : {}),
    ...(commands.answer ? { answer: commands.answer } : {}),
    ...(commands.skills ? { skills: commands.skills } : {}),
    ...(commands.goals ? { goals: commands.goals } : {}),
    ...(commands.tools ? { tools: commands.tools } : {}),
    ...(admin ? { admin } : {}),
  };
}
