import JSON5 from "json5";
import { connectClient, resolveClientTarget, type ClientFlags } from "./client-context.js";
import { CliError, printJson } from "./output.js";
import { agentSessionCounts, type GatewayStatusSnapshot, type HealthSnapshot } from "./gateway-snapshots.js";

/** `openclaw gateway call <method>`: one raw RPC, its payload printed as JSON. */
export async function gatewayCallCommand(method: string, flags: ClientFlags & { params?: string; expectFinal?: boolean }): Promise<void> {
  let params: unknown;
  try {
    params = JSON5.parse(flags.params ?? "{}");
  } catch {
    throw new CliError(`--params: not valid JSON`);
  }
  const client = await connectClient(flags);
  try {
    const timeoutMs = resolveClientTarget(flags).timeoutMs;
    const payload = await client.call(method, params, { timeoutMs, expectFinal: flags.expectFinal });
    printJson(payload);
  } finally {
    client.close();
  }
}

/** `openclaw health`: the gateway's health snapshot; non-zero exit when unreachable. */
export async function healthCommand(flags: ClientFlags): Promise<void> {
  const client = await connectClient(flags);
  try {
    const timeoutMs = resolveClientTarget(flags).timeoutMs;
    const health = (await client.call("health", {}, { timeoutMs })) as HealthSnapshot;
    if (flags.json) return printJson(health);
    const gw = (await client.call("status", {}, { timeoutMs })) as GatewayStatusSnapshot;
    const agents = agentSessionCounts(health);
    process.stdout.write(
      [
        `Gateway: ok (version ${gw.version}, pid ${gw.pid}, ${gw.host}:${gw.port}, up ${formatDuration(gw.uptimeMs)})`,
        `Connections: ${gw.connections}`,
        `Agents: ${agents.join(", ") || "none"}`,
        `Channels: ${health.channelOrder?.length ? health.channelOrder.join(", ") : "none configured"}`,
        "",
      ].join("\n"),
    );
  } finally {
    client.close();
  }
}

export function formatDuration(ms: number): string {
  const s = Math.floor((ms ?? 0) / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${s % 60}s`;
  const h = Math.floor(m / 60);
  return h < 24 ? `${h}h ${m % 60}m` : `${Math.floor(h / 24)}d ${h % 24}h`;
}
