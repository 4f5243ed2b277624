import { createHash } from "node:crypto";
import type { AgentEvent, AssistantMessage, HistoryMessage, ModelMessage, ToolResult } from "../agents/types.js";
import type { ExternalTraceEvent, FailoverAttemptTrace, ModelCallTrace, ToolCallTrace, TraceEnd, TraceRecord, TraceStart } from "./types.js";

/** An event as the run collected it: when it came, and what it was. */
export type TimedEvent =
  | { at: number; event: AgentEvent }
  | { at: number; external: ExternalTraceEvent }
  /** The first streamed text or thinking of the current model call. */
  | { at: number; firstToken: true };

const RESULT_HEAD_CHARS = 500;

/** A built trace and, when the run had one, its system prompt (stored once per hash). */
export interface BuiltTrace {
  record: TraceRecord;
  systemPrompt?: { hash: string; text: string };
  /** The conversation the run was sent before its input (the recorder logs it: history-log.ts). */
  history?: readonly HistoryMessage[];
  /** Each model call's reply, in the order of `record.modelCalls` (undefined: the run ended before the call did). */
  replies: (AssistantMessage | undefined)[];
  /** What the run appended after its input, in order (replies, tool results, steered messages): what each later call was sent too. */
  runMessages: readonly ModelMessage[];
}

/** Turns what a run collected into its trace. Pure: the redactor is applied by the caller. */
export function buildTrace(start: TraceStart, startedAt: number, events: readonly TimedEvent[], end: TraceEnd, endedAt: number): BuiltTrace {
  const record: TraceRecord = {
    runId: start.runId,
    sessionKey: start.sessionKey,
    agentId: start.agentId,
    source: start.source,
    startedAt,
    endedAt,
    durationMs: endedAt - startedAt,
    outcome: end.outcome,
    ...(end.result.stopReason ? { stopReason: end.result.stopReason } : {}),
    ...(end.result.error ? { error: end.result.error.message } : {}),
    ...(end.result.model ? { model: end.result.model } : {}),
    input: [start.input, ...steeredInput(end.result.messages)],
    modelCalls: [],
    toolCalls: [],
    thinking: [],
    output: end.result.payloads.map((p) => p.text).join("\n\n"),
    usage: { ...end.result.usage },
    compactions: [],
  };
  let systemPrompt: BuiltTrace["systemPrompt"];
  let history: readonly HistoryMessage[] | undefined;
  let failover: FailoverAttemptTrace[] = [];
  let profile: string | undefined;
  let call: ModelCallTrace | undefined;
  const replies: (AssistantMessage | undefined)[] = [];
  const openTools = new Map<string, ToolCallTrace>();
  let externalText = "";

  for (const item of events) {
    if ("firstToken" in item) {
      if (call && call.ttftMs === undefined) call.ttftMs = item.at - call.startedAt;
      continue;
    }
    if ("external" in item) {
      const e = item.external;
      if (e.type === "text") {
        if (e.thought) record.thinking.push(e.text);
        else externalText += e.text;
      } else {
        const id = e.toolCallId ?? `tool-${record.toolCalls.length + 1}`;
        const known = openTools.get(id);
        if (known) {
          if (e.status === "completed" || e.status === "failed") {
            known.durationMs = item.at - known.startedAt;
            known.isError = e.status === "failed";
          }
        } else {
          const tool: ToolCallTrace = { id, name: e.title ?? e.text, args: {}, startedAt: item.at, decision: "allowed" };
          openTools.set(id, tool);
          record.toolCalls.push(tool);
        }
      }
      continue;
    }
    const e = item.event;
    switch (e.type) {
      case "run_context":
        systemPrompt = { hash: promptHash(e.systemPrompt), text: e.systemPrompt };
        record.systemPromptHash = systemPrompt.hash;
        record.systemPromptChars = e.systemPrompt.length;
        record.promptVersion = e.promptVersion;
        record.tools = e.tools;
        record.model ??= e.model;
        break;
      case "run_history":
        history = e.messages;
        break;
      case "model_attempt":
        if (e.ok) profile = e.profileId;
        else failover.push({ ref: e.ref, ...(e.profileId ? { profileId: e.profileId } : {}), reason: e.reason ?? "unknown", message: e.message ?? "" });
        break;
      case "message_start":
        call = { provider: e.message.provider, model: e.message.model, startedAt: item.at, latencyMs: 0, failover: [] };
        break;
      case "message_end": {
        const m = e.message;
        const current = call ?? { startedAt: item.at, latencyMs: 0, failover: [] };
        current.provider = m.provider ?? current.provider;
        current.model = m.model ?? current.model;
        current.latencyMs = item.at - current.startedAt;
        if (m.usage) current.usage = { ...m.usage };
        if (m.stopReason) current.stopReason = m.stopReason;
        if (m.errorMessage) current.error = m.errorMessage;
        if (profile) current.authProfile = profile;
        current.failover = failover;
        record.modelCalls.push(current);
        replies.push(m);
        for (const block of m.content) if (block.type === "thinking" && block.thinking) record.thinking.push(block.thinking);
        call = undefined;
        failover = [];
        profile = undefined;
        break;
      }
      case "tool_execution_start": {
        const tool: ToolCallTrace = { id: e.toolCallId, name: e.toolName, args: e.args, startedAt: item.at, decision: "allowed" };
        openTools.set(e.toolCallId, tool);
        record.toolCalls.push(tool);
        break;
      }
      case "tool_decision": {
        const tool = openTools.get(e.toolCallId);
        if (tool) {
          tool.decision = e.action === "block" ? "blocked" : "stopped";
          tool.decisionReason = e.reason;
        }
        break;
      }
      case "exec_approval": {
        // The gate is asked by the exec call that is running: the latest one without a result.
        const tool = [...openTools.values()].reverse().find((t) => t.durationMs === undefined);
        if (tool)
          tool.approval = { command: e.command, policy: e.policy, ...(e.answer ? { answer: e.answer } : {}), allowed: e.allowed, ...(e.reason ? { reason: e.reason } : {}) };
        break;
      }
      case "tool_execution_end": {
        const tool = openTools.get(e.toolCallId);
        if (!tool) break;
        const text = resultText(e.result);
        tool.durationMs = item.at - tool.startedAt;
        tool.isError = e.isError;
        tool.resultChars = text.length;
        tool.resultHead = text.slice(0, RESULT_HEAD_CHARS);
        break;
      }
      case "auto_compaction_end":
        record.compactions.push({
          reason: e.reason,
          ok: e.ok,
          ...(e.tokensBefore !== undefined ? { tokensBefore: e.tokensBefore } : {}),
          ...(e.tokensAfter !== undefined ? { tokensAfter: e.tokensAfter } : {}),
        });
        break;
      default:
        break;
    }
  }
  // A call still open when the run ended (aborted mid-stream) is kept with what it got.
  if (call) {
    call.latencyMs = endedAt - call.startedAt;
    call.error ??= "the run ended before the call finished";
    call.failover = failover;
    record.modelCalls.push(call);
    replies.push(undefined);
  }
  if (!record.output && externalText) record.output = externalText;
  return { record, ...(systemPrompt ? { systemPrompt } : {}), ...(history ? { history } : {}), replies, runMessages: end.result.messages ?? [] };
}

function resultText(result: ToolResult): string {
  let text = "";
  for (const block of result.content) if (block.type === "text") text += text ? `\n${block.text}` : block.text;
  return text;
}

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** A session's turns send the same few prompts over and over: their hashes are remembered. */
const promptHashes = new Map<string, string>();
const MAX_PROMPT_HASHES = 32;

function promptHash(prompt: string): string {
  let hash = promptHashes.get(prompt);
  if (hash === undefined) {
    hash = sha256(prompt);
    promptHashes.set(prompt, hash);
    if (promptHashes.size > MAX_PROMPT_HASHES) promptHashes.delete(promptHashes.keys().next().value!);
  }
  return hash;
}

/** The texts of the user messages a run took while it ran (steering), in order. */
function steeredInput(messages: TraceEnd["result"]["messages"]): string[] {
  const texts: string[] = [];
  for (const m of messages ?? []) {
    if (m.role !== "user") continue;
    const text = typeof m.content === "string" ? m.content : m.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
    if (text) texts.push(text);
  }
  return texts;
}
