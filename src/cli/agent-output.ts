import type { AgentFinalPayload } from "../gateway/methods/agent-final-payload.js";

/** An `agent` event payload as the gateway sends it (and the local run produces it). */
export interface AgentEventPayload {
  runId?: string;
  stream?: string;
  data?: Record<string, unknown>;
}

/** What `openclaw agent --json` prints, the same for the gateway and `--local`. */
export function agentJsonOutput(final: AgentFinalPayload) {
  return {
    runId: final.runId,
    status: final.status,
    summary: final.summary,
    payloads: final.result.payloads.map((p) => ({ text: p.text, mediaUrl: null })),
    meta: final.result.meta,
  };
}

/**
 * How `openclaw agent` shows a run in a terminal: the answer streamed as its text arrives, and
 * one line per tool call (`· read notes/todo.txt`, `· exec failed`). Without a terminal (a pipe,
 * a script) nothing streams: the final answer is printed once, so the output is exactly the reply.
 */
export class AgentRunPrinter {
  private streamed = false;
  private atLineStart = true;
  /** The text of the assistant message being streamed: a new message after tool calls starts over. */
  private messageText = "";

  constructor(private readonly out: { write(text: string): unknown; isTTY?: boolean }) {}

  get live(): boolean {
    return this.out.isTTY === true;
  }

  onEvent(payload: AgentEventPayload): void {
    if (!this.live) return;
    const data = payload.data ?? {};
    if (payload.stream === "assistant" && typeof data.delta === "string") {
      // `text` is the message so far; when it is not our text plus the delta, a new message began.
      const text = typeof data.text === "string" ? data.text : this.messageText + data.delta;
      if (text !== this.messageText + data.delta) this.newLine();
      this.messageText = text;
      this.write(data.delta);
      this.streamed = true;
    } else if (payload.stream === "tool" && (data.phase === "start" || (data.phase === "result" && data.isError === true))) {
      this.newLine();
      const line = data.phase === "start" ? `· ${String(data.name)}${describeArgs(data.args)}` : `· ${String(data.name)} failed`;
      this.write(`${line}\n`);
      this.messageText = "";
    }
  }

  /** The end of the run: what was not streamed is printed now; a failure goes to stderr. */
  finish(final: AgentFinalPayload, err: { write(text: string): unknown }): void {
    if (this.streamed) this.newLine();
    else for (const payload of final.result.payloads) this.write(`${payload.text}\n`);
    if (final.status !== "ok") {
      const error = final.result.meta.error as { message?: string } | undefined;
      const already = final.result.payloads.some((p) => p.text === error?.message);
      if (!already) err.write(`openclaw: run ended (${String(final.result.meta.stopReason ?? final.status)}): ${error?.message ?? final.summary}\n`);
    }
  }

  private write(text: string): void {
    if (!text) return;
    this.out.write(text);
    this.atLineStart = text.endsWith("\n");
  }

  private newLine(): void {
    if (!this.atLineStart) this.write("\n");
  }
}

/** The argument a reader recognises a call by (a path, a command, a URL), shortened to one line. */
function describeArgs(args: unknown): string {
  if (!args || typeof args !== "object") return "";
  const record = args as Record<string, unknown>;
  const main = ["path", "command", "url", "query", "file_path", "sessionKey"].map((key) => record[key]).find((v) => typeof v === "string") as string | undefined;
  if (!main) return "";
  const oneLine = main.replace(/\s+/g, " ").trim();
  return ` ${oneLine.length > 80 ? `${oneLine.slice(0, 77)}...` : oneLine}`;
}
