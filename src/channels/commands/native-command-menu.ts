import type { OpenClawConfig } from "../../config/index.js";
import { CHAT_COMMANDS } from "../../conversations/commands/chat-commands.js";
import type { NativeCommand } from "../types.js";

/** Telegram's limits: names of 1–32 lowercase letters, digits and `_`, descriptions of 1–256 characters, at most 100 entries. */
const NAME = /^[a-z0-9_]{1,32}$/;
const MAX_DESCRIPTION = 256;
const MAX_COMMANDS = 100;

/**
 * The chat command registry as a platform command menu (`commands.native`: "auto", the default,
 * or true registers it; false does not; text commands off means no menu either). Every command a
 * chat surface answers is listed, in `/help` order.
 */
export function nativeCommandMenu(config: OpenClawConfig): NativeCommand[] {
  const commands = config.commands;
  if (commands?.native === false || commands?.text === false) return [];
  return CHAT_COMMANDS.all()
    .filter((c) => !c.surfaces || c.surfaces.includes("channel"))
    .filter((c) => NAME.test(c.name))
    .slice(0, MAX_COMMANDS)
    .map((c) => {
      const text = `${c.args ? `${c.args} — ` : ""}${c.description}${c.ownerOnly ? " (owner only)" : ""}`;
      const description = text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text;
      return c.args ? { command: c.name, description, args: c.args } : { command: c.name, description };
    });
}
