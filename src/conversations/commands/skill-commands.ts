import type { InvocableSkill } from "../../agents/skills/invocable-skills.js";

const COMMAND_LINE = /^\/([A-Za-z0-9_-]+)(?:\s+([\s\S]*))?$/;
const MAX_NAME = 32;

/** What the agent is handed for a skill a person runs (`/skill <name>` or the skill's own command). */
export function skillInstruction(skill: InvocableSkill, input: string): string {
  return `Use the skill "${skill.name}": read ${skill.filePath} first and follow it.${input ? `\n\n${input}` : ""}`;
}

/**
 * Each user-invocable skill as a command of its own, OpenClaw's way: the name lowercased, runs of
 * anything but a-z, 0-9 and _ turned into one `_`, at most 32 characters; a name a chat command
 * already has (in `reserved`) or an earlier skill took gets `_2`, `_3`, ….
 */
export function skillCommandNames(skills: readonly InvocableSkill[], reserved: ReadonlySet<string>): Map<string, InvocableSkill> {
  const names = new Map<string, InvocableSkill>();
  for (const skill of skills) {
    const base = skill.name
      .toLowerCase()
      .replace(/[^a-z0-9_]+/g, "_")
      .replace(/_+/g, "_")
      .replace(/^_|_$/g, "")
      .slice(0, MAX_NAME);
    if (!base) continue;
    let name = base;
    for (let n = 2; reserved.has(name) || names.has(name); n += 1) name = `${base.slice(0, MAX_NAME - String(n).length - 1)}_${n}`;
    names.set(name, skill);
  }
  return names;
}

/** `/<skill command> [input]` as the text for the agent, or undefined when `text` names no skill. */
export function skillCommandText(text: string, names: ReadonlyMap<string, InvocableSkill>): string | undefined {
  const line = COMMAND_LINE.exec(text.trim());
  const skill = line ? names.get(line[1]!.toLowerCase()) : undefined;
  return skill ? skillInstruction(skill, (line![2] ?? "").trim()) : undefined;
}
