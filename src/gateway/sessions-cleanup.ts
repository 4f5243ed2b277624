import { defaultAgentId, normalizeAgentId } from "../agents/agent-config.js";
import type { OpenClawConfig } from "../config/index.js";
import { maintenanceSettingsOf, runMaintenancePass } from "../conversations/maintenance-pass.js";
import { normalizeSessionKey, parseSessionKey, SessionKeyError } from "../sessions/keys/index.js";
import type { SessionStore } from "../sessions/store/index.js";
import { configuredSessionAgents } from "./methods/configured-agent-sessions.js";
import { cleanupResult, type SessionsCleanupResult } from "./sessions-cleanup-summary.js";

/** What `sessions.cleanup` (and `openclaw sessions cleanup` without a gateway) is asked to do. */
export interface SessionsCleanupRequest {
  /** Report what a pass would do, changing nothing. */
  dryRun?: boolean;
  /** Apply even when `session.maintenance.mode` is `warn`. */
  enforce?: boolean;
  /** The one agent to clean up (default: the default agent). */
  agentId?: string;
  /** Every configured agent instead. */
  allAgents?: boolean;
  /** A session the pass never archives (a bare key is the scope's agent's). */
  activeKey?: string;
}

/** A request that names something this cleanup cannot cover; the message says what. */
export class SessionsCleanupRefusal extends Error {}

/**
 * Runs the maintenance pass the gateway runs hourly (maintenance-pass.ts) now, over the agents
 * the request names, with the config's `session.maintenance` settings, and returns its summary
 * in OpenClaw's shape (sessions-cleanup-summary.ts). The caller owns `store`: the running
 * gateway's, or one a CLI opened while it holds the state dir's lock.
 */
export function runSessionsCleanup(store: SessionStore, config: OpenClawConfig, request: SessionsCleanupRequest): SessionsCleanupResult {
  const agentIds = cleanupScope(config, request);
  const activeKey = request.activeKey === undefined ? undefined : protectedKey(request.activeKey, agentIds, config);
  const report = runMaintenancePass(store, maintenanceSettingsOf(config), {
    dryRun: request.dryRun === true,
    enforce: request.enforce === true,
    agentIds,
    ...(activeKey ? { protectedKeys: [activeKey] } : {}),
  });
  return cleanupResult(report, { stateDir: store.stateDir, dryRun: request.dryRun === true, enforce: request.enforce === true, activeKey });
}

/**
 * The agents a cleanup covers, as OpenClaw chooses its stores: the default agent, the one named,
 * or every configured one. Configured are the config's agents (`main` when it names none) and
 * the ACP agents it names, whose sessions live under their own ids; an agent the config no
 * longer names is left to the hourly pass.
 */
function cleanupScope(config: OpenClawConfig, request: SessionsCleanupRequest): string[] {
  if (request.agentId !== undefined && request.allAgents === true) throw new SessionsCleanupRefusal("name one agent or all agents, not both");
  const known = [...configuredSessionAgents(config)];
  if (request.allAgents === true) return known;
  if (request.agentId === undefined) return [defaultAgentId(config)];
  const id = normalizeAgentId(request.agentId);
  if (id === "") throw new SessionsCleanupRefusal("the agent id is blank: name the agent whose sessions to clean up (openclaw agents list)");
  if (!known.includes(id)) throw new SessionsCleanupRefusal(`unknown agent "${request.agentId}"; known agents: ${known.join(", ")}`);
  return [id];
}

/** The active key as the store spells it; it must be a session of an agent the cleanup covers (else it would protect nothing). */
function protectedKey(raw: string, agentIds: readonly string[], config: OpenClawConfig): string {
  let key: string;
  try {
    key = normalizeSessionKey(raw, agentIds.length === 1 ? agentIds[0]! : defaultAgentId(config), { mainKey: config.session.mainKey });
  } catch (err) {
    if (err instanceof SessionKeyError) throw new SessionsCleanupRefusal(`the active key is not a session key: ${err.message}`);
    throw err;
  }
  const owner = parseSessionKey(key).agentId;
  if (!agentIds.includes(owner)) {
    throw new SessionsCleanupRefusal(`the active key ${key} is a session of agent "${owner}", which this cleanup does not cover (it covers ${agentIds.join(", ")})`);
  }
  return key;
}
