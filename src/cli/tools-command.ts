import { loadConfig, resolveStateDir } from "../config/index.js";
import { agentModelRef, defaultAgentId, resolveAgentConfig } from "../agents/agent-config.js";
import { formatToolPolicyExplanation, resolveEffectiveTools } from "../agents/policy/index.js";
import { createCoreTools } from "../agents/tools/index.js";
import { webFetchOptionsFromConfig } from "../agents/web-fetch-options.js";
import { CliError } from "./output.js";

export interface ToolsExplainFlags {
  agent?: string;
  provider?: string;
  model?: string;
  channel?: string;
  notOwner?: boolean;
  sandboxed?: boolean;
  json?: boolean;
}

/** `openclaw tools explain`: which tools an agent gets, and which policy layer removed each other one. */
export function toolsExplainCommand(flags: ToolsExplainFlags): void {
  const stateDir = resolveStateDir(process.env);
  const { config } = loadConfig({ stateDir, env: process.env });
  const agentId = (flags.agent ?? defaultAgentId(config)).toLowerCase();
  const agent = resolveAgentConfig(config, agentId);
  if (!agent && agentId !== defaultAgentId(config)) throw new CliError(`unknown agent "${agentId}"`);
  const ref = flags.model ?? agentModelRef(config, agent);
  const slash = ref?.indexOf("/") ?? -1;
  const provider = flags.provider ?? (ref && slash > 0 ? ref.slice(0, slash) : undefined);
  const modelId = ref && slash > 0 ? ref.slice(slash + 1) : ref;
  const tools = createCoreTools({ webFetch: webFetchOptionsFromConfig(config) });
  const result = resolveEffectiveTools({
    config,
    agentId,
    provider,
    modelId,
    channel: flags.channel,
    senderIsOwner: !flags.notOwner,
    sandboxed: flags.sandboxed,
    ownerOnlyTools: tools.filter((t) => t.ownerOnly).map((t) => t.name),
    available: tools.map((t) => t.name),
  });
  process.stdout.write(`${formatToolPolicyExplanation(result, { json: flags.json })}\n`);
}
