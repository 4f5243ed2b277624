import { TOOL_ERRORS } from "../tool-errors.js";
import { toolError } from "../tool-result.js";
import type {
  AgentEvent,
  AgentTool,
  ModelMessage,
  ResolvedModel,
  RunResult,
  StopReason,
  StreamModelFn,
  ToolCallBlock,
  ToolContext,
  ToolHooks,
  ToolResultMessage,
  ToolSpec,
  HistoryMessage,
  Usage,
  UserMessage,
} from "../types.js";
import { assistantText, isSilentReply, toModelMessages } from "./model-messages.js";
import { runToolCall } from "./run-tool-call.js";
import { CLIENT_TOOL_HANDOFF_RESULT, type ClientToolCall } from "../client-tools.js";
import { addUsage, streamAssistantTurn } from "./stream-turn.js";

/** The longest delay a Node timer holds (2^31 - 1 ms, about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface AgentLoopInput {
  runId: string;
  model: ResolvedModel;
  systemPrompt: string;
  history: readonly HistoryMessage[];
  prompt: UserMessage;
  tools: readonly AgentTool[];
  /** The tools as the provider should see them (already normalized for it). */
  toolSpecs: readonly ToolSpec[];
  toolContext: ToolContext;
  streamModel: StreamModelFn;
  hooks?: readonly ToolHooks[];
  /**
   * How the run is stopped; give one of the two. `signal`, which the loop follows with a signal of
   * its own (also aborted when the run times out); or `controller`, the caller's, which the loop
   * passes on as it is and aborts itself when the run times out (one signal per run, not two: each
   * costs microseconds on Node 20). With both, `signal` is not followed.
   */
  signal?: AbortSignal;
  controller?: AbortController;
  /** Run budget; 0 or absent = none. */
  timeoutMs?: number;
  /**
   * Messages that arrived for this session while the run was active (queue mode `steer`, and
   * control requests such as a progress card refresh). They are taken at each model boundary and
   * appended before the next model call; while `pending()` says so (user messages wait), tool
   * calls not yet started are skipped (see docs/sessions.md, `messages.queue`). Control requests
   * are not counted by `pending()`: they wait for the next call without cutting the round short.
   */
  steering?: { pending(): boolean; take(): UserMessage[] | Promise<UserMessage[]> };
  /**
   * Called synchronously with each message the run appends (assistant turns, tool results,
   * steering messages), in order, so the caller can persist as the run goes. A throw here (a
   * superseded writer) stops the run.
   */
  onAppend?: (message: ModelMessage) => void;
  /**
   * Called once when the provider says the request overflowed the context window, before the
   * failed turn is kept. Returns a smaller history (e.g. after compaction) to retry with, or
   * undefined to fail the run. `runMessages` counts the assistant and tool-result messages this
   * run appended so far (they follow the history, and the retry keeps them).
   */
  recoverOverflow?: (runMessages: number) => Promise<readonly HistoryMessage[] | undefined>;
  emit: (event: AgentEvent) => void;
}

/**
 * A turn's tools by name, worked out once per tool list (turns with the same tools share the
 * list); a list that changed length since is worked out again.
 */
const toolMaps = new WeakMap<readonly AgentTool[], { length: number; byName: ReadonlyMap<string, AgentTool> }>();

function toolsByName(list: readonly AgentTool[]): ReadonlyMap<string, AgentTool> {
  let known = toolMaps.get(list);
  if (known?.length !== list.length) toolMaps.set(list, (known = { length: list.length, byName: new Map(list.map((t) => [t.name, t])) }));
  return known.byName;
}

/**
 * The ReAct loop: ask the model, run the tools it calls, give it the results, repeat until it
 * answers in text. Policy (which tools exist, blocking, truncation, loop detection) lives in the
 * tools list and the hooks; this function only sequences. It never throws: every ending,
 * including abort and timeout, is a RunResult with a stop reason.
 */
export async function runAgentLoop(input: AgentLoopInput): Promise<RunResult> {
  const startedAt = Date.now();
  const controller = input.controller ?? new AbortController();
  let timedOut = false;
  const followed = input.controller ? undefined : input.signal;
  const onAbort = () => controller.abort(followed?.reason);
  if (followed?.aborted) controller.abort(followed.reason);
  else followed?.addEventListener("abort", onAbort, { once: true });
  // A bound past what a timer holds is no bound in practice; given to setTimeout it would fire at once.
  const timer =
    input.timeoutMs && input.timeoutMs <= MAX_TIMER_MS
      ? setTimeout(() => {
          if (controller.signal.aborted) return; // stopped already, for another reason
          timedOut = true;
          controller.abort(new Error("run timed out"));
        }, input.timeoutMs)
      : undefined;

  const emit = (event: AgentEvent) => {
    try {
      input.emit(event);
    } catch {
      // A subscriber's bug must not break the run.
    }
  };
  emit({ type: "agent_start", runId: input.runId, startedAt });

  const tools = toolsByName(input.tools);
  const messages: ModelMessage[] = toModelMessages(input.history, input.prompt);
  let historyLength = messages.length - 1;
  let overflowRecovered = false;
  const appended: ModelMessage[] = [];
  const append = (message: ModelMessage) => {
    appended.push(message);
    input.onAppend?.(message);
  };
  const usage: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  let stopReason: StopReason = "stop";
  let error: RunResult["error"];
  let finalText = "";
  const handedOff: ClientToolCall[] = [];

  const abortedReason = (): StopReason => (timedOut ? "timeout" : "aborted");

  try {
    for (;;) {
      if (controller.signal.aborted) {
        stopReason = abortedReason();
        break;
      }
      if (appended.length > 0) {
        for (const steer of (await input.steering?.take()) ?? []) {
          messages.push(steer);
          append(steer);
        }
      }
      const turn = await streamAssistantTurn(
        input.streamModel,
        { model: input.model, systemPrompt: input.systemPrompt, messages, tools: [...input.toolSpecs], maxTokens: input.model.maxTokens },
        controller.signal,
        emit,
      );
      if (turn.error?.kind === "context_length" && input.recoverOverflow && !overflowRecovered && !controller.signal.aborted) {
        overflowRecovered = true;
        const history = await input.recoverOverflow(appended.filter((m) => m.role !== "user").length);
        if (history) {
          const replacement = toModelMessages(history);
          messages.splice(0, historyLength, ...replacement);
          historyLength = replacement.length;
          continue;
        }
      }
      addUsage(usage, turn.message.usage);
      messages.push(turn.message);
      append(turn.message);
      if (turn.error) {
        if (controller.signal.aborted) stopReason = abortedReason();
        else {
          stopReason = "error";
          error = turn.error;
        }
        break;
      }
      finalText = assistantText(turn.message);
      const calls = turn.message.content.filter((b): b is ToolCallBlock => b.type === "toolCall");
      if (calls.length === 0) {
        stopReason = turn.message.stopReason === "length" ? "length" : "stop";
        break;
      }
      const round = await runToolCalls(calls, tools, input, controller.signal, emit, messages, append, handedOff);
      if (round.stop) {
        stopReason = "loop";
        error = { kind: "loop", message: round.stop };
        break;
      }
      // A client tool was called: the run ends here, and its caller runs the tool.
      if (handedOff.length > 0) {
        stopReason = "toolUse";
        break;
      }
      // A tool ended the turn (it waits for something that arrives as a later message): the text
      // written with the calls is the answer.
      if (round.endRun) break;
    }
  } catch (err) {
    // Only onAppend can throw here (everything else encodes failures): the caller lost the session.
    stopReason = "error";
    error = { kind: "unknown", message: (err as Error).message };
  } finally {
    clearTimeout(timer);
    followed?.removeEventListener("abort", onAbort);
  }
  if (stopReason === "timeout") error = { kind: "timeout", message: `run timed out after ${input.timeoutMs} ms` };

  const silent = isSilentReply(finalText);
  // A run that handed calls to its caller answers with the text written before them.
  const lastIsFinal = stopReason === "stop" || stopReason === "length" || stopReason === "toolUse";
  const result: RunResult = {
    runId: input.runId,
    payloads: lastIsFinal && finalText.trim() && !silent ? [{ text: finalText }] : [],
    usage,
    durationMs: Date.now() - startedAt,
    stopReason,
    ...(error ? { error } : {}),
    messages: appended,
    ...(stopReason === "toolUse" ? { clientToolCalls: handedOff } : {}),
  };
  emit({ type: "agent_end", result });
  return result;
}

/**
 * Run the calls of one assistant turn in order. Returns a stop message if a hook ended the run,
 * and whether a successful call of an `endsRun` tool ends it after this round. A call of a client
 * tool is not run: it goes into `handedOff`, and its result in the transcript says so (the
 * caller's result comes as the next message).
 */
async function runToolCalls(
  calls: ToolCallBlock[],
  tools: ReadonlyMap<string, AgentTool>,
  input: AgentLoopInput,
  signal: AbortSignal,
  emit: (event: AgentEvent) => void,
  messages: ModelMessage[],
  append: (message: ModelMessage) => void,
  handedOff: ClientToolCall[],
): Promise<{ stop?: string; endRun: boolean }> {
  let stop: string | undefined;
  let endRun = false;
  for (const call of calls) {
    emit({ type: "tool_execution_start", toolCallId: call.id, toolName: call.name, args: call.arguments });
    const handoff = tools.get(call.name)?.handoff === true && !signal.aborted && !stop;
    if (handoff) handedOff.push({ id: call.id, name: call.name, arguments: call.arguments });
    // Once the run is stopping, remaining calls still get a result: providers reject dangling calls.
    const outcome = handoff
      ? { result: { content: [{ type: "text" as const, text: CLIENT_TOOL_HANDOFF_RESULT }] } }
      : signal.aborted || stop
        ? { result: toolError(TOOL_ERRORS.abortedBeforeRunning()) }
        : input.steering?.pending()
          ? { result: { content: [{ type: "text" as const, text: "Skipped due to queued user message." }], isError: true } }
          : await runToolCall(call, tools, input.hooks ?? [], input.toolContext, signal, (partial) =>
              emit({ type: "tool_execution_update", toolCallId: call.id, toolName: call.name, partialResult: partial }),
            );
    const isError = Boolean(outcome.result.isError);
    emit({ type: "tool_execution_end", toolCallId: call.id, toolName: call.name, result: outcome.result, isError });
    const message: ToolResultMessage = {
      role: "toolResult",
      toolCallId: call.id,
      toolName: call.name,
      content: outcome.result.content,
      isError,
      ...(outcome.result.details === undefined ? {} : { details: outcome.result.details }),
      timestamp: Date.now(),
    };
    messages.push(message);
    append(message);
    if ("stop" in outcome && outcome.stop) stop ??= outcome.stop;
    if (!isError && !handoff && tools.get(call.name)?.endsRun) endRun = true;
  }
  return { stop, endRun };
}
