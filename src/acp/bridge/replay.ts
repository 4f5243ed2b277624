import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { toolContent, toolKind, toolLocations, toolTitle } from "./tool-calls.js";

/**
 * A gateway transcript (chat.history rows) as the updates an IDE would have seen live: user and
 * assistant text, thinking, and each tool call with its result. Used by `session/load`.
 */
export function transcriptUpdates(messages: unknown[]): SessionUpdate[] {
  const updates: SessionUpdate[] = [];
  for (const raw of messages) {
    const message = raw as { role?: string; content?: unknown; toolCallId?: string; isError?: boolean };
    const blocks = Array.isArray(message.content) ? message.content : typeof message.content === "string" ? [{ type: "text", text: message.content }] : [];
    if (message.role === "toolResult" && typeof message.toolCallId === "string") {
      const content = toolContent({ content: blocks });
      updates.push({ sessionUpdate: "tool_call_update", toolCallId: message.toolCallId, status: message.isError ? "failed" : "completed", ...(content ? { content } : {}) });
      continue;
    }
    if (message.role !== "user" && message.role !== "assistant") continue;
    for (const block of blocks as { type?: unknown; text?: unknown; thinking?: unknown; id?: unknown; name?: string; arguments?: unknown }[]) {
      if (block?.type === "text" && typeof block.text === "string" && block.text) {
        updates.push({ sessionUpdate: message.role === "user" ? "user_message_chunk" : "agent_message_chunk", content: { type: "text", text: block.text } });
      } else if (message.role === "assistant" && block?.type === "thinking" && typeof block.thinking === "string" && block.thinking) {
        updates.push({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: block.thinking } });
      } else if (message.role === "assistant" && block?.type === "toolCall" && typeof block.id === "string") {
        const locations = toolLocations(block.arguments);
        updates.push({
          sessionUpdate: "tool_call",
          toolCallId: block.id,
          title: toolTitle(block.name, block.arguments),
          kind: toolKind(block.name),
          status: "in_progress",
          rawInput: block.arguments,
          ...(locations ? { locations } : {}),
        });
      }
    }
  }
  return updates;
}
