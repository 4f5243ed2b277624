import type { SkillStatusEntry, SkillStatusReport } from "../../agents/skills/skill-status.js";
import { hasMissingRequirements, missingSummary, nameWithEmoji } from "./skill-labels.js";

/** The skills of a report sorted into OpenClaw's `skills check` groups (a skill may be in several). */
function groups(report: SkillStatusReport) {
  const { skills } = report;
  return {
    eligible: skills.filter((s) => s.eligible),
    modelVisible: skills.filter((s) => s.modelVisible),
    commandVisible: skills.filter((s) => s.commandVisible),
    disabled: skills.filter((s) => s.disabled),
    blocked: skills.filter((s) => s.blockedByAllowlist && !s.disabled),
    agentFiltered: skills.filter((s) => s.blockedByAgentFilter),
    notInjected: skills.filter((s) => s.eligible && !s.blockedByAgentFilter && !s.modelVisible),
    missingRequirements: skills.filter(hasMissingRequirements),
  };
}

const names = (skills: SkillStatusEntry[]) => skills.map((s) => s.name);

/** `skills check --json`: OpenClaw's shape, counts in `summary` and each group's names. */
export function skillsCheckJson(report: SkillStatusReport) {
  const g = groups(report);
  return {
    agentId: report.agentId,
    agentSkillFilter: report.agentSkillFilter,
    workspaceDir: report.workspaceDir,
    managedSkillsDir: report.managedSkillsDir,
    summary: {
      total: report.skills.length,
      eligible: g.eligible.length,
      modelVisible: g.modelVisible.length,
      commandVisible: g.commandVisible.length,
      disabled: g.disabled.length,
      blocked: g.blocked.length,
      agentFiltered: g.agentFiltered.length,
      notInjected: g.notInjected.length,
      missingRequirements: g.missingRequirements.length,
    },
    eligible: names(g.eligible),
    modelVisible: names(g.modelVisible),
    commandVisible: names(g.commandVisible),
    disabled: names(g.disabled),
    blocked: names(g.blocked),
    agentFiltered: names(g.agentFiltered),
    notInjected: g.notInjected.map((s) => ({ name: s.name, reason: "disable-model-invocation" })),
    missingRequirements: g.missingRequirements.map((s) => ({ name: s.name, missing: s.missing, install: s.install })),
  };
}

/** `skills check`: the counts, what they mean, then the skills ready, hidden, excluded and missing something. */
export function formatSkillsCheck(report: SkillStatusReport): string {
  const g = groups(report);
  const lines = ["Skills Status Check", `Agent: ${report.agentId}`, ""];
  lines.push(
    `Total: ${report.skills.length}`,
    `✓ Eligible: ${g.eligible.length}`,
    `✓ Visible to model: ${g.modelVisible.length}`,
    `✓ Available as command: ${g.commandVisible.length}`,
    `⏸ Disabled: ${g.disabled.length}`,
    `🚫 Blocked by allowlist: ${g.blocked.length}`,
    `🚫 Excluded by agent allowlist: ${g.agentFiltered.length}`,
  );
  if (g.notInjected.length > 0) lines.push(`△ Ready but hidden from model prompt: ${g.notInjected.length}`);
  lines.push(`✗ Missing requirements: ${g.missingRequirements.length}`);
  if (g.modelVisible.length > 0 || g.commandVisible.length > 0 || g.notInjected.length > 0) {
    lines.push("", "What this means:", "  Eligible: installed and requirements pass; the agent may still exclude it.");
    if (g.modelVisible.length > 0) lines.push("  Visible to model: the agent can see the skill instructions during normal chat.");
    if (g.commandVisible.length > 0) lines.push("  Available as command: people, scripts, or automations can call the skill explicitly.");
    if (g.notInjected.length > 0) lines.push("  Hidden from model prompt: installed and ready, but kept out of normal chat.");
  }
  const section = (title: string, skills: SkillStatusEntry[], note: (s: SkillStatusEntry) => string) => {
    if (skills.length === 0) return;
    lines.push("", title, ...skills.map((s) => `  ${nameWithEmoji(s)}${note(s) ? ` (${note(s)})` : ""}`));
  };
  section("Ready and visible to model:", g.modelVisible, () => "");
  section("Ready but hidden from model prompt:", g.notInjected, (s) =>
    s.commandVisible ? "skill hides its instructions from the model; commands may still use it" : "skill hides its instructions from the model and is not exposed as a command",
  );
  section("Excluded by agent allowlist:", g.agentFiltered, () => "loaded, but this agent is not allowed to see/use it");
  section("Missing requirements:", g.missingRequirements, missingSummary);
  return `${lines.join("\n")}\n`;
}
