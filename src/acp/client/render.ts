import type { SessionUpdate } from "@agentclientprotocol/sdk";

export interface ClientOutput {
  out: (text: string) => void;
  err: (text: string) => void;
}

/**
 * How `openclaw acp client` shows a session update: the answer's text as it streams on
 * stdout, tool calls as one line each, thoughts on stderr. Other updates are not shown.
 */
export function renderUpdate(update: SessionUpdate, io: ClientOutput, titles: Map<string, string>): void {
  switch (update.sessionUpdate) {
    case "agent_message_chunk":
      if (update.content.type === "text") io.out(update.content.text);
      break;
    case "agent_thought_chunk":
      if (update.content.type === "text") io.err(update.content.text);
      break;
    case "tool_call":
      titles.set(update.toolCallId, update.title);
      io.out(`\n[tool] ${update.title}${update.status ? ` (${update.status})` : ""}\n`);
      break;
    case "tool_call_update":
      if (update.status === "completed" || update.status === "failed") {
        io.out(`[tool] ${titles.get(update.toolCallId) ?? update.toolCallId}: ${update.status}\n`);
      }
      break;
    default:
      break;
  }
}
