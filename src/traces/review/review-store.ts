import type BetterSqlite3 from "better-sqlite3";
import { summaryColumns } from "../summary-columns.js";
import type { TraceRecord, TraceSummary } from "../types.js";
import type { GradedPair } from "./calibration.js";
import { type ReviewReason, reviewReasons, runTokens } from "./review-rules.js";
import type { ReviewSettings } from "./review-settings.js";

type Database = BetterSqlite3.Database;

export type FeedbackRating = "up" | "down";
export type ReviewLabel = "pass" | "fail";
export type ReviewStatus = "pending" | "labelled" | "all";

/** A queued run as `traces.review.list` and `openclaw traces review` show it. */
export interface ReviewItem {
  run: TraceSummary;
  queuedAt: number;
  reasons: ReviewReason[];
  totalTokens: number;
  label?: ReviewLabel;
  note?: string;
  labelledAt?: number;
  feedback?: { rating: FeedbackRating; note?: string; at: number };
  judge?: Judgement;
}

/** The LLM judge's grade of a queued run (docs/traces.md#llm-judge). */
export interface Judgement {
  verdict: "pass" | "fail" | "error";
  reason: string;
  /** The `provider/model` that graded it (or was to). */
  model: string;
  at: number;
  usage?: { input: number; output: number };
  /** The rubric it was graded against (`rubricHash`); absent on verdicts stored before rubrics were named. */
  rubricHash?: string;
  /** Set (true) when listed while a judge with another rubric is configured: the verdict is out of date. */
  outdated?: true;
}

/** Which verdicts `regrade` drops: those the current rubric did not give (and errors), or every one. */
export type RegradeScope = "outdated" | "all";

/** A regrade that cannot be done as asked (no judge, a run not queued): the caller's mistake, not a failure. */
export class RegradeRefusal extends Error {}

/**
 * The review queue's tables, in the trace database. `review_models` remembers when each agent
 * first ran on each model (seeded from the traces already stored when the table is made, so an
 * upgrade does not look like a model change).
 */
const REVIEW_SCHEMA = `
CREATE TABLE IF NOT EXISTS review_queue (run_id TEXT PRIMARY KEY, queued_at INTEGER NOT NULL, reasons TEXT NOT NULL, label TEXT, note TEXT, labelled_at INTEGER);
CREATE INDEX IF NOT EXISTS review_queue_order ON review_queue(queued_at);
CREATE TABLE IF NOT EXISTS review_feedback (run_id TEXT PRIMARY KEY, rating TEXT NOT NULL, note TEXT, at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS review_judgements (run_id TEXT PRIMARY KEY, verdict TEXT NOT NULL, reason TEXT NOT NULL, model TEXT NOT NULL, at INTEGER NOT NULL, input_tokens INTEGER, output_tokens INTEGER, rubric_hash TEXT);
`;
/**
 * `review_prompts`: when each agent first ran on each prompt version. An agent's first version
 * is stored as seen at 0: it is the baseline a later change is measured from, not a change.
 */
const PROMPTS_SCHEMA = `
CREATE TABLE IF NOT EXISTS review_prompts (agent_id TEXT NOT NULL, version TEXT NOT NULL, first_at INTEGER NOT NULL, PRIMARY KEY (agent_id, version));
`;
const MODELS_SCHEMA = `
CREATE TABLE IF NOT EXISTS review_models (agent_id TEXT NOT NULL, model TEXT NOT NULL, first_at INTEGER NOT NULL, PRIMARY KEY (agent_id, model));
INSERT OR IGNORE INTO review_models SELECT agent_id, model, MIN(started_at) FROM traces WHERE model IS NOT NULL GROUP BY agent_id, model;
`;

interface QueueRow {
  runId: string;
  queuedAt: number;
  reasons: string;
  label: ReviewLabel | null;
  note: string | null;
  labelledAt: number | null;
}

interface JudgementRow {
  verdict: Judgement["verdict"] | null;
  judgeReason: string | null;
  judgeModel: string | null;
  judgeAt: number | null;
  judgeInput: number | null;
  judgeOutput: number | null;
  judgeRubric: string | null;
}

function judgementOf(row: JudgementRow, currentRubric: string | undefined): Judgement {
  return {
    verdict: row.verdict!,
    reason: row.judgeReason!,
    model: row.judgeModel!,
    at: row.judgeAt!,
    ...(row.judgeInput !== null ? { usage: { input: row.judgeInput, output: row.judgeOutput ?? 0 } } : {}),
    ...(row.judgeRubric !== null ? { rubricHash: row.judgeRubric } : {}),
    ...(currentRubric !== undefined && row.judgeRubric !== currentRubric ? { outdated: true as const } : {}),
  };
}

/** Creates the review tables of a trace database that lacks them (after its `traces` table). */
export function createReviewTables(db: Database): void {
  db.exec(REVIEW_SCHEMA);
  db.exec(PROMPTS_SCHEMA);
  const judgementColumns = db.prepare("SELECT name FROM pragma_table_info('review_judgements')").all() as { name: string }[];
  if (!judgementColumns.some((c) => c.name === "rubric_hash")) db.exec("ALTER TABLE review_judgements ADD COLUMN rubric_hash TEXT");
  const hasModels = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'review_models'").get();
  if (!hasModels) db.exec(MODELS_SCHEMA);
}

/** The review queue (docs/traces.md#review-queue): runs routed to an operator by rule, their feedback and labels. */
export class ReviewStore {
  private readonly seeModel;
  private readonly firstSeen;
  private readonly seePrompt;
  private readonly promptFirstSeen;
  private readonly agentHasPrompt;
  private readonly queued;
  private readonly putQueued;
  private readonly dropQueued;
  private readonly dropJudgement;

  constructor(private readonly db: Database) {
    this.seeModel = db.prepare("INSERT OR IGNORE INTO review_models (agent_id, model, first_at) VALUES (?, ?, ?)");
    this.firstSeen = db.prepare("SELECT first_at AS firstAt FROM review_models WHERE agent_id = ? AND model = ?");
    this.seePrompt = db.prepare("INSERT OR IGNORE INTO review_prompts (agent_id, version, first_at) VALUES (?, ?, ?)");
    this.promptFirstSeen = db.prepare("SELECT first_at AS firstAt FROM review_prompts WHERE agent_id = ? AND version = ?");
    this.agentHasPrompt = db.prepare("SELECT 1 FROM review_prompts WHERE agent_id = ? LIMIT 1");
    this.queued = db.prepare("SELECT run_id AS runId, queued_at AS queuedAt, reasons, label, note, labelled_at AS labelledAt FROM review_queue WHERE run_id = ?");
    this.putQueued = db.prepare(`INSERT INTO review_queue (run_id, queued_at, reasons, label, note, labelled_at) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT(run_id) DO UPDATE SET reasons = excluded.reasons, label = excluded.label, note = excluded.note, labelled_at = excluded.labelled_at`);
    this.dropQueued = db.prepare("DELETE FROM review_queue WHERE run_id = ?");
    this.dropJudgement = db.prepare("DELETE FROM review_judgements WHERE run_id = ?");
  }

  /** Routes freshly written runs by the rules; `draw` gives each run its random number. */
  route(records: readonly TraceRecord[], settings: ReviewSettings, draw: () => number, now: number): void {
    this.db.transaction(() => {
      for (const record of records) {
        let modelFirstSeenAt: number | undefined;
        if (record.model) {
          this.seeModel.run(record.agentId, record.model, record.startedAt);
          modelFirstSeenAt = (this.firstSeen.get(record.agentId, record.model) as { firstAt: number }).firstAt;
        }
        const promptFirstSeenAt = record.promptVersion !== undefined ? this.promptSeen(record.agentId, record.promptVersion, record.startedAt) : undefined;
        const reasons = reviewReasons(record, settings, {
          ...(modelFirstSeenAt !== undefined ? { modelFirstSeenAt } : {}),
          ...(promptFirstSeenAt !== undefined ? { promptFirstSeenAt } : {}),
          draw: draw(),
        });
        if (reasons.length > 0) this.addReasons(record.runId, reasons, now);
      }
    })();
  }

  /** Records an operator's rating of a run; a thumbs-down queues it, taking it back un-queues it unless another reason holds it. */
  feedback(runId: string, rating: FeedbackRating, note: string | undefined, at: number): { queued: boolean } {
    return this.db.transaction(() => {
      this.db
        .prepare(
          "INSERT INTO review_feedback (run_id, rating, note, at) VALUES (?, ?, ?, ?) ON CONFLICT(run_id) DO UPDATE SET rating = excluded.rating, note = excluded.note, at = excluded.at",
        )
        .run(runId, rating, note ?? null, at);
      if (rating === "down") this.addReasons(runId, ["negative-feedback"], at);
      else this.removeReason(runId, "negative-feedback");
      return { queued: this.queued.get(runId) !== undefined };
    })();
  }

  /**
   * Takes back a rating, only while it is still the one given with this note (a later rating by
   * anyone else stays): the feedback goes, and a thumbs-down's `negative-feedback` with it. True
   * when a rating was taken back.
   */
  retractFeedback(runId: string, rating: FeedbackRating, note: string): boolean {
    return this.db.transaction(() => {
      const removed = this.db.prepare("DELETE FROM review_feedback WHERE run_id = ? AND rating = ? AND note = ?").run(runId, rating, note).changes > 0;
      if (removed && rating === "down") this.removeReason(runId, "negative-feedback");
      return removed;
    })();
  }

  /** An operator's verdict on a run; a run nobody queued is added (`manual`). */
  label(runId: string, label: ReviewLabel, note: string | undefined, at: number): void {
    this.db.transaction(() => {
      const row = this.queued.get(runId) as QueueRow | undefined;
      this.putQueued.run(runId, row?.queuedAt ?? at, row?.reasons ?? JSON.stringify(["manual"]), label, note ?? null, at);
    })();
  }

  /**
   * Queued runs, newest first, with their trace's summary and feedback; `runId`: that run's entry
   * alone, when it is queued. `currentRubric`: the configured judge's, against which verdicts are outdated.
   */
  list(status: ReviewStatus, limit: number, runId?: string, currentRubric?: string): ReviewItem[] {
    const conditions = [
      ...(status === "pending" ? ["q.labelled_at IS NULL"] : status === "labelled" ? ["q.labelled_at IS NOT NULL"] : []),
      ...(runId !== undefined ? ["q.run_id = ?"] : []),
    ];
    const where = conditions.length > 0 ? `WHERE ${conditions.join(" AND ")}` : "";
    const rows = this.db
      .prepare(
        `SELECT ${summaryColumns("t")}, q.queued_at AS queuedAt, q.reasons, q.label, q.note, q.labelled_at AS labelledAt,
           json_extract(t.body, '$.usage.cacheRead') AS cacheRead, json_extract(t.body, '$.usage.cacheWrite') AS cacheWrite,
           f.rating, f.note AS feedbackNote, f.at AS feedbackAt,
           j.verdict, j.reason AS judgeReason, j.model AS judgeModel, j.at AS judgeAt, j.input_tokens AS judgeInput, j.output_tokens AS judgeOutput, j.rubric_hash AS judgeRubric
         FROM review_queue q JOIN traces t ON t.run_id = q.run_id LEFT JOIN review_feedback f ON f.run_id = q.run_id
         LEFT JOIN review_judgements j ON j.run_id = q.run_id
         ${where} ORDER BY q.queued_at DESC LIMIT ?`,
      )
      .all(...(runId !== undefined ? [runId] : []), limit) as (QueueRow &
      TraceSummary & {
        model: string | null;
        cacheRead: number | null;
        cacheWrite: number | null;
        rating: FeedbackRating | null;
        feedbackNote: string | null;
        feedbackAt: number | null;
      } & JudgementRow)[];
    return rows.map((row) => ({
      run: {
        runId: row.runId,
        sessionKey: row.sessionKey,
        agentId: row.agentId,
        source: row.source,
        startedAt: row.startedAt,
        durationMs: row.durationMs,
        outcome: row.outcome,
        ...(row.model ? { model: row.model } : {}),
        inputTokens: row.inputTokens,
        outputTokens: row.outputTokens,
        modelCalls: row.modelCalls,
        toolCalls: row.toolCalls,
      },
      queuedAt: row.queuedAt,
      reasons: JSON.parse(row.reasons) as ReviewReason[],
      totalTokens: runTokens({ usage: { input: row.inputTokens, output: row.outputTokens, cacheRead: row.cacheRead ?? 0, cacheWrite: row.cacheWrite ?? 0 } }),
      ...(row.label ? { label: row.label } : {}),
      ...(row.note !== null ? { note: row.note } : {}),
      ...(row.labelledAt !== null ? { labelledAt: row.labelledAt } : {}),
      ...(row.rating ? { feedback: { rating: row.rating, ...(row.feedbackNote !== null ? { note: row.feedbackNote } : {}), at: row.feedbackAt! } } : {}),
      ...(row.verdict ? { judge: judgementOf(row, currentRubric) } : {}),
    }));
  }

  /** The queued run the judge has not graded yet that was queued first; undefined when none waits. */
  nextUngraded(): string | undefined {
    const row = this.db
      .prepare(
        `SELECT q.run_id AS runId FROM review_queue q JOIN traces t ON t.run_id = q.run_id
         WHERE NOT EXISTS (SELECT 1 FROM review_judgements j WHERE j.run_id = q.run_id) ORDER BY q.queued_at ASC, q.run_id ASC LIMIT 1`,
      )
      .get() as { runId: string } | undefined;
    return row?.runId;
  }

  /** Stores the judge's grade of a run still in the queue; false when the run left the queue meanwhile. */
  judge(runId: string, judgement: Judgement): boolean {
    const result = this.db
      .prepare(
        `INSERT OR REPLACE INTO review_judgements (run_id, verdict, reason, model, at, input_tokens, output_tokens, rubric_hash)
         SELECT ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM review_queue WHERE run_id = ?)`,
      )
      .run(
        runId,
        judgement.verdict,
        judgement.reason,
        judgement.model,
        judgement.at,
        judgement.usage?.input ?? null,
        judgement.usage?.output ?? null,
        judgement.rubricHash ?? null,
        runId,
      );
    return result.changes > 0;
  }

  /**
   * Queued runs with both a label and a pass/fail verdict, for calibration; with `rubric`, only
   * verdicts graded against it, and how many others were left out as outdated.
   */
  gradedPairs(rubric?: string): { pairs: GradedPair[]; outdated: number } {
    const rows = this.db
      .prepare(
        `SELECT q.run_id AS runId, q.label, j.verdict, j.rubric_hash AS rubricHash FROM review_queue q JOIN review_judgements j ON j.run_id = q.run_id
         WHERE q.label IS NOT NULL AND j.verdict IN ('pass', 'fail') ORDER BY q.queued_at ASC, q.run_id ASC`,
      )
      .all() as (GradedPair & { rubricHash: string | null })[];
    const current = rows.filter((row) => rubric === undefined || row.rubricHash === rubric);
    return { pairs: current.map(({ runId, label, verdict }) => ({ runId, label, verdict })), outdated: rows.length - current.length };
  }

  /**
   * Drops verdicts so the judge grades those runs again: one run's (whatever it is), or, by `scope`,
   * those not graded pass/fail against `rubric` (errors and other rubrics) or all. Returns how many.
   */
  dropJudgements(target: { runId: string } | { scope: RegradeScope; rubric: string }): number {
    if ("runId" in target) return this.dropJudgement.run(target.runId).changes;
    if (target.scope === "all") return this.db.prepare("DELETE FROM review_judgements").run().changes;
    return this.db.prepare("DELETE FROM review_judgements WHERE verdict = 'error' OR rubric_hash IS NULL OR rubric_hash != ?").run(target.rubric).changes;
  }

  /** Whether the run is in the review queue. */
  isQueued(runId: string): boolean {
    return this.queued.get(runId) !== undefined;
  }

  /** How many queued runs wait for a label, and how many have one. */
  counts(): { pending: number; labelled: number } {
    return this.db.prepare("SELECT COUNT(*) - COUNT(labelled_at) AS pending, COUNT(labelled_at) AS labelled FROM review_queue").get() as { pending: number; labelled: number };
  }

  /** Drops queue entries and feedback whose trace retention deleted. */
  deleteOrphans(): void {
    this.db.exec("DELETE FROM review_queue WHERE NOT EXISTS (SELECT 1 FROM traces t WHERE t.run_id = review_queue.run_id)");
    this.db.exec("DELETE FROM review_feedback WHERE NOT EXISTS (SELECT 1 FROM traces t WHERE t.run_id = review_feedback.run_id)");
    this.db.exec("DELETE FROM review_judgements WHERE NOT EXISTS (SELECT 1 FROM review_queue q WHERE q.run_id = review_judgements.run_id)");
  }

  /** When the agent first ran on `version`, recording it now when it is new (at 0 when it is the agent's first). */
  private promptSeen(agentId: string, version: string, at: number): number {
    this.seePrompt.run(agentId, version, this.agentHasPrompt.get(agentId) ? at : 0);
    return (this.promptFirstSeen.get(agentId, version) as { firstAt: number }).firstAt;
  }

  private addReasons(runId: string, reasons: ReviewReason[], at: number): void {
    const row = this.queued.get(runId) as QueueRow | undefined;
    const merged = [...new Set([...(row ? (JSON.parse(row.reasons) as ReviewReason[]) : []), ...reasons])];
    this.putQueued.run(runId, row?.queuedAt ?? at, JSON.stringify(merged), row?.label ?? null, row?.note ?? null, row?.labelledAt ?? null);
  }

  private removeReason(runId: string, reason: ReviewReason): void {
    const row = this.queued.get(runId) as QueueRow | undefined;
    if (!row) return;
    const left = (JSON.parse(row.reasons) as ReviewReason[]).filter((r) => r !== reason);
    if (left.length === 0 && row.labelledAt === null) {
      this.dropQueued.run(runId);
      this.dropJudgement.run(runId);
    } else this.putQueued.run(runId, row.queuedAt, JSON.stringify(left.length > 0 ? left : ["manual"]), row.label, row.note, row.labelledAt);
  }
}
