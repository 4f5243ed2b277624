import type { HistoryMessage } from "../models/messages.js";
import { type TracedMessage, tracedMessage } from "./history-messages.js";
import type { TraceRedactor } from "./redaction.js";
import type { BuiltTrace } from "./trace-builder.js";

/** What a run said beyond its trace record, exported only with `captureContent`: redacted as the trace is. */
export interface RunContent {
  /** The system prompt the run's model calls were sent. */
  systemInstructions?: string;
  /** The conversation the run was sent before its input, as the trace stores it. */
  history: readonly TracedMessage[];
  /** Per model call, in the order of the record's `modelCalls`: what it was sent after the run's input, and its reply. */
  calls: readonly CallContent[];
}

/**
 * One model call's own part: `before` is what the run had appended when the call was made (earlier
 * replies, tool results, steered messages), so the call was sent the history, the run's input and
 * then these. Undefined for a call whose reply the run did not keep (one retried after an overflow
 * compaction, with a history the trace does not hold): its input is not known, only its reply.
 */
export interface CallContent {
  before?: readonly TracedMessage[];
  reply?: TracedMessage;
}

/** Redacted prompts kept by hash: a gateway's agents send a handful (a prompt changes with its tools and files). */
const MAX_PROMPTS = 64;

/**
 * The system prompt and history of each exported run, each redacted once: a session's runs resend
 * the same message objects and mostly the same prompt, so a long session does not redact its whole
 * window again for every run. A new redactor (the config changed) starts over.
 */
export class ExportedContent {
  private redactor: TraceRedactor | undefined;
  private messages = new WeakMap<object, TracedMessage>();
  private readonly prompts = new Map<string, string>();

  of(built: BuiltTrace, redactor: TraceRedactor): RunContent {
    const appended = built.runMessages.map((message) => this.message(message, redactor));
    return {
      ...(built.systemPrompt ? { systemInstructions: this.prompt(built.systemPrompt, redactor) } : {}),
      history: (built.history ?? []).map((message) => this.message(message, redactor)),
      calls: built.replies.map((reply): CallContent => {
        if (!reply) return {};
        const at = built.runMessages.indexOf(reply);
        return at < 0 ? { reply: this.message(reply, redactor) } : { before: appended.slice(0, at), reply: appended[at] };
      }),
    };
  }

  /** One message as the trace stores it (tracedMessage), from the cache: the trace's own history log takes it from here too. */
  message(message: HistoryMessage, redactor: TraceRedactor): TracedMessage {
    this.use(redactor);
    let traced = this.messages.get(message);
    if (!traced) {
      traced = tracedMessage(message, redactor);
      this.messages.set(message, traced);
    }
    return traced;
  }

  private use(redactor: TraceRedactor): void {
    if (redactor === this.redactor) return;
    this.redactor = redactor;
    this.messages = new WeakMap();
    this.prompts.clear();
  }

  private prompt(prompt: { hash: string; text: string }, redactor: TraceRedactor): string {
    this.use(redactor);
    let text = this.prompts.get(prompt.hash);
    if (text === undefined) {
      if (this.prompts.size >= MAX_PROMPTS) this.prompts.clear();
      text = redactor.text(prompt.text);
      this.prompts.set(prompt.hash, text);
    }
    return text;
  }
}
