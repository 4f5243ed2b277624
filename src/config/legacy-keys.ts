import { isPlainObject } from "./key-path.js";
import { moveLegacyStreamingKeys } from "./legacy-streaming-keys.js";
import { dropUnsupportedKeys } from "./unsupported-keys.js";

/**
 * Older spellings OpenClaw still reads, moved to their current place before validation, with a
 * warning naming the new key. `agents.defaults.memorySearch` → `memory.search`; when both are
 * set, `memory.search` wins key by key. `session.idleMinutes` → `session.reset.idleMinutes`
 * (an `idle` reset when there is no `session.reset`; ignored when that already sets
 * `idleMinutes`). `session.resetByType.dm` → `session.resetByType.direct`.
 * `cron.webhookAllowPrivateNetwork` → `cron.webhookSsrfPolicy.dangerouslyAllowPrivateNetwork`. A channel's flat streaming
 * keys → its `streaming` block (legacy-streaming-keys.ts). Keys OpenClaw has and this gateway does
 * not take are dropped with the reason (unsupported-keys.ts).
 * The input is not mutated.
 */
export function moveLegacyKeys(raw: Record<string, unknown>, warnings: string[]): Record<string, unknown> {
  const moved = moveCronWebhookAllowPrivate(moveMemorySearch(moveResetByTypeDm(moveSessionIdleMinutes(raw, warnings), warnings), warnings), warnings);
  return dropUnsupportedKeys(moveLegacyStreamingKeys(moved, warnings), warnings);
}

/** `cron.webhookAllowPrivateNetwork` → `cron.webhookSsrfPolicy.dangerouslyAllowPrivateNetwork` (ignored when that is set too). */
function moveCronWebhookAllowPrivate(raw: Record<string, unknown>, warnings: string[]): Record<string, unknown> {
  const cron = raw.cron;
  if (!isPlainObject(cron) || !("webhookAllowPrivateNetwork" in cron)) return raw;
  const { webhookAllowPrivateNetwork, ...rest } = cron as Record<string, unknown>;
  const policy = isPlainObject(rest.webhookSsrfPolicy) ? rest.webhookSsrfPolicy : {};
  const current = "cron.webhookSsrfPolicy.dangerouslyAllowPrivateNetwork";
  if ("dangerouslyAllowPrivateNetwork" in policy) {
    warnings.push(`cron.webhookAllowPrivateNetwork is the older spelling of ${current}, which is set too: cron.webhookAllowPrivateNetwork was ignored (remove it)`);
    return { ...raw, cron: rest };
  }
  warnings.push(`cron.webhookAllowPrivateNetwork is the older spelling of ${current}: it was read as that key (move it there)`);
  return { ...raw, cron: { ...rest, webhookSsrfPolicy: { ...policy, dangerouslyAllowPrivateNetwork: webhookAllowPrivateNetwork } } };
}

/** `session.resetByType.dm` → `session.resetByType.direct` (ignored when `direct` is set too). */
function moveResetByTypeDm(raw: Record<string, unknown>, warnings: string[]): Record<string, unknown> {
  const session = raw.session;
  if (!isPlainObject(session) || !isPlainObject(session.resetByType) || !("dm" in session.resetByType)) return raw;
  const { dm, ...byType } = session.resetByType as Record<string, unknown>;
  if ("direct" in byType) {
    warnings.push("session.resetByType.dm is the older spelling of session.resetByType.direct, which is set too: session.resetByType.dm was ignored (remove it)");
    return { ...raw, session: { ...session, resetByType: byType } };
  }
  warnings.push("session.resetByType.dm is the older spelling of session.resetByType.direct: it was read as session.resetByType.direct (rename it)");
  return { ...raw, session: { ...session, resetByType: { ...byType, direct: dm } } };
}

function moveSessionIdleMinutes(raw: Record<string, unknown>, warnings: string[]): Record<string, unknown> {
  const session = raw.session;
  if (!isPlainObject(session) || !("idleMinutes" in session)) return raw;
  const { idleMinutes, ...rest } = session as Record<string, unknown>;
  const reset = isPlainObject(rest.reset) ? rest.reset : { mode: "idle" };
  if ("idleMinutes" in reset) {
    warnings.push("session.idleMinutes is the older spelling of session.reset.idleMinutes, which is set too: session.idleMinutes was ignored (remove it)");
    return { ...raw, session: rest };
  }
  warnings.push("session.idleMinutes is the older spelling of session.reset.idleMinutes: it was read as session.reset.idleMinutes (move it there)");
  return { ...raw, session: { ...rest, reset: { ...reset, idleMinutes } } };
}

function moveMemorySearch(raw: Record<string, unknown>, warnings: string[]): Record<string, unknown> {
  const agents = raw.agents;
  if (!isPlainObject(agents) || !isPlainObject(agents.defaults) || !("memorySearch" in agents.defaults)) return raw;
  const { memorySearch, ...defaults } = agents.defaults as Record<string, unknown>;
  warnings.push("agents.defaults.memorySearch is the older spelling of memory.search: it was read as memory.search (move it there)");
  const memory = isPlainObject(raw.memory) ? raw.memory : {};
  const search = isPlainObject(memorySearch) && isPlainObject(memory.search) ? deepMerge(memorySearch, memory.search) : (memory.search ?? memorySearch);
  return { ...raw, agents: { ...agents, defaults }, memory: { ...memory, search } };
}

function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const prior = out[key];
    out[key] = isPlainObject(prior) && isPlainObject(value) ? deepMerge(prior, value) : value;
  }
  return out;
}
