import { assertKeyText, assertSessionKeyShape, normalizeSafeAgentId, SessionKeyError } from "./session-key-rules.js";
import { buildMainSessionKey, DEFAULT_MAIN_KEY } from "./session-key.js";

/**
 * Session keys for conversations that arrive over a channel (Telegram, Discord, Slack, …).
 * The shape decides which messages share a context: under the default `dmScope: "main"` every
 * DM from every channel continues the one main conversation; the other scopes split DMs per
 * peer, per channel and peer, or per account, channel and peer. Groups and channels always get
 * their own session (unless `groupScope: "main"` folds them in).
 */

export type DmScope = "main" | "per-peer" | "per-channel-peer" | "per-account-channel-peer";
export type ChannelChatType = "direct" | "group" | "channel";
export type GroupScope = "per-group" | "main";

export interface ChannelSessionKeyParams {
  agentId: string;
  /** Channel id (`telegram`, `discord`, `slack`, …). */
  channel: string;
  /** The bot account on that channel; `default` when omitted (used by `per-account-channel-peer`). */
  accountId?: string;
  chatType: ChannelChatType;
  /** The sender for DMs, the group or channel id otherwise. */
  peerId: string;
  /** Thread (Slack `thread_ts`, Discord thread) or Telegram forum topic. */
  threadId?: string | number;
  dmScope: DmScope;
  /** `session.mainKey`; `main` when omitted. */
  mainKey?: string;
  /** `session.groupScope`; `per-group` when omitted. */
  groupScope?: GroupScope;
  /**
   * `session.identityLinks`: canonical id → provider-prefixed peers (`telegram:123`). A linked
   * DM sender uses the canonical id, so one person keeps one session across channels.
   */
  identityLinks?: Readonly<Record<string, readonly string[]>>;
}

export const DEFAULT_ACCOUNT_ID = "default";

export function buildChannelSessionKey(params: ChannelSessionKeyParams): string {
  const mainKey = params.mainKey ?? DEFAULT_MAIN_KEY;
  const channel = token(params.channel, "channel");
  const peerId = part(params.peerId, "peer id");
  const thread = params.threadId === undefined || params.threadId === "" ? undefined : part(String(params.threadId), "thread id");

  let base: string;
  if (params.chatType === "direct") {
    base = directBase(params, channel, peerId, mainKey);
  } else if (params.chatType === "group" || params.chatType === "channel") {
    if (params.groupScope === "main") return buildMainSessionKey(params.agentId, mainKey);
    base = `${buildPrefix(params.agentId)}:${channel}:${params.chatType}:${peerId}`;
  } else {
    throw new SessionKeyError(`unknown chat type "${String(params.chatType)}" (expected direct, group or channel)`);
  }
  if (thread === undefined) return checked(base);
  // Telegram forum topics are part of the group's identity; elsewhere a thread hangs off its parent.
  const marker = channel === "telegram" && params.chatType === "group" ? "topic" : "thread";
  return checked(`${base}:${marker}:${thread}`);
}

/** `agent:<agentId>:openai-user:<user>` — `/v1/chat/completions` requests that name a `user`. */
export function buildOpenAiUserSessionKey(agentId: string, user: string): string {
  return checked(`${buildPrefix(agentId)}:openai-user:${part(user, "user")}`);
}

/**
 * `agent:<agentId>:openai:<id>` (`/v1/chat/completions`) or `agent:<agentId>:openresponses:<id>`
 * (`/v1/responses`) — a request with neither a session key nor a `user`: a session of its own.
 */
export function buildHttpStatelessSessionKey(agentId: string, api: HttpApi, id: string): string {
  return checked(`${buildPrefix(agentId)}:${api}:${part(id, "request id")}`);
}

/** True for a session made for one anonymous HTTP request (`agent:<id>:openai:<id>`, `…:openresponses:<id>`). */
export function isHttpStatelessSessionKey(sessionKey: string): boolean {
  return /^agent:[^:]+:(openai|openresponses):[^:]+$/i.test(sessionKey);
}

/** True for a session the OpenAI-compatible HTTP APIs made: one request's own, or a `user`'s (`…:openai-user:<user>`). */
export function isHttpApiSessionKey(sessionKey: string): boolean {
  return /^agent:[^:]+:(openai|openresponses)(-user)?:[^:]+$/i.test(sessionKey);
}

/** The OpenAI-compatible HTTP APIs, as they name their sessions. */
export type HttpApi = "openai" | "openresponses";

/** `agent:<agentId>:openresponses-user:<user>` — `/v1/responses` requests that name a `user`. */
export function buildOpenResponsesUserSessionKey(agentId: string, user: string): string {
  return checked(`${buildPrefix(agentId)}:openresponses-user:${part(user, "user")}`);
}

function directBase(params: ChannelSessionKeyParams, channel: string, rawPeer: string, mainKey: string): string {
  switch (params.dmScope) {
    case "main":
      return buildMainSessionKey(params.agentId, mainKey);
    case "per-peer":
      return `${buildPrefix(params.agentId)}:direct:${linkedPeer(params, channel, rawPeer)}`;
    case "per-channel-peer":
      return `${buildPrefix(params.agentId)}:${channel}:direct:${linkedPeer(params, channel, rawPeer)}`;
    case "per-account-channel-peer": {
      const account = token(params.accountId?.trim() ? params.accountId : DEFAULT_ACCOUNT_ID, "account id");
      return `${buildPrefix(params.agentId)}:${channel}:${account}:direct:${linkedPeer(params, channel, rawPeer)}`;
    }
    default:
      throw new SessionKeyError(`unknown dmScope "${String(params.dmScope)}"`);
  }
}

function linkedPeer(params: ChannelSessionKeyParams, channel: string, peerId: string): string {
  if (!params.identityLinks) return peerId;
  const wanted = `${channel}:${peerId}`;
  for (const [canonical, peers] of Object.entries(params.identityLinks)) {
    if (peers.some((p) => p.trim().toLowerCase() === wanted)) return part(canonical, "linked identity");
  }
  return peerId;
}

function buildPrefix(agentId: string): string {
  return `agent:${normalizeSafeAgentId(agentId)}`;
}

/** A free-form id (peer, thread, user): lower-cased; may contain ":" (Matrix ids do). */
function part(value: string, what: string): string {
  const v = String(value).trim().toLowerCase();
  assertKeyText(v, what);
  return v;
}

/** A structural token (channel, account): additionally no ":", which would shift the key's fields. */
function token(value: string | undefined, what: string): string {
  const v = part(value ?? "", what);
  if (v.includes(":")) throw new SessionKeyError(`${what} "${v.slice(0, 80)}" must not contain ":"`);
  return v;
}

/** Re-validates the assembled key: the length limit applies to all parts together. */
function checked(key: string): string {
  assertSessionKeyShape(key);
  return key;
}
