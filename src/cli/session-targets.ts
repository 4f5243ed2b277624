import type { GatewayClient } from "../gateway/client.js";
import { normalizeSessionKey, parseSessionKey, SessionKeyError } from "../sessions/keys/index.js";
import { CliError } from "./output.js";

/** What a session command needs to name sessions as the gateway does: its agents, default agent and main key. */
export interface SessionTargeting {
  /** `--agent`, lower-cased; undefined when not given. */
  agent: string | undefined;
  defaultAgentId: string;
  mainKey: string;
}

/** The gateway's agents, read once per command; an `--agent` it does not know (or a blank one) fails, naming it. */
export async function sessionTargeting(client: GatewayClient, agentFlag: string | undefined): Promise<SessionTargeting> {
  if (agentFlag !== undefined && agentFlag.trim() === "") throw new CliError("--agent must not be blank: name the agent that owns the sessions (openclaw agents list)");
  const listed = (await client.call("agents.list", {})) as { defaultId: string; mainKey: string; agents: { id: string }[] };
  const agent = agentFlag?.trim().toLowerCase();
  if (agent !== undefined) mustBeListedAgent(listed.agents, agent, agentFlag!);
  return { agent, defaultAgentId: listed.defaultId, mainKey: listed.mainKey };
}

/**
 * An `--agent` that lists nothing must be one the gateway knows (as `memory`, `tools`, `models`
 * require): the sessions an agent left behind after leaving the config are still listed.
 */
export async function mustBeKnownAgent(client: GatewayClient, wanted: string): Promise<void> {
  const { agents } = (await client.call("agents.list", {})) as { agents: { id: string }[] };
  mustBeListedAgent(agents, wanted.toLowerCase(), wanted);
}

function mustBeListedAgent(agents: { id: string }[], id: string, asTyped: string): void {
  const known = agents.map((a) => a.id);
  if (!known.includes(id)) throw new CliError(`unknown agent "${asTyped}"; known agents: ${known.join(", ")}`);
}

/**
 * The session a typed key names, by the gateway's rule: `agent:<id>:<rest>` is that agent's; a bare
 * key is `agent:<--agent or the default agent>:<key>`. With `--agent`, a full key must be that
 * agent's own (the flag says which agent owns the session).
 */
export function resolveTypedKey(raw: string, targeting: SessionTargeting): { ok: true; key: string } | { ok: false; error: string } {
  let key: string;
  try {
    key = normalizeSessionKey(raw, targeting.agent ?? targeting.defaultAgentId);
  } catch (err) {
    if (err instanceof SessionKeyError) return { ok: false, error: `invalid session key: ${err.message}` };
    throw err;
  }
  const owner = parseSessionKey(key).agentId;
  if (targeting.agent !== undefined && owner !== targeting.agent) {
    return { ok: false, error: `the key belongs to agent "${owner}", not to --agent ${targeting.agent}: drop --agent or pass --agent ${owner}` };
  }
  return { ok: true, key };
}

/** The agent's main session (`agent:<id>:<session.mainKey>`), which the gateway never deletes. */
export function isMainSessionOf(key: string, targeting: SessionTargeting): boolean {
  const parts = key.split(":");
  return parts.length === 3 && parts[2] === targeting.mainKey;
}

/** The command that lists the keys to choose from, as OpenClaw's hints name it. */
export function listHint(targeting: SessionTargeting): string {
  return `openclaw sessions list${targeting.agent ? ` --agent ${targeting.agent}` : ""} --json`;
}
