import type { TracedMessage } from "./history-messages.js";

/** One message in the GenAI conventions' `gen_ai.input.messages` / `gen_ai.output.messages` form. */
export interface GenAiMessage {
  role: string;
  parts: Record<string, unknown>[];
}

/**
 * What a run was sent, as `gen_ai.input.messages`: the conversation before it (the trace's history,
 * already redacted), then its own input, then `after` (for one model call: what the run appended
 * before it). Messages a model never sees (a transcript's internal events) are left out, as the
 * model call leaves them out; images are named by type, not sent.
 */
export function genAiInputMessages(history: readonly TracedMessage[], input: readonly string[], after: readonly TracedMessage[] = []): GenAiMessage[] {
  const messages: GenAiMessage[] = [];
  for (const message of history) {
    const converted = genAiMessage(message);
    if (converted) messages.push(converted);
  }
  for (const content of input) messages.push({ role: "user", parts: [{ type: "text", content }] });
  for (const message of after) {
    const converted = genAiMessage(message);
    if (converted) messages.push(converted);
  }
  return messages;
}

/**
 * What one model call was sent, as its `chat` span's `gen_ai.input.messages`: the run's history,
 * its first input (the message the run was started with; steered ones are among `before`), then
 * what the run appended before the call.
 */
export function genAiCallInput(history: readonly TracedMessage[], input: readonly string[], before: readonly TracedMessage[]): GenAiMessage[] {
  return genAiInputMessages(history, input.slice(0, 1), before);
}

/** A reply as `gen_ai.output.messages` holds it: the assistant's parts and why it ended (`finish_reason`). */
export function genAiOutputMessage(reply: TracedMessage | undefined, stopReason: string | undefined): GenAiMessage & { finish_reason: string } {
  return { role: "assistant", parts: reply ? contentParts(reply.content) : [], finish_reason: finishReason(stopReason) };
}

/** The conventions' finish reasons where ours differ (`toolUse` is `tool_call`); others as they are. */
export function finishReason(stopReason: string | undefined): string {
  if (stopReason === "toolUse") return "tool_call";
  return stopReason ?? "stop";
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
