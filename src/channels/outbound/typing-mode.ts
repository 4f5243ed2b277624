import { resolveAgentConfig } from "../../agents/agent-config.js";
import type { AgentEvent } from "../../agents/types.js";
import type { OpenClawConfig } from "../../config/index.js";

/** When the typing indicator starts for a message's run: `never`, at once, at the model's first output, or at its first text. */
export type TypingMode = "never" | "instant" | "thinking" | "message";

const DEFAULT_TYPING_INTERVAL_SECONDS = 6;

/**
 * A message's typing mode, as OpenClaw picks it: the agent's own (`agents.entries.<id>.typingMode`), else
 * `agents.defaults.typingMode`, else `instant` for a DM or a message that mentions the bot and
 * `message` for another group message (the bot may well stay silent there).
 */
export function typingModeFor(config: OpenClawConfig, agentId: string, message: { chatType: string; wasMentioned: boolean }): TypingMode {
  const chosen = resolveAgentConfig(config, agentId)?.typingMode ?? config.agents.defaults.typingMode;
  if (chosen) return chosen;
  return message.chatType === "direct" || message.wasMentioned ? "instant" : "message";
}

/** Whether `event` is the moment a `thinking` (any model output) or `message` (its first text) mode starts typing. */
export function startsTyping(mode: TypingMode, event: AgentEvent): boolean {
  if (event.type !== "message_update") return false;
  return mode === "thinking" || (mode === "message" && event.delta.kind === "text");
}

/** The indicator's refresh cadence: the channel account's `typingIntervalSeconds`, else `agents.defaults.typingIntervalSeconds`, else 6 s. */
export function typingIntervalMs(config: OpenClawConfig, account: Readonly<Record<string, unknown>> | undefined): number {
  const seconds = (account?.typingIntervalSeconds as number | undefined) ?? config.agents.defaults.typingIntervalSeconds ?? DEFAULT_TYPING_INTERVAL_SECONDS;
  return seconds * 1000;
}
