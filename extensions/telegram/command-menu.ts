import type { NativeCommand } from "../../src/channels/types.js";

/** Telegram's limits for `setMyCommands`: 100 entries, names of 1-32 of a-z, 0-9 and _. */
const MAX_MENU_ENTRIES = 100;
const COMMAND_NAME = /^[a-z0-9_]{1,32}$/;

export interface CustomCommand {
  command: string;
  description: string;
}

/**
 * The bot's `/` menu: the gateway's chat commands, then the account's `customCommands` (menu
 * entries only: typed, one reaches the agent as text). A custom name is taken without its leading
 * `/` and lowercased; one that is not a valid Telegram name, repeats an earlier one or would hide a
 * chat command is skipped, each with the reason. Over Telegram's 100 entries, chat commands are
 * dropped from the end so every custom entry stays.
 */
export function telegramCommandMenu(native: readonly NativeCommand[], custom: readonly CustomCommand[]): { menu: CustomCommand[]; skipped: string[] } {
  const taken = new Set(native.map((c) => c.command));
  const kept: CustomCommand[] = [];
  const skipped: string[] = [];
  for (const entry of custom) {
    const name = entry.command.trim().replace(/^\/+/, "").toLowerCase();
    if (!COMMAND_NAME.test(name)) skipped.push(`"${entry.command}": a Telegram command is 1-32 of a-z, 0-9 and _`);
    else if (native.some((c) => c.command === name)) skipped.push(`"${entry.command}": /${name} is a chat command of the gateway`);
    else if (taken.has(name)) skipped.push(`"${entry.command}": /${name} is listed twice`);
    else {
      taken.add(name);
      kept.push({ command: name, description: entry.description.trim() });
    }
  }
  const room = Math.max(0, MAX_MENU_ENTRIES - kept.length);
  const menu = [...native.slice(0, room).map(({ command, description }) => ({ command, description })), ...kept.slice(0, MAX_MENU_ENTRIES)];
  return { menu, skipped };
}
