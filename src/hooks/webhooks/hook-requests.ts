import type { OpenClawConfig } from "../../config/index.js";
import { renderTemplate } from "./template.js";

/** `POST <path>/wake`, or a mapping with action wake. */
export interface WakeRequest {
  kind: "wake";
  text: string;
  mode: "now" | "next-heartbeat";
  agentId?: string;
  sessionKey?: string;
}

/** `POST <path>/agent`, or a mapping with action agent. */
export interface AgentRequest {
  kind: "agent";
  message: string;
  name?: string;
  agentId?: string;
  /** Absent: a fresh `hook:<uuid>` (or hooks.defaultSessionKey). */
  sessionKey?: string;
  /** `isolated` (the default): each run starts a session of its own under the named key; `persistent`: runs share the named session. */
  sessionMode: "isolated" | "persistent";
  deliver: boolean;
  channel?: string;
  to?: string;
  accountId?: string;
  model?: string;
  thinking?: string;
  timeoutSeconds?: number;
}

export type HookRequest = WakeRequest | AgentRequest;

export class HookRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

type HooksConfig = NonNullable<OpenClawConfig["hooks"]>;
const THINKING = new Set(["off", "minimal", "low", "medium", "high", "xhigh", "adaptive", "max"]);

/** What a request to `<path>/<name>` asks for; throws HookRequestError with the status to answer. */
export function readHookRequest(name: string, body: unknown, hooks: HooksConfig): HookRequest {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new HookRequestError(400, "the body must be a JSON object");
  const fields = body as Record<string, unknown>;
  if (name === "wake") return readWake(fields, hooks);
  if (name === "agent") return readAgent(fields, hooks);
  const mapping = (hooks.mappings ?? []).find((m) => m.match.path === name && (m.match.source === undefined || fields.source === m.match.source));
  if (!mapping) throw new HookRequestError(404, `no hook named "${name}" (add one under hooks.mappings)`);
  const text = mapping.messageTemplate ? renderTemplate(mapping.messageTemplate, body).trim() : JSON.stringify(body);
  if (!text) throw new HookRequestError(400, `hook "${name}": the message template rendered empty for this body`);
  const sessionKey = mapping.sessionKey ? renderTemplate(mapping.sessionKey, body).trim() || undefined : undefined;
  if (mapping.action === "wake")
    return { kind: "wake", text, mode: mapping.wakeMode ?? "now", ...(mapping.agentId ? { agentId: mapping.agentId } : {}), ...(sessionKey ? { sessionKey } : {}) };
  return {
    kind: "agent",
    message: text,
    sessionMode: mapping.sessionMode ?? "isolated",
    deliver: deliverWanted(mapping.deliver, [mapping.channel, mapping.to]),
    ...(mapping.name ? { name: mapping.name } : {}),
    ...(mapping.agentId ? { agentId: mapping.agentId } : {}),
    ...(sessionKey ? { sessionKey } : {}),
    ...(mapping.channel ? { channel: mapping.channel } : {}),
    ...(mapping.to ? { to: mapping.to } : {}),
    ...(mapping.model ? { model: mapping.model } : {}),
  };
}

function readWake(fields: Record<string, unknown>, hooks: HooksConfig): WakeRequest {
  const text = typeof fields.text === "string" ? fields.text.trim() : "";
  if (!text) throw new HookRequestError(400, "text is required (a non-empty string)");
  const mode = fields.mode ?? "now";
  if (mode !== "now" && mode !== "next-heartbeat") throw new HookRequestError(400, 'mode must be "now" or "next-heartbeat"');
  return { kind: "wake", text, mode, ...optionalString(fields, "agentId"), ...requestSessionKey(fields, hooks) };
}

function readAgent(fields: Record<string, unknown>, hooks: HooksConfig): AgentRequest {
  const message = typeof fields.message === "string" ? fields.message.trim() : "";
  if (!message) throw new HookRequestError(400, "message is required (a non-empty string)");
  const sessionMode = fields.sessionMode ?? "isolated";
  if (sessionMode !== "isolated" && sessionMode !== "persistent") throw new HookRequestError(400, 'sessionMode must be "isolated" or "persistent"');
  if (fields.deliver !== undefined && typeof fields.deliver !== "boolean") throw new HookRequestError(400, "deliver must be true or false");
  if (fields.thinking !== undefined && !THINKING.has(String(fields.thinking))) throw new HookRequestError(400, `thinking must be one of ${[...THINKING].join(", ")}`);
  if (fields.timeoutSeconds !== undefined && (!Number.isInteger(fields.timeoutSeconds) || (fields.timeoutSeconds as number) < 0))
    throw new HookRequestError(400, "timeoutSeconds must be a whole number of seconds");
  const session = requestSessionKey(fields, hooks);
  if (sessionMode === "persistent" && !session.sessionKey && !hooks.defaultSessionKey)
    throw new HookRequestError(400, 'sessionMode "persistent" needs a sessionKey (or hooks.defaultSessionKey)');
  return {
    kind: "agent",
    message,
    sessionMode,
    deliver: deliverWanted(fields.deliver, [fields.channel, fields.to, fields.accountId]),
    ...optionalString(fields, "name"),
    ...optionalString(fields, "agentId"),
    ...session,
    ...optionalString(fields, "channel"),
    ...optionalString(fields, "to"),
    ...optionalString(fields, "accountId"),
    ...optionalString(fields, "model"),
    ...(fields.thinking !== undefined ? { thinking: String(fields.thinking) } : {}),
    ...(fields.timeoutSeconds !== undefined ? { timeoutSeconds: fields.timeoutSeconds as number } : {}),
  };
}

/** As in OpenClaw, a hook delivers unless told `deliver: false`: naming a chat (channel, to or account) is enough. */
function deliverWanted(deliver: unknown, chat: unknown[]): boolean {
  return deliver === true || (deliver === undefined && chat.some((v) => v !== undefined));
}

/** A request may pick its session only when the config allows it, and only under an allowed prefix. */
function requestSessionKey(fields: Record<string, unknown>, hooks: HooksConfig): { sessionKey?: string } {
  if (fields.sessionKey === undefined) return {};
  if (typeof fields.sessionKey !== "string" || fields.sessionKey.trim() === "") throw new HookRequestError(400, "sessionKey must be a non-empty string");
  if (hooks.allowRequestSessionKey !== true) throw new HookRequestError(400, "this gateway does not let webhook requests choose a sessionKey (hooks.allowRequestSessionKey)");
  const key = fields.sessionKey.trim();
  const prefixes = hooks.allowedSessionKeyPrefixes;
  if (prefixes && !prefixes.some((p) => key.startsWith(p)))
    throw new HookRequestError(400, `sessionKey must start with one of: ${prefixes.join(", ")} (hooks.allowedSessionKeyPrefixes)`);
  return { sessionKey: key };
}

function optionalString(fields: Record<string, unknown>, key: string): Record<string, string> {
  const value = fields[key];
  if (value === undefined) return {};
  if (typeof value !== "string" || value.trim() === "") throw new HookRequestError(400, `${key} must be a non-empty string`);
  return { [key]: value.trim() };
}
