import type { Logger } from "../../infra/logger.js";
import { BackgroundPass } from "../background-pass.js";
import type { TraceRecord } from "../types.js";
import { JUDGE_MAX_TOKENS, judgePrompt, parseVerdict } from "./judge-prompt.js";
import type { JudgeSettings } from "./review-settings.js";
import type { Judgement, ReviewStore } from "./review-store.js";

/** One model call made for the judge: not an agent's run, so never traced and never queued. */
export interface JudgeCall {
  /** `provider/model`; absent: the default agent's model. */
  model?: string;
  systemPrompt: string;
  prompt: string;
  maxTokens: number;
}

/** The reply's text, or why there is none; `model` is the ref that answered (or was asked). */
export type JudgeAnswer = { ok: true; text: string; model: string; usage?: { input: number; output: number } } | { ok: false; error: string; model: string };

/** The port the gateway wires: a single model call, on the keys and cooldowns the gateway's turns use. */
export type JudgeModel = (call: JudgeCall, signal: AbortSignal) => Promise<JudgeAnswer>;

export interface ReviewJudgeDeps {
  model: JudgeModel;
  /** The judge's settings now; undefined when no judge is configured. */
  settings(): JudgeSettings | undefined;
  store(): Promise<{ reviews: ReviewStore; get(runId: string): { trace: TraceRecord } | undefined }>;
  logger: Logger;
}

/**
 * Grades queued runs in the background, one judge call at a time, oldest queued first
 * (docs/traces.md#llm-judge). Each run is graded once: a failed call is stored as `error` with its
 * reason and not retried, and ends the pass, so the runs still waiting are graded at the next kick
 * (a run queued, a label, a start). A call cut short by `close` stores nothing, so the run is
 * graded after the next start.
 */
export class ReviewJudge {
  private readonly passes = new BackgroundPass(
    () => this.gradeWaiting(),
    (err) => this.deps.logger.warn({ err: err.message }, "review judge stopped grading"),
  );
  private readonly stopping = this.passes.signal;

  constructor(private readonly deps: ReviewJudgeDeps) {}

  /** Grades whatever waits, unless a pass is already doing so (it then looks again when done). */
  kick(): void {
    if (this.deps.settings()) this.passes.kick();
  }

  /** Stops grading; an unfinished call is abandoned (its run stays ungraded). */
  close(): Promise<void> {
    return this.passes.close();
  }

  private async gradeWaiting(): Promise<void> {
    const store = await this.deps.store();
    for (;;) {
      const settings = this.deps.settings();
      if (!settings || this.stopping.aborted) return;
      const runId = store.reviews.nextUngraded();
      if (!runId) return;
      const found = store.get(runId);
      if (!found) continue;
      const judgement = await this.grade(settings, found.trace);
      if (!judgement) return;
      store.reviews.judge(runId, judgement);
      if (judgement.verdict === "error") {
        this.deps.logger.warn({ runId, model: judgement.model, reason: judgement.reason }, "review judge could not grade a run");
        // An unreachable model would fail every waiting run in turn: the rest wait for the next kick.
        return;
      }
    }
  }

  /** The verdict on one run; undefined when `close` cut the call short. */
  private async grade(settings: JudgeSettings, trace: TraceRecord): Promise<Judgement | undefined> {
    const { systemPrompt, prompt } = judgePrompt(settings.rubric, trace);
    const call: JudgeCall = { ...(settings.model ? { model: settings.model } : {}), systemPrompt, prompt, maxTokens: JUDGE_MAX_TOKENS };
    let answer: JudgeAnswer;
    try {
      answer = await this.deps.model(call, this.stopping);
    } catch (err) {
      answer = { ok: false, error: (err as Error).message, model: settings.model ?? "the default agent's model" };
    }
    if (this.stopping.aborted) return undefined;
    const at = Date.now();
    if (!answer.ok) return { verdict: "error", reason: answer.error, model: answer.model, at, rubricHash: settings.rubricHash };
    return { ...parseVerdict(answer.text), model: answer.model, at, ...(answer.usage ? { usage: answer.usage } : {}), rubricHash: settings.rubricHash };
  }
}
