import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { AcpRuntimeEvent } from "../runtime/types.js";

/**
 * Turns one `session/update` into the runtime's event, tagged with the update's kind. Kinds that
 * carry no progress a caller can show (a replayed user message) map to nothing; kinds this
 * gateway does not know yet become a `status` with their tag, so nothing an agent says is lost.
 */
export function mapSessionUpdate(update: SessionUpdate): AcpRuntimeEvent | undefined {
  const tag = update.sessionUpdate;
  switch (update.sessionUpdate) {
    case "agent_message_chunk":
    case "agent_thought_chunk": {
      const text = contentText(update.content);
      if (!text) return undefined;
      return { type: "text_delta", text, stream: update.sessionUpdate === "agent_thought_chunk" ? "thought" : "output", tag };
    }
    case "user_message_chunk":
      return undefined;
    case "tool_call":
      return { type: "tool_call", text: update.title, tag, toolCallId: update.toolCallId, title: update.title, ...(update.status ? { status: update.status } : {}) };
    case "tool_call_update": {
      const title = update.title ?? undefined;
      const status = update.status ?? undefined;
      return {
        type: "tool_call",
        text: [title, status].filter(Boolean).join(": ") || update.toolCallId,
        tag,
        toolCallId: update.toolCallId,
        ...(title ? { title } : {}),
        ...(status ? { status } : {}),
      };
    }
    case "plan":
      return { type: "status", text: update.entries.map((e) => `[${e.status}] ${e.content}`).join("\n"), tag };
    case "usage_update":
      return { type: "status", text: `context ${update.used}/${update.size} tokens`, tag, used: update.used, size: update.size };
    case "available_commands_update":
      return { type: "status", text: `commands: ${update.availableCommands.map((c) => `/${c.name}`).join(" ")}`, tag };
    case "current_mode_update":
      return { type: "status", text: `mode: ${update.currentModeId}`, tag };
    case "config_option_update":
      return { type: "status", text: `options: ${update.configOptions.map((o) => o.id).join(", ")}`, tag };
    case "session_info_update":
      return { type: "status", text: update.title ? `title: ${update.title}` : "session info updated", tag };
    default:
      return { type: "status", text: String(tag), tag };
  }
}

function contentText(content: { type: string; text?: string }): string {
  return content.type === "text" ? (content.text ?? "") : `[${content.type}]`;
}
