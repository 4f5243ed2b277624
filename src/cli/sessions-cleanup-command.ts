import type { SessionsCleanupRequest } from "../gateway/sessions-cleanup.js";
import type { SessionsCleanupResult } from "../gateway/sessions-cleanup-summary.js";
import { readLiveLock } from "../gateway/state-lock.js";
import { resolveClientTarget, type ClientFlags } from "./client-context.js";
import { CliError, printJson } from "./output.js";
import { withGateway } from "./with-gateway.js";

export interface SessionsCleanupFlags extends ClientFlags {
  dryRun?: boolean;
  enforce?: boolean;
  agent?: string;
  allAgents?: boolean;
  activeKey?: string;
  store?: string;
  fixMissing?: boolean;
  fixDmScope?: boolean;
}

/** OpenClaw's options with no counterpart here, and why: refused before anything runs. */
const UNSUPPORTED: { flag: keyof SessionsCleanupFlags; name: string; why: string }[] = [
  {
    flag: "store",
    name: "--store",
    why: "an agent's sessions are always <state dir>/agents/<id>/sessions here (sessions.json and a transcript per session); choose them with --agent or --all-agents",
  },
  { flag: "fixMissing", name: "--fix-missing", why: "a session whose transcript is missing gets a fresh one when the store opens, so no session lacks its transcript" },
  {
    flag: "fixDmScope",
    name: "--fix-dm-scope",
    why: "sessions an earlier session.dmScope left are archived by pruneAfter like any idle session; openclaw sessions delete removes them now",
  },
];

/**
 * `openclaw sessions cleanup`: the maintenance pass the gateway runs hourly, now. While a gateway
 * holds the state dir (or with --url, --port, or a remote gateway.mode) it runs there
 * (`sessions.cleanup`), on the sessions the gateway holds in memory; with none, it runs in this
 * process under the state-dir lock (sessions-cleanup-local.ts). Prints what it did, or would do.
 */
export async function sessionsCleanupCommand(flags: SessionsCleanupFlags): Promise<void> {
  const request = cleanupRequest(flags);
  const target = resolveClientTarget(flags);
  const viaGateway = target.kind !== "local" || flags.port !== undefined || readLiveLock(target.stateDir) !== undefined;
  let result: SessionsCleanupResult;
  if (viaGateway) result = await withGateway(flags, (call) => call<SessionsCleanupResult>("sessions.cleanup", request));
  else {
    const { runCleanupLocally } = await import("./sessions-cleanup-local.js");
    result = runCleanupLocally(target.stateDir, request);
  }
  if (flags.json) return printJson(result);
  const { printCleanup } = await import("./sessions-cleanup-output.js");
  printCleanup(result, viaGateway ? undefined : target.stateDir);
}

/** The flags as the request both routes take; flags that cannot work are refused here, naming them. */
function cleanupRequest(flags: SessionsCleanupFlags): SessionsCleanupRequest {
  for (const { flag, name, why } of UNSUPPORTED) if (flags[flag] !== undefined) throw new CliError(`${name} is not supported: ${why}.`);
  if (flags.agent !== undefined && flags.allAgents) throw new CliError("--agent and --all-agents cannot be used together");
  if (flags.agent !== undefined && flags.agent.trim() === "") throw new CliError("--agent must not be blank: name the agent whose sessions to clean up (openclaw agents list)");
  if (flags.activeKey !== undefined && flags.activeKey.trim() === "") throw new CliError("--active-key must not be blank: name the session to protect");
  return {
    dryRun: flags.dryRun === true,
    enforce: flags.enforce === true,
    ...(flags.agent !== undefined ? { agentId: flags.agent.trim() } : {}),
    allAgents: flags.allAgents === true,
    ...(flags.activeKey !== undefined ? { activeKey: flags.activeKey.trim() } : {}),
  };
}
