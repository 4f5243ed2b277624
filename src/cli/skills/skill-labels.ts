import type { MissingRequirements } from "../../agents/skills/filter-skills.js";
import type { SkillStatusEntry } from "../../agents/skills/skill-status.js";

/** The requirement kinds in the order OpenClaw prints them, with their labels. */
export const REQUIREMENT_GROUPS: readonly (readonly [keyof MissingRequirements, string])[] = [
  ["bins", "Binaries"],
  ["anyBins", "Any binaries"],
  ["env", "Environment"],
  ["config", "Config"],
  ["os", "OS"],
];

/** Ready for this agent: requirements met, not switched off, and its allowlist lets it in. */
export function isReadyForAgent(skill: SkillStatusEntry): boolean {
  return skill.eligible && !skill.blockedByAgentFilter;
}

/** Lacks something to run here, as opposed to being switched off or blocked on purpose. */
export function hasMissingRequirements(skill: SkillStatusEntry): boolean {
  return !skill.eligible && !skill.disabled && !skill.blockedByAllowlist;
}

/** The status word, most decisive reason first: short in tables, `detailed` in `skills info`. */
export function statusLabel(skill: SkillStatusEntry, detailed = false): string {
  if (skill.disabled) return detailed ? "⏸ Disabled" : "⏸ disabled";
  if (skill.blockedByAllowlist) return detailed ? "🚫 Blocked by allowlist" : "🚫 blocked";
  if (skill.blockedByAgentFilter) return detailed ? "🚫 Excluded by agent allowlist" : "🚫 excluded";
  if (skill.eligible) return detailed ? "✓ Ready" : "✓ ready";
  return detailed ? "△ Needs setup" : "△ needs setup";
}

/** The name after its emoji (📦 when the skill sets none), tabs and line breaks as spaces. */
export function nameWithEmoji(skill: SkillStatusEntry): string {
  return `${skill.emoji ?? "📦"} ${oneLine(skill.name)}`;
}

/** `bins: gh; env: GITHUB_TOKEN`: each kind of requirement that is missing. */
export function missingSummary(skill: SkillStatusEntry): string {
  return REQUIREMENT_GROUPS.filter(([key]) => skill.missing[key].length > 0)
    .map(([key]) => `${key}: ${skill.missing[key].join(", ")}`)
    .join("; ");
}

/** Text for one table cell or line: tabs and line breaks become single spaces. */
export function oneLine(text: string): string {
  return text.replace(/[\t\r\n]+/g, " ");
}
