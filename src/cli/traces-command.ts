import { defaultAgentId } from "../agents/agent-config.js";
import { loadConfigForClient } from "../config/client-config.js";
import { resolveStateDir } from "../config/index.js";
import { normalizeSessionKey } from "../sessions/keys/index.js";
import { colorEnabled } from "../infra/color.js";
import {
  calibrate,
  type FeedbackRating,
  type ReviewLabel,
  renderCalibration,
  renderReviewQueue,
  renderTraceList,
  renderTraceSearch,
  renderTraceTree,
  meaningEmbedder,
  nearestTraces,
  reviewSettings,
  TraceStore,
  tracesDbPath,
  type MeaningSearchQuery,
} from "../traces/index.js";
import { embedderFromConfig } from "../memory/index.js";
import type { ClientFlags } from "./client-context.js";
import { CliError, printJson } from "./output.js";
import { withGateway } from "./with-gateway.js";

/**
 * `openclaw traces …` reads the trace store of the state dir directly: no gateway needed (SQLite's
 * WAL lets a running gateway keep writing meanwhile). A run's trace is written a moment after it ends.
 */
async function withStore<T>(use: (store: TraceStore | undefined) => T): Promise<T> {
  const stateDir = resolveStateDir(process.env);
  const store = await TraceStore.open(tracesDbPath(stateDir), { create: false }).catch((err: Error) => {
    throw new CliError(err.message);
  });
  try {
    return use(store);
  } finally {
    store?.close();
  }
}

export async function tracesListCommand(flags: { session?: string; since?: string; limit?: string; json?: boolean }): Promise<void> {
  const since = flags.since === undefined ? undefined : parseSince(flags.since, Date.now());
  const limit = flags.limit === undefined ? 50 : Number(flags.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new CliError(`--limit: expected an integer from 1 to 1000, got "${flags.limit}"`);
  const sessionKey = flags.session === undefined ? undefined : canonicalSessionKey(flags.session);
  const traces = await withStore((store) => store?.list({ ...(sessionKey ? { sessionKey } : {}), ...(since !== undefined ? { since } : {}), limit }) ?? []);
  if (flags.json) return printJson({ traces });
  process.stdout.write(renderTraceList(traces));
}

export async function tracesShowCommand(runId: string, flags: { json?: boolean }): Promise<void> {
  const found = await withStore((store) => store?.get(runId));
  if (!found) throw noTrace(runId);
  if (flags.json) return printJson(found);
  process.stdout.write(renderTraceTree(found, { color: colorEnabled(process.stdout) }));
}

const noTrace = (runId: string) =>
  new CliError(`no trace for run ${runId}: see \`openclaw traces list\` (tracing may be off, diagnostics.traces.enabled, or retention deleted it)`);

/** `openclaw traces review`: the review queue; pending runs unless `--labelled` or `--all`; `--calibration`: the judge against the labels. */
export async function tracesReviewCommand(flags: { labelled?: boolean; all?: boolean; limit?: string; calibration?: boolean; json?: boolean }): Promise<void> {
  if (flags.calibration) {
    if (flags.labelled || flags.all || flags.limit !== undefined)
      throw new CliError("--calibration: give it alone (or with --json); it reads every run with a label and a verdict");
    const rubric = currentRubric();
    const calibration = await withStore((store) => {
      const graded = store?.reviews.gradedPairs(rubric) ?? { pairs: [], outdated: 0 };
      return calibrate(graded.pairs, graded.outdated);
    });
    if (flags.json) return printJson(calibration);
    process.stdout.write(renderCalibration(calibration));
    return;
  }
  const limit = flags.limit === undefined ? 50 : Number(flags.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new CliError(`--limit: expected an integer from 1 to 500, got "${flags.limit}"`);
  if (flags.labelled && flags.all) throw new CliError("--labelled and --all: give one of them (--all lists pending and labelled runs)");
  const status = flags.all ? "all" : flags.labelled ? "labelled" : "pending";
  const rubric = currentRubric();
  const queue = await withStore((store) =>
    store ? { items: store.reviews.list(status, limit, undefined, rubric), counts: store.reviews.counts() } : { items: [], counts: { pending: 0, labelled: 0 } },
  );
  if (flags.json) return printJson(queue);
  process.stdout.write(renderReviewQueue(queue.items, queue.counts));
}

/**
 * `openclaw traces regrade [runId] [--all]`: the judge grades again one queued run, or every run
 * whose verdict the current rubric did not give (and errors), or (`--all`) every graded run. The
 * judge runs in the gateway, so this asks the running gateway.
 */
export async function tracesRegradeCommand(runId: string | undefined, flags: ClientFlags & { all?: boolean; json?: boolean }): Promise<void> {
  if (runId !== undefined && flags.all) throw new CliError("give a run id (one run) or --all (every verdict), not both");
  const params = runId !== undefined ? { runId } : flags.all ? { all: true } : {};
  const result = await withGateway(flags, (call) => call<{ ok: true; dropped: number }>("traces.review.regrade", params));
  if (flags.json) return printJson(result);
  const what = runId !== undefined ? `run ${runId}` : `${result.dropped} ${result.dropped === 1 ? "run" : "runs"}`;
  process.stdout.write(
    result.dropped === 0 && runId === undefined
      ? "Every verdict was given under the current rubric: nothing to grade again (--all grades every run again).\n"
      : `The judge grades ${what} again, in the background: see openclaw traces review --all.\n`,
  );
}

/** The configured judge's rubric hash (verdicts under another rubric are outdated); undefined with no judge. */
function currentRubric(): string | undefined {
  const { config } = loadConfigForClient({ stateDir: resolveStateDir(process.env), env: process.env }).loaded;
  return reviewSettings(config).judge?.rubricHash;
}

/** `openclaw traces feedback <runId> up|down`: an operator's rating; a thumbs-down queues the run for review. */
export async function tracesFeedbackCommand(runId: string, rating: string, flags: { note?: string; json?: boolean }): Promise<void> {
  if (rating !== "up" && rating !== "down") throw new CliError(`rating: expected up or down, got "${rating}"`);
  const result = await withStore((store) => (store?.has(runId) ? store.reviews.feedback(runId, rating as FeedbackRating, flags.note?.trim() || undefined, Date.now()) : undefined));
  if (!result) throw noTrace(runId);
  if (flags.json) return printJson({ ok: true, runId, rating, queued: result.queued });
  process.stdout.write(`Feedback ${rating} recorded for ${runId}${result.queued ? "; it is in the review queue (openclaw traces review)" : ""}.\n`);
}

/** `openclaw traces label <runId> pass|fail`: an operator's verdict on a run. */
export async function tracesLabelCommand(runId: string, label: string, flags: { note?: string; json?: boolean }): Promise<void> {
  if (label !== "pass" && label !== "fail") throw new CliError(`label: expected pass or fail, got "${label}"`);
  const labelled = await withStore((store) => {
    if (!store?.has(runId)) return false;
    store.reviews.label(runId, label as ReviewLabel, flags.note?.trim() || undefined, Date.now());
    return true;
  });
  if (!labelled) throw noTrace(runId);
  if (flags.json) return printJson({ ok: true, runId, label });
  process.stdout.write(`Labelled ${runId} ${label}.\n`);
}

/** `openclaw traces search <words…>`: traces holding every word, best match first, with a snippet. */
export async function tracesSearchCommand(
  words: string[],
  flags: { session?: string; since?: string; limit?: string; meaning?: boolean; minScore?: string; json?: boolean },
): Promise<void> {
  const since = flags.since === undefined ? undefined : parseSince(flags.since, Date.now());
  const limit = flags.limit === undefined ? 20 : Number(flags.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw new CliError(`--limit: expected an integer from 1 to 200, got "${flags.limit}"`);
  const minScore = flags.minScore === undefined ? undefined : Number(flags.minScore);
  if (minScore !== undefined && !flags.meaning) throw new CliError("--min-score is for --meaning (a word search has no score)");
  if (minScore !== undefined && !(flags.minScore!.trim() !== "" && minScore >= 0 && minScore <= 1))
    throw new CliError(`--min-score: expected a number from 0 to 1, got "${flags.minScore}"`);
  const sessionKey = flags.session === undefined ? undefined : canonicalSessionKey(flags.session);
  const query = words.join(" ");
  if (flags.meaning)
    return searchByMeaning(
      { query, ...(sessionKey ? { sessionKey } : {}), ...(since !== undefined ? { since } : {}), limit, ...(minScore !== undefined ? { minScore } : {}) },
      flags.json === true,
    );
  const hits = await withStore((store) => (store ? store.search({ query, ...(sessionKey ? { sessionKey } : {}), ...(since !== undefined ? { since } : {}), limit }) : []));
  if (!hits) throw new CliError('the query has no word to search for: give words or a "quoted phrase" (letters or digits)');
  if (flags.json) return printJson({ results: hits });
  process.stdout.write(renderTraceSearch(hits));
}

/**
 * `openclaw traces search --meaning`: the traces nearest the query's meaning, over the vectors the
 * gateway stored; the query is embedded here, with memory.search's provider.
 */
async function searchByMeaning(query: MeaningSearchQuery, json: boolean): Promise<void> {
  const { config } = loadConfigForClient({ stateDir: resolveStateDir(process.env), env: process.env }).loaded;
  let embedder: ReturnType<typeof meaningEmbedder>;
  try {
    embedder = meaningEmbedder(config, embedderFromConfig(config, process.env));
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  const [vector] = await embedder.embed([query.query], { retries: 1 }).catch((err: Error) => {
    throw new CliError(`meaning search failed: ${err.message}`);
  });
  const found = await withStore((store) => (store ? nearestTraces(store.vectors, embedder, vector!, query) : { results: [], coverage: { embedded: 0, traces: 0 } }));
  if (json) return printJson(found);
  process.stdout.write(renderTraceSearch(found.results));
  process.stdout.write(`${found.coverage.embedded} of ${found.coverage.traces} traces have a vector (the gateway embeds them in the background).\n`);
}

/** `--session` as the gateway reads a session key: a bare key (`main`, `cron:nightly`) is the default agent's. */
function canonicalSessionKey(raw: string): string {
  const { config } = loadConfigForClient({ stateDir: resolveStateDir(process.env), env: process.env }).loaded;
  try {
    return normalizeSessionKey(raw, defaultAgentId(config));
  } catch (err) {
    throw new CliError(`--session: ${(err as Error).message}`);
  }
}

/** `--since`: a duration back from now (`30m`, `2h`, `7d`) or a date (`2026-12-01`, ISO 8601). */
export function parseSince(value: string, now: number): number {
  const duration = /^(\d+)(s|m|h|d)$/.exec(value.trim());
  if (duration) return now - Number(duration[1]) * { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[duration[2] as "s" | "m" | "h" | "d"];
  // Only ISO 8601 dates: Date.parse reads a bare number such as "5" as a year or a month.
  const date = /^\d{4}-\d{2}-\d{2}/.test(value.trim()) ? Date.parse(value.trim()) : Number.NaN;
  if (Number.isNaN(date)) throw new CliError(`--since: expected a duration such as 30m, 2h or 7d, or a date such as 2026-12-01, got "${value}"`);
  return date;
}
