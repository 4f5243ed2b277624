import { defaultAgentId, listAgentConfigs, normalizeAgentId } from "../../agents/agent-config.js";
import { resolveTimeZone } from "../../agents/context/user-time-zone.js";
import type { OpenClawConfig } from "../../config/index.js";
import { DEFAULT_AGENT_TIMEOUT_SECONDS } from "../../config/defaults.js";
import { parseDuration } from "../../infra/duration.js";

export const DEFAULT_HEARTBEAT_EVERY = "30m";
export const DEFAULT_ACK_MAX_CHARS = 300;

/** The heartbeat's user message when the config gives none. */
export const DEFAULT_HEARTBEAT_PROMPT =
  "This is a scheduled heartbeat check. If HEARTBEAT.md appears in your workspace context, do exactly what it asks and nothing more. " +
  "Do not pick up tasks from earlier conversations on your own. Report with heartbeat_respond: notify=false when nothing needs the user's attention, " +
  "notify=true with a short notificationText when the user should be told. Without that tool, answer HEARTBEAT_OK only when nothing needs attention, " +
  "else only the alert text.";

export interface HeartbeatSettings {
  agentId: string;
  enabled: boolean;
  every: string;
  everyMs: number;
  activeHours?: { start: string; end: string; timezone?: string };
  model?: string;
  target: string;
  to?: string;
  accountId?: string;
  prompt: string;
  lightContext: boolean;
  /** The beat's turn limit (0: none). */
  timeoutSeconds: number;
  isolatedSession: boolean;
  ackMaxChars: number;
  /** `heartbeat.session` as written; unset: the agent's main session. */
  session?: string;
  /** `block`: replies are never delivered to a DM. */
  directPolicy: "allow" | "block";
}

/**
 * Each agent's heartbeat: `agents.defaults.heartbeat` overlaid with the agent's own block. When
 * any agent has a block of its own, only those agents beat; when none has, only the owner of the
 * shared settings does: `agents.defaults.heartbeat.agentId`, else the default agent.
 */
export function resolveHeartbeats(config: OpenClawConfig): HeartbeatSettings[] {
  const agents = listAgentConfigs(config);
  const { agentId: ownerId, ...defaults } = config.agents.defaults.heartbeat ?? {};
  const anyOwn = agents.some((a) => a.heartbeat !== undefined);
  const owner = normalizeAgentId(ownerId ?? defaultAgentId(config));
  return agents.map((agent) => {
    const merged = { ...defaults, ...(agent.heartbeat ?? {}) };
    const every = merged.every ?? DEFAULT_HEARTBEAT_EVERY;
    const everyMs = parseDuration(every) ?? 0;
    const settings: HeartbeatSettings = {
      agentId: agent.id,
      enabled: everyMs > 0 && (anyOwn ? agent.heartbeat !== undefined : normalizeAgentId(agent.id) === owner),
      every,
      everyMs,
      target: merged.target ?? "none",
      prompt: merged.prompt ?? DEFAULT_HEARTBEAT_PROMPT,
      lightContext: merged.lightContext === true,
      timeoutSeconds: merged.timeoutSeconds ?? defaultTimeoutSeconds(config, everyMs),
      isolatedSession: merged.isolatedSession === true,
      ackMaxChars: merged.ackMaxChars ?? DEFAULT_ACK_MAX_CHARS,
      directPolicy: merged.directPolicy ?? "allow",
    };
    if (merged.session && !["main", "global"].includes(merged.session.trim().toLowerCase())) settings.session = merged.session.trim();
    // A window without its own zone (or `user`) is in the user's time zone; `local` is the host's.
    if (merged.activeHours) settings.activeHours = { ...merged.activeHours, timezone: resolveTimeZone(config, merged.activeHours.timezone) };
    if (merged.model) settings.model = merged.model;
    if (merged.to) settings.to = merged.to;
    if (merged.accountId) settings.accountId = merged.accountId;
    return settings;
  });
}

/**
 * A beat's limit when its block sets none, as OpenClaw's: `agents.defaults.timeoutSeconds` when the
 * config sets it, else the interval capped at 600 seconds, so a stuck beat never holds the main
 * session for the 48 hours a user's turn may take. The loaded config carries the 48-hour default,
 * so a limit equal to it counts as not set.
 */
function defaultTimeoutSeconds(config: OpenClawConfig, everyMs: number): number {
  const agentLimit = config.agents.defaults.timeoutSeconds;
  if (agentLimit !== DEFAULT_AGENT_TIMEOUT_SECONDS) return agentLimit;
  return Math.max(1, Math.min(600, Math.floor(everyMs / 1000)));
}

/** True when `now` falls in the active window (local times in its zone; a window may cross midnight; the config refuses an empty one, start = end). */
export function withinActiveHours(window: HeartbeatSettings["activeHours"], now: number): boolean {
  if (!window) return true;
  const parts = new Intl.DateTimeFormat("en-GB", { timeZone: window.timezone ?? "UTC", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).formatToParts(new Date(now));
  const minutes = Number(parts.find((p) => p.type === "hour")!.value) * 60 + Number(parts.find((p) => p.type === "minute")!.value);
  const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
  const start = toMinutes(window.start);
  const end = toMinutes(window.end);
  return start < end ? minutes >= start && minutes < end : minutes >= start || minutes < end;
}

/** HEARTBEAT.md with only headings, comments and empty list items asks for nothing: no turn is spent on it. */
export function isHeartbeatFileEmpty(text: string | undefined): boolean {
  if (text === undefined) return false;
  const withoutComments = text.replace(/<!--[\s\S]*?-->/g, "");
  return withoutComments.split("\n").every((line) => {
    const t = line.trim();
    return t === "" || /^#+(\s|$)/.test(t) || /^[-*+]\s*(\[[ xX]?\])?\s*$/.test(t);
  });
}
