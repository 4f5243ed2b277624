import fs from "node:fs";
import path from "node:path";
import { stringify as stringifyYaml } from "yaml";
import type { ReviewItem, ReviewLabel, TraceRecord } from "../../traces/index.js";

/** An eval task drafted from a labelled run, and the file it goes to. */
export interface DraftedTask {
  runId: string;
  label: ReviewLabel;
  file: string;
  text: string;
}

/** The reply a passed run's draft compares with: long enough for a judge to weigh, short enough to read. */
const REFERENCE_MAX_CHARS = 4000;
const MAX_TOOL_GRADERS = 3;

/** The file a run's draft is written to: one per run, so drafting again never makes a second copy. */
export function draftFileName(runId: string): string {
  return `review-${runId.replace(/[^\w.-]/g, "_")}.yaml`;
}

/**
 * A task file drafted from a run an operator labelled: the run's messages as the prompt, and a
 * grader from the verdict — for a failed run, a rubric naming the problem the operator wrote
 * down; for a passed run, a compare grader with its reply as the reference answer (a new reply
 * passes when the judge finds it at least as good) and a `toolCalled` for each tool it used
 * successfully. The header says what a draft cannot know (the session's history
 * before the run, the workspace's files) so the operator finishes it.
 */
export function draftTask(item: ReviewItem & { label: ReviewLabel }, trace: TraceRecord, dir: string): DraftedTask {
  const note = item.note?.trim();
  const input = trace.input.filter((text) => text.trim() !== "");
  const graders: Record<string, unknown>[] =
    item.label === "fail"
      ? [
          {
            rubric: `An operator judged an earlier reply to this message wrong${note ? `: "${note}"` : ""}. PASS only if this reply does not have that problem and does what the user asked.`,
          },
        ]
      : [
          {
            compare: {
              rubric: `It does what the user asked. The reference is a reply an operator judged right${note ? ` ("${note}")` : ""}.`,
              reference: trace.output.length > REFERENCE_MAX_CHARS ? `${trace.output.slice(0, REFERENCE_MAX_CHARS)}…` : trace.output,
            },
          },
          ...[...new Set(trace.toolCalls.filter((call) => !call.isError && call.decision === "allowed").map((call) => call.name))]
            .slice(0, MAX_TOOL_GRADERS)
            .map((name) => ({ toolCalled: name })),
        ];
  const task = {
    description: `Drafted from run ${trace.runId} (${trace.sessionKey}), labelled ${item.label}${note ? `: ${note}` : ""}.`,
    ...(input.length === 1 ? { prompt: input[0] } : { conversation: input }),
    graders,
  };
  const header = [
    `# Drafted by openclaw eval draft from run ${trace.runId}, labelled ${item.label} in the review queue.`,
    "# Before relying on it: the run's earlier conversation and its workspace files are not here (add",
    "# `conversation:` messages or a `workspace:` fixture folder if the task needs them), and code graders",
    "# (contains, matches, file, toolCalled) are steadier than a rubric (docs/evals.md).",
    `# The run answered with ${trace.model ?? "an unknown model"} and could use: ${(trace.tools ?? []).join(", ") || "no tools"}.`,
  ];
  return { runId: trace.runId, label: item.label, file: path.join(dir, draftFileName(trace.runId)), text: `${header.join("\n")}\n${stringifyYaml(task, { lineWidth: 0 })}` };
}

/** Writes a draft unless its file exists (a draft already taken, perhaps edited since); false when it was left alone. */
export function writeDraft(draft: DraftedTask): boolean {
  try {
    fs.writeFileSync(draft.file, draft.text, { flag: "wx", mode: 0o644 });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  }
}
