import { html, nothing, type TemplateResult } from "lit";
import type { HistoryMessage } from "./trace-record.js";
import "./capped-text.js";

/**
 * The conversation a run's model calls got before its input, folded: each message's role and
 * its text, with tool calls and images named. Every text goes in as text, capped.
 */
export function renderTraceHistory(history: readonly HistoryMessage[] | undefined): TemplateResult | typeof nothing {
  if (!history) return nothing;
  return html`<details class="trace-history">
    <summary>Conversation before this run (${history.length} message${history.length === 1 ? "" : "s"})</summary>
    ${
      history.length === 0
        ? html`<p class="hint">The run was given no earlier messages.</p>`
        : html`<ol class="history-list">
          ${history.map((message) => html`<li class="step history-message"><span class="kind">${roleLabel(message)}</span><oc-capped-text .text=${messageText(message)}></oc-capped-text></li>`)}
        </ol>`
    }
  </details>`;
}

function roleLabel(message: HistoryMessage): string {
  return message.role === "toolResult" ? `tool result${message.toolName ? ` ${message.toolName}` : ""}` : message.role;
}

function messageText(message: HistoryMessage): string {
  if (typeof message.content === "string") return message.content;
  return message.content
    .map((block) => {
      if (block.type === "text") return block.text ?? "";
      if (block.type === "thinking") return `[thinking] ${block.thinking ?? ""}`;
      if (block.type === "toolCall") return `[calls ${block.name ?? "?"} ${JSON.stringify(block.arguments ?? {})}]`;
      if (block.type === "image") return `[image ${block.mimeType ?? ""}]`;
      return "";
    })
    .filter(Boolean)
    .join("\n");
}
