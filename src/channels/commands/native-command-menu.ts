import type { OpenClawConfig } from "../../config/index.js";
import type { InvocableSkill } from "../../agents/skills/invocable-skills.js";
import { CHAT_COMMANDS, skillCommands } from "../../conversations/commands/chat-commands.js";
import { describeCommand } from "../../conversations/commands/chat-command-registry.js";
import type { NativeCommand } from "../types.js";

/** Telegram's limits: names of 1–32 lowercase letters, digits and `_`, descriptions of 1–256 characters, at most 100 entries. */
const NAME = /^[a-z0-9_]{1,32}$/;
const MAX_DESCRIPTION = 256;
const MAX_COMMANDS = 100;

/** An account's own `commands.native` / `commands.nativeSkills` (`channels.<telegram|discord>.commands`), over the global ones. */
export interface MenuSwitches {
  native?: "auto" | boolean;
  nativeSkills?: "auto" | boolean;
}

/**
 * The chat command registry as a platform command menu (`commands.native`, or the account's own
 * `commands.native` over it: "auto", the default, or true registers it; false does not; text
 * commands off means no menu either). Every command a
 * chat surface answers is listed, in `/help` order.
 */
export function nativeCommandMenu(config: OpenClawConfig, own: MenuSwitches = {}): NativeCommand[] {
  const commands = config.commands;
  if ((own.native ?? commands?.native) === false || commands?.text === false) return [];
  return CHAT_COMMANDS.all()
    .filter((c) => !c.surfaces || c.surfaces.includes("channel"))
    .filter((c) => NAME.test(c.name))
    .slice(0, MAX_COMMANDS)
    .map((c) => {
      const description = menuDescription(`${c.args ? `${c.args} — ` : ""}${describeCommand(c)}`);
      return c.args ? { command: c.name, description, args: c.args } : { command: c.name, description };
    });
}

/**
 * `commands.nativeSkills` ("auto", the default, or true): the agent's user-invocable skills by
 * their own command names after the chat commands, within the platform's 100 entries. Off with
 * `false`, with text commands off, or where a platform has no command menu.
 */
export function nativeSkillMenu(config: OpenClawConfig, skills: readonly InvocableSkill[], chatCommands: number, own: MenuSwitches = {}): NativeCommand[] {
  if ((own.nativeSkills ?? config.commands?.nativeSkills) === false || config.commands?.text === false) return [];
  return [...skillCommands(skills)]
    .slice(0, Math.max(0, MAX_COMMANDS - chatCommands))
    .map(([command, skill]) => ({ command, description: menuDescription(skill.description || `run the skill ${skill.name}`), args: "[input]" }));
}

function menuDescription(text: string): string {
  return text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text;
}
