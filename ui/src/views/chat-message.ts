import { html, nothing, type TemplateResult } from "lit";
import { unsafeHTML } from "lit/directives/unsafe-html.js";
import { renderMarkdown } from "../markdown.js";
import { memoizeRecent } from "../recent-memo.js";

export interface ChatBlock {
  type: string;
  text?: string;
  thinking?: string;
  id?: string;
  name?: string;
  arguments?: unknown;
}

export interface ChatMessage {
  role: "user" | "assistant" | "toolResult";
  content: ChatBlock[];
  timestamp?: number;
  toolName?: string;
  toolCallId?: string;
  isError?: boolean;
  /** On a turn's first assistant message: the idempotency keys of the messages it answers (the last names the turn's run). */
  answers?: string[];
  /** On a turn's first assistant message: the turn's run (its trace's id). */
  runId?: string;
  /** The transcript entry id chat.history adds, used to join pages. */
  __openclaw?: { id?: string };
}

export interface LiveTool {
  toolCallId: string;
  name: string;
  args?: unknown;
  result?: unknown;
  isError?: boolean;
  done: boolean;
}

/**
 * A transcript text's HTML, rendered once: the view renders every shown row again on each
 * streamed delta, and parsing and sanitizing every row's Markdown there would make each delta's
 * cost grow with the transcript. Several pages of rows fit.
 */
const transcriptMarkdown = memoizeRecent(renderMarkdown, 500);

/**
 * A transcript row: user text as text, assistant text as sanitized Markdown, tool calls and
 * results folded. The model's saved reasoning only with `showThinking` (the session's `/reasoning`
 * is `on`); otherwise it stays hidden, as OpenClaw's UI keeps it. `rating` goes under an
 * assistant reply (its run's 👍 / 👎).
 */
export function renderMessage(message: ChatMessage, options: { showThinking?: boolean; rating?: TemplateResult } = {}): TemplateResult {
  if (message.role === "toolResult") {
    return html`<details class="msg tool-result ${message.isError ? "failed" : ""}">
      <summary>${message.isError ? "Tool failed" : "Tool result"}: ${message.toolName ?? "tool"}</summary>
      <pre>${blocksText(message.content)}</pre>
    </details>`;
  }
  if (message.role === "user") {
    return html`<div class="msg user"><div class="who">You</div><div class="text plain">${blocksText(message.content)}</div></div>`;
  }
  return html`<div class="msg assistant">
    <div class="who">Assistant</div>
    ${message.content.map((block) => renderAssistantBlock(block, options.showThinking === true))}
    ${options.rating ?? nothing}
  </div>`;
}

function renderAssistantBlock(block: ChatBlock, showThinking: boolean): TemplateResult | typeof nothing {
  if (block.type === "text" && block.text) return html`<div class="text md">${unsafeHTML(transcriptMarkdown(block.text))}</div>`;
  if (block.type === "thinking" && block.thinking)
    return showThinking ? html`<details class="thinking"><summary>Thinking</summary><pre>${block.thinking}</pre></details>` : nothing;
  if (block.type === "toolCall") {
    return html`<details class="tool-call"><summary>Tool call: ${block.name ?? "tool"}</summary><pre>${pretty(block.arguments)}</pre></details>`;
  }
  return nothing;
}

/** The answer being streamed: its text so far and the tools it is running. */
export function renderLive(text: string, tools: LiveTool[]): TemplateResult {
  return html`<div class="msg assistant live" aria-live="polite" data-testid="streaming">
    <div class="who">Assistant <span class="typing">…</span></div>
    ${tools.map(
      (tool) => html`<details class="tool-call ${tool.done ? "" : "running"}">
        <summary>${tool.done ? (tool.isError ? "Tool failed" : "Tool done") : "Running tool"}: ${tool.name}</summary>
        <pre>${pretty(tool.args)}</pre>
        ${tool.done ? html`<pre>${resultText(tool.result)}</pre>` : nothing}
      </details>`,
    )}
    ${text ? html`<div class="text md">${unsafeHTML(renderMarkdown(text))}</div>` : nothing}
  </div>`;
}

function blocksText(content: ChatBlock[] | string | undefined): string {
  if (typeof content === "string") return content;
  return (content ?? []).map((b) => (b.type === "text" ? (b.text ?? "") : b.type === "image" ? "[image]" : "")).join("\n");
}

function resultText(result: unknown): string {
  if (result && typeof result === "object" && Array.isArray((result as { content?: unknown }).content)) {
    return blocksText((result as { content: ChatBlock[] }).content);
  }
  return pretty(result);
}

function pretty(value: unknown): string {
  if (value === undefined) return "";
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}
