import type { TranscriptMessage } from "../agents/types.js";

/**
 * An assistant message an operator wrote into a conversation (`chat.inject`), as OpenClaw records
 * one: no tokens, provider `openclaw`, model `gateway-injected`, so readers can tell it from the
 * model's own answers while later turns still see it as the agent's words.
 */
export function injectedAssistantMessage(text: string, timestamp: number): TranscriptMessage {
  return {
    role: "assistant",
    content: [{ type: "text", text }],
    timestamp,
    stopReason: "stop",
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    api: "openai-responses",
    provider: "openclaw",
    model: "gateway-injected",
  } as TranscriptMessage;
}
