import fs from "node:fs";
import type { AgentEvent } from "../agents/types.js";
import type { OpenClawConfig } from "../config/index.js";
import type { Logger } from "../infra/logger.js";
import { packageVersion } from "../infra/version.js";
import { TraceRedactor } from "./redaction.js";
import { type Calibration, calibrate } from "./review/calibration.js";
import { type JudgeModel, ReviewJudge } from "./review/review-judge.js";
import { type FeedbackRating, RegradeRefusal, type RegradeScope, type ReviewItem, type ReviewLabel, type ReviewStatus } from "./review/review-store.js";
import { reviewSettings } from "./review/review-settings.js";
import { meaningSearchEnabled, traceSettings, tracingEnabled, type TraceSettings } from "./settings.js";
import { type TextEmbedder, TraceEmbedding } from "./meaning/trace-embedding.js";
import { type ConfiguredTextEmbedder, type MeaningSearchQuery, type MeaningSearchResult, meaningEmbedder, nearestTraces } from "./meaning/search-meaning.js";
import { type BuiltTrace, buildTrace, type TimedEvent } from "./trace-builder.js";
import { HistoryLogs } from "./history-log.js";
import { type TracedMessage, tracedMessage } from "./history-messages.js";
import type { HistoryMessage } from "../models/messages.js";
import { TraceStore, tracesDbPath, type StoredTrace, type TraceQuery, type TraceSearchHit, type TraceSearchQuery } from "./trace-store.js";
import type { ExternalTraceEvent, RunTraceHandle, RunTracer, ToolCallOutline, TraceEnd, TraceRecord, TraceStart, TraceSummary } from "./types.js";
import type { OtelTraceExporter } from "./otel-export.js";
import { ExportedContent, type RunContent } from "./exported-content.js";

export interface TraceRecorderDeps {
  stateDir: string;
  config(): OpenClawConfig;
  env: NodeJS.ProcessEnv;
  logger: Logger;
  /** The model call of the review queue's judge; without it no run is graded, whatever the config says. */
  judgeModel?: JudgeModel;
  /** The embedder of meaning search (memory.search's), or why there is none; without it, meaning search is refused. */
  textEmbedder?: () => ConfiguredTextEmbedder;
}

/** A run that ended and waits to be built and written. */
interface EndedRun {
  start: TraceStart;
  startedAt: number;
  events: TimedEvent[];
  end: TraceEnd;
  endedAt: number;
}

/** Finished runs are written together, this long after the first of them ended. */
const WRITE_DELAY_MS = 250;
/** Retention runs after this many writes, and at start. */
const PRUNE_EVERY_WRITES = 200;

/**
 * Records every run's trace (docs/traces.md). During a run the handle only keeps the loop's
 * events with their times; once the run has ended, the traces are built, redacted and written
 * in one transaction a moment later, and exported over OTLP when `diagnostics.otel` says so
 * (settings.ts). The SQLite module and the exporter load with the first trace, never at start-up.
 */
export class TraceRecorder implements RunTracer {
  private pending: EndedRun[] = [];
  private timer: NodeJS.Timeout | undefined;
  private store: Promise<TraceStore> | undefined;
  private writing: Promise<void> = Promise.resolve();
  private writesSincePrune = 0;
  private otel: Promise<OtelTraceExporter> | undefined;
  /** The otel settings the exporter was built with: any change builds a new one. */
  private otelSettingsKey: string | undefined;
  private redactor: { config: OpenClawConfig; redactor: TraceRedactor } | undefined;
  private closed = false;
  /** Prompts this process wrote (or found) in the store: their text is not redacted and sent again. */
  private readonly storedPrompts = new Set<string>();
  /** Each session's log of the messages its runs were sent (history-log.ts). */
  private readonly historyLogs = new HistoryLogs();
  /** What exports with `captureContent` send beyond the record, redacted once per message and prompt. */
  private readonly exportedContent = new ExportedContent();
  /** Grades queued runs when `diagnostics.traces.review.judge` is set. */
  private readonly judge: ReviewJudge | undefined;
  /** Embeds traces for meaning search when `diagnostics.traces.search.embeddings` is on. */
  private readonly embedding: TraceEmbedding | undefined;

  constructor(private readonly deps: TraceRecorderDeps) {
    if (deps.judgeModel)
      this.judge = new ReviewJudge({
        model: deps.judgeModel,
        settings: () => reviewSettings(deps.config()).judge,
        store: () => this.openStore(),
        logger: deps.logger,
      });
    if (deps.textEmbedder)
      this.embedding = new TraceEmbedding({
        embedder: () => this.configuredEmbedder(),
        vectors: async () => (await this.openStore()).vectors,
        logger: deps.logger,
      });
  }

  /**
   * Grades the runs a previous process queued and left ungraded, and embeds the traces left
   * without a vector; with neither configured, or no store yet, nothing is loaded.
   */
  resumeBackgroundWork(): void {
    if (!fs.existsSync(tracesDbPath(this.deps.stateDir))) return;
    if (this.judge && reviewSettings(this.deps.config()).judge) this.judge.kick();
    if (this.configuredEmbedder()) this.embedding?.kick();
  }

  /** The traces nearest the query's meaning (docs/traces.md#searching-by-meaning); a MeaningSearchRefusal when it is off. */
  async searchMeaning(query: MeaningSearchQuery): Promise<MeaningSearchResult> {
    const embedder = meaningEmbedder(this.deps.config(), this.deps.textEmbedder?.());
    const [vector] = await embedder.embed([query.query], { retries: 1 });
    await this.flush();
    const store = await this.openStore();
    this.embedding?.kick();
    return nearestTraces(store.vectors, embedder, vector!, query);
  }

  private configuredEmbedder(): TextEmbedder | undefined {
    if (!meaningSearchEnabled(this.deps.config())) return undefined;
    const configured = this.deps.textEmbedder?.();
    return configured && "embedder" in configured ? configured.embedder : undefined;
  }

  begin(start: TraceStart): RunTraceHandle | undefined {
    if (this.closed || !tracingEnabled(this.deps.config())) return undefined;
    const events: TimedEvent[] = [];
    const startedAt = Date.now();
    let awaitingToken = false;
    let ended = false;
    return {
      event: (event: AgentEvent) => {
        if (ended) return;
        // Deltas are not kept (the call's final message has the text); only the first one's time.
        if (event.type === "message_update") {
          if (awaitingToken) {
            awaitingToken = false;
            events.push({ at: Date.now(), firstToken: true });
          }
          return;
        }
        if (event.type === "tool_execution_update" || event.type === "agent_end") return;
        if (event.type === "message_start") awaitingToken = true;
        events.push({ at: Date.now(), event });
      },
      external: (event: ExternalTraceEvent) => {
        if (!ended) events.push({ at: Date.now(), external: event });
      },
      end: (end: TraceEnd) => {
        if (ended) return;
        ended = true;
        this.pending.push({ start, startedAt, events, end, endedAt: Date.now() });
        this.timer ??= setTimeout(() => this.flush(), WRITE_DELAY_MS);
      },
    };
  }

  /** Newest first. */
  async list(query: TraceQuery): Promise<TraceSummary[]> {
    await this.flush();
    return (await this.openStore()).list(query);
  }

  /** Traces holding the query's words, best first; undefined when the query has no word. */
  async search(query: TraceSearchQuery): Promise<TraceSearchHit[] | undefined> {
    await this.flush();
    return (await this.openStore()).search(query);
  }

  async toolCallOutlines(runId: string): Promise<ToolCallOutline[]> {
    await this.flush();
    return (await this.openStore()).toolCallOutlines(runId);
  }

  async get(runId: string): Promise<{ trace: TraceRecord; systemPrompt?: string; history?: TracedMessage[] } | undefined> {
    await this.flush();
    return (await this.openStore()).get(runId);
  }

  /** Queued runs for review, newest first, and how many wait (docs/traces.md#review-queue). */
  async reviewList(status: ReviewStatus, limit: number, runId?: string): Promise<{ items: ReviewItem[]; counts: { pending: number; labelled: number } }> {
    await this.flush();
    const store = await this.openStore();
    return { items: store.reviews.list(status, limit, runId, this.currentRubric()), counts: store.reviews.counts() };
  }

  /** How the judge's verdicts under the current rubric agree with the operator's labels (docs/traces.md#calibration). */
  async reviewCalibration(): Promise<Calibration> {
    await this.flush();
    const { pairs, outdated } = (await this.openStore()).reviews.gradedPairs(this.currentRubric());
    return calibrate(pairs, outdated);
  }

  /**
   * Drops verdicts and has the judge grade those runs again (docs/traces.md#regrading): one queued
   * run's, or those not graded pass/fail under the current rubric, or all. Throws a RegradeRefusal
   * when no judge is configured or the run is not queued.
   */
  async regrade(target: { runId: string } | { scope: RegradeScope }): Promise<{ dropped: number }> {
    const rubric = this.currentRubric();
    if (!this.judge || rubric === undefined) throw new RegradeRefusal("no judge is configured: set diagnostics.traces.review.judge.rubric");
    await this.flush();
    const store = await this.openStore();
    if ("runId" in target && !store.reviews.isQueued(target.runId))
      throw new RegradeRefusal(`run ${target.runId} is not in the review queue: only queued runs are graded (openclaw traces review --all)`);
    const dropped = store.reviews.dropJudgements("runId" in target ? target : { scope: target.scope, rubric });
    this.judge.kick();
    return { dropped };
  }

  private currentRubric(): string | undefined {
    return reviewSettings(this.deps.config()).judge?.rubricHash;
  }

  /** An operator's rating of a traced run; undefined when no trace of it is stored. */
  async feedback(runId: string, rating: FeedbackRating, note?: string): Promise<{ queued: boolean } | undefined> {
    await this.flush();
    const store = await this.openStore();
    if (!store.has(runId)) return undefined;
    const result = store.reviews.feedback(runId, rating, note, Date.now());
    if (result.queued) this.judge?.kick();
    return result;
  }

  /** Takes a rating back while it is still the one given with `note`; false when it is not (or no trace of the run is stored). */
  async retractFeedback(runId: string, rating: FeedbackRating, note: string): Promise<boolean> {
    await this.flush();
    const store = await this.openStore();
    return store.reviews.retractFeedback(runId, rating, note);
  }

  /** An operator's verdict on a traced run; false when no trace of it is stored. */
  async label(runId: string, label: ReviewLabel, note?: string): Promise<boolean> {
    await this.flush();
    const store = await this.openStore();
    if (!store.has(runId)) return false;
    store.reviews.label(runId, label, note, Date.now());
    this.judge?.kick();
    return true;
  }

  /** Writes what is pending now; resolves once it is written. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    if (batch.length > 0) this.writing = this.writing.then(() => this.write(batch));
    return this.writing;
  }

  /** Writes what is pending and closes the store and the exporter. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
    await this.judge?.close();
    await this.embedding?.close();
    const store = this.store;
    this.store = undefined;
    if (store) (await store.catch(() => undefined))?.close();
    const otel = this.otel;
    this.otel = undefined;
    if (otel) await (await otel.catch(() => undefined))?.shutdown().catch(() => undefined);
  }

  private async write(batch: EndedRun[]): Promise<void> {
    const config = this.deps.config();
    const settings = traceSettings(config, this.deps.env);
    try {
      const redactor = this.redactorFor(config);
      const withContent = settings.otel?.captureContent === true;
      // Exported content needs every history message redacted: the log takes its new ones from the same cache.
      const traced = withContent ? (message: HistoryMessage) => this.exportedContent.message(message, redactor) : (message: HistoryMessage) => tracedMessage(message, redactor);
      const built = batch.map((run) => buildTrace(run.start, run.startedAt, run.events, run.end, run.endedAt));
      const traces = built.map((trace) => redactTrace(trace, redactor, traced, this.storedPrompts, this.historyLogs));
      const store = await this.openStore();
      store.write(traces);
      this.historyLogs.forget(store.takeEmptiedLogs());
      store.reviews.route(
        traces.map((t) => t.record),
        reviewSettings(config),
        Math.random,
        Date.now(),
      );
      this.judge?.kick();
      this.embedding?.kick();
      this.writesSincePrune += traces.length;
      if (this.writesSincePrune >= PRUNE_EVERY_WRITES) this.prune(store, settings);
      if (settings.otel) {
        await this.export(
          settings.otel,
          built.map((trace) => ({ record: trace.record, ...(withContent ? { content: this.exportedContent.of(trace, redactor) } : {}) })),
        );
      }
    } catch (err) {
      this.storedPrompts.clear();
      this.historyLogs.clear();
      this.deps.logger.warn({ err: (err as Error).message, runs: batch.length }, "run traces not written");
    }
  }

  private openStore(): Promise<TraceStore> {
    this.store ??= TraceStore.open(tracesDbPath(this.deps.stateDir), { create: true }).then((opened) => {
      const store = opened!;
      this.prune(store, traceSettings(this.deps.config()));
      return store;
    });
    this.store.catch(() => (this.store = undefined));
    return this.store;
  }

  private prune(store: TraceStore, settings: TraceSettings): void {
    this.writesSincePrune = 0;
    // Retention may delete prompts (the next trace of each writes it again) and empty history logs.
    this.storedPrompts.clear();
    const deleted = store.prune({ retentionDays: settings.retentionDays, maxBytes: settings.maxBytes, now: Date.now() });
    this.historyLogs.forget(store.takeEmptiedLogs());
    if (deleted > 0) this.deps.logger.info({ deleted }, "old run traces deleted");
  }

  private async export(settings: NonNullable<TraceSettings["otel"]>, runs: { record: TraceRecord; content?: RunContent }[]): Promise<void> {
    const settingsKey = JSON.stringify(settings);
    if (this.otelSettingsKey !== settingsKey) {
      const previous = this.otel;
      this.otel = import("./otel-export.js").then(({ OtelTraceExporter }) => OtelTraceExporter.create({ ...settings, version: packageVersion() }));
      this.otelSettingsKey = settingsKey;
      if (previous) void previous.then((p) => p.shutdown()).catch(() => undefined);
    }
    const exporter = await this.otel!;
    for (const run of runs) exporter.export(run.record, run.content);
  }

  private redactorFor(config: OpenClawConfig): TraceRedactor {
    if (this.redactor?.config !== config) this.redactor = { config, redactor: new TraceRedactor(config, this.deps.env) };
    return this.redactor.redactor;
  }
}

/** Every text of a trace that may carry a secret, redacted. */
function redactTrace(built: BuiltTrace, r: TraceRedactor, traced: (message: HistoryMessage) => TracedMessage, storedPrompts: Set<string>, logs: HistoryLogs): StoredTrace {
  const record = built.record;
  const logged = built.history && logs.record(record.sessionKey, built.history, traced);
  if (logged) record.history = logged.history;
  record.input = record.input.map((t) => r.text(t));
  record.output = r.text(record.output);
  record.thinking = record.thinking.map((t) => r.text(t));
  if (record.error) record.error = r.text(record.error);
  for (const call of record.modelCalls) {
    if (call.error) call.error = r.text(call.error);
    for (const attempt of call.failover) attempt.message = r.text(attempt.message);
  }
  for (const tool of record.toolCalls) {
    // An ACP agent's tool call is named by its title, which often quotes the command it runs.
    tool.name = r.text(tool.name);
    tool.args = r.value(tool.args);
    if (tool.resultHead !== undefined) tool.resultHead = r.text(tool.resultHead);
    if (tool.decisionReason) tool.decisionReason = r.text(tool.decisionReason);
    if (tool.approval) tool.approval.command = r.text(tool.approval.command);
  }
  const stored: StoredTrace = logged ? { record, history: logged.rows } : { record };
  if (!built.systemPrompt || storedPrompts.has(built.systemPrompt.hash)) return stored;
  if (storedPrompts.size >= 1_000) storedPrompts.clear();
  storedPrompts.add(built.systemPrompt.hash);
  // The hash names the prompt as the model saw it; the stored text is the redacted one.
  stored.systemPrompt = { hash: built.systemPrompt.hash, text: r.text(built.systemPrompt.text) };
  return stored;
}
