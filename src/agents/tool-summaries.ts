import { toolLabel, type ToolProgressDetail } from "./tool-labels.js";
import type { ModelMessage } from "./types.js";

const RESULT_MAX = 300;

/**
 * What `/verbose` shows before a reply in chats: one line per tool call the run made, as its
 * progress line reads (a file, a query, a URL; with detail `raw` the arguments too). `on` never
 * shows a shell command; `full` does, and adds the start of each result. Empty when the run called
 * no tool.
 */
export function toolSummaryText(messages: readonly ModelMessage[], level: string | undefined, detail: ToolProgressDetail): string {
  if (level !== "on" && level !== "full") return "";
  const results = new Map<string, string>();
  for (const m of messages) {
    if (m.role === "toolResult") results.set(m.toolCallId, `${m.isError ? "⚠️ " : ""}${m.content.map((b) => (b.type === "text" ? b.text : `[${b.mimeType}]`)).join(" ")}`);
  }
  const commandText = level === "full" ? "raw" : "status";
  const lines: string[] = [];
  for (const m of messages) {
    if (m.role !== "assistant") continue;
    for (const block of m.content) {
      if (block.type !== "toolCall") continue;
      lines.push(toolLabel(block.name, block.arguments, { commandText, detail }));
      const result = results.get(block.id);
      if (level === "full" && result !== undefined) lines.push(`   → ${clip(result.replace(/\s+/g, " "), RESULT_MAX)}`);
    }
  }
  return lines.join("\n");
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
