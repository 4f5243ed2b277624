import { invalidInput } from "./errors.js";
import type { BridgeGateway, BridgeOptions } from "./types.js";

/** What the IDE may ask for per session in `_meta` (on session/new, load and resume). */
export interface SessionMeta {
  sessionKey?: string;
  sessionLabel?: string;
  resetSession?: boolean;
}

export function parseSessionMeta(meta: Record<string, unknown> | null | undefined): SessionMeta {
  if (!meta) return {};
  const text = (v: unknown, name: string) => {
    if (v === undefined || v === null) return undefined;
    if (typeof v !== "string" || !v.trim()) throw invalidInput(`_meta.${name} must be a non-empty string`);
    return v.trim();
  };
  if (meta.resetSession !== undefined && typeof meta.resetSession !== "boolean") throw invalidInput("_meta.resetSession must be true or false");
  return {
    sessionKey: text(meta.sessionKey, "sessionKey"),
    sessionLabel: text(meta.sessionLabel, "sessionLabel"),
    resetSession: meta.resetSession as boolean | undefined,
  };
}

export interface OpenedSession {
  sessionKey: string;
  canonicalKey: string;
  /** The gateway has a session entry (a transcript) under this key. */
  exists: boolean;
  messages: unknown[];
}

/**
 * Finds the gateway session an IDE session talks to: the `_meta` key or label first, then
 * `--session-label` / `--session`, else `fallbackKey`. With --require-existing a key or label
 * that names nothing is an error; with a reset requested, an existing session starts over.
 */
export async function openGatewaySession(gateway: BridgeGateway, opts: BridgeOptions, meta: SessionMeta, fallbackKey: string, history: { limit: number }): Promise<OpenedSession> {
  const explicit = Boolean(meta.sessionKey || meta.sessionLabel || opts.defaultSessionKey || opts.defaultSessionLabel);
  const label = meta.sessionLabel ?? (meta.sessionKey ? undefined : opts.defaultSessionLabel);
  let sessionKey: string;
  if (label) sessionKey = await keyForLabel(gateway, label);
  else sessionKey = meta.sessionKey ?? opts.defaultSessionKey ?? fallbackKey;

  const read = () => gateway.call<{ sessionKey: string; sessionId: string | null; messages: unknown[] }>("chat.history", { sessionKey, limit: history.limit });
  let result = await read();
  const exists = result.sessionId !== null && result.sessionId !== undefined;
  if (!exists && explicit && opts.requireExisting) {
    throw invalidInput(`gateway session "${sessionKey}" does not exist (--require-existing); check the key with \`openclaw sessions\``);
  }
  if (exists && (meta.resetSession ?? opts.resetSession)) {
    await gateway.call("sessions.reset", { key: sessionKey, reason: "reset" });
    result = await read();
  }
  return { sessionKey, canonicalKey: result.sessionKey, exists, messages: result.messages ?? [] };
}

async function keyForLabel(gateway: BridgeGateway, label: string): Promise<string> {
  const found = await gateway.call<{ sessions: { key: string }[] }>("sessions.list", { label, limit: 2 });
  if (found.sessions.length === 0) throw invalidInput(`no gateway session has the label "${label}"; set one with sessions.patch or use --session <key>`);
  if (found.sessions.length > 1) throw invalidInput(`several gateway sessions have the label "${label}"; use --session <key> instead`);
  return found.sessions[0]!.key;
}
