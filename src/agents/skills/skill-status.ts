import path from "node:path";
import type { OpenClawConfig } from "../../config/index.js";
import { defaultAgentId, normalizeAgentId } from "../agent-config.js";
import { resolveWorkspaceDir } from "../context/workspace.js";
import { unknownAgentRefusal } from "../known-agent.js";
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
  agentId: string;
  /** The agent's skills allowlist (`resolveSkillAllowlist`); absent when every skill may be offered. */
  agentSkillFilter?: string[];
  workspaceDir: string;
  managedSkillsDir: string;
  skills: SkillStatusEntry[];
}

/** A status report and the discovery warnings behind it (skills skipped, folders not readable). */
export interface SkillStatus {
  report: SkillStatusReport;
  warnings: string[];
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
 * The agent a status is asked for: `requested` (case-insensitive) or, absent, the default agent.
 * A name the config does not define is refused, naming the agents it does.
 */
export function resolveSkillStatusAgent(config: OpenClawConfig, requested: string | undefined): { agentId: string } | { refusal: string } {
  if (requested === undefined) return { agentId: defaultAgentId(config) };
  const refusal = unknownAgentRefusal(config, requested);
  return refusal ? { refusal } : { agentId: normalizeAgentId(requested) };
}

/**
 * Every skill `agentId` could be offered (the same discovery its turns use), each with whether it is
 * ready here, whether the agent's allowlist lets it in, and what it is missing: `skills.status` and
 * `openclaw skills list|info|check`. `env` is the environment the skills would run in (PATH, variables).
 */
export async function skillStatus(config: OpenClawConfig, agentId: string, stateDir: string, env: NodeJS.ProcessEnv): Promise<SkillStatus> {
  const workspaceDir = resolveWorkspaceDir(config, agentId, stateDir, env);
  const discovered = await cachedSkills(workspaceDir, stateDir, env, config.skills?.load);
  const allowlist = resolveSkillAllowlist(config, agentId);
  const report: SkillStatusReport = {
    agentId,
    ...(allowlist ? { agentSkillFilter: allowlist } : {}),
    workspaceDir,
    managedSkillsDir: path.join(stateDir, "skills"),
    skills: discovered.skills.map((skill) => statusOf(skill, missingRequirements(skill, { env, config, ...skillSettings(config) }), allowlist, config)),
  };
  return { report, warnings: [...discovered.warnings] };
}
