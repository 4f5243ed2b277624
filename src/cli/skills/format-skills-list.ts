import type { SkillStatusReport } from "../../agents/skills/skill-status.js";
import { alignColumns, terminalWidth } from "../../infra/text-table.js";
import { isReadyForAgent, missingSummary, nameWithEmoji, oneLine, statusLabel } from "./skill-labels.js";

export interface SkillsListOptions {
  eligible?: boolean;
  verbose?: boolean;
}

/** `skills list --json`: OpenClaw's shape, each skill with the fields a listing needs. */
export function skillsListJson(report: SkillStatusReport, opts: SkillsListOptions) {
  const skills = opts.eligible ? report.skills.filter(isReadyForAgent) : report.skills;
  return {
    workspaceDir: report.workspaceDir,
    managedSkillsDir: report.managedSkillsDir,
    skills: skills.map((s) => ({
      name: s.name,
      description: s.description,
      emoji: s.emoji,
      eligible: s.eligible,
      disabled: s.disabled,
      blockedByAllowlist: s.blockedByAllowlist,
      blockedByAgentFilter: s.blockedByAgentFilter,
      modelVisible: s.modelVisible,
      userInvocable: s.userInvocable,
      commandVisible: s.commandVisible,
      source: s.source,
      bundled: s.bundled,
      primaryEnv: s.primaryEnv,
      homepage: s.homepage,
      missing: s.missing,
    })),
  };
}

/** `skills list`: a heading with how many are ready, then Status, Skill, Description, Source (and Missing with --verbose). */
export function formatSkillsList(report: SkillStatusReport, opts: SkillsListOptions): string {
  const skills = opts.eligible ? report.skills.filter(isReadyForAgent) : report.skills;
  if (skills.length === 0) return opts.eligible ? "No eligible skills found. Run `openclaw skills list` to see all skills.\n" : "No skills found.\n";
  const header = ["Status", "Skill", "Description", "Source", ...(opts.verbose ? ["Missing"] : [])];
  const rows = skills.map((s) => [statusLabel(s), nameWithEmoji(s), oneLine(s.description), s.source, ...(opts.verbose ? [missingSummary(s)] : [])]);
  const ready = skills.filter(isReadyForAgent).length;
  return [`Skills (${ready}/${skills.length} ready)`, ...alignColumns([header, ...rows], terminalWidth), ""].join("\n");
}
