import type { ResetInput, SubmitInput, SubmitOutcome } from "../../../src/agents/conversation-port.js";
import type { HeartbeatReport } from "../../../src/agents/types.js";
import type { CronConversations } from "../../../src/cron/ports.js";
import { type ManualRun, manualRun } from "../../helpers/manual-run.js";

export type CronFakeRun = ManualRun;

/**
 * The conversation core as the scheduler sees it: `submit` starts a run that the test (or
 * `autoReply`) finishes by hand, `reset` is recorded, keys are canonical `agent:main:…`.
 */
export class FakeCronConversations implements CronConversations {
  readonly submitted: SubmitInput[] = [];
  readonly resets: string[] = [];
  readonly all = new Map<string, CronFakeRun>();
  /** When set, each run ends at once with this answer (per message), and with the heartbeat_respond report a heartbeat turn made. */
  autoReply?: (input: SubmitInput) => { status: "ok" | "error"; text?: string; heartbeatReport?: HeartbeatReport } | undefined;

  readonly runs = {
    get: (runId: string) => this.all.get(runId),
    activeFor: (sessionKey: string) => [...this.all.values()].filter((r) => r.sessionKey === sessionKey && !r.endedAt),
  };

  resolveSessionKey(sessionKey: string | undefined, agentId: string | undefined): { sessionKey: string; agentId: string } {
    const agent = agentId ?? "main";
    if (!sessionKey) return { sessionKey: `agent:${agent}:main`, agentId: agent };
    if (sessionKey.startsWith("agent:")) return { sessionKey, agentId: sessionKey.split(":")[1]! };
    return { sessionKey: `agent:${agent}:${sessionKey}`, agentId: agent };
  }

  reset(input: ResetInput): { kind: "reset" } {
    this.resets.push(input.sessionKey);
    return { kind: "reset" };
  }

  isActive(sessionKey: string): boolean {
    return this.runs.activeFor(sessionKey).length > 0;
  }

  async submit(input: SubmitInput): Promise<SubmitOutcome> {
    this.submitted.push(input);
    const sessionKey = input.sessionKey!;
    const fields = { runId: input.idempotencyKey ?? `run-${this.submitted.length}`, sessionKey, agentId: input.agentId ?? "main" };
    const auto = this.autoReply?.(input);
    const run = manualRun(fields, (status, text) => ({
      runId: fields.runId,
      payloads: text ? [{ text }] : [],
      usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 },
      durationMs: 1,
      stopReason: status === "ok" ? "stop" : "error",
      messages: [],
      ...(status === "error" ? { error: { kind: "tool" as const, message: text || "model failed" } } : {}),
      ...(auto?.heartbeatReport ? { heartbeatReport: auto.heartbeatReport } : {}),
    }));
    this.all.set(run.runId, run);
    if (auto) queueMicrotask(() => run.finish(auto.status, auto.text));
    return { kind: "accepted", run, queued: "started" };
  }

  /** The run started for a cron run id (its idempotency key is `cron:<runId>`). */
  runFor(cronRunId: string): CronFakeRun {
    const run = this.all.get(`cron:${cronRunId}`);
    if (!run) throw new Error(`no run for cron run ${cronRunId}`);
    return run;
  }

  active(): CronFakeRun[] {
    return [...this.all.values()].filter((r) => !r.endedAt);
  }
}
