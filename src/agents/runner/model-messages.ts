import type { AssistantMessage, ModelMessage, ToolResultMessage, TranscriptMessage, UserMessage } from "../types.js";

/**
 * Project a transcript onto what a model may see: only user, assistant and toolResult messages,
 * stripped of extra fields (ids, provenance, internal metadata). A tool call left without a
 * result (the process died mid-call) gets a synthetic error result, because every provider
 * rejects a history with a dangling tool call.
 */
export function toModelMessages(transcript: readonly TranscriptMessage[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  const pending = new Map<string, string>();
  // Runs before every user and assistant message: allocate nothing when nothing dangles.
  const closeDangling = (timestamp: number) => {
    if (pending.size === 0) return;
    for (const [id, name] of pending) out.push(interruptedResult(id, name, timestamp));
    pending.clear();
  };
  // Indexed loops and no closures per message: this walks the whole history every turn.
  for (let i = 0; i < transcript.length; i += 1) {
    const raw = transcript[i]!;
    const m = raw as Record<string, unknown>;
    if (m.role === "user") {
      closeDangling(Number(m.timestamp) || 0);
      out.push(projected.get(raw) ?? remember(raw, { role: "user", content: m.content as UserMessage["content"], timestamp: Number(m.timestamp) || 0 }));
    } else if (m.role === "assistant") {
      closeDangling(Number(m.timestamp) || 0);
      const content = (m.content as AssistantMessage["content"]) ?? [];
      if (content.length === 0) continue;
      out.push(projected.get(raw) ?? remember(raw, { role: "assistant", content, timestamp: Number(m.timestamp) || 0 }));
      for (let b = 0; b < content.length; b += 1) {
        const block = content[b]!;
        if (block.type === "toolCall") pending.set(block.id, block.name);
      }
    } else if (m.role === "toolResult") {
      const id = m.toolCallId as string;
      if (!pending.has(id)) continue; // a result without its call would be rejected too
      pending.delete(id);
      out.push(
        projected.get(raw) ??
          remember(raw, {
            role: "toolResult",
            toolCallId: id,
            toolName: m.toolName as string,
            content: m.content as ToolResultMessage["content"],
            isError: Boolean(m.isError),
            timestamp: Number(m.timestamp) || 0,
          }),
      );
    }
  }
  closeDangling(Date.now());
  return out;
}

/**
 * The projection of one transcript message, made once per message object: a message never
 * changes once written, and keeping the projected object stable lets the provider reuse the
 * wire JSON it built for it on the previous turn (see openAIRequestBody).
 */
const projected = new WeakMap<TranscriptMessage, ModelMessage>();

function remember(raw: TranscriptMessage, message: ModelMessage): ModelMessage {
  projected.set(raw, message);
  return message;
}

function interruptedResult(toolCallId: string, toolName: string, timestamp: number): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId,
    toolName,
    content: [{ type: "text", text: JSON.stringify({ error: "TOOL_INTERRUPTED", message: "this tool call was interrupted before it finished; its outcome is unknown" }) }],
    isError: true,
    timestamp,
  };
}

export function assistantText(message: AssistantMessage): string {
  return message.content
    .filter((b): b is { type: "text"; text: string } => b.type === "text")
    .map((b) => b.text)
    .join("");
}

/** The silent reply: exactly NO_REPLY (any case, surrounding whitespace ignored). */
export function isSilentReply(text: string): boolean {
  return text.trim().toUpperCase() === "NO_REPLY";
}
