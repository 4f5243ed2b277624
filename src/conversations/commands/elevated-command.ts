import {
  ELEVATED_LEVELS,
  elevatedUnavailableText,
  NO_CHAT_SENDER,
  parseElevatedLevel,
  turnElevatedLevel,
  type ElevatedAccess,
  type ElevatedLevel,
} from "../../agents/sandbox/elevated-level.js";
import { decideSandbox } from "../../agents/sandbox/sandbox-settings.js";
import { parseSessionKey } from "../../sessions/keys/index.js";
import type { ChatCommandContext, ChatCommandResult } from "./chat-command-registry.js";

/**
 * `/elevated [level] [message]` (`/elev`): with no argument, the session's level and whether the
 * sender may use it; a level alone sets the session's (`default` clears it); a level followed by a
 * message sends that message at that level, for its turn only. A sender `tools.elevated` does not
 * admit is told the failing gates and nothing changes or runs.
 */
export function elevatedCommand(args: string, ctx: ChatCommandContext): ChatCommandResult {
  const config = ctx.config();
  const agentId = parseSessionKey(ctx.sessionKey).agentId;
  const access = ctx.elevated ?? NO_CHAT_SENDER;
  const sandboxed = decideSandbox(config, agentId, ctx.sessionKey).sandboxed;
  const entry = ctx.sessions.get(ctx.sessionKey);
  const [word = "", ...rest] = args.split(/\s+/).filter(Boolean);
  const message = args.slice(args.indexOf(word) + word.length).trim();
  if (!word) return reply(statusText(access, entry?.elevatedLevel, config.agents.defaults.elevatedDefault, sandboxed));
  if (!access.allowed) return reply(elevatedUnavailableText(access, sandboxed));
  if (word.toLowerCase() === "default" && rest.length === 0) {
    ctx.sessions.ensure(ctx.sessionKey, { agentId });
    ctx.sessions.patch(ctx.sessionKey, { elevatedLevel: null });
    const level = turnElevatedLevel({}, undefined, config.agents.defaults.elevatedDefault);
    return reply(`Elevated for this session: back to the default (${level}).${placeNote(level, sandboxed)}`);
  }
  const level = parseElevatedLevel(word);
  if (!level) return reply(`Unknown elevated level "${word}". Choose one of: ${ELEVATED_LEVELS.join(", ")}, default.`);
  if (message) return { kind: "agent", text: message, settings: { elevated: { level } } };
  ctx.sessions.ensure(ctx.sessionKey, { agentId });
  ctx.sessions.patch(ctx.sessionKey, { elevatedLevel: level });
  return reply(`Elevated for this session: ${level}.${placeNote(level, sandboxed)}`);
}

function statusText(access: ElevatedAccess, sessionLevel: string | undefined, configured: ElevatedLevel | undefined, sandboxed: boolean): string {
  if (!access.allowed) return elevatedUnavailableText(access, sandboxed);
  const level = turnElevatedLevel({}, sessionLevel, configured);
  const source = sessionLevel ? "set for this session" : configured ? "agents.defaults.elevatedDefault" : "the default";
  return `Elevated: ${level} (${source}).${placeNote(level, sandboxed)}\nSet it with /elevated on|off|ask|full, or /elevated <level> <message> for one message.`;
}

/** Where exec runs at `level` in this session. */
function placeNote(level: ElevatedLevel, sandboxed: boolean): string {
  if (!sandboxed) return " This session is not sandboxed: exec runs on the host at any level.";
  return level === "off"
    ? " exec runs in the session's sandbox."
    : " exec runs on the host, outside the session's sandbox; tools.exec's security, allowlist and approvals still apply.";
}

function reply(text: string): ChatCommandResult {
  return { kind: "reply", text };
}
