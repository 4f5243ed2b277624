import fs from "node:fs";
import { CliError } from "../output.js";
import type { TaskReport } from "./eval-runner.js";
import { alignColumns } from "../../infra/text-table.js";

export interface EvalReport {
  suite: string;
  model?: string;
  trials: number;
  startedAt: string;
  /** The eval gateway's state dir: its traces and the trials' workspaces. */
  stateDir: string;
  tasks: TaskReport[];
  /** Every trial of every task passed: the suite no longer tells a better agent from this one. */
  saturated: boolean;
}

export interface Regression {
  task: string;
  baseline: number;
  now: number | undefined;
}

/** A report saved with `--json`, read before any trial runs so a bad file costs no model calls. */
export function readBaseline(baselineFile: string): EvalReport {
  let baseline: EvalReport;
  try {
    baseline = JSON.parse(fs.readFileSync(baselineFile, "utf8")) as EvalReport;
  } catch (err) {
    throw new CliError(
      `--baseline ${baselineFile}: ${(err as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : `not an eval report (${(err as Error).message})`}. Write one with \`openclaw eval run <suite> --json > ${baselineFile}\`.`,
    );
  }
  if (!Array.isArray(baseline?.tasks)) throw new CliError(`--baseline ${baselineFile}: not an eval report (no tasks). Write one with \`openclaw eval run <suite> --json\`.`);
  const bad = baseline.tasks.findIndex((t) => typeof t?.name !== "string" || typeof t.passAt1 !== "number");
  if (bad >= 0) throw new CliError(`--baseline ${baselineFile}: not an eval report (tasks[${bad}] has no name and passAt1). Write one with \`openclaw eval run <suite> --json\`.`);
  return baseline;
}

/** Tasks whose pass@1 fell below the baseline's, or that the baseline has and this run lacks. */
export function compareToBaseline(report: EvalReport, baseline: EvalReport): Regression[] {
  const now = new Map(report.tasks.map((t) => [t.name, t.passAt1]));
  return baseline.tasks.filter((t) => !now.has(t.name) || now.get(t.name)! < t.passAt1).map((t) => ({ task: t.name, baseline: t.passAt1, now: now.get(t.name) }));
}

/** The report for a terminal: one line per task, then each failure with the command that shows its trace. */
export function renderReport(report: EvalReport, regressions: Regression[] | undefined): string {
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  const header = ["TASK", "PASS", "pass@1", `pass@${report.trials}`, `pass^${report.trials}`, "TIME", "TOKENS IN/OUT"];
  const rows = report.tasks.map((t) => [
    t.name,
    `${t.passes}/${t.trials}`,
    pct(t.passAt1),
    pct(t.passAtK),
    pct(t.passHatK),
    `${t.meanDurationMs}ms`,
    `${t.meanTokensIn}/${t.meanTokensOut}`,
  ]);
  const out = [
    `Suite ${report.suite}: ${report.tasks.length} task(s) × ${report.trials} trial(s)${report.model ? `, model ${report.model}` : ""}`,
    "",
    ...alignColumns([header, ...rows]),
  ];
  const failures = report.tasks.flatMap((t) => t.results.filter((r) => !r.pass).map((r) => ({ task: t.name, r })));
  if (failures.length > 0) {
    out.push("", "Failures:");
    for (const { task, r } of failures) {
      out.push(`  ${task} trial ${r.trial}:`);
      for (const g of r.graders.filter((x) => !x.pass)) out.push(`    ✗ ${g.grader}${g.detail ? ` — ${g.detail}` : ""}`);
      if (r.infrastructure) out.push(`    infrastructure: ${r.infrastructure}`);
      for (const runId of r.runIds) out.push(`    trace: OPENCLAW_STATE_DIR=${report.stateDir} openclaw traces show ${runId}`);
    }
  }
  const infrastructure = report.tasks.reduce((sum, t) => sum + t.infrastructureErrors, 0);
  if (infrastructure > 0)
    out.push(
      "",
      `${infrastructure} trial(s) failed on infrastructure, not on a grader: their model provider did not answer (marked "infrastructure" above). Fix that before reading the score as the agent's.`,
    );
  if (report.saturated) out.push("", "The suite is saturated: every task passed every trial. Add harder tasks to keep it measuring.");
  if (regressions) {
    out.push("");
    if (regressions.length === 0) out.push("No regression against the baseline.");
    else
      for (const r of regressions) {
        const failedOnInfrastructure = report.tasks.find((t) => t.name === r.task)?.infrastructureErrors ?? 0;
        out.push(
          `REGRESSION ${r.task}: pass@1 ${pct(r.baseline)} in the baseline, ${r.now === undefined ? "missing now" : pct(r.now)}${failedOnInfrastructure > 0 ? ` (${failedOnInfrastructure} of its trials failed on infrastructure)` : ""}`,
        );
      }
  }
  return `${out.join("\n")}\n`;
}
