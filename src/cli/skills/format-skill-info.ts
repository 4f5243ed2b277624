import type { SkillStatusEntry } from "../../agents/skills/skill-status.js";
import { formatKeyPath } from "../../config/index.js";
import { REQUIREMENT_GROUPS, nameWithEmoji, oneLine, statusLabel } from "./skill-labels.js";

/** A config key path as the shell takes it: quoted when it holds `[`, `"` or spaces. */
function shellArg(text: string): string {
  return /^[A-Za-z0-9_.$-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

function entryKey(skill: SkillStatusEntry, field: string): string {
  return shellArg(formatKeyPath(["skills", "entries", skill.skillKey, field]));
}

/** Each requirement of one kind, ticked when met (`anyBins` and `os` as one choice). */
function requirementLine(skill: SkillStatusEntry, key: (typeof REQUIREMENT_GROUPS)[number][0]): string {
  const required = skill.requirements[key];
  const missing = skill.missing[key];
  const mark = (text: string, met: boolean) => `${met ? "✓" : "✗"} ${text}`;
  if (key === "anyBins") return mark(`(any of: ${required.join(", ")})`, missing.length === 0);
  if (key === "os") return mark(`(${required.join(", ")})`, missing.length === 0);
  return required.map((r) => mark(r, !missing.includes(r))).join(", ");
}

/** What would make the skill ready for this agent, one step per reason it is not (the primary key has its own section). */
function fixes(skill: SkillStatusEntry, agentId: string): string[] {
  const steps: string[] = [];
  if (skill.disabled) steps.push(`turn it on: openclaw config set ${entryKey(skill, "enabled")} true`);
  if (skill.blockedByAllowlist) steps.push(`add "${skill.name}" to skills.allowBundled`);
  if (skill.blockedByAgentFilter) steps.push(`add "${skill.name}" to the agent's skills allowlist (agents.entries.${agentId}.skills, else agents.defaults.skills)`);
  const { bins, anyBins, env, config, os } = skill.missing;
  if (bins.length > 0) steps.push(`install ${bins.join(", ")} on the PATH the gateway runs with`);
  if (anyBins.length > 0) steps.push(`install one of ${anyBins.join(", ")} on the PATH the gateway runs with`);
  const otherEnv = env.filter((name) => name !== skill.primaryEnv);
  if (otherEnv.length > 0)
    steps.push(`set ${otherEnv.join(", ")} in the gateway's environment, env.vars, or ${shellArg(formatKeyPath(["skills", "entries", skill.skillKey, "env"]))}`);
  for (const keyPath of config) steps.push(`give ${keyPath} a true value: openclaw config set ${shellArg(keyPath)} <value>`);
  if (os.length > 0) steps.push(`runs only on ${os.join(", ")} (this is ${process.platform})`);
  return steps;
}

/** `skills info`: status, description, details, each requirement ticked or crossed, and how to make it ready. */
export function formatSkillInfo(skill: SkillStatusEntry, agentId: string, configPath: string): string {
  const lines = [`${nameWithEmoji(skill)} ${statusLabel(skill, true)}`, "", oneLine(skill.description), "", "Details:"];
  lines.push(`  Source: ${skill.source}`, `  Path: ${skill.filePath}`);
  if (skill.homepage) lines.push(`  Homepage: ${skill.homepage}`);
  lines.push(`  Visible to model: ${skill.modelVisible ? "yes" : "no"}`, `  Available as command: ${skill.commandVisible ? "yes" : "no"}`);
  if (skill.blockedByAgentFilter) lines.push("  Agent allowlist: excludes this skill");
  if (skill.primaryEnv) lines.push(`  Primary env: ${skill.primaryEnv}`);
  const groups = REQUIREMENT_GROUPS.filter(([key]) => skill.requirements[key].length > 0);
  if (groups.length > 0) {
    lines.push("", "Requirements:");
    for (const [key, label] of groups) lines.push(`  ${label}: ${requirementLine(skill, key)}`);
  }
  const steps = fixes(skill, agentId);
  if (steps.length > 0) lines.push("", "To make it ready:", ...steps.map((step) => `  → ${step}`));
  if (skill.primaryEnv && skill.missing.env.includes(skill.primaryEnv)) {
    lines.push("", "API key setup:");
    if (skill.homepage) lines.push(`  Get your key: ${skill.homepage}`);
    lines.push(`  Save via CLI: openclaw config set ${entryKey(skill, "apiKey")} YOUR_KEY`, `  Stored in: ${configPath}`);
  }
  return `${lines.join("\n")}\n`;
}
