import { CliError, printJson } from "./output.js";
import { findSkill } from "./skills/find-skill.js";
import { formatSkillInfo } from "./skills/format-skill-info.js";
import { formatSkillsCheck, skillsCheckJson } from "./skills/format-skills-check.js";
import { formatSkillsList, skillsListJson } from "./skills/format-skills-list.js";
import { loadSkillStatus } from "./skills/load-skill-status.js";

interface SkillsFlags {
  agent?: string;
  json?: boolean;
}

/** `openclaw skills list`: every skill the agent could be offered, with its status and source. */
export async function skillsListCommand(flags: SkillsFlags & { eligible?: boolean; verbose?: boolean }): Promise<void> {
  const { report } = await loadSkillStatus(flags);
  if (flags.json) return printJson(skillsListJson(report, flags));
  process.stdout.write(formatSkillsList(report, flags));
}

/** `openclaw skills info <name>`: one skill's status, requirements and how to make it ready. */
export async function skillsInfoCommand(name: string, flags: SkillsFlags): Promise<void> {
  const { report, configPath } = await loadSkillStatus(flags);
  const found = findSkill(report.skills, name);
  if ("ambiguous" in found) throw new CliError(`Skill "${name}" matches several skills (${found.ambiguous.join(", ")}); give its exact name.`);
  if ("notFound" in found) throw new CliError(`Skill "${name}" not found for agent ${report.agentId}. Run \`openclaw skills list\` to see available skills.`);
  if (flags.json) return printJson(found.skill);
  process.stdout.write(formatSkillInfo(found.skill, report.agentId, configPath));
}

/** `openclaw skills check`: how many skills are ready, switched off, blocked or missing something, and which. */
export async function skillsCheckCommand(flags: SkillsFlags): Promise<void> {
  const { report } = await loadSkillStatus(flags);
  if (flags.json) return printJson(skillsCheckJson(report));
  process.stdout.write(formatSkillsCheck(report));
}
