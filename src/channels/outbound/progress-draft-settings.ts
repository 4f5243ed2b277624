import type { ToolProgressDetail } from "../../agents/tool-labels.js";
import type { ProgressDraftSettings } from "./progress-draft.js";

/** A turn's work must last this long before its progress draft appears (OpenClaw's start delay). */
const INITIAL_DELAY_MS = 1_500;
const DEFAULT_LABELS = ["Working"];

interface ProgressConfig {
  label?: string | false;
  labels?: string[];
  maxLines?: number;
  maxLineChars?: number;
  toolProgress?: boolean;
  commandText?: "status" | "raw";
}

/**
 * `streaming.progress` of an account as the draft uses it. `label: auto` (or an unset label
 * above bare tool lines) is one of `labels`, picked by the run so one run keeps its label.
 */
export function progressDraftSettings(
  streaming: { throttleMs?: number; progress?: ProgressConfig } | undefined,
  runId: string,
  detail: ToolProgressDetail,
): ProgressDraftSettings & { implicitLabel: string } {
  const progress = streaming?.progress ?? {};
  const labels = progress.labels ?? DEFAULT_LABELS;
  const picked = labels[hash(runId) % labels.length]!;
  return {
    initialDelayMs: INITIAL_DELAY_MS,
    throttleMs: streaming?.throttleMs ?? 1_000,
    label: progress.label === "auto" ? picked : progress.label,
    implicitLabel: picked,
    maxLines: progress.maxLines ?? 8,
    maxLineChars: progress.maxLineChars ?? 120,
    toolProgress: progress.toolProgress ?? false,
    commandText: progress.commandText ?? "status",
    detail,
  };
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}
