import type { SkillIndexEntry } from "./skills-index.js";

/**
 * Where a skill was found, highest precedence first (see docs/skills.md). A skill name found in
 * several places is taken from the highest one; that is how a user overrides a bundled skill.
 */
export const SKILL_SOURCES = ["workspace", "workspace-agents", "personal-agents", "managed", "bundled", "extra"] as const;
export type SkillSource = (typeof SKILL_SOURCES)[number];

/** `metadata.openclaw.requires`: every list is empty when the skill asks for nothing. */
export interface SkillRequirements {
  /** All must be executables on PATH. */
  bins: string[];
  /** At least one must be on PATH (when the list is not empty). */
  anyBins: string[];
  /** Each must be set in the environment (or supplied by `skills.entries.<key>`). */
  env: string[];
  /** Each config key path must hold a truthy value. */
  config: string[];
}

/** The gating part of `metadata.openclaw` (legacy `metadata.clawdbot` is read the same way). */
export interface SkillGating {
  /** Platforms (`process.platform` values) the skill works on; absent means any. */
  os?: string[];
  requires: SkillRequirements;
  /** Skip the `requires` checks (but still honour `os`). */
  always: boolean;
  /** The env var that `skills.entries.<key>.apiKey` supplies. */
  primaryEnv?: string;
  /** The key under `skills.entries`, when it differs from the name. */
  skillKey?: string;
  emoji?: string;
}

export interface DiscoveredSkill extends SkillIndexEntry {
  /** The folder holding SKILL.md; relative paths in the skill resolve against it. */
  baseDir: string;
  source: SkillSource;
  /** Whether users may run it as `/<name>` (frontmatter `user-invocable`, default true). */
  userInvocable: boolean;
  disableModelInvocation: boolean;
  homepage?: string;
  gating: SkillGating;
}
