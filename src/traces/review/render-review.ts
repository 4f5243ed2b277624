import { alignColumns } from "../../infra/text-table.js";
import type { ReviewItem } from "./review-store.js";

/** `openclaw traces review`: one line per queued run, newest first, and how many wait. */
export function renderReviewQueue(items: readonly ReviewItem[], counts: { pending: number; labelled: number }): string {
  const summary = `${counts.pending} waiting for review, ${counts.labelled} labelled.\n`;
  if (items.length === 0) return `No runs in this list. ${summary}`;
  const rows = items.map((item) => [
    new Date(item.queuedAt).toISOString().replace("T", " ").slice(0, 19),
    item.run.runId,
    item.reasons.join(","),
    item.label ?? "-",
    item.judge?.verdict ?? "-",
    item.feedback ? (item.feedback.rating === "down" ? "👎" : "👍") : "-",
    item.run.outcome,
    item.run.sessionKey,
    item.run.model ?? "-",
    String(item.totalTokens),
  ]);
  const header = ["QUEUED", "RUN", "REASONS", "LABEL", "JUDGE", "FEEDBACK", "OUTCOME", "SESSION", "MODEL", "TOKENS"];
  return `${alignColumns([header, ...rows]).join("\n")}\n${summary}`;
}
