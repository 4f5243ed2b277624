import type { ModelCallTrace, ToolCallTrace, TraceRecord, TraceSummary } from "./types.js";
import { alignColumns } from "../infra/text-table.js";
import type { TracedMessage } from "./history-messages.js";

export interface RenderOptions {
  /** ANSI colours (a TTY). */
  color: boolean;
}

const HEAD_CHARS = 160;

/** A run's trace as a tree, model and tool calls in the order they happened. */
export function renderTraceTree(found: { trace: TraceRecord; systemPrompt?: string; history?: readonly TracedMessage[] }, opts: RenderOptions): string {
  const { trace, systemPrompt, history } = found;
  const c = colours(opts.color);
  const lines: string[] = [];
  lines.push(`${c.bold(`run ${trace.runId}`)}  ${outcomeText(trace, c)}  ${ms(trace.durationMs)}  ${trace.source}  ${trace.sessionKey}`);
  lines.push(
    `├─ started ${new Date(trace.startedAt).toISOString()}${trace.model ? `  model ${trace.model}` : ""}  tokens in ${trace.usage.input} / out ${trace.usage.output}${cacheText(trace.usage)}`,
  );
  if (trace.systemPromptHash)
    lines.push(
      `├─ system prompt ${trace.systemPromptHash.slice(0, 12)} (${trace.systemPromptChars ?? systemPrompt?.length ?? 0} chars)${trace.promptVersion ? `  version ${trace.promptVersion}` : ""}${trace.tools?.length ? `  tools: ${trace.tools.join(", ")}` : ""}`,
    );
  if (history) {
    lines.push(`├─ history ${history.length} message${history.length === 1 ? "" : "s"}`);
    for (const message of history) lines.push(`│  ${c.dim(historyLine(message))}`);
  }
  for (const input of trace.input) lines.push(`├─ ${c.cyan("user")} ${oneLine(input)}`);
  const steps = [
    ...trace.modelCalls.map((call) => ({ at: call.startedAt, line: () => modelLine(call, c), children: () => modelChildren(call) })),
    ...trace.toolCalls.map((tool) => ({ at: tool.startedAt, line: () => toolLine(tool, c), children: () => toolChildren(tool) })),
  ].sort((a, b) => a.at - b.at);
  for (const step of steps) {
    lines.push(`├─ ${step.line()}`);
    for (const child of step.children()) lines.push(`│  ${c.dim(child)}`);
  }
  for (const thought of trace.thinking) lines.push(`├─ ${c.dim(`thinking ${oneLine(thought)}`)}`);
  for (const compaction of trace.compactions)
    lines.push(
      `├─ compaction (${compaction.reason}) ${compaction.ok ? "ok" : "failed"}${compaction.tokensBefore !== undefined ? ` ${compaction.tokensBefore} → ${compaction.tokensAfter ?? "?"} tokens` : ""}`,
    );
  if (trace.error) lines.push(`├─ ${c.red(`error ${trace.error}`)}`);
  lines.push(`└─ ${c.green("reply")} ${trace.output ? oneLine(trace.output) : c.dim("(no text)")}`);
  return `${lines.join("\n")}\n`;
}

const LIST_HEADER = ["STARTED", "RUN", "OUTCOME", "TIME", "SOURCE", "SESSION", "MODEL", "TOKENS IN/OUT", "CALLS MODEL/TOOL"];

function listRow(t: TraceSummary): string[] {
  return [
    new Date(t.startedAt).toISOString().replace("T", " ").slice(0, 19),
    t.runId,
    t.outcome,
    ms(t.durationMs),
    t.source,
    t.sessionKey,
    t.model ?? "-",
    `${t.inputTokens}/${t.outputTokens}`,
    `${t.modelCalls}/${t.toolCalls}`,
  ];
}

/** One line per run, newest first, for `openclaw traces list`. */
export function renderTraceList(traces: readonly TraceSummary[]): string {
  if (traces.length === 0) return "No traces.\n";
  return `${alignColumns([LIST_HEADER, ...traces.map(listRow)]).join("\n")}\n`;
}

/** `openclaw traces search`: the list's lines, each hit's snippet indented beneath it. */
export function renderTraceSearch(hits: readonly (TraceSummary & { snippet: string })[]): string {
  if (hits.length === 0) return "No traces match.\n";
  const [header, ...rows] = alignColumns([LIST_HEADER, ...hits.map(listRow)]);
  return `${header}\n${rows.map((row, i) => `${row}\n    ${hits[i]!.snippet}`).join("\n")}\n`;
}

function modelLine(call: ModelCallTrace, c: Colours): string {
  const usage = call.usage ? `  in ${call.usage.input} / out ${call.usage.output}${cacheText(call.usage)}` : "";
  const ttft = call.ttftMs !== undefined ? `  ttft ${ms(call.ttftMs)}` : "";
  const status = call.error ? c.red(`  ${call.error}`) : call.stopReason ? `  ${call.stopReason}` : "";
  return `${c.magenta("model")} ${call.provider ?? "?"}/${call.model ?? "?"}${call.authProfile ? ` [${call.authProfile}]` : ""}  ${ms(call.latencyMs)}${ttft}${usage}${status}`;
}

function modelChildren(call: ModelCallTrace): string[] {
  return call.failover.map((a) => `failover: ${a.ref}${a.profileId ? ` [${a.profileId}]` : ""} ${a.reason}: ${oneLine(a.message)}`);
}

function toolLine(tool: ToolCallTrace, c: Colours): string {
  const status = tool.decision !== "allowed" ? c.red(`  ${tool.decision}`) : tool.isError ? c.red("  error") : "";
  return `${c.yellow("tool")} ${tool.name} ${oneLine(JSON.stringify(tool.args) ?? "")}  ${tool.durationMs !== undefined ? ms(tool.durationMs) : "?"}${status}`;
}

function toolChildren(tool: ToolCallTrace): string[] {
  const out: string[] = [];
  if (tool.decisionReason) out.push(`policy: ${oneLine(tool.decisionReason)}`);
  if (tool.approval) out.push(`approval: ${tool.approval.policy}${tool.approval.answer ? ` → ${tool.approval.answer}` : ""} (${tool.approval.allowed ? "ran" : "denied"})`);
  if (tool.resultHead !== undefined) out.push(`result (${tool.resultChars ?? 0} chars): ${oneLine(tool.resultHead)}`);
  return out;
}

/** A history message on one line: its role, then its text, tool calls or images. */
function historyLine(message: TracedMessage): string {
  const role = message.role === "toolResult" ? `tool result ${String(message.toolName ?? "")}`.trim() : message.role;
  if (typeof message.content === "string") return `${role} ${oneLine(message.content)}`;
  const parts: string[] = [];
  for (const block of Array.isArray(message.content) ? (message.content as Record<string, unknown>[]) : []) {
    if (block.type === "text") parts.push(String(block.text ?? ""));
    else if (block.type === "toolCall") parts.push(`[calls ${String(block.name)} ${JSON.stringify(block.arguments) ?? ""}]`);
    else if (block.type === "image") parts.push(`[image ${String(block.mimeType)}]`);
  }
  return `${role} ${oneLine(parts.join(" "))}`;
}

function outcomeText(trace: TraceRecord, c: Colours): string {
  return trace.outcome === "ok" ? c.green("ok") : c.red(trace.outcome);
}

function cacheText(usage: { cacheRead: number; cacheWrite: number }): string {
  return usage.cacheRead || usage.cacheWrite ? ` (cache read ${usage.cacheRead}, write ${usage.cacheWrite})` : "";
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > HEAD_CHARS ? `${flat.slice(0, HEAD_CHARS)}…` : flat;
}

function ms(value: number): string {
  return value >= 10_000 ? `${(value / 1000).toFixed(1)}s` : `${Math.round(value)}ms`;
}

type Colours = ReturnType<typeof colours>;

function colours(on: boolean) {
  const wrap = (code: number) => (text: string) => (on ? `\u001b[${code}m${text}\u001b[0m` : text);
  return { bold: wrap(1), dim: wrap(2), red: wrap(31), green: wrap(32), yellow: wrap(33), magenta: wrap(35), cyan: wrap(36) };
}
