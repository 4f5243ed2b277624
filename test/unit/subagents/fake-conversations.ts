import type {
  AgentConversations as ConversationPort,
  RunStatus,
  SubmitInput as PortSubmitInput,
  SubmitOutcome as PortSubmitOutcome,
} from "../../../src/agents/conversation-port.js";
import type { TranscriptMessage } from "../../../src/agents/types.js";
import type { SessionStore } from "../../../src/sessions/store/index.js";
import { type ManualRun, manualRun } from "../../helpers/manual-run.js";

/** A submitted message: sub-agents always name its session and key it. */
export type Submitted = PortSubmitInput & { idempotencyKey: string; sessionKey: string };

/**
 * The conversation service as sub-agents see it, driven by hand: `submit` records the message
 * (and the key, like the idempotency ledger), `finish` ends a run with a reply. Keys survive
 * `restart()`, runs do not — as across a real gateway restart.
 */
export class FakeConversations implements ConversationPort {
  readonly submitted: Submitted[] = [];
  private readonly ledger = new Map<string, RunStatus | "in_flight" | "interrupted">();
  private readonly all = new Map<string, ManualRun>();
  private readonly histories = new Map<string, TranscriptMessage[]>();

  constructor(private readonly store: SessionStore) {}

  readonly runs = {
    get: (runId: string) => this.all.get(runId),
    activeFor: (sessionKey: string) => [...this.all.values()].filter((r) => r.sessionKey === sessionKey && !r.endedAt),
  };

  /** Every fork asked for, as `from → to`. */
  readonly forks: string[] = [];

  fork(fromKey: string, toKey: string): { forked: true; messages: number } {
    this.forks.push(`${fromKey} → ${toKey}`);
    const copy = [...(this.histories.get(fromKey) ?? [])];
    this.histories.set(toKey, copy);
    return { forked: true, messages: copy.length };
  }

  async submit(input: PortSubmitInput): Promise<PortSubmitOutcome> {
    // Sub-agents always name the session and key their messages; a submit without either is a bug in the code under test.
    const { idempotencyKey, sessionKey } = input;
    if (idempotencyKey === undefined || sessionKey === undefined) throw new Error(`submit without idempotencyKey or sessionKey: ${JSON.stringify(input)}`);
    const known = this.ledger.get(idempotencyKey);
    if (known !== undefined) return { kind: "duplicate", runId: idempotencyKey, sessionKey, status: known, run: this.all.get(idempotencyKey) };
    this.ledger.set(idempotencyKey, "in_flight");
    this.submitted.push({ ...input, idempotencyKey, sessionKey });
    this.store.ensure(sessionKey);
    this.push(sessionKey, { role: "user", content: input.message, timestamp: Date.now(), ...(input.provenance ? { provenance: input.provenance } : {}) });
    const fields = { runId: idempotencyKey, sessionKey, agentId: input.agentId ?? "main" };
    const run = manualRun(
      fields,
      (status, text) => ({
        runId: idempotencyKey,
        messages: [],
        payloads: text ? [{ text }] : [],
        usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 },
        durationMs: 7,
        stopReason: status === "ok" ? "stop" : status === "aborted" ? "aborted" : "error",
      }),
      (status, text) => {
        if (text) this.push(sessionKey, { role: "assistant", content: [{ type: "text", text }], timestamp: Date.now(), stopReason: "stop" });
        this.ledger.set(idempotencyKey, status);
      },
    );
    this.all.set(run.runId, run);
    return { kind: "accepted", run, queued: "started" };
  }

  abort(sessionKey: string): string[] {
    const active = this.runs.activeFor(sessionKey) as ManualRun[];
    for (const run of active) run.finish("aborted");
    return active.map((r) => r.runId);
  }

  history(sessionKey: string): readonly TranscriptMessage[] {
    return this.histories.get(sessionKey) ?? [];
  }

  /** The run started for the message with this key (the spawn's runId, an announcement's key…). */
  run(key: string): ManualRun {
    const run = this.all.get(key);
    if (!run) throw new Error(`no run ${key}; submitted: ${this.submitted.map((s) => s.idempotencyKey).join(", ")}`);
    return run;
  }

  /** Messages submitted to a session, in order. */
  to(sessionKey: string): Submitted[] {
    return this.submitted.filter((s) => s.sessionKey === sessionKey);
  }

  /** A gateway restart: unfinished runs die ("interrupted" in the ledger), finished keys are remembered. */
  restart(): void {
    for (const run of this.all.values()) if (!run.endedAt) this.ledger.set(run.runId, "interrupted");
    this.all.clear();
  }

  private push(sessionKey: string, message: TranscriptMessage): void {
    const list = this.histories.get(sessionKey) ?? [];
    list.push(message);
    this.histories.set(sessionKey, list);
  }
}

/** Lets queued microtasks, promise chains and setImmediate callbacks run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
}
