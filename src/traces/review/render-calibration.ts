import { alignColumns } from "../../infra/text-table.js";
import type { Calibration } from "./calibration.js";

/** `openclaw traces review --calibration`: agreement, the label-by-verdict table, kappa, and the runs they disagree on. */
export function renderCalibration(c: Calibration): string {
  const outdated =
    c.outdated > 0 ? `${c.outdated} labelled runs were graded against another rubric and are left out: openclaw traces regrade grades them with the current one.\n` : "";
  if (c.count === 0)
    return `No run has both a label and a judge's pass/fail verdict under the current rubric yet: label judged runs (openclaw traces label <runId> pass|fail) to calibrate the judge.\n${outdated}`;
  const table = alignColumns([
    ["", "JUDGE PASS", "JUDGE FAIL"],
    ["LABEL PASS", String(c.confusion.bothPass), String(c.confusion.labelPassJudgeFail)],
    ["LABEL FAIL", String(c.confusion.labelFailJudgePass), String(c.confusion.bothFail)],
  ]);
  const lines = [
    `${c.count} runs with a label and a verdict: they agree on ${percent(c.agreement!)}.`,
    `Cohen's kappa: ${c.kappa === null ? "undefined (label and verdict were the same single answer every time)" : c.kappa.toFixed(2)}`,
    "",
    ...table,
  ];
  if (c.disagreements.length > 0) {
    lines.push("", "Disagreements (openclaw traces show <runId>):");
    for (const d of c.disagreements) lines.push(`  ${d.runId}  label ${d.label}, judge ${d.verdict}`);
  }
  return `${lines.join("\n")}\n${outdated}`;
}

function percent(rate: number): string {
  return `${(rate * 100).toFixed(1)}%`;
}
