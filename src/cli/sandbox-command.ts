import { loadConfig, resolveStateDir } from "../config/index.js";
import { defaultAgentId, resolveAgentConfig } from "../agents/agent-config.js";
import { resolveWorkspaceDir } from "../agents/context/workspace.js";
import { formatToolPolicyExplanation, resolveEffectiveTools } from "../agents/policy/index.js";
import { formatElevatedSummary } from "../agents/sandbox/elevated-summary.js";
import { explainSandbox, type SandboxExplanation } from "../agents/sandbox/sandbox-explain.js";
import { createCoreTools } from "../agents/tools/index.js";
import { webFetchOptionsFromConfig } from "../agents/web-fetch-options.js";
import { buildMainSessionKey } from "../sessions/keys/index.js";
import { CliError } from "./output.js";

export interface SandboxExplainFlags {
  agent?: string;
  session?: string;
  json?: boolean;
}

/** `openclaw sandbox explain`: whether a run of an agent in a session is sandboxed, how, and which tools it keeps. */
export function sandboxExplainCommand(flags: SandboxExplainFlags): void {
  const stateDir = resolveStateDir(process.env);
  const { config } = loadConfig({ stateDir, env: process.env });
  const agentId = (flags.agent ?? defaultAgentId(config)).toLowerCase();
  if (!resolveAgentConfig(config, agentId) && agentId !== defaultAgentId(config)) throw new CliError(`unknown agent "${agentId}"`);
  const sessionKey = flags.session ?? buildMainSessionKey(agentId, config.session.mainKey);
  const workspaceDir = resolveWorkspaceDir(config, agentId, stateDir, process.env);
  const explanation = explainSandbox({ config, agentId, sessionKey, workspaceDir, stateDir, env: process.env });
  const tools = createCoreTools({ webFetch: webFetchOptionsFromConfig(config) });
  const policy = resolveEffectiveTools({
    config,
    agentId,
    senderIsOwner: true,
    sandboxed: explanation.sandboxed,
    ownerOnlyTools: tools.filter((t) => t.ownerOnly).map((t) => t.name),
    available: tools.map((t) => t.name),
  });
  const allowed = policy.allowed.filter((name) => !explanation.withheldTools.includes(name));
  if (flags.json) {
    process.stdout.write(`${JSON.stringify({ ...explanation, tools: allowed, policy: JSON.parse(formatToolPolicyExplanation(policy, { json: true })) }, null, 2)}\n`);
    return;
  }
  process.stdout.write(`${formatSandbox(explanation, allowed)}\n`);
}

function formatSandbox(e: SandboxExplanation, tools: string[]): string {
  const lines = [`agent ${e.agentId}, session ${e.sessionKey}`, `sandboxed: ${e.sandboxed ? "yes" : "no"} (${e.reason})`];
  if (e.sandboxed) {
    lines.push(
      `backend: ${e.backend}${e.backendInstalled ? "" : ` — NOT INSTALLED: exec fails until you ${e.installHint}`}${e.dockerImage ? ` (image ${e.dockerImage})` : ""}`,
      `workspace: ${e.workspace} (${e.writable ? "writable" : "read-only"}; workspaceAccess ${e.workspaceAccess}, scope ${e.scope})`,
      `network: ${e.network === "host" ? "the host's" : "none"}`,
      "host: system directories read-only; no state dir, credentials or $HOME; a fresh PID namespace ended with the turn",
    );
    if (e.withheldTools.length > 0) lines.push(`withheld: ${e.withheldTools.join(", ")} (${e.withheldReason ?? "sandboxed"})`);
    lines.push(formatElevatedSummary(e.elevated));
  } else {
    lines.push("exec runs on the host with the gateway's rights");
  }
  lines.push(`tools: ${tools.join(", ") || "(none)"}`);
  return lines.join("\n");
}
