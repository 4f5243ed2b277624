import { agentModelRef, listAgentConfigs, type AgentConfig } from "../../agents/agent-config.js";
import { resolveWorkspaceDir } from "../../agents/context/workspace.js";
import type { Binding } from "../../channels/routing/resolve-agent-route.js";
import { loadConfig, resolveStateDir, type OpenClawConfig } from "../../config/index.js";
import { describeBinding, isRouteBinding, ownerOf } from "../../agents/roster/route-bindings.js";
import { printJson } from "../output.js";
import { printable } from "../printable.js";

/** One row of `openclaw agents list`, in the fields of OpenClaw's `agents list --json`. */
interface AgentSummary {
  id: string;
  name?: string;
  identityName?: string;
  identityEmoji?: string;
  identitySource?: "config";
  workspace: string;
  model?: string;
  /** How many route bindings send chats to this agent. */
  bindings: number;
  isDefault: boolean;
  /** The channel accounts those bindings cover (`telegram default`, `discord *`). */
  routes?: string[];
  /** With --bindings: each binding's match, one line each. */
  bindingDetails?: string[];
}

const CHANNEL_LABELS: Record<string, string> = { telegram: "Telegram", discord: "Discord", slack: "Slack" };

/** Route bindings choose an agent; `type: acp` ones bind a chat to an external ACP agent instead and are not listed. */
function routeBindingsByAgent(config: OpenClawConfig): Map<string, Binding[]> {
  const byAgent = new Map<string, Binding[]>();
  for (const binding of (config.bindings ?? []) as Binding[]) {
    if (!isRouteBinding(binding)) continue;
    const id = ownerOf(binding);
    byAgent.set(id, [...(byAgent.get(id) ?? []), binding]);
  }
  return byAgent;
}

/** The channel accounts bindings cover, once each: a binding without `accountId` covers the account named `default`. */
function routesOf(bindings: Binding[]): string[] {
  const routes = new Set<string>();
  for (const { match } of bindings) {
    const channel = match.channel.trim().toLowerCase();
    routes.add(`${CHANNEL_LABELS[channel] ?? channel} ${match.accountId?.trim() || "default"}`);
  }
  return [...routes];
}

function summarize(config: OpenClawConfig, stateDir: string, agent: AgentConfig, bindings: Binding[], opts: { routes: boolean; details: boolean }): AgentSummary {
  const identityName = agent.identity?.name?.trim() || undefined;
  const identityEmoji = agent.identity?.emoji?.trim() || undefined;
  const model = agentModelRef(config, agent);
  const summary: AgentSummary = {
    id: agent.id,
    ...(agent.name?.trim() ? { name: agent.name.trim() } : {}),
    ...(identityName ? { identityName } : {}),
    ...(identityEmoji ? { identityEmoji } : {}),
    ...(identityName || identityEmoji ? { identitySource: "config" as const } : {}),
    workspace: resolveWorkspaceDir(config, agent.id, stateDir, process.env),
    ...(model ? { model } : {}),
    bindings: bindings.length,
    isDefault: agent.isDefault,
  };
  if (opts.routes) {
    const routes = routesOf(bindings);
    if (routes.length > 0) summary.routes = routes;
    else if (agent.isDefault) summary.routes = ["default (no explicit rules)"];
  }
  if (opts.details && bindings.length > 0) summary.bindingDetails = bindings.map(describeBinding);
  return summary;
}

function formatSummary(s: AgentSummary): string {
  const header = `${printable(s.id)}${s.isDefault ? " (default)" : ""}${s.name && s.name !== s.id ? ` (${printable(s.name)})` : ""}`;
  const lines = [`- ${header}`];
  const identity = [s.identityEmoji, s.identityName].filter(Boolean).join(" ");
  if (identity) lines.push(`  Identity: ${printable(identity)} (config)`);
  lines.push(`  Workspace: ${printable(s.workspace)}`);
  if (s.model) lines.push(`  Model: ${printable(s.model)}`);
  lines.push(`  Routing rules: ${s.bindings}`);
  if (s.routes?.length) lines.push(`  Routing: ${s.routes.map(printable).join(", ")}`);
  if (s.bindingDetails?.length) lines.push("  Routing rules:", ...s.bindingDetails.map((d) => `    - ${printable(d)}`));
  return lines.join("\n");
}

/**
 * `openclaw agents list [--bindings] [--json]`: the configured agents, read from the local config
 * (no gateway needed): id, name, default, identity, workspace, model and the route bindings that
 * send chats to each. --json prints the rows; with --bindings they also carry routes and details.
 */
export function agentsListCommand(flags: { bindings?: boolean; json?: boolean }): void {
  const stateDir = resolveStateDir(process.env);
  const { config } = loadConfig({ stateDir, env: process.env });
  const byAgent = routeBindingsByAgent(config);
  const opts = { routes: !flags.json || flags.bindings === true, details: flags.bindings === true };
  const summaries = listAgentConfigs(config).map((agent) => summarize(config, stateDir, agent, byAgent.get(agent.id) ?? [], opts));
  if (flags.json) return printJson(summaries);
  process.stdout.write(`${["Agents:", ...summaries.map(formatSummary), "Routing rules map channel/account/peer to an agent. Use --bindings for full rules."].join("\n")}\n`);
}
