import type { AgentEvent, RunResult } from "../agents/types.js";
import { wasCutByShutdown } from "./shutdown-endings.js";

/** Where a run's wire events go; the server fans them out to the connections allowed to see them. */
export interface RunEventSink {
  agent(payload: Record<string, unknown>, opts?: { toolEvent?: boolean }): void;
  chat(payload: Record<string, unknown>): void;
  /**
   * Whether anyone could receive a run event now (absent: always). While no one can, a run's
   * events are not built at all; the next one built after someone arrives carries the reply's
   * text so far, so a late listener still sees all of it.
   */
  listening?(): boolean;
}

export interface RunEventBridgeOptions {
  runId: string;
  sessionKey: string;
  agentId: string;
  sink: RunEventSink;
  /**
   * Streamed text (chat deltas, `agent` assistant and thinking events) is coalesced to at most
   * one event per interval (the first goes out at once).
   */
  chatDeltaIntervalMs?: number;
}

/**
 * Map the loop's events onto the protocol's `agent` events (`lifecycle` / `assistant` /
 * `thinking` / `tool`, with a per-run `seq`) and `chat` events (`delta` / `final` / `error` /
 * `aborted`). Exactly one terminal lifecycle event and one terminal chat event per run.
 */
/** The cumulative text is sent again once the reply grew by 1/4 of what was last sent. */
const CUMULATIVE_GROWTH = 4;

export function createRunEventBridge(opts: RunEventBridgeOptions) {
  const { runId, sessionKey, agentId, sink } = opts;
  const interval = opts.chatDeltaIntervalMs ?? 100;
  let agentSeq = 0;
  let chatSeq = 0;
  let text = "";
  let pendingDelta = "";
  let pendingThinking = "";
  /** Length of the text when its cumulative copy was last sent. */
  let cumulativeSent = 0;
  let replaceNext = false;
  let lastChatAt = 0;
  let flushTimer: NodeJS.Timeout | undefined;
  let startedAt = Date.now();
  let ended = false;

  const listening = () => sink.listening?.() ?? true;
  /** True (and the pending deltas dropped) while no one listens: the next delta sent carries the whole text, as cumulativeSent stays. */
  const dropWhileNobodyListens = (): boolean => {
    if (listening()) return false;
    pendingThinking = "";
    pendingDelta = "";
    return true;
  };
  const agent = (stream: string, data: Record<string, unknown>, toolEvent = false) => {
    agentSeq += 1;
    sink.agent({ runId, seq: agentSeq, stream, ts: Date.now(), data, sessionKey, agentId }, toolEvent ? { toolEvent } : undefined);
  };
  const chatBase = () => ({ runId, sessionKey, agentId, seq: ++chatSeq });
  const chatMessage = (body: string) => ({ role: "assistant", content: [{ type: "text", text: body }], timestamp: Date.now() });

  const flushDelta = (final = false) => {
    clearTimeout(flushTimer);
    flushTimer = undefined;
    lastChatAt = Date.now();
    if (dropWhileNobodyListens()) return;
    if (pendingThinking) agent("thinking", { delta: pendingThinking });
    pendingThinking = "";
    if (!pendingDelta) {
      // The reply's last event carries all of its text, even when its last delta went out earlier.
      if (final && cumulativeSent < text.length) {
        cumulativeSent = text.length;
        agent("assistant", { delta: "", text });
      }
      return;
    }
    // The cumulative copy rides along only once the reply grew by a fraction of what was last
    // sent (and on a replace or the last flush): bytes on the wire stay linear in the reply.
    const withCumulative = final || replaceNext || text.length - cumulativeSent >= cumulativeSent / CUMULATIVE_GROWTH;
    if (withCumulative) cumulativeSent = text.length;
    agent("assistant", { delta: pendingDelta, ...(withCumulative ? { text } : {}), ...(replaceNext ? { replace: true } : {}) });
    sink.chat({ ...chatBase(), state: "delta", deltaText: pendingDelta, replace: replaceNext, ...(withCumulative ? { message: chatMessage(text) } : {}) });
    pendingDelta = "";
    replaceNext = false;
  };
  const scheduleFlush = () => {
    if (dropWhileNobodyListens()) return;
    if (Date.now() - lastChatAt >= interval) flushDelta();
    else flushTimer ??= setTimeout(flushDelta, interval);
  };

  /** A compaction's start and end, as `agent` events on the `compaction` stream. */
  const compaction = (event: Extract<AgentEvent, { type: "auto_compaction_start" | "auto_compaction_end" }>): void => {
    if (event.type === "auto_compaction_start") agent("compaction", { phase: "start", reason: event.reason });
    else {
      const { type: _type, ...rest } = event;
      agent("compaction", { phase: "end", ...rest });
    }
  };

  return {
    onEvent(event: AgentEvent): void {
      if (ended) return;
      switch (event.type) {
        case "agent_start":
          startedAt = event.startedAt;
          if (listening()) agent("lifecycle", { phase: "start", startedAt });
          else agentSeq += 1;
          break;
        case "message_start":
          // A new assistant turn after tool calls: its text replaces what the user saw so far.
          if (text) {
            flushDelta(true);
            text = "";
            cumulativeSent = 0;
            replaceNext = true;
          }
          break;
        case "message_update":
          if (event.delta.kind === "thinking") {
            pendingThinking += event.delta.text;
            scheduleFlush();
            break;
          }
          if (event.delta.kind !== "text") break;
          text += event.delta.text;
          pendingDelta += event.delta.text;
          scheduleFlush();
          break;
        case "tool_execution_start":
          flushDelta(true);
          agent("tool", { phase: "start", name: event.toolName, toolCallId: event.toolCallId, args: event.args }, true);
          break;
        case "tool_execution_update":
          agent("tool", { phase: "update", name: event.toolName, toolCallId: event.toolCallId, partialResult: event.partialResult }, true);
          break;
        case "tool_execution_end":
          agent("tool", { phase: "result", name: event.toolName, toolCallId: event.toolCallId, result: event.result, isError: event.isError }, true);
          break;
        case "auto_compaction_start":
        case "auto_compaction_end":
          compaction(event);
          break;
        case "message_end":
        case "agent_end":
          break;
      }
    },

    /** Also after the run's terminal events: the threshold compaction runs once the reply is out. */
    compaction,

    /** Emit the terminal events for a finished run (also for runs that failed before the loop). */
    finish(result: Pick<RunResult, "payloads" | "stopReason" | "error"> & { usage?: RunResult["usage"] }): void {
      if (ended) return;
      flushDelta(true);
      ended = true;
      if (!listening()) return;
      const endedAt = Date.now();
      const finalText = result.payloads.map((p) => p.text).join("\n\n");
      if (result.stopReason === "aborted") {
        // OpenClaw's stopReason: `restart` when the gateway's stop cut the run, `rpc` for a user's stop.
        const stopReason = wasCutByShutdown(result) ? "restart" : "rpc";
        agent("lifecycle", { phase: "end", startedAt, endedAt, aborted: true, ...(stopReason === "restart" ? { stopReason } : {}) });
        sink.chat({
          ...chatBase(),
          state: "aborted",
          ...(text ? { message: chatMessage(text) } : {}),
          stopReason,
          ...(result.error ? { errorMessage: result.error.message } : {}),
        });
      } else if (result.error && result.stopReason !== "stop") {
        agent("lifecycle", { phase: "error", startedAt, endedAt, error: result.error.message });
        sink.chat({
          ...chatBase(),
          state: "error",
          errorMessage: result.error.message,
          errorKind: errorKind(result.error.kind),
          ...(result.usage ? { usage: result.usage } : {}),
          stopReason: result.stopReason,
          // A config error's message is also the reply the user should read.
          ...(finalText ? { message: chatMessage(finalText) } : {}),
        });
      } else {
        agent("lifecycle", { phase: "end", startedAt, endedAt });
        sink.chat({
          ...chatBase(),
          state: "final",
          ...(finalText ? { message: chatMessage(finalText) } : {}),
          ...(result.usage ? { usage: result.usage } : {}),
          stopReason: result.stopReason,
        });
      }
    },
  };
}

/**
 * The terminal events of a run answered by a turn that streams under another run id (its message
 * was merged into that turn or steered into it): the turn's outcome under its own id, without the
 * reply's text and usage, which the streaming run's final carries. A client waiting for its run's
 * end gets one; a client that shows each run's reply shows this one once (from the transcript).
 */
export function finishAnsweredRun(opts: Omit<RunEventBridgeOptions, "chatDeltaIntervalMs">, result: Pick<RunResult, "stopReason" | "error">): void {
  createRunEventBridge(opts).finish({ stopReason: result.stopReason, error: result.error, payloads: [] });
}

function errorKind(kind: string): string {
  if (kind === "timeout") return "timeout";
  if (kind === "rate_limit") return "rate_limit";
  if (kind === "context_length") return "context_length";
  return "unknown";
}

export type RunEventBridge = ReturnType<typeof createRunEventBridge>;
