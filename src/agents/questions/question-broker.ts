import { randomUUID } from "node:crypto";
import type { ChatSenders } from "./chat-answerers.js";
import { answersFromText } from "./text-answers.js";

/** One question as an operator sees it (OpenClaw's QuestionSchema without secret-store fields). */
export interface Question {
  questionId: string;
  header: string;
  question: string;
  url?: string;
  options: { label: string; description?: string }[];
  multiSelect?: boolean;
  isOther?: boolean;
  isSecret?: boolean;
}

export type QuestionStatus = "pending" | "answered" | "cancelled" | "expired";
export type QuestionAnswers = Record<string, string[]>;

export interface QuestionRecord {
  id: string;
  questions: Question[];
  agentId?: string;
  sessionKey?: string;
  runId?: string;
  createdAtMs: number;
  expiresAtMs: number;
  status: QuestionStatus;
  answers?: { answers: QuestionAnswers };
  resolvedBy?: string;
}

export type QuestionOutcome = { status: "answered"; answers: QuestionAnswers } | { status: "cancelled" } | { status: "expired" };

interface Pending {
  record: QuestionRecord;
  waiters: ((outcome: QuestionOutcome) => void)[];
  timer: NodeJS.Timeout;
  /** The chat senders the question is for (see mayAnswerInChat); not part of the record operators see. */
  askers?: ChatSenders;
}

const DEFAULT_TIMEOUT_MS = 10 * 60_000;
const RECENT_LIMIT = 200;

/**
 * Structured questions waiting for an operator (`question.*`). A request is announced
 * (`onRequested`), ends once — answered, cancelled, or expired when nobody answers in time — and
 * every waiter learns the same outcome. Ended questions stay readable for a while (`get`).
 */
export class QuestionBroker {
  private readonly pending = new Map<string, Pending>();
  private readonly recent = new Map<string, QuestionRecord>();

  constructor(private readonly hooks: { onRequested?: (record: QuestionRecord) => void; onResolved?: (id: string, outcome: QuestionOutcome) => void } = {}) {}

  request(
    input: { id?: string; questions: Question[]; agentId?: string; sessionKey?: string; runId?: string; askers?: ChatSenders },
    timeoutMs = DEFAULT_TIMEOUT_MS,
  ): QuestionRecord {
    const id = input.id ?? randomUUID();
    if (this.pending.has(id) || this.recent.has(id)) throw new Error(`question id ${id} is already in use`);
    const ids = input.questions.map((q) => q.questionId);
    if (new Set(ids).size !== ids.length) throw new Error("questionId values must be unique within a request");
    const now = Date.now();
    const { questions, agentId, sessionKey, runId } = input;
    const record: QuestionRecord = {
      id,
      questions,
      ...(agentId ? { agentId } : {}),
      ...(sessionKey ? { sessionKey } : {}),
      ...(runId ? { runId } : {}),
      createdAtMs: now,
      expiresAtMs: now + timeoutMs,
      status: "pending",
    };
    const timer = setTimeout(() => this.finish(id, { status: "expired" }), timeoutMs);
    timer.unref();
    this.pending.set(id, { record, waiters: [], timer, ...(input.askers ? { askers: input.askers } : {}) });
    this.hooks.onRequested?.(record);
    return record;
  }

  /** The outcome once the question ends; resolves at once for one that already ended. Undefined: unknown id. */
  wait(id: string): Promise<QuestionOutcome> | undefined {
    const pending = this.pending.get(id);
    if (pending) return new Promise((resolve) => pending.waiters.push(resolve));
    const done = this.recent.get(id);
    return done ? Promise.resolve(outcomeOf(done)) : undefined;
  }

  /** Answers a pending question; every answered questionId must be one it asked. Returns an error text, or undefined. */
  answer(id: string, answers: QuestionAnswers, resolvedBy?: string): string | undefined {
    const pending = this.pending.get(id);
    if (!pending) return `question not found or no longer pending: ${id}`;
    const asked = new Set(pending.record.questions.map((q) => q.questionId));
    const unknown = Object.keys(answers).filter((k) => !asked.has(k));
    if (unknown.length > 0) return `answers name questions this request did not ask: ${unknown.join(", ")}`;
    const missing = [...asked].filter((k) => !answers[k]?.length);
    if (missing.length > 0) return `answers are missing for: ${missing.join(", ")}`;
    this.finish(id, { status: "answered", answers }, resolvedBy);
    return undefined;
  }

  cancel(id: string, resolvedBy?: string): boolean {
    if (!this.pending.has(id)) return false;
    this.finish(id, { status: "cancelled" }, resolvedBy);
    return true;
  }

  /** The pending question a run of this session asked (ask_user), if any: a session has at most one. */
  pendingIn(sessionKey: string): QuestionRecord | undefined {
    for (const { record } of this.pending.values()) if (record.runId && record.sessionKey === sessionKey) return record;
    return undefined;
  }

  /** The chat senders a pending question is for, when chat messages started its run. */
  askersOf(id: string): ChatSenders | undefined {
    return this.pending.get(id)?.askers;
  }

  /**
   * Answers a pending question from a typed reply (see answersFromText). Returns a text for the
   * one who replied when the reply does not answer it, or undefined once it is answered.
   */
  answerText(id: string, text: string, resolvedBy?: string): string | undefined {
    const record = this.pending.get(id)?.record;
    if (!record) return `That question was answered already or is no longer waiting.`;
    const read = answersFromText(record.questions, text);
    if ("problem" in read) return read.problem;
    return this.answer(id, read.answers, resolvedBy);
  }

  list(): QuestionRecord[] {
    return [...this.pending.values()].map((p) => p.record);
  }

  get(id: string): QuestionRecord | undefined {
    return this.pending.get(id)?.record ?? this.recent.get(id);
  }

  /** Cancels everything still open (shutdown). */
  cancelAll(): void {
    for (const id of [...this.pending.keys()]) this.finish(id, { status: "cancelled" });
  }

  private finish(id: string, outcome: QuestionOutcome, resolvedBy?: string): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    clearTimeout(pending.timer);
    const record: QuestionRecord = {
      ...pending.record,
      status: outcome.status,
      ...(outcome.status === "answered" ? { answers: { answers: outcome.answers } } : {}),
      ...(resolvedBy ? { resolvedBy } : {}),
    };
    this.recent.set(id, record);
    if (this.recent.size > RECENT_LIMIT) this.recent.delete(this.recent.keys().next().value!);
    for (const waiter of pending.waiters) waiter(outcome);
    this.hooks.onResolved?.(id, outcome);
  }
}

function outcomeOf(record: QuestionRecord): QuestionOutcome {
  if (record.status === "answered") return { status: "answered", answers: record.answers?.answers ?? {} };
  return { status: record.status === "pending" ? "expired" : record.status };
}
