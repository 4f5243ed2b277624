import { TOOL_ERRORS } from "../tool-errors.js";
import type { OpenClawConfig } from "../../config/index.js";
import { isMainSessionKey, normalizeSessionKey, parseSessionKey, SessionKeyError, subagentDepth } from "../../sessions/keys/index.js";
import { shownTextParts } from "../../sessions/history/index.js";
import type { SessionStore } from "../../sessions/store/index.js";
import { formatCurrentTime } from "../context/format-current-time.js";
import { userTimeZone } from "../context/user-time-zone.js";
import { formatCount } from "../subagents/announce-format.js";
import type { AgentConversations } from "../conversation-port.js";
import type { SpawnRefusal } from "../subagents/spawn-checks.js";
import type { SubagentRegistry } from "../subagents/subagent-registry.js";
import type { SessionsHistoryArgs, SessionsListArgs, SessionStatusArgs, SessionToolCaller } from "../tools/index.js";
import type { TranscriptMessage } from "../types.js";
import { checkSessionVisible } from "./session-visibility.js";

export interface SessionViewDeps {
  config: () => OpenClawConfig;
  store: SessionStore;
  conversations: AgentConversations;
  registry: SubagentRegistry;
  spawnedBy(caller: string, target: string): boolean;
  /** Masks secrets in transcript text the views hand back to a model (the config's credentials, secret env values, credential shapes). */
  redact: (text: string) => string;
}

type Kind = "main" | "group" | "subagent" | "other";

/** Per text block and per response: history is read to check facts, not to copy a transcript. */
const BLOCK_CHARS = 4_000;
const RESPONSE_BYTES = 80 * 1024;

export function listSessions(deps: SessionViewDeps, caller: SessionToolCaller, args: SessionsListArgs): Record<string, unknown> {
  const config = deps.config();
  const now = Date.now();
  const search = args.search?.toLowerCase();
  const rows = deps.store
    .list(args.agentId?.toLowerCase())
    .filter((e) => !checkSessionVisible({ config, spawnedBy: deps.spawnedBy }, caller.sessionKey, e.sessionKey))
    .filter((e) => !args.kinds?.length || args.kinds.includes(kindOf(e.sessionKey, config)))
    .filter((e) => !args.label || e.label === args.label)
    .filter((e) => !search || e.sessionKey.includes(search) || (e.label?.toLowerCase().includes(search) ?? false))
    .filter((e) => !args.activeMinutes || now - e.updatedAt <= args.activeMinutes * 60_000)
    .slice(0, args.limit ?? 50)
    .map((e) => ({
      key: e.sessionKey,
      kind: kindOf(e.sessionKey, config),
      agentId: e.agentId,
      ...(e.label ? { label: e.label } : {}),
      updatedAt: new Date(e.updatedAt).toISOString(),
      ...(e.modelOverride || e.model ? { model: e.modelOverride ?? e.model } : {}),
      tokens: { input: e.inputTokens, output: e.outputTokens },
      active: deps.conversations.runs.activeFor(e.sessionKey).length > 0,
      ...(e.spawnedBy ? { spawnedBy: e.spawnedBy } : {}),
      ...(args.messageLimit ? lastMessages(deps, e.sessionKey, args.messageLimit) : {}),
    }));
  return { count: rows.length, sessions: rows };
}

export function sessionHistory(deps: SessionViewDeps, caller: SessionToolCaller, args: SessionsHistoryArgs): Record<string, unknown> | SpawnRefusal {
  const target = resolveVisible(deps, caller, args.sessionKey);
  if (typeof target !== "string") return target;
  const all = sanitize(deps.conversations.history(target), args.includeTools === true);
  const offset = args.offset ?? 0;
  const end = Math.max(0, all.length - offset);
  const { messages, contentRedacted } = redacted(deps, all.slice(Math.max(0, end - (args.limit ?? 20)), end));
  let page = messages;
  // The newest messages win when the page is over the byte budget.
  while (page.length > 1 && Buffer.byteLength(JSON.stringify(page), "utf8") > RESPONSE_BYTES) page = page.slice(1);
  const start = end - page.length;
  return { sessionKey: target, messages: page, ...(start > 0 ? { nextOffset: all.length - start } : {}), ...(contentRedacted ? { contentRedacted: true } : {}) };
}

export function sessionStatus(deps: SessionViewDeps, caller: SessionToolCaller, args: SessionStatusArgs): string | SpawnRefusal {
  const requested = !args.sessionKey || args.sessionKey === "current" ? caller.sessionKey : args.sessionKey;
  const target = resolveVisible(deps, caller, requested);
  if (typeof target !== "string") return target;
  const entry = deps.store.get(target);
  const children = deps.registry.childrenOf(target);
  const active = children.filter((r) => !r.endedAt).length;
  const lines = [
    `Session: ${target} (agent ${parseSessionKey(target).agentId}${subagentDepth(target) > 0 ? `, sub-agent at depth ${subagentDepth(target)}` : ""})`,
    `Model: ${entry?.modelOverride ?? entry?.model ?? "agent default"}`,
    `Messages: ${entry?.messageCount ?? 0} · tokens in ${formatCount(entry?.inputTokens ?? 0)} / out ${formatCount(entry?.outputTokens ?? 0)}`,
    `Run: ${deps.conversations.runs.activeFor(target).length > 0 ? "active" : "idle"}`,
    `Sub-agents: ${active} active, ${children.length - active} ended`,
    `Now: ${formatCurrentTime(new Date(), userTimeZone(deps.config()))}`,
  ];
  return lines.join("\n");
}

/** The canonical key of a session `caller` may see, or why not (an invalid key, not visible, no such session). */
export function resolveVisible(deps: SessionViewDeps, caller: SessionToolCaller, raw: string): string | SpawnRefusal {
  const config = deps.config();
  let key: string;
  try {
    key = normalizeSessionKey(raw, caller.agentId, { mainKey: config.session.mainKey });
  } catch (err) {
    if (err instanceof SessionKeyError) return TOOL_ERRORS.sessionKeyInvalid(err.message);
    throw err;
  }
  const hidden = checkSessionVisible({ config, spawnedBy: deps.spawnedBy }, caller.sessionKey, key);
  if (hidden) return hidden;
  if (!deps.store.get(key)) return TOOL_ERRORS.sessionNotFound(key);
  return key;
}

function kindOf(sessionKey: string, config: OpenClawConfig): Kind {
  if (subagentDepth(sessionKey) > 0) return "subagent";
  if (isMainSessionKey(sessionKey, config.session.mainKey)) return "main";
  const parts = parseSessionKey(sessionKey).rest.split(":");
  return parts.includes("group") || parts.includes("channel") ? "group" : "other";
}

interface ShownMessage {
  role: string;
  text: string;
  at?: string;
}

/** Text only (thinking never; tool calls and results only when asked: shownTextParts), each block cut to 4000 characters. */
function sanitize(messages: readonly TranscriptMessage[], includeTools: boolean): ShownMessage[] {
  const out: ShownMessage[] = [];
  for (const message of messages) {
    const text = shownTextParts(message, includeTools).map(cut).join("\n").trim();
    if (!text) continue;
    out.push({ role: message.role, text, ...(typeof message.timestamp === "number" ? { at: new Date(message.timestamp).toISOString() } : {}) });
  }
  return out;
}

/** A session's newest `limit` shown messages, redacted, as sessions_list's `lastMessages`. */
function lastMessages(deps: SessionViewDeps, sessionKey: string, limit: number): { lastMessages: ShownMessage[]; contentRedacted?: true } {
  const { messages, contentRedacted } = redacted(deps, sanitize(deps.conversations.history(sessionKey), false).slice(-limit));
  return { lastMessages: messages, ...(contentRedacted ? { contentRedacted: true as const } : {}) };
}

/**
 * The messages with secrets masked (deps.redact), and whether any text changed: only what goes
 * back to the model is redacted, not the whole transcript.
 */
function redacted(deps: SessionViewDeps, messages: readonly ShownMessage[]): { messages: ShownMessage[]; contentRedacted: boolean } {
  let contentRedacted = false;
  const out = messages.map((message) => {
    const text = deps.redact(message.text);
    if (text === message.text) return message;
    contentRedacted = true;
    return { ...message, text };
  });
  return { messages: out, contentRedacted };
}

function cut(text: string): string {
  return text.length > BLOCK_CHARS ? `${text.slice(0, BLOCK_CHARS)}… [${text.length - BLOCK_CHARS} more characters]` : text;
}
