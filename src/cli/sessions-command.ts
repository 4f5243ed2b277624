import { connectClient, type ClientFlags } from "./client-context.js";
import { formatDuration } from "./gateway-call.js";
import { CliError, printJson } from "./output.js";
import { agentSessionCounts, type GatewayStatusSnapshot, type HealthSnapshot } from "./gateway-snapshots.js";
import { alignColumns } from "../infra/text-table.js";
import { mustBeKnownAgent } from "./session-targets.js";

/** `openclaw sessions [list]`: the gateway's `sessions.list`, as a table or JSON. */
export async function sessionsCommand(flags: ClientFlags & { agent?: string; limit?: string }): Promise<void> {
  const limit = Number(flags.limit ?? 100);
  if (!Number.isInteger(limit) || limit < 1) throw new CliError("--limit: expected a positive integer");
  const client = await connectClient(flags);
  try {
    const res = (await client.call("sessions.list", { limit, ...(flags.agent ? { agentId: flags.agent } : {}) })) as {
      count: number;
      totalCount: number;
      sessions: { key: string; updatedAt: number | null; totalTokens?: number; model?: string; hasActiveRun?: boolean }[];
    };
    if (res.sessions.length === 0 && flags.agent) await mustBeKnownAgent(client, flags.agent);
    if (flags.json) return printJson(res);
    if (res.sessions.length === 0) return void process.stdout.write("No sessions yet\n");
    const now = Date.now();
    const rows = res.sessions.map((s) => [
      s.key,
      s.updatedAt ? `${formatDuration(now - s.updatedAt)} ago` : "-",
      String(s.totalTokens ?? 0),
      s.model ?? "-",
      s.hasActiveRun ? "running" : "",
    ]);
    const header = ["KEY", "UPDATED", "TOKENS", "MODEL", ""];
    for (const line of alignColumns([header, ...rows])) process.stdout.write(`${line}\n`);
    if (res.totalCount > res.count) process.stdout.write(`(${res.count} of ${res.totalCount} shown)\n`);
  } finally {
    client.close();
  }
}

/** `openclaw status`: is the gateway up, which version, how many sessions. */
export async function statusCommand(flags: ClientFlags): Promise<void> {
  const client = await connectClient(flags);
  try {
    const status = (await client.call("status", {})) as GatewayStatusSnapshot;
    const health = (await client.call("health", {})) as HealthSnapshot;
    if (flags.json) return printJson({ gateway: status, health });
    const agents = agentSessionCounts(health);
    process.stdout.write(
      [
        `Gateway: reachable (version ${status.version}, pid ${status.pid}, ${status.host}:${status.port}, up ${formatDuration(status.uptimeMs)})`,
        `Auth: ${status.authMode}`,
        `Agents: ${agents.join(", ")}`,
        `Sessions: ${status.sessions?.count ?? 0}`,
        ...channelLines(status.channels),
        "",
      ].join("\n"),
    );
  } finally {
    client.close();
  }
}

function channelLines(channels: GatewayStatusSnapshot["channels"]): string[] {
  const entries = Object.entries(channels ?? {});
  if (entries.length === 0) return [];
  const parts = entries.map(([name, c]) => `${name} ${c.connected ? "connected" : c.running ? "connecting" : "stopped"}${c.lastError ? ` (${c.lastError})` : ""}`);
  return [`Channels: ${parts.join(", ")}`];
}
