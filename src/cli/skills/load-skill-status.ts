import { resolveSkillStatusAgent, skillStatus, type SkillStatusReport } from "../../agents/skills/skill-status.js";
import { defaultConfigPathForWrite, loadConfig, resolveConfigPath, resolveStateDir } from "../../config/index.js";
import { withConfigEnvVars } from "../../config/env-sources.js";
import { CliError } from "../output.js";

/** A skills status computed here, and the config file a fix would go into. */
export interface LoadedSkillStatus {
  report: SkillStatusReport;
  configPath: string;
}

/**
 * The skills status of `--agent` (else the default agent), computed from the local config and the
 * agent's workspace as the gateway's `skills.status` computes it, no gateway needed. Requirements
 * are checked against this process's PATH and environment, with the state dir's `.env` (read at
 * start) and `env.vars` filled in where unset, as the gateway's own is. Skills discovery skipped
 * are named on stderr, so `--json` stays one document on stdout.
 */
export async function loadSkillStatus(flags: { agent?: string }): Promise<LoadedSkillStatus> {
  if (flags.agent !== undefined && flags.agent.trim() === "") throw new CliError("--agent must not be blank (name a configured agent, or leave it out for the default agent)");
  const stateDir = resolveStateDir(process.env);
  const { config } = loadConfig({ stateDir, env: process.env });
  const agent = resolveSkillStatusAgent(config, flags.agent);
  if ("refusal" in agent) throw new CliError(agent.refusal);
  const { report, warnings } = await skillStatus(config, agent.agentId, stateDir, withConfigEnvVars(config.env?.vars, process.env));
  for (const warning of warnings) process.stderr.write(`openclaw: skills: ${warning}\n`);
  return { report, configPath: resolveConfigPath(stateDir, process.env) ?? defaultConfigPathForWrite(stateDir) };
}
