import fs from "node:fs";
import path from "node:path";
import { resolveStateDir } from "../config/index.js";
import { type ReviewItem, type ReviewLabel, TraceStore, tracesDbPath } from "../traces/index.js";
import { type DraftedTask, draftTask, writeDraft } from "./eval/draft-from-review.js";
import { CliError, printJson } from "./output.js";

export interface EvalDraftFlags {
  label?: string;
  limit?: string;
  json?: boolean;
}

/**
 * `openclaw eval draft <dir>`: task files drafted from the runs labelled in the review queue
 * (docs/evals.md#drafting-tasks-from-reviewed-runs), so a suite starts from real failures. Reads
 * the state dir's trace store directly; a file already there is left as it is.
 */
export async function evalDraftCommand(dir: string, flags: EvalDraftFlags): Promise<void> {
  const wanted = flags.label ?? "fail";
  if (wanted !== "fail" && wanted !== "pass" && wanted !== "all") throw new CliError(`--label: expected fail, pass or all, got "${flags.label}"`);
  const limit = flags.limit === undefined ? 50 : Number(flags.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new CliError(`--limit: expected an integer from 1 to 500, got "${flags.limit}"`);
  const target = path.resolve(dir);
  if (fs.existsSync(target) && !fs.statSync(target).isDirectory()) throw new CliError(`${dir} is not a folder: give the suite folder the drafts go to`);

  const store = await TraceStore.open(tracesDbPath(resolveStateDir(process.env)), { create: false }).catch((err: Error) => {
    throw new CliError(err.message);
  });
  const drafts: DraftedTask[] = [];
  try {
    const labelled = (store?.reviews.list("labelled", 500) ?? []).filter(
      (item): item is ReviewItem & { label: ReviewLabel } => item.label !== undefined && (wanted === "all" || item.label === wanted),
    );
    for (const item of labelled.slice(0, limit)) {
      const found = store!.get(item.run.runId);
      if (found) drafts.push(draftTask(item, found.trace, target));
    }
  } finally {
    store?.close();
  }
  if (drafts.length === 0) {
    if (flags.json) return printJson({ dir: target, written: [], kept: [] });
    process.stdout.write(`No runs labelled ${wanted === "all" ? "pass or fail" : wanted} in the review queue: label runs with openclaw traces label <runId> pass|fail.\n`);
    return;
  }
  fs.mkdirSync(target, { recursive: true });
  const written: DraftedTask[] = [];
  const kept: DraftedTask[] = [];
  for (const draft of drafts) (writeDraft(draft) ? written : kept).push(draft);
  const rows = (list: DraftedTask[]) => list.map(({ runId, label, file }) => ({ runId, label, file }));
  if (flags.json) return printJson({ dir: target, written: rows(written), kept: rows(kept) });
  const lines = [
    `Drafted ${written.length} task(s) in ${target}${kept.length > 0 ? `; ${kept.length} already drafted, left as they are` : ""}.`,
    ...written.map((d) => `  ${path.basename(d.file)}  (run ${d.runId}, ${d.label})`),
    `Check each file's graders, then: openclaw eval run ${dir}`,
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}
