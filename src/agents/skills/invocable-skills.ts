import type { OpenClawConfig } from "../../config/index.js";
import { resolveWorkspaceDir } from "../context/workspace.js";
import { cachedSkills } from "../turn-context-cache.js";
import { filterSkills, skillSettings } from "./filter-skills.js";
import { resolveSkillAllowlist } from "./skill-allowlist.js";

/** A skill a person may run with `/skill <name>`. */
export interface InvocableSkill {
  name: string;
  description: string;
  /** Absolute path of its SKILL.md. */
  filePath: string;
}

/**
 * The skills of `agentId` a user may run: the ones its turns could use (same discovery, gating and
 * allowlist) whose frontmatter does not say `user-invocable: false`.
 */
export async function listInvocableSkills(config: OpenClawConfig, agentId: string, stateDir: string, env: NodeJS.ProcessEnv): Promise<InvocableSkill[]> {
  const workspaceDir = resolveWorkspaceDir(config, agentId, stateDir, env);
  const discovered = await cachedSkills(workspaceDir, stateDir, env, config.skills?.load);
  return filterSkills(discovered.skills, { env, config, ...skillSettings(config), allowlist: resolveSkillAllowlist(config, agentId) })
    .kept.filter((s) => s.userInvocable)
    .map((s) => ({ name: s.name, description: s.description, filePath: s.filePath }));
}
