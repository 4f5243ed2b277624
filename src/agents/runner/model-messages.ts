import type { AssistantMessage, HistoryMessage, ModelMessage, ToolResultMessage } from "../types.js";
import { ModelProjection, projectMessage } from "../../models/model-projection.js";

/**
 * Project a transcript onto what a model may see: only user, assistant and toolResult messages,
 * stripped of extra fields (ids, provenance, internal metadata). A tool call left without a
 * result (the process died mid-call) gets a synthetic error result, because every provider
 * rejects a history with a dangling tool call. `last` (the turn's prompt) goes after them all.
 */
export function toModelMessages(transcript: readonly HistoryMessage[], last?: ModelMessage): ModelMessage[] {
  // Sized once for the common case (every message kept, `last` after them) plus the model's
  // reply, which the loop pushes next: a long history is walked every turn, and growing the
  // array as it fills (or by that push) would copy it over again.
  const out = new Array<ModelMessage>(transcript.length + (last ? 1 : 0) + 1);
  let n = 0;
  const pending = new Map<string, string>();
  // Runs before every user and assistant message: allocate nothing when nothing dangles.
  const closeDangling = (timestamp: number) => {
    if (pending.size === 0) return;
    for (const [id, name] of pending) out[n++] = interruptedResult(id, name, timestamp);
    pending.clear();
  };
  // Indexed loops and no closures per message: this walks the whole history every turn.
  for (let i = 0; i < transcript.length; i += 1) {
    const raw = transcript[i]!;
    if (raw.role === "user") {
      const message = modelProjection(raw)!;
      closeDangling(message.timestamp);
      out[n++] = message;
    } else if (raw.role === "assistant") {
      const message = modelProjection(raw) as AssistantMessage;
      closeDangling(message.timestamp);
      const content = message.content;
      if (content.length === 0) continue;
      out[n++] = message;
      for (let b = 0; b < content.length; b += 1) {
        const block = content[b]!;
        if (block.type === "toolCall") pending.set(block.id, block.name);
      }
    } else if (raw.role === "toolResult") {
      const message = modelProjection(raw) as ToolResultMessage;
      if (!pending.has(message.toolCallId)) continue; // a result without its call would be rejected too
      pending.delete(message.toolCallId);
      out[n++] = message;
    }
  }
  closeDangling(Date.now());
  if (last) out[n++] = last;
  out.length = n;
  return out;
}

/**
 * The projection of one transcript message (undefined for roles a model never sees), made once
 * per message object: a message never changes once written, and keeping the projected object
 * stable lets the provider reuse the wire JSON it built for it on the previous turn (see
 * openAIRequestBody). A projection is its own projection.
 */
export function modelProjection(raw: HistoryMessage): ModelMessage | undefined {
  if (ModelProjection.is(raw)) return raw;
  const known = projected.get(raw);
  if (known !== undefined) return known;
  const message = projectMessage(raw);
  if (message !== undefined) projected.set(raw, message);
  return message;
}

const projected = new WeakMap<HistoryMessage, ModelMessage>();

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
