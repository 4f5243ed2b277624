import type { TracedMessage } from "./history-messages.js";

/** One message in the GenAI conventions' `gen_ai.input.messages` / `gen_ai.output.messages` form. */
export interface GenAiMessage {
  role: string;
  parts: Record<string, unknown>[];
}

/**
 * What a run was sent, as `gen_ai.input.messages`: the conversation before it (the trace's history,
 * already redacted) and then its own input. Messages a model never sees (a transcript's internal
 * events) are left out, as the model call leaves them out; images are named by type, not sent.
 */
export function genAiInputMessages(history: readonly TracedMessage[], input: readonly string[]): GenAiMessage[] {
  const messages: GenAiMessage[] = [];
  for (const message of history) {
    const converted = genAiMessage(message);
    if (converted) messages.push(converted);
  }
  for (const content of input) messages.push({ role: "user", parts: [{ type: "text", content }] });
  return messages;
}

function genAiMessage(message: TracedMessage): GenAiMessage | undefined {
  switch (message.role) {
    case "user":
      return { role: "user", parts: contentParts(message.content) };
    case "assistant":
      return { role: "assistant", parts: contentParts(message.content) };
    case "toolResult":
      return {
        role: "tool",
        parts: [{ type: "tool_call_response", id: message.toolCallId, response: textOf(message.content) }],
      };
    default:
      return undefined;
  }
}

function contentParts(content: unknown): Record<string, unknown>[] {
  if (typeof content === "string") return [{ type: "text", content }];
  if (!Array.isArray(content)) return [];
  const parts: Record<string, unknown>[] = [];
  for (const block of content as Record<string, unknown>[]) {
    switch (block?.type) {
      case "text":
        parts.push({ type: "text", content: block.text });
        break;
      case "thinking":
        parts.push({ type: "reasoning", content: block.thinking });
        break;
      case "toolCall":
        parts.push({ type: "tool_call", id: block.id, name: block.name, arguments: block.arguments });
        break;
      case "image":
        parts.push({ type: "image", mime_type: block.mimeType });
        break;
    }
  }
  return parts;
}

/** A tool result's text blocks joined, images named by type. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return (content as Record<string, unknown>[])
    .map((block) => (block?.type === "text" ? String(block.text) : block?.type === "image" ? `[image ${String(block.mimeType)}]` : ""))
    .join("\n");
}
