import path from "node:path";
import { loadConfig, resolveStateDir } from "../config/index.js";
import { startEvalGateway, type EvalAgent } from "./eval/eval-gateway.js";
import { judgeAgents, prepareWorkspace, runTask, taskJudges, trialAgentId, workspaceRoot, type TaskReport } from "./eval/eval-runner.js";
import { compareToBaseline, readBaseline, renderReport, type EvalReport } from "./eval/report.js";
import { loadSuite } from "./eval/task-file.js";
import { CliError, printJson } from "./output.js";

export interface EvalRunFlags {
  trials?: string;
  model?: string;
  json?: boolean;
  baseline?: string;
}

/**
 * `openclaw eval run <suite>`: every task of the suite, `--trials` times each, through a gateway
 * of its own (docs/evals.md). Exits 1 when a task regressed against `--baseline`.
 */
export async function evalRunCommand(suiteDir: string, flags: EvalRunFlags): Promise<void> {
  const trials = flags.trials === undefined ? 1 : Number(flags.trials);
  if (!Number.isInteger(trials) || trials < 1 || trials > 100) throw new CliError(`--trials: expected an integer from 1 to 100, got "${flags.trials}"`);
  const baseline = flags.baseline ? readBaseline(flags.baseline) : undefined;
  const tasks = loadSuite(suiteDir);
  const userStateDir = resolveStateDir(process.env);
  const { config } = loadConfig({ stateDir: userStateDir, env: process.env });
  const suite = path.basename(path.resolve(suiteDir));
  const startedAt = new Date();
  const stateDir = path.join(userStateDir, "evals", `${suite}-${startedAt.toISOString().replace(/[:.]/g, "-")}`);
  const workspaces = workspaceRoot(stateDir);
  const judges = judgeAgents(tasks);
  // Judges answer with text alone; a rubric's named judges run on their own models.
  const agents: EvalAgent[] = [...judges].map(([model, id]) => ({ id, workspace: path.join(workspaces, id), tools: { deny: ["*"] }, ...(model ? { model } : {}) }));
  tasks.forEach((task, i) => {
    for (let trial = 1; trial <= trials; trial += 1) {
      const id = trialAgentId(i, trial);
      const workspace = path.join(workspaces, id);
      prepareWorkspace(workspace, task.workspace);
      agents.push({ id, workspace, ...(task.agent.model && !flags.model ? { model: task.agent.model } : {}), ...(task.agent.tools ? { tools: task.agent.tools } : {}) });
    }
  });
  if (!flags.json) process.stderr.write(`Running ${tasks.length} task(s) × ${trials} trial(s); state in ${stateDir}\n`);
  const gateway = await startEvalGateway(config, stateDir, agents, flags.model);
  const reports: TaskReport[] = [];
  try {
    for (const [i, task] of tasks.entries()) {
      const report = await runTask(gateway.client, task, i, trials, (id) => path.join(workspaces, id), taskJudges(gateway.client, task, judges));
      reports.push(report);
      if (!flags.json) process.stderr.write(`  ${task.name}: ${report.passes}/${trials}\n`);
    }
  } finally {
    await gateway.stop();
  }
  const saturated = reports.every((t) => t.passes === t.trials);
  const report: EvalReport = { suite, ...(flags.model ? { model: flags.model } : {}), trials, startedAt: startedAt.toISOString(), stateDir, tasks: reports, saturated };
  const regressions = baseline ? compareToBaseline(report, baseline) : undefined;
  if (flags.json) printJson(regressions ? { ...report, regressions } : report);
  else process.stdout.write(renderReport(report, regressions));
  if (regressions && regressions.length > 0) process.exitCode = 1;
}
