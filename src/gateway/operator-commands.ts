import type { ConversationPort } from "../agents/conversation-port.js";
import type { ChatCommandContext } from "../conversations/commands/chat-command-registry.js";
import type { OpenClawConfig } from "../config/index.js";
import type { SessionStore } from "../sessions/store/index.js";

/** What chat commands typed by operator clients (`chat.send`, `agent`, the OpenAI route) may use beyond the conversation core. */
export interface ChatCommands {
  /** `/subagents …`: the caller's session key and what follows the command; resolves to the reply text. */
  subagents?: (sessionKey: string, args: string) => Promise<string>;
  /** `/acp …`: the same shape as `subagents`. */
  acp?: (sessionKey: string, args: string) => Promise<string>;
  /** `/approve <id> <decision>`: answers a pending exec approval; resolves to the reply text. */
  approve?: ChatCommandContext["approve"];
  /** `/skill`: the skills a user may run for an agent. */
  skills?: ChatCommandContext["skills"];
}

/** The context a chat command typed by an operator client runs in: operators are the owner. */
export function operatorCommandContext(
  conversations: ConversationPort,
  gateway: { config(): OpenClawConfig; sessions(): SessionStore },
  commands: ChatCommands,
  how: { sessionKey: string; idempotencyKey?: string; method: ChatCommandContext["method"] },
): ChatCommandContext {
  return {
    surface: "operator",
    senderIsOwner: true,
    conversations,
    ...how,
    config: gateway.config,
    sessions: gateway.sessions(),
    ...(commands.subagents ? { subagents: commands.subagents } : {}),
    ...(commands.acp ? { acp: commands.acp } : {}),
    ...(commands.approve ? { approve: commands.approve } : {}),
    ...(commands.skills ? { skills: commands.skills } : {}),
  };
}
