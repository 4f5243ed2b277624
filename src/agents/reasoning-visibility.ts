import type { OpenClawConfig } from "../config/index.js";
import { findAgentEntry } from "./agent-config.js";
import type { ModelMessage } from "./types.js";

/**
 * What a chat sees of the model's reasoning (`/reasoning`): nothing (`off`), a message of its own
 * before the reply (`on`), or the reasoning in the reply's live draft while the model thinks,
 * replaced by the answer (`stream`, where the chat streams a draft).
 */
export const REASONING_LEVELS = ["off", "on", "stream"] as const;
export type ReasoningLevel = (typeof REASONING_LEVELS)[number];

/** The prefix of the message that carries a turn's reasoning, and of a draft that shows it. */
export const REASONING_HEADING = "Thinking:";

export function isReasoningLevel(value: string): value is ReasoningLevel {
  return (REASONING_LEVELS as readonly string[]).includes(value);
}

/**
 * A turn's reasoning level: the session's own choice (`/reasoning`, `sessions.patch`), else, for
 * the owner only, the agent's `reasoningDefault`, then `agents.defaults.reasoningDefault`; `off`
 * otherwise. A configured default never shows reasoning to other senders.
 */
export function reasoningLevelFor(config: OpenClawConfig, agentId: string, sessionLevel: string | undefined, senderIsOwner: boolean): ReasoningLevel {
  if (sessionLevel && isReasoningLevel(sessionLevel)) return sessionLevel;
  if (!senderIsOwner) return "off";
  return configuredReasoningDefault(config, agentId);
}

/** `agents.entries.<id>.reasoningDefault`, else `agents.defaults.reasoningDefault`, else `off`. */
export function configuredReasoningDefault(config: OpenClawConfig, agentId: string): ReasoningLevel {
  return findAgentEntry(config, agentId)?.reasoningDefault ?? config.agents.defaults.reasoningDefault ?? "off";
}

/** The reasoning of a run's replies, in order; "" when the model showed none. */
export function reasoningOf(messages: readonly ModelMessage[]): string {
  const parts: string[] = [];
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    for (const block of message.content) if (block.type === "thinking" && block.thinking.trim()) parts.push(block.thinking.trim());
  }
  return parts.join("\n\n");
}
