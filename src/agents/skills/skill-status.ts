import path from "node:path";
import type { OpenClawConfig } from "../../config/index.js";
import { resolveWorkspaceDir } from "../context/workspace.js";
import { cachedSkills } from "../turn-context-cache.js";
import { missingRequirements, skillSettings, type MissingRequirements } from "./filter-skills.js";
import { resolveSkillAllowlist } from "./skill-allowlist.js";
import type { DiscoveredSkill, SkillSource } from "./skill-types.js";

/** How OpenClaw names where a skill came from (`openclaw skills list` shows it as Source). */
const SOURCE_LABELS: Record<SkillSource, string> = {
  workspace: "openclaw-workspace",
  "workspace-agents": "agents-skills-project",
  "personal-agents": "agents-skills-personal",
  managed: "openclaw-managed",
  bundled: "openclaw-bundled",
  extra: "openclaw-extra",
};

/** One skill as `skills.status` reports it: OpenClaw's status entry, with what this gateway knows. */
export interface SkillStatusEntry {
  name: string;
  description: string;
  source: string;
  bundled: boolean;
  filePath: string;
  baseDir: string;
  skillKey: string;
  primaryEnv?: string;
  emoji?: string;
  homepage?: string;
  always: boolean;
  disabled: boolean;
  blockedByAllowlist: boolean;
  blockedByAgentFilter: boolean;
  eligible: boolean;
  platformIncompatible: boolean;
  modelVisible: boolean;
  userInvocable: boolean;
  commandVisible: boolean;
  requirements: MissingRequirements;
  missing: MissingRequirements;
  configChecks: never[];
  install: never[];
}

export interface SkillStatusReport {
  workspaceDir: string;
  managedSkillsDir: string;
  skills: SkillStatusEntry[];
}

function statusOf(skill: DiscoveredSkill, missing: MissingRequirements, allowlist: readonly string[] | undefined, config: OpenClawConfig): SkillStatusEntry {
  const { requires, os, always, primaryEnv, skillKey, emoji } = skill.gating;
  const { allowBundled, entries } = skillSettings(config);
  const disabled = entries?.[skillKey ?? skill.name]?.enabled === false;
  const blockedByAllowlist = skill.source === "bundled" && allowBundled !== undefined && !allowBundled.includes(skill.name);
  const eligible = !disabled && !blockedByAllowlist && Object.values(missing).every((list) => list.length === 0);
  const blockedByAgentFilter = allowlist !== undefined && !allowlist.includes(skill.name);
  const offered = eligible && !blockedByAgentFilter;
  return {
    name: skill.name,
    description: skill.description,
    source: SOURCE_LABELS[skill.source],
    bundled: skill.source === "bundled",
    filePath: skill.filePath,
    baseDir: skill.baseDir,
    skillKey: skillKey ?? skill.name,
    ...(primaryEnv ? { primaryEnv } : {}),
    ...(emoji ? { emoji } : {}),
    ...(skill.homepage ? { homepage: skill.homepage } : {}),
    always,
    disabled,
    blockedByAllowlist,
    blockedByAgentFilter,
    eligible,
    platformIncompatible: missing.os.length > 0,
    modelVisible: offered && !skill.disableModelInvocation,
    userInvocable: skill.userInvocable,
    commandVisible: offered && skill.userInvocable,
    requirements: { bins: [...requires.bins], anyBins: [...requires.anyBins], env: [...requires.env], config: [...requires.config], os: [...(os ?? [])] },
    missing,
    configChecks: [],
    install: [],
  };
}

/**
 * Every skill `agentId` could be offered (the same discovery its turns use), each with whether it is
 * ready here, whether the agent's allowlist lets it in, and what it is missing: `skills.status`.
 */
export async function skillStatusReport(config: OpenClawConfig, agentId: string, stateDir: string, env: NodeJS.ProcessEnv): Promise<SkillStatusReport> {
  const workspaceDir = resolveWorkspaceDir(config, agentId, stateDir, env);
  const discovered = await cachedSkills(workspaceDir, stateDir, env, config.skills?.load);
  const allowlist = resolveSkillAllowlist(config, agentId);
  return {
    workspaceDir,
    managedSkillsDir: path.join(stateDir, "skills"),
    skills: discovered.skills.map((skill) => statusOf(skill, missingRequirements(skill, { env, config, ...skillSettings(config) }), allowlist, config)),
  };
}
