import { defaultAgentId, resolveAgentConfig } from "../agents/agent-config.js";
import { planTurnModels, turnCandidateChain } from "../agents/turn-models.js";
import { loadConfig, resolveStateDir } from "../config/index.js";
import { AuthProfileStore, authProfilesPath } from "../models/failover/index.js";
import { formatModelsStatus, modelsStatus } from "../models/failover/models-status.js";
import { CliError } from "./output.js";

/** `openclaw models status`: the agent's model chain and each provider's keys and cooldowns, read from disk (secrets masked). */
export function modelsStatusCommand(flags: { agent?: string; json?: boolean }): void {
  const stateDir = resolveStateDir(process.env);
  const { config } = loadConfig({ stateDir, env: process.env });
  const agentId = (flags.agent ?? defaultAgentId(config)).toLowerCase();
  const agent = resolveAgentConfig(config, agentId);
  if (!agent && agentId !== defaultAgentId(config)) throw new CliError(`unknown agent "${agentId}"`);
  const store = new AuthProfileStore(authProfilesPath(stateDir, agentId));
  const plan = planTurnModels({ config, env: process.env, agent, store });
  // When no turn can run (no key, no model that resolves) the chain and keys are what explain it: show them, then why.
  const chain = plan.ok ? plan.chain : turnCandidateChain({ config, agent });
  if (!chain) throw new CliError(plan.ok ? "no model configured" : plan.message);
  const status = modelsStatus({ config, env: process.env, agentId, chain, store });
  if (!flags.json) {
    process.stdout.write(`${formatModelsStatus(status)}\n`);
    if (!plan.ok) throw new CliError(plan.message);
    return;
  }
  // One JSON document on stdout: the reason no turn can run is a field of it, and the exit status says it.
  process.stdout.write(`${JSON.stringify(plan.ok ? status : { ...status, problem: plan.message }, null, 2)}\n`);
  if (!plan.ok) process.exitCode = 1;
}
