import { MAX_SESSION_KEY_LENGTH, assertKeyText, assertSessionKeyShape, normalizeSafeAgentId, SessionKeyError } from "./session-key-rules.js";

/**
 * Canonical session keys are `agent:<agentId>:<rest>`, all lower case. The agent prefix makes
 * the owning agent explicit, so one store can hold every agent's sessions and route a key to
 * its directory without a lookup.
 */

const AGENT_PREFIX = "agent:";
export const DEFAULT_MAIN_KEY = "main";
/** Raw input may carry surrounding whitespace; anything longer than this cannot trim down to a valid key. */
const MAX_RAW_LENGTH = 4 * MAX_SESSION_KEY_LENGTH;

export interface ParsedSessionKey {
  agentId: string;
  /** Everything after `agent:<agentId>:` (e.g. `main`, `telegram:group:-100123`). */
  rest: string;
}

/** `agent:<agentId>:<mainKey>` — the session every DM lands in under `dmScope: "main"`. */
export function buildMainSessionKey(agentId: string, mainKey: string = DEFAULT_MAIN_KEY): string {
  const main = mainKey.trim().toLowerCase();
  assertKeyText(main, "main key");
  return finish(`${AGENT_PREFIX}${normalizeSafeAgentId(agentId)}:${main}`);
}

export interface NormalizeSessionKeyOptions {
  /** `session.mainKey`: a bare `main` maps to it (a renamed main session keeps receiving "main"). */
  mainKey?: string;
}

/**
 * Turns what a client sent into a canonical key. A bare key (`main`, `openai-user:bob`,
 * `cron:nightly`) is scoped to `defaultAgentId`; an `agent:` key keeps its own agent. Throws
 * SessionKeyError for empty, over-long, path-like or control-character keys.
 */
export function normalizeSessionKey(raw: string, defaultAgentId: string, options: NormalizeSessionKeyOptions = {}): string {
  if (typeof raw !== "string") throw new SessionKeyError("session key must be a string");
  // Refused before any string work, so a megabyte "key" costs nothing.
  if (raw.length > MAX_RAW_LENGTH) assertKeyText(raw, "session key");
  const key = raw.trim().toLowerCase();
  if (key.length === 0) throw new SessionKeyError("session key is empty");
  if (key.startsWith(AGENT_PREFIX)) return formatSessionKey(parseSessionKey(key));
  if (key === DEFAULT_MAIN_KEY) return buildMainSessionKey(defaultAgentId, options.mainKey ?? DEFAULT_MAIN_KEY);
  return finish(`${AGENT_PREFIX}${normalizeSafeAgentId(defaultAgentId)}:${key}`);
}

/** Splits a canonical key. Throws SessionKeyError when it is not `agent:<id>:<rest>` or is invalid. */
export function parseSessionKey(key: string): ParsedSessionKey {
  if (typeof key !== "string") throw new SessionKeyError("session key must be a string");
  const known = parsedKeys.get(key);
  if (known) return known;
  const parsed = Object.freeze(parseUncached(key));
  if (parsedKeys.size >= MAX_PARSED_KEYS) parsedKeys.clear();
  parsedKeys.set(key, parsed);
  return parsed;
}

/** Recently parsed keys (a turn parses its key in several layers); the results are frozen, as they are shared. */
const parsedKeys = new Map<string, ParsedSessionKey>();
const MAX_PARSED_KEYS = 1024;

function parseUncached(key: string): ParsedSessionKey {
  const lowered = key.trim().toLowerCase();
  assertSessionKeyShape(lowered);
  if (!lowered.startsWith(AGENT_PREFIX)) {
    throw new SessionKeyError(`session key "${lowered.slice(0, 80)}" is not agent-scoped (expected "agent:<agentId>:<rest>")`);
  }
  const afterPrefix = lowered.slice(AGENT_PREFIX.length);
  const colon = afterPrefix.indexOf(":");
  if (colon <= 0 || colon === afterPrefix.length - 1) {
    throw new SessionKeyError(`session key "${lowered.slice(0, 80)}" needs both an agent id and a name ("agent:<agentId>:<rest>")`);
  }
  return { agentId: normalizeSafeAgentId(afterPrefix.slice(0, colon)), rest: afterPrefix.slice(colon + 1) };
}

/** True when `key` is a valid canonical key (no throw). */
export function isCanonicalSessionKey(key: string): boolean {
  try {
    return formatSessionKey(parseSessionKey(key)) === key;
  } catch {
    return false;
  }
}

/** The canonical key of a parsed one (`agent:<agentId>:<rest>`). */
export function formatSessionKey(parsed: ParsedSessionKey): string {
  return `${AGENT_PREFIX}${parsed.agentId}:${parsed.rest}`;
}

function finish(key: string): string {
  assertSessionKeyShape(key);
  return key;
}
