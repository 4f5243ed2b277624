import { defaultAgentId, resolveAgentConfig } from "../agents/agent-config.js";
import { planTurnModels } from "../agents/turn-models.js";
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
  if (!plan.ok) throw new CliError(plan.message);
  const status = modelsStatus({ config, env: process.env, agentId, chain: plan.chain, store });
  process.stdout.write(`${flags.json ? JSON.stringify(status, null, 2) : formatModelsStatus(status)}\n`);
}
