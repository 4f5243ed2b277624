import type { PromptResponse, SessionNotification, SessionUpdate, StopReason } from "@agentclientprotocol/sdk";
import type { BridgeSession } from "./sessions.js";
import { toolContent, toolKind, toolLocations, toolTitle } from "./tool-calls.js";
import type { AgentEventPayload, ChatEventPayload } from "./types.js";

type Notify = (notification: SessionNotification) => Promise<void>;

/** One `session/prompt` waiting for its gateway run (runId = the chat.send idempotencyKey). */
export interface PromptRun {
  session: BridgeSession;
  runId: string;
  /** The gateway steered this prompt into a turn already running: its events carry that turn's runId. */
  steered?: boolean;
  /** Text of the current assistant segment as streamed so far (a tool round starts a new one). */
  segment: string;
  streamedText: boolean;
  toolCalls: Set<string>;
  /** Set while the gateway connection is down: the disconnect this run is waiting out. */
  lostConnection?: number;
  settle(result: PromptResponse | Error): void;
}

/**
 * The prompts in flight and how gateway `chat` / `agent` events become their `session/update`s.
 * Updates of a session go out in order, and a prompt's response only after its last update.
 */
export class PromptRuns {
  private readonly runs = new Map<string, PromptRun>();
  private sendChain: Promise<void> = Promise.resolve();

  constructor(
    private readonly notify: Notify,
    private readonly log: (line: string) => void,
  ) {}

  start(session: BridgeSession, runId: string): Promise<PromptResponse> {
    return new Promise<PromptResponse>((resolve, reject) => {
      const run: PromptRun = {
        session,
        runId,
        segment: "",
        streamedText: false,
        toolCalls: new Set(),
        settle: (result) => {
          if (this.runs.get(runId) !== run) return;
          this.runs.delete(runId);
          // After every update already queued for this run.
          void this.sendChain.then(() => (result instanceof Error ? reject(result) : resolve(result)));
        },
      };
      this.runs.set(runId, run);
    });
  }

  get(runId: string): PromptRun | undefined {
    return this.runs.get(runId);
  }

  all(): PromptRun[] {
    return [...this.runs.values()];
  }

  activeFor(sessionId: string): PromptRun | undefined {
    return this.all().find((r) => r.session.sessionId === sessionId);
  }

  activeForKey(canonicalKey: string): PromptRun[] {
    return this.all().filter((r) => r.session.canonicalKey === canonicalKey);
  }

  send(run: PromptRun, update: SessionUpdate): void {
    const notification = { sessionId: run.session.sessionId, update };
    this.sendChain = this.sendChain.then(() => this.notify(notification)).catch((err) => this.log(`session/update failed: ${(err as Error).message}`));
  }

  sendText(run: PromptRun, text: string, kind: "agent_message_chunk" | "agent_thought_chunk" = "agent_message_chunk"): void {
    if (!text) return;
    if (kind === "agent_message_chunk") run.streamedText = true;
    this.send(run, { sessionUpdate: kind, content: { type: "text", text } });
  }

  /** The prompt a gateway event belongs to: by its runId, or the steered prompt of its session. */
  private runFor(payload: ChatEventPayload | AgentEventPayload): PromptRun | undefined {
    if (typeof payload?.runId !== "string") return undefined;
    const own = this.runs.get(payload.runId);
    if (own) return own;
    const steered = this.all().filter((r) => r.steered && r.session.canonicalKey === payload.sessionKey);
    return steered.length === 1 ? steered[0] : undefined;
  }

  /** A gateway `chat` event: deltas stream, a terminal state ends the prompt. */
  onChat(payload: ChatEventPayload): void {
    const run = this.runFor(payload);
    if (!run) return;
    switch (payload.state) {
      case "delta": {
        const delta = typeof payload.deltaText === "string" ? payload.deltaText : "";
        if (payload.replace) {
          // A new assistant message after tool calls: the IDE keeps the old text, so separate them.
          if (run.segment && delta) this.sendText(run, "\n\n");
          run.segment = "";
        }
        run.segment += delta;
        this.sendText(run, delta);
        break;
      }
      case "final":
        this.sendText(run, unsentTail(run, messageText(payload.message)));
        run.settle({ stopReason: payload.stopReason === "length" || payload.stopReason === "max_tokens" ? "max_tokens" : "end_turn" });
        break;
      case "aborted":
        run.settle({ stopReason: "cancelled" });
        break;
      case "error": {
        const shown = messageText(payload.message);
        this.sendText(run, shown ? unsentTail(run, shown) : `OpenClaw: the run failed: ${payload.errorMessage ?? "unknown error"}`);
        run.settle({ stopReason: (payload.errorKind === "refusal" ? "refusal" : "end_turn") satisfies StopReason });
        break;
      }
    }
  }

  /** A gateway `agent` event: tool calls and thinking. */
  onAgent(payload: AgentEventPayload): void {
    const run = this.runFor(payload);
    const data = payload?.data;
    if (!run || !data || typeof data !== "object") return;
    if (payload.stream === "thinking" && typeof data.delta === "string") {
      this.sendText(run, data.delta, "agent_thought_chunk");
      return;
    }
    if (payload.stream !== "tool" || typeof data.toolCallId !== "string") return;
    const toolCallId: string = data.toolCallId;
    if (data.phase === "start") {
      if (run.toolCalls.has(toolCallId)) return;
      run.toolCalls.add(toolCallId);
      const locations = toolLocations(data.args);
      this.send(run, {
        sessionUpdate: "tool_call",
        toolCallId,
        title: toolTitle(data.name, data.args),
        kind: toolKind(data.name),
        status: "in_progress",
        rawInput: data.args,
        ...(locations ? { locations } : {}),
      });
    } else if (data.phase === "update" || data.phase === "result") {
      const done = data.phase === "result";
      const output = done ? data.result : data.partialResult;
      const content = toolContent(output);
      this.send(run, {
        sessionUpdate: "tool_call_update",
        toolCallId,
        status: done ? (data.isError ? "failed" : "completed") : "in_progress",
        rawOutput: output,
        ...(content ? { content } : {}),
      });
      if (done) run.toolCalls.delete(toolCallId);
    }
  }
}

/** What of a final message's text the IDE has not seen yet. */
export function unsentTail(run: PromptRun, text: string): string {
  if (!text) return "";
  if (text.startsWith(run.segment)) return text.slice(run.segment.length);
  return run.streamedText ? "" : text;
}

export function messageText(message: unknown): string {
  const content = (message as { content?: unknown } | undefined)?.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((b) => b?.type === "text" && typeof b.text === "string")
    .map((b) => b.text)
    .join("");
}
